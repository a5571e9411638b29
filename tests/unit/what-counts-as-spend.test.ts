/** ADR 41: what counts as spend (the rule the runway, spent share, today's spend and alerts follow), and team totals per currency. */
import { describe, expect, it } from "vitest";
import { applyEntry, spendFiguresAfter, spendFiguresOf, type PostingFacts } from "~/domain/wallets/ledger";
import { isSettlementEntry } from "~/domain/wallets/settlement";
import { addToTeamTotals, balanceSortKey, teamTotalsOf, totalsInOrder } from "~/domain/wallets/team-totals";

const T1 = "2026-11-20T10:00:00.000Z";
const T2 = "2026-11-21T10:00:00.000Z";
const none = { spend: 0, funded: 0, firstSpendAt: null };
const post = (p: Partial<PostingFacts> & Pick<PostingFacts, "type" | "amount">): PostingFacts => ({ settlement: false, reverses: null, ...p });

describe("spendFiguresAfter: spend is what ads cost, a reversal cancels its entry", () => {
  it("a credit funds; its reversal takes the funding back and is no spend", () => {
    const funded = spendFiguresAfter(none, post({ type: "credit", amount: 40_000 }), T1);
    expect(funded).toEqual({ spend: 0, funded: 40_000, firstSpendAt: null });
    const reversed = spendFiguresAfter(funded, post({ type: "debit", amount: 40_000, reverses: { type: "credit", settlement: false } }), T2);
    expect(reversed).toEqual({ spend: 0, funded: 0, firstSpendAt: null });
  });

  it("a settlement debit is spend and sets the first spend time once", () => {
    const first = spendFiguresAfter({ ...none, funded: 10_000 }, post({ type: "debit", amount: 23, settlement: true }), T1);
    expect(first).toEqual({ spend: 23, funded: 10_000, firstSpendAt: T1 });
    expect(spendFiguresAfter(first, post({ type: "debit", amount: 7, settlement: true }), T2)).toEqual({ spend: 30, funded: 10_000, firstSpendAt: T1 });
  });

  it("a manual debit lowers the balance only: neither spend nor funding, no first spend time", () => {
    expect(spendFiguresAfter({ ...none, funded: 10_000 }, post({ type: "debit", amount: 5_000 }), T1)).toEqual({ spend: 0, funded: 10_000, firstSpendAt: null });
    // Its reversal (a credit) is no funding either.
    expect(spendFiguresAfter({ ...none, funded: 10_000 }, post({ type: "credit", amount: 5_000, reverses: { type: "debit", settlement: false } }), T2)).toEqual({
      spend: 0,
      funded: 10_000,
      firstSpendAt: null,
    });
  });

  it("the reversal of a settlement takes the spend back", () => {
    const spent = { spend: 500, funded: 10_000, firstSpendAt: T1 };
    expect(spendFiguresAfter(spent, post({ type: "credit", amount: 200, reverses: { type: "debit", settlement: true } }), T2)).toEqual({ spend: 300, funded: 10_000, firstSpendAt: T1 });
  });

  it("leaves balance = credit - debit as the ledger has it", () => {
    // Credit 400, reverse it, credit 40: the ledger's balance is 40 with a debit of 400.
    let totals = { credit: 0, debit: 0, balance: 0 };
    totals = applyEntry(totals, "credit", 40_000);
    totals = applyEntry(totals, "debit", 40_000);
    totals = applyEntry(totals, "credit", 4_000);
    expect(totals).toEqual({ credit: 44_000, debit: 40_000, balance: 4_000 });
  });
});

describe("spendFiguresOf: a whole ledger's figures (wallets stored before ADR 41)", () => {
  it("credit 400, its reversal, credit 40, a manual debit and two settlements", () => {
    const entries = [
      { id: "a", type: "credit" as const, amount: 40_000, at: "2026-11-01T10:00:00Z", reversalOf: null, by: "admin@example.com", reference: "" },
      { id: "b", type: "debit" as const, amount: 40_000, at: "2026-11-01T10:01:00Z", reversalOf: "a", by: "admin@example.com", reference: "" },
      { id: "c", type: "credit" as const, amount: 4_000, at: "2026-11-01T10:02:00Z", reversalOf: null, by: "admin@example.com", reference: "" },
      { id: "d", type: "debit" as const, amount: 1_000, at: "2026-11-02T10:00:00Z", reversalOf: null, by: "admin@example.com", reference: "fee" },
      { id: "e", type: "debit" as const, amount: 23, at: "2026-11-03T10:00:00Z", reversalOf: null, by: "system", reference: "SPEND-000001" },
      { id: "f", type: "debit" as const, amount: 7, at: "2026-11-04T10:00:00Z", reversalOf: null, by: "system", reference: "SPEND-000002" },
    ];
    expect(spendFiguresOf(entries, isSettlementEntry)).toEqual({ spend: 30, funded: 4_000, firstSpendAt: "2026-11-03T10:00:00Z" });
  });
});

describe("team totals: per currency, never added across", () => {
  it("a €100.00 wallet and a PLN 400.00 wallet stay apart", () => {
    let totals = addToTeamTotals({}, "EUR", { balance: 10_000, credit: 10_000 });
    totals = addToTeamTotals(totals, "PLN", { balance: 40_000, credit: 40_000 });
    expect(totals).toEqual({ EUR: { balance: 10_000, credit: 10_000 }, PLN: { balance: 40_000, credit: 40_000 } });
    expect(teamTotalsOf([
      { currency: "EUR", balance: 10_000, credit: 10_000, entryCount: 1 },
      { currency: "PLN", balance: 40_000, credit: 40_000, entryCount: 1 },
      { currency: "PLN", balance: 0, credit: 0, entryCount: 0 },
    ])).toEqual(totals);
  });

  it("shows the retailer's currency first, and its zero when no wallet has money yet", () => {
    const totals = { PLN: { balance: 40_000, credit: 40_000 }, EUR: { balance: 10_000, credit: 10_000 } };
    expect(totalsInOrder(totals, "EUR").map((t) => t.currency)).toEqual(["EUR", "PLN"]);
    expect(totalsInOrder(totals, "PLN").map((t) => t.currency)).toEqual(["PLN", "EUR"]);
    expect(totalsInOrder({}, "PLN")).toEqual([{ currency: "PLN", balance: 0, credit: 0 }]);
  });

  it("sorts by the largest balance in one currency, never a sum", () => {
    expect(balanceSortKey({ EUR: { balance: 10_000, credit: 0 }, PLN: { balance: 40_000, credit: 0 } })).toBe(40_000);
    expect(balanceSortKey({})).toBe(0);
  });
});
