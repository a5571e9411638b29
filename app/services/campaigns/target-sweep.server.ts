/**
 * The sweep of orphaned target chunks (ADR 33): chunk documents of campaigns that no longer exist
 * (campaigns deleted before a deletion removed its chunks, ADR 27) are deleted, a page at a time
 * through TargetsRepo.sweepOrphans. A scheduled job (ADR 21, `merge`: after downtime one sweep
 * stands for the missed ones), daily at 03:30 on the retailer's time. Safe to run again and
 * beside any edit: a chunk is only written with its campaign's document, whose id is never reused.
 */
import { ok, type Result } from "~/domain/result";
import { retailerTimeZone } from "~/services/retailer-settings.server";
import type { JobKind, Scheduler } from "~/services/scheduler.server";
import { getStorage } from "~/services/storage.server";

export const TARGET_SWEEP_JOB = "target-chunks-sweep";

/** Sweeps every page (stopping early when the run's lease is lost); how many chunks were removed. */
export async function sweepOrphanedTargetChunks(signal?: AbortSignal): Promise<Result<{ scanned: number; removed: number }>> {
  let after: string | null = null;
  let scanned = 0;
  let removed = 0;
  do {
    if (signal?.aborted) break;
    const page = await getStorage().targets.sweepOrphans({ after });
    scanned += page.scanned;
    removed += page.removed;
    after = page.next;
  } while (after);
  if (removed) console.log(JSON.stringify({ level: "info", msg: "Orphaned target chunks removed", scanned, removed }));
  return ok({ scanned, removed });
}

export const TARGET_SWEEP_KIND: JobKind = { name: TARGET_SWEEP_JOB, catchUp: "merge", run: ({ signal }) => sweepOrphanedTargetChunks(signal) };

/** Registers the daily sweep and keeps its job defined (boot, tests). */
export async function scheduleTargetSweepJob(scheduler: Scheduler): Promise<void> {
  scheduler.register(TARGET_SWEEP_KIND);
  const saved = await scheduler.schedule(TARGET_SWEEP_JOB, { kind: TARGET_SWEEP_JOB, schedule: { type: "daily", time: "03:30", timeZone: retailerTimeZone() } });
  if (!saved.ok) console.error(JSON.stringify({ level: "error", msg: "Target chunks sweep not scheduled", reason: saved.reason }));
}
