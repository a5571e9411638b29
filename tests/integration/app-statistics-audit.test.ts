/**
 * What the issue 9 audit of 2026-11-27 found on the statistics screens, through their real loaders
 * and resource routes, signed in: the dashboard's tiles add up the rows listed (an archived
 * advertiser's figures, in another currency, are neither counted nor compared); a period from the
 * URL covers at most the /metrics contract's 800 days; the weekday-by-hour heatmap has its CSV;
 * the hours of the autumn clock change are told apart; the breakdowns' CSVs name what the screen
 * names; money has no change on a previous period whose money was in other currencies (dashboard,
 * a team's Wallets tab, a campaign that moved wallets); a team's dashboard row is in its wallets'
 * currency before any posting.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { MetricsStore } from "~/metrics/port";
import { addDays, localDay, localHourAndWeekday } from "~/domain/metrics/periods";
import { MAX_PERIOD_DAYS } from "~/domain/metrics/contract";
import { makeCampaignData, makeTeamData, makeWalletInput } from "../factories";
import { fact } from "./metrics.contract";
import { call, getRequest, signIn, startApp, type TestApp } from "./app-helpers";

let app: TestApp;
let metrics: MetricsStore;
let metricsIndex: typeof import("~/metrics/index.server");
let routes: {
  dashboard: typeof import("~/routes/_index");
  statistics: typeof import("~/routes/campaigns.$campaignId.statistics");
  statisticsCsv: typeof import("~/routes/campaigns.$campaignId.statistics[.]csv");
};
const cookies = { retailer: "", operator: "" };
const ids = { teamTwo: "", teamA: "", teamGone: "", walletA: "", walletGone: "", campaignA: "", campaignGone: "" };
const context = { requestId: "t", clientIp: "127.0.0.1" };
const TZ = "Europe/Paris";
const now = new Date();
const today = localDay(now, TZ);
/** Noon of a day before today, in Paris. */
const noonOf = (daysAgo: number) => new Date(`${addDays(today, -daysAgo)}T11:00:00Z`).toISOString();

type Who = keyof typeof cookies;
const load = (loader: (args: never) => unknown, who: Who, url: string, params: Record<string, string> = {}) =>
  call(() => loader({ request: getRequest(url, { cookie: cookies[who] }), params, context } as never));
async function download(loader: (args: never) => unknown, who: Who, url: string, params: Record<string, string> = {}) {
  const response = (await loader({ request: getRequest(url, { cookie: cookies[who] }), params, context } as never)) as Response;
  return { status: response.status, text: (await response.text()).replace(/^\uFEFF/, "") };
}
const lines = (csv: string) => csv.trim().split("\r\n");

beforeAll(async () => {
  app = await startApp();
  const sqlite = await import("~/metrics/sqlite.server");
  metricsIndex = await import("~/metrics/index.server");
  metrics = new sqlite.SqliteMetricsStore(path.join(app.dir, "audit.db"));
  metricsIndex.setMetricsStoreForTests(metrics);
  routes = {
    dashboard: await import("~/routes/_index"),
    statistics: await import("~/routes/campaigns.$campaignId.statistics"),
    statisticsCsv: await import("~/routes/campaigns.$campaignId.statistics[.]csv"),
  };
  const storage = app.m.storageIndex.getStorage();
  const a = await storage.teams.create(makeTeamData({ name: "Audit Euro" }), { by: "system" });
  const gone = await storage.teams.create(makeTeamData({ name: "Audit Archived Zloty", status: "archived" }), { by: "system" });
  const wa = await storage.wallets.create(a.id, makeWalletInput({ label: "Euro wallet", currency: "EUR" }), { by: "system" });
  const wg = await storage.wallets.create(gone.id, makeWalletInput({ label: "Zloty wallet", currency: "PLN" }), { by: "system" });
  const ca = await storage.campaigns.create(makeCampaignData({ name: "Euro campaign", team: a.id, wallet: wa.id }), { by: "system" });
  const cg = await storage.campaigns.create(makeCampaignData({ name: "Zloty campaign", team: gone.id, wallet: wg.id }), { by: "system" });
  Object.assign(ids, { teamA: a.id, teamGone: gone.id, walletA: wa.id, walletGone: wg.id, campaignA: ca.id, campaignGone: cg.id });
  const retailer = await app.createUser({ email: "retailer.audit@example.com", claims: { type: "retailer", role: "ADMIN" } });
  const operator = await app.createUser({ email: "operator.audit@example.com", claims: { type: "operator", role: "ADMIN" } });
  cookies.retailer = await signIn(app.m, retailer.email, retailer.password);
  cookies.operator = await signIn(app.m, operator.email, operator.password);
  const A = { team: a.id, wallet: wa.id, campaign: ca.id };
  const G = { team: gone.id, wallet: wg.id, campaign: cg.id };
  await metrics.applyBatch(
    "audit-1",
    [
      // Two days ago: €2.00 and 100 displays for the euro team; PLN 5.00 and 300 displays for the archived one.
      fact(noonOf(2), { ...A, displays: 100, views: 50, clicks: 10, costMicros: 2_000_000, salesCents: 1_000 }),
      fact(noonOf(2), { ...G, displays: 300, views: 200, clicks: 30, costMicros: 5_000_000, salesCents: 9_000 }),
      // The week before: €1.00 for the euro team, PLN 40.00 for the archived one.
      fact(noonOf(9), { ...A, displays: 40, views: 20, clicks: 4, costMicros: 1_000_000 }),
      fact(noonOf(9), { ...G, displays: 900, views: 600, clicks: 90, costMicros: 40_000_000 }),
    ],
    now.toISOString(),
  );
});

