import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuditChanges } from "~/components/audit";
import { TableWrap } from "~/components/table-wrap";
import { requireUser } from "~/http/auth.server";
import { getRequestLocale } from "~/http/i18n.server";
import { ACTIVITY_ENTITIES, parseActivityFilter } from "~/domain/audit-view";
import { activityPage, reloadFailures } from "~/services/audit.server";
import { retailerSettings } from "~/services/wallets.server";
import { Freshness } from "~/components/metrics/statistics";
import { newestEventReceived } from "~/services/metrics.server";
import { scheduledWork } from "~/services/scheduled-work.server";
import { zoneWords } from "~/domain/schedule";

/**
 * Activity: the audit trail of changes (operators), filtered in the URL by kind of record, by
 * campaign or by wallet; and the scheduled work with its outcomes (paged by `work` in the URL);
 * names, money and times as people read them.
 */
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "activity");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Health");
  const params = new URL(request.url).searchParams;
  const filter = parseActivityFilter(params);
  const format = { locale: await getRequestLocale(request), currency: retailerSettings().currency, timeZone: user.timezone || "Europe/Paris" };
  const [page, reloadLog, newestEvent, work] = await Promise.all([
    activityPage(filter, format),
    reloadFailures(format),
    newestEventReceived(),
    scheduledWork(format, new Date(), params.get("work")),
  ]);
  return {
    entity: filter.entity ?? "",
    campaign: filter.campaign ?? null,
    wallet: filter.wallet ?? null,
    subject: page.subject,
    entries: page.entries,
    next: page.next,
    reloadLog,
    newestEvent,
    work,
    zone: zoneWords(format.timeZone),
  };
}

export default function ActivityRoute() {
  const { t } = useTranslation();
  const { entity, campaign, wallet, subject, entries, next, reloadLog, newestEvent, work, zone } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const nextParams = new URLSearchParams(params);
  if (next) nextParams.set("after", next);
  const only = (key: "campaign" | "wallet", id: string) => `?${new URLSearchParams({ [key]: id })}`;
  const moreWork = new URLSearchParams(params);
  if (work.next) moreWork.set("work", work.next);
  return (
    <>
      <h1>{t("activity.title")}</h1>
      <Freshness newestEvent={newestEvent} />
      {campaign || wallet ? (
        <p className="activity-filtered" role="status">
          <span>{t(campaign ? "activity.filteredCampaign" : "activity.filteredWallet", { name: subject })}</span>{" "}
          <Link to="/health">{t("activity.clearFilter")}</Link>
        </p>
      ) : (
        <form method="get" className="list-filters activity-filters">
          <div className="field">
            <label htmlFor="entity">{t("activity.entity")}</label>
            <select id="entity" name="entity" defaultValue={entity}>
              <option value="">{t("activity.allEntities")}</option>
              {ACTIVITY_ENTITIES.map((e) => (
                <option key={e} value={e}>
                  {t(`activity.entities.${e}`)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="button">
            {t("actions.filter")}
          </button>
        </form>
      )}
      {entries.length === 0 ? (
        <p className="empty-state">{t("activity.empty")}</p>
      ) : (
        <ol className="audit-list">
          {entries.map((e) => (
            <li key={e.id} className="audit-entry">
              <article aria-labelledby={`audit-${e.id}`}>
                <h2 id={`audit-${e.id}`} className="audit-heading">
                  <time dateTime={e.at}>{e.atText}</time>
                  <span> · {t("activity.entry", { action: e.actionLabel, entity: e.entityLabel, subject: e.subject })}</span>
                  <span> · {t("activity.byName", { name: e.byName })}</span>
                </h2>
                <p className="audit-meta muted">
                  {e.teamName && e.entity !== "team" ? <span>{t("activity.ofTeam", { name: e.teamName })}</span> : null}
                  {(e.entity === "campaign" || e.entity === "wallet") && !(campaign || wallet) ? (
                    <Link to={only(e.entity, e.entityId)}>{t("activity.onlyThis", { subject: e.subject })}</Link>
                  ) : null}
                </p>
                <AuditChanges changes={e.changes} emptyText={t("activity.noFields")} />
              </article>
            </li>
          ))}
        </ol>
      )}
      {next ? (
        <p>
          <Link to={`?${nextParams.toString()}`}>{t("actions.nextPage")}</Link>
        </p>
      ) : null}
      <ScheduledWorkPanel work={work} zone={zone} moreHref={work.next ? `?${moreWork.toString()}` : null} />
      <section className="panel" aria-labelledby="reload-title">
        <h2 id="reload-title">{t("activity.reloadLog")}</h2>
        {reloadLog.length === 0 ? (
          <p className="muted">{t("activity.reloadLogEmpty")}</p>
        ) : (
          <ul>
            {reloadLog.map((r) => (
              <li key={`${r.at}-${r.userId}`}>
                {r.atText}: {r.from} → {r.to}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

type Work = ReturnType<typeof useLoaderData<typeof loader>>["work"];

/** The scheduled work: each task, its schedule, next and last run, and how the last run went. */
function ScheduledWorkPanel({ work, zone, moreHref }: { work: Work; zone: string; moreHref: string | null }) {
  const { t } = useTranslation();
  return (
    <section className="panel scheduled-work" aria-labelledby="scheduled-work-title">
      <h2 id="scheduled-work-title">{t("activity.jobs.title")}</h2>
      <p className="muted">{t("activity.jobs.intro", { zone })}</p>
      {work.rows.length === 0 ? (
        <p className="empty-state">{t("activity.jobs.empty")}</p>
      ) : (
        <TableWrap label={t("activity.jobs.table")}>
          <table className="scheduled-work-table">
            <caption className="visually-hidden">{t("activity.jobs.table")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("activity.jobs.columns.name")}</th>
                <th scope="col">{t("activity.jobs.columns.schedule")}</th>
                <th scope="col">{t("activity.jobs.columns.nextRun")}</th>
                <th scope="col">{t("activity.jobs.columns.lastRun")}</th>
                <th scope="col">{t("activity.jobs.columns.outcome")}</th>
                <th scope="col">{t("activity.jobs.columns.duration")}</th>
              </tr>
            </thead>
            <tbody>
              {work.rows.map((row) => (
                <tr key={row.id}>
                  <th scope="row">{row.name}</th>
                  <td>{row.schedule}</td>
                  <td>
                    {row.stopped ? (
                      <>
                        <span className="badge job-outcome" data-outcome="stopped">
                          {t("activity.jobs.stopped")}
                        </span>
                        <span className="job-reason">{t("activity.jobs.stoppedSince", { when: row.stopped.since.text, reason: row.stopped.reason })}</span>
                      </>
                    ) : row.nextRun ? (
                      <time dateTime={row.nextRun.at}>{row.nextRun.text}</time>
                    ) : (
                      t("activity.jobs.none")
                    )}
                  </td>
                  <td>
                    {row.lastRun ? <time dateTime={row.lastRun.at}>{row.lastRun.text}</time> : t("activity.jobs.never")}
                    {row.lastRunStoodFor ? <span className="muted"> ({row.lastRunStoodFor})</span> : null}
                  </td>
                  <td>
                    <span className="badge job-outcome" data-outcome={row.state}>
                      {row.stateLabel}
                    </span>
                    {row.reason ? <span className="job-reason">{row.reason}</span> : null}
                  </td>
                  <td className="num">{row.duration}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      {moreHref ? (
        <p>
          <Link to={moreHref}>{t("activity.jobs.more")}</Link>
        </p>
      ) : null}
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
