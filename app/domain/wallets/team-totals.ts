/**
 * A team's money per currency (each wallet has one currency; NOTES): its wallets' balances and
 * credits added up within each currency, never across. Pure.
 */
import type { Cents } from "~/domain/money";
import type { TeamTotals, WalletData } from "~/domain/types";

/** The totals after one wallet of `currency` moved by `delta`. */
export function addToTeamTotals(totals: TeamTotals, currency: string, delta: { balance: Cents; credit: Cents }): TeamTotals {
  const current = totals[currency] ?? { balance: 0, credit: 0 };
  return { ...totals, [currency]: { balance: current.balance + delta.balance, credit: current.credit + delta.credit } };
}

/** The totals of a team's wallets (old records' totals, made once from the wallets). */
export function teamTotalsOf(wallets: readonly Pick<WalletData, "currency" | "balance" | "credit" | "entryCount">[]): TeamTotals {
  let totals: TeamTotals = {};
  for (const w of wallets) {
    if (w.entryCount > 0 || w.balance !== 0 || w.credit !== 0) totals = addToTeamTotals(totals, w.currency, { balance: w.balance, credit: w.credit });
  }
  return totals;
}

/**
 * The sort key of the teams list's "by balance": the team's largest balance in any one currency
 * (0 without any). A team in one currency, nearly every team, sorts by its balance; amounts are
 * compared as numbers, as no exchange rate exists here.
 */
export function balanceSortKey(totals: TeamTotals): Cents {
  const balances = Object.values(totals).map((t) => t.balance);
  return balances.length ? Math.max(...balances) : 0;
}

/**
 * The currencies of totals in display order: the retailer's first, then the others by code. With
 * none (no wallet has had an entry yet), the retailer's, at zero.
 */
export function totalsInOrder(totals: TeamTotals | undefined, retailerCurrency: string): { currency: string; balance: Cents; credit: Cents }[] {
  const entries = Object.entries(totals ?? {}).map(([currency, t]) => ({ currency, balance: t.balance, credit: t.credit }));
  if (!entries.length) return [{ currency: retailerCurrency, balance: 0, credit: 0 }];
  return entries.sort((a, b) => (a.currency === retailerCurrency ? -1 : b.currency === retailerCurrency ? 1 : a.currency.localeCompare(b.currency)));
}
