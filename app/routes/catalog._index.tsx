import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormAlert } from "~/components/forms";
import { AVAILABILITIES, PARTIES } from "~/domain/availability";
import { availabilityKey, catalogQuery } from "~/domain/catalog-view";
import { formatMoney } from "~/domain/money";
import { can } from "~/domain/permissions";
import { MAX_SEARCH_SIZE } from "~/domain/search-contract";
import { requireUser } from "~/http/auth.server";
import { statusOf } from "~/http/reply.server";
import { useRootData } from "~/root";
import { browseCatalog, parseCatalogFilters } from "~/services/catalog.server";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "catalog");

/** The retailer's products (operators and retailer staff): search, filters and page in the URL. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Catalog");
  const filters = parseCatalogFilters(new URL(request.url).searchParams);
  const result = await browseCatalog(user, filters);
  if (!result.ok) throw data({ error: result.reason }, { status: statusOf(result) });
  return { filters, ...result.value, canImport: can(user, "Catalog", "update") };
}

export default function CatalogRoute() {
  const { t, i18n } = useTranslation("catalog");
  const { filters, rows, next, total, brands, searchCapped, filtersWithinCap, searchFailed, canImport } = useLoaderData<typeof loader>();
  const root = useRootData();
  const navigation = useNavigation();
  const currency = root?.money.currency ?? "EUR";
  const money = (cents: number | null) => (cents === null ? "—" : formatMoney(cents, currency, i18n.language));
  const number = new Intl.NumberFormat(i18n.language);
  const filtered = Boolean(filters.q || filters.availability || filters.party || filters.brand);
  const loading = navigation.state === "loading" && navigation.location?.pathname === "/catalog";
  const availabilityLabel = (a: string) => (a ? t(`availability.${availabilityKey(a)}`, { defaultValue: a }) : "—");
  const partyLabel = (p: string) => (p ? t(`party.${p}`, { defaultValue: p }) : "—");
  const brandIsListed = !filters.brand || brands.some((b) => b.toLocaleLowerCase("en") === filters.brand.toLocaleLowerCase("en"));

  return (
    <>
      <div className="page-header">
        <h1>{t("title")}</h1>
        {canImport ? (
          <Link to="/catalog/import" className="button">
            {t("importLink")}
          </Link>
        ) : null}
      </div>
      <p className="muted">{t("total", { count: total, formatted: number.format(total) })}</p>

      <Form method="get" action="/catalog" className="campaign-filters list-filters catalog-filters" role="search" aria-label={t("filters.label")}>
        <div className="campaign-filters-row">
          <div className="field catalog-search">
            <label htmlFor="catalog-q">{t("filters.search")}</label>
            <input id="catalog-q" type="search" name="q" defaultValue={filters.q} maxLength={200} aria-describedby="catalog-q-help" />
            <small id="catalog-q-help" className="muted">
              {t("filters.searchHelp")}
            </small>
          </div>
          <div className="field">
            <label htmlFor="catalog-availability">{t("fields.availability")}</label>
            <select id="catalog-availability" name="availability" defaultValue={filters.availability}>
              <option value="">{t("filters.anyAvailability")}</option>
              {AVAILABILITIES.map((a) => (
                <option key={a} value={a}>
                  {availabilityLabel(a)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="catalog-party">{t("fields.party")}</label>
            <select id="catalog-party" name="party" defaultValue={filters.party}>
              <option value="">{t("filters.anyParty")}</option>
              {PARTIES.map((p) => (
                <option key={p} value={p}>
                  {partyLabel(p)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="catalog-brand">{t("fields.brand")}</label>
            {brands.length > 0 && brandIsListed ? (
              <select id="catalog-brand" name="brand" defaultValue={brands.find((b) => b.toLocaleLowerCase("en") === filters.brand.toLocaleLowerCase("en")) ?? ""}>
                <option value="">{t("filters.anyBrand")}</option>
                {brands.map((b) => (
                  <option key={b} value={b}>
                    {b}
                  </option>
                ))}
              </select>
            ) : (
              <input id="catalog-brand" type="text" name="brand" defaultValue={filters.brand} maxLength={200} />
            )}
          </div>
        </div>
        <div className="campaign-filters-actions">
          <button type="submit" className="button" data-pending={loading || undefined}>
            {t("common:actions.filter")}
          </button>
          {filtered ? <Link to="/catalog">{t("filters.clear")}</Link> : null}
        </div>
      </Form>

      {searchFailed ? <FormAlert title={t(searchFailed)} message={t("common:errors.errorOccurred")} /> : null}
      {searchCapped ? (
        <p className="muted" role="note">
          {t(filtersWithinCap ? "searchCappedFiltered" : "searchCapped", { count: MAX_SEARCH_SIZE })}
        </p>
      ) : null}

      {rows.length === 0 ? (
        searchFailed ? null : (
          <div className="empty-state">
            <p>{t(total === 0 ? "empty.catalog" : "empty.noMatch")}</p>
            {total === 0 && canImport ? <Link to="/catalog/import">{t("importLink")}</Link> : null}
          </div>
        )
      ) : (
        <div className="table-wrap">
          <table className="list-table catalog-table">
            <caption className="visually-hidden">{t("caption")}</caption>
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">{t("fields.image")}</span>
                </th>
                <th scope="col">{t("fields.product")}</th>
                <th scope="col">{t("fields.availability")}</th>
                <th scope="col">{t("fields.party")}</th>
                <th scope="col">{t("fields.brand")}</th>
                <th scope="col" className="num">
                  {t("fields.price")}
                </th>
                <th scope="col" className="num">
                  {t("fields.strokePrice")}
                </th>
                <th scope="col">{t("fields.campaigns")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id}>
                  <td className="catalog-image-cell">
                    {row.image ? (
                      <img src={row.image} alt="" width={48} height={48} loading="lazy" className="products-image" />
                    ) : (
                      <span className="products-image products-image-none" aria-hidden="true" />
                    )}
                  </td>
                  <th scope="row" className="catalog-product">
                    {row.link ? (
                      <a href={row.link} rel="noopener noreferrer" target="_blank">
                        {row.title}
                        <span className="visually-hidden"> {t("opensInNewTab")}</span>
                      </a>
                    ) : (
                      row.title
                    )}
                    <br />
                    <span className="muted products-id">{row.id}</span>
                  </th>
                  <td data-label={t("fields.availability")}>{availabilityLabel(row.availability)}</td>
                  <td data-label={t("fields.party")}>{partyLabel(row.party)}</td>
                  <td data-label={t("fields.brand")}>{row.brand || "—"}</td>
                  <td className="num" data-label={t("fields.price")}>
                    {money(row.price)}
                  </td>
                  <td className="num" data-label={t("fields.strokePrice")}>
                    {row.strokePrice === null ? "—" : <s>{money(row.strokePrice)}</s>}
                  </td>
                  <td data-label={t("fields.campaigns")}>
                    {row.campaigns.length === 0 ? (
                      <span className="muted">{t("noCampaign")}</span>
                    ) : (
                      <ul className="catalog-campaigns">
                        {row.campaigns.map((c) => (
                          <li key={c.id}>
                            <Link to={`/campaigns/${c.id}`}>{c.name}</Link>
                          </li>
                        ))}
                        {row.moreCampaigns > 0 ? <li className="muted">{t("moreCampaigns", { count: row.moreCampaigns })}</li> : null}
                      </ul>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {filters.after || next ? (
        <nav className="pagination" aria-label={t("pages")}>
          {filters.after ? <Link to={`/catalog${catalogQuery(filters)}`}>{t("firstPage")}</Link> : null}
          {next ? <Link to={`/catalog${catalogQuery(filters, next)}`}>{t("common:actions.nextPage")}</Link> : null}
        </nav>
      ) : null}
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
