import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { FormAlert } from "~/components/forms";
import { MAX_REPORTED_BAD_ROWS } from "~/domain/catalog-feed";
import { importProgress, isImportUnderWay } from "~/domain/catalog-import";
import { splitMessage, withValues } from "~/domain/message";
import { can } from "~/domain/permissions";
import { requireUser } from "~/http/auth.server";
import { orThrow } from "~/http/reply.server";
import { getCatalogImport } from "~/services/catalog-import.server";
import { formatDateTime } from "~/utils/format";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "catalogImport");

/** How often the page asks again while the import is under way (JavaScript on; without it, the Refresh link). */
const POLL_MS = 1_500;

/**
 * One import (operators: the right to update the catalog): its file, who started it and when, its
 * progress while a job processes it, then its report or why it failed.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Catalog");
  if (!can(user, "Catalog", "update")) throw redirect("/not-authorized");
  const imp = orThrow(await getCatalogImport(user, params.importId ?? ""));
  return {
    id: imp.id,
    fileName: imp.fileName,
    byteLength: imp.byteLength,
    by: imp.byName,
    created: imp.created,
    finished: imp.finished,
    status: imp.status,
    format: imp.format,
    rows: imp.rows,
    toWrite: imp.toWrite,
    imported: imp.imported,
    updated: imp.updated,
    badCount: imp.badCount,
    bad: imp.bad,
    ignoredColumns: imp.ignoredColumns,
    failure: imp.reason ? (imp.values ? withValues(imp.reason, imp.values) : imp.reason) : null,
    progress: importProgress(imp),
    timezone: user.timezone,
  };
}

export default function CatalogImportStatusRoute() {
  const { t, i18n } = useTranslation(["catalogImport", "catalog"]);
  const imp = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const underWay = isImportUnderWay(imp.status);
  const number = new Intl.NumberFormat(i18n.language);
  const when = (iso: string) => formatDateTime(iso, i18n.language, imp.timezone);
  // With JavaScript the page follows the job by itself; without it, the Refresh link reloads it.
  useEffect(() => {
    if (!underWay) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") revalidator.revalidate();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [underWay, revalidator]);
  const message = (m: string) => {
    const { key, values } = splitMessage(m);
    return t(key, values);
  };
  const line = imp.format === "json" ? "catalog:import.report.item" : "catalog:import.report.line";
  const written = imp.imported + imp.updated;

  return (
    <>
      <p>
        <Link to="/catalog/import">{t("status.back")}</Link>
      </p>
      <h1>{t("status.title", { file: imp.fileName })}</h1>
      <dl className="facts import-facts">
        <dt>{t("status.state")}</dt>
        <dd>
          <span className="badge" data-state={imp.status}>
            {t(`status.states.${imp.status}`)}
          </span>
        </dd>
        <dt>{t("status.startedBy")}</dt>
        <dd>{imp.by ?? t("status.system")}</dd>
        <dt>{t("status.uploaded")}</dt>
        <dd>
          <time dateTime={imp.created}>{when(imp.created)}</time>
        </dd>
        {imp.finished ? (
          <>
            <dt>{t("status.finished")}</dt>
            <dd>
              <time dateTime={imp.finished}>{when(imp.finished)}</time>
            </dd>
          </>
        ) : null}
      </dl>

      {underWay ? (
        <section className="panel" aria-labelledby="import-progress-title">
          <h2 id="import-progress-title">{t("status.progressTitle")}</h2>
          <p role="status">
            {imp.toWrite === null ? t("status.waiting") : t("status.progress", { done: number.format(written), total: number.format(imp.toWrite), count: imp.toWrite })}
          </p>
          {imp.progress !== null ? <progress className="import-progress" max={100} value={imp.progress} aria-labelledby="import-progress-title" /> : null}
          <p className="muted">{t("status.background")}</p>
          <p>
            <Link to={`/catalog/import/${imp.id}`}>
              {t("status.refresh")}
            </Link>
          </p>
        </section>
      ) : null}

      {imp.status === "failed" ? (
        <section aria-labelledby="import-outcome">
          <h2 id="import-outcome" className="visually-hidden">
            {t("catalog:import.failedTitle")}
          </h2>
          <FormAlert title={t("catalog:import.failedTitle")} message={imp.failure ? message(imp.failure) : undefined} />
        </section>
      ) : null}

      {!underWay && imp.rows !== null ? (
        <section className="panel" aria-labelledby="import-report-title">
          <h2 id="import-report-title">{t("status.reportTitle")}</h2>
          <p role="status">{t("status.summary", { rows: number.format(imp.rows), imported: number.format(imp.imported), updated: number.format(imp.updated), bad: number.format(imp.badCount) })}</p>
          {imp.ignoredColumns.length ? <p className="muted">{t("catalog:import.report.ignored", { columns: imp.ignoredColumns.join(", ") })}</p> : null}
          {imp.badCount > 0 ? (
            <div className="table-wrap">
              <table className="list-table import-bad-rows">
                <caption>{t("catalog:import.report.badCaption", { count: imp.badCount })}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t(line)}</th>
                    <th scope="col">{t("catalog:import.report.id")}</th>
                    <th scope="col">{t("catalog:import.report.reasons")}</th>
                  </tr>
                </thead>
                <tbody>
                  {imp.bad.map((row) => (
                    <tr key={row.line}>
                      <th scope="row">
                        <span className="import-line-label">{t(line)} </span>
                        {number.format(row.line)}
                      </th>
                      <td data-label={t("catalog:import.report.id")}>{row.id ?? "—"}</td>
                      <td data-label={t("catalog:import.report.reasons")}>{row.reasons.map((r) => t(r)).join(" ")}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {imp.badCount > imp.bad.length ? <p className="muted">{t("catalog:import.report.moreBad", { count: imp.badCount - imp.bad.length, shown: MAX_REPORTED_BAD_ROWS })}</p> : null}
            </div>
          ) : null}
          <p>
            <Link to="/catalog">{t("catalog:import.report.toCatalog")}</Link>
          </p>
        </section>
      ) : null}
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
