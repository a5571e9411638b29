/**
 * The campaign lists (issue 4 section 2): /campaigns (every campaign the user may see) and a
 * team's Campaigns tab. The list's state lives in the URL (app/domain/campaigns/list.ts); this
 * module turns it into one storage query (CampaignListSpec: equality filters, one range or order,
 * a cursor — what both adapters serve), presents the page, and keeps the user's custom views
 * (the limit and name rule in app/domain/campaigns/views.ts). Its HTTP side (reading the
 * request, the forms' replies) is app/http/campaign-list.server.ts.
 *
 * Readings:
 * - Scope: suppliers see their teams' campaigns (campaignTeamScope), retailers and operators all;
 *   rows whose team the user may not see (an archived team, for a retailer) are left out of the
 *   page, as are rows whose live status does not match a live-status filter: such pages may be
 *   shorter than the page size, and the page says so.
 * - A supplier listed on more than 30 teams (the most one query may name) picks a team first.
 * - A start-date range orders by start date (one range per query on Firestore).
 * - Custom views are saved as the query of /campaigns (viewQuery: no cursor). A view saved from a
 *   team's Campaigns tab keeps that team as its team filter, so its link opens /campaigns filtered
 *   on that team: views are the user's own, not the team's, and one menu serves both pages.
 */
import { EXPORT_WARNING_ROWS } from "~/domain/metrics/csv";
import {
  hasFilters,
  METRIC_LIST_COLUMNS,
  showsMetrics,
  listQuery,
  matchesStatusFilter,
  parseListState,
  startRange,
  storedStatusesForQuery,
  viewQuery,
  type CampaignListState,
  type CampaignSort,
  type SortDirection,
} from "~/domain/campaigns/list";
import { campaignNewPath } from "~/domain/campaigns/urls";
import { derive, zeroMeasures, type Derived } from "~/domain/metrics/metrics";
import { resolvePreset, type Period } from "~/domain/metrics/periods";
import { fetchMetrics, rowsByKey } from "~/services/metrics.server";
import { can } from "~/domain/permissions";
import { isEnabledType } from "~/domain/retailer-settings";
import { canSeeTeam, listableTeamStatuses } from "~/domain/teams";
import type { Team, User, Wallet } from "~/domain/types";
import { MAX_CAMPAIGN_VIEWS, newViewRefusal } from "~/domain/campaigns/views";
import { fail, forbidden, notFound, ok, type Result } from "~/domain/result";
import { AlreadyExistsError, NotFoundError, type CampaignListSpec, type Page, type Campaign } from "~/storage/port";
import type { CampaignView } from "~/domain/catalog";
import { bulkChoices } from "~/services/campaigns/bulk.server";
import { campaignTeamScope, campaignViewContext, liveStatusOf, walletsOf, type CampaignViewContext } from "~/services/campaigns/campaigns.server";
import { capNotices, type CampaignLiveStatus, type CapNotice } from "~/domain/campaigns/status";
import { dateTimeFormat, numberFormat } from "~/domain/intl";
import { getRetailerSettings, retailerTimeZone } from "~/services/retailer-settings.server";
import { getStorage } from "~/services/storage.server";

export const CAMPAIGN_PAGE_SIZE = 25;
/** Campaigns read per page by an export of a list (the figures of one page are one statistics request). */
export const CAMPAIGN_EXPORT_PAGE_SIZE = 500;
/** CampaignListSpec.teamIds: at most 30 teams per query (Firestore's `in`). */
const MAX_TEAMS_PER_QUERY = 30;
/** Teams offered in the team filter and the new-campaign picker of retailers and operators. */
const TEAM_OPTIONS_LIMIT = 100;

// ---------------------------------------------------------------------------------------------
// The page

/**
 * A campaign as a list row shows it: only what the table's cells read (ADR 25). The dates and
 * the editor's person are written for the columns shown only (null otherwise: no cell reads them).
 */
export interface CampaignListRow {
  id: string;
  name: string;
  status: Campaign["status"];
  liveStatus: CampaignLiveStatus;
  /** The caps that stop it today, each until tomorrow. */
  caps: CapNotice[];
  campaignType: string;
  team: { id: string; name: string };
  wallet: { id: string; label: string } | null;
  bidStrategy: string;
  bid: string | null;
  start: string | null;
  end: string | null;
  spend: string | null;
  updated: string | null;
  by: string;
  canDuplicate: boolean;
  /** The row's statistics for the list's period, when a statistics column is shown (null: none asked, or unavailable). */
  figures: Derived | null;
  /** The currency of its spend and figures: its wallet's, else the retailer's. */
  currency: string;
}

