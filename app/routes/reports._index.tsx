import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ReportPages, ReportRows, ReportStatus, ReportTime, ReportsTable } from "~/components/reports-table";
import { requireUser } from "~/http/auth.server";
import { getRequestLocale } from "~/http/i18n.server";
import { orThrow } from "~/http/reply.server";
import { listReports } from "~/services/reports.server";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "reports");

/** The reports the user may see (everyone's for operators and retailer admins, else their own). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Report");
  const after = new URL(request.url).searchParams.get("after");
  const locale = await getRequestLocale(request);
  const list = orThrow(await listReports(user, { locale, timeZone: user.timezone || "Europe/Paris" }, after));
  return { ...list, after };
}

export default function ReportsRoute() {
  const { t } = useTranslation("reports");
  const { rows, next, after, mayCreate } = useLoaderData<typeof loader>();
  return (
    <>
      <div className="page-header">
        <h1>{t("title")}</h1>
        {mayCreate ? (
          <Link to="/reports/new" className="button">
            {t("new")}
          </Link>
        ) : null}
      </div>
      {rows.length === 0 ? (
        <p className="empty-state">{t("empty")}</p>
      ) : (
        <ReportsTable
          labelledBy="reports-caption"
          caption={t("title")}
          className="reports-table"
          rows={rows}
          rowKey={(r) => r.id}
          columns={[
            {
              key: "name",
              header: t("columns.name"),
              cell: (r) => (
                <>
                  <Link to={`/reports/${encodeURIComponent(r.id)}`}>{r.name}</Link>{" "}
                  <Link to={`/reports/${encodeURIComponent(r.id)}/history`} className="muted">
                    {t("tabs.history")}
                    <span className="visually-hidden">: {r.name}</span>
                  </Link>
                </>
              ),
            },
            { key: "type", header: t("columns.type"), cell: (r) => t(`types.${r.type}`) },
            { key: "frequency", header: t("columns.frequency"), cell: (r) => t(`frequencies.${r.frequency}`) },
            { key: "owner", header: t("columns.owner"), cell: (r) => r.owner },
            {
              key: "lastRun",
              header: t("columns.lastRun"),
              cell: (r) =>
                r.lastRun ? (
                  <>
                    <ReportTime value={r.lastRun} /> <ReportStatus status={r.lastRun.status} />
                  </>
                ) : (
                  <span className="muted">{t("never")}</span>
                ),
            },
            {
              key: "nextRun",
              header: t("columns.nextRun"),
              // A stopped report has no next run: it says so and why (ADR 49).
              cell: (r) =>
                r.stopped ? (
                  <>
                    <span className="badge report-status report-status-stopped">{t("stopped.badge")}</span>
                    <span className="report-stop-reason">{t(r.stopped.reason)}</span>
                  </>
                ) : (
                  <ReportTime value={r.nextRun} none={t("none")} />
                ),
            },
            { key: "rows", header: t("columns.rows"), className: "numeric", cell: (r) => <ReportRows rows={r.rows} /> },
            { key: "expiry", header: t("columns.expiry"), cell: (r) => <ReportTime value={r.expiry} /> },
          ]}
        />
      )}
      <ReportPages after={after} next={next} first="/reports" />
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
