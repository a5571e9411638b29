/** Ledger rules: what a posting may do to a wallet. Pure. */
import type { Cents } from "~/domain/money";
import type { EntryType, LedgerEntryData, WalletData } from "~/domain/types";

export type PostingProblem = "ledger.walletArchived" | "ledger.insufficientBalance" | "ledger.alreadyReversed" | "ledger.notReversible";

/** An archived wallet takes no entry; a debit larger than the balance is refused. */
export function checkPosting(
  wallet: Pick<WalletData, "status" | "balance">,
  type: EntryType,
  amount: Cents,
): PostingProblem | null {
  if (wallet.status === "archived") return "ledger.walletArchived";
  if (type === "debit" && amount > wallet.balance) return "ledger.insufficientBalance";
  return null;
}

/** The entry that reverses another: the opposite type, the same amount. */
export function reversalOf(entry: Pick<LedgerEntryData, "type" | "amount">): Pick<LedgerEntryData, "type" | "amount"> {
  return { type: entry.type === "credit" ? "debit" : "credit", amount: entry.amount };
}

/** The wallet totals after an entry: balance = credit - debit, always. */
export function applyEntry(
  wallet: Pick<WalletData, "credit" | "debit">,
  type: EntryType,
  amount: Cents,
): Pick<WalletData, "credit" | "debit" | "balance"> {
  const credit = wallet.credit + (type === "credit" ? amount : 0);
  const debit = wallet.debit + (type === "debit" ? amount : 0);
  return { credit, debit, balance: credit - debit };
}

/** The wallet totals before an entry (the inverse of applyEntry): what a posting started from. */
export function totalsBefore(
  wallet: Pick<WalletData, "credit" | "debit">,
  entry: Pick<LedgerEntryData, "type" | "amount">,
): Pick<WalletData, "credit" | "debit" | "balance"> {
  const credit = wallet.credit - (entry.type === "credit" ? entry.amount : 0);
  const debit = wallet.debit - (entry.type === "debit" ? entry.amount : 0);
  return { credit, debit, balance: credit - debit };
}
