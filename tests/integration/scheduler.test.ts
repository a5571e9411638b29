/**
 * The scheduler (app/services/scheduler.server.ts) on a real SQLite store with a fake clock:
 * after downtime a report-like kind runs each missed run once and an alert-like kind once for all
 * of them; a failure or an abort is recorded with its reason; a crashed run is retried once its
 * lease expired (and given up after three tries); a run that outlasts its lease is taken over,
 * and its first worker's result is refused, so the run is recorded once; a live run renews its
 * lease, so nobody takes it over.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fail } from "~/domain/result";
import type { Schedule } from "~/domain/schedule";
import { createScheduler, JOB_REASONS, MAX_ATTEMPTS, type JobContext, type JobKind, type SchedulerOptions } from "~/services/scheduler.server";
import { planRun } from "~/domain/schedule";
import type { Storage } from "~/storage/port";
import { createStorage } from "~/storage/repos/index.server";
import { SqliteDocumentStore } from "~/storage/sqlite/document-store.server";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ads-console-scheduler-"));
let store: SqliteDocumentStore;
let storage: Storage;

beforeAll(() => {
  store = new SqliteDocumentStore(path.join(dir, "scheduler.db"));
  storage = createStorage(store);
});
afterAll(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await store.clear();
});

/** A clock the test moves. */
function fakeClock(start: string) {
  let now = new Date(start).getTime();
  return {
    now: () => new Date(now),
    set: (iso: string) => void (now = new Date(iso).getTime()),
    add: (ms: number) => void (now += ms),
  };
}

const PARIS = "Europe/Paris";
const DAILY_9: Schedule = { type: "daily", time: "09:00", timeZone: PARIS };
const MINUTE = 60_000;

function recorder(name: string, catchUp: "each" | "merge", body?: (ctx: JobContext) => Promise<unknown>) {
  const calls: JobContext[] = [];
  const kind: JobKind = {
    name,
    catchUp,
    async run(ctx) {
      calls.push(ctx);
      return (await body?.(ctx)) as never;
    },
  };
  return { kind, calls };
}

function scheduler(clock: { now: () => Date }, kinds: JobKind[], options: SchedulerOptions = {}) {
  const s = createScheduler({ storage: () => storage, clock: clock.now, ...options });
  for (const kind of kinds) s.register(kind);
  return s;
}

describe("after downtime", () => {
  it("runs each missed run of a report once, oldest first, and an alert once for all its missed runs", async () => {
    // Both defined on Thursday 26 March 2026 in Paris; the console is down from Friday morning to
    // Monday noon, over the spring change.
    const clock = fakeClock("2026-03-26T12:00:00.000Z");
    const report = recorder("report", "each");
    const alert = recorder("alert", "merge");
    const worker = scheduler(clock, [report.kind, alert.kind]);
    expect((await worker.schedule("report-weekly-sales", { kind: "report", title: "Sales", schedule: DAILY_9 })).ok).toBe(true);
    expect((await worker.schedule("alert-empty-wallets", { kind: "alert", schedule: { type: "daily", time: "07:00", timeZone: PARIS } })).ok).toBe(true);
    expect((await storage.jobs.getOne("report-weekly-sales"))!.nextRunAt).toBe("2026-03-27T08:00:00.000Z");

    clock.set("2026-03-30T12:00:00.000Z");
    const reports = await worker.tick();
    expect(report.calls.map((c) => c.scheduledFor.toISOString())).toEqual([
      "2026-03-27T08:00:00.000Z",
      "2026-03-28T08:00:00.000Z",
      "2026-03-29T07:00:00.000Z",
      "2026-03-30T07:00:00.000Z",
    ]);
    expect(report.calls.every((c) => c.runs === 1 && c.title === "Sales")).toBe(true);
    expect(alert.calls).toHaveLength(1);
    expect(alert.calls[0]).toMatchObject({ runs: 4, scheduledFor: new Date("2026-03-30T05:00:00.000Z") });
    expect(reports.filter((r) => r.outcome === "done")).toHaveLength(5);

    // Nothing more until the next runs; then each runs once.
    expect(await worker.tick()).toEqual([]);
    expect((await storage.jobs.getOne("report-weekly-sales"))!.nextRunAt).toBe("2026-03-31T07:00:00.000Z");
    expect((await storage.jobs.getOne("alert-empty-wallets"))!.nextRunAt).toBe("2026-03-31T05:00:00.000Z");
    clock.set("2026-03-31T07:00:00.000Z");
    expect((await worker.tick()).map((r) => [r.jobId, r.runs])).toEqual([
      ["alert-empty-wallets", 1],
      ["report-weekly-sales", 1],
    ]);
    expect(report.calls).toHaveLength(5);
    expect(alert.calls).toHaveLength(2);
  });

  it("runs a once job at its instant, once", async () => {
    const clock = fakeClock("2026-05-01T09:00:00.000Z");
    const report = recorder("report", "each");
    const worker = scheduler(clock, [report.kind]);
    await worker.schedule("once", { kind: "report", schedule: { type: "once", at: "2026-05-01T10:00:00.000Z" } });
    expect(await worker.tick()).toEqual([]);
    clock.set("2026-05-02T10:00:00.000Z");
    await worker.tick();
    clock.add(24 * 60 * MINUTE);
    await worker.tick();
    expect(report.calls.map((c) => c.scheduledFor.toISOString())).toEqual(["2026-05-01T10:00:00.000Z"]);
    expect(await storage.jobs.getOne("once")).toMatchObject({ nextRunAt: null, lastRun: { outcome: "done" } });
  });

  it("refuses a schedule it cannot follow", async () => {
    const worker = scheduler(fakeClock("2026-05-01T09:00:00.000Z"), []);
    const saved = await worker.schedule("bad", { kind: "report", schedule: { type: "daily", time: "9am", timeZone: PARIS } as Schedule });
    expect(saved).toMatchObject({ ok: false, reason: JOB_REASONS.unknownSchedule });
    expect(await storage.jobs.getOne("bad")).toBeNull();
  });
});

