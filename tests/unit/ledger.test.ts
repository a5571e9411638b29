import { describe, expect, it } from "vitest";
import { applyEntry, checkPosting, reversalOf, type PostingProblem } from "~/domain/wallets/ledger";
import type { EntryType, WalletData } from "~/domain/types";

describe("checkPosting: an archived wallet takes nothing; a debit above the balance is refused", () => {
  it.each<[WalletData["status"], number, EntryType, number, PostingProblem | null]>([
    ["active", 10_000, "credit", 5_000, null],
    ["active", 0, "credit", 1, null],
    ["active", -500, "credit", 100, null],
    ["active", 10_000, "debit", 9_999, null],
    ["active", 10_000, "debit", 10_000, null],
    ["active", 10_000, "debit", 10_001, "ledger.insufficientBalance"],
    ["active", 0, "debit", 1, "ledger.insufficientBalance"],
    ["active", -500, "debit", 1, "ledger.insufficientBalance"],
    ["test", 1_000, "debit", 1_000, null],
    ["test", 1_000, "debit", 1_001, "ledger.insufficientBalance"],
    ["disabled", 1_000, "credit", 1_000, null],
    ["disabled", 1_000, "debit", 500, null],
    ["archived", 10_000, "credit", 5_000, "ledger.walletArchived"],
    ["archived", 10_000, "debit", 5_000, "ledger.walletArchived"],
    // Archived wins over an insufficient balance.
    ["archived", 0, "debit", 5_000, "ledger.walletArchived"],
  ])("%s wallet, balance %i: %s of %i -> %s", (status, balance, type, amount, expected) => {
    expect(checkPosting({ status, balance }, type, amount)).toBe(expected);
  });
});

describe("reversalOf: the opposite type, the same amount", () => {
  it.each<[EntryType, number, EntryType]>([
    ["credit", 12_000, "debit"],
    ["debit", 1, "credit"],
    ["debit", 250_000, "credit"],
  ])("%s of %i is reversed by a %s", (type, amount, opposite) => {
    expect(reversalOf({ type, amount })).toEqual({ type: opposite, amount });
  });
});

describe("applyEntry: the wallet's totals after an entry, balance = credit - debit", () => {
  it.each<[{ credit: number; debit: number }, EntryType, number, { credit: number; debit: number; balance: number }]>([
    [{ credit: 0, debit: 0 }, "credit", 10_000, { credit: 10_000, debit: 0, balance: 10_000 }],
    [{ credit: 10_000, debit: 0 }, "debit", 2_500, { credit: 10_000, debit: 2_500, balance: 7_500 }],
    [{ credit: 10_000, debit: 2_500 }, "credit", 500, { credit: 10_500, debit: 2_500, balance: 8_000 }],
    [{ credit: 100, debit: 300 }, "debit", 50, { credit: 100, debit: 350, balance: -250 }],
  ])("%o + %s of %i -> %o", (wallet, type, amount, expected) => {
    expect(applyEntry(wallet, type, amount)).toEqual(expected);
  });

  it("ignores a stored balance that disagrees: the balance is always recomputed", () => {
    const drifted = { credit: 1_000, debit: 400, balance: 999_999 };
    expect(applyEntry(drifted, "credit", 100)).toEqual({ credit: 1_100, debit: 400, balance: 700 });
  });

  it("keeps balance = credit - debit over a run of entries, and a reversal restores the balance", () => {
    const entries: [EntryType, number][] = [
      ["credit", 50_000],
      ["debit", 1_234],
      ["debit", 8_766],
      ["credit", 5],
      ["debit", 40_000],
    ];
    let wallet = { credit: 0, debit: 0, balance: 0 };
    for (const [type, amount] of entries) {
      const next = applyEntry(wallet, type, amount);
      expect(next.balance).toBe(next.credit - next.debit);
      expect(next.balance - wallet.balance).toBe(type === "credit" ? amount : -amount);
      const undone = applyEntry(next, reversalOf({ type, amount }).type, amount);
      expect(undone.balance).toBe(wallet.balance);
      wallet = next;
    }
    expect(wallet).toEqual({ credit: 50_005, debit: 50_000, balance: 5 });
  });
});
