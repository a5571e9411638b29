/**
 * 'Campaign display volume down' (issue 11 §3) on the scheduler's fake clock: a running campaign
 * whose displays yesterday (the retailer's day) fell under half the average of the same weekday
 * over the four weeks before is notified once, to those who may see its team; a campaign within
 * the threshold, a paused one and another team's suppliers are not; the threshold is a setting.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MetricsStore } from "~/metrics/port";
import { makeCampaignData } from "../factories";
import { fact } from "./metrics.contract";
import { startApp, type AppUser, type TestApp } from "./app-helpers";

let app: TestApp;
let metrics: MetricsStore;
let metricsIndex: typeof import("~/metrics/index.server");
let ann: AppUser;
let outsider: AppUser;
const storage = () => app.m.storageIndex.getStorage();

// Thursday 2026-11-26, 09:00 in Paris: yesterday is Wednesday the 25th; the reference Wednesdays are the 18th, 11th, 4th and 28 October.
const NOW = new Date("2026-11-26T08:00:00.000Z");
const REFERENCE = ["2026-11-18", "2026-11-11", "2026-11-04", "2026-10-28"];

beforeAll(async () => {
  app = await startApp();
  const sqliteMetrics = await import("~/metrics/sqlite.server");
  metricsIndex = await import("~/metrics/index.server");
  metrics = new sqliteMetrics.SqliteMetricsStore(path.join(app.dir, "metrics-volume.db"));
  metricsIndex.setMetricsStoreForTests(metrics);
  ann = await app.createUser({ claims: { type: "supplier", role: "VIEWER" }, roleByTeam: { "acme-brand": "VIEWER" } });
  outsider = await app.createUser({ claims: { type: "supplier", role: "ADMIN" }, roleByTeam: { "other-team": "ADMIN" } });
});
afterAll(async () => {
  metricsIndex?.setMetricsStoreForTests(undefined);
  await metrics?.close();
  await app?.stop();
});

describe("campaign display volume down", () => {
  it("tells those who see the team of a running campaign whose displays fell under half the weekday's average, once", async () => {
    const dropped = await storage().campaigns.create(makeCampaignData({ team: "acme-brand", name: "Dropped", status: "active" }), { by: "system" });
    const steady = await storage().campaigns.create(makeCampaignData({ team: "acme-brand", name: "Steady", status: "active" }), { by: "system" });
    const paused = await storage().campaigns.create(makeCampaignData({ team: "acme-brand", name: "Paused", status: "paused" }), { by: "system" });
    const facts = [];
    for (const day of REFERENCE) for (const c of [dropped, steady, paused]) facts.push(fact(`${day}T10:00:00Z`, { team: "acme-brand", campaign: c.id, displays: 100 }));
    facts.push(fact("2026-11-25T10:00:00Z", { team: "acme-brand", campaign: dropped.id, displays: 40 }));
    facts.push(fact("2026-11-25T10:00:00Z", { team: "acme-brand", campaign: steady.id, displays: 60 }));
    await metrics.applyBatch("b-volume", facts, "2026-11-25T10:00:00.000Z");

    const { createScheduler } = await import("~/services/scheduler.server");
    const { scheduleDisplayVolumeJob } = await import("~/services/display-volume.server");
    let now = new Date("2026-11-25T12:00:00.000Z");
    const scheduler = createScheduler({ clock: () => now, owner: "test" });
    await scheduleDisplayVolumeJob(scheduler);
    now = new Date(NOW.getTime() + 1_000);
    const ran = await scheduler.tick();
    expect(ran.map((r) => [r.kind, r.outcome])).toEqual([["alert-campaignDisplayVolumeDown", "done"]]);

    const told = (await storage().notifications.list(ann.id, {})).items.filter((n) => n.type === "campaignDisplayVolumeDown");
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ values: { campaign: "Dropped", displays: 40, average: 100, percent: 50 }, link: `/campaigns/${dropped.id}/statistics` });
    const admin = (await storage().users.getByEmail("retailer.admin@example.com"))!;
    expect((await storage().notifications.list(admin.id, {})).items.some((n) => n.type === "campaignDisplayVolumeDown")).toBe(true);
    expect((await storage().notifications.list(outsider.id, {})).items).toHaveLength(0);

    // Checked again for the same day (a run taken over): nobody is told twice.
    const { checkDisplayVolume } = await import("~/services/display-volume.server");
    expect(await checkDisplayVolume(NOW)).toMatchObject({ ok: true, value: 1 });
    expect((await storage().notifications.list(ann.id, {})).items.filter((n) => n.type === "campaignDisplayVolumeDown")).toHaveLength(1);
    // A threshold of 70%: the steady campaign (60 against 100) is down too.
    expect(await checkDisplayVolume(NOW, 0.7)).toMatchObject({ ok: true, value: 2 });
  });

  it("judges an end date by the retailer's days: a campaign that ended the day before is not told, one that ran into yesterday is", async () => {
    // Ended Tuesday 23:30 in Paris (22:30 UTC): over before yesterday. Ended Wednesday 00:30 in Paris (23:30 UTC on Tuesday): ran yesterday.
    const over = await storage().campaigns.create(makeCampaignData({ team: "acme-brand", name: "Over on Tuesday", status: "active", endDate: "2026-11-24T22:30:00.000Z" }), { by: "system" });
    const ranInto = await storage().campaigns.create(makeCampaignData({ team: "acme-brand", name: "Ran into Wednesday", status: "active", endDate: "2026-11-24T23:30:00.000Z" }), { by: "system" });
    const facts = [];
    for (const day of REFERENCE) for (const c of [over, ranInto]) facts.push(fact(`${day}T10:00:00Z`, { team: "acme-brand", campaign: c.id, displays: 100 }));
    await metrics.applyBatch("b-volume-ends", facts, "2026-11-25T10:00:00.000Z");
    const { checkDisplayVolume } = await import("~/services/display-volume.server");
    await checkDisplayVolume(NOW);
    const told = (await storage().notifications.list(ann.id, {})).items.filter((n) => n.type === "campaignDisplayVolumeDown").map((n) => n.values.campaign);
    expect(told).toContain("Ran into Wednesday");
    expect(told).not.toContain("Over on Tuesday");
  });
});