describe("outcomes", () => {
  it("records a thrown error, a failed result and an abort with their reasons and durations, and moves on to the next run", async () => {
    const clock = fakeClock("2026-04-01T06:00:00.000Z");
    const throws = recorder("throws", "each", async () => {
      clock.add(1_500);
      throw new Error("SMTP server refused the message");
    });
    const fails = recorder("fails", "each", async () => fail("unavailable", "errors.network"));
    const aborts = recorder("aborts", "each", async () => ({ outcome: "aborted", reason: "reports.rowLimit", values: { limit: 10_000 } }));
    const worker = scheduler(clock, [throws.kind, fails.kind, aborts.kind], { concurrency: 1 });
    for (const kind of ["throws", "fails", "aborts"]) await worker.schedule(kind, { kind, schedule: DAILY_9 });
    clock.set("2026-04-01T07:00:00.000Z");
    const reports = await worker.tick();
    expect(reports.map((r) => [r.jobId, r.outcome])).toEqual([
      ["aborts", "aborted"],
      ["fails", "failed"],
      ["throws", "failed"],
    ]);
    expect((await storage.jobs.getOne("throws"))!).toMatchObject({
      nextRunAt: "2026-04-02T07:00:00.000Z",
      lastRun: { outcome: "failed", reason: JOB_REASONS.error, values: { message: "SMTP server refused the message" }, durationMs: 1_500, attempt: 1 },
    });
    expect((await storage.jobs.getOne("fails"))!.lastRun).toMatchObject({ outcome: "failed", reason: "errors.network", values: null });
    expect((await storage.jobs.getOne("aborts"))!.lastRun).toMatchObject({ outcome: "aborted", reason: "reports.rowLimit", values: { limit: 10_000 } });
    // A failed run is not run again: the next is the next day's.
    expect(await worker.tick()).toEqual([]);
  });
});

