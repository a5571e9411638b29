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

/** What a posting is, for the spend figures (ADR 41). */
export interface PostingFacts {
  type: EntryType;
  amount: Cents;
  /** A settlement of ad spend (the settlement's own debit). */
  settlement: boolean;
  /** The entry this posting reverses: its type and whether it was a settlement; null for no reversal. */
  reverses: { type: EntryType; settlement: boolean } | null;
}

/**
 * The wallet's spend figures after a posting (ADR 41): spend is what ads cost, the settlement's
 * debits; funding is the credits. A reversal cancels its entry: a reversed credit lowers funding
 * (not spend up), a reversed settlement lowers spend. A manual debit (and its reversal) moves the
 * balance only. firstSpendAt is the first settlement debit. Balance = credit - debit is untouched.
 */
export function spendFiguresAfter(
  wallet: Pick<WalletData, "spend" | "funded" | "firstSpendAt">,
  posting: PostingFacts,
  at: string,
): Pick<WalletData, "spend" | "funded" | "firstSpendAt"> {
  let { spend, funded, firstSpendAt } = wallet;
  const reversed = posting.reverses;
  if (!reversed) {
    if (posting.type === "credit") funded += posting.amount;
    else if (posting.settlement) {
      spend += posting.amount;
      firstSpendAt ??= at;
    }
  } else if (reversed.type === "credit") funded -= posting.amount;
  else if (reversed.settlement) spend -= posting.amount;
  return { spend, funded, firstSpendAt };
}

/** The spend figures of a whole ledger, oldest first (old wallets' figures, made once). */
export function spendFiguresOf(
  entries: readonly (Pick<LedgerEntryData, "type" | "amount" | "at" | "reversalOf" | "by" | "reference"> & { id: string })[],
  isSettlement: (entry: Pick<LedgerEntryData, "by" | "reference">) => boolean,
): Pick<WalletData, "spend" | "funded" | "firstSpendAt"> {
  const byId = new Map(entries.map((e) => [e.id, e]));
  let figures: Pick<WalletData, "spend" | "funded" | "firstSpendAt"> = { spend: 0, funded: 0, firstSpendAt: null };
  for (const e of entries) {
    const original = e.reversalOf ? byId.get(e.reversalOf) : null;
    figures = spendFiguresAfter(
      figures,
      {
        type: e.type,
        amount: e.amount,
        settlement: !e.reversalOf && isSettlement(e),
        reverses: e.reversalOf ? { type: original?.type ?? (e.type === "credit" ? "debit" : "credit"), settlement: !!original && isSettlement(original) } : null,
      },
      e.at,
    );
  }
  return figures;
}
