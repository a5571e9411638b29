/**
 * The scheduler (ADR 21): durable jobs in storage, run by a worker loop in every console instance.
 * Kinds of work are registered by name with their handler and catch-up policy; a job is one
 * scheduled piece of work of a kind (the settlement of ad spend, a report, an alert).
 *
 * - A worker claims a due job by leasing it (app/storage/repos/jobs.server.ts): of two instances
 *   only one gets it. While the handler runs, the lease is renewed; if the process dies, the lease
 *   expires and another worker runs the same run again (at most MAX_ATTEMPTS times, then it is
 *   recorded as failed). A worker whose lease was taken over cannot record its run.
 * - After downtime, a kind that catches up `each` runs every missed run once, oldest first (a
 *   report of each missed period); one that `merge`s runs once for all of them (an alert).
 * - Times come from the injected clock, so tests move time; no HTTP here.
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import type { MessageValues } from "~/domain/message";
import { fail, ok, type Result } from "~/domain/result";
import { firstRun, isSchedule, nextRun, planRun, type CatchUp, type Schedule } from "~/domain/schedule";
import { getStorage } from "~/services/storage.server";
import { AlreadyExistsError, type Job, type JobDefinition, type JobOutcome, type Storage } from "~/storage/port";

/** What a handler is given for one run. */
export interface JobContext {
  jobId: string;
  kind: string;
  title: string | null;
  params: Record<string, unknown>;
  /** The run this is (under `merge`, the latest of the runs it stands for). */
  scheduledFor: Date;
  /** How many scheduled runs it stands for (more than 1 when missed runs merged). */
  runs: number;
  /** 1, or more when this run is taken over after an earlier attempt's lease expired. */
  attempt: number;
  /** The clock when the run started. */
  now: Date;
  /** Aborted when the lease was lost (another worker took the run over): stop early. */
  signal: AbortSignal;
}

/** How a run ended, as a handler says it: a use case's result, or an explicit outcome. */
export type JobResult = Result<unknown> | { outcome: JobOutcome; reason?: string; values?: MessageValues } | void;

export interface JobKind {
  /** The name jobs of this kind are stored under (and translated by: activity.jobs.kinds.<name>). */
  name: string;
  catchUp: CatchUp;
  /** How long a run may go without renewing its lease (default: the scheduler's). */
  leaseMs?: number;
  run(ctx: JobContext): Promise<JobResult>;
}

/** Reasons of the scheduler's own outcomes (i18n keys). */
export const JOB_REASONS = {
  error: "activity.jobs.reasons.error",
  interrupted: "activity.jobs.reasons.interrupted",
  unknownSchedule: "activity.jobs.reasons.unknownSchedule",
} as const;

/** What one run came to ('lost': its lease was taken over, so nothing was recorded). */
export interface RunReport {
  jobId: string;
  kind: string;
  scheduledFor: Date;
  runs: number;
  attempt: number;
  outcome: JobOutcome | "lost";
  reason: string | null;
  durationMs: number;
}

export interface SchedulerOptions {
  storage?: () => Storage;
  clock?: () => Date;
  /** This worker's name in leases (default: host, process and a random part). */
  owner?: string;
  /** Lease length (default 5 minutes); renewed every third of it while a run goes on. */
  leaseMs?: number;
  /** How often the loop looks for due jobs (default 1 s). */
  pollMs?: number;
  /** Runs at once per worker (default 2). */
  concurrency?: number;
  /** Tries of one run (after crashes) before it is recorded as failed (default 3). */
  maxAttempts?: number;
}

export interface Scheduler {
  readonly owner: string;
  register(kind: JobKind): void;
  /** Creates or changes a job; its next run is computed from the clock when it is new or its schedule changed. */
  schedule(id: string, definition: JobDefinition): Promise<Result<Job>>;
  unschedule(id: string): Promise<void>;
  /** Claims and runs due jobs until none is left (tests; bounded); what ran, in order of completion. */
  tick(): Promise<RunReport[]>;
  /** Starts the worker loop. */
  start(): void;
  /** Stops the loop and waits for the runs under way. */
  stop(): Promise<void>;
}