/** How a page's rows are written: the formatters made once a page, not once a cell. */
function rowWriter(ctx: CampaignViewContext, columns: ReadonlySet<string>) {
  const money = numberFormat(ctx.locale, { style: "currency", currency: ctx.currency });
  // Spend is debited from the wallet, in the wallet's currency (bids are the retailer's).
  const moneyIn = (currency: string) => numberFormat(ctx.locale, { style: "currency", currency });
  const day = columns.has("start") || columns.has("end") ? dateTimeFormat(ctx.locale, { dateStyle: "medium", timeZone: ctx.retailerTimeZone }) : null;
  const instant = columns.has("updated") ? dateTimeFormat(ctx.locale, { dateStyle: "medium", timeStyle: "short", timeZone: ctx.userTimeZone }) : null;
  const date = (format: Intl.DateTimeFormat | null, iso: string | null | undefined) => (format && iso ? format.format(new Date(iso)) : null);
  return (campaign: Campaign, wallet: Wallet | null, team: Team, canDuplicate: boolean): CampaignListRow => {
    const liveStatus = liveStatusOf(campaign, wallet, ctx.now);
    return {
      id: campaign.id,
      name: campaign.name,
      status: campaign.status,
      liveStatus,
      caps: capNotices(campaign, liveStatus, ctx.now, ctx.retailerTimeZone),
      campaignType: campaign.campaignType,
      team: { id: team.id, name: team.name },
      wallet: campaign.wallet ? { id: campaign.wallet, label: wallet?.label ?? campaign.selectedWallet?.label ?? "" } : null,
      bidStrategy: campaign.bidStrategy,
      bid: campaign.bid === null ? null : money.format(campaign.bid / 100),
      start: columns.has("start") ? date(day, campaign.startDate) : null,
      end: columns.has("end") ? date(day, campaign.endDate) : null,
      spend: moneyIn(wallet?.currency ?? ctx.currency).format(campaign.spend / 100),
      updated: date(instant, campaign.updated),
      by: campaign.by || "system",
      canDuplicate,
      figures: null,
      currency: wallet?.currency ?? ctx.currency,
    };
  };
}

export type CampaignListResult =
  | {
      ok: true;
      rows: CampaignListRow[];
      next: string | null;
      /** Rows of the store's page left out by the live-status filter or the team's visibility. */
      leftOut: number;
      /** The order actually used (a start-date range orders by start date). */
      sort: CampaignSort;
      dir: SortDirection;
      /** A supplier on too many teams must choose one. */
      chooseTeam: boolean;
      /** The statistics columns could not be filled ('Fetch overall statistics'). */
      metricsFailed?: boolean;
      /** When the statistics columns were filled: the time of the newest event received (ISO), or null. */
      newestEvent?: string | null;
      /** With statistics columns: the rows their export writes, counted up to just past the export warning's threshold. */
      exportRows?: number;
    }
  | { ok: false; rows: []; next: null; leftOut: 0; sort: CampaignSort; dir: SortDirection; chooseTeam: false; metricsFailed?: boolean };

/** The days the list's statistics columns cover (the retailer's days). */
export function listPeriod(state: Pick<CampaignListState, "period" | "custom">, now = new Date()): Period {
  return resolvePreset(state.period, { now, timeZone: retailerTimeZone(), custom: { from: state.custom.from || undefined, to: state.custom.to || undefined } });
}

/** Fills each row's figures for the list's period; false when statistics are unavailable. */
async function addFigures(user: User, state: CampaignListState, rows: CampaignListRow[]): Promise<{ ok: boolean; newestEvent: string | null }> {
  const period = listPeriod(state);
  const ids = rows.map((r) => r.id);
  const result = await fetchMetrics(
    user,
    { dateFrom: period.from, dateTo: period.to, groups: { terms: ["campaign"], size: ids.length }, filters: { terms: { campaign: ids } } },
    "metrics:errors.fetchOverall",
  );
  if (!result.ok) return { ok: false, newestEvent: null };
  const byId = rowsByKey(result.value, "campaign");
  for (const row of rows) row.figures = derive(byId.get(row.id) ?? zeroMeasures());
  return { ok: true, newestEvent: result.value.newestEvent };
}