afterAll(async () => {
  metricsIndex?.setMetricsStoreForTests(undefined);
  await metrics?.close();
  await app?.stop();
});

describe("the dashboard's tiles add up the rows listed", () => {
  it("leaves out an advertiser the retailer cannot see (archived, in another currency), in the tiles and their comparison", async () => {
    for (const tab of ["teams", "wallets", "campaigns"]) {
      const page = await load(routes.dashboard.loader, "retailer", `/?tab=${tab}&period=last7&compare=1`);
      expect(page.status).toBe(200);
      const { statistics } = page.data;
      expect(statistics.rows.map((row: { name: string }) => row.name)).toEqual([tab === "teams" ? "Audit Euro" : tab === "wallets" ? "Euro wallet" : "Euro campaign"]);
      // The tiles are the euro row's: 100 displays and €2.00, not 400 displays and "€7.00" (€2 + PLN 5).
      expect(statistics.currency).toBe("EUR");
      expect(statistics.totals).toMatchObject({ displays: 100, cost: 200, sales: 1_000 });
      // Compared with the same advertiser the week before (€1.00), not with PLN 40.00 added to it.
      expect(statistics.previousTotals).toMatchObject({ displays: 40, cost: 100 });
    }
  });

  it("counts everything for an operator, who sees every advertiser, and then shows no money over two currencies", async () => {
    const page = await load(routes.dashboard.loader, "operator", "/?tab=wallets&period=last7&compare=1");
    const { statistics } = page.data;
    expect(statistics.rows).toHaveLength(2);
    expect(statistics.totals).toMatchObject({ displays: 400 });
    expect(statistics.previousTotals).toMatchObject({ displays: 940 });
    expect(statistics.currency).toBeNull();
  });
});

describe("a period from the URL covers at most the contract's 800 days", () => {
  it("cuts a custom period from 2000 to its last 800 days, on the Statistics tab and in its CSV, and says so", async () => {
    const url = `/campaigns/${ids.campaignA}/statistics?period=custom&from=2000-01-01&to=${today}`;
    const page = await load(routes.statistics.loader, "retailer", url, { campaignId: ids.campaignA });
    expect(page.status).toBe(200);
    expect(page.data.failure).toBeNull();
    expect(page.data.choice.period).toEqual({ from: addDays(today, -(MAX_PERIOD_DAYS - 1)), to: today });
    expect(page.data.choice.shortened).toBe(true);
    // One row a day: 800, not 9,800 (a 3.8 MB page); the figures of two days ago are in it.
    expect(page.data.statistics.overTime).toHaveLength(MAX_PERIOD_DAYS);
    expect(page.data.statistics.totals).toMatchObject({ displays: 140 });
    const csv = await download(routes.statisticsCsv.loader, "retailer", url.replace("/statistics?", "/statistics.csv?table=overTime&"), { campaignId: ids.campaignA });
    expect(csv.status).toBe(200);
    expect(lines(csv.text)).toHaveLength(MAX_PERIOD_DAYS + 1);
  });

  it("leaves a period within the limit as it is", async () => {
    const url = `/campaigns/${ids.campaignA}/statistics?period=last90`;
    const page = await load(routes.statistics.loader, "retailer", url, { campaignId: ids.campaignA });
    expect(page.data.choice).toMatchObject({ period: { from: addDays(today, -90), to: addDays(today, -1) }, shortened: false });
  });
});

