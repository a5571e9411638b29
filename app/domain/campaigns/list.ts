/**
 * The campaign list's state in the URL (issue 4 section 2): filters, search, sort, columns and
 * the cursor, so every view is a link. Pure: parse and serialise URLSearchParams.
 *
 * Readings:
 * - Unknown or invalid values are dropped silently (a bad link still opens a list).
 * - Stored statuses (status=) and live statuses (live=) are one facet: a campaign is listed when
 *   its stored status is chosen OR it is active and its derived live status is chosen. The query
 *   asks storage for the chosen stored statuses plus active when a live status is chosen
 *   (LIVE_FILTER_TO_STORED); the live statuses then filter the page.
 * - "scheduled" in live= is the derived live status; status=scheduled is the stored one.
 * - Several values come as repeated parameters (status=active&status=paused, what a form with
 *   checkboxes sends without JS); comma-separated values are accepted too.
 * - startFrom and startTo are days (yyyy-mm-dd) in the retailer's time zone, both included.
 * - Columns: a subset of the list's columns in the list's order; the name always stays (it links
 *   to the campaign). Default: all but the statistics.
 * - The statistics columns' period is a preset (period=), custom bounds in from= and to= (kept
 *   only with period=custom).
 * - Default sort: updated, newest first; a sort given without dir uses ascending for the name and
 *   descending otherwise. Defaults are left out of the query, so equal views have equal links.
 */
import { dayEdge } from "~/domain/campaigns/campaign";
import { CAMPAIGN_STATUSES, DERIVED_LIVE_STATUSES, type CampaignStatus } from "~/domain/campaigns/status";
import { isCampaignType, type CampaignType } from "~/domain/retailer-settings";
import { isDay as isCalendarDay, type Preset } from "~/domain/metrics/periods";

export const CAMPAIGN_SORTS = ["updated", "name", "startDate", "endDate", "created", "spend"] as const;
export type CampaignSort = (typeof CAMPAIGN_SORTS)[number];
export type SortDirection = "asc" | "desc";

export const CAMPAIGN_LIST_COLUMNS = [
  "name",
  "team",
  "type",
  "liveStatus",
  "wallet",
  "bid",
  "start",
  "end",
  "spend",
  "displays",
  "views",
  "clicks",
  "ctr",
  "cost",
  "sales",
  "roas",
  "updated",
  "by",
] as const;
export type CampaignListColumn = (typeof CAMPAIGN_LIST_COLUMNS)[number];
/**
 * Statistics of the chosen period (issue 9), the spec's default metrics (cost: the period's
 * spend; the spend column is the campaign's whole spend): chosen in the column picker, not shown
 * by default.
 */
export const METRIC_LIST_COLUMNS = ["displays", "views", "clicks", "ctr", "cost", "sales", "roas"] as const satisfies readonly CampaignListColumn[];
/** The columns of a list whose URL names none: every column but the statistics. */
export const DEFAULT_LIST_COLUMNS: readonly CampaignListColumn[] = CAMPAIGN_LIST_COLUMNS.filter((c) => !(METRIC_LIST_COLUMNS as readonly string[]).includes(c));
/** The periods a list's statistics columns may cover (a list has no single wallet or campaign lifetime). */
export const LIST_PERIODS = ["today", "yesterday", "last7", "last30", "last90", "lastWeek", "thisMonth", "lastMonth", "thisYear", "lastYear", "custom"] as const satisfies readonly Preset[];
export type ListPeriod = (typeof LIST_PERIODS)[number];

export type LiveFilter = (typeof DERIVED_LIVE_STATUSES)[number];

/** Every derived live status exists only for active campaigns. */
export const LIVE_FILTER_TO_STORED: Record<LiveFilter, CampaignStatus> = {
  scheduled: "active",
  ended: "active",
  insufficient_funds: "active",
  out_of_budget: "active",
  daily_cap_reached: "active",
  running: "active",
};

export interface CampaignListState {
  statuses: CampaignStatus[];
  live: LiveFilter[];
  type: CampaignType | null;
  team: string | null;
  wallet: string | null;
  q: string;
  /** yyyy-mm-dd, inclusive. */
  startFrom: string | null;
  /** yyyy-mm-dd, inclusive. */
  startTo: string | null;
  sort: CampaignSort;
  dir: SortDirection;
  columns: CampaignListColumn[];
  /** The period of the statistics columns. */
  period: ListPeriod;
  /** Its bounds when custom (yyyy-mm-dd, in the URL as from and to), as typed. */
  custom: { from: string; to: string };
  /** The cursor of the page. */
  after: string | null;
}

