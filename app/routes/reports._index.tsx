import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { TableWrap } from "~/components/table-wrap";
import { requireUser } from "~/http/auth.server";
import { getRequestLocale } from "~/http/i18n.server";
import { orThrow } from "~/http/reply.server";
import { listReports } from "~/services/reports.server";

export const meta: MetaFunction = () => [{ title: "Reports · Ads console" }];

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
        <TableWrap labelledBy="reports-caption">
          <table className="list-table reports-table">
            <caption id="reports-caption" className="visually-hidden">
              {t("title")}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t("columns.name")}</th>
                <th scope="col">{t("columns.type")}</th>
                <th scope="col">{t("columns.frequency")}</th>
                <th scope="col">{t("columns.owner")}</th>
                <th scope="col">{t("columns.lastRun")}</th>
                <th scope="col">{t("columns.nextRun")}</th>
                <th scope="col">{t("columns.rows")}</th>
                <th scope="col">{t("columns.expiry")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td className="list-table-title">
                    <Link to={`/reports/${encodeURIComponent(r.id)}`}>{r.name}</Link>{" "}
                    <Link to={`/reports/${encodeURIComponent(r.id)}/history`} className="muted">
                      {t("tabs.history")}
                      <span className="visually-hidden">: {r.name}</span>
                    </Link>
                  </td>
                  <td data-label={t("columns.type")}>{t(`types.${r.type}`)}</td>
                  <td data-label={t("columns.frequency")}>{t(`frequencies.${r.frequency}`)}</td>
                  <td data-label={t("columns.owner")}>{r.owner}</td>
                  <td data-label={t("columns.lastRun")}>
                    {r.lastRun ? (
                      <>
                        <time dateTime={r.lastRun.at}>{r.lastRun.text}</time>{" "}
                        <span className={`badge report-status report-status-${r.lastRun.status}`}>{t(`statuses.${r.lastRun.status}`)}</span>
                      </>
                    ) : (
                      <span className="muted">{t("never")}</span>
                    )}
                  </td>
                  <td data-label={t("columns.nextRun")}>{r.nextRun ? <time dateTime={r.nextRun.at}>{r.nextRun.text}</time> : <span className="muted">{t("none")}</span>}</td>
                  <td data-label={t("columns.rows")} className="numeric">
                    {r.rows ?? <span className="muted">–</span>}
                  </td>
                  <td data-label={t("columns.expiry")}>{r.expiry ? <time dateTime={r.expiry.at}>{r.expiry.text}</time> : <span className="muted">–</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      {after || next ? (
        <nav className="pagination" aria-label={t("pages")}>
          {after ? <Link to="/reports">{t("firstPage")}</Link> : null}
          {next ? <Link to={`?${new URLSearchParams({ after: next })}`}>{t("nextPage")}</Link> : null}
        </nav>
      ) : null}
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