/** The teams to ask storage for; null = a supplier on too many teams (choose one). */
function teamFilter(user: User, state: CampaignListState, fixedTeam: Team | null): string[] | undefined | null {
  if (fixedTeam) return [fixedTeam.id];
  const scope = campaignTeamScope(user);
  if (scope === undefined) return state.team ? [state.team] : undefined;
  if (state.team) return scope.includes(state.team) ? [state.team] : [];
  return scope.length > MAX_TEAMS_PER_QUERY ? null : scope;
}

/** One page of campaigns for the list's state, scoped to the user (and to the team on its tab). */
export async function listCampaigns(
  user: User,
  state: CampaignListState,
  options: { locale: string; fixedTeam?: Team | null; pageSize?: number; withFigures?: boolean },
): Promise<CampaignListResult> {
  const fixedTeam = options.fixedTeam ?? null;
  const ranged = !!(state.startFrom || state.startTo);
  const sort: CampaignSort = ranged ? "startDate" : state.sort;
  const dir: SortDirection = ranged && state.sort !== "startDate" ? "asc" : state.dir;
  const teamIds = teamFilter(user, state, fixedTeam);
  if (teamIds === null) return { ok: true, rows: [], next: null, leftOut: 0, sort, dir, chooseTeam: true };
  const spec: CampaignListSpec = {
    teamIds,
    statuses: storedStatusesForQuery(state),
    type: state.type ?? undefined,
    walletId: state.wallet ?? undefined,
    search: state.q || undefined,
    ...startRange(state, retailerTimeZone()),
    sort: state.sort,
    direction: state.dir,
    limit: options.pageSize ?? CAMPAIGN_PAGE_SIZE,
  };
  const campaigns = getStorage().campaigns;
  try {
    let page: Page<Campaign>;
    try {
      page = await campaigns.list({ ...spec, after: state.after });
    } catch (error) {
      // A cursor that is not ours (edited by hand, or from another order): the first page.
      if (error instanceof RangeError && state.after) page = await campaigns.list(spec);
      else throw error;
    }
    const teamIdsOfPage = [...new Set(page.items.map((c) => c.team))];
    const [wallets, teams] = await Promise.all([
      walletsOf(page.items),
      teamIdsOfPage.length ? getStorage().teams.getMany(teamIdsOfPage) : Promise.resolve([] as Team[]),
    ]);
    const teamById = new Map(teams.map((t) => [t.id, t]));
    const writeRow = rowWriter(campaignViewContext(user, options.locale), new Set(state.columns));
    // Rights and visibility are a team's, not a row's: checked once per team of the page.
    const mayDuplicate = new Map(teams.map((t) => [t.id, can(user, "Campaign", "create", { teamId: t.id })]));
    const visible = new Map(teams.map((t) => [t.id, canSeeTeam(user, t)]));
    const rows: CampaignListRow[] = [];
    for (const campaign of page.items) {
      const team = teamById.get(campaign.team);
      if (!team || !visible.get(team.id)) continue;
      const row = writeRow(campaign, campaign.wallet ? (wallets.get(campaign.wallet) ?? null) : null, team, mayDuplicate.get(team.id) ?? false);
      if (!matchesStatusFilter(state, row.status, row.liveStatus)) continue;
      rows.push(row);
    }
    const withFigures = options.withFigures ?? showsMetrics(state.columns);
    const figures = withFigures && rows.length > 0 ? await addFigures(user, state, rows) : null;
    // What the statistics export would write, past the warning's threshold or not (counted only
    // when the list runs past this page).
    const exportRows = withFigures ? (page.next ? await campaigns.count(spec, EXPORT_WARNING_ROWS + 1) : rows.length) : undefined;
    return {
      ok: true,
      rows,
      next: page.next,
      leftOut: page.items.length - rows.length,
      sort,
      dir,
      chooseTeam: false,
      metricsFailed: figures ? !figures.ok : false,
      exportRows,
      ...(figures?.ok ? { newestEvent: figures.newestEvent } : {}),
    };
  } catch (error) {
    console.error(JSON.stringify({ level: "error", what: "Fetch campaign list", error: error instanceof Error ? error.message : String(error) }));
    return { ok: false, rows: [], next: null, leftOut: 0, sort, dir, chooseTeam: false };
  }
}

// ---------------------------------------------------------------------------------------------
// Pickers

export interface TeamOption {
  id: string;
  name: string;
}

/**
 * The teams a user may filter by: a supplier's own teams; for retailers and operators the first
 * 100 by name (plus the one in the URL), `more` when there are others (their Campaigns tab or a
 * link with ?team= reaches them).
 */