export const DEFAULT_CAMPAIGN_SORT: CampaignSort = "updated";
export const MAX_SEARCH_LENGTH = 100;
const MAX_CURSOR_LENGTH = 1000;
const ID = /^[A-Za-z0-9_-]{1,128}$/;

export function defaultDirection(sort: CampaignSort): SortDirection {
  return sort === "name" ? "asc" : "desc";
}

export function defaultListState(): CampaignListState {
  return {
    statuses: [],
    live: [],
    type: null,
    team: null,
    wallet: null,
    q: "",
    startFrom: null,
    startTo: null,
    sort: DEFAULT_CAMPAIGN_SORT,
    dir: defaultDirection(DEFAULT_CAMPAIGN_SORT),
    columns: [...DEFAULT_LIST_COLUMNS],
    period: "today",
    custom: { from: "", to: "" },
    after: null,
  };
}

/**
 * A real calendar day written yyyy-mm-dd, of the years 2000 to 2100 (the statistics' rule,
 * metrics/periods' isDay): a hand-edited 9999-12-31 has no next day to search up to.
 */
export function isDay(value: string): boolean {
  return isCalendarDay(value);
}

function values(params: URLSearchParams, key: string): string[] {
  return params
    .getAll(key)
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
}

/** The known values, de-duplicated, in the canonical order of `all`. */
function pick<T extends string>(all: readonly T[], given: readonly string[]): T[] {
  const set = new Set(given);
  return all.filter((v) => set.has(v));
}

function one(params: URLSearchParams, key: string): string | null {
  const v = params.get(key)?.trim();
  return v ? v : null;
}

export function parseListState(params: URLSearchParams): CampaignListState {
  const state = defaultListState();
  state.statuses = pick(CAMPAIGN_STATUSES, values(params, "status"));
  state.live = pick(DERIVED_LIVE_STATUSES, values(params, "live"));
  const type = one(params, "type");
  state.type = type && isCampaignType(type) ? type : null;
  const team = one(params, "team");
  state.team = team && ID.test(team) ? team : null;
  const wallet = one(params, "wallet");
  state.wallet = wallet && ID.test(wallet) ? wallet : null;
  state.q = (params.get("q") ?? "").trim().replace(/\s+/g, " ").slice(0, MAX_SEARCH_LENGTH);
  const from = one(params, "startFrom");
  state.startFrom = from && isDay(from) ? from : null;
  const to = one(params, "startTo");
  state.startTo = to && isDay(to) ? to : null;
  const sort = one(params, "sort");
  state.sort = (CAMPAIGN_SORTS as readonly string[]).includes(sort ?? "") ? (sort as CampaignSort) : DEFAULT_CAMPAIGN_SORT;
  const dir = one(params, "dir");
  state.dir = dir === "asc" || dir === "desc" ? dir : defaultDirection(state.sort);
  const columns = pick(CAMPAIGN_LIST_COLUMNS, values(params, "columns"));
  state.columns = columns.length === 0 ? [...DEFAULT_LIST_COLUMNS] : columns.includes("name") ? columns : pick(CAMPAIGN_LIST_COLUMNS, ["name", ...columns]);
  const period = one(params, "period");
  state.period = (LIST_PERIODS as readonly string[]).includes(period ?? "") ? (period as ListPeriod) : "today";
  if (state.period === "custom") {
    const customFrom = one(params, "from");
    const customTo = one(params, "to");
    state.custom = { from: customFrom && isDay(customFrom) ? customFrom : "", to: customTo && isDay(customTo) ? customTo : "" };
  }
  const after = one(params, "after");
  state.after = after && after.length <= MAX_CURSOR_LENGTH ? after : null;
  return state;
}

/** Whether the columns are the default ones (left out of the URL). */
export function isDefaultColumns(columns: readonly CampaignListColumn[]): boolean {
  return columns.length === DEFAULT_LIST_COLUMNS.length && DEFAULT_LIST_COLUMNS.every((c, i) => columns[i] === c);
}

/** Whether the list shows statistics (and so asks for them). */
export function showsMetrics(columns: readonly CampaignListColumn[]): boolean {
  return columns.some((c) => (METRIC_LIST_COLUMNS as readonly string[]).includes(c));
}

