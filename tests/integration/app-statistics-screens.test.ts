/**
 * The statistics screens through their real loaders and resource routes, signed in: the heatmap
 * beside the dayparting grid (its period, default the last 30 days), a wallet's page and a team's
 * Wallets tab with their periods and comparison, the campaign list's Views and period spend
 * columns with a custom period and their freshness, the exports (the team's wallets, every
 * campaign of a list, every product of a campaign past 10,000, with the count the page warns
 * from), and 'No campaign ID'. A supplier sees only their teams' figures everywhere.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MetricsStore } from "~/metrics/port";
import { addDays, localDay, localHourAndWeekday } from "~/domain/metrics/periods";
import { makeCampaignData, makeTeamData, makeWalletInput } from "../factories";
import { fact } from "./metrics.contract";
import { call, getRequest, signIn, startApp, type AppUser, type TestApp } from "./app-helpers";

let app: TestApp;
let metrics: MetricsStore;
let metricsIndex: typeof import("~/metrics/index.server");
let routes: {
  targeting: typeof import("~/routes/campaigns.$campaignId.targeting");
  statistics: typeof import("~/routes/campaigns.$campaignId.statistics");
  statisticsCsv: typeof import("~/routes/campaigns.$campaignId.statistics[.]csv");
  dashboard: typeof import("~/routes/_index");
  wallets: typeof import("~/routes/teams.$teamId.wallets");
  walletsCsv: typeof import("~/routes/teams.$teamId.wallets_.statistics[.]csv");
  wallet: typeof import("~/routes/teams.$teamId.wallets_.$walletId");
  list: typeof import("~/routes/campaigns._index");
  listCsv: typeof import("~/routes/campaigns.statistics[.]csv");
};
const cookies = { operator: "", supplier: "" };
const ids = { teamA: "", teamB: "", teamP: "", walletA: "", walletB: "", campaignA: "", campaignB: "", campaignP: "" };
const context = { requestId: "t", clientIp: "127.0.0.1" };
const TZ = "Europe/Paris";
const now = new Date();
const today = localDay(now, TZ);
/** Noon of a day before today, in Paris: a fact well inside that day. */
const noonOf = (daysAgo: number) => new Date(`${addDays(today, -daysAgo)}T11:00:00Z`).toISOString();
const yesterday = addDays(today, -1);
const en = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../locales/en-GB/metrics.json"), "utf8"));

type Who = keyof typeof cookies;
const load = (loader: (args: never) => unknown, who: Who, url: string, params: Record<string, string> = {}) =>
  call(() => loader({ request: getRequest(url, { cookie: cookies[who] }), params, context } as never));
/** A resource route's response (a CSV, or a refusal as plain text). */
async function download(loader: (args: never) => unknown, who: Who, url: string, params: Record<string, string> = {}) {
  const response = (await loader({ request: getRequest(url, { cookie: cookies[who] }), params, context } as never)) as Response;
  return { status: response.status, type: response.headers.get("Content-Type") ?? "", text: await response.text() };
}
/** The data lines of a CSV (its header left out). */
const dataLines = (csv: string) => csv.replace(/^\uFEFF/, "").trim().split("\r\n").slice(1);
const sum = (grid: number[][]) => grid.flat().reduce((s, v) => s + v, 0);