export async function teamOptions(user: User, current: string | null): Promise<{ options: TeamOption[]; more: boolean }> {
  const teams = getStorage().teams;
  let list: Team[];
  let more = false;
  if (user.claims.type === "supplier") {
    list = user.teamIds.length ? await teams.getMany(user.teamIds) : [];
  } else {
    const page = await teams.list({ statuses: listableTeamStatuses(user.claims), sort: "name", direction: "asc", limit: TEAM_OPTIONS_LIMIT });
    list = page.items;
    more = page.next !== null;
    if (current && !list.some((t) => t.id === current)) {
      const extra = await teams.getOne(current);
      if (extra) list = [...list, extra];
    }
  }
  const options = list
    .filter((t) => canSeeTeam(user, t))
    .sort((a, b) => a.nameLower.localeCompare(b.nameLower))
    .map((t) => ({ id: t.id, name: t.name }));
  return { options, more };
}

/** The wallets of a team, for the wallet filter. */
export async function walletOptions(teamId: string): Promise<{ id: string; label: string }[]> {
  const wallets = await getStorage().wallets.listForTeam(teamId);
  return wallets.map((w) => ({ id: w.id, label: w.label })).sort((a, b) => a.label.localeCompare(b.label));
}

/** The campaign types a new campaign may have (links and the picker). */
export async function enabledCampaignTypes() {
  return (await getRetailerSettings()).enabledTypes;
}

/**
 * /campaigns?newTeam=…&newType=… (the new-campaign picker, a GET form that works without JS), the
 * team and type chosen: the path of that team's creation page, when the user may create campaigns there; null without
 * a team (the select is required; a hand-made link): the list itself.
 */
export async function newCampaignTarget(user: User, choice: { teamId: string | null; type: string | null }): Promise<Result<string | null>> {
  if (!choice.teamId) return ok(null);
  const team = await getStorage().teams.getOne(choice.teamId);
  if (!team || !canSeeTeam(user, team)) return notFound();
  if (!can(user, "Campaign", "create", { teamId: team.id })) return forbidden();
  const settings = await getRetailerSettings();
  const type = choice.type ?? "";
  return ok(campaignNewPath(team.id, isEnabledType(settings, type) ? type : (settings.enabledTypes[0] ?? "sponsored-products")));
}

// ---------------------------------------------------------------------------------------------
// Custom views

export interface ViewLink {
  id: string;
  name: string;
  query: string;
  href: string;
}

function viewHref(query: string): string {
  return `/campaigns${query ? `?${query}` : ""}`;
}

export async function listViews(user: User): Promise<ViewLink[]> {
  const views = await getStorage().campaignViews.listForUser(user.id);
  return views.map((v) => ({ id: v.id, name: v.name, query: v.query, href: viewHref(v.query) }));
}

/** The stored query of a view: the list's state without its cursor (and the tab's team as filter). */
export function viewQueryOf(query: string, fixedTeamId: string | null): { query: string; state: CampaignListState } {
  const state = parseListState(new URLSearchParams(query));
  if (fixedTeamId) state.team = fixedTeamId;
  state.after = null;
  return { query: viewQuery(state), state };
}

async function ownView(user: User, viewId: string): Promise<CampaignView | null> {
  const view = await getStorage().campaignViews.getOne(viewId);
  return view && view.userId === user.id ? view : null;
}

/** Saves the list's query as a view of the user's (at most 10, names their own). */
export async function saveView(user: User, name: string, query: string, fixedTeamId: string | null): Promise<Result<CampaignView>> {
  const stored = viewQueryOf(query, fixedTeamId);
  const created = await getStorage().campaignViews.create(user.id, { name, query: stored.query, columns: [...stored.state.columns] }, new Date(), (names) =>
    newViewRefusal(names, name),
  );
  if (created.ok) return ok(created.view);
  return created.reason === "campaignList:views.limit"
    ? fail("invalid", created.reason, { field: "name", values: { limit: MAX_CAMPAIGN_VIEWS } })
    : fail("invalid", created.reason, { field: "name" });
}

/** Renames one of the user's views (not-found for another user's). */
export async function renameView(user: User, viewId: string, name: string): Promise<Result<CampaignView>> {
  if (!(await ownView(user, viewId))) return notFound();
  try {
    return ok(await getStorage().campaignViews.rename(viewId, name, new Date()));
  } catch (error) {
    if (error instanceof AlreadyExistsError) return fail("invalid", "campaignList:views.nameTaken", { field: "name" });
    if (error instanceof NotFoundError) return notFound();
    throw error;
  }
}

