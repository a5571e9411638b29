import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { DashboardTeams } from "~/components/dashboard-teams";
import { requireUser } from "~/http/auth.server";
import { listDashboardTeams } from "~/services/teams-admin.server";

export const DASHBOARD_TABS = ["teams", "wallets", "campaigns"] as const;
type Tab = (typeof DASHBOARD_TABS)[number];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Home");
  const requested = new URL(request.url).searchParams.get("tab");
  const tab: Tab = (DASHBOARD_TABS as readonly string[]).includes(requested ?? "") ? (requested as Tab) : "teams";
  const after = new URL(request.url).searchParams.get("after");
  // The teams the user may see (a supplier: the teams listing them), with their derived totals.
  const teams = tab === "teams" ? await listDashboardTeams(user, after) : null;
  return { tab, name: user.firstname || user.displayName || user.email, teams, after };
}

export default function DashboardRoute() {
  const { t } = useTranslation();
  const { tab, name, teams, after } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  // The spec's #teams fragment never reaches the server: mirror it to ?tab=.
  useEffect(() => {
    const fragment = window.location.hash.slice(1);
    if ((DASHBOARD_TABS as readonly string[]).includes(fragment) && !window.location.search.includes("tab=")) {
      navigate(`/?tab=${fragment}`, { replace: true });
    }
  }, [navigate]);
  return (
    <>
      <h1>{t("dashboard.title")}</h1>
      <nav aria-label={t("dashboard.tabs")} className="tabs">
        {DASHBOARD_TABS.map((key) => (
          <Link key={key} to={`/?tab=${key}`} aria-current={key === tab ? "page" : undefined} id={key}>
            {t(`dashboard.tab.${key}`)}
          </Link>
        ))}
      </nav>
      <section className="panel" aria-labelledby="welcome-title">
        <h2 id="welcome-title">{t("dashboard.welcome", { name })}</h2>
        <p>{t("dashboard.welcomeText")}</p>
        <p className="muted">{t(`dashboard.empty.${tab}`)}</p>
        <ul className="link-list">
          <li>
            <Link to="/faq">{t("dashboard.readFaq")}</Link>
          </li>
          <li>
            <Link to="/profile">{t("dashboard.openProfile")}</Link>
          </li>
        </ul>
      </section>
      {teams ? <DashboardTeams result={teams} after={after} /> : null}
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
