import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormAlert } from "~/components/forms";
import { labelDefault, placementLabelKey, slotLabelKey } from "~/domain/placement-labels";
import { formatMoney } from "~/domain/money";
import type { TargetHit } from "~/domain/search-contract";
import { requireUser } from "~/http/auth.server";
import { statusOf } from "~/http/reply.server";
import { useRootData } from "~/root";
import { readInventory } from "~/services/catalog.server";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "inventory");

/** What advertisers can buy (operators and retailer staff): page types and their slots, and the demand for keywords and categories. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Inventory");
  const q = (new URL(request.url).searchParams.get("q") ?? "").slice(0, 200);
  const result = await readInventory(user, q);
  if (!result.ok) throw data({ error: result.reason }, { status: statusOf(result) });
  return { q, ...result.value };
}

export default function InventoryRoute() {
  const { t, i18n } = useTranslation("catalog");
  const { q, pageTypes, types, keywords, categories, operatorFigures, suggestedBids, floorPrices } = useLoaderData<typeof loader>();
  const root = useRootData();
  const currency = root?.money.currency ?? "EUR";
  const language = i18n.language;
  const money = (cents: number | null | undefined) => (typeof cents === "number" ? formatMoney(cents, currency, language) : "—");
  const number = (n: number | null | undefined) => (typeof n === "number" ? new Intl.NumberFormat(language).format(n) : "—");
  const percent = (n: number | null | undefined, signed = false) =>
    typeof n === "number" ? new Intl.NumberFormat(language, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: signed ? "exceptZero" : "auto" }).format(n) : "—";
  const placementName = (p: string) => t(placementLabelKey(p), labelDefault(p));
  const slotName = (s: string) => t(slotLabelKey(s), labelDefault(s));

  const demandTable = (kind: "keywords" | "categories", table: { hits: TargetHit[]; failed: string | null }) => {
    const label = (key: string) => t(`inventory.columns.${key}`);
    return (
      <section className="panel" aria-labelledby={`inventory-${kind}-title`}>
        <h2 id={`inventory-${kind}-title`}>{t(`inventory.${kind}.title`)}</h2>
        {table.failed ? <FormAlert title={t(table.failed)} message={t("common:errors.errorOccurred")} /> : null}
        {!table.failed && table.hits.length === 0 ? (
          <p className="empty-state">{t(q ? `inventory.${kind}.noMatch` : `inventory.${kind}.empty`)}</p>
        ) : null}
        {table.hits.length > 0 ? (
          <div className="table-wrap">
            <table className="list-table inventory-demand" data-kind={kind}>
              <caption className="visually-hidden">{t(`inventory.${kind}.title`)}</caption>
              <thead>
                <tr>
                  <th scope="col">{label(kind === "keywords" ? "keyword" : "category")}</th>
                  <th scope="col" className="num">
                    {label("volume")}
                  </th>
                  <th scope="col" className="num">
                    {label("trend")}
                  </th>
                  <th scope="col" className="num">
                    {label("hits")}
                  </th>
                  {floorPrices ? (
                    <th scope="col" className="num">
                      {label("floorPrice")}
                    </th>
                  ) : null}
                  {suggestedBids ? (
                    <th scope="col" className="num">
                      {label("suggestedBid")}
                    </th>
                  ) : null}
                  {operatorFigures ? (
                    <>
                      <th scope="col" className="num">
                        {label("productsPerPage")}
                      </th>
                      <th scope="col" className="num">
                        {label("fillRate")}
                      </th>
                      <th scope="col" className="num">
                        {label("conversionRate")}
                      </th>
                    </>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {table.hits.map((hit) => (
                  <tr key={hit.id}>
                    <th scope="row" className="inventory-target">
                      {kind === "categories" && hit.hierarchies?.length ? hit.hierarchies.join(" › ") : hit.name}
                      {kind === "categories" ? (
                        <span className="muted inventory-page-type">{t(`inventory.pageTypes.${hit.page_type}`, { defaultValue: hit.page_type ?? "—" })}</span>
                      ) : null}
                    </th>
                    <td className="num" data-label={label("volume")}>
                      {number(hit.volume)}
                    </td>
                    <td className="num" data-label={label("trend")}>
                      {percent(hit.trend, true)}
                    </td>
                    <td className="num" data-label={label("hits")}>
                      {number(hit.hits)}
                    </td>
                    {floorPrices ? (
                      <td className="num" data-label={label("floorPrice")}>
                        {money(hit.floor_price)}
                      </td>
                    ) : null}
                    {suggestedBids ? (
                      <td className="num" data-label={label("suggestedBid")}>
                        {typeof hit.suggested_bid === "number" ? (
                          <span className="inventory-bid">
                            <strong>{money(hit.suggested_bid)}</strong>
                            <br />
                            <span className="muted">{t("inventory.bidRange", { lower: money(hit.lower_bid), upper: money(hit.upper_bid) })}</span>
                          </span>
                        ) : (
                          "—"
                        )}
                      </td>
                    ) : null}
                    {operatorFigures ? (
                      <>
                        <td className="num" data-label={label("productsPerPage")}>
                          {number(hit.products_per_page)}
                        </td>
                        <td className="num" data-label={label("fillRate")}>
                          {percent(hit.fill_rate)}
                        </td>
                        <td className="num" data-label={label("conversionRate")}>
                          {percent(hit.conversion_rate)}
                        </td>
                      </>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
    );
  };

  return (
    <>
      <h1>{t("inventory.title")}</h1>
      <p className="muted">{t("inventory.intro")}</p>

      <section className="panel" aria-labelledby="inventory-pages-title">
        <h2 id="inventory-pages-title">{t("inventory.pages.title")}</h2>
        {types.length === 0 ? (
          <p className="empty-state">{t("inventory.pages.empty")}</p>
        ) : (
          <div className="table-wrap">
            <table className="list-table inventory-pages">
              <caption className="visually-hidden">{t("inventory.pages.title")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("inventory.pages.pageType")}</th>
                  {types.map((type) => (
                    <th scope="col" key={type}>
                      {t(`inventory.types.${type}`, { defaultValue: type })}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {pageTypes.map((page) => (
                  <tr key={page.placement}>
                    <th scope="row">{placementName(page.placement)}</th>
                    {page.slots.map(({ type, slots }) => (
                      <td key={type} data-label={t(`inventory.types.${type}`, { defaultValue: type })}>
                        {slots.length ? slots.map(slotName).join(", ") : <span className="muted">{t("inventory.pages.notSold")}</span>}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <Form method="get" action="/inventory" className="campaign-filters list-filters" role="search" aria-label={t("inventory.search.label")}>
        <div className="campaign-filters-row">
          <div className="field inventory-search">
            <label htmlFor="inventory-q">{t("inventory.search.field")}</label>
            <input id="inventory-q" type="search" name="q" defaultValue={q} maxLength={200} />
          </div>
        </div>
        <div className="campaign-filters-actions">
          <button type="submit" className="button">
            {t("inventory.search.submit")}
          </button>
          {q ? <Link to="/inventory">{t("filters.clear")}</Link> : null}
        </div>
      </Form>
      <p className="muted">{t("inventory.demandHelp")}</p>

      {demandTable("keywords", keywords)}
      {demandTable("categories", categories)}
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
