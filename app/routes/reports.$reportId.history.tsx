import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { splitMessage } from "~/domain/message";
import { ReportPages, ReportRows, ReportStatus, ReportTime, ReportsTable } from "~/components/reports-table";
import { requireUser } from "~/http/auth.server";
import { getRequestLocale } from "~/http/i18n.server";
import { orThrow } from "~/http/reply.server";
import { reportHistory } from "~/services/reports.server";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "reportHistory");

/** The runs of a report, newest first: status, period, rows, the file while it lasts. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Report");
  const after = new URL(request.url).searchParams.get("after");
  const locale = await getRequestLocale(request);
  const history = orThrow(await reportHistory(user, params.reportId ?? "", { locale, timeZone: user.timezone || "Europe/Paris" }, after));
  return { name: history.report.name, runs: history.runs, next: history.next, after };
}

export default function ReportHistoryRoute() {
  const { t } = useTranslation("reports");
  const { name, runs, next, after } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="report-history-title">
      <h2 id="report-history-title">{t("historyTitle", { name })}</h2>
      {runs.length === 0 ? (
        <p className="empty-state">{t("noRuns")}</p>
      ) : (
        <ReportsTable
          labelledBy="report-history-title"
          className="report-runs"
          rows={runs}
          rowKey={(run) => run.id}
          rowProps={(run) => ({ "data-status": run.status })}
          columns={[
            {
              key: "started",
              header: t("columns.started"),
              cell: (run) => (
                <>
                  <ReportTime value={run.started} />
                  {run.manual ? <span className="muted"> · {t("manual")}</span> : null}
                </>
              ),
            },
            {
              key: "status",
              header: t("columns.status"),
              cell: (run) => {
                const reason = run.reason ? splitMessage(run.reason) : null;
                return (
                  <div>
                    <ReportStatus status={run.status} />
                    {reason ? <p className="report-reason">{t(reason.key, { ns: ["reports", "common", "metrics"], ...reason.values })}</p> : null}
                  </div>
                );
              },
            },
            { key: "period", header: t("columns.period"), cell: (run) => run.period },
            { key: "rows", header: t("columns.rows"), className: "numeric", cell: (run) => <ReportRows rows={run.rows} /> },
            {
              key: "file",
              header: t("columns.file"),
              cell: (run) =>
                run.link ? (
                  <a href={run.link} download={run.fileName ?? undefined}>
                    {t("download")}
                    <span className="visually-hidden">: {run.fileName}</span>
                  </a>
                ) : run.expired ? (
                  <span className="muted">{t("expired")}</span>
                ) : (
                  <span className="muted">{t("noFile")}</span>
                ),
            },
            { key: "expiry", header: t("columns.expiry"), cell: (run) => <ReportTime value={run.expiry} /> },
          ]}
        />
      )}
      <ReportPages after={after} next={next} first="?" />
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
