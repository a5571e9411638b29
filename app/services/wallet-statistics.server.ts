/**
 * Statistics on a team's wallet pages: each wallet's figures for the chosen period (the Wallets
 * tab), and a wallet's totals over its lifetime (its page). Read through fetchMetrics, so the
 * user's scope applies; the caller has checked the team is the user's to see.
 */
import { derive, type Derived } from "~/domain/metrics/metrics";
import { resolvePreset, type Period } from "~/domain/metrics/periods";
import { ok, type Result } from "~/domain/result";
import type { Team, User, Wallet } from "~/domain/types";
import { fetchMetrics, rowsByKey } from "~/services/metrics.server";
import { retailerTimeZone } from "~/services/retailer-settings.server";
import { getStorage } from "~/services/storage.server";

const TITLE = "metrics:errors.fetchTeam";

export interface TeamWalletStatistics {
  totals: Derived;
  rows: { id: string; name: string; href: string; figures: Derived }[];
  newestEvent: string | null;
}

export async function teamWalletStatistics(user: User, team: Team, period: Period): Promise<Result<TeamWalletStatistics>> {
  const [result, wallets] = await Promise.all([
    fetchMetrics(user, { dateFrom: period.from, dateTo: period.to, groups: { terms: ["wallet"] }, filters: { terms: { team: [team.id] } } }, TITLE),
    getStorage().wallets.listForTeam(team.id),
  ]);
  if (!result.ok) return result;
  const byWallet = rowsByKey(result.value, "wallet");
  const rows = wallets.map((w) => ({
    id: w.id,
    name: w.label,
    href: `/teams/${encodeURIComponent(team.id)}/wallets/${encodeURIComponent(w.id)}`,
    figures: derive(byWallet.get(w.id) ?? { displays: 0, views: 0, clicks: 0, costMicros: 0, quantity: 0, salesCents: 0 }),
  }));
  return ok({ totals: derive(result.value.summary), rows, newestEvent: result.value.newestEvent });
}

export interface WalletLifetimeStatistics {
  period: Period;
  totals: Derived;
  newestEvent: string | null;
}

/** A wallet's totals from its first event (or creation) to today. */
export async function walletLifetimeStatistics(user: User, wallet: Wallet, now = new Date()): Promise<Result<WalletLifetimeStatistics>> {
  const period = resolvePreset("walletLifetime", { now, timeZone: retailerTimeZone(), wallet: { firstEvent: wallet.firstDebitAt, created: wallet.created } });
  const result = await fetchMetrics(user, { dateFrom: period.from, dateTo: period.to, filters: { terms: { team: [wallet.teamId], wallet: [wallet.id] } } }, TITLE);
  if (!result.ok) return result;
  return ok({ period, totals: derive(result.value.summary), newestEvent: result.value.newestEvent });
}
