import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ReportStopped } from "~/components/reports-table";
import { requireUser } from "~/http/auth.server";
import { getRequestLocale } from "~/http/i18n.server";
import { orThrow } from "~/http/reply.server";
import { findReport, stoppedText } from "~/services/reports.server";

/**
 * A report's pages (definition, history) under one header, with its stop while it is stopped; a
 * report outside the user's scope answers 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Report");
  const id = params.reportId ?? "";
  if (id === "new") return { id: null, name: null, stopped: null };
  const report = orThrow(await findReport(user, id));
  // A stopped report says so on each of its pages (ADR 49).
  const stopped = stoppedText(report, { locale: await getRequestLocale(request), timeZone: user.timezone || "Europe/Paris" });
  return { id: report.id, name: report.name, stopped };
}

export default function ReportLayoutRoute() {
  const { t } = useTranslation("reports");
  const { id, name, stopped } = useLoaderData<typeof loader>();
  return (
    <>
      <p className="breadcrumb">
        <Link to="/reports">{t("backToList")}</Link>
      </p>
      <h1>{name ?? t("newTitle")}</h1>
      {stopped ? <ReportStopped stopped={stopped} /> : null}
      {id ? (
        <nav aria-label={t("tabs.label")} className="tabs">
          <NavLink to={`/reports/${encodeURIComponent(id)}`} end prefetch="intent">
            {t("tabs.edit")}
          </NavLink>
          <NavLink to={`/reports/${encodeURIComponent(id)}/history`} prefetch="intent">
            {t("tabs.history")}
          </NavLink>
        </nav>
      ) : null}
      <Outlet />
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
