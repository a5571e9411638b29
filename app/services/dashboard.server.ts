/**
 * The dashboard's statistics: the period's totals (each against the comparison period when one is
 * asked for) and one row per team, wallet or campaign with its figures, named, sorted as asked,
 * for the filters chosen (team, wallet, placement, campaign type, device).
 * Only what the user may see: a supplier's figures are their teams' (fetchMetrics narrows them,
 * whatever team or wallet a filter names).
 */
import { MAX_GROUP_ROWS } from "~/domain/metrics/contract";
import { EXPORT_WARNING_ROWS } from "~/domain/metrics/csv";
import { DASHBOARD_ROWS, type DashboardTab, type StatSort } from "~/domain/metrics/dashboard";
import {
  combineDashboardFilters,
  filterChoices,
  metricsFilterTerms,
  noFilters,
  type DashboardFilters,
  type FilterChoices,
  type ParsedFilters,
} from "~/domain/metrics/dashboard-filters";
import { derive, sumMeasures, type Derived, type Measures } from "~/domain/metrics/metrics";
import type { Period } from "~/domain/metrics/periods";
import { fail, ok, type Result } from "~/domain/result";
import { canSeeTeam } from "~/domain/teams";
import { collator } from "~/domain/intl";
import type { User } from "~/domain/types";
import { teamOptions, walletOptions, type TeamOption } from "~/services/campaigns/list.server";
import { fetchComparison, fetchMetrics } from "~/services/metrics.server";
import { getRetailerSettings } from "~/services/retailer-settings.server";
import { getStorage } from "~/services/storage.server";
import { comparisonWalletsCurrency, singleCurrency } from "~/services/wallet-statistics.server";


export interface StatRow {
  id: string;
  name: string;
  /** Where the row's name links to. */
  href: string;
  /** The team a wallet or campaign belongs to, and its name. */
  teamId?: string;
  teamName?: string;
  figures: Derived;
  /**
   * The row's currency (a wallet's, a campaign's wallet's, a team's when all its money is in one);
   * null when the row adds up several currencies: its money is then not shown.
   */
  currency: string | null;
}

export interface DashboardStatistics {
  totals: Derived;
  previousTotals: Derived | null;
  /**
   * The comparison's money's currency: the one of the wallets it spent or sold through, null when
   * several (or too many to tell); without a comparison, or without money in it, `currency`. Money
   * has no change when it differs from `currency` (tileChange).
   */
  previousCurrency: string | null;
  /** The totals' currency: the rows' one, or null when the rows are in several (money is then left out of the totals). */
  currency: string | null;
  /** When the period is still under way: the instant the compared part of the previous period ends (ISO). */
  comparedUntil: string | null;
  rows: StatRow[];
  /** Rows with figures beyond DASHBOARD_ROWS were left out. */
  truncated: boolean;
  /** Rows with figures (what an export writes), counted up to just past the export warning's threshold. */
  count: number;
  newestEvent: string | null;
}

const TERM: Record<DashboardTab, "team" | "wallet" | "campaign"> = { teams: "team", wallets: "wallet", campaigns: "campaign" };

/**
 * The one currency of the rows (the totals add up their money), or null when they are in several
 * or a row itself is: the totals then leave money out. Rows beyond the shown ones are not read.
 */
export function totalsCurrency(rows: readonly Pick<StatRow, "currency">[]): string | null {
  if (rows.some((r) => r.currency === null)) return null;
  return singleCurrency(rows.map((r) => r.currency!));
}

/** Names compared as a reader expects: "Épicerie" between "Drogerie" and "Fnac", "Team 2" before "Team 10". */
const names = collator(undefined, { sensitivity: "base", numeric: true });

export function sortRows(rows: StatRow[], sort: StatSort, dir: "asc" | "desc"): StatRow[] {
  const sign = dir === "asc" ? 1 : -1;
  return [...rows].sort((a, b) => {
    if (sort !== "name") {
      const x = a.figures[sort] ?? -1;
      const y = b.figures[sort] ?? -1;
      if (x !== y) return x < y ? -sign : sign;
      return names.compare(a.name, b.name);
    }
    return sign * names.compare(a.name, b.name) || a.id.localeCompare(b.id);
  });
}