describe("the campaign's tables as CSV", () => {
  it("exports the weekday-by-hour heatmap: a line per weekday and hour, with its displays and clicks", async () => {
    const csv = await download(routes.statisticsCsv.loader, "retailer", `/campaigns/${ids.campaignA}/statistics.csv?table=heatmap&period=last30`, { campaignId: ids.campaignA });
    expect(csv.status).toBe(200);
    const [head, ...rows] = lines(csv.text);
    expect(head).toBe("Weekday,Hour,Displays,Clicks");
    expect(rows).toHaveLength(7 * 24);
    expect(rows[0]).toBe("Monday,00:00,0,0");
    // Each fact in the line of its weekday and hour in Paris (the two may share one).
    const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
    const cell = (instant: string) => {
      const { hour, weekday } = localHourAndWeekday(new Date(Math.floor(Date.parse(instant) / 3_600_000) * 3_600_000), TZ);
      return `${DAYS[weekday]},${String(hour).padStart(2, "0")}:00`;
    };
    const [recent, older] = [cell(noonOf(2)), cell(noonOf(9))];
    if (recent === older) expect(rows).toContain(`${recent},140,14`);
    else expect(rows).toEqual(expect.arrayContaining([`${recent},100,10`, `${older},40,4`]));
    const total = rows.reduce((sum, row) => sum + Number(row.split(",")[2]), 0);
    expect(total).toBe(140);
  });

  it("names the breakdowns' rows as the screen does", async () => {
    const devices = await download(routes.statisticsCsv.loader, "retailer", `/campaigns/${ids.campaignA}/statistics.csv?table=device&period=last7`, { campaignId: ids.campaignA });
    expect(lines(devices.text)[1]).toMatch(/^Desktop,EUR,100,/);
    const slots = await download(routes.statisticsCsv.loader, "retailer", `/campaigns/${ids.campaignA}/statistics.csv?table=slot&period=last7`, { campaignId: ids.campaignA });
    expect(lines(slots.text)[1]).toMatch(/^Sponsored products \(sp\),EUR,100,/);
    const types = await download(routes.statisticsCsv.loader, "retailer", `/campaigns/${ids.campaignA}/statistics.csv?table=campaignType&period=last7`, { campaignId: ids.campaignA });
    expect(lines(types.text)[1]).toMatch(/^Sponsored products,EUR,100,/);
  });

  it("tells apart the two hours named 02:00 when the clocks go back (25 October 2026 in Paris)", async () => {
    const D = { team: ids.teamA, wallet: ids.walletA, campaign: ids.campaignA };
    await metrics.applyBatch(
      "audit-dst",
      [
        // 02:00 summer time (00:00 UTC), then 02:00 winter time (01:00 UTC).
        fact("2026-10-25T00:10:00Z", { ...D, displays: 7, views: 0, clicks: 0, costMicros: 0 }),
        fact("2026-10-25T01:10:00Z", { ...D, displays: 9, views: 0, clicks: 0, costMicros: 0 }),
      ],
      now.toISOString(),
    );
    const csv = await download(routes.statisticsCsv.loader, "retailer", `/campaigns/${ids.campaignA}/statistics.csv?table=overTime&period=custom&from=2026-10-25&to=2026-10-25`, { campaignId: ids.campaignA });
    const rows = lines(csv.text).slice(1);
    expect(rows).toHaveLength(25);
    const names = rows.map((row) => row.match(/^"([^"]*)"/)![1]);
    expect(new Set(names).size).toBe(25);
    expect(rows.find((row) => row.startsWith(`"25/10/2026, 02:00 (GMT+2)"`))).toMatch(/^"[^"]*",EUR,7,/);
    expect(rows.find((row) => row.startsWith(`"25/10/2026, 02:00 (GMT+1)"`))).toMatch(/^"[^"]*",EUR,9,/);
    // The other hours keep their plain names.
    expect(names[0]).toBe("25/10/2026, 00:00");
  });
});

