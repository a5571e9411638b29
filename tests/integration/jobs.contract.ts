/**
 * The jobs half of the storage contract (ADR 21), run inside runStorageContract on every adapter:
 * jobs are defined, found when due, leased atomically (two console instances on one store never
 * both claim one run), renewed, taken over once a lease expired (the same run, counted as a new
 * attempt), and a holder whose lease was taken over can record nothing.
 *
 * The last cases run two schedulers (app/services/scheduler.server.ts), each on its own store
 * instance over the same database, concurrently: every run happens exactly once.
 */
import { expect, it } from "vitest";
import type { Schedule } from "~/domain/schedule";
import { planRun } from "~/domain/schedule";
import { createScheduler, type JobKind } from "~/services/scheduler.server";
import type { DocumentStore, Job, JobClaim, Storage } from "~/storage/port";
import { createStorage } from "~/storage/repos/index.server";
import { servedByIndexes } from "./campaigns.contract";
import fs from "node:fs";

const T0 = new Date("2026-03-27T08:00:00.000Z");
const MINUTE = 60_000;
const at = (minutes: number) => new Date(T0.getTime() + minutes * MINUTE);
const DAILY: Schedule = { type: "daily", time: "09:00", timeZone: "Europe/Paris" };

function claimOf(owner: string, now: Date, leaseMs = 5 * MINUTE): JobClaim {
  return { owner, token: `${owner}-${now.getTime()}-${Math.random()}`, now, leaseMs, plan: (job: Job) => planRun(job.schedule, new Date(job.nextRunAt!), now, "each") };
}

const done = (finished: Date, durationMs = 1_000) => ({ finished: finished.toISOString(), durationMs, outcome: "done" as const, reason: null, values: null });

