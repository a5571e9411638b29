/**
 * The metrics store contract: the same cases run against every MetricsStore adapter (the embedded
 * SQLite store and ClickHouse). An adapter passes only if it sums exactly like the others.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { zeroMeasures, type Measures } from "~/domain/metrics/metrics";
import { localDay, localHourAndWeekday } from "~/domain/metrics/periods";
import type { MetricsFact, MetricsQuery, MetricsRow, MetricsStore } from "~/metrics/port";

const TZ = "Europe/Paris";

/** A fact for the hour holding `instant`, cut in Paris's days. */
export function fact(instant: string, overrides: Partial<MetricsFact> = {}): MetricsFact {
  const at = new Date(instant);
  const hour = new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);
  const { hour: localHour, weekday } = localHourAndWeekday(hour, TZ);
  return {
    hour: hour.toISOString(),
    day: localDay(hour, TZ),
    localHour,
    weekday,
    team: "team-a",
    wallet: "wallet-a",
    campaign: "camp-a",
    campaignType: "sponsored-products",
    placement: "search",
    slot: "sp",
    device: "desktop",
    product: "",
    keyword: "",
    category: "",
    productCategory: "",
    ...zeroMeasures(),
    displays: 10,
    views: 8,
    clicks: 1,
    costMicros: 12_345,
    ...overrides,
  };
}

function measures(row: MetricsRow | undefined): Measures | undefined {
  if (!row) return undefined;
  const { displays, views, clicks, costMicros, quantity, salesCents } = row;
  return { displays, views, clicks, costMicros, quantity, salesCents };
}

/** Rows keyed by their group keys and bucket, for order-free comparison. */
function byKey(rows: MetricsRow[]): Record<string, Measures> {
  const out: Record<string, Measures> = {};
  for (const row of rows) out[[...Object.values(row.keys), row.bucket ?? ""].join("|")] = measures(row)!;
  return out;
}

