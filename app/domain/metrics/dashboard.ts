/** The dashboard's statistics tabs, the sorts of a figures table, and how many rows a tab lists. */
import { METRICS } from "~/domain/metrics/metrics";

export const DASHBOARD_TABS = ["teams", "wallets", "campaigns"] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];

export const STAT_SORTS = ["name", ...METRICS] as const;
export type StatSort = (typeof STAT_SORTS)[number];

/** Rows a tab lists at most (the most spent first). */
export const DASHBOARD_ROWS = 500;