export function runJobsContract(storageOf: () => Storage, storeOf: () => DocumentStore, makeStore: () => Promise<DocumentStore>): void {
  const jobs = () => storageOf().jobs;

  it("defines a job once: saving the same definition writes nothing, a new schedule moves its next run", async () => {
    const job = await jobs().save("report-1", { kind: "report", title: "Weekly sales", params: { reportId: "r-1" }, schedule: DAILY }, T0, T0);
    expect(job).toMatchObject({ id: "report-1", version: 1, kind: "report", title: "Weekly sales", params: { reportId: "r-1" }, nextRunAt: T0.toISOString(), claimableAt: T0.toISOString(), lease: null, lastRun: null, history: [] });
    expect(await jobs().save("report-1", { kind: "report", title: "Weekly sales", params: { reportId: "r-1" }, schedule: { timeZone: "Europe/Paris", time: "09:00", type: "daily" } }, at(60), at(60))).toMatchObject({ version: 1 });
    // A new title keeps the next run; a new schedule replaces it.
    expect(await jobs().save("report-1", { kind: "report", title: "Weekly sales (all)", params: { reportId: "r-1" }, schedule: DAILY }, at(60), at(60))).toMatchObject({ version: 2, nextRunAt: T0.toISOString() });
    const weekly: Schedule = { type: "weekly", time: "09:00", timeZone: "Europe/Paris", weekday: 1 };
    expect(await jobs().save("report-1", { kind: "report", title: "Weekly sales (all)", params: { reportId: "r-1" }, schedule: weekly }, at(3 * 24 * 60), at(60))).toMatchObject({
      version: 3,
      schedule: weekly,
      nextRunAt: at(3 * 24 * 60).toISOString(),
    });
    expect((await jobs().list({ limit: 10 })).items.map((j) => j.id)).toEqual(["report-1"]);
    await jobs().remove("report-1");
    expect(await jobs().getOne("report-1")).toBeNull();
  });

  it("lists the due jobs of the kinds asked, oldest first, and neither a job not yet due nor one leased", async () => {
    await jobs().save("b-late", { kind: "report", schedule: DAILY }, at(10), T0);
    await jobs().save("a-early", { kind: "report", schedule: DAILY }, at(-30), T0);
    await jobs().save("c-alert", { kind: "alert", schedule: DAILY }, at(-5), T0);
    await jobs().save("d-future", { kind: "report", schedule: DAILY }, at(90), T0);
    await jobs().save("e-other", { kind: "unknown", schedule: DAILY }, at(-60), T0);
    const ids = async (now: Date, kinds = ["report", "alert"]) => (await jobs().listClaimable(now, kinds, 10)).map((j) => j.id);
    expect(await ids(T0)).toEqual(["a-early", "c-alert"]);
    expect(await ids(at(10))).toEqual(["a-early", "c-alert", "b-late"]);
    expect(await ids(at(10), ["alert"])).toEqual(["c-alert"]);
    expect(await ids(at(10), [])).toEqual([]);
    expect(await jobs().claim("a-early", claimOf("w1", T0))).not.toBeNull();
    expect(await ids(at(1))).toEqual(["c-alert"]);
    // The query is one that production Firestore serves with the declared indexes.
    const indexes = JSON.parse(fs.readFileSync(new URL("../../firestore.indexes.json", import.meta.url), "utf8")).indexes;
    expect(servedByIndexes("job", { where: [["kind", "in", ["report"]], ["claimableAt", "<=", T0.toISOString()]], orderBy: { field: "claimableAt", direction: "asc" } }, indexes)).toBe(true);
  });

  it("leases a job to one of many concurrent claimers on two instances of the store, never two", async () => {
    const other = createStorage(await makeStore());
    try {
      for (const id of ["j-1", "j-2", "j-3"]) await jobs().save(id, { kind: "report", schedule: DAILY }, T0, T0);
      const attempts = ["j-1", "j-2", "j-3"].flatMap((id) =>
        [storageOf(), other, storageOf(), other].map((s, i) => s.jobs.claim(id, claimOf(`worker-${i % 2 ? "b" : "a"}-${i}`, at(1)))),
      );
      const claimed = (await Promise.all(attempts)).filter((j): j is Job => j !== null);
      expect(claimed.map((j) => j.id).sort()).toEqual(["j-1", "j-2", "j-3"]);
      for (const job of claimed) {
        const stored = (await jobs().getOne(job.id))!;
        expect(stored.lease).toEqual(job.lease);
        expect(stored.lease).toMatchObject({ scheduledFor: T0.toISOString(), runs: 1, attempt: 1, until: at(6).toISOString() });
        expect(stored.claimableAt).toBe(at(6).toISOString());
      }
    } finally {
      await other.close();
    }
  }, 60_000);

  it("lets another worker take a run over once its lease expired, and refuses the old holder's renewal and completion", async () => {
    await jobs().save("j-crash", { kind: "report", schedule: DAILY }, T0, T0);
    const first = (await jobs().claim("j-crash", claimOf("worker-a", T0)))!;
    // Within the lease, nobody else may claim it; a renewal pushes its end further.
    expect(await jobs().claim("j-crash", claimOf("worker-b", at(4)))).toBeNull();
    expect(await jobs().renew("j-crash", first.lease!.token, at(8))).toBe(true);
    expect(await jobs().claim("j-crash", claimOf("worker-b", at(6)))).toBeNull();
    expect(await jobs().listClaimable(at(7), ["report"], 10)).toEqual([]);
    // Past the lease's end (worker-a stalled or died), worker-b takes the same run over.
    const second = (await jobs().claim("j-crash", claimOf("worker-b", at(9))))!;
    expect(second.lease).toMatchObject({ owner: "worker-b", scheduledFor: T0.toISOString(), attempt: 2 });
    expect(await jobs().renew("j-crash", first.lease!.token, at(20))).toBe(false);
    expect(await jobs().complete("j-crash", first.lease!.token, done(at(10)), () => at(24 * 60))).toBe(false);
    expect((await jobs().getOne("j-crash"))!.lastRun).toBeNull();
    // The new holder's run is recorded once, with the job's next run.
    expect(await jobs().complete("j-crash", second.lease!.token, done(at(10), 60_000), () => at(24 * 60))).toBe(true);
    const after = (await jobs().getOne("j-crash"))!;
    expect(after).toMatchObject({ lease: null, nextRunAt: at(24 * 60).toISOString(), claimableAt: at(24 * 60).toISOString() });
    expect(after.lastRun).toEqual({
      scheduledFor: T0.toISOString(),
      runs: 1,
      attempt: 2,
      owner: "worker-b",
      started: at(9).toISOString(),
      finished: at(10).toISOString(),
      durationMs: 60_000,
      outcome: "done",
      reason: null,
      values: null,
    });
    expect(after.history).toEqual([after.lastRun]);
    // A second completion with the same token records nothing more.
    expect(await jobs().complete("j-crash", second.lease!.token, done(at(11)), () => at(24 * 60))).toBe(false);
  });

  it("records a failure with its reason, keeps the latest runs newest first, and leaves nothing to claim when no run is left", async () => {
    await jobs().save("j-once", { kind: "report", schedule: { type: "once", at: T0.toISOString() } }, T0, T0);
    const lease = (await jobs().claim("j-once", claimOf("worker-a", T0)))!.lease!;
    const failed = { finished: at(1).toISOString(), durationMs: 60_000, outcome: "failed" as const, reason: "activity.jobs.reasons.error", values: { message: "SMTP refused" } };
    expect(await jobs().complete("j-once", lease.token, failed, () => null)).toBe(true);
    const job = (await jobs().getOne("j-once"))!;
    expect(job).toMatchObject({ nextRunAt: null, lease: null, lastRun: { outcome: "failed", reason: "activity.jobs.reasons.error", values: { message: "SMTP refused" } } });
    expect(job.claimableAt).toBeUndefined();
    expect(await jobs().listClaimable(at(60 * 24 * 365), ["report"], 10)).toEqual([]);
    expect(await jobs().claim("j-once", claimOf("worker-b", at(60)))).toBeNull();

    // The history keeps the latest twenty runs.
    await jobs().save("j-often", { kind: "report", schedule: { type: "every", seconds: 60 } }, T0, T0);
    for (let i = 0; i < 22; i++) {
      const claimed = (await jobs().claim("j-often", claimOf("worker-a", at(i))))!;
      expect(await jobs().complete("j-often", claimed.lease!.token, done(at(i)), () => at(i + 1))).toBe(true);
    }
    const often = (await jobs().getOne("j-often"))!;
    expect(often.history).toHaveLength(20);
    expect(often.history[0]!.scheduledFor).toBe(at(21).toISOString());
    expect(often.history[19]!.scheduledFor).toBe(at(2).toISOString());
  });

  it("stops a job (ADR 54): it keeps its schedule with no next run and is never claimed; a run under way is recorded with nothing after it; saved without the stop it resumes", async () => {
    const stop = { at: at(5).toISOString(), reason: "reports:reasons.ownerRights" };
    // Stopped while waiting: no next run, nothing to claim, even long after.
    await jobs().save("j-idle", { kind: "report", title: "Idle", schedule: DAILY }, T0, T0);
    const idle = await jobs().save("j-idle", { kind: "report", title: "Idle", schedule: DAILY, stopped: stop }, null, at(5));
    expect(idle).toMatchObject({ schedule: DAILY, nextRunAt: null, stopped: stop, lease: null });
    expect(idle.claimableAt).toBeUndefined();
    expect(await jobs().listClaimable(at(60 * 24 * 30), ["report"], 10)).toEqual([]);
    expect(await jobs().claim("j-idle", claimOf("worker-a", at(60 * 24 * 30)))).toBeNull();
    // Saved again stopped (a new title while stopped): still stopped, whatever first run is given.
    expect(await jobs().save("j-idle", { kind: "report", title: "Idle (renamed)", schedule: DAILY, stopped: stop }, at(10), at(6))).toMatchObject({ title: "Idle (renamed)", nextRunAt: null, stopped: stop });
    expect(await jobs().listClaimable(at(60 * 24 * 30), ["report"], 10)).toEqual([]);
    // Saved without the stop: it resumes from the first run given.
    const resumed = await jobs().save("j-idle", { kind: "report", title: "Idle (renamed)", schedule: DAILY }, at(24 * 60), at(7));
    expect(resumed).toMatchObject({ nextRunAt: at(24 * 60).toISOString(), claimableAt: at(24 * 60).toISOString() });
    expect(resumed.stopped ?? null).toBeNull();
    expect((await jobs().listClaimable(at(24 * 60), ["report"], 10)).map((j) => j.id)).toEqual(["j-idle"]);

    // Stopped while its run is under way: the lease stays (a takeover remains possible), the run
    // is recorded, and its completion gives it no next run, whatever the scheduler asks.
    await jobs().save("j-busy", { kind: "report", schedule: DAILY }, T0, T0);
    const lease = (await jobs().claim("j-busy", claimOf("worker-a", T0)))!.lease!;
    const busy = await jobs().save("j-busy", { kind: "report", schedule: DAILY, stopped: stop }, null, at(1));
    expect(busy).toMatchObject({ nextRunAt: null, stopped: stop, lease: { token: lease.token }, claimableAt: lease.until });
    const failed = { finished: at(2).toISOString(), durationMs: 60_000, outcome: "failed" as const, reason: "reports:reasons.ownerRights", values: null };
    expect(await jobs().complete("j-busy", lease.token, failed, () => at(24 * 60))).toBe(true);
    const after = (await jobs().getOne("j-busy"))!;
    expect(after).toMatchObject({ lease: null, nextRunAt: null, schedule: DAILY, stopped: stop, lastRun: { outcome: "failed", reason: "reports:reasons.ownerRights" } });
    expect(after.claimableAt).toBeUndefined();
    expect((await jobs().listClaimable(at(60 * 24 * 30), ["report"], 10)).map((j) => j.id)).toEqual(["j-idle"]);
    expect(await jobs().claim("j-busy", claimOf("worker-b", at(60 * 24 * 30)))).toBeNull();
  });

  it("refuses the completion of a run whose job was removed meanwhile", async () => {
    await jobs().save("j-gone", { kind: "report", schedule: DAILY }, T0, T0);
    const lease = (await jobs().claim("j-gone", claimOf("worker-a", T0)))!.lease!;
    await jobs().remove("j-gone");
    expect(await jobs().complete("j-gone", lease.token, done(at(1)), () => at(60))).toBe(false);
    expect(await jobs().renew("j-gone", lease.token, at(10))).toBe(false);
    expect(await jobs().getOne("j-gone")).toBeNull();
  });

  it("runs every missed run exactly once with two schedulers on two instances of the store ticking together", async () => {
    const other = createStorage(await makeStore());
    try {
      const now = new Date("2026-03-31T12:00:00.000Z");
      const ran: string[] = [];
      const kind: JobKind = {
        name: "report",
        catchUp: "each",
        async run(ctx) {
          ran.push(`${ctx.jobId}@${ctx.scheduledFor.toISOString()}`);
          await new Promise((resolve) => setTimeout(resolve, 5));
        },
      };
      const workers = [storageOf(), other].map((s, i) => {
        const scheduler = createScheduler({ storage: () => s, clock: () => now, owner: `worker-${i}`, concurrency: 2 });
        scheduler.register(kind);
        return scheduler;
      });
      // Two daily jobs, both last run on 27 March: 28, 29 (the spring change), 30 and 31 March are due.
      for (const id of ["r-a", "r-b"]) await jobs().save(id, { kind: "report", schedule: DAILY }, new Date("2026-03-28T08:00:00.000Z"), T0);
      const reports = (await Promise.all(workers.map((w) => w.tick()))).flat();
      const expected = ["2026-03-28T08:00:00.000Z", "2026-03-29T07:00:00.000Z", "2026-03-30T07:00:00.000Z", "2026-03-31T07:00:00.000Z"].flatMap((t) => [`r-a@${t}`, `r-b@${t}`]);
      expect([...ran].sort()).toEqual(expected.sort());
      expect(reports.filter((r) => r.outcome === "done")).toHaveLength(8);
      for (const id of ["r-a", "r-b"]) {
        const job = (await jobs().getOne(id))!;
        expect(job.nextRunAt).toBe("2026-04-01T07:00:00.000Z");
        expect(job.history.map((h) => h.scheduledFor)).toEqual(["2026-03-31T07:00:00.000Z", "2026-03-30T07:00:00.000Z", "2026-03-29T07:00:00.000Z", "2026-03-28T08:00:00.000Z"]);
      }
    } finally {
      await other.close();
    }
  }, 60_000);
}