export const DEFAULT_LEASE_MS = 5 * 60_000;
export const DEFAULT_POLL_MS = 1_000;
export const MAX_ATTEMPTS = 3;
/** Runs per tick() at most, so a test with a wrong clock cannot loop for ever. */
const MAX_RUNS_PER_TICK = 1_000;

function log(level: "info" | "warn" | "error", msg: string, extra: Record<string, unknown>) {
  const line = JSON.stringify({ level, msg, ...extra });
  if (level === "info") console.log(line);
  else console.error(line);
}

/** A handler's result as an outcome to record. */
function outcomeOf(result: JobResult): { outcome: JobOutcome; reason: string | null; values: MessageValues | null } {
  if (!result) return { outcome: "done", reason: null, values: null };
  if ("ok" in result) return result.ok ? { outcome: "done", reason: null, values: null } : { outcome: "failed", reason: result.reason, values: result.values ?? null };
  return { outcome: result.outcome, reason: result.reason ?? null, values: result.values ?? null };
}

/** The next run after a finished one: from the job's schedule as it stands now (a schedule changed during the run already set it). */
function nextAfter(current: Job, claimedSchedule: Schedule, scheduledFor: Date): Date | null {
  try {
    if (JSON.stringify(current.schedule) !== JSON.stringify(claimedSchedule)) return current.nextRunAt ? new Date(current.nextRunAt) : null;
    return nextRun(current.schedule, scheduledFor);
  } catch {
    return null;
  }
}

/** Saves a job definition (checked) with its first run from `now`. */
export async function saveJob(storage: Storage, id: string, definition: JobDefinition, now: Date): Promise<Result<Job>> {
  if (!isSchedule(definition.schedule)) return fail("invalid", JOB_REASONS.unknownSchedule);
  const save = () => storage.jobs.save(id, definition, firstRun(definition.schedule, now), now);
  try {
    return ok(await save());
  } catch (error) {
    // Two instances defining the same job at boot: the second finds it created, and saves again.
    if (error instanceof AlreadyExistsError) return ok(await save());
    throw error;
  }
}