beforeAll(async () => {
  app = await startApp();
  const sqlite = await import("~/metrics/sqlite.server");
  metricsIndex = await import("~/metrics/index.server");
  metrics = new sqlite.SqliteMetricsStore(path.join(app.dir, "screens.db"));
  metricsIndex.setMetricsStoreForTests(metrics);
  routes = {
    targeting: await import("~/routes/campaigns.$campaignId.targeting"),
    statistics: await import("~/routes/campaigns.$campaignId.statistics"),
    statisticsCsv: await import("~/routes/campaigns.$campaignId.statistics[.]csv"),
    dashboard: await import("~/routes/_index"),
    wallets: await import("~/routes/teams.$teamId.wallets"),
    walletsCsv: await import("~/routes/teams.$teamId.wallets_.statistics[.]csv"),
    wallet: await import("~/routes/teams.$teamId.wallets_.$walletId"),
    list: await import("~/routes/campaigns._index"),
    listCsv: await import("~/routes/campaigns.statistics[.]csv"),
  };
  const storage = app.m.storageIndex.getStorage();
  const a = await storage.teams.create(makeTeamData({ name: "Alpha Screens" }), { by: "system" });
  const b = await storage.teams.create(makeTeamData({ name: "Beta Screens" }), { by: "system" });
  const p = await storage.teams.create(makeTeamData({ name: "Products Screens" }), { by: "system" });
  const wa = await storage.wallets.create(a.id, makeWalletInput({ label: "Alpha screens wallet" }), { by: "system" });
  const wb = await storage.wallets.create(b.id, makeWalletInput({ label: "Beta screens wallet" }), { by: "system" });
  const wp = await storage.wallets.create(p.id, makeWalletInput({ label: "Products wallet" }), { by: "system" });
  const ca = await storage.campaigns.create(makeCampaignData({ name: "Alpha screens campaign", team: a.id, wallet: wa.id }), { by: "system" });
  const cb = await storage.campaigns.create(makeCampaignData({ name: "Beta screens campaign", team: b.id, wallet: wb.id }), { by: "system" });
  const cp = await storage.campaigns.create(makeCampaignData({ name: "Many products", team: p.id, wallet: wp.id }), { by: "system" });
  Object.assign(ids, { teamA: a.id, teamB: b.id, teamP: p.id, walletA: wa.id, walletB: wb.id, campaignA: ca.id, campaignB: cb.id, campaignP: cp.id });
  const operator: AppUser = await app.createUser({ email: "op.screens@example.com", claims: { type: "operator", role: "ADMIN" } });
  const supplier: AppUser = await app.createUser({ email: "sup.screens@example.com", claims: { type: "supplier", role: "ADMIN" }, roleByTeam: { [a.id]: "ADMIN" } });
  cookies.operator = await signIn(app.m, operator.email, operator.password);
  cookies.supplier = await signIn(app.m, supplier.email, supplier.password);
  const A = { team: a.id, wallet: wa.id, campaign: ca.id };
  const B = { team: b.id, wallet: wb.id, campaign: cb.id };
  await metrics.applyBatch(
    "screens-1",
    [
      // Today: Alpha 100 displays, 80 views, 4 clicks, €2.00; Beta 300 displays.
      fact(new Date(now.getTime() - 60_000).toISOString(), { ...A, displays: 100, views: 80, clicks: 4, costMicros: 2_000_000 }),
      fact(new Date(now.getTime() - 60_000).toISOString(), { ...B, displays: 300, views: 200, clicks: 3, costMicros: 900_000 }),
      // Yesterday and 3 days ago: Alpha 50 and 20 displays; Beta 70.
      fact(noonOf(1), { ...A, displays: 50, views: 40, clicks: 1, costMicros: 100_000 }),
      fact(noonOf(3), { ...A, displays: 20, views: 10, clicks: 2, costMicros: 300_000 }),
      fact(noonOf(1), { ...B, displays: 70, views: 60, clicks: 7, costMicros: 700_000 }),
    ],
    now.toISOString(),
  );
});

afterAll(async () => {
  metricsIndex?.setMetricsStoreForTests(undefined);
  await metrics?.close();
  await app?.stop();
});

