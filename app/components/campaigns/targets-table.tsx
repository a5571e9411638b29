/**
 * The table of a campaign's keywords, categories or product categories (issue 10 section 2): each
 * row its own form (on, bid, Save; 'Apply min bid' when the bid sits under the floor; Remove),
 * the floor price and suggested bid beside the bid, the products it advertises, and the figures
 * of the chosen period. Rows are forms through HTML's form attribute, so they work without
 * JavaScript; with it, Remix submits them without a reload.
 */
import { Form, Link, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useFigureFormat } from "~/components/metrics/statistics";
import { applyMinBidTargetsIntent, removeTargetsIntent, updateTargetIntent } from "~/forms/campaigns/keywords";
import type { TargetKind } from "~/domain/campaigns/targets";
import type { Derived } from "~/domain/metrics/metrics";
import { splitMessage } from "~/domain/message";
import { cn } from "~/utils/misc";

export interface TargetRowView {
  key: string;
  name: string;
  url: string | null;
  on: boolean;
  bid: string | null;
  bidInput: string;
  placement: "plp" | "hub" | "pdp";
  auto: boolean;
  offers: string[] | null;
  floor: string | null;
  suggested: string | null;
  belowFloor: boolean;
  figures: Derived | null;
}

/** A refused row: its key, the message, what was typed (kept), whether 'Apply min bid' is offered. */
export interface RowRefusal {
  key: string;
  failure: string;
  message: string;
  applyMin: boolean;
  values: { on: boolean; bid: string };
}

export function translate(t: (key: string, options?: Record<string, unknown>) => string, message: string): string {
  const { key, values } = splitMessage(message);
  return t(key, values);
}

/** The section's URL (`here`) with its query (`search`) changed: a null value removes a parameter. */
export function sectionHref(here: string, search: string, changes: Record<string, string | null>): string {
  const next = new URLSearchParams(search);
  for (const [k, v] of Object.entries(changes)) if (v === null) next.delete(k);
  else next.set(k, v);
  const qs = next.toString();
  return `${here}${qs ? `?${qs}` : ""}`;
}

/** 'Apply min bid to all': raises every bid of a kind left under its floor (shown when there is one). */
export function ApplyMinBidAll({ here, version, kind, count }: { here: string; version: number; kind: TargetKind; count: number }) {
  const { t } = useTranslation("campaignKeywords");
  return (
    <Form method="post" action={here} className="targets-min notice" preventScrollReset>
      <input type="hidden" name="intent" value={applyMinBidTargetsIntent} />
      <input type="hidden" name="version" value={version} />
      <input type="hidden" name="kind" value={kind} />
      <span>{t("belowFloorCount", { count })}</span>{" "}
      <button type="submit" className="button">
        {t("applyMinAll")}
      </button>
    </Form>
  );
}

export function rowFormId(kind: TargetKind, index: number) {
  return `target-${kind}-${index}`;
}

