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
 * Average daily spend = ad spend / days since the first ad spend (at least 1); days to go =
 * balance / the smaller of dailyBudget and that average. Spend is what ads cost (settled spend,
 * less its reversals): a manual debit or the reversal of a credit is no spend (ADR 41). Nothing
 * before a first spend, nor when nothing is spent per day. Without `shouldEndBy` (no time zone).
 */
export function runwayPace(wallet: RunwayWallet, now: Date): Omit<Runway, "shouldEndBy"> | null {
  if (!wallet.firstSpendAt || wallet.spend <= 0) return null;
  const days = Math.max(1, Math.floor((now.getTime() - Date.parse(wallet.firstSpendAt)) / DAY_MS));
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