describe("the heatmap beside the dayparting grid", () => {
  it("covers the last 30 days by default, then the period the URL names; a supplier reads their own campaign only", async () => {
    const url = `/campaigns/${ids.campaignA}/targeting`;
    const byDefault = await load(routes.targeting.loader, "supplier", url, { campaignId: ids.campaignA });
    expect(byDefault.status).toBe(200);
    const { evidence } = byDefault.data;
    expect(evidence.choice).toMatchObject({ preset: "last30", period: { from: addDays(today, -30), to: yesterday } });
    // The screen says the period leaves today out when it shows nothing (the heatmap's empty line).
    expect(evidence.endsBeforeToday).toBe(true);
    // Yesterday's 50 displays and 3 days ago's 20, at their local weekday and hour; not today's.
    expect(sum(evidence.heatmap.displays)).toBe(70);
    expect(sum(evidence.heatmap.clicks)).toBe(3);
    const { weekday, hour } = localHourAndWeekday(new Date(noonOf(1)), TZ);
    expect(evidence.heatmap.displays[weekday][hour]).toBeGreaterThanOrEqual(50);
    expect(evidence.newestEvent).not.toBeNull();
    // The grid is still there to schedule with.
    expect(byDefault.data.defaults.daypart.length).toBeGreaterThan(0);

    const todayOnly = await load(routes.targeting.loader, "supplier", `${url}?period=today`, { campaignId: ids.campaignA });
    expect(sum(todayOnly.data.evidence.heatmap.displays)).toBe(100);
    expect(todayOnly.data.evidence.endsBeforeToday).toBe(false);

    // Another team's campaign is not found, heatmap and all.
    const other = await load(routes.targeting.loader, "supplier", `/campaigns/${ids.campaignB}/targeting`, { campaignId: ids.campaignB });
    expect(other.status).toBe(404);
  });

  it("says 'Fetch campaign statistics' when statistics fail, and keeps the targeting form", async () => {
    metricsIndex.setMetricsStoreForTests({ ...metrics, query: async () => Promise.reject(new Error("down")), newestEvent: async () => null } as MetricsStore);
    try {
      const outcome = await load(routes.targeting.loader, "supplier", `/campaigns/${ids.campaignA}/targeting`, { campaignId: ids.campaignA });
      expect(outcome.status).toBe(200);
      expect(outcome.data.evidence).toMatchObject({ heatmap: null, failure: "metrics:errors.fetchCampaign" });
      expect(outcome.data.defaults.devices.length).toBeGreaterThan(0);
    } finally {
      metricsIndex.setMetricsStoreForTests(metrics);
    }
  });
});