describe("a campaign's statistics are in its wallet's currency", () => {
  it("shows and exports a zloty wallet's campaign in zlotys (the dashboard's row of it says PLN too)", async () => {
    const url = `/campaigns/${ids.campaignGone}/statistics?period=last7`;
    const page = await load(routes.statistics.loader, "operator", url, { campaignId: ids.campaignGone });
    expect(page.status).toBe(200);
    expect(page.data.statistics).toMatchObject({ currency: "PLN", totals: { cost: 500 } });
    const csv = await download(routes.statisticsCsv.loader, "operator", url.replace("/statistics?", "/statistics.csv?table=device&"), { campaignId: ids.campaignGone });
    expect(lines(csv.text)).toEqual([expect.stringMatching(/^Devices,Currency,Displays,/), expect.stringMatching(/^Desktop,PLN,300,200,30,10\.00,5\.00,90\.00,18\.00$/)]);
    const euro = await load(routes.statistics.loader, "retailer", `/campaigns/${ids.campaignA}/statistics?period=last7`, { campaignId: ids.campaignA });
    expect(euro.data.statistics.currency).toBe("EUR");
  });
});

describe("POST /api/metrics with a token naming a key the console never made", () => {
  it("is refused without reading the keys from storage again for each such token", async () => {
    const { SignJWT, importJWK } = await import("jose");
    const tokens = await import("~/services/identity-token.server");
    const route = await import("~/routes/api.metrics");
    tokens.resetSigningKeyCache();
    const [key] = await tokens.signingKeys(new Date());
    const privateKey = await importJWK(key!.privateJwk as never, "ES256");
    const forged = (kid: string) =>
      new SignJWT({ typ: "operator", teams: null })
        .setProtectedHeader({ alg: "ES256", kid, typ: "JWT" })
        .setIssuer(process.env.PUBLIC_URL!)
        .setAudience(tokens.TOKEN_AUDIENCE)
        .setSubject("someone")
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(privateKey);
    const repo = app.m.storageIndex.getStorage().signingKeys;
    const list = vi.spyOn(repo, "list");
    try {
      for (let i = 0; i < 5; i++) {
        const request = new Request(`${process.env.PUBLIC_URL}/api/metrics`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${await forged(`made-up-${i}`)}` },
          body: JSON.stringify({ dateFrom: today, dateTo: today }),
        });
        const response = (await route.action({ request, params: {}, context } as never)) as Response;
        expect(response.status).toBe(401);
      }
      // One read again at most (a key another instance may have just made), not one per token.
      expect(list.mock.calls.length).toBeLessThanOrEqual(1);
    } finally {
      list.mockRestore();
    }
  });
});

describe("a campaign list's spend and statistics columns are in each campaign's wallet's currency", () => {
  it("writes a zloty wallet's campaign in zlotys on the list and in its CSV", async () => {
    const list = await import("~/routes/campaigns._index");
    const listCsv = await import("~/routes/campaigns.statistics[.]csv");
    const query = `columns=name,spend,displays,periodSpend&period=last7&team=${ids.teamGone}`;
    const page = await load(list.loader, "operator", `/campaigns?${query}&statuses=`);
    expect(page.status).toBe(200);
    const row = page.data.list.rows.find((r: { id: string }) => r.id === ids.campaignGone);
    expect(row).toMatchObject({ currency: "PLN" });
    expect(row.spend).toMatch(/PLN/);
    const csv = await download(listCsv.loader, "operator", `/campaigns/statistics.csv?${query}`);
    expect(lines(csv.text)).toEqual([expect.stringMatching(/^Campaign,Advertiser,Currency,Displays/), "Zloty campaign,Audit Archived Zloty,PLN,300,200,30,10.00,5.00,90.00,18.00"]);
  });
});

describe("the editor's per-product and per-target figures are in the campaign's wallet's currency", () => {
  it("gives the Products, Keywords and Categories sections the wallet's currency for their spend", async () => {
    const sections = {
      products: await import("~/routes/campaigns.$campaignId.products"),
      keywords: await import("~/routes/campaigns.$campaignId.keywords"),
      categories: await import("~/routes/campaigns.$campaignId.categories"),
    };
    for (const [name, route] of Object.entries(sections)) {
      const zloty = await load(route.loader, "operator", `/campaigns/${ids.campaignGone}/${name}`, { campaignId: ids.campaignGone });
      expect(zloty.status, name).toBe(200);
      expect(zloty.data.currency, name).toBe("PLN");
      const euro = await load(route.loader, "operator", `/campaigns/${ids.campaignA}/${name}`, { campaignId: ids.campaignA });
      expect(euro.data.currency, name).toBe("EUR");
    }
  });
});

describe("the dashboard's rows sorted by name", () => {
  it("read in a reader's order: accents with their letter, numbers by value", async () => {
    const { sortRows } = await import("~/services/dashboard.server");
    const { derive, zeroMeasures } = await import("~/domain/metrics/metrics");
    const row = (name: string) => ({ id: name, name, href: "", figures: derive(zeroMeasures()), currency: "EUR" });
    const names = ["Zeta", "Épicerie fine", "Team 10", "drogerie", "Team 2", "Fnac"];
    expect(sortRows(names.map(row), "name", "asc").map((r) => r.name)).toEqual(["drogerie", "Épicerie fine", "Fnac", "Team 2", "Team 10", "Zeta"]);
    expect(sortRows(names.map(row), "name", "desc").map((r) => r.name)).toEqual(["Zeta", "Team 10", "Team 2", "Fnac", "Épicerie fine", "drogerie"]);
  });
});

describe("money's change on the previous period is never a sum of euros and zlotys", () => {
  it("shows none when the previous period's money was in two currencies, though this period's is in one", async () => {
    const { tileChange } = await import("~/domain/metrics/metrics");
    const storage = app.m.storageIndex.getStorage();
    const team = await storage.teams.create(makeTeamData({ name: "Audit Two Currencies" }), { by: "system" });
    ids.teamTwo = team.id;
    const euro = await storage.wallets.create(team.id, makeWalletInput({ label: "Two euro", currency: "EUR" }), { by: "system" });
    const zloty = await storage.wallets.create(team.id, makeWalletInput({ label: "Two zloty", currency: "PLN" }), { by: "system" });
    const ce = await storage.campaigns.create(makeCampaignData({ name: "Two euro campaign", team: team.id, wallet: euro.id }), { by: "system" });
    const cz = await storage.campaigns.create(makeCampaignData({ name: "Two zloty campaign", team: team.id, wallet: zloty.id }), { by: "system" });
    await metrics.applyBatch(
      "audit-two-currencies",
      [
        // This week: €2.00 through the euro wallet only. The week before: €1.00 and PLN 40.00.
        fact(noonOf(2), { team: team.id, wallet: euro.id, campaign: ce.id, displays: 10, views: 5, clicks: 1, costMicros: 2_000_000, salesCents: 500 }),
        fact(noonOf(9), { team: team.id, wallet: euro.id, campaign: ce.id, displays: 10, views: 5, clicks: 1, costMicros: 1_000_000, salesCents: 100 }),
        fact(noonOf(9), { team: team.id, wallet: zloty.id, campaign: cz.id, displays: 10, views: 5, clicks: 1, costMicros: 40_000_000, salesCents: 9_000 }),
      ],
      now.toISOString(),
    );
    for (const tab of ["teams", "wallets", "campaigns"]) {
      const page = await load(routes.dashboard.loader, "retailer", `/?tab=${tab}&period=last7&compare=1&team=${team.id}`);
      expect(page.status).toBe(200);
      const s = page.data.statistics;
      // This period's rows are all in euros, the comparison adds €1.00 and PLN 40.00 (4,100 "cents").
      expect(s.currency, tab).toBe("EUR");
      expect(s.previousTotals, tab).toMatchObject({ cost: 4_100, displays: 20 });
      // The tiles: no "-95.1%" on Spend, Sales or ROAS; counts still compared.
      const change = (metric: "cost" | "sales" | "roas" | "displays") => tileChange(metric, s.totals, s.previousTotals, s.currency, s.previousCurrency);
      expect([change("cost"), change("sales"), change("roas")], tab).toEqual([null, null, null]);
      expect(change("displays"), tab).toBe(-0.5);
      expect(s.previousCurrency, tab).toBeNull();
    }
    // Its euro wallet alone, in euros in both periods: the change of its money is shown.
    const euroOnly = await load(routes.dashboard.loader, "retailer", `/?tab=campaigns&period=last7&compare=1&team=${team.id}&wallet=${euro.id}`);
    expect(euroOnly.data.statistics).toMatchObject({ currency: "EUR", previousCurrency: "EUR" });
    const s = euroOnly.data.statistics;
    expect(tileChange("cost", s.totals, s.previousTotals, s.currency, s.previousCurrency)).toBe(1);
  });

  it("keeps the team's Wallets tab without money's change (its currency is that of all its wallets)", async () => {
    const { tileChange } = await import("~/domain/metrics/metrics");
    const wallets = await import("~/routes/teams.$teamId.wallets");
    const teamId = ids.teamTwo;
    const page = await load(wallets.loader, "retailer", `/teams/${teamId}/wallets?period=last7&compare=1`, { teamId });
    expect(page.status).toBe(200);
    const s = page.data.statistics;
    expect(s.currency).toBeNull();
    expect(tileChange("cost", s.totals, s.previousTotals, s.currency)).toBeNull();
  });
});

describe("a team's row on the dashboard's Teams tab is in its wallets' currency", () => {
  it("shows a team whose only wallet is in zlotys, never funded nor debited, in zlotys (not the retailer's euros)", async () => {
    const storage = app.m.storageIndex.getStorage();
    const team = await storage.teams.create(makeTeamData({ name: "Audit Fresh Zloty" }), { by: "system" });
    const wallet = await storage.wallets.create(team.id, makeWalletInput({ label: "Fresh zloty", currency: "PLN" }), { by: "system" });
    const campaign = await storage.campaigns.create(makeCampaignData({ name: "Fresh zloty campaign", team: team.id, wallet: wallet.id }), { by: "system" });
    expect(Object.keys((await storage.teams.getOne(team.id))!.totals ?? {})).toEqual([]);
    await metrics.applyBatch("audit-fresh-zloty", [fact(noonOf(1), { team: team.id, wallet: wallet.id, campaign: campaign.id, displays: 50, views: 20, clicks: 5, costMicros: 3_000_000, salesCents: 2_000 })], now.toISOString());
    const page = await load(routes.dashboard.loader, "operator", `/?tab=teams&period=last7&team=${team.id}`);
    expect(page.status).toBe(200);
    const { statistics } = page.data;
    expect(statistics.rows).toEqual([expect.objectContaining({ name: "Audit Fresh Zloty", currency: "PLN", figures: expect.objectContaining({ cost: 300 }) })]);
    expect(statistics.currency).toBe("PLN");
  });
});

describe("a campaign that moved to a wallet of another currency", () => {
  it("shows no money change against the weeks it spent through its former wallet", async () => {
    const { tileChange } = await import("~/domain/metrics/metrics");
    const storage = app.m.storageIndex.getStorage();
    const team = await storage.teams.create(makeTeamData({ name: "Audit Mover" }), { by: "system" });
    const zloty = await storage.wallets.create(team.id, makeWalletInput({ label: "Mover zloty", currency: "PLN" }), { by: "system" });
    const euro = await storage.wallets.create(team.id, makeWalletInput({ label: "Mover euro", currency: "EUR" }), { by: "system" });
    const campaign = await storage.campaigns.create(makeCampaignData({ name: "Mover campaign", team: team.id, wallet: zloty.id }), { by: "system" });
    await storage.campaigns.update(campaign.id, { wallet: euro.id }, { by: "system" });
    await metrics.applyBatch(
      "audit-mover",
      [
        fact(noonOf(9), { team: team.id, wallet: zloty.id, campaign: campaign.id, displays: 10, views: 5, clicks: 1, costMicros: 40_000_000, salesCents: 9_000 }),
        fact(noonOf(2), { team: team.id, wallet: euro.id, campaign: campaign.id, displays: 10, views: 5, clicks: 1, costMicros: 2_000_000, salesCents: 500 }),
      ],
      now.toISOString(),
    );
    const page = await load(routes.statistics.loader, "operator", `/campaigns/${campaign.id}/statistics?period=last7&compare=1`, { campaignId: campaign.id });
    expect(page.status).toBe(200);
    const s = page.data.statistics;
    expect(s).toMatchObject({ currency: "EUR", previousCurrency: "PLN", previousTotals: { cost: 4_000 } });
    // Not "-95.0%" on Spend (€2.00 against PLN 40.00).
    expect(tileChange("cost", s.totals, s.previousTotals, s.currency, s.previousCurrency)).toBeNull();
    expect(tileChange("displays", s.totals, s.previousTotals, s.currency, s.previousCurrency)).toBe(0);
  });
});
