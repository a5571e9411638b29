import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { DashboardTeams } from "~/components/dashboard-teams";
import { FormAlert } from "~/components/forms";
import { ExportLink, FiguresTable, Freshness, KpiTiles, PeriodForm, periodProps } from "~/components/metrics/statistics";
import { OVERVIEW_PRESETS as DASHBOARD_PRESETS, periodFromSearch } from "~/domain/metrics/periods";
import { requireUser } from "~/http/auth.server";
import { DASHBOARD_ROWS, DASHBOARD_TABS, STAT_SORTS, type DashboardTab, type StatSort } from "~/domain/metrics/dashboard";
import { dashboardStatistics } from "~/services/dashboard.server";
import { retailerTimeZone } from "~/services/retailer-settings.server";
import { listDashboardTeams } from "~/services/teams-admin.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Home");
  const params = new URL(request.url).searchParams;
  const requested = params.get("tab");
  const tab: DashboardTab = (DASHBOARD_TABS as readonly string[]).includes(requested ?? "") ? (requested as DashboardTab) : "teams";
  const sortParam = params.get("sort");
  const sort: StatSort = (STAT_SORTS as readonly string[]).includes(sortParam ?? "") ? (sortParam as StatSort) : "cost";
  const dir: "asc" | "desc" = params.get("dir") === "asc" ? "asc" : "desc";
  const choice = periodFromSearch(params, { now: new Date(), timeZone: retailerTimeZone() }, DASHBOARD_PRESETS);
  const after = params.get("after");
  const [statistics, teams] = await Promise.all([
    dashboardStatistics(user, { tab, period: choice.period, previous: choice.previous, sort, dir }),
    // The teams the user may see (a supplier: the teams listing them), with their balances.
    tab === "teams" ? listDashboardTeams(user, after) : Promise.resolve(null),
  ]);
  return {
    tab,
    sort,
    dir,
    choice,
    statistics: statistics.ok ? statistics.value : null,
    failure: statistics.ok ? null : statistics.reason,
    name: user.firstname || user.displayName || user.email,
    teams,
    after,
  };
}

export default function DashboardRoute() {
  const { t } = useTranslation();
  const { t: mt } = useTranslation("metrics");
  const { tab, sort, dir, choice, statistics, failure, name, teams, after } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  // The spec's #teams fragment never reaches the server: mirror it to ?tab=.
  useEffect(() => {
    const fragment = window.location.hash.slice(1);
    if ((DASHBOARD_TABS as readonly string[]).includes(fragment) && !window.location.search.includes("tab=")) {
      navigate(`/?tab=${fragment}`, { replace: true });
    }
  }, [navigate]);
  const periodQuery = new URLSearchParams({ period: choice.preset });
  if (choice.custom.from) periodQuery.set("from", choice.custom.from);
  if (choice.custom.to) periodQuery.set("to", choice.custom.to);
  if (choice.previous) periodQuery.set("compare", "1");
  const nameLabel = tab === "teams" ? mt("dashboard.teams") : tab === "wallets" ? mt("dashboard.wallet") : mt("dashboard.campaign");
  return (
    <>
      <h1>{t("dashboard.title")}</h1>
      <p className="muted">{t("dashboard.welcome", { name })}</p>
      <PeriodForm
        presets={DASHBOARD_PRESETS}
        {...periodProps(choice)}
        keep={{ tab, sort, dir }}
      />
      {failure ? <FormAlert title={mt(failure)} message={t("errors.errorOccurred")} /> : null}
      {statistics ? (
        <>
          <KpiTiles totals={statistics.totals} previous={statistics.previousTotals} />
          <Freshness newestEvent={statistics.newestEvent} />
        </>
      ) : null}
      <nav aria-label={t("dashboard.tabs")} className="tabs">
        {DASHBOARD_TABS.map((key) => (
          <Link key={key} to={`/?tab=${key}&${periodQuery.toString()}`} aria-current={key === tab ? "page" : undefined} id={key}>
            {t(`dashboard.tab.${key}`)}
          </Link>
        ))}
      </nav>
      {statistics ? (
        <section aria-labelledby="dashboard-statistics-title">
          <h2 id="dashboard-statistics-title" className="visually-hidden">
            {mt(`dashboard.${tab}`)}
          </h2>
          {statistics.rows.length === 0 ? (
            <p className="empty-state">{mt("dashboard.empty")}</p>
          ) : (
            <>
              <FiguresTable caption={mt(`dashboard.${tab}`)} nameLabel={nameLabel} rows={statistics.rows} sort={sort} dir={dir} showTeam={tab !== "teams"} />
              <p>
                <ExportLink path="/statistics.csv" extra={{ tab }} label={mt("exportTable", { table: mt(`dashboard.${tab}`) })} rows={statistics.count} />
              </p>
            </>
          )}
          {statistics.truncated ? <p className="muted">{mt("dashboard.truncated", { count: DASHBOARD_ROWS })}</p> : null}
        </section>
      ) : null}
      {teams ? <DashboardTeams result={teams} after={after} /> : null}
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
