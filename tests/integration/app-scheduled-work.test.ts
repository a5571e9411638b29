/**
 * Activity (/health) lists the scheduled work through the real loader: each task by its name, its
 * schedule in words, its next and last run in the reader's time zone and language, the outcome of
 * its last run with the reason, 'In progress' while a run holds its lease; an empty state when
 * nothing is scheduled; and only operators see it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobKind } from "~/services/scheduler.server";
import { call, getRequest, signIn, startApp, type TestApp } from "./app-helpers";

let app: TestApp;
const cookies: Record<string, string> = {};
const context = { requestId: "t", clientIp: "127.0.0.1" };

type Row = {
  id: string;
  name: string;
  schedule: string;
  nextRun: { at: string; text: string } | null;
  lastRun: { at: string; text: string } | null;
  lastRunStoodFor: string | null;
  state: string;
  stateLabel: string;
  reason: string | null;
  duration: string | null;
};

async function activity(who: string) {
  return call(() => app.m.routes.health.loader({ request: getRequest("/health", { cookie: cookies[who] }), params: {}, context } as never));
}

const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

beforeAll(async () => {
  app = await startApp();
  for (const email of ["operator@example.com", "retailer.admin@example.com"]) cookies[email.split("@")[0]!] = await signIn(app.m, email, app.demoPassword);
  const french = await app.createUser({ claims: { type: "operator", role: "ADMIN" }, locale: "fr", timezone: "America/New_York", roleByTeam: {} });
  cookies.french = await signIn(app.m, french.email, french.password);
});
afterAll(async () => {
  await app?.stop();
});

describe("Activity's scheduled work", () => {
  it("says when nothing is scheduled", async () => {
    const outcome = await activity("operator");
    expect(outcome.status).toBe(200);
    expect(outcome.data.work).toEqual({ rows: [], next: null });
  });

  it("lists each job with its schedule, runs and outcome in the operator's words and time zone", async () => {
    const { createScheduler } = await import("~/services/scheduler.server");
    const { settlementJob, SETTLEMENT_JOB_ID } = await import("~/services/settlement.server");
    const report: JobKind = {
      name: "report",
      catchUp: "each",
      async run() {
        throw new Error("SMTP server refused the message");
      },
    };
    // Defined a week ago; the clock then comes back to now, so each is due.
    const weekAgo = new Date(Date.now() - 7 * 24 * 3_600_000);
    let now = weekAgo;
    const scheduler = createScheduler({ clock: () => now, owner: "test-worker" });
    scheduler.register(settlementJob);
    scheduler.register(report);
    expect((await scheduler.schedule(SETTLEMENT_JOB_ID, { kind: "settlement", schedule: { type: "every", seconds: 10 } })).ok).toBe(true);
    expect((await scheduler.schedule("report-sales", { kind: "report", title: "Weekly sales", schedule: { type: "weekly", time: "09:00", timeZone: "Europe/Paris", weekday: 1 } })).ok).toBe(true);
    expect((await scheduler.schedule("alert-gone", { kind: "alert", schedule: { type: "monthly", time: "07:30", timeZone: "America/New_York", day: 31 } })).ok).toBe(true);
    now = new Date();
    // The same report asked for by hand ("Run now"), due in an hour: told apart from its schedule.
    expect((await scheduler.schedule("report-sales-now", { kind: "report", title: "Weekly sales", params: { reportId: "sales", manual: true }, schedule: { type: "once", at: new Date(now.getTime() + 3_600_000).toISOString() } })).ok).toBe(true);
    const reports = await scheduler.tick();
    expect(reports.map((r) => [r.jobId, r.outcome]).sort()).toEqual([
      ["report-sales", "failed"],
      ["settlement", "done"],
    ]);
    // An alert is running now (another worker holds its lease; this scheduler runs no alerts).
    const jobs = app.m.storageIndex.getStorage().jobs;
    await jobs.remove("alert-gone");
    await jobs.save("alert-gone", { kind: "alert", schedule: { type: "monthly", time: "07:30", timeZone: "America/New_York", day: 31 } }, new Date(Date.now() - 60_000), new Date());
    expect(await jobs.claim("alert-gone", { owner: "other", token: "tok", now: new Date(), leaseMs: 5 * 60_000, plan: (job) => ({ scheduledFor: new Date(job.nextRunAt!), runs: 1 }) })).not.toBeNull();

    const outcome = await activity("operator");
    expect(outcome.status).toBe(200);
    const rows = outcome.data.work.rows as Row[];
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    expect(byId.settlement).toMatchObject({
      name: "Settlement of ad spend into the wallets",
      schedule: "Every 10 seconds",
      state: "done",
      stateLabel: "Done",
      reason: null,
      lastRunStoodFor: expect.stringMatching(/^for \d+ scheduled runs missed meanwhile$/),
    });
    expect(byId.settlement!.duration).toMatch(/^\d+(\.\d)? (ms|secs?)$/);
    expect(byId["report-sales"]).toMatchObject({
      name: "Report: Weekly sales",
      schedule: "Every Monday at 09:00 (Europe/Paris time)",
      state: "failed",
      stateLabel: "Failed",
      reason: "Unexpected error: SMTP server refused the message",
      lastRunStoodFor: null,
      // The test's clock stood still during the run.
      duration: "0 ms",
    });
    expect(byId["report-sales-now"]).toMatchObject({ name: "Report: Weekly sales (run now)", state: "never" });
    expect(byId["alert-gone"]).toMatchObject({
      schedule: "Every month on day 31, or its last day, at 07:30 (America/New York time)",
      state: "running",
      stateLabel: "In progress",
      lastRun: null,
      duration: null,
    });
    // The report's next run is a Monday at 09:00 in Paris, written in Paris time for this operator.
    const next = byId["report-sales"]!.nextRun!;
    expect(new Intl.DateTimeFormat("en-GB", { weekday: "long", hour: "2-digit", minute: "2-digit", timeZone: "Europe/Paris" }).format(new Date(next.at))).toBe("Monday 09:00");
    expect(next.text).toMatch(/ 09:00$/);
    for (const row of rows) {
      for (const text of [row.name, row.schedule, row.nextRun?.text, row.lastRun?.text, row.stateLabel, row.reason, row.duration]) expect(text ?? "").not.toMatch(ISO);
    }
    expect(outcome.data.zone).toBe("Europe/Paris");

    // In French, in New York time.
    const french = await activity("french");
    expect(french.status).toBe(200);
    const fr = Object.fromEntries((french.data.work.rows as Row[]).map((r) => [r.id, r]));
    expect(fr["report-sales"]).toMatchObject({
      name: "Rapport : Weekly sales",
      schedule: "Chaque lundi à 09:00 (fuseau Europe/Paris)",
      stateLabel: "Échec",
      reason: "Erreur inattendue : SMTP server refused the message",
    });
    expect(fr["report-sales-now"]!.name).toBe("Rapport : Weekly sales (exécution immédiate)");
    expect(fr.settlement).toMatchObject({ name: "Imputation des dépenses publicitaires aux portefeuilles", schedule: "Toutes les 10 secondes", stateLabel: "Terminée" });
    expect(fr["alert-gone"]!.stateLabel).toBe("En cours");
    // 09:00 in Paris is 03:00 in New York (both on summer or on winter time), else 02:00 or 04:00 for a few weeks a year.
    expect(fr["report-sales"]!.nextRun!.text).toMatch(/ 0[234]:00$/);
    expect(french.data.zone).toBe("America/New York");
  });

  it("shows a stopped job as stopped, since when and why, with no next run, in the operator's words and time zone (ADR 54)", async () => {
    const jobs = app.m.storageIndex.getStorage().jobs;
    const schedule = { type: "daily" as const, time: "06:00", timeZone: "Europe/Paris" };
    await jobs.save("report-stopped", { kind: "report", title: "Leaver's daily", schedule }, new Date("2026-11-28T05:00:00.000Z"), new Date("2026-11-27T12:00:00.000Z"));
    await jobs.save("report-stopped", { kind: "report", title: "Leaver's daily", schedule, stopped: { at: "2026-11-28T05:00:00.000Z", reason: "reports:reasons.ownerRights" } }, null, new Date("2026-11-28T05:00:00.000Z"));
    const en = ((await activity("operator")).data.work.rows as (Row & { stopped: unknown })[]).find((r) => r.id === "report-stopped");
    expect(en).toMatchObject({
      schedule: "Every day at 06:00 (Europe/Paris time)",
      nextRun: null,
      state: "never",
      stopped: { since: { at: "2026-11-28T05:00:00.000Z", text: "28 Nov 2026, 06:00" }, reason: "The report's owner may no longer read it" },
    });
    const fr = ((await activity("french")).data.work.rows as (Row & { stopped: unknown })[]).find((r) => r.id === "report-stopped");
    expect(fr).toMatchObject({ nextRun: null, stopped: { since: { text: "28 nov. 2026, 00:00" }, reason: "Le propriétaire du rapport ne peut plus le lire" } });
    await jobs.remove("report-stopped");
  });

  it("refuses a non-operator", async () => {
    const outcome = await activity("retailer.admin");
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/not-authorized");
    expect(outcome.data).toBeNull();
  });
});
