/**
 * Keyword parsing (typed lines, CSV with a named column), target bids against their floor, the
 * counts kept on the campaign, and the auto-targeting rule (issue 10 §2, spec section 9).
 */
import { describe, expect, it } from "vitest";
import { parseKeywordCsv } from "~/domain/campaigns/keyword-csv";
import {
  applyTargetMinBid,
  checkTargetBid,
  countTargets,
  exceedsKeywordWarning,
  newTarget,
  parseKeywordLines,
  parseNegativeKeywords,
  pruneRemovedProducts,
  targetPlacement,
  targetsBelowMinimum,
  type Targets,
} from "~/domain/campaigns/targets";

const NOW = new Date("2026-11-26T10:00:00.000Z");
const LIMITS = { minCents: 15, maxCents: 100_000 };

describe("keywords typed one per line", () => {
  it("keeps one keyword per line, trimmed, spaces collapsed, case and accents folded into the key, blank lines skipped", () => {
    const parsed = parseKeywordLines("Running  Shoes\r\n\n  café crème \nrunning shoes\n");
    expect(parsed.keywords).toEqual([
      { key: "running shoes", name: "Running Shoes" },
      { key: "cafe creme", name: "café crème" },
    ]);
    expect(parsed).toMatchObject({ bad: 0, duplicates: 1 });
  });

  it("does not split on commas or semicolons (keywords are separated by line breaks)", () => {
    expect(parseKeywordLines("shoes, red; blue").keywords.map((k) => k.name)).toEqual(["shoes, red; blue"]);
  });

  it("counts a line too long to be a keyword as bad, with its line number", () => {
    const parsed = parseKeywordLines(`ok\n${"x".repeat(101)}\nfine`);
    expect(parsed).toMatchObject({ bad: 1, badLines: [2] });
    expect(parsed.keywords.map((k) => k.key)).toEqual(["ok", "fine"]);
  });

  it("negative keywords are keys, unique", () => {
    expect(parseNegativeKeywords("Free\nFREE\n gratuit ").keys).toEqual(["free", "gratuit"]);
  });
});

describe("keyword CSV", () => {
  it("reads the named column (case and spaces aside), counts lines without a value as bad with their line numbers, quotes honoured", () => {
    const csv = '\uFEFFid; x\n1," Keyword "\n';
    expect(parseKeywordCsv(csv, "keyword")).toMatchObject({ ok: false, reason: "noColumn" });
    const result = parseKeywordCsv('id,  KEYWORD ,n\n1,red shoes,a\n2,,b\n3,"multi\nline",c\n4,red shoes,d\n5, ,e\n', "keyword");
    expect(result).toMatchObject({ ok: true, column: "KEYWORD", rows: 5, bad: 2, badLines: [3, 6], duplicates: 1 });
    if (result.ok) expect(result.keywords.map((k) => k.name)).toEqual(["red shoes", "multi line"]);
  });

  it("refuses a file without a header and names the columns found", () => {
    expect(parseKeywordCsv("", "keyword")).toEqual({ ok: false, reason: "empty", columns: [] });
    expect(parseKeywordCsv("term,volume\nshoes,3\n", "keyword")).toEqual({ ok: false, reason: "noColumn", columns: ["term", "volume"] });
  });

  it("parses 100,000 lines", () => {
    const csv = ["keyword", ...Array.from({ length: 100_000 }, (_, i) => `keyword ${i}`)].join("\n");
    const result = parseKeywordCsv(csv);
    expect(result.ok && result.keywords.length).toBe(100_000);
  });
});