export function createScheduler(options: SchedulerOptions = {}): Scheduler {
  const storage = options.storage ?? getStorage;
  const clock = options.clock ?? (() => new Date());
  const owner = options.owner ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const defaultLeaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const concurrency = Math.max(1, options.concurrency ?? 2);
  const maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
  const kinds = new Map<string, JobKind>();
  const running = new Map<string, Promise<RunReport>>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = true;

  async function runClaimed(job: Job, kind: JobKind, leaseMs: number): Promise<RunReport> {
    const lease = job.lease!;
    const scheduledFor = new Date(lease.scheduledFor);
    const started = clock();
    let recorded: ReturnType<typeof outcomeOf>;
    if (lease.attempt > maxAttempts) {
      // Every earlier attempt stopped without a word (a crash, a process killed): give up on this run.
      recorded = { outcome: "failed", reason: JOB_REASONS.interrupted, values: { count: lease.attempt - 1 } };
    } else {
      const controller = new AbortController();
      const heartbeat = setInterval(() => {
        storage()
          .jobs.renew(job.id, lease.token, new Date(clock().getTime() + leaseMs))
          .then((held) => {
            if (!held) controller.abort();
          })
          .catch((error) => log("warn", "Job lease not renewed", { jobId: job.id, error: error instanceof Error ? error.message : String(error) }));
      }, Math.max(1_000, Math.floor(leaseMs / 3)));
      heartbeat.unref?.();
      try {
        recorded = outcomeOf(
          await kind.run({
            jobId: job.id,
            kind: job.kind,
            title: job.title,
            params: job.params ?? {},
            scheduledFor,
            runs: lease.runs,
            attempt: lease.attempt,
            now: started,
            signal: controller.signal,
          }),
        );
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        recorded = { outcome: "failed", reason: JOB_REASONS.error, values: { message: message.slice(0, 500) } };
      } finally {
        clearInterval(heartbeat);
      }
    }
    const finished = clock();
    const durationMs = Math.max(0, finished.getTime() - started.getTime());
    const completed = await storage().jobs.complete(
      job.id,
      lease.token,
      { finished: finished.toISOString(), durationMs, ...recorded },
      (current) => nextAfter(current, job.schedule, scheduledFor),
    );
    const report: RunReport = {
      jobId: job.id,
      kind: job.kind,
      scheduledFor,
      runs: lease.runs,
      attempt: lease.attempt,
      outcome: completed ? recorded.outcome : "lost",
      reason: recorded.reason,
      durationMs,
    };
    if (!completed) log("warn", "Job run not recorded: its lease was taken over", { jobId: job.id, owner, scheduledFor: lease.scheduledFor });
    else if (recorded.outcome !== "done") log("warn", "Job run did not finish", { jobId: job.id, outcome: recorded.outcome, reason: recorded.reason, values: recorded.values });
    return report;
  }

  /** Claims what this worker has room for and starts it; returns the runs started. */
  async function claimDue(): Promise<Promise<RunReport>[]> {
    const room = concurrency - running.size;
    if (room <= 0 || kinds.size === 0) return [];
    const now = clock();
    const due = await storage().jobs.listClaimable(now, [...kinds.keys()], room + running.size + 5);
    const started: Promise<RunReport>[] = [];
    for (const job of due) {
      if (started.length >= room) break;
      const kind = kinds.get(job.kind);
      if (!kind || running.has(job.id)) continue;
      const leaseMs = kind.leaseMs ?? defaultLeaseMs;
      try {
        const claimed = await storage().jobs.claim(job.id, {
          owner,
          token: randomUUID(),
          now,
          leaseMs,
          plan: (current) => planRun(current.schedule, new Date(current.nextRunAt!), now, kind.catchUp),
        });
        if (!claimed) continue;
        const run = runClaimed(claimed, kind, leaseMs).finally(() => running.delete(job.id));
        running.set(job.id, run);
        started.push(run);
      } catch (error) {
        log("error", "Job not claimed", { jobId: job.id, error: error instanceof Error ? error.message : String(error) });
      }
    }
    return started;
  }

  const scheduler: Scheduler = {
    owner,
    register(kind) {
      kinds.set(kind.name, kind);
    },
    schedule(id, definition) {
      return saveJob(storage(), id, definition, clock());
    },
    async unschedule(id) {
      await storage().jobs.remove(id);
    },
    async tick() {
      const reports: RunReport[] = [];
      while (reports.length < MAX_RUNS_PER_TICK) {
        const started = await claimDue();
        if (!started.length) {
          if (!running.size) break;
          await Promise.race(running.values());
          continue;
        }
        reports.push(...(await Promise.all(started)));
      }
      return reports;
    },
    start() {
      if (!stopped) return;
      stopped = false;
      const loop = async () => {
        try {
          await claimDue();
        } catch (error) {
          log("error", "Scheduler poll failed", { error: error instanceof Error ? error.message : String(error) });
        } finally {
          if (!stopped) {
            timer = setTimeout(loop, pollMs);
            timer.unref?.();
          }
        }
      };
      timer = setTimeout(loop, 0);
      timer.unref?.();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await Promise.allSettled([...running.values()]);
    },
  };
  return scheduler;
}

// ---------------------------------------------------------------------------------------------
// The process's scheduler (started at boot unless SCHEDULER=off; never under tests, which make
// their own with a fake clock).

const holder = globalThis as typeof globalThis & { __adsConsoleScheduler?: Scheduler };

/** The scheduler of this process: kinds are registered on it at boot. */
export function processScheduler(): Scheduler {
  holder.__adsConsoleScheduler ??= createScheduler();
  return holder.__adsConsoleScheduler;
}

/** Creates or changes a job of the process's scheduler (e.g. when a report is saved). */
export function scheduleJob(id: string, definition: JobDefinition): Promise<Result<Job>> {
  return processScheduler().schedule(id, definition);
}

export function unscheduleJob(id: string): Promise<void> {
  return processScheduler().unschedule(id);
}
