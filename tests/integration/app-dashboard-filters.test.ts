/**
 * The dashboard's filters through its real loader and its CSV export, signed in: team, wallet,
 * placement, campaign type and device narrow the totals, the comparison, each tab and the export;
 * a team's filter narrows the Wallets and Campaigns tabs to its rows, a wallet's the Campaigns tab
 * to its campaigns; the choices offered are the user's; a wallet of another team than the one
 * chosen, and unknown values, are left out with the page still a page; and a supplier forging
 * another team's or wallet's id sees nothing of it, even past the page's own checks.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MetricsStore } from "~/metrics/port";
import { addDays, localDay } from "~/domain/metrics/periods";
import { makeCampaignData, makeTeamData, makeWalletInput } from "../factories";
import { fact } from "./metrics.contract";
import { call, getRequest, signIn, startApp, type AppUser, type TestApp } from "./app-helpers";

let app: TestApp;
let metrics: MetricsStore;
let metricsIndex: typeof import("~/metrics/index.server");
let dashboard: typeof import("~/routes/_index");
let csv: typeof import("~/routes/statistics[.]csv");
let service: typeof import("~/services/dashboard.server");
let supplier: AppUser;
const cookies = { operator: "", supplier: "" };
const ids = { teamA: "", teamB: "", walletA1: "", walletA2: "", walletB: "", campaignA1: "", campaignA2: "", campaignB: "" };
const context = { requestId: "t", clientIp: "127.0.0.1" };
const TZ = "Europe/Paris";
const now = new Date();
const today = localDay(now, TZ);
const yesterday = addDays(today, -1);

type Who = keyof typeof cookies;
const load = (who: Who, url: string) => call(() => dashboard.loader({ request: getRequest(url, { cookie: cookies[who] }), params: {}, context } as never));
async function download(who: Who, url: string) {
  const response = (await csv.loader({ request: getRequest(url, { cookie: cookies[who] }), params: {}, context } as never)) as Response;
  return { status: response.status, text: await response.text() };
}
const dataLines = (text: string) => text.replace(/^\uFEFF/, "").trim().split("\r\n").slice(1);
const rowsOf = (data: { statistics: { rows: { name: string; figures: { displays: number } }[] } }) => data.statistics.rows.map((r) => [r.name, r.figures.displays]);

beforeAll(async () => {
  app = await startApp();
  const sqlite = await import("~/metrics/sqlite.server");
  metricsIndex = await import("~/metrics/index.server");
  metrics = new sqlite.SqliteMetricsStore(path.join(app.dir, "dashboard-filters.db"));
  metricsIndex.setMetricsStoreForTests(metrics);
  dashboard = await import("~/routes/_index");
  csv = await import("~/routes/statistics[.]csv");
  service = await import("~/services/dashboard.server");
  const storage = app.m.storageIndex.getStorage();
  const a = await storage.teams.create(makeTeamData({ name: "Alpha Filters" }), { by: "system" });
  const b = await storage.teams.create(makeTeamData({ name: "Beta Filters" }), { by: "system" });
  const wa1 = await storage.wallets.create(a.id, makeWalletInput({ label: "Alpha main wallet" }), { by: "system" });
  const wa2 = await storage.wallets.create(a.id, makeWalletInput({ label: "Alpha banners wallet" }), { by: "system" });
  const wb = await storage.wallets.create(b.id, makeWalletInput({ label: "Beta wallet" }), { by: "system" });
  const ca1 = await storage.campaigns.create(makeCampaignData({ name: "Alpha products", team: a.id, wallet: wa1.id }), { by: "system" });
  const ca2 = await storage.campaigns.create(makeCampaignData({ name: "Alpha banners", team: a.id, wallet: wa2.id, campaignType: "banner-ads" }), { by: "system" });
  const cb = await storage.campaigns.create(makeCampaignData({ name: "Beta products", team: b.id, wallet: wb.id }), { by: "system" });
  Object.assign(ids, { teamA: a.id, teamB: b.id, walletA1: wa1.id, walletA2: wa2.id, walletB: wb.id, campaignA1: ca1.id, campaignA2: ca2.id, campaignB: cb.id });
  const operator = await app.createUser({ email: "op.filters@example.com", claims: { type: "operator", role: "ADMIN" } });
  supplier = await app.createUser({ email: "sup.filters@example.com", claims: { type: "supplier", role: "ADMIN" }, roleByTeam: { [a.id]: "ADMIN" } });
  cookies.operator = await signIn(app.m, operator.email, operator.password);
  cookies.supplier = await signIn(app.m, supplier.email, supplier.password);
  const at = new Date(now.getTime() - 60_000).toISOString();
  const A1 = { team: a.id, wallet: wa1.id, campaign: ca1.id, campaignType: "sponsored-products" };
  const A2 = { team: a.id, wallet: wa2.id, campaign: ca2.id, campaignType: "banner-ads", slot: "1560x260" };
  const B = { team: b.id, wallet: wb.id, campaign: cb.id, campaignType: "sponsored-products" };
  await metrics.applyBatch(
    "dashboard-filters",
    [
      // Today: Alpha products 100 on search/mobile and 40 on plp/desktop; Alpha banners 30 on home/desktop; Beta 500 on search/mobile.
      fact(at, { ...A1, placement: "search", device: "mobile", displays: 100, views: 90, clicks: 5, costMicros: 1_000_000 }),
      fact(at, { ...A1, placement: "plp", device: "desktop", displays: 40, views: 30, clicks: 1, costMicros: 200_000 }),
      fact(at, { ...A2, placement: "home", device: "desktop", displays: 30, views: 20, clicks: 0, costMicros: 300_000 }),
      fact(at, { ...B, placement: "search", device: "mobile", displays: 500, views: 400, clicks: 9, costMicros: 5_000_000 }),
      // Yesterday: Alpha products 10 on search/mobile, Beta 70.
      fact(new Date(`${yesterday}T11:00:00Z`).toISOString(), { ...A1, placement: "search", device: "mobile", displays: 10, costMicros: 10_000 }),
      fact(new Date(`${yesterday}T11:00:00Z`).toISOString(), { ...B, placement: "search", device: "mobile", displays: 70, costMicros: 10_000 }),
      // The day before: Alpha products 4 on search/mobile and 2 on plp/desktop, Beta 9.
      fact(new Date(`${addDays(today, -2)}T11:00:00Z`).toISOString(), { ...A1, placement: "search", device: "mobile", displays: 4, costMicros: 10_000 }),
      fact(new Date(`${addDays(today, -2)}T11:00:00Z`).toISOString(), { ...A1, placement: "plp", device: "desktop", displays: 2, costMicros: 10_000 }),
      fact(new Date(`${addDays(today, -2)}T11:00:00Z`).toISOString(), { ...B, placement: "search", device: "mobile", displays: 9, costMicros: 10_000 }),
    ],
    now.toISOString(),
  );
});

afterAll(async () => {
  metricsIndex?.setMetricsStoreForTests(undefined);
  await metrics?.close();
  await app?.stop();
});

describe("the dashboard's filters narrow the tiles and the tabs", () => {
  it("by placement, device and campaign type, each tab and the totals alike", async () => {
    const search = await load("operator", "/?tab=teams&period=today&placement=search");
    expect(search.status).toBe(200);
    expect(search.data.filters).toMatchObject({ placement: "search" });
    expect(search.data.statistics.totals.displays).toBe(600);
    expect(rowsOf(search.data)).toEqual([
      ["Beta Filters", 500],
      ["Alpha Filters", 100],
    ]);

    const desktop = await load("operator", "/?tab=campaigns&period=today&device=desktop");
    expect(desktop.data.statistics.totals.displays).toBe(70);
    expect(rowsOf(desktop.data)).toEqual([
      ["Alpha banners", 30],
      ["Alpha products", 40],
    ]);

    const banners = await load("operator", "/?tab=wallets&period=today&type=banner-ads");
    expect(banners.data.statistics.totals).toMatchObject({ displays: 30, cost: 30 });
    expect(rowsOf(banners.data)).toEqual([["Alpha banners wallet", 30]]);
  });

  it("by team: the Wallets and Campaigns tabs list only that team's rows; by wallet: the Campaigns tab lists its campaigns", async () => {
    const wallets = await load("operator", `/?tab=wallets&period=today&team=${ids.teamA}`);
    expect(wallets.data.filters).toMatchObject({ team: ids.teamA, wallet: null });
    expect(wallets.data.filterNames).toEqual({ team: "Alpha Filters", wallet: null });
    expect(wallets.data.statistics.totals.displays).toBe(170);
    expect(rowsOf(wallets.data)).toEqual([
      ["Alpha main wallet", 140],
      ["Alpha banners wallet", 30],
    ]);
    // Each wallet row knows its team: its "Show campaigns" link carries both.
    expect(wallets.data.statistics.rows.map((r: { teamId?: string }) => r.teamId)).toEqual([ids.teamA, ids.teamA]);

    const campaigns = await load("operator", `/?tab=campaigns&period=today&team=${ids.teamA}`);
    expect(rowsOf(campaigns.data).map(([name]) => name).sort()).toEqual(["Alpha banners", "Alpha products"]);

    const ofWallet = await load("operator", `/?tab=campaigns&period=today&team=${ids.teamA}&wallet=${ids.walletA1}&placement=plp`);
    expect(ofWallet.data.filterNames).toEqual({ team: "Alpha Filters", wallet: "Alpha main wallet" });
    expect(rowsOf(ofWallet.data)).toEqual([["Alpha products", 40]]);
    expect(ofWallet.data.dropped).toEqual([]);
  });

  it("takes a wallet's team as the team when none is chosen", async () => {
    const page = await load("operator", `/?tab=campaigns&period=today&wallet=${ids.walletB}`);
    expect(page.data.filters).toMatchObject({ team: ids.teamB, wallet: ids.walletB });
    expect(page.data.filterNames).toEqual({ team: "Beta Filters", wallet: "Beta wallet" });
    expect(rowsOf(page.data)).toEqual([["Beta products", 500]]);
  });

  it("compare the period before with the same filters", async () => {
    // A whole day against the whole day before (a period under way compares only its elapsed part, which the clock decides).
    const page = await load("operator", `/?tab=teams&period=yesterday&compare=1&team=${ids.teamA}&device=mobile`);
    expect(page.data.statistics.totals.displays).toBe(10);
    expect(page.data.statistics.previousTotals.displays).toBe(4);
    expect(page.data.statistics.comparedUntil).toBeNull();
    expect(rowsOf(page.data)).toEqual([["Alpha Filters", 10]]);
  });

  it("match nothing: no row, zero totals, the filters still shown", async () => {
    const page = await load("operator", `/?tab=campaigns&period=today&team=${ids.teamB}&device=tablet`);
    expect(page.status).toBe(200);
    expect(page.data.statistics.rows).toEqual([]);
    expect(page.data.statistics.totals.displays).toBe(0);
    expect(page.data.filters).toMatchObject({ team: ids.teamB, device: "tablet" });
  });
});

describe("values the filters do not accept", () => {
  it("a wallet of another team than the one chosen is left out, with the reason, and the team kept", async () => {
    const page = await load("operator", `/?tab=campaigns&period=today&team=${ids.teamB}&wallet=${ids.walletA1}`);
    expect(page.status).toBe(200);
    expect(page.data.filters).toMatchObject({ team: ids.teamB, wallet: null });
    expect(page.data.dropped).toEqual([{ filter: "wallet", reason: "notOfTeam" }]);
    expect(rowsOf(page.data)).toEqual([["Beta products", 500]]);
  });

  it("unknown placements, types, devices and ids are left out: a page, not a 400", async () => {
    const page = await load("operator", "/?tab=teams&period=today&placement=footer&type=sponsored-anything&device=fridge&team=no-such-team&wallet=%3Cscript%3E");
    expect(page.status).toBe(200);
    expect(page.data.filters).toEqual({ team: null, wallet: null, placement: null, type: null, device: null });
    expect(page.data.dropped.map((d: { filter: string }) => d.filter).sort()).toEqual(["device", "placement", "team", "type", "wallet"]);
    expect(page.data.statistics.totals.displays).toBe(670);
    // The export drops them alike.
    const file = await download("operator", "/statistics.csv?tab=teams&period=today&placement=footer&device=fridge");
    expect(file.status).toBe(200);
    expect(dataLines(file.text)).toHaveLength(2);
  });
});

describe("what the filters offer", () => {
  it("a supplier: their teams and those teams' wallets only; the retailer's placements and types, the devices, named", async () => {
    const page = await load("supplier", "/?period=today");
    const options = page.data.filterOptions;
    expect(options.teams).toEqual([{ id: ids.teamA, name: "Alpha Filters" }]);
    expect(options.wallets.map((w: { label: string; teamName: string }) => [w.label, w.teamName])).toEqual([
      ["Alpha banners wallet", "Alpha Filters"],
      ["Alpha main wallet", "Alpha Filters"],
    ]);
    expect(options.placements).toEqual(["search", "plp", "pdp", "hub", "home"]);
    expect(options.types).toEqual(["sponsored-products", "banner-ads"]);
    expect(options.devices).toEqual(["desktop", "mobile", "tablet", "app", "unknown"]);
  });

  it("an operator: every team, and the wallets of the team chosen (none before one is chosen)", async () => {
    const none = await load("operator", "/?period=today");
    expect(none.data.filterOptions.teams.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(["Alpha Filters", "Beta Filters"]));
    expect(none.data.filterOptions.wallets).toEqual([]);
    const beta = await load("operator", `/?period=today&team=${ids.teamB}`);
    expect(beta.data.filterOptions.wallets).toEqual([{ id: ids.walletB, label: "Beta wallet", teamName: "Beta Filters" }]);
  });
});

describe("a supplier forging another team's filter", () => {
  it("sees nothing of that team: the filter is left out as unknown, the rows and totals are their own teams'", async () => {
    for (const url of [`/?tab=teams&period=today&team=${ids.teamB}`, `/?tab=campaigns&period=today&wallet=${ids.walletB}`, `/?tab=wallets&period=today&team=${ids.teamB}&wallet=${ids.walletB}`]) {
      const page = await load("supplier", url);
      expect(page.status).toBe(200);
      expect(page.data.filters.team).not.toBe(ids.teamB);
      expect(page.data.filters.wallet).toBeNull();
      expect(page.data.dropped.map((d: { reason: string }) => d.reason)).not.toContain("notOfTeam");
      // Alpha's 170 displays only; Beta's name, wallet and figures appear nowhere.
      expect(page.data.statistics.totals.displays).toBe(170);
      const json = JSON.stringify(page.data);
      expect(json).not.toContain("Beta");
      expect(json).not.toContain(ids.walletB);
    }
    // The same words whether the team exists or not: its existence is not revealed.
    const missing = await load("supplier", "/?tab=teams&period=today&team=no-such-team");
    const forged = await load("supplier", `/?tab=teams&period=today&team=${ids.teamB}`);
    expect(forged.data.dropped).toEqual(missing.data.dropped);
  });

  it("and its export has none of that team's rows", async () => {
    const file = await download("supplier", `/statistics.csv?tab=campaigns&period=today&team=${ids.teamB}&wallet=${ids.walletB}`);
    expect(file.status).toBe(200);
    expect(file.text).not.toContain("Beta");
    expect(dataLines(file.text).map((line) => line.split(",")[0]).sort()).toEqual(["Alpha banners", "Alpha products"]);
  });

  it("reads nothing even when a forged team or wallet reaches the statistics unchecked: fetchMetrics keeps them within the supplier's teams", async () => {
    const base = { period: { from: today, to: today }, previous: null, sort: "cost" as const, dir: "desc" as const };
    const none = { team: null, wallet: null, placement: null, type: null, device: null };
    for (const tab of ["teams", "wallets", "campaigns"] as const) {
      for (const filters of [{ ...none, team: ids.teamB }, { ...none, wallet: ids.walletB }, { ...none, team: ids.teamB, wallet: ids.walletB }]) {
        const result = await service.dashboardStatistics(supplier, { ...base, tab, filters });
        expect(result.ok).toBe(true);
        if (!result.ok) continue;
        expect(result.value.totals.displays).toBe(0);
        expect(result.value.rows).toEqual([]);
      }
    }
    // The operator, whose scope is every team, reads Beta with the same filter.
    const operator = { ...supplier, claims: { type: "operator" as const, role: "ADMIN" as const }, teamIds: [] };
    const beta = await service.dashboardStatistics(operator, { ...base, tab: "teams", filters: { ...none, team: ids.teamB } });
    expect(beta.ok && beta.value.totals.displays).toBe(500);
  });
});

describe("the export", () => {
  it("downloads the tab with the page's filters", async () => {
    const file = await download("operator", `/statistics.csv?tab=campaigns&period=today&team=${ids.teamA}&wallet=${ids.walletA1}&placement=search`);
    expect(file.status).toBe(200);
    expect(dataLines(file.text)).toEqual(["Alpha products,Alpha Filters,EUR,100,90,5,5.00,1.00,0.00,0.00"]);
    const wallets = await download("operator", `/statistics.csv?tab=wallets&period=today&device=desktop`);
    expect(dataLines(wallets.text).map((line) => line.split(",").slice(0, 4).join(","))).toEqual(["Alpha banners wallet,Alpha Filters,EUR,30", "Alpha main wallet,Alpha Filters,EUR,40"]);
  });
});
