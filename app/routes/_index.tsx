import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/services/auth.server";

export const DASHBOARD_TABS = ["teams", "wallets", "campaigns"] as const;
type Tab = (typeof DASHBOARD_TABS)[number];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Home");
  const requested = new URL(request.url).searchParams.get("tab");
  const tab: Tab = (DASHBOARD_TABS as readonly string[]).includes(requested ?? "") ? (requested as Tab) : "teams";
  return { tab, name: user.firstname || user.displayName || user.email };
}

export default function DashboardRoute() {
  const { t } = useTranslation();
  const { tab, name } = useLoaderData<typeof loader>();
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
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
