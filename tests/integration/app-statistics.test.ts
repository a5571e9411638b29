/**
 * The statistics screens' use cases and loaders on a real database and metrics store: who sees
 * which figures (a supplier only their teams', in rows and totals), named rows, sorting, periods,
 * the comparison, failures that leave the page usable, a campaign outside the user's scope, and
 * the CSV export.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { User } from "~/domain/types";
import type { MetricsStore } from "~/metrics/port";
import { localDay } from "~/domain/metrics/periods";
import { makeCampaignData, makeTeamData, makeWalletInput } from "../factories";
import { fact } from "./metrics.contract";
import { startApp, type TestApp } from "./app-helpers";

let app: TestApp;
let metrics: MetricsStore;
let m: {
  dashboard: typeof import("~/services/dashboard.server");
  statistics: typeof import("~/services/campaigns/statistics.server");
  campaigns: typeof import("~/services/campaigns/campaigns.server");
  exports: typeof import("~/services/metrics-export.server");
  metricsIndex: typeof import("~/metrics/index.server");
};
let operator: User;
let supplier: User;
const ids = { teamA: "", teamB: "", walletA: "", walletB: "", campaignA: "", campaignB: "" };
const today = localDay(new Date(), "Europe/Paris");
const yesterdayInstant = new Date(Date.now() - 24 * 3_600_000).toISOString();

beforeAll(async () => {
  app = await startApp();
  const [dashboard, statistics, campaigns, exports, metricsIndex, sqlite] = await Promise.all([
    import("~/services/dashboard.server"),
    import("~/services/campaigns/statistics.server"),
    import("~/services/campaigns/campaigns.server"),
    import("~/services/metrics-export.server"),
    import("~/metrics/index.server"),
    import("~/metrics/sqlite.server"),
  ]);
  m = { dashboard, statistics, campaigns, exports, metricsIndex };
  metrics = new sqlite.SqliteMetricsStore(path.join(app.dir, "statistics.db"));
  metricsIndex.setMetricsStoreForTests(metrics);
  const storage = app.m.storageIndex.getStorage();
  const a = await storage.teams.create(makeTeamData({ name: "Alpha Foods" }), { by: "system" });
  const b = await storage.teams.create(makeTeamData({ name: "=Beta Drinks" }), { by: "system" });
  const wa = await storage.wallets.create(a.id, makeWalletInput({ label: "Alpha wallet" }), { by: "system" });
  const wb = await storage.wallets.create(b.id, makeWalletInput({ label: "Beta wallet" }), { by: "system" });
  const ca = await storage.campaigns.create(makeCampaignData({ name: "Alpha spring", team: a.id, wallet: wa.id }), { by: "system" });
  const cb = await storage.campaigns.create(makeCampaignData({ name: "Beta summer", team: b.id, wallet: wb.id }), { by: "system" });
  Object.assign(ids, { teamA: a.id, teamB: b.id, walletA: wa.id, walletB: wb.id, campaignA: ca.id, campaignB: cb.id });
  operator = await app.createUser({ email: "op.stats@example.com", claims: { type: "operator", role: "ADMIN" } });
  supplier = await app.createUser({ email: "sup.stats@example.com", claims: { type: "supplier", role: "ADMIN" }, roleByTeam: { [a.id]: "ADMIN" } });
  const now = new Date().toISOString();
  await metrics.applyBatch(
    "stats-1",
    [
      fact(now, { team: a.id, wallet: wa.id, campaign: ca.id, displays: 100, clicks: 4, costMicros: 2_000_000, salesCents: 1_000, device: "mobile" }),
      fact(now, { team: b.id, wallet: wb.id, campaign: cb.id, displays: 300, clicks: 3, costMicros: 900_000 }),
      fact(yesterdayInstant, { team: a.id, wallet: wa.id, campaign: ca.id, displays: 50, clicks: 1, costMicros: 100_000 }),
    ],
    now,
  );
});

afterAll(async () => {
  m?.metricsIndex.setMetricsStoreForTests(undefined);
  await metrics?.close();
  await app?.stop();
});

const period = { from: today, to: today };
const input = (tab: "teams" | "wallets" | "campaigns", over: Partial<Parameters<typeof import("~/services/dashboard.server").dashboardStatistics>[1]> = {}) => ({
  tab,
  period,
  previous: null,
  sort: "cost" as const,
  dir: "desc" as const,
  ...over,
});

describe("the dashboard's statistics", () => {
  it("lists every team for an operator, named, with their figures and the totals", async () => {
    const result = await m.dashboard.dashboardStatistics(operator, input("teams"));
    if (!result.ok) throw new Error(result.reason);
    const rows = result.value.rows.filter((r) => r.id === ids.teamA || r.id === ids.teamB);
    expect(rows.map((r) => [r.name, r.figures.displays, r.figures.cost])).toEqual([
      ["Alpha Foods", 100, 200],
      ["=Beta Drinks", 300, 90],
    ]);
    expect(result.value.totals.displays).toBeGreaterThanOrEqual(400);
  });

  it("shows a supplier their teams' figures only, in the rows and in the totals", async () => {
    for (const tab of ["teams", "wallets", "campaigns"] as const) {
      const result = await m.dashboard.dashboardStatistics(supplier, input(tab));
      if (!result.ok) throw new Error(result.reason);
      expect(result.value.rows.map((r) => r.name)).toEqual([tab === "teams" ? "Alpha Foods" : tab === "wallets" ? "Alpha wallet" : "Alpha spring"]);
      expect(result.value.totals.displays).toBe(100);
    }
  });

  it("names wallets and campaigns with their team, sorts both ways, cuts periods and compares", async () => {
    const wallets = await m.dashboard.dashboardStatistics(operator, input("wallets", { sort: "displays", dir: "asc" }));
    if (!wallets.ok) throw new Error(wallets.reason);
    const ours = wallets.value.rows.filter((r) => r.id === ids.walletA || r.id === ids.walletB);
    expect(ours.map((r) => [r.name, r.teamName])).toEqual([
      ["Alpha wallet", "Alpha Foods"],
      ["Beta wallet", "=Beta Drinks"],
    ]);
    const byName = await m.dashboard.dashboardStatistics(operator, input("campaigns", { sort: "name", dir: "desc" }));
    if (!byName.ok) throw new Error(byName.reason);
    const names = byName.value.rows.map((r) => r.name);
    expect(names.indexOf("Beta summer")).toBeLessThan(names.indexOf("Alpha spring"));
    const yesterday = localDay(new Date(yesterdayInstant), "Europe/Paris");
    const compared = await m.dashboard.dashboardStatistics(supplier, input("teams", { previous: { from: yesterday, to: yesterday } }));
    if (!compared.ok) throw new Error(compared.reason);
    // Today is under way: compared with yesterday up to the same time, so yesterday's event (24
    // hours ago, in the hour the cut falls in) counts by the share of that hour before the cut.
    expect(compared.value.comparedUntil).not.toBeNull();
    expect(compared.value.previousTotals?.displays).toBeLessThanOrEqual(50);
    const onlyYesterday = await m.dashboard.dashboardStatistics(supplier, input("teams", { period: { from: yesterday, to: yesterday } }));
    expect(onlyYesterday.ok && onlyYesterday.value.totals.displays).toBe(50);
  });

  it("compares a day under way with the same elapsed part of the day before, across the autumn clock change", async () => {
    // Sunday 25 October 2026 lasts 25 hours in Paris (it starts at 22:00Z on the 24th).
    const at = (iso: string, displays: number) => fact(iso, { team: ids.teamA, wallet: ids.walletA, campaign: ids.campaignA, displays, clicks: 0, costMicros: 10_000 * displays });
    await metrics.applyBatch("stats-dst", [at("2026-10-24T22:30:00.000Z", 30), at("2026-10-25T00:30:00.000Z", 20), at("2026-10-25T01:30:00.000Z", 40), at("2026-10-25T10:00:00.000Z", 100)], new Date().toISOString());
    const filters = { filters: { terms: { team: [ids.teamA] } } };
    // Monday 26 October at 03:00 in Paris (02:00Z): 3 hours of the day have passed; the Sunday's
    // first 3 hours run to 01:00Z (its 02:00 happens twice), so 30 + 20 displays, not 40 or 100.
    const partial = await (await import("~/services/metrics.server")).fetchComparison(operator, filters, { from: "2026-10-26", to: "2026-10-26" }, "metrics:errors.fetchTeam", new Date("2026-10-26T02:00:00Z"));
    expect(partial).toMatchObject({ ok: true, value: { summary: { displays: 50, costMicros: 500_000 }, until: "2026-10-25T01:00:00.000Z" } });
    // Once the Monday is over, the whole Sunday.
    const whole = await (await import("~/services/metrics.server")).fetchComparison(operator, filters, { from: "2026-10-26", to: "2026-10-26" }, "metrics:errors.fetchTeam", new Date("2026-10-27T09:00:00Z"));
    expect(whole).toMatchObject({ ok: true, value: { summary: { displays: 190 }, until: null } });
  });

  it("gives 'Fetch team statistics' when statistics fail, without throwing", async () => {
    const failing = { ...metrics, query: async () => { throw new Error("disk on fire"); }, newestEvent: async () => null } as MetricsStore;
    m.metricsIndex.setMetricsStoreForTests(failing);
    try {
      expect(await m.dashboard.dashboardStatistics(operator, input("teams"))).toMatchObject({ ok: false, kind: "unavailable", reason: "metrics:errors.fetchTeam" });
      expect(await m.dashboard.dashboardStatistics(operator, input("campaigns"))).toMatchObject({ ok: false, reason: "metrics:errors.fetchOverall" });
    } finally {
      m.metricsIndex.setMetricsStoreForTests(metrics);
    }
  });
});

describe("a campaign's statistics", () => {
  it("is not found for a supplier of another team", async () => {
    expect(await m.campaigns.requireCampaign(supplier, ids.campaignB)).toMatchObject({ ok: false, kind: "not-found" });
  });

  it("breaks a campaign down and fills the heatmap", async () => {
    const ctx = await m.campaigns.requireCampaign(supplier, ids.campaignA);
    if (!ctx.ok) throw new Error(ctx.reason);
    const result = await m.statistics.campaignStatistics(supplier, ctx.value, { period, previous: null });
    if (!result.ok) throw new Error(result.reason);
    expect(result.value.totals.displays).toBe(100);
    expect(result.value.breakdowns.device.map((r) => [r.key, r.figures.displays])).toEqual([["mobile", 100]]);
    expect(result.value.breakdowns.placement.map((r) => r.key)).toEqual(["search"]);
    expect(result.value.heatmap.displays.flat().reduce((s, v) => s + v, 0)).toBe(100);
    expect(result.value.unit).toBe("hour");
  });
});

describe("CSV exports", () => {
  it("lists a supplier's team only, and neutralises a name a spreadsheet would run", async () => {
    const mine = await m.exports.exportDashboardCsv(supplier, "teams", period, "en-GB");
    if (!mine.ok) throw new Error(mine.reason);
    expect(mine.value.body).toContain("Alpha Foods");
    expect(mine.value.body).not.toContain("Beta");
    const all = await m.exports.exportDashboardCsv(operator, "teams", period, "en-GB");
    if (!all.ok) throw new Error(all.reason);
    expect(all.value.body).toContain("\"'=Beta Drinks\"");
  });
});
