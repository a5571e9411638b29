/**
 * The demo's keyword and category demand (demo data only): seeded once per day into the metrics
 * store as the statistics of the demo's running campaign, so that a fresh `npm start` shows
 * volumes, trends and bids suggested from observed costs; nothing without that campaign.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MetricsStore } from "~/metrics/port";
import { startApp, type TestApp } from "./app-helpers";

let app: TestApp;
let metrics: MetricsStore;
let metricsIndex: typeof import("~/metrics/index.server");
let demand: typeof import("~/services/demo-demand.server");
let search: typeof import("~/services/search.server");

beforeAll(async () => {
  app = await startApp();
  process.env.SEARCH_SYNC_INTERVAL_MS = "0";
  metricsIndex = await import("~/metrics/index.server");
  demand = await import("~/services/demo-demand.server");
  search = await import("~/services/search.server");
  search.resetSearchSyncForTests();
  metrics = new (await import("~/metrics/sqlite.server")).SqliteMetricsStore(path.join(app.dir, "metrics-demo.db"));
  metricsIndex.setMetricsStoreForTests(metrics);
});

afterAll(async () => {
  delete process.env.SEARCH_SYNC_INTERVAL_MS;
  metricsIndex?.setMetricsStoreForTests(undefined);
  await metrics?.close();
  await app?.stop();
});

describe("the demo's demand", () => {
  it("is not seeded without the demo's running campaign", async () => {
    expect(await demand.seedDemoDemand(app.m.storageIndex.getStorage(), new Date(), "Europe/Paris")).toBe(0);
  });

  it("is seeded once a day since the running campaign started, and shows in keyword and category searches", async () => {
    const storage = app.m.storageIndex.getStorage();
    const { seedDemoCampaigns } = await import("~/services/demo-campaigns.server");
    const now = new Date();
    await seedDemoCampaigns(storage, now);
    // The running demo campaign started 14 days ago: 14 days up to yesterday.
    expect(await demand.seedDemoDemand(storage, now, "Europe/Paris")).toBe(14);
    expect(await demand.seedDemoDemand(storage, now, "Europe/Paris")).toBe(0);

    const retailer = { accountType: "retailer" as const, teams: null };
    const { hits: keywords } = await search.answerSearch("keyword", { query: "coff", size: 5 }, retailer, now);
    expect(keywords[0]).toMatchObject({ id: "coffee", page_type: "search", floor_price: 15 });
    expect(keywords[0]!.volume).toBeGreaterThan(10_000);
    expect(keywords[0]!.hits).toBeGreaterThan(0);
    expect(typeof keywords[0]!.trend).toBe("number");
    // Observed CPC around 0.42: bids suggested around it, above the floor.
    expect(keywords[0]!.suggested_bid).toBeGreaterThan(30);
    expect(keywords[0]!.suggested_bid).toBeLessThan(60);
    // Accents folded: "café" searched is the keyword "cafe".
    expect((await search.answerSearch("keyword", { includeIds: ["Café"], size: 1 }, retailer, now)).hits[0]).toMatchObject({ id: "cafe", name: "café" });

    const { hits: categories } = await search.answerSearch("category", { size: 3 }, retailer, now);
    // The busiest first: a department's hub page.
    expect(categories[0]).toMatchObject({ level: 1, page_type: "hub" });
    expect(categories[0]!.volume).toBeGreaterThan(0);
    const { hits: pdp } = await search.answerSearch("category", { includeIds: ["grocery--coffee-tea--coffee"], page_type: "pdp", size: 1 }, retailer, now);
    expect(pdp[0]!.volume).toBeGreaterThan(0);
  });
});
