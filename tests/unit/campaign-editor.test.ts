/** The editor's small rules: completeness gaps, the 'Apply min bid' offer, money in fields, budget progress. */
import { describe, expect, it } from "vitest";
import { budgetProgress, centsToInput, completenessGaps, hasBidBelowMinimum } from "~/domain/campaigns/editor";

const CPC = { minCents: 15, maxCents: 2_000 };

describe("completenessGaps", () => {
  it.each([
    [{ name: "Spring", startDate: "2030-01-01T00:00:00Z", bidStrategy: "CPC", bid: 15 }, []],
    [{ name: "Spring", startDate: "2030-01-01T00:00:00Z", bidStrategy: "CPC", bid: 0 }, ["bid"]],
    [{ name: "Spring", startDate: "2030-01-01T00:00:00Z", bidStrategy: "FIXED", bid: 0 }, []],
    [{ name: "  ", startDate: null, bidStrategy: "CPM", bid: 0 }, ["name", "startDate", "bid"]],
  ] as const)("%o lacks %o", (campaign, gaps) => {
    expect(completenessGaps(campaign)).toEqual(gaps);
  });
});

describe("hasBidBelowMinimum", () => {
  it.each([
    [{ bidStrategy: "CPC", bid: 14, placementBids: {} }, true],
    [{ bidStrategy: "CPC", bid: 15, placementBids: {} }, false],
    [{ bidStrategy: "CPC", bid: 15, placementBids: { search: 10 } }, true],
    [{ bidStrategy: "CPC", bid: 15, placementBids: { search: 15, home: 2_000 } }, false],
    [{ bidStrategy: "FIXED", bid: 0, placementBids: {} }, false],
  ] as const)("%o → %s", (campaign, below) => {
    expect(hasBidBelowMinimum(campaign, CPC)).toBe(below);
  });
});

describe("centsToInput", () => {
  it.each([
    [0, "0.00"],
    [5, "0.05"],
    [1_250, "12.50"],
    [100_000, "1000.00"],
    [-150, "-1.50"],
    [null, ""],
    [undefined, ""],
  ])("%s → %s", (cents, text) => {
    expect(centsToInput(cents)).toBe(text);
  });
});

describe("budgetProgress", () => {
  it("has no budget for null, 0 or less", () => {
    for (const budget of [null, 0, -100]) expect(budgetProgress(500, budget)).toEqual({ spent: 500, budget: null, remaining: null, percent: null, reached: false });
  });
  it("counts the spend against the budget, the remainder never below 0", () => {
    expect(budgetProgress(2_500, 10_000)).toEqual({ spent: 2_500, budget: 10_000, remaining: 7_500, percent: 25, reached: false });
    expect(budgetProgress(9_999, 10_000)).toMatchObject({ percent: 99, reached: false });
    expect(budgetProgress(10_000, 10_000)).toMatchObject({ remaining: 0, percent: 100, reached: true });
    expect(budgetProgress(12_000, 10_000)).toMatchObject({ remaining: 0, percent: 120, reached: true });
  });
});