describe("leases", () => {
  const LEASE = 5 * MINUTE;

  /** A worker that claimed the job and died: its lease stays until it expires. */
  async function crashedClaim(id: string, now: Date, owner = "crashed-worker") {
    const claimed = await storage.jobs.claim(id, { owner, token: `${owner}-${now.getTime()}`, now, leaseMs: LEASE, plan: (job) => planRun(job.schedule, new Date(job.nextRunAt!), now, "each") });
    expect(claimed).not.toBeNull();
    return claimed!;
  }

  it("retries a crashed run once its lease expired: the same run, recorded once", async () => {
    const clock = fakeClock("2026-04-01T06:00:00.000Z");
    const report = recorder("report", "each");
    const worker = scheduler(clock, [report.kind], { leaseMs: LEASE });
    await worker.schedule("r", { kind: "report", schedule: DAILY_9 });
    clock.set("2026-04-01T07:00:00.000Z");
    await crashedClaim("r", clock.now());
    clock.add(LEASE - 1);
    expect(await worker.tick()).toEqual([]);
    clock.add(1);
    const [retry] = await worker.tick();
    expect(retry).toMatchObject({ outcome: "done", attempt: 2, scheduledFor: new Date("2026-04-01T07:00:00.000Z") });
    expect(report.calls.map((c) => [c.scheduledFor.toISOString(), c.attempt])).toEqual([["2026-04-01T07:00:00.000Z", 2]]);
    const job = (await storage.jobs.getOne("r"))!;
    expect(job.history).toHaveLength(1);
    expect(job).toMatchObject({ nextRunAt: "2026-04-02T07:00:00.000Z", lease: null, lastRun: { attempt: 2, owner: worker.owner } });
  });

  it(`gives a run up as failed after ${MAX_ATTEMPTS} attempts that never finished, without running it again`, async () => {
    const clock = fakeClock("2026-04-01T07:00:00.000Z");
    const report = recorder("report", "each");
    const worker = scheduler(clock, [report.kind], { leaseMs: LEASE });
    await storage.jobs.save("r", { kind: "report", schedule: DAILY_9 }, clock.now(), clock.now());
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await crashedClaim("r", clock.now(), `crashed-${i}`);
      clock.add(LEASE);
    }
    const [given] = await worker.tick();
    expect(given).toMatchObject({ outcome: "failed", reason: JOB_REASONS.interrupted, attempt: MAX_ATTEMPTS + 1 });
    expect(report.calls).toEqual([]);
    expect((await storage.jobs.getOne("r"))!).toMatchObject({ nextRunAt: "2026-04-02T07:00:00.000Z", lastRun: { outcome: "failed", values: { count: MAX_ATTEMPTS } } });
  });

  it("does not record a run twice when it outlasts its lease: the worker that took it over records it, the first is refused", async () => {
    const clock = fakeClock("2026-04-01T07:00:00.000Z");
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = recorder("report", "each", async (ctx) => {
      if (ctx.attempt === 1) await held;
    });
    const a = scheduler(clock, [slow.kind], { leaseMs: LEASE, owner: "worker-a" });
    const b = scheduler(clock, [slow.kind], { leaseMs: LEASE, owner: "worker-b" });
    await storage.jobs.save("r", { kind: "report", schedule: DAILY_9 }, clock.now(), clock.now());
    const first = a.tick();
    await vi.waitFor(() => expect(slow.calls).toHaveLength(1));
    // worker-a is stuck past its lease (no renewal got through): worker-b takes the run over.
    clock.add(LEASE + 1);
    const [taken] = await b.tick();
    expect(taken).toMatchObject({ outcome: "done", attempt: 2, scheduledFor: new Date("2026-04-01T07:00:00.000Z") });
    release();
    const [late] = await first;
    expect(late).toMatchObject({ outcome: "lost", attempt: 1 });
    const job = (await storage.jobs.getOne("r"))!;
    expect(job.history.map((h) => [h.scheduledFor, h.owner])).toEqual([["2026-04-01T07:00:00.000Z", "worker-b"]]);
    expect(job.nextRunAt).toBe("2026-04-02T07:00:00.000Z");
  });

  it("renews a live run's lease so nobody takes it over, and aborts a run whose lease was lost", async () => {
    // A 3 s lease is renewed every second (real time) to the clock's now + 3 s.
    const clock = fakeClock("2026-04-01T07:00:00.000Z");
    const lease = 3_000;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let aborted = false;
    const slow = recorder("report", "each", async (ctx) => {
      if (ctx.attempt > 1) return;
      ctx.signal.addEventListener("abort", () => (aborted = true));
      await held;
    });
    const a = scheduler(clock, [slow.kind], { leaseMs: lease, owner: "worker-a" });
    const b = scheduler(clock, [slow.kind], { leaseMs: lease, owner: "worker-b" });
    await storage.jobs.save("r", { kind: "report", schedule: DAILY_9 }, clock.now(), clock.now());
    const first = a.tick();
    await vi.waitFor(() => expect(slow.calls).toHaveLength(1));
    clock.add(2_000);
    // The renewal (after a second) moves the lease's end to 07:00:05.
    await vi.waitFor(async () => expect((await storage.jobs.getOne("r"))!.lease!.until).toBe("2026-04-01T07:00:05.000Z"), { timeout: 3_000 });
    clock.add(2_000);
    expect(await b.tick()).toEqual([]);
    // worker-a stalls for longer than its lease (the clock jumps past any renewal it made): worker-b
    // takes the run over, and worker-a's next renewal, refused, aborts its run.
    clock.add(10_000);
    const [taken] = await b.tick();
    expect(taken).toMatchObject({ outcome: "done", attempt: 2 });
    await vi.waitFor(() => expect(aborted).toBe(true), { timeout: 3_000 });
    release();
    expect((await first)[0]).toMatchObject({ outcome: "lost" });
    expect((await storage.jobs.getOne("r"))!.history).toHaveLength(1);
  }, 15_000);
});

describe("the worker loop", () => {
  it("polls for due jobs once started, and stops", async () => {
    const clock = fakeClock("2026-04-01T07:00:00.000Z");
    const ticker = recorder("ticker", "merge");
    const worker = scheduler(clock, [ticker.kind], { pollMs: 20 });
    await worker.schedule("t", { kind: "ticker", schedule: { type: "every", seconds: 10 } });
    worker.start();
    try {
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(ticker.calls).toHaveLength(0);
      clock.add(10_000);
      await vi.waitFor(() => expect(ticker.calls).toHaveLength(1));
      // A minute later the six missed runs merge into one.
      clock.add(60_000);
      await vi.waitFor(() => expect(ticker.calls).toHaveLength(2));
      expect(ticker.calls[1]!.runs).toBe(6);
    } finally {
      await worker.stop();
    }
    clock.add(60_000);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(ticker.calls).toHaveLength(2);
  });
});