/**
 * The currencies of the wallets each team's figures come from (teamsTab's rows): their teams'
 * money in the period is theirs, whatever the team's totals hold yet (they gain a currency at its
 * first posting only: a zloty wallet never funded nor settled would read as the retailer's).
 */
async function figureCurrenciesByTeam(walletIds: readonly string[]): Promise<Map<string, Set<string>>> {
  const byTeam = new Map<string, Set<string>>();
  if (walletIds.length === 0) return byTeam;
  for (const wallet of await getStorage().wallets.getMany(walletIds)) {
    const set = byTeam.get(wallet.teamId) ?? new Set<string>();
    set.add(wallet.currency);
    byTeam.set(wallet.teamId, set);
  }
  return byTeam;
}

async function nameRows(user: User, tab: DashboardTab, figures: Map<string, Measures>, teamWallets: readonly string[] = []): Promise<StatRow[]> {
  const storage = getStorage();
  const ids = [...figures.keys()];
  if (ids.length === 0) return [];
  if (tab === "teams") {
    const [teams, spentIn] = await Promise.all([storage.teams.getMany(ids), figureCurrenciesByTeam(teamWallets)]);
    return teams
      .filter((team) => canSeeTeam(user, team))
      .map((team) => ({
        id: team.id,
        name: team.name,
        href: `/teams/${team.id}/campaigns`,
        figures: derive(figures.get(team.id)!),
        // The currencies of the wallets its figures come from: one, or several never added up;
        // its totals' (the currencies its wallets hold money in) when no wallet is known.
        currency: singleCurrency(spentIn.has(team.id) ? [...spentIn.get(team.id)!] : Object.keys(team.totals ?? {})),
      }));
  }
  if (tab === "wallets") {
    const wallets = await storage.wallets.getMany(ids);
    const teams = new Map((await storage.teams.getMany([...new Set(wallets.map((w) => w.teamId))])).map((t) => [t.id, t]));
    return wallets
      .filter((wallet) => teams.has(wallet.teamId) && canSeeTeam(user, teams.get(wallet.teamId)!))
      .map((wallet) => ({
        id: wallet.id,
        name: wallet.label,
        href: `/teams/${wallet.teamId}/wallets/${wallet.id}`,
        teamId: wallet.teamId,
        teamName: teams.get(wallet.teamId)!.name,
        figures: derive(figures.get(wallet.id)!),
        currency: wallet.currency,
      }));
  }
  const campaigns = await storage.campaigns.getMany(ids);
  const [teamList, wallets] = await Promise.all([
    storage.teams.getMany([...new Set(campaigns.map((c) => c.team))]),
    storage.wallets.getMany([...new Set(campaigns.map((c) => c.wallet).filter((id): id is string => !!id))]),
  ]);
  const teams = new Map(teamList.map((t) => [t.id, t]));
  const walletCurrency = new Map(wallets.map((w) => [w.id, w.currency]));
  return campaigns
    .filter((campaign) => teams.has(campaign.team) && canSeeTeam(user, teams.get(campaign.team)!))
    .map((campaign) => ({
      id: campaign.id,
      name: campaign.name,
      href: `/campaigns/${campaign.id}`,
      teamId: campaign.team,
      teamName: teams.get(campaign.team)!.name,
      figures: derive(figures.get(campaign.id)!),
      // Its wallet's currency; a campaign without a wallet spends nothing: the retailer's.
      currency: (campaign.wallet && walletCurrency.get(campaign.wallet)) || singleCurrency([]),
    }));
}

/** The teams of the rows listed (within the query's own team filter, if any). */
function visibleTeams(tab: DashboardTab, rows: readonly StatRow[], asked: readonly string[] | undefined): string[] {
  const teams = new Set(rows.map((row) => (tab === "teams" ? row.id : row.teamId!)));
  return [...teams].filter((team) => !asked || asked.includes(team));
}

