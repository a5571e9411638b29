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
let periods: typeof import("~/domain/metrics/periods");

beforeAll(async () => {
  app = await startApp();
  process.env.SEARCH_SYNC_INTERVAL_MS = "0";
  metricsIndex = await import("~/metrics/index.server");
  demand = await import("~/services/demo-demand.server");
  search = await import("~/services/search.server");
  periods = await import("~/domain/metrics/periods");
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
    // A later start of the server, days later, seeds nothing more: those days are the simulator's.
    expect(await demand.seedDemoDemand(storage, new Date(now.getTime() + 3 * 86_400_000), "Europe/Paris")).toBe(0);

    const retailer = { accountType: "retailer" as const, teams: null };
    const { hits: keywords } = await search.answerSearch("keyword", { query: "coff", size: 5 }, retailer, now);
    expect(keywords[0]).toMatchObject({ id: "coffee", page_type: "search", floor_price: 15 });
    expect(keywords[0]!.volume).toBeGreaterThan(10_000);
    expect(keywords[0]!.hits).toBeGreaterThan(0);
    expect(typeof keywords[0]!.trend).toBe("number");
    // Demand grows since the campaign started: last week's keywords, together, above the week before's.
    const { hits: all } = await search.answerSearch("keyword", { size: 100 }, retailer, now);
    const trends = all.map((k) => k.trend!).filter((t) => typeof t === "number");
    expect(trends.length).toBeGreaterThan(30);
    expect(trends.reduce((a, b) => a + b, 0) / trends.length).toBeGreaterThan(0.02);
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

  it("is the campaign's spend: within its budgets, debited from its wallet day by day, in its total spend", async () => {
    const storage = app.m.storageIndex.getStorage();
    const campaign = (await storage.campaigns.listForTeam("acme-brand")).find((c) => c.name === "Acme everyday essentials")!;
    const { localDay, addDays } = periods;
    const today = localDay(new Date(), "Europe/Paris");
    const history = { from: addDays(today, -28), to: today, filters: { campaign: [campaign.id] } };
    const byDay = await metrics.query({ ...history, histogram: "day" });
    expect(byDay).toHaveLength(14);
    const cents = byDay.map((row) => row.costMicros / 10_000);
    const wallet = (await storage.wallets.getOne(campaign.wallet!))!;
    // Every day within the campaign's daily budget and the wallet's.
    for (const c of cents) {
      expect(c).toBeLessThanOrEqual(campaign.pacingDaily!);
      expect(c).toBeLessThanOrEqual(wallet.dailyBudget!);
    }
    const total = cents.reduce((a, b) => a + b, 0);
    expect(Number.isInteger(total)).toBe(true);
    // The total spend is the history's cost, to the cent, and so are the wallet's debits.
    expect(campaign.spend).toBe(total);
    expect(wallet.debit).toBe(total);
    expect(wallet.spend).toBe(total);
    expect(wallet.balance).toBe(wallet.credit - total);
    expect(campaign.spend).toBeLessThan(campaign.pacingTotal!);
    // One settlement entry a day, dated on the day it pays for, after the funding.
    const { items } = await storage.ledger.list(wallet.id, { limit: 50 });
    const debits = items.filter((e) => e.type === "debit");
    expect(debits).toHaveLength(14);
    expect(new Set(debits.map((e) => localDay(new Date(e.at), "Europe/Paris")))).toEqual(new Set(byDay.map((row) => row.bucket)));
    const credit = items.find((e) => e.type === "credit")!;
    expect(debits.every((e) => e.at > credit.at)).toBe(true);
    expect(Date.parse(wallet.firstDebitAt!)).toBeLessThan(Date.now() - 13 * 86_400_000);
    expect(wallet.firstSpendAt).toBe(wallet.firstDebitAt);
  });

  it("spreads each day over the hours shoppers come, on the campaign's products", async () => {
    const storage = app.m.storageIndex.getStorage();
    // The demo's running campaign (the scheduled one starts later and has no history).
    const campaign = (await storage.campaigns.listForTeam("acme-brand")).find(
      (c) => c.status === "active" && c.campaignType === "sponsored-products" && c.wallet && c.startDate && Date.parse(c.startDate) < Date.now(),
    )!;
    const { localDay, addDays } = periods;
    const yesterday = addDays(localDay(new Date(), "Europe/Paris"), -1);
    const week = { from: addDays(yesterday, -6), to: yesterday, filters: { campaign: [campaign.id] } };

    // The campaign screen's weekday-by-hour grid: figures at most hours of the day, the busy
    // lunch and evening hours well above the night's.
    const grid = await metrics.query({ ...week, histogram: "weekdayHour" });
    const byHour = new Map<number, number>();
    for (const row of grid) {
      const hour = Number(row.bucket!.split("-")[1]);
      byHour.set(hour, (byHour.get(hour) ?? 0) + row.displays);
    }
    expect([...byHour.keys()].sort((a, b) => a - b)).toEqual(expect.arrayContaining([0, 3, 8, 12, 13, 14, 19, 20, 21, 23]));
    const evening = (byHour.get(20) ?? 0) + (byHour.get(21) ?? 0);
    const night = (byHour.get(3) ?? 0) + (byHour.get(4) ?? 0);
    expect(evening).toBeGreaterThan(3 * night);

    // Its products table: every figure of the week on one of the campaign's products.
    const products = await metrics.query({ ...week, groupBy: ["product"] });
    const [total] = await metrics.query(week);
    expect(products.length).toBeGreaterThan(1);
    expect(products.every((row) => campaign.productIds.includes(row.keys.product!))).toBe(true);
    expect(products.reduce((sum, row) => sum + row.displays, 0)).toBe(total!.displays);
  });

  it("grows week after week on any date, never dropping at a fixed day of the calendar", () => {
    const { addDays } = periods;
    const categories: never[] = [];
    const week = (campaign: Parameters<typeof demand.demoDemandFacts>[1], from: string) =>
      Array.from({ length: 7 }, (_, i) => demand.demoDemandFacts(addDays(from, i), campaign, "Europe/Paris", categories))
        .flat()
        .reduce((sum, f) => sum + f.displays, 0);
    // Campaigns started on many days of the year: the second week is always busier than the first.
    for (let start = "2026-01-05"; start < "2026-12-31"; start = addDays(start, 9)) {
      const campaign = { id: "c", team: "t", wallet: "w", startDay: start };
      expect(week(campaign, addDays(start, 7)), start).toBeGreaterThan(week(campaign, start));
    }
  });

  it("writes a day that clocks change on with its 23 or 25 hours", () => {
    const campaign = { id: "c", team: "t", wallet: "w", productIds: ["SKU-1"] };
    for (const day of ["2026-03-29", "2026-10-25"] as const) {
      const facts = demand.demoDemandFacts(day, campaign, "Europe/Paris");
      const hours = new Set(facts.map((f) => f.hour));
      const local = new Set(facts.map((f) => f.localHour));
      // Every fact's hour starts within that local day, and its local hour is the clock's.
      const start = Date.parse(day === "2026-03-29" ? "2026-03-28T23:00:00Z" : "2026-10-24T22:00:00Z");
      const end = start + (day === "2026-03-29" ? 23 : 25) * 3_600_000;
      for (const f of facts) {
        expect(Date.parse(f.hour)).toBeGreaterThanOrEqual(start);
        expect(Date.parse(f.hour)).toBeLessThan(end);
        expect(f.day).toBe(day);
      }
      expect(hours.size).toBeGreaterThan(12);
      if (day === "2026-03-29") expect(local.has(2)).toBe(false);
    }
  });
});