export function TargetsTable({
  kind,
  rows,
  version,
  canEdit,
  here,
  editHref,
  refusal,
  currency,
}: {
  /** The currency of the figures' money (the campaign's wallet's). */
  currency?: string;
  kind: TargetKind;
  rows: TargetRowView[];
  version: number;
  canEdit: boolean;
  here: string;
  /** The link that opens a row's products (?edit=key), keeping the page's other values. */
  editHref: (key: string) => string;
  refusal: RowRefusal | null;
}) {
  const { t } = useTranslation(["campaignKeywords", "campaigns"]);
  const { t: tc } = useTranslation();
  const figure = useFigureFormat(currency);
  const navigation = useNavigation();
  const busyKey = navigation.state !== "idle" ? String(navigation.formData?.get("key") ?? "") : "";
  const removeFormId = `targets-remove-${kind}`;
  const placementLabel = (p: string) => t(`placement.${p}`);
  return (
    <>
      {canEdit ? (
        <Form method="post" action={here} id={removeFormId} className="targets-bulk" preventScrollReset aria-label={t(`bulk.label.${kind}`)}>
          <input type="hidden" name="intent" value={removeTargetsIntent} />
          <input type="hidden" name="version" value={version} />
          <input type="hidden" name="kind" value={kind} />
          <span className="muted">{t("bulk.help")}</span>
          <button type="submit" className="button">
            {t("bulk.remove")}
          </button>
        </Form>
      ) : null}
      <div className="table-wrap">
        <table className="targets-table list-table">
          <caption className="visually-hidden">{t(`caption.${kind}`)}</caption>
          <thead>
            <tr>
              {canEdit ? (
                <th scope="col">
                  <span className="visually-hidden">{t("columns.select")}</span>
                </th>
              ) : null}
              <th scope="col">{t(`columns.name.${kind}`)}</th>
              <th scope="col">{t("columns.status")}</th>
              <th scope="col">{t("columns.bid")}</th>
              <th scope="col">{t("columns.floor")}</th>
              <th scope="col">{t("columns.suggested")}</th>
              <th scope="col">{t("columns.products")}</th>
              <th scope="col" className="num">
                {t("columns.displays")}
              </th>
              <th scope="col" className="num">
                {t("columns.clicks")}
              </th>
              <th scope="col" className="num">
                {t("columns.spend")}
              </th>
              {canEdit ? <th scope="col">{t("columns.actions")}</th> : null}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, index) => {
              const formId = rowFormId(kind, index);
              const refused = refusal && refusal.key === r.key ? refusal : null;
              const on = refused ? refused.values.on : r.on;
              const bid = refused ? refused.values.bid : r.bidInput;
              const errorId = refused ? `${formId}-error` : undefined;
              return (
                <tr key={`${r.key}-${version}`} id={`target-${kind}-${encodeURIComponent(r.key)}`} className={cn(!r.on && "targets-off", refused && "targets-failed")}>
                  {canEdit ? (
                    <td className="list-table-select">
                      <input type="checkbox" name="keys" value={r.key} form={removeFormId} aria-label={t("select", { name: r.name })} />
                    </td>
                  ) : null}
                  <th scope="row" className="targets-name">
                    {r.name}
                    {kind !== "keyword" ? <span className="muted targets-placement"> · {placementLabel(r.placement)}</span> : null}
                    {r.auto ? <span className="badge targets-auto">{t("auto.badge")}</span> : null}
                  </th>
                  <td data-label={t("columns.status")}>
                    {canEdit ? (
                      <label className="targets-on">
                        <input type="checkbox" name="on" value="yes" form={formId} defaultChecked={on} />
                        <span>{t("status.on")}</span>
                        <span className="visually-hidden"> {r.name}</span>
                      </label>
                    ) : (
                      <span className={cn("badge", r.on ? "products-on" : "products-off-badge")}>{r.on ? t("status.on") : t("status.off")}</span>
                    )}
                  </td>
                  <td data-label={t("columns.bid")}>
                    {canEdit ? (
                      <>
                        <input
                          type="text"
                          inputMode="decimal"
                          name="bid"
                          form={formId}
                          defaultValue={bid}
                          className="targets-bid"
                          placeholder={t("bid.short")}
                          aria-label={t("bid.of", { name: r.name })}
                          aria-invalid={refused ? true : undefined}
                          aria-describedby={errorId}
                        />
                        {refused ? (
                          <p id={errorId} className="field-errors targets-error" role="alert">
                            {translate(tc, refused.message)}
                          </p>
                        ) : null}
                      </>
                    ) : (
                      (r.bid ?? t("bid.campaign"))
                    )}
                  </td>
                  <td data-label={t("columns.floor")}>
                    {r.floor ?? "—"}
                    {r.belowFloor ? <span className="targets-under"> {t("belowFloor")}</span> : null}
                  </td>
                  <td data-label={t("columns.suggested")}>{r.suggested ?? "—"}</td>
                  <td data-label={t("columns.products")}>
                    {r.offers === null ? t("offers.all") : t("offers.some", { count: r.offers.length })}
                    {canEdit ? (
                      <>
                        {" "}
                        <Link to={editHref(r.key)} preventScrollReset>
                          {t("offers.edit")}
                          <span className="visually-hidden"> {r.name}</span>
                        </Link>
                      </>
                    ) : null}
                  </td>
                  <td className="num" data-label={t("columns.displays")}>{r.figures ? figure("displays", r.figures) : "—"}</td>
                  <td className="num" data-label={t("columns.clicks")}>{r.figures ? figure("clicks", r.figures) : "—"}</td>
                  <td className="num" data-label={t("columns.spend")}>{r.figures ? figure("cost", r.figures) : "—"}</td>
                  {canEdit ? (
                    <td data-label={t("columns.actions")}>
                      <div className="targets-actions">
                        <Form method="post" action={here} id={formId} preventScrollReset>
                          <input type="hidden" name="intent" value={updateTargetIntent} />
                          <input type="hidden" name="version" value={version} />
                          <input type="hidden" name="kind" value={kind} />
                          <input type="hidden" name="key" value={r.key} />
                          <button type="submit" className="button products-small" data-pending={busyKey === r.key || undefined}>
                            {t("row.save")}
                            <span className="visually-hidden"> {r.name}</span>
                          </button>
                          {refused?.applyMin || r.belowFloor ? (
                            <button type="submit" name="applyMin" value="yes" className="button products-small">
                              {t("applyMin")}
                              <span className="visually-hidden"> {r.name}</span>
                            </button>
                          ) : null}
                        </Form>
                        <Form method="post" action={here} preventScrollReset>
                          <input type="hidden" name="intent" value={removeTargetsIntent} />
                          <input type="hidden" name="version" value={version} />
                          <input type="hidden" name="kind" value={kind} />
                          <input type="hidden" name="keys" value={r.key} />
                          <button type="submit" className="button products-small">
                            {t("row.remove")}
                            <span className="visually-hidden"> {r.name}</span>
                          </button>
                        </Form>
                      </div>
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** The products a target advertises, chosen by checkbox (none or all: every product of the campaign). */
export function OffersChooser({ products, chosen, name = "offers", legend }: { products: { id: string; title: string }[]; chosen: string[] | null; name?: string; legend: string }) {
  const { t } = useTranslation("campaignKeywords");
  if (!products.length) return <p className="field-help">{t("offers.noProducts")}</p>;
  const picked = new Set(chosen ?? []);
  return (
    <fieldset className="targets-offers">
      <legend>{legend}</legend>
      <p className="field-help">{t("offers.help")}</p>
      <ul>
        {products.map((p) => (
          <li key={p.id}>
            <label>
              <input type="checkbox" name={name} value={p.id} defaultChecked={picked.has(p.id)} /> {p.title} <span className="muted">({p.id})</span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** The pages of a long list: previous and next links keeping the query. */
export function TargetPages({ page, pages, hrefOf }: { page: number; pages: number; hrefOf: (page: number) => string }) {
  const { t } = useTranslation("campaignKeywords");
  if (pages <= 1) return null;
  return (
    <nav className="pagination" aria-label={t("pages.label")}>
      {page > 1 ? <Link to={hrefOf(page - 1)}>{t("pages.previous")}</Link> : null}
      <span>{t("pages.of", { page, pages })}</span>
      {page < pages ? <Link to={hrefOf(page + 1)}>{t("pages.next")}</Link> : null}
    </nav>
  );
}