/** Deletes one of the user's views (not-found for another user's). */
export async function deleteView(user: User, viewId: string): Promise<Result<CampaignView>> {
  const view = await ownView(user, viewId);
  if (!view) return notFound();
  await getStorage().campaignViews.delete(view.id);
  return ok(view);
}

// ---------------------------------------------------------------------------------------------
// The list pages' loader

/** The page's rows with the figures of its statistics columns only (what the page sends the browser). */
function pageRows(list: CampaignListResult, state: CampaignListState) {
  const shown = METRIC_LIST_COLUMNS.filter((c) => state.columns.includes(c));
  const rows = list.rows.map((row) => {
    if (!row.figures) return row;
    const figures: Partial<Derived> = {};
    for (const metric of shown) (figures as Record<string, number | null>)[metric] = row.figures[metric];
    return { ...row, figures };
  });
  return { ...list, rows };
}

/** The wallet filter's options: the wallets of the page's team, or of the team filter when the user may see it. */
async function walletFilterOptions(state: CampaignListState, fixedTeam: Team | null, teams: TeamOption[]) {
  const walletTeam = fixedTeam?.id ?? (state.team && teams.some((o) => o.id === state.team) ? state.team : null);
  return walletTeam ? walletOptions(walletTeam) : [];
}

function listBasePath(fixedTeam: Team | null): string {
  return fixedTeam ? `/teams/${encodeURIComponent(fixedTeam.id)}/campaigns` : "/campaigns";
}

/**
 * The list's filter form on a page of its own, its "Statuses and columns" panel open: where a
 * browser without JavaScript chooses statuses, columns and the statistics period (the list page
 * links here rather than rendering that panel with every page: ADR 25). Applying it opens the list.
 */
export async function campaignFiltersPage(user: User, listState: CampaignListState, fixedTeam: Team | null) {
  const state = { ...listState, team: fixedTeam ? null : listState.team, after: null };
  const [teams, types] = await Promise.all([fixedTeam ? Promise.resolve({ options: [], more: false }) : teamOptions(user, state.team), enabledCampaignTypes()]);
  const basePath = listBasePath(fixedTeam);
  const query = listQuery(state);
  return {
    state,
    period: listPeriod(state),
    basePath,
    /** The list as it is now (Back to the list). */
    listHref: query ? `${basePath}?${query}` : basePath,
    fixedTeam: fixedTeam ? { id: fixedTeam.id, name: fixedTeam.name } : null,
    filtered: hasFilters(state),
    teamOptions: teams.options,
    moreTeams: teams.more,
    walletOptions: await walletFilterOptions(state, fixedTeam, teams.options),
    types,
    pageSize: CAMPAIGN_PAGE_SIZE,
  };
}

/** Everything a list page shows for the list's state (read from the URL); fixedTeam is the team of a team's Campaigns tab. */
export async function campaignListPage(user: User, listState: CampaignListState, fixedTeam: Team | null, locale: string) {
  // On a team's tab the team is the page's own, never a filter of the URL.
  const state = fixedTeam ? { ...listState, team: null } : listState;
  const [list, teams, views, types] = await Promise.all([
    listCampaigns(user, state, { locale, fixedTeam }),
    fixedTeam ? Promise.resolve({ options: [], more: false }) : teamOptions(user, state.team),
    listViews(user),
    enabledCampaignTypes(),
  ]);
  const wallets = await walletFilterOptions(state, fixedTeam, teams.options);
  const createTeams = fixedTeam
    ? can(user, "Campaign", "create", { teamId: fixedTeam.id })
      ? [{ id: fixedTeam.id, name: fixedTeam.name }]
      : []
    : teams.options.filter((t) => can(user, "Campaign", "create", { teamId: t.id }));
  return {
    state,
    /** The days of the statistics columns. */
    period: listPeriod(state),
    list: pageRows(list, state),
    query: listQuery(state),
    viewQuery: viewQuery(state),
    currentViewHref: viewHref(viewQueryOf(viewQuery(state), fixedTeam?.id ?? null).query),
    basePath: listBasePath(fixedTeam),
    fixedTeam: fixedTeam ? { id: fixedTeam.id, name: fixedTeam.name } : null,
    filtered: hasFilters(state),
    teamOptions: teams.options,
    moreTeams: teams.more,
    walletOptions: wallets,
    views,
    maxViews: MAX_CAMPAIGN_VIEWS,
    bulkChoices: bulkChoices(user),
    createTeams,
    types,
    pageSize: CAMPAIGN_PAGE_SIZE,
  };
}
export type CampaignListPage = Awaited<ReturnType<typeof campaignListPage>>;