export async function dashboardStatistics(
  user: User,
  input: {
    tab: DashboardTab;
    period: Period;
    previous: Period | null;
    sort: StatSort;
    dir: "asc" | "desc";
    limit?: number;
    /** Sent as they are: the caller has combined them (resolveDashboardFilters); fetchMetrics keeps them within the user's teams. */
    filters?: DashboardFilters;
  },
): Promise<Result<DashboardStatistics>> {
  const limit = input.limit ?? DASHBOARD_ROWS;
  const term = TERM[input.tab];
  const title = input.tab === "teams" ? "metrics:errors.fetchTeam" : "metrics:errors.fetchOverall";
  // Asked for past the export warning's threshold too, so the page knows when to warn.
  const size = Math.min(MAX_GROUP_ROWS, Math.max(limit, EXPORT_WARNING_ROWS) + 1);
  const terms = metricsFilterTerms(input.filters ?? noFilters());
  const filters = Object.keys(terms).length ? { filters: { terms } } : {};
  const range = { dateFrom: input.period.from, dateTo: input.period.to };
  const [current, previous, wallets] = await Promise.all([
    fetchMetrics(user, { ...range, groups: { terms: [term], size }, ...filters }, title),
    // A period still under way is compared with the same elapsed part of the previous one; the
    // wallets of its money tell its currencies.
    input.previous ? fetchComparison(user, filters, input.period, title, undefined, { wallets: true }) : Promise.resolve(null),
    // A team's row is in the currency of the wallets its figures come from.
    input.tab === "teams" ? fetchMetrics(user, { ...range, groups: { terms: ["wallet"], size: MAX_GROUP_ROWS }, ...filters }, title) : Promise.resolve(null),
  ]);
  if (!current.ok) return current;
  if (previous && !previous.ok) return previous;
  if (wallets && !wallets.ok) return wallets;
  const groupRows = current.value[term] ?? [];
  const truncated = groupRows.length > limit;
  const figures = new Map(groupRows.slice(0, limit).map((row) => [row.key, row as Measures]));
  try {
    const teamWallets = wallets ? (wallets.value.wallet ?? []).map((row) => row.key).filter(Boolean) : [];
    const rows = sortRows(await nameRows(user, input.tab, figures, teamWallets), input.sort, input.dir);
    // Figures of rows the user may not see (an archived team's, for retailers and suppliers) are
    // in the service's summary but not in the rows: the totals are then the rows' own, so the
    // tiles add up what is listed, in the rows' currency, and the comparison is of the same
    // advertisers (those listed) in the previous period.
    const hidden = !truncated && rows.length < figures.size;
    let comparison = previous;
    if (hidden && input.previous) {
      const teams = visibleTeams(input.tab, rows, terms.team);
      const same = await fetchComparison(user, { filters: { terms: { ...terms, team: teams } } }, input.period, title, undefined, { wallets: true });
      if (!same.ok) return same;
      comparison = same;
    }
    const currency = totalsCurrency(rows);
    return ok({
      totals: derive(hidden ? sumMeasures(rows.map((row) => figures.get(row.id)!)) : current.value.summary),
      currency,
      previousCurrency: comparison ? await comparisonWalletsCurrency(comparison.value.wallets, currency) : currency,
      previousTotals: comparison ? derive(comparison.value.summary) : null,
      comparedUntil: comparison ? comparison.value.until : null,
      rows,
      truncated,
      count: groupRows.length,
      newestEvent: current.value.newestEvent,
    });
  } catch (error) {
    console.error(JSON.stringify({ level: "error", what: "dashboard names", error: error instanceof Error ? error.message : String(error) }));
    return fail("unavailable", title, { details: ["errors.errorOccurred"] });
  }
}

// ---------------------------------------------------------------------------------------------
// Filters

export interface ResolvedFilters extends ParsedFilters {
  /** The team and wallet filtered by, named. */
  names: { team: string | null; wallet: string | null };
  choices: FilterChoices;
}

/**
 * The filters of a query that apply for this user (combineDashboardFilters): the team and wallet
 * they name are looked up and kept only when the user may see them; the dropped ones are listed
 * with the query's own (`asked.dropped`).
 */
