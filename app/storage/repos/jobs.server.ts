/**
 * Scheduled work (ADR 21): one document per job holding its definition, its next run, the lease
 * of the run under way and its latest outcomes. Every change is a transaction that re-reads the
 * job, so of two workers claiming one job only one gets it (the other's transaction is retried
 * and finds it leased), and a lease holder whose lease was taken over can neither renew it nor
 * record its run.
 */
import {
  COLLECTIONS,
  fieldOps,
  JOB_HISTORY_SIZE,
  type DocumentStore,
  type Job,
  type JobData,
  type JobLease,
  type JobRunRecord,
  type JobsRepo,
  type Patch,
} from "~/storage/port";

const J = COLLECTIONS.job;
/** Firestore's most values in one `in` filter. */
const IN_LIMIT = 30;

/** JSON with sorted keys: Firestore does not keep the order of a map's keys. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const iso = (date: Date) => date.toISOString();

export function createJobsRepo(store: DocumentStore): JobsRepo {
  return {
    async getOne(id) {
      return store.get<JobData>(J, id);
    },

    async list(spec) {
      return store.query<JobData>(J, { limit: spec.limit, after: spec.after ?? null });
    },

    async save(id, definition, firstRun, now) {
      const title = definition.title ?? null;
      const params = definition.params ?? {};
      const stopped = definition.stopped ?? null;
      // A stopped job has no next run (ADR 54).
      const next = stopped ? null : firstRun;
      await store.transaction(async (tx) => {
        const job = await tx.get<JobData>(J, id);
        if (!job) {
          tx.create<JobData>(J, id, {
            kind: definition.kind,
            title,
            params,
            schedule: definition.schedule,
            nextRunAt: next ? iso(next) : null,
            lease: null,
            ...(next ? { claimableAt: iso(next) } : {}),
            lastRun: null,
            history: [],
            ...(stopped ? { stopped } : {}),
            created: iso(now),
            updated: iso(now),
          });
          return;
        }
        const scheduleChanged = stableJson(job.schedule) !== stableJson(definition.schedule);
        const stopChanged = stableJson(job.stopped ?? null) !== stableJson(stopped);
        if (!scheduleChanged && !stopChanged && job.kind === definition.kind && job.title === title && stableJson(job.params) === stableJson(params)) return;
        const patch: Patch<JobData> = { kind: definition.kind, title, params, schedule: definition.schedule, updated: iso(now) };
        if (stopChanged) patch.stopped = stopped ?? fieldOps.delete();
        // Stopped now, resumed, or a new schedule: the next run is the definition's.
        if (stopped ? stopChanged : scheduleChanged || stopChanged) {
          patch.nextRunAt = next ? iso(next) : null;
          // A run under way keeps its lease; its completion reads the new schedule (none once stopped).
          if (!job.lease) patch.claimableAt = next ? iso(next) : fieldOps.delete();
        }
        tx.update<JobData>(J, id, patch);
      });
      return (await store.get<JobData>(J, id))!;
    },

    async remove(id) {
      await store.delete(J, id);
    },

    async listClaimable(now, kinds, limit) {
      const found: Job[] = [];
      for (let i = 0; i < kinds.length; i += IN_LIMIT) {
        const page = await store.query<JobData>(J, {
          where: [
            ["kind", "in", kinds.slice(i, i + IN_LIMIT)],
            ["claimableAt", "<=", iso(now)],
          ],
          orderBy: { field: "claimableAt", direction: "asc" },
          limit,
        });
        found.push(...page.items);
      }
      return found.sort((a, b) => (a.claimableAt! < b.claimableAt! ? -1 : a.claimableAt! > b.claimableAt! ? 1 : 0)).slice(0, limit);
    },

    async claim(id, claim) {
      return store.transaction(async (tx) => {
        const job = await tx.get<JobData>(J, id);
        const now = claim.now.getTime();
        if (!job || !job.claimableAt || Date.parse(job.claimableAt) > now) return null;
        // A stopped job is never started again; a run of it under way may still be taken over.
        if (job.stopped && !job.lease) return null;
        const until = iso(new Date(now + claim.leaseMs));
        let lease: JobLease;
        if (job.lease) {
          // Its holder stopped renewing it (a crash, a stalled process): the same run again.
          lease = { ...job.lease, owner: claim.owner, token: claim.token, until, attempt: job.lease.attempt + 1, started: iso(claim.now) };
        } else {
          if (!job.nextRunAt) return null;
          const plan = claim.plan(job);
          lease = {
            owner: claim.owner,
            token: claim.token,
            until,
            scheduledFor: iso(plan.scheduledFor),
            runs: plan.runs,
            attempt: 1,
            started: iso(claim.now),
          };
        }
        tx.update<JobData>(J, id, { lease, claimableAt: until, updated: iso(claim.now) });
        return { ...job, lease, claimableAt: until, updated: iso(claim.now), version: job.version + 1 };
      });
    },

    async renew(id, token, until) {
      return store.transaction(async (tx) => {
        const job = await tx.get<JobData>(J, id);
        if (!job?.lease || job.lease.token !== token) return false;
        tx.update<JobData>(J, id, { lease: { ...job.lease, until: iso(until) }, claimableAt: iso(until) });
        return true;
      });
    },

    async complete(id, token, run, next) {
      return store.transaction(async (tx) => {
        const job = await tx.get<JobData>(J, id);
        if (!job?.lease || job.lease.token !== token) return false;
        const { scheduledFor, runs, attempt, owner, started } = job.lease;
        const record: JobRunRecord = { scheduledFor, runs, attempt, owner, started, ...run };
        const nextRun = job.stopped ? null : next(job);
        tx.update<JobData>(J, id, {
          lease: null,
          lastRun: record,
          history: [record, ...(job.history ?? [])].slice(0, JOB_HISTORY_SIZE),
          nextRunAt: nextRun ? iso(nextRun) : null,
          claimableAt: nextRun ? iso(nextRun) : fieldOps.delete(),
          updated: run.finished,
        });
        return true;
      });
    },
  };
}
