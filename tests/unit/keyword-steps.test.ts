/**
 * The work of a 100,000-keyword import and view done in steps (ADR 43): the CSV read in steps
 * gives what the whole-file parse gave, the sort in steps sorts as Array.prototype.sort (stably),
 * and the below-floor count from the counts of bids is the one counted target by target.
 */
import { describe, expect, it } from "vitest";
import { parseKeywordCsv, parseKeywordCsvInSteps } from "~/domain/campaigns/keyword-csv";
import { belowFloorFromCounts, bidCountKey, BID_COUNT_CAP, compareSortable, compareTargets, newTarget, targetsBelowMinimum, type Targets } from "~/domain/campaigns/targets";
import { isFoldedAscii } from "~/domain/search";
import { sortInSteps, yieldToEventLoop } from "~/utils/cooperative";

describe("parseKeywordCsvInSteps", () => {
  it("gives parseKeywordCsv's result on a file of many steps: quotes, line breaks in cells, blank and bad lines, duplicates, a BOM", async () => {
    const lines = ["\uFEFFid,\" Keyword \",volume"];
    for (let i = 0; i < 30_000; i++) {
      if (i % 1000 === 7) lines.push(`${i},,1`);
      else if (i % 1000 === 9) lines.push("");
      else if (i % 997 === 3) lines.push(`${i},"two\nlines ${i}",2`);
      else if (i % 500 === 1) lines.push(`${i},"Café, ""crème"" ${i % 50}",3`);
      else lines.push(`${i},kw ${i % 20_000},4`);
    }
    const text = lines.join("\r\n");
    expect(text.length).toBeGreaterThan(5 * 64 * 1024);
    let pauses = 0;
    const stepped = await parseKeywordCsvInSteps(text, "keyword", async () => {
      pauses++;
      await yieldToEventLoop();
    });
    expect(stepped).toEqual(parseKeywordCsv(text, "keyword"));
    expect(pauses).toBeGreaterThan(4);
    expect(stepped.ok && stepped.bad).toBeGreaterThan(0);
    expect(stepped.ok && stepped.duplicates).toBeGreaterThan(0);
  });

  it("refuses a file without the column or without a header as the whole-file parse does", async () => {
    for (const text of ["name,volume\nshoes,1", "", "\n\n"]) {
      expect(await parseKeywordCsvInSteps(text, "keyword", yieldToEventLoop)).toEqual(parseKeywordCsv(text, "keyword"));
    }
  });
});

describe("sortInSteps", () => {
  it("sorts as Array.prototype.sort does, equal items kept in their order", async () => {
    const items = Array.from({ length: 5_000 }, (_, i) => ({ k: (i * 7919) % 613, i }));
    const byK = (a: { k: number }, b: { k: number }) => a.k - b.k;
    expect(await sortInSteps(items, byK)).toEqual([...items].sort(byK));
    expect(await sortInSteps([], byK)).toEqual([]);
    expect(await sortInSteps(items.slice(0, 1), byK)).toEqual(items.slice(0, 1));
  });

  it("sorts targets by compareTargets: the locale's order of names, then the key", async () => {
    const names = ["Zèbre", "apple", "École", "eclair", "Banana", "apple"].map((name, i) => ({ key: `${name.toLowerCase()}-${5 - i}`, name }));
    expect((await sortInSteps(names, compareTargets)).map((t) => t.name)).toEqual(["apple", "apple", "Banana", "eclair", "École", "Zèbre"]);
    expect((await sortInSteps(names, compareTargets))[0]!.key).toBe("apple-0");
  });

  it("orders targets by compareSortable exactly as by compareTargets: folded ASCII names by their code units, any other pair by the collator", async () => {
    // A small deterministic generator: names of lowercase letters, digits and spaces (most of
    // them folded ASCII), some with capitals, accents, hyphens or doubled spaces.
    let seed = 12345;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const plain = " 0123456789abcdefghijklmnopqrstuvwxyz";
    const other = ["A", "Z", "é", "É", "-", "'", "  ", "ß", "æ", "1"];
    const nameOf = () => {
      let name = "";
      const length = 1 + next(8);
      for (let i = 0; i < length; i++) name += next(10) === 0 ? other[next(other.length)] : plain[next(next(3) ? 6 : plain.length)];
      return name;
    };
    const targets = Array.from({ length: 4_000 }, (_, i) => {
      const name = nameOf();
      return { key: `k${i % 97}`, name, plain: isFoldedAscii(name) };
    });
    expect(targets.filter((t) => t.plain).length).toBeGreaterThan(1_000);
    expect(targets.filter((t) => !t.plain).length).toBeGreaterThan(1_000);
    const disagree: string[] = [];
    for (let i = 0; i + 1 < targets.length; i++) {
      for (const j of [i + 1, next(targets.length)]) {
        const [a, b] = [targets[i]!, targets[j]!];
        if (Math.sign(compareSortable(a, b)) !== Math.sign(compareTargets(a, b))) disagree.push(`${JSON.stringify(a.name)} / ${JSON.stringify(b.name)}`);
      }
    }
    expect(disagree).toEqual([]);
    expect((await sortInSteps(targets, compareSortable)).map((t) => `${t.name}|${t.key}`)).toEqual([...targets].sort(compareTargets).map((t) => `${t.name}|${t.key}`));
  });
});

describe("belowFloorFromCounts", () => {
  const NOW = new Date("2026-11-27T00:00:00Z");
  const limits = { minCents: 15, maxCents: 100_000 };
  const targets: Targets = {};
  [null, 5, 14, 15, 20, 100, 130, 20_000, null].forEach((bid, i) => (targets[`k${i}`] = newTarget({ name: `k${i}`, bid }, NOW)));
  const counts: Record<string, number> = {};
  for (const t of Object.values(targets)) if (t.bid !== null) counts[bidCountKey(t.bid)] = (counts[bidCountKey(t.bid)] ?? 0) + 1;

  it("counts the bids under the minimum, corrected for the keywords with a floor of their own", () => {
    const own = new Map([
      ["k4", 50], // 20 under its own 50: below
      ["k5", 90], // 100 over its 90: not below
      ["k1", 3], // 5 is under the minimum still (the floor never lowers it)
      ["missing", 500],
    ]);
    const withOwn = Object.fromEntries([...own.keys()].filter((k) => targets[k]).map((k) => [k, targets[k]!]));
    const expected = targetsBelowMinimum(targets, limits, (key) => own.get(key) ?? null).length;
    expect(belowFloorFromCounts(counts, limits, own, withOwn)).toBe(expected);
    expect(expected).toBe(3);
    expect(counts[String(BID_COUNT_CAP)]).toBe(1);
  });

  it("cannot tell when the minimum is past the counts' cap", () => {
    expect(belowFloorFromCounts(counts, { minCents: BID_COUNT_CAP + 1, maxCents: 200_000 }, new Map(), {})).toBeNull();
  });
});
