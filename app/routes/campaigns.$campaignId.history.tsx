import { orThrow } from "~/http/reply.server";
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/http/auth.server";
import { AuditChanges } from "~/components/audit";
import { historyPage } from "~/services/campaigns/history.server";
import { campaignViewContext, requireCampaign } from "~/services/campaigns/campaigns.server";
import { getRequestLocale } from "~/http/i18n.server";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "history");

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
                  <span>{t("history.by", { by: entry.byName })}</span>
                </h3>
                <div className="table-wrap">
                  <AuditChanges
                    changes={entry.changes}
                    emptyText={t("history.noFields")}
                    labels={{
                      caption: t("history.changesOf", { when: entry.atText }),
                      field: t("history.field"),
                      before: t("history.before"),
                      after: t("history.after"),
                      none: t("history.none"),
                      showAll: t("history.showAll"),
                    }}
                  />
                </div>
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

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
