import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/http/auth.server";
import { orThrow } from "~/http/reply.server";
import { findReport } from "~/services/reports.server";

/** A report's pages (definition, history) under one header; a report outside the user's scope answers 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Report");
  const id = params.reportId ?? "";
  if (id === "new") return { id: null, name: null };
  const report = orThrow(await findReport(user, id));
  return { id: report.id, name: report.name };
}

export default function ReportLayoutRoute() {
  const { t } = useTranslation("reports");
  const { id, name } = useLoaderData<typeof loader>();
  return (
    <>
      <p className="breadcrumb">
        <Link to="/reports">{t("backToList")}</Link>
      </p>
      <h1>{name ?? t("newTitle")}</h1>
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