describe("a wallet's page and a team's Wallets tab", () => {
  it("shows a wallet's lifetime by default, another period in statsPeriod with the comparison, and leaves the ledger's dates alone", async () => {
    const url = `/teams/${ids.teamA}/wallets/${ids.walletA}`;
    const params = { teamId: ids.teamA, walletId: ids.walletA };
    // The wallet was created today and has no debit: its lifetime is today.
    const lifetime = await load(routes.wallet.loader, "supplier", url, params);
    expect(lifetime.data.choice).toMatchObject({ preset: "walletLifetime", period: { from: today, to: today }, previous: null });
    expect(lifetime.data.statistics.totals).toMatchObject({ displays: 100, views: 80, cost: 200 });

    const last7 = await load(routes.wallet.loader, "supplier", `${url}?statsPeriod=last7&statsCompare=1&from=${today}&to=${today}`, params);
    expect(last7.data.choice.preset).toBe("last7");
    expect(last7.data.statistics.totals).toMatchObject({ displays: 70, clicks: 3, cost: 40 });
    expect(last7.data.statistics.previousTotals).toMatchObject({ displays: 0 });
    // The last 7 days end yesterday: compared in full.
    expect(last7.data.statistics.comparedUntil).toBeNull();
    const todayCompared = await load(routes.wallet.loader, "supplier", `${url}?statsPeriod=today&statsCompare=1`, params);
    expect(todayCompared.data.statistics.comparedUntil).toEqual(expect.any(String));
    // from and to are the ledger's filter, not the statistics' custom days.
    expect(last7.data.filter).toMatchObject({ from: today, to: today });
    expect(last7.data.choice.custom).toEqual({ from: "", to: "" });

    const custom = await load(routes.wallet.loader, "supplier", `${url}?statsPeriod=custom&statsFrom=${addDays(today, -3)}&statsTo=${yesterday}`, params);
    expect(custom.data.statistics.totals.displays).toBe(70);

    expect((await load(routes.wallet.loader, "supplier", `/teams/${ids.teamB}/wallets/${ids.walletB}`, { teamId: ids.teamB, walletId: ids.walletB })).status).toBe(404);
  });

  it("compares a team's wallets with the previous period and exports them, for the team's readers only", async () => {
    // Whole days (the day before yesterday and yesterday, against the two days before): a period
    // under way compares only its elapsed part, which the clock decides (tested below with a set clock).
    const compared = await load(routes.wallets.loader, "supplier", `/teams/${ids.teamA}/wallets?period=custom&from=${addDays(today, -2)}&to=${yesterday}&compare=1`, { teamId: ids.teamA });
    expect(compared.data.choice.previous).toEqual({ from: addDays(today, -4), to: addDays(today, -3) });
    expect(compared.data.statistics.totals.displays).toBe(50);
    expect(compared.data.statistics.previousTotals.displays).toBe(20);
    expect(compared.data.statistics.comparedUntil).toBeNull();
    // Today is always under way: compared up to the same time yesterday, which the page says.
    const todayTab = await load(routes.wallets.loader, "supplier", `/teams/${ids.teamA}/wallets?period=today&compare=1`, { teamId: ids.teamA });
    expect(todayTab.data.statistics.comparedUntil).toEqual(expect.any(String));

    const csv = await download(routes.walletsCsv.loader, "supplier", `/teams/${ids.teamA}/wallets/statistics.csv?period=last7`, { teamId: ids.teamA });
    expect(csv.status).toBe(200);
    expect(csv.type).toContain("text/csv");
    expect(dataLines(csv.text)).toEqual(["Alpha screens wallet,EUR,70,50,3,4.29,0.40,0.00,0.00"]);
    expect(csv.text).not.toContain("Beta");

    const refused = await download(routes.walletsCsv.loader, "supplier", `/teams/${ids.teamB}/wallets/statistics.csv`, { teamId: ids.teamB });
    expect(refused.status).toBe(404);
    const operator = await download(routes.walletsCsv.loader, "operator", `/teams/${ids.teamB}/wallets/statistics.csv?period=yesterday`, { teamId: ids.teamB });
    expect(dataLines(operator.text)).toEqual(["Beta screens wallet,EUR,70,60,7,10.00,0.70,0.00,0.00"]);
  });
});

describe("a wallet's page and a team's Wallets tab compare a day under way with the same part of the day before", () => {
  it("counts yesterday up to the time of day it is now, then the whole of it once the day is over (a set clock)", async () => {
    const wallets = await import("~/services/wallet-statistics.server");
    const storage = app.m.storageIndex.getStorage();
    const team = await storage.teams.create(makeTeamData({ name: "Clock Screens" }), { by: "system" });
    const main = await storage.wallets.create(team.id, makeWalletInput({ label: "Clock main wallet" }), { by: "system" });
    const other = await storage.wallets.create(team.id, makeWalletInput({ label: "Clock other wallet" }), { by: "system" });
    const at = (iso: string, wallet: string, displays: number) => fact(iso, { team: team.id, wallet, campaign: `clock-${wallet}`, displays, clicks: 0, costMicros: 10_000 * displays });
    // Wednesday 21 October 2026 in Paris (UTC+2): 08:30 and 14:00 on the main wallet, 09:30 on the
    // other; Thursday 22 at 09:00 on the main wallet.
    await metrics.applyBatch(
      "screens-clock",
      [at("2026-10-21T06:30:00.000Z", main.id, 30), at("2026-10-21T12:00:00.000Z", main.id, 70), at("2026-10-21T07:30:00.000Z", other.id, 5), at("2026-10-22T07:00:00.000Z", main.id, 40)],
      new Date().toISOString(),
    );
    const operator = (await storage.users.getByEmail("op.screens@example.com"))!;
    const thursday = { from: "2026-10-22", to: "2026-10-22" };
    const wednesday = { from: "2026-10-21", to: "2026-10-21" };
    // Thursday at 10:00 in Paris: Wednesday up to 10:00 (08:00Z), so 08:30 and 09:30 count, 14:00 not.
    const tenOClock = new Date("2026-10-22T08:00:00.000Z");
    const page = await wallets.walletStatistics(operator, main, thursday, wednesday, tenOClock);
    expect(page).toMatchObject({ ok: true, value: { totals: { displays: 40 }, previousTotals: { displays: 30 }, comparedUntil: "2026-10-21T08:00:00.000Z" } });
    const tab = await wallets.teamWalletStatistics(operator, team, thursday, wednesday, tenOClock);
    expect(tab).toMatchObject({ ok: true, value: { totals: { displays: 40 }, previousTotals: { displays: 35 }, comparedUntil: "2026-10-21T08:00:00.000Z" } });
    // Friday: Thursday is over, compared with the whole Wednesday; no line about a partial comparison.
    const friday = new Date("2026-10-23T09:00:00.000Z");
    expect(await wallets.walletStatistics(operator, main, thursday, wednesday, friday)).toMatchObject({ ok: true, value: { previousTotals: { displays: 100 }, comparedUntil: null } });
    expect(await wallets.teamWalletStatistics(operator, team, thursday, wednesday, friday)).toMatchObject({ ok: true, value: { previousTotals: { displays: 105 }, comparedUntil: null } });
    // Without a comparison asked for: neither.
    expect(await wallets.walletStatistics(operator, main, thursday, null, tenOClock)).toMatchObject({ ok: true, value: { previousTotals: null, comparedUntil: null } });
  });
});

