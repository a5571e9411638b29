import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { splitMessage } from "~/domain/message";
import { TableWrap } from "~/components/table-wrap";
import { requireUser } from "~/http/auth.server";
import { getRequestLocale } from "~/http/i18n.server";
import { orThrow } from "~/http/reply.server";
import { reportHistory } from "~/services/reports.server";

export const meta: MetaFunction = () => [{ title: "Report history · Ads console" }];

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
        <TableWrap labelledBy="report-history-title">
          <table className="list-table report-runs">
            <thead>
              <tr>
                <th scope="col">{t("columns.started")}</th>
                <th scope="col">{t("columns.status")}</th>
                <th scope="col">{t("columns.period")}</th>
                <th scope="col">{t("columns.rows")}</th>
                <th scope="col">{t("columns.file")}</th>
                <th scope="col">{t("columns.expiry")}</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => {
                const reason = run.reason ? splitMessage(run.reason) : null;
                return (
                  <tr key={run.id} data-status={run.status}>
                    <td className="list-table-title">
                      <time dateTime={run.started.at}>{run.started.text}</time>
                      {run.manual ? <span className="muted"> · {t("manual")}</span> : null}
                    </td>
                    <td data-label={t("columns.status")}>
                      <span className={`badge report-status report-status-${run.status}`}>{t(`statuses.${run.status}`)}</span>
                      {reason ? <p className="report-reason">{t(reason.key, { ns: ["reports", "common", "metrics"], ...reason.values })}</p> : null}
                    </td>
                    <td data-label={t("columns.period")}>{run.period}</td>
                    <td data-label={t("columns.rows")} className="numeric">
                      {run.rows ?? <span className="muted">–</span>}
                    </td>
                    <td data-label={t("columns.file")}>
                      {run.link ? (
                        <a href={run.link} download={run.fileName ?? undefined}>
                          {t("download")}
                          <span className="visually-hidden">: {run.fileName}</span>
                        </a>
                      ) : run.expired ? (
                        <span className="muted">{t("expired")}</span>
                      ) : (
                        <span className="muted">{t("noFile")}</span>
                      )}
                    </td>
                    <td data-label={t("columns.expiry")}>{run.expiry ? <time dateTime={run.expiry.at}>{run.expiry.text}</time> : <span className="muted">–</span>}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableWrap>
      )}
      {after || next ? (
        <nav className="pagination" aria-label={t("pages")}>
          {after ? <Link to="?">{t("firstPage")}</Link> : null}
          {next ? <Link to={`?${new URLSearchParams({ after: next })}`}>{t("nextPage")}</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
