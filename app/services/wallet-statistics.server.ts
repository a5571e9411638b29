/**
 * Statistics on a team's wallet pages: each wallet's figures for the chosen period, with the
 * team's totals against the comparison period (the Wallets tab), and a wallet's totals for the
 * chosen period, by default its lifetime (its page). A period still under way is compared with
 * the same elapsed part of the previous one (fetchComparison), as on the dashboard. Read through
 * fetchMetrics, so the user's scope applies; the caller has checked the team is the user's to see.
 */
import { comparisonCurrency, derive, zeroMeasures, type Derived } from "~/domain/metrics/metrics";
import type { Period } from "~/domain/metrics/periods";
import { ok, type Result } from "~/domain/result";
import type { Team, User, Wallet } from "~/domain/types";
import { fetchComparison, fetchMetrics, rowsByKey } from "~/services/metrics.server";
import { getStorage } from "~/services/storage.server";
import { retailerSettings } from "~/services/wallets.server";

const TITLE = "metrics:errors.fetchTeam";

export interface TeamWalletStatistics {
  totals: Derived;
  previousTotals: Derived | null;
  /** When the period is still under way: the instant the compared part of the previous period ends (ISO). */
  comparedUntil: string | null;
  /** The totals' currency: the wallets' one, or null when they are in several (money is then left out of the totals). */
  currency: string | null;
  /** Each wallet's figures, in its own currency. */
  rows: { id: string; name: string; href: string; figures: Derived; currency: string }[];
  newestEvent: string | null;
}

/** `previous`: the comparison period asked for, or null; `now` decides how much of a period under way is compared. */
export async function teamWalletStatistics(user: User, team: Team, period: Period, previous: Period | null = null, now: Date = new Date()): Promise<Result<TeamWalletStatistics>> {
  const filters = { terms: { team: [team.id] } };
  const [result, before, wallets] = await Promise.all([
    fetchMetrics(user, { dateFrom: period.from, dateTo: period.to, groups: { terms: ["wallet"] }, filters }, TITLE),
    previous ? fetchComparison(user, { filters }, period, TITLE, now) : Promise.resolve(null),
    getStorage().wallets.listForTeam(team.id),
  ]);
  if (!result.ok) return result;
  if (before && !before.ok) return before;
  const byWallet = rowsByKey(result.value, "wallet");
  const rows = wallets.map((w) => ({
    id: w.id,
    name: w.label,
    href: `/teams/${encodeURIComponent(team.id)}/wallets/${encodeURIComponent(w.id)}`,
    figures: derive(byWallet.get(w.id) ?? zeroMeasures()),
    currency: w.currency,
  }));
  return ok({
    totals: derive(result.value.summary),
    previousTotals: before ? derive(before.value.summary) : null,
    comparedUntil: before ? before.value.until : null,
    currency: singleCurrency(wallets.map((w) => w.currency)),
    rows,
    newestEvent: result.value.newestEvent,
  });
}

/**
 * The currency of a comparison's money from the wallets it went through (fetchComparison's
 * `wallets`: null when too many to list, undefined when not asked): one, null when several or
 * unknown; `current` when it has no money.
 */
export async function comparisonWalletsCurrency(wallets: readonly string[] | null | undefined, current: string | null): Promise<string | null> {
  if (wallets === undefined) return current;
  if (wallets === null) return null;
  const found = wallets.length ? await getStorage().wallets.getMany(wallets) : [];
  return comparisonCurrency(found.map((w) => w.currency), current);
}

/** The one currency of these wallets, or null when there are several (undefined: none, the retailer's). */
export function singleCurrency(currencies: readonly string[]): string | null {
  const set = new Set(currencies);
  if (set.size === 0) return retailerSettings().currency;
  return set.size === 1 ? [...set][0]! : null;
}

export interface WalletStatistics {
  period: Period;
  /** The wallet's currency: its spend, sales and CPC are in it. */
  currency: string;
  totals: Derived;
  previousTotals: Derived | null;
  /** When the period is still under way: the instant the compared part of the previous period ends (ISO). */
  comparedUntil: string | null;
  newestEvent: string | null;
}

/**
 * A wallet's totals for a period (its page's default: its lifetime), against the comparison period
 * when asked (`previous` not null); `now` decides how much of a period under way is compared.
 */
export async function walletStatistics(user: User, wallet: Wallet, period: Period, previous: Period | null = null, now: Date = new Date()): Promise<Result<WalletStatistics>> {
  const filters = { terms: { team: [wallet.teamId], wallet: [wallet.id] } };
  const [result, before] = await Promise.all([
    fetchMetrics(user, { dateFrom: period.from, dateTo: period.to, filters }, TITLE),
    previous ? fetchComparison(user, { filters }, period, TITLE, now) : Promise.resolve(null),
  ]);
  if (!result.ok) return result;
  if (before && !before.ok) return before;
  return ok({
    period,
    currency: wallet.currency,
    totals: derive(result.value.summary),
    previousTotals: before ? derive(before.value.summary) : null,
    comparedUntil: before ? before.value.until : null,
    newestEvent: result.value.newestEvent,
  });
}