describe("the campaign list's statistics columns", () => {
  const columns = "columns=name&columns=views&columns=cost&columns=spend";

  it("fills Views and the period's spend for a custom period, says how fresh they are, and reads a supplier's campaigns only", async () => {
    const custom = `period=custom&from=${addDays(today, -3)}&to=${yesterday}`;
    const supplier = await load(routes.list.loader, "supplier", `/campaigns?${columns}&${custom}`);
    expect(supplier.status).toBe(200);
    expect(supplier.data.state).toMatchObject({ period: "custom", custom: { from: addDays(today, -3), to: yesterday } });
    expect(supplier.data.period).toEqual({ from: addDays(today, -3), to: yesterday });
    expect(supplier.data.query).toContain(`period=custom&from=${addDays(today, -3)}&to=${yesterday}`);
    const rows = supplier.data.list.rows as { name: string; figures: { views: number; cost: number } }[];
    expect(rows.map((r) => [r.name, r.figures.views, r.figures.cost])).toEqual([["Alpha screens campaign", 50, 40]]);
    expect(supplier.data.list.newestEvent).toEqual(expect.any(String));
    // What its export writes (the export link warns past 10,000 rows).
    expect(supplier.data.list.exportRows).toBe(1);

    // Without statistics columns: no figures read, no freshness.
    const plain = await load(routes.list.loader, "supplier", "/campaigns");
    expect(plain.data.list.rows[0].figures).toBeNull();
    expect(plain.data.list.newestEvent).toBeUndefined();
    expect(plain.data.list.exportRows).toBeUndefined();
    // Custom bounds mean nothing for another preset.
    expect((await load(routes.list.loader, "supplier", `/campaigns?${columns}&from=2026-01-01`)).data.state.custom).toEqual({ from: "", to: "" });
  });

  it("exports every campaign of the list with its figures: a supplier's own, an operator's all, a team's on its tab", async () => {
    const mine = await download(routes.listCsv.loader, "supplier", `/campaigns/statistics.csv?${columns}&period=today`);
    expect(mine.status).toBe(200);
    expect(mine.text.replace(/^\uFEFF/, "").split("\r\n")[0]).toBe("Campaign,Advertiser,Currency,Displays,Views,Clicks,CTR,Spend,Sales,ROAS");
    expect(dataLines(mine.text)).toEqual(["Alpha screens campaign,Alpha Screens,EUR,100,80,4,4.00,2.00,0.00,0.00"]);

    const all = dataLines((await download(routes.listCsv.loader, "operator", "/campaigns/statistics.csv?period=today")).text);
    expect(all).toEqual(expect.arrayContaining(["Beta screens campaign,Beta Screens,EUR,300,200,3,1.00,0.90,0.00,0.00", "Alpha screens campaign,Alpha Screens,EUR,100,80,4,4.00,2.00,0.00,0.00"]));
    const team = dataLines((await download(routes.listCsv.loader, "operator", `/campaigns/statistics.csv?team=${ids.teamB}&period=yesterday`)).text);
    expect(team).toEqual(["Beta screens campaign,Beta Screens,EUR,70,60,7,10.00,0.70,0.00,0.00"]);
    // A supplier asking for another team's campaigns gets none.
    expect(dataLines((await download(routes.listCsv.loader, "supplier", `/campaigns/statistics.csv?team=${ids.teamB}`)).text)).toEqual([]);
  });
});

