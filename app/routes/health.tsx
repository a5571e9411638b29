import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuditChanges } from "~/components/audit";
import { requireUser } from "~/http/auth.server";
import { getRequestLocale } from "~/http/i18n.server";
import { ACTIVITY_ENTITIES, parseActivityFilter } from "~/domain/audit-view";
import { activityPage, reloadFailures } from "~/services/audit.server";
import { retailerSettings } from "~/services/wallets.server";
import { Freshness } from "~/components/metrics/statistics";
import { newestEventReceived } from "~/services/metrics.server";

/**
 * Activity: the audit trail of changes (operators), filtered in the URL by kind of record, by
 * campaign or by wallet; names, money and times as people read them.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Health");
  const filter = parseActivityFilter(new URL(request.url).searchParams);
  const format = { locale: await getRequestLocale(request), currency: retailerSettings().currency, timeZone: user.timezone || "Europe/Paris" };
  const [page, reloadLog, newestEvent] = await Promise.all([activityPage(filter, format), reloadFailures(format), newestEventReceived()]);
  return {
    entity: filter.entity ?? "",
    campaign: filter.campaign ?? null,
    wallet: filter.wallet ?? null,
    subject: page.subject,
    entries: page.entries,
    next: page.next,
    reloadLog,
    newestEvent,
  };
}

export default function ActivityRoute() {
  const { t } = useTranslation();
  const { entity, campaign, wallet, subject, entries, next, reloadLog, newestEvent } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const nextParams = new URLSearchParams(params);
  if (next) nextParams.set("after", next);
  const only = (key: "campaign" | "wallet", id: string) => `?${new URLSearchParams({ [key]: id })}`;
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

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
