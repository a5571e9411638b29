/** Wallet rules of spec section 4 (live status, recently updated, runway). Pure: `now` is passed in. */
import type { Cents } from "~/domain/money";
import type { WalletData } from "~/domain/types";
import { addDays, localDay } from "~/domain/metrics/periods";

export const RECENTLY_UPDATED_MS = 2 * 24 * 60 * 60 * 1000;
export const DEPLETION_ALERT_DAYS = 45;
const DAY_MS = 24 * 60 * 60 * 1000;

export type WalletLiveStatus = WalletData["status"] | "insufficient_funds";

/** insufficient_funds when active and the balance is 0 or less; the stored status otherwise. */
export function deriveWalletLiveStatus(wallet: Pick<WalletData, "status" | "balance">): WalletLiveStatus {
  return wallet.status === "active" && wallet.balance <= 0 ? "insufficient_funds" : wallet.status;
}

export function isRecentlyUpdated(wallet: Pick<WalletData, "balanceUpdated">, now: Date): boolean {
  if (!wallet.balanceUpdated) return false;
  // An instant slightly ahead of this clock (the ledger never lets time go back) is recent too.
  return now.getTime() - Date.parse(wallet.balanceUpdated) <= RECENTLY_UPDATED_MS;
}

export interface Runway {
  /** Per day, since the first ad spend. */
  averageDailySpendCents: Cents;
  /**
   * Cents per day the days to go were counted at: the smaller of the daily budget and the
   * average daily spend (the rate the runway sentence names).
   */
  dailyRateCents: Cents;
  /** Whole days the balance lasts (rounded down); 0 when nothing is left. */
  daysToGo: number;
  /** The retailer's day (yyyy-mm-dd) the balance should run out by: today there, plus the days to go. */
  shouldEndBy: string;
}

/** What the runway reads of a wallet: ad spend and its first time (ADR 41), the balance, the daily budget. */
export type RunwayWallet = Pick<WalletData, "spend" | "firstSpendAt" | "balance" | "dailyBudget">;

/**
 * The span of ad spend a runway is projected from at least: a full day after the first ad spend
 * (ADR 44). A few minutes of spend counted as a day's would give years to go; a day covers the
 * hours when shoppers do and do not browse.
 */
export const RUNWAY_MIN_SPAN_MS = DAY_MS;

/** Whether the wallet has ad spend (ADR 41): a runway, or one to come. */
const hasSpent = (wallet: Pick<RunwayWallet, "spend" | "firstSpendAt">): wallet is Pick<RunwayWallet, "spend"> & { firstSpendAt: string } =>
  !!wallet.firstSpendAt && wallet.spend > 0;

/**
 * Average daily spend = ad spend / whole days since the first ad spend; days to go = balance /
 * the smaller of dailyBudget and that average. Spend is what ads cost (settled spend, less its
 * reversals): a manual debit or the reversal of a credit is no spend (ADR 41). Nothing before a
 * first spend, nor before a full day of it (ADR 44: runwayPendingUntil says until when), nor when
 * nothing is spent per day. Without `shouldEndBy` (no time zone).
 */
export function runwayPace(wallet: RunwayWallet, now: Date): Omit<Runway, "shouldEndBy"> | null {
  if (!hasSpent(wallet)) return null;
  const days = Math.floor((now.getTime() - Date.parse(wallet.firstSpendAt)) / RUNWAY_MIN_SPAN_MS);
  if (!(days >= 1)) return null;
  const averageDailySpend = wallet.spend / days;
  const pace = wallet.dailyBudget && wallet.dailyBudget > 0 ? Math.min(wallet.dailyBudget, averageDailySpend) : averageDailySpend;
  if (!(pace > 0)) return null;
  return {
    averageDailySpendCents: Math.round(averageDailySpend),
    dailyRateCents: Math.round(pace),
    daysToGo: Math.max(0, Math.floor(wallet.balance / pace)),
  };
}

/**
 * When a wallet that has ad spend, but not yet a full day of it, shows its runway (ISO): a full
 * day after its first ad spend (ADR 44). Null without ad spend, and once the runway is projected.
 */
export function runwayPendingUntil(wallet: Pick<RunwayWallet, "spend" | "firstSpendAt">, now: Date): string | null {
  if (!hasSpent(wallet)) return null;
  const from = Date.parse(wallet.firstSpendAt) + RUNWAY_MIN_SPAN_MS;
  return now.getTime() < from ? new Date(from).toISOString() : null;
}

/**
 * The runway (runwayPace) with the day it should end by: today in the retailer's time zone (which
 * cuts days, NOTES) plus the days to go, so between midnight and 01:00 in Paris it is not a day early.
 */
export function computeRunway(wallet: RunwayWallet, now: Date, retailerTimeZone: string): Runway | null {
  const pace = runwayPace(wallet, now);
  if (!pace) return null;
  return { ...pace, shouldEndBy: addDays(localDay(now, retailerTimeZone), pace.daysToGo) };
}

/**
 * Share of the funded amount spent on ads, 0..1, for the spent-versus-funded bar: ad spend over
 * funding (credits less their reversals; ADR 41). Manual debits count in neither.
 */
export function spentShare(wallet: Pick<WalletData, "spend" | "funded">): number {
  if (wallet.funded <= 0) return wallet.spend > 0 ? 1 : 0;
  return Math.min(1, Math.max(0, wallet.spend / wallet.funded));
}
