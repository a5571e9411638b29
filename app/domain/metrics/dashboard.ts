/** The dashboard's statistics tabs, the sorts of a figures table, how many rows a tab lists, and its query. */
import { parseDashboardFilters, type ParsedFilters } from "~/domain/metrics/dashboard-filters";
import { METRICS } from "~/domain/metrics/metrics";

export const DASHBOARD_TABS = ["teams", "wallets", "campaigns"] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];

export const STAT_SORTS = ["name", ...METRICS] as const;
export type StatSort = (typeof STAT_SORTS)[number];

/** Rows a tab lists at most (the most spent first). */
export const DASHBOARD_ROWS = 500;

export interface DashboardQuery extends ParsedFilters {
  tab: DashboardTab;
  sort: StatSort;
  dir: "asc" | "desc";
}

/**
 * The dashboard's query (the page's and its CSV export's, the period aside): the tab (default
 * teams), the sort (default spend, descending) and the filters, each unknown value left out.
 */
export function parseDashboardQuery(params: URLSearchParams): DashboardQuery {
  const tab = params.get("tab") ?? "";
  const sort = params.get("sort") ?? "";
  return {
    tab: (DASHBOARD_TABS as readonly string[]).includes(tab) ? (tab as DashboardTab) : "teams",
    sort: (STAT_SORTS as readonly string[]).includes(sort) ? (sort as StatSort) : "cost",
    dir: params.get("dir") === "asc" ? "asc" : "desc",
    ...parseDashboardFilters(params),
  };
}