/** The state as parameters in a stable order, defaults left out; the cursor only when asked. */
export function serialiseListState(state: CampaignListState, options: { cursor?: boolean } = {}): URLSearchParams {
  const params = new URLSearchParams();
  for (const s of pick(CAMPAIGN_STATUSES, state.statuses)) params.append("status", s);
  for (const l of pick(DERIVED_LIVE_STATUSES, state.live)) params.append("live", l);
  if (state.type) params.set("type", state.type);
  if (state.team) params.set("team", state.team);
  if (state.wallet) params.set("wallet", state.wallet);
  if (state.q) params.set("q", state.q);
  if (state.startFrom) params.set("startFrom", state.startFrom);
  if (state.startTo) params.set("startTo", state.startTo);
  if (state.sort !== DEFAULT_CAMPAIGN_SORT) params.set("sort", state.sort);
  if (state.dir !== defaultDirection(state.sort)) params.set("dir", state.dir);
  const columns = pick(CAMPAIGN_LIST_COLUMNS, state.columns);
  if (!isDefaultColumns(columns)) for (const c of columns) params.append("columns", c);
  if (state.period !== "today") params.set("period", state.period);
  if (state.period === "custom") {
    if (state.custom.from) params.set("from", state.custom.from);
    if (state.custom.to) params.set("to", state.custom.to);
  }
  if (options.cursor !== false && state.after) params.set("after", state.after);
  return params;
}

/**
 * The parameters set in the list's "Statuses and columns" panel (statuses, live statuses,
 * columns, the statistics period). The list page renders that panel on demand only (ADR 25): until
 * it does, its filter form carries the state's values of these as hidden fields.
 */
export const PANEL_PARAMS: ReadonlySet<string> = new Set(["status", "live", "columns", "period", "from", "to"]);

/** The state's values of the panel's parameters, as the URL writes them (defaults left out). */
export function panelParams(state: CampaignListState): [string, string][] {
  return [...serialiseListState(state, { cursor: false })].filter(([name]) => PANEL_PARAMS.has(name));
}

/** The list's query string (no "?"), cursor included. */
export function listQuery(state: CampaignListState): string {
  return serialiseListState(state).toString();
}

/** The query string of a saved view: the state without the cursor, in a stable order. */
export function viewQuery(state: CampaignListState): string {
  return serialiseListState(state, { cursor: false }).toString();
}

/** The stored statuses to ask storage for; undefined = no status filter. */
export function storedStatusesForQuery(state: Pick<CampaignListState, "statuses" | "live">): CampaignStatus[] | undefined {
  if (state.statuses.length === 0 && state.live.length === 0) return undefined;
  const wanted = new Set<CampaignStatus>(state.statuses);
  for (const l of state.live) wanted.add(LIVE_FILTER_TO_STORED[l]);
  return CAMPAIGN_STATUSES.filter((s) => wanted.has(s));
}

/**
 * Whether a campaign of the page stays, given its stored status and derived live status: its
 * stored status is chosen, or it is active and its live status is chosen.
 */
export function matchesStatusFilter(
  state: Pick<CampaignListState, "statuses" | "live">,
  status: CampaignStatus,
  liveStatus: string,
): boolean {
  if (state.statuses.length === 0 && state.live.length === 0) return true;
  if (state.statuses.includes(status)) return true;
  return status === "active" && (state.live as readonly string[]).includes(liveStatus);
}

/** The day after a yyyy-mm-dd day. */
export function nextDay(day: string): string {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + 1)).toISOString().slice(0, 10);
}

const utc = (iso: string) => new Date(iso).toISOString();

/**
 * The start-date range as instants for storage: [00:00 of startFrom, 00:00 of the day after
 * startTo) in the retailer's time zone, written in UTC ("…Z") so they compare with stored instants.
 */
export function startRange(
  state: Pick<CampaignListState, "startFrom" | "startTo">,
  timeZone: string,
): { startFrom?: string; startTo?: string } {
  return {
    ...(state.startFrom ? { startFrom: utc(dayEdge(state.startFrom, timeZone, "start")) } : {}),
    ...(state.startTo ? { startTo: utc(dayEdge(nextDay(state.startTo), timeZone, "start")) } : {}),
  };
}

/** Any filter or search set (for the empty state: "no campaign matches" versus "no campaign yet"). */
export function hasFilters(state: CampaignListState): boolean {
  return (
    state.statuses.length > 0 ||
    state.live.length > 0 ||
    !!state.type ||
    !!state.team ||
    !!state.wallet ||
    !!state.q ||
    !!state.startFrom ||
    !!state.startTo
  );
}