describe("exports past 10,000 rows", () => {
  const PRODUCTS = 10_050;

  beforeAll(async () => {
    const at = new Date(now.getTime() - 120_000).toISOString();
    const P = { team: ids.teamP, wallet: "", campaign: ids.campaignP };
    const facts = Array.from({ length: PRODUCTS }, (_, i) => fact(at, { ...P, product: `P-${String(i).padStart(5, "0")}`, displays: 1 + (i % 7), views: 1, clicks: 0, costMicros: 10_000 * (1 + (i % 5)) }));
    await metrics.applyBatch("screens-products", facts, at);
  });

  it("counts a campaign's products past 10,000 for the warning, lists 200, and exports them all", async () => {
    const url = `/campaigns/${ids.campaignP}/statistics?period=today`;
    const page = await load(routes.statistics.loader, "operator", url, { campaignId: ids.campaignP });
    expect(page.status).toBe(200);
    expect(page.data.statistics.products).toHaveLength(200);
    expect(page.data.statistics.productCount).toBeGreaterThan(10_000);

    const csv = await download(routes.statisticsCsv.loader, "operator", `/campaigns/${ids.campaignP}/statistics.csv?table=products&period=today`, { campaignId: ids.campaignP });
    expect(csv.status).toBe(200);
    expect(dataLines(csv.text)).toHaveLength(PRODUCTS);
  });

  it("counts the dashboard's campaigns past 10,000 for the warning", async () => {
    const at = new Date(now.getTime() - 120_000).toISOString();
    // Figures of 10,050 campaigns the store knows of (their documents are not needed to count them).
    const facts = Array.from({ length: PRODUCTS }, (_, i) => fact(at, { team: ids.teamP, wallet: "", campaign: `bulk-${i}`, displays: 1 }));
    await metrics.applyBatch("screens-campaigns", facts, at);
    const dashboard = await load(routes.dashboard.loader, "operator", "/?tab=campaigns&period=today");
    expect(dashboard.status).toBe(200);
    expect(dashboard.data.statistics.count).toBeGreaterThan(10_000);
    expect(dashboard.data.statistics.truncated).toBe(true);
    // A supplier's count is theirs: one campaign.
    const supplier = await load(routes.dashboard.loader, "supplier", "/?tab=campaigns&period=today");
    expect(supplier.data.statistics.count).toBe(1);
  });
});

describe("'No campaign ID'", () => {
  it("is what the Statistics tab shows and the CSV answers when a request names no campaign", async () => {
    const page = await load(routes.statistics.loader, "supplier", "/campaigns/%20/statistics", { campaignId: " " });
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ statistics: null, failure: "metrics:errors.noCampaignId" });
    expect(en.errors.noCampaignId).toBe("No campaign ID");

    const csv = await download(routes.statisticsCsv.loader, "supplier", "/campaigns/%20/statistics.csv?table=device", { campaignId: " " });
    expect(csv.status).toBe(400);
    expect(csv.text.trim()).toBe("No campaign ID");
  });
});
