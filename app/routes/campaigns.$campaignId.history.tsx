import { orThrow } from "~/http/reply.server";
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/http/auth.server";
import { historyPage, type HistoryChange, type HistoryValue } from "~/services/campaigns/history.server";
import { campaignViewContext, requireCampaign } from "~/services/campaigns/campaigns.server";
import { getRequestLocale } from "~/http/i18n.server";

export const meta: MetaFunction = () => [{ title: "History · Ads console" }];

/** Every recorded change of the campaign, newest first, a page at a time (cursor in the URL). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  const ctx = orThrow(await requireCampaign(user, params.campaignId));
  const view = campaignViewContext(user, await getRequestLocale(request));
  const after = new URL(request.url).searchParams.get("after") || null;
  const page = await historyPage(ctx.campaign, after, { locale: view.locale, timeZone: view.userTimeZone, currency: view.currency });
  if (!page) throw data({ error: "campaignProducts:history.badCursor" }, { status: 400 });
  return {
    campaignId: ctx.campaign.id,
    timeZone: view.userTimeZone,
    entries: page.entries,
    next: page.next,
    paged: !!after,
  };
}

export default function CampaignHistoryRoute() {
  const { t } = useTranslation(["campaignProducts", "campaigns"]);
  const { campaignId, timeZone, entries, next, paged } = useLoaderData<typeof loader>();
  const base = `/campaigns/${encodeURIComponent(campaignId)}/history`;
  return (
    <section className="panel" aria-labelledby="history-title">
      <div className="page-header">
        <h2 id="history-title">{t("history.title")}</h2>
        <a href={`${base}.csv`} className="button" download>
          {t("history.download")}
        </a>
      </div>
      <p className="muted">{t("history.intro", { timeZone })}</p>
      {entries.length === 0 ? (
        <p className="empty-state">{t("history.empty")}</p>
      ) : (
        <ol className="history-list">
          {entries.map((entry) => (
            <li key={entry.id} className="history-entry">
              <article aria-labelledby={`history-${entry.id}`}>
                <h3 id={`history-${entry.id}`} className="history-heading">
                  <time dateTime={entry.at}>{entry.atText}</time>
                  <span> · {entry.actionLabel} · </span>
                  <span>{t("history.by", { by: entry.by })}</span>
                </h3>
                {entry.changes.length === 0 ? (
                  <p className="muted">{t("history.noFields")}</p>
                ) : (
                  <div className="table-wrap">
                    <table className="history-changes">
                      <caption className="visually-hidden">{t("history.changesOf", { when: entry.atText })}</caption>
                      <thead>
                        <tr>
                          <th scope="col">{t("history.field")}</th>
                          <th scope="col">{t("history.before")}</th>
                          <th scope="col">{t("history.after")}</th>
                        </tr>
                      </thead>
                      <tbody>
                        {entry.changes.map((change) => (
                          <ChangeRow key={change.field} change={change} />
                        ))}
                      </tbody>
                    </table>
                  </div>
                )}
              </article>
            </li>
          ))}
        </ol>
      )}
      {paged || next ? (
        <nav className="pagination" aria-label={t("history.pages")}>
          {paged ? <Link to={base}>{t("history.newest")}</Link> : null}
          {next ? <Link to={`${base}?${new URLSearchParams({ after: next })}`}>{t("history.older")}</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}

function ChangeRow({ change }: { change: HistoryChange }) {
  const { t } = useTranslation("campaignProducts");
  const o = change.offers;
  const lines = o
    ? [
        o.added.length ? t("history.offers.added", { ids: o.added.join(", ") }) : null,
        o.removed.length ? t("history.offers.removed", { ids: o.removed.join(", ") }) : null,
        o.switchedOn.length ? t("history.offers.switchedOn", { ids: o.switchedOn.join(", ") }) : null,
        o.switchedOff.length ? t("history.offers.switchedOff", { ids: o.switchedOff.join(", ") }) : null,
        ...o.moved.map((m) => t("history.offers.moved", { id: m.id, before: m.before ?? "—", after: m.after ?? "—" })),
      ].filter((line): line is string => !!line)
    : [];
  return (
    <tr>
      <th scope="row">
        {change.label}
        {lines.length ? (
          <ul className="history-summary">
            {lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        ) : null}
      </th>
      <td>
        <Value value={change.before} />
      </td>
      <td>
        <Value value={change.after} />
      </td>
    </tr>
  );
}

function Value({ value }: { value: HistoryValue }) {
  const { t } = useTranslation("campaignProducts");
  if (!value.text) return <span className="muted">{t("history.none")}</span>;
  if (!value.short) return <span className="history-value">{value.text}</span>;
  return (
    <details className="history-long">
      <summary>
        <span className="history-value">{value.short}</span> <span className="muted">{t("history.showAll")}</span>
      </summary>
      <span className="history-value">{value.text}</span>
    </details>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