export function runMetricsContract(name: string, open: () => Promise<MetricsStore>, opts: { skip?: boolean } = {}) {
  describe.skipIf(!!opts.skip)(`metrics store contract: ${name}`, () => {
    let store: MetricsStore;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store?.close();
    });
    beforeEach(async () => {
      await store.clear();
    });

    const q = (query: MetricsQuery) => store.query(query);

    it("applies a batch once: a replayed batch id changes nothing", async () => {
      const facts = [fact("2026-11-24T10:15:00Z"), fact("2026-11-24T11:15:00Z", { clicks: 2 })];
      expect(await store.applyBatch("b-1", facts, "2026-11-24T11:15:00.000Z")).toEqual({ applied: true });
      expect(await store.applyBatch("b-1", facts, "2026-11-24T11:15:00.000Z")).toEqual({ applied: false, reason: "duplicate" });
      const [total] = await q({ from: "2026-11-24", to: "2026-11-24" });
      expect(measures(total)).toEqual({ displays: 20, views: 16, clicks: 3, costMicros: 24_690, quantity: 0, salesCents: 0 });
      expect(total.keys).toEqual({});
    });

    it("adds facts of the same key across batches, and keeps the newest event time", async () => {
      await store.applyBatch("b-1", [fact("2026-11-24T10:15:00Z")], "2026-11-24T10:15:00.000Z");
      await store.applyBatch("b-2", [fact("2026-11-24T10:45:00Z", { displays: 5, views: 0, clicks: 0, costMicros: 1 })], "2026-11-24T10:45:00.000Z");
      await store.applyBatch("b-3", [fact("2026-11-24T09:00:00Z", { displays: 1 })], "2026-11-24T09:00:00.000Z");
      expect(await store.newestEvent()).toBe("2026-11-24T10:45:00.000Z");
      const rows = await q({ from: "2026-11-24", to: "2026-11-24", filters: { campaign: ["camp-a"] }, histogram: "hour" });
      expect(byKey(rows)).toEqual({
        "2026-11-24T09:00:00.000Z": { displays: 1, views: 8, clicks: 1, costMicros: 12_345, quantity: 0, salesCents: 0 },
        "2026-11-24T10:00:00.000Z": { displays: 15, views: 8, clicks: 1, costMicros: 12_346, quantity: 0, salesCents: 0 },
      });
    });

    it("knows no event before the first", async () => {
      expect(await store.newestEvent()).toBeNull();
      expect(await q({ from: "2026-11-24", to: "2026-11-24" })).toEqual([]);
    });

    it("groups by team over days from the daily roll-up, and filters by team", async () => {
      await store.applyBatch("b-1", [
        fact("2026-11-20T10:00:00Z", { team: "team-a" }),
        fact("2026-11-21T10:00:00Z", { team: "team-a", campaign: "camp-a2" }),
        fact("2026-11-21T10:00:00Z", { team: "team-b", wallet: "wallet-b", campaign: "camp-b", salesCents: 990, quantity: 3 }),
        fact("2026-11-25T10:00:00Z", { team: "team-b", wallet: "wallet-b", campaign: "camp-b" }), // outside the period
      ], null);
      const rows = await q({ from: "2026-11-20", to: "2026-11-24", groupBy: ["team"] });
      expect(byKey(rows)).toEqual({
        "team-a|": { displays: 20, views: 16, clicks: 2, costMicros: 24_690, quantity: 0, salesCents: 0 },
        "team-b|": { displays: 10, views: 8, clicks: 1, costMicros: 12_345, quantity: 3, salesCents: 990 },
      });
      const onlyB = await q({ from: "2026-11-20", to: "2026-11-30", groupBy: ["team"], filters: { team: ["team-b"] } });
      expect(onlyB.map((r) => [r.keys.team, r.displays])).toEqual([["team-b", 20]]);
      expect(await q({ from: "2026-11-20", to: "2026-11-30", filters: { team: [] } })).toEqual([]);
    });

    it("leaves out excluded values, with or without filters, on every roll-up", async () => {
      await store.applyBatch("b-1", [
        fact("2026-11-21T10:00:00Z", { team: "team-a", displays: 1 }),
        fact("2026-11-21T11:00:00Z", { team: "team-b", wallet: "wallet-b", campaign: "camp-b", displays: 20, product: "SKU-1" }),
        fact("2026-11-22T10:00:00Z", { team: "team-c", wallet: "wallet-c", campaign: "camp-c", displays: 300 }),
      ], null);
      const period = { from: "2026-11-20", to: "2026-11-24" } as const;
      const teams = async (query: Omit<MetricsQuery, "from" | "to">) => (await q({ ...period, groupBy: ["team"], ...query })).map((r) => [r.keys.team, r.displays]).sort();
      expect(await teams({ exclude: { team: ["team-b"] } })).toEqual([["team-a", 1], ["team-c", 300]]);
      expect((await q({ ...period, exclude: { team: ["team-b", "team-c"] } }))[0].displays).toBe(1);
      // A filter naming an excluded value gets nothing of it.
      expect(await teams({ filters: { team: ["team-b", "team-c"] }, exclude: { team: ["team-b"] } })).toEqual([["team-c", 300]]);
      expect(await q({ ...period, filters: { team: ["team-b"] }, exclude: { team: ["team-b"] } })).toEqual([]);
      // An empty list leaves nothing out.
      expect(await teams({ exclude: { team: [] } })).toEqual([["team-a", 1], ["team-b", 20], ["team-c", 300]]);
      // Another dimension, the hourly and product roll-ups, and a histogram.
      expect(await teams({ exclude: { campaign: ["camp-c"] } })).toEqual([["team-a", 1], ["team-b", 20]]);
      const hours = await q({ ...period, histogram: "hour", exclude: { team: ["team-a"] } });
      expect(hours.map((r) => [r.bucket, r.displays])).toEqual([["2026-11-21T11:00:00.000Z", 20], ["2026-11-22T10:00:00.000Z", 300]]);
      expect(await q({ ...period, groupBy: ["product"], exclude: { team: ["team-b"] } })).toEqual([]);
      const days = await q({ ...period, histogram: "day", groupBy: ["wallet"], exclude: { team: ["team-c"], wallet: ["wallet-a"] } });
      expect(days.map((r) => [r.bucket, r.keys.wallet, r.displays])).toEqual([["2026-11-21", "wallet-b", 20]]);
    });

    it("leaves out any number of excluded values, as data, never as query text", async () => {
      const odd = "x' OR '1'='1";
      const slash = "team\\'); DROP TABLE m_team_day; --";
      await store.applyBatch("b-1", [
        fact("2026-11-24T10:00:00Z", { team: odd, displays: 1 }),
        fact("2026-11-24T10:00:00Z", { team: slash, displays: 20 }),
        fact("2026-11-24T10:00:00Z", { team: "team-\n\u0001", displays: 300 }),
        fact("2026-11-24T10:00:00Z", { team: "kept", displays: 4_000 }),
      ], null);
      const day = { from: "2026-11-24", to: "2026-11-24" } as const;
      const keys = async (exclude: readonly string[]) => (await q({ ...day, groupBy: ["team"], exclude: { team: exclude } })).map((r) => r.keys.team).sort();
      expect(await keys([odd, slash, "team-\n\u0001"])).toEqual(["kept"]);
      expect(await keys(["x' OR 1=1 --", "%", "*"])).toEqual([...[odd, slash, "team-\n\u0001", "kept"]].sort());
      // 40,000 values (1.6 MB of ids): past SQLite's 32,766 bound values and ClickHouse's 256 KiB of query text.
      const many = Array.from({ length: 40_000 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
      const [total] = await q({ ...day, exclude: { team: [...many, odd, slash] } });
      expect(total.displays).toBe(4_300);
      const [unmoved] = await q({ ...day, exclude: { team: many } });
      expect(unmoved.displays).toBe(4_321);
    });

    it("groups by wallet and by campaign, with a daily histogram", async () => {
      await store.applyBatch("b-1", [
        fact("2026-11-20T10:00:00Z", { wallet: "w1", campaign: "c1" }),
        fact("2026-11-20T12:00:00Z", { wallet: "w1", campaign: "c2" }),
        fact("2026-11-21T10:00:00Z", { wallet: "w2", campaign: "c3" }),
      ], null);
      const wallets = await q({ from: "2026-11-20", to: "2026-11-21", groupBy: ["wallet"] });
      expect(wallets.map((r) => [r.keys.wallet, r.displays]).sort()).toEqual([["w1", 20], ["w2", 10]]);
      const perDay = await q({ from: "2026-11-20", to: "2026-11-21", groupBy: ["campaign"], histogram: "day", filters: { wallet: ["w1"] } });
      expect(perDay.map((r) => [r.bucket, r.keys.campaign, r.displays]).sort()).toEqual([["2026-11-20", "c1", 10], ["2026-11-20", "c2", 10]]);
    });

    it("breaks one campaign down by device, slot, placement and campaign type", async () => {
      await store.applyBatch("b-1", [
        fact("2026-11-24T08:00:00Z", { device: "mobile", placement: "search", slot: "sp" }),
        fact("2026-11-24T09:00:00Z", { device: "mobile", placement: "pdp", slot: "slider" }),
        fact("2026-11-24T09:00:00Z", { device: "desktop", placement: "pdp", slot: "slider" }),
        fact("2026-11-24T09:00:00Z", { campaign: "other", device: "tablet" }),
      ], null);
      const filters = { campaign: ["camp-a"] };
      const devices = await q({ from: "2026-11-24", to: "2026-11-24", filters, groupBy: ["device"] });
      expect(devices.map((r) => [r.keys.device, r.displays]).sort()).toEqual([["desktop", 10], ["mobile", 20]]);
      const slots = await q({ from: "2026-11-24", to: "2026-11-24", filters, groupBy: ["slot"] });
      expect(slots.map((r) => [r.keys.slot, r.displays]).sort()).toEqual([["slider", 20], ["sp", 10]]);
      const placements = await q({ from: "2026-11-24", to: "2026-11-24", filters: { ...filters, device: ["mobile"] }, groupBy: ["placement"] });
      expect(placements.map((r) => [r.keys.placement, r.displays]).sort()).toEqual([["pdp", 10], ["search", 10]]);
      const types = await q({ from: "2026-11-24", to: "2026-11-24", filters, groupBy: ["campaignType"] });
      expect(types.map((r) => [r.keys.campaignType, r.displays])).toEqual([["sponsored-products", 30]]);
    });

    it("cuts days in the retailer's time zone, 23-hour and 25-hour days included", async () => {
      // Paris: 2026-03-29 has 23 hours (UTC 2026-03-28T23:00 to 2026-03-29T22:00); 2026-10-25 has 25.
      await store.applyBatch("b-1", [
        fact("2026-03-28T22:30:00Z"), // 23:30 on the 28th in Paris
        fact("2026-03-28T23:30:00Z"), // 00:30 on the 29th
        fact("2026-03-29T21:30:00Z"), // 23:30 on the 29th (summer time)
        fact("2026-03-29T22:30:00Z"), // 00:30 on the 30th
        fact("2026-10-24T22:30:00Z"), // 00:30 on the 25th (summer time)
        fact("2026-10-25T22:30:00Z"), // 23:30 on the 25th (winter time)
        fact("2026-10-25T23:30:00Z"), // 00:30 on the 26th
      ], null);
      const days = await q({ from: "2026-03-28", to: "2026-10-26", histogram: "day" });
      expect(days.map((r) => [r.bucket, r.displays])).toEqual([
        ["2026-03-28", 10],
        ["2026-03-29", 20],
        ["2026-03-30", 10],
        ["2026-10-25", 20],
        ["2026-10-26", 10],
      ]);
      const hours = await q({ from: "2026-03-29", to: "2026-03-29", histogram: "hour" });
      expect(hours.map((r) => r.bucket)).toEqual(["2026-03-28T23:00:00.000Z", "2026-03-29T21:00:00.000Z"]);
    });

    it("sums by weekday and local hour for the heatmap", async () => {
      await store.applyBatch("b-1", [
        fact("2026-11-23T12:10:00Z"), // Monday 13:10 in Paris
        fact("2026-11-30T12:50:00Z"), // the next Monday, 13:50
        fact("2026-11-29T07:00:00Z"), // Sunday 08:00
      ], null);
      const cells = await q({ from: "2026-11-23", to: "2026-11-30", filters: { campaign: ["camp-a"] }, histogram: "weekdayHour" });
      expect(cells.map((r) => [r.bucket, r.displays]).sort()).toEqual([["0-13", 20], ["6-8", 10]]);
    });

    it("groups by product, keyword, category and product category, leaving out facts without one", async () => {
      await store.applyBatch("b-1", [
        fact("2026-11-24T10:00:00Z", { product: "SKU-1", keyword: "tv" }),
        fact("2026-11-24T10:00:00Z", { product: "SKU-2", keyword: "tv", placement: "plp", category: "tvs" }),
        fact("2026-11-24T10:00:00Z", { product: "SKU-2", productCategory: "pc-1", placement: "pdp" }),
        fact("2026-11-24T10:00:00Z", {}),
      ], null);
      const base = { from: "2026-11-24", to: "2026-11-24", filters: { campaign: ["camp-a"] } } as const;
      expect(byKey(await q({ ...base, groupBy: ["product"] }))).toMatchObject({ "SKU-1|": { displays: 10 }, "SKU-2|": { displays: 20 } });
      expect(Object.keys(byKey(await q({ ...base, groupBy: ["product"] })))).toHaveLength(2);
      expect(byKey(await q({ ...base, groupBy: ["keyword"] }))).toEqual({ "tv|": { displays: 20, views: 16, clicks: 2, costMicros: 24_690, quantity: 0, salesCents: 0 } });
      const categories = await q({ ...base, groupBy: ["category"], filters: { campaign: ["camp-a"], placement: ["plp"] } });
      expect(categories.map((r) => [r.keys.category, r.displays])).toEqual([["tvs", 10]]);
      const productCategories = await q({ ...base, groupBy: ["productCategory"] });
      expect(productCategories.map((r) => [r.keys.productCategory, r.displays])).toEqual([["pc-1", 10]]);
      // The campaign's total still counts every fact once.
      expect((await q(base))[0].displays).toBe(40);
    });

    it("gives the top rows by cost with a limit", async () => {
      await store.applyBatch("b-1", [
        fact("2026-11-24T10:00:00Z", { campaign: "cheap", costMicros: 10 }),
        fact("2026-11-24T10:00:00Z", { campaign: "dear", costMicros: 9_000_000 }),
        fact("2026-11-24T10:00:00Z", { campaign: "middle", costMicros: 50_000 }),
      ], null);
      const top = await q({ from: "2026-11-24", to: "2026-11-24", groupBy: ["campaign"], limit: 2 });
      expect(top.map((r) => r.keys.campaign)).toEqual(["dear", "middle"]);
    });

    it("keeps exact integer sums beyond 2^32 micros", async () => {
      const big = 3_000_000_000_000; // 3 million currency units in micros
      await store.applyBatch("b-1", [fact("2026-11-24T10:00:00Z", { costMicros: big }), fact("2026-11-24T11:00:00Z", { costMicros: big + 7 })], null);
      const [total] = await q({ from: "2026-11-24", to: "2026-11-24", groupBy: ["team"] });
      expect(total.costMicros).toBe(2 * big + 7);
    });

    it("treats filter values as data, never as query text", async () => {
      const odd = "x' OR '1'='1";
      await store.applyBatch("b-1", [fact("2026-11-24T10:00:00Z", { campaign: odd }), fact("2026-11-24T10:00:00Z", { campaign: "plain" })], null);
      const rows = await q({ from: "2026-11-24", to: "2026-11-24", groupBy: ["campaign"], filters: { campaign: [odd] } });
      expect(rows.map((r) => [r.keys.campaign, r.displays])).toEqual([[odd, 10]]);
      expect(await q({ from: "2026-11-24", to: "2026-11-24", filters: { campaign: ["x' OR 1=1 --"] } })).toEqual([]);
    });
  });
}