describe("target bids", () => {
  it("the floor raises the minimum: 'Minimum allowed bid' at the floor, the maximum kept", () => {
    expect(checkTargetBid(100, LIMITS, 120)).toEqual({ ok: false, reason: "campaigns:bidding.minBid", limitCents: 120 });
    expect(checkTargetBid(120, LIMITS, 120)).toEqual({ ok: true, value: 120 });
    expect(checkTargetBid(10, LIMITS, null)).toEqual({ ok: false, reason: "campaigns:bidding.minBid", limitCents: 15 });
    expect(checkTargetBid(100_001, LIMITS, 120)).toMatchObject({ ok: false, reason: "campaigns:bidding.maxBid" });
  });

  it("'Apply min bid' raises a bid under the floor to it and keeps any other", () => {
    expect(applyTargetMinBid(50, LIMITS, 120)).toBe(120);
    expect(applyTargetMinBid(200, LIMITS, 120)).toBe(200);
    expect(applyTargetMinBid(5, LIMITS, null)).toBe(15);
    const targets: Targets = { a: newTarget({ name: "a", bid: 50 }, NOW), b: newTarget({ name: "b", bid: 300 }, NOW), c: newTarget({ name: "c" }, NOW) };
    expect(targetsBelowMinimum(targets, LIMITS, (k) => (k === "a" ? 120 : null))).toEqual([{ key: "a", to: 120 }]);
  });
});

describe("counts and placements", () => {
  it("counts keywords, list-page categories and hubs apart, and product categories", () => {
    const cats = [newTarget({ name: "a", placement: "hub" }, NOW), newTarget({ name: "b" }, NOW), newTarget({ name: "c" }, NOW)];
    expect(countTargets("category", cats)).toEqual({ categories: 2, hubs: 1 });
    expect(countTargets("keyword", cats)).toEqual({ keywords: 3 });
    expect(countTargets("productCategory", cats)).toEqual({ productCategories: 3 });
    expect(exceedsKeywordWarning(1000)).toBe(false);
    expect(exceedsKeywordWarning(1001)).toBe(true);
  });

  it("a target saved without placement is on plp; hub only for a category; product categories on product pages", () => {
    expect(targetPlacement("category", null)).toBe("plp");
    expect(targetPlacement("category", "hub")).toBe("hub");
    expect(targetPlacement("keyword", "hub")).toBe("plp");
    expect(targetPlacement("productCategory", "plp")).toBe("pdp");
  });
});

describe("auto targeting: products removed", () => {
  const targets: Targets = {
    two: newTarget({ name: "two", offers: ["A", "B"] }, NOW),
    onlyA: newTarget({ name: "onlyA", offers: ["A"] }, NOW),
    autoA: newTarget({ name: "autoA", offers: ["A"], auto: true }, NOW),
    all: newTarget({ name: "all" }, NOW),
    offB: { ...newTarget({ name: "offB", offers: ["B"] }, NOW), on: false },
  };

  it("leaves every target's offers; a target left with none is switched off, or deleted when auto-created", () => {
    const later = new Date("2026-11-27T00:00:00.000Z");
    const r = pruneRemovedProducts(targets, ["A"], 1, later);
    expect(r.changed.two).toMatchObject({ offers: ["B"], on: true, updated: later.toISOString() });
    expect(r.changed.onlyA).toMatchObject({ offers: [], on: false });
    expect(r.deleted).toEqual(["autoA"]);
    expect(r.switchedOff).toEqual(["onlyA"]);
    // Untouched: every product (the campaign keeps one), and one without A.
    expect(r.changed.all).toBeUndefined();
    expect(r.changed.offB).toBeUndefined();
  });

  it("a target of every product is left with none only when the campaign is", () => {
    const r = pruneRemovedProducts(targets, ["A", "B"], 0, NOW);
    expect(r.changed.all).toMatchObject({ on: false, offers: null });
    expect(r.changed.offB).toMatchObject({ on: false, offers: [] });
    expect(r.switchedOff.sort()).toEqual(["all", "onlyA", "two"]);
  });

  it("changes nothing for products no target advertises", () => {
    expect(pruneRemovedProducts(targets, ["Z"], 3, NOW)).toEqual({ changed: {}, deleted: [], switchedOff: [] });
  });
});
