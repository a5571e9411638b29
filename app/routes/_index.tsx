import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { ActiveFilters, DashboardFilterFields, DroppedFilters } from "~/components/dashboard-filters";
import { DashboardTeams } from "~/components/dashboard-teams";
import { FormAlert } from "~/components/forms";
import { ExportLink, FiguresTable, Freshness, KpiTiles, MixedCurrenciesNote, PeriodFields, periodProps, type RowDrill } from "~/components/metrics/statistics";
import { drillFilters, filterParams, hasFilters, noFilters, type DashboardFilters } from "~/domain/metrics/dashboard-filters";
import { OVERVIEW_PRESETS as DASHBOARD_PRESETS, periodFromSearch } from "~/domain/metrics/periods";
import { requireUser } from "~/http/auth.server";
import { DASHBOARD_ROWS, DASHBOARD_TABS, parseDashboardQuery, type DashboardTab } from "~/domain/metrics/dashboard";
import { dashboardPage } from "~/services/dashboard.server";
import { retailerTimeZone } from "~/services/retailer-settings.server";
import { listDashboardTeams } from "~/services/teams-admin.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Home");
  const params = new URL(request.url).searchParams;
  const { tab, sort, dir, filters: asked, dropped: unknown } = parseDashboardQuery(params);
  const choice = periodFromSearch(params, { now: new Date(), timeZone: retailerTimeZone() }, DASHBOARD_PRESETS);
  const after = params.get("after");
  const [page, teams] = await Promise.all([
    dashboardPage(user, { tab, period: choice.period, previous: choice.previous, sort, dir, asked: { filters: asked, dropped: unknown } }),
    // The teams the user may see (a supplier: the teams listing them), with their balances.
    tab === "teams" ? listDashboardTeams(user, after) : Promise.resolve(null),
  ]);
  const { statistics } = page;
  return {
    tab,
    sort,
    dir,
    choice,
    filters: page.filters,
    dropped: page.dropped,
    filterNames: page.names,
    filterOptions: page.options,
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
  const { tab, sort, dir, choice, filters, dropped, filterNames, filterOptions, statistics, failure, name, teams, after } = useLoaderData<typeof loader>();
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
  /** The dashboard's address for a tab and filters, the period kept. */
  const dashboardHref = (to: DashboardTab, chosen: DashboardFilters) => {
    const query = new URLSearchParams({ tab: to, ...Object.fromEntries(periodQuery) });
    if (choice.previous) query.set("compare", "1");
    for (const [key, value] of filterParams(chosen)) query.set(key, value);
    return `/?${query.toString()}`;
  };
  const exportSearch = new URLSearchParams(periodQuery);
  for (const [key, value] of filterParams(filters)) exportSearch.set(key, value);
  const clearHref = dashboardHref(tab, noFilters());
  const filtered = hasFilters(filters);
  const nameLabel = tab === "teams" ? mt("dashboard.teams") : tab === "wallets" ? mt("dashboard.wallet") : mt("dashboard.campaign");
  // Each team's row narrows the dashboard to its wallets, each wallet's row to its campaigns.
  const drill: RowDrill | undefined =
    tab === "teams"
      ? {
          column: mt("drill.column"),
          link: (row) => ({ href: dashboardHref("wallets", drillFilters(filters, { team: row.id })), text: mt("drill.wallets"), label: mt("drill.walletsOf", { name: row.name }) }),
        }
      : tab === "wallets"
        ? {
            column: mt("drill.column"),
            link: (row) =>
              row.teamId
                ? { href: dashboardHref("campaigns", drillFilters(filters, { team: row.teamId, wallet: row.id })), text: mt("drill.campaigns"), label: mt("drill.campaignsOf", { name: row.name }) }
                : null,
          }
        : undefined;
  return (
    <>
      <h1>{t("dashboard.title")}</h1>
      <p className="muted">{t("dashboard.welcome", { name })}</p>
      <Form method="get" className="period-form dashboard-form" aria-label={mt("filters.formLabel")}>
        <input type="hidden" name="tab" value={tab} />
        <input type="hidden" name="sort" value={sort} />
        <input type="hidden" name="dir" value={dir} />
        <PeriodFields presets={DASHBOARD_PRESETS} {...periodProps(choice)} />
        <DashboardFilterFields filters={filters} options={filterOptions} />
        <button type="submit" className="button">
          {mt("period.apply")}
        </button>
      </Form>
      <DroppedFilters dropped={dropped} />
      <ActiveFilters filters={filters} names={filterNames} clearHref={clearHref} />
      {failure ? <FormAlert title={mt(failure)} message={t("errors.errorOccurred")} /> : null}
      {statistics ? (
        <>
          <KpiTiles totals={statistics.totals} previous={statistics.previousTotals} currency={statistics.currency} previousCurrency={statistics.previousCurrency} comparedUntil={statistics.comparedUntil} />
          {statistics.currency === null ? <MixedCurrenciesNote /> : null}
          <Freshness newestEvent={statistics.newestEvent} />
        </>
      ) : null}
      <nav aria-label={t("dashboard.tabs")} className="tabs">
        {DASHBOARD_TABS.map((key) => (
          <Link key={key} to={dashboardHref(key, filters)} aria-current={key === tab ? "page" : undefined} id={key}>
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
            filtered ? (
              <p className="empty-state">
                {mt("filters.empty")} <Link to={clearHref}>{mt("filters.clear")}</Link>
              </p>
            ) : (
              <p className="empty-state">{mt("dashboard.empty")}</p>
            )
          ) : (
            <>
              <FiguresTable caption={mt(`dashboard.${tab}`)} nameLabel={nameLabel} rows={statistics.rows} sort={sort} dir={dir} showTeam={tab !== "teams"} drill={drill} />
              <p>
                <ExportLink path="/statistics.csv" search={exportSearch} extra={{ tab }} label={mt("exportTable", { table: mt(`dashboard.${tab}`) })} rows={statistics.count} />
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
