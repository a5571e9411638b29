/**
 * Bulk edit of the selected campaigns: the change form (the row checkboxes belong to it through
 * their form= attribute), the review step (what changes from what to what, what does not and why)
 * with its Confirm form, and the result per campaign. Each step is a server-rendered page of the
 * list's action, so it works without JavaScript.
 */
import { Form, Link, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { ErrorList, FormAlert, SubmitButton } from "~/components/forms";
import type { CampaignStatus } from "~/domain/campaigns/status";
import { bulkApplyIntent, bulkReviewIntent } from "~/forms/campaigns/list";
import { splitMessage } from "~/domain/message";

export const BULK_FORM_ID = "campaign-bulk-form";

type Shown = { kind: "status"; status: CampaignStatus } | { kind: "text"; text: string } | null;

export interface BulkRowViewData {
  id: string;
  name: string;
  version: number;
  field: "status" | "endDate" | "bid" | "pacingDaily";
  before: Shown;
  after: Shown;
  ok: boolean;
  changed: boolean;
  reason: string | null;
  problems: string[];
}

export interface BulkChangeEchoData {
  change: string;
  endDay: string;
  bid: string;
  daily: string;
}

// ---------------------------------------------------------------------------------------------
// The change form

export function BulkEditForm({ choices, errors }: { choices: readonly string[]; errors: string[] | null }) {
  const { t } = useTranslation(["campaignList", "campaigns"]);
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === bulkReviewIntent;
  const actions = choices.filter((c) => c.startsWith("action:"));
  const fields = choices.filter((c) => !c.startsWith("action:"));
  return (
    <Form method="post" id={BULK_FORM_ID} className="bulk-edit-form" aria-labelledby="bulk-edit-title">
      <h2 id="bulk-edit-title">{t("bulk.title")}</h2>
      <p className="field-help">{t("bulk.help")}</p>
      {errors?.length ? <FormAlert title={t("bulk.notReviewed")} /> : null}
      <ErrorList id="bulk-edit-errors" errors={errors} />
      <input type="hidden" name="intent" value={bulkReviewIntent} />
      <div className="bulk-edit-fields">
        <div className="field">
          <label htmlFor="bulk-change">{t("bulk.change")}</label>
          <select id="bulk-change" name="change" required defaultValue="">
            <option value="" disabled>
              {t("bulk.chooseChange")}
            </option>
            {actions.length ? (
              <optgroup label={t("bulk.statusActions")}>
                {actions.map((c) => (
                  <option key={c} value={c}>
                    {t(`campaigns:actions.${c.slice("action:".length)}`)}
                  </option>
                ))}
              </optgroup>
            ) : null}
            {fields.length ? (
              <optgroup label={t("bulk.fieldEdits")}>
                {fields.map((c) => (
                  <option key={c} value={c}>
                    {t(`bulk.changes.${c}`)}
                  </option>
                ))}
              </optgroup>
            ) : null}
          </select>
        </div>
        {fields.includes("endDay") ? (
          <div className="field">
            <label htmlFor="bulk-end-day">{t("bulk.endDay")}</label>
            <input id="bulk-end-day" name="endDay" type="date" />
          </div>
        ) : null}
        {fields.includes("bid") ? (
          <div className="field">
            <label htmlFor="bulk-bid">{t("bulk.bid")}</label>
            <input id="bulk-bid" name="bid" type="text" inputMode="decimal" autoComplete="off" size={8} />
          </div>
        ) : null}
        {fields.includes("daily") ? (
          <div className="field">
            <label htmlFor="bulk-daily">{t("bulk.daily")}</label>
            <input id="bulk-daily" name="daily" type="text" inputMode="decimal" autoComplete="off" size={8} aria-describedby="bulk-daily-help" />
            <p id="bulk-daily-help" className="field-help">
              {t("bulk.dailyHelp")}
            </p>
          </div>
        ) : null}
        <SubmitButton pending={pending}>{t("bulk.review")}</SubmitButton>
      </div>
    </Form>
  );
}

// ---------------------------------------------------------------------------------------------
// Review and result

function ShownValue({ value }: { value: Shown }) {
  const { t } = useTranslation(["campaignList", "campaigns"]);
  if (!value) return <span className="muted">{t("bulk.none")}</span>;
  if (value.kind === "status") return <>{t(`campaigns:liveStatus.${value.status}`)}</>;
  return <>{value.text}</>;
}

function Reason({ row }: { row: Pick<BulkRowViewData, "reason" | "problems"> }) {
  const { t } = useTranslation(["campaignList", "campaigns"]);
  if (!row.reason) return null;
  const { key, values } = splitMessage(row.reason);
  return (
    <>
      {t(key, values)}
      {row.problems.length ? (
        <ul className="bulk-problems">
          {row.problems.map((p) => (
            <li key={p}>{t(p)}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

/** Moves the focus to a panel's heading when it appears, so keyboard and screen-reader users meet it. */
function useFocusOnShow<T extends HTMLElement>(key: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [key]);
  return ref;
}

function fieldLabel(t: (k: string) => string, field: BulkRowViewData["field"]) {
  return t(`bulk.field.${field}`);
}

export function BulkReviewPanel({ rows, summary, change, cancelHref }: { rows: BulkRowViewData[]; summary: { changed: number; refused: number; unchanged: number }; change: BulkChangeEchoData; cancelHref: string }) {
  const { t } = useTranslation(["campaignList", "campaigns"]);
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === bulkApplyIntent;
  const heading = useFocusOnShow<HTMLHeadingElement>(`review:${rows.map((r) => `${r.id}@${r.version}`).join(",")}:${change.change}`);
  const field = rows[0]?.field ?? "status";
  return (
    <section className="panel bulk-panel" aria-labelledby="bulk-review-title">
      <h2 id="bulk-review-title" tabIndex={-1} ref={heading}>
        {t("bulk.reviewTitle", { change: changeLabel(t, change.change) })}
      </h2>
      <p>{t("bulk.reviewSummary", { changed: summary.changed, refused: summary.refused, unchanged: summary.unchanged })}</p>
      <div className="table-wrap">
        <table className="bulk-table">
          <caption className="visually-hidden">{t("bulk.reviewCaption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("columns.name")}</th>
              <th scope="col">{t("bulk.before", { field: fieldLabel(t, field) })}</th>
              <th scope="col">{t("bulk.after", { field: fieldLabel(t, field) })}</th>
              <th scope="col">{t("bulk.outcome")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} data-outcome={!row.ok ? "refused" : row.changed ? "change" : "unchanged"}>
                <th scope="row">{row.name}</th>
                <td>
                  <ShownValue value={row.before} />
                </td>
                <td>{row.ok ? <ShownValue value={row.after} /> : <span className="muted">—</span>}</td>
                <td>
                  {!row.ok ? (
                    <>
                      <strong className="bulk-refused">{t("bulk.willNotChange")}</strong> <Reason row={row} />
                    </>
                  ) : row.changed ? (
                    t("bulk.willChange")
                  ) : (
                    <span className="muted">{t("bulk.alreadySo")}</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="confirm-actions bulk-confirm">
        {summary.changed > 0 ? (
          <Form method="post">
            <input type="hidden" name="intent" value={bulkApplyIntent} />
            <input type="hidden" name="change" value={change.change} />
            <input type="hidden" name="endDay" value={change.endDay} />
            <input type="hidden" name="bid" value={change.bid} />
            <input type="hidden" name="daily" value={change.daily} />
            {rows.map((row) => (
              <span key={row.id} hidden>
                <input type="hidden" name="campaignId" value={row.id} />
                <input type="hidden" name={`version.${row.id}`} value={row.version} />
              </span>
            ))}
            <SubmitButton pending={pending}>{t("bulk.confirm", { count: summary.changed })}</SubmitButton>
          </Form>
        ) : (
          <p>{t("bulk.nothingToChange")}</p>
        )}
        <Link to={cancelHref}>{t("bulk.cancel")}</Link>
      </div>
    </section>
  );
}

function changeLabel(t: (k: string) => string, change: string): string {
  return change.startsWith("action:") ? t(`campaigns:actions.${change.slice("action:".length)}`) : t(`bulk.changes.${change}`);
}

export function BulkResultPanel({
  rows,
  summary,
  change,
  backHref,
}: {
  rows: (BulkRowViewData & { outcome: "saved" | "unchanged" | "failed" })[];
  summary: { saved: number; failed: number; unchanged: number };
  change: BulkChangeEchoData;
  backHref: string;
}) {
  const { t } = useTranslation(["campaignList", "campaigns"]);
  const heading = useFocusOnShow<HTMLHeadingElement>(`result:${rows.map((r) => `${r.id}:${r.outcome}`).join(",")}:${change.change}`);
  const field = rows[0]?.field ?? "status";
  return (
    <section className="panel bulk-panel" aria-labelledby="bulk-result-title">
      <h2 id="bulk-result-title" tabIndex={-1} ref={heading}>
        {t("bulk.resultTitle", { change: changeLabel(t, change.change) })}
      </h2>
      <p role="status">{t("bulk.resultSummary", { saved: summary.saved, failed: summary.failed, unchanged: summary.unchanged })}</p>
      <div className="table-wrap">
        <table className="bulk-table">
          <caption className="visually-hidden">{t("bulk.resultCaption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("columns.name")}</th>
              <th scope="col">{t("bulk.before", { field: fieldLabel(t, field) })}</th>
              <th scope="col">{t("bulk.after", { field: fieldLabel(t, field) })}</th>
              <th scope="col">{t("bulk.outcome")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} data-outcome={row.outcome}>
                <th scope="row">
                  <Link to={`/campaigns/${row.id}`}>{row.name}</Link>
                </th>
                <td>
                  <ShownValue value={row.before} />
                </td>
                <td>{row.outcome === "saved" ? <ShownValue value={row.after} /> : <span className="muted">—</span>}</td>
                <td>
                  {row.outcome === "saved" ? (
                    <strong className="bulk-saved">{t("bulk.saved")}</strong>
                  ) : row.outcome === "unchanged" ? (
                    <span className="muted">{t("bulk.alreadySo")}</span>
                  ) : (
                    <>
                      <strong className="bulk-refused">{t("bulk.failed")}</strong> <Reason row={row} />
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>
        <Link to={backHref}>{t("bulk.back")}</Link>
      </p>
    </section>
  );
}