export async function resolveDashboardFilters(user: User, asked: ParsedFilters): Promise<Result<ResolvedFilters>> {
  try {
    const storage = getStorage();
    const [askedTeam, wallet, settings] = await Promise.all([
      asked.filters.team ? storage.teams.getOne(asked.filters.team) : Promise.resolve(null),
      asked.filters.wallet ? storage.wallets.getOne(asked.filters.wallet) : Promise.resolve(null),
      getRetailerSettings(),
    ]);
    const walletTeam = wallet ? (wallet.teamId === askedTeam?.id ? askedTeam : await storage.teams.getOne(wallet.teamId)) : null;
    const team = askedTeam && canSeeTeam(user, askedTeam) ? askedTeam : null;
    const visibleWallet = wallet && walletTeam && canSeeTeam(user, walletTeam) ? wallet : null;
    const choices = filterChoices(settings);
    const combined = combineDashboardFilters(asked.filters, { team, wallet: visibleWallet }, choices);
    const teamName = combined.filters.team === team?.id ? team.name : combined.filters.team === walletTeam?.id ? walletTeam.name : null;
    return ok({
      filters: combined.filters,
      dropped: [...asked.dropped, ...combined.dropped],
      names: { team: teamName, wallet: combined.filters.wallet ? visibleWallet!.label : null },
      choices,
    });
  } catch (error) {
    console.error(JSON.stringify({ level: "error", what: "dashboard filters", error: error instanceof Error ? error.message : String(error) }));
    return fail("unavailable", "metrics:errors.fetchOverall", { details: ["errors.errorOccurred"] });
  }
}

/** A supplier on more teams than this chooses a team before its wallets are listed. */
const WALLET_OPTION_TEAMS = 30;

export interface WalletOption {
  id: string;
  label: string;
  teamName: string;
}

export interface DashboardFilterOptions {
  teams: TeamOption[];
  /** Only the first advertisers are listed (retailers and operators). */
  moreTeams: boolean;
  /** The wallets of the team chosen; with none chosen, a supplier's teams' wallets (a retailer chooses a team first). */
  wallets: WalletOption[];
  placements: FilterChoices["placements"];
  types: FilterChoices["types"];
  devices: FilterChoices["devices"];
}

/** What the filters offer to this user: only teams they see, and only those teams' wallets. */
export async function dashboardFilterOptions(user: User, resolved: ResolvedFilters): Promise<DashboardFilterOptions> {
  const { choices, filters } = resolved;
  try {
    const teams = await teamOptions(user, filters.team);
    const walletTeams = filters.team
      ? teams.options.filter((t) => t.id === filters.team)
      : user.claims.type === "supplier" && teams.options.length <= WALLET_OPTION_TEAMS
        ? teams.options
        : [];
    const wallets = (await Promise.all(walletTeams.map(async (team) => (await walletOptions(team.id)).map((w) => ({ ...w, teamName: team.name }))))).flat();
    return { teams: teams.options, moreTeams: teams.more, wallets, ...choices };
  } catch (error) {
    console.error(JSON.stringify({ level: "error", what: "dashboard filter options", error: error instanceof Error ? error.message : String(error) }));
    return { teams: [], moreTeams: false, wallets: [], ...choices };
  }
}

/**
 * The dashboard's data for a query: the filters that apply (and those left out), what the filters
 * offer, and the statistics of the tab for the period and those filters.
 */
export async function dashboardPage(
  user: User,
  input: { tab: DashboardTab; period: Period; previous: Period | null; sort: StatSort; dir: "asc" | "desc"; asked: ParsedFilters },
) {
  const resolved = await resolveDashboardFilters(user, input.asked);
  if (!resolved.ok) {
    const none: DashboardFilterOptions = { teams: [], moreTeams: false, wallets: [], placements: [], types: [], devices: [] };
    return { filters: noFilters(), dropped: input.asked.dropped, names: { team: null, wallet: null }, options: none, statistics: resolved as Result<DashboardStatistics> };
  }
  const { filters, dropped, names } = resolved.value;
  const [statistics, options] = await Promise.all([
    dashboardStatistics(user, { tab: input.tab, period: input.period, previous: input.previous, sort: input.sort, dir: input.dir, filters }),
    dashboardFilterOptions(user, resolved.value),
  ]);
  return { filters, dropped, names, options, statistics };
}
