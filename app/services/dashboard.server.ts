/**
 * The dashboard's statistics: the period's totals (each against the comparison period when one is
 * asked for) and one row per team, wallet or campaign with its figures, named, sorted as asked.
 * Only what the user may see: a supplier's figures are their teams' (fetchMetrics narrows them).
 */
import { MAX_GROUP_ROWS } from "~/domain/metrics/contract";
import { EXPORT_WARNING_ROWS } from "~/domain/metrics/csv";
import { DASHBOARD_ROWS, type DashboardTab, type StatSort } from "~/domain/metrics/dashboard";
import { derive, type Derived, type Measures } from "~/domain/metrics/metrics";
import type { Period } from "~/domain/metrics/periods";
import { fail, ok, type Result } from "~/domain/result";
import { canSeeTeam } from "~/domain/teams";
import type { User } from "~/domain/types";
import { fetchMetrics } from "~/services/metrics.server";
import { getStorage } from "~/services/storage.server";


export interface StatRow {
  id: string;
  name: string;
  /** Where the row's name links to. */
  href: string;
  /** The team a wallet or campaign belongs to, named. */
  teamName?: string;
  figures: Derived;
}

export interface DashboardStatistics {
  totals: Derived;
  previousTotals: Derived | null;
  rows: StatRow[];
  /** Rows with figures beyond DASHBOARD_ROWS were left out. */
  truncated: boolean;
  /** Rows with figures (what an export writes), counted up to just past the export warning's threshold. */
  count: number;
  newestEvent: string | null;
}

const TERM: Record<DashboardTab, "team" | "wallet" | "campaign"> = { teams: "team", wallets: "wallet", campaigns: "campaign" };

function sortValue(row: StatRow, sort: StatSort): number | string {
  if (sort === "name") return row.name.toLocaleLowerCase();
  return row.figures[sort] ?? -1;
}

export function sortRows(rows: StatRow[], sort: StatSort, dir: "asc" | "desc"): StatRow[] {
  const sign = dir === "asc" ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = sortValue(a, sort);
    const y = sortValue(b, sort);
    if (x < y) return -sign;
    if (x > y) return sign;
    return a.name.localeCompare(b.name);
  });
}

async function nameRows(user: User, tab: DashboardTab, figures: Map<string, Measures>): Promise<StatRow[]> {
  const storage = getStorage();
  const ids = [...figures.keys()];
  if (ids.length === 0) return [];
  if (tab === "teams") {
    const teams = await storage.teams.getMany(ids);
    return teams
      .filter((team) => canSeeTeam(user, team))
      .map((team) => ({ id: team.id, name: team.name, href: `/teams/${team.id}/campaigns`, figures: derive(figures.get(team.id)!) }));
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
        teamName: teams.get(wallet.teamId)!.name,
        figures: derive(figures.get(wallet.id)!),
      }));
  }
  const campaigns = await storage.campaigns.getMany(ids);
  const teams = new Map((await storage.teams.getMany([...new Set(campaigns.map((c) => c.team))])).map((t) => [t.id, t]));
  return campaigns
    .filter((campaign) => teams.has(campaign.team) && canSeeTeam(user, teams.get(campaign.team)!))
    .map((campaign) => ({
      id: campaign.id,
      name: campaign.name,
      href: `/campaigns/${campaign.id}`,
      teamName: teams.get(campaign.team)!.name,
      figures: derive(figures.get(campaign.id)!),
    }));
}

export async function dashboardStatistics(
  user: User,
  input: { tab: DashboardTab; period: Period; previous: Period | null; sort: StatSort; dir: "asc" | "desc"; limit?: number },
): Promise<Result<DashboardStatistics>> {
  const limit = input.limit ?? DASHBOARD_ROWS;
  const term = TERM[input.tab];
  const title = input.tab === "teams" ? "metrics:errors.fetchTeam" : "metrics:errors.fetchOverall";
  // Asked for past the export warning's threshold too, so the page knows when to warn.
  const size = Math.min(MAX_GROUP_ROWS, Math.max(limit, EXPORT_WARNING_ROWS) + 1);
  const [current, previous] = await Promise.all([
    fetchMetrics(user, { dateFrom: input.period.from, dateTo: input.period.to, groups: { terms: [term], size } }, title),
    input.previous ? fetchMetrics(user, { dateFrom: input.previous.from, dateTo: input.previous.to }, title) : Promise.resolve(null),
  ]);
  if (!current.ok) return current;
  if (previous && !previous.ok) return previous;
  const groupRows = current.value[term] ?? [];
  const truncated = groupRows.length > limit;
  const figures = new Map(groupRows.slice(0, limit).map((row) => [row.key, row as Measures]));
  try {
    const rows = sortRows(await nameRows(user, input.tab, figures), input.sort, input.dir);
    return ok({
      totals: derive(current.value.summary),
      previousTotals: previous ? derive(previous.value.summary) : null,
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

