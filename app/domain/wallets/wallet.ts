/** Wallet rules of spec section 4 (live status, recently updated, runway). Pure: `now` is passed in. */
import type { Cents } from "~/domain/money";
import type { WalletData } from "~/domain/types";

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
  /** Per day, since the first debit. */
  averageDailySpendCents: Cents;
  /**
   * Cents per day the days to go were counted at: the smaller of the daily budget and the
   * average daily spend (the rate the runway sentence names).
   */
  dailyRateCents: Cents;
  /** Whole days the balance lasts (rounded down); 0 when nothing is left. */
  daysToGo: number;
  /** ISO date (yyyy-mm-dd) the balance should run out by. */
  shouldEndBy: string;
}

/**
 * Average daily spend = debit / days since the first debit (at least 1); days to go = balance /
 * the smaller of dailyBudget and that average; should end by = today + days to go. Nothing
 * before a first debit, nor when nothing is spent per day.
 */
export function computeRunway(
  wallet: Pick<WalletData, "debit" | "balance" | "dailyBudget" | "firstDebitAt">,
  now: Date,
): Runway | null {
  if (!wallet.firstDebitAt || wallet.debit <= 0) return null;
  const days = Math.max(1, Math.floor((now.getTime() - Date.parse(wallet.firstDebitAt)) / DAY_MS));
  const averageDailySpend = wallet.debit / days;
  const pace = wallet.dailyBudget && wallet.dailyBudget > 0 ? Math.min(wallet.dailyBudget, averageDailySpend) : averageDailySpend;
  if (!(pace > 0)) return null;
  const daysToGo = Math.max(0, Math.floor(wallet.balance / pace));
  const end = new Date(now.getTime() + daysToGo * DAY_MS);
  return {
    averageDailySpendCents: Math.round(averageDailySpend),
    dailyRateCents: Math.round(pace),
    daysToGo,
    shouldEndBy: end.toISOString().slice(0, 10),
  };
}

/** Share of the funded amount already spent, 0..1, for the spent-versus-funded bar. */
export function spentShare(wallet: Pick<WalletData, "debit" | "credit">): number {
  if (wallet.credit <= 0) return wallet.debit > 0 ? 1 : 0;
  return Math.min(1, Math.max(0, wallet.debit / wallet.credit));
}
