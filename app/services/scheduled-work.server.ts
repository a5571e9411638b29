/**
 * Scheduled work as Activity (/health, operators) shows it: each job by its translated name, its
 * schedule in words, its next and last run in the reader's time zone, the outcome of its last run
 * (or 'In progress' while one holds its lease) with the reason, and how long that run took; a
 * stopped job (ADR 54) says so in place of its next run, since when and why.
 */
import type { TFunction } from "i18next";
import { dateTimeFormat, numberFormat } from "~/domain/intl";
import { describeSchedule, isSchedule } from "~/domain/schedule";
import { getFixedT } from "~/services/i18n.server";
import { getStorage } from "~/services/storage.server";
import type { Job, JobOutcome } from "~/storage/port";

export const SCHEDULED_WORK_PAGE_SIZE = 50;

export interface ScheduledWorkFormat {
  locale: string;
  timeZone: string;
}

/** An instant for a <time> element: the machine value and the words. */
export interface TimeText {
  at: string;
  text: string;
}

export interface ScheduledWorkRow {
  id: string;
  name: string;
  schedule: string;
  nextRun: TimeText | null;
  lastRun: TimeText | null;
  /** Missed runs the last run stood for (merged), when more than one. */
  lastRunStoodFor: string | null;
  state: JobOutcome | "running" | "never";
  stateLabel: string;
  reason: string | null;
  duration: string | null;
  /** While the job is stopped (ADR 54): since when and why, in the reader's words; it has no next run. */
  stopped: { since: TimeText; reason: string } | null;
}

export interface ScheduledWork {
  rows: ScheduledWorkRow[];
  next: string | null;
}

function durationText(ms: number, locale: string): string {
  if (ms < 1_000) return numberFormat(locale, { style: "unit", unit: "millisecond", unitDisplay: "short", maximumFractionDigits: 0 }).format(ms);
  if (ms < 60_000) return numberFormat(locale, { style: "unit", unit: "second", unitDisplay: "short", maximumFractionDigits: 1 }).format(ms / 1000);
  return numberFormat(locale, { style: "unit", unit: "minute", unitDisplay: "short", maximumFractionDigits: 1 }).format(ms / 60_000);
}

/** A stored reason in the reader's words: an i18n key with its values, or (a last resort) its text. */
function reasonText(t: TFunction, reason: string | null, values: Record<string, string | number> | null): string | null {
  if (!reason) return null;
  return t(reason, { ...(values ?? {}), defaultValue: reason });
}

export function presentJob(job: Job, t: TFunction, format: ScheduledWorkFormat, now: Date): ScheduledWorkRow {
  const when = (iso: string): TimeText => ({
    at: iso,
    text: dateTimeFormat(format.locale, { dateStyle: "medium", timeStyle: "short", timeZone: format.timeZone }).format(new Date(iso)),
  });
  const kind = t(`activity.jobs.kinds.${job.kind}`, { defaultValue: t("activity.jobs.kinds.unknown") });
  const name = job.title ? t("activity.jobs.titled", { kind, title: job.title }) : kind;
  let schedule = t("activity.jobs.schedules.unknown");
  if (isSchedule(job.schedule)) {
    const words = describeSchedule(job.schedule, format);
    schedule = t(`activity.jobs.schedules.${words.key}`, words.values);
  }
  const running = !!job.lease && Date.parse(job.lease.until) > now.getTime();
  const last = job.lastRun;
  const state: ScheduledWorkRow["state"] = running ? "running" : (last?.outcome ?? "never");
  return {
    id: job.id,
    // A job asked for by hand ("Run now") beside the same work's schedule is named so.
    name: job.params?.manual === true ? t("activity.jobs.runNow", { name }) : name,
    schedule,
    nextRun: job.nextRunAt && !job.stopped ? when(job.nextRunAt) : null,
    lastRun: last ? when(last.started) : null,
    lastRunStoodFor: last && last.runs > 1 ? t("activity.jobs.stoodFor", { count: last.runs }) : null,
    state,
    stateLabel: t(`activity.jobs.outcomes.${state}`),
    reason: !running && last ? reasonText(t, last.reason, last.values) : null,
    duration: !running && last ? durationText(last.durationMs, format.locale) : null,
    stopped: job.stopped ? { since: when(job.stopped.at), reason: reasonText(t, job.stopped.reason, null) ?? "" } : null,
  };
}

/** One page of the scheduled work, by job (operators: the route checks the right). */
export async function scheduledWork(format: ScheduledWorkFormat, now: Date, after: string | null = null): Promise<ScheduledWork> {
  const jobs = getStorage().jobs;
  // A cursor edited by hand shows the first page.
  const page = await jobs.list({ limit: SCHEDULED_WORK_PAGE_SIZE, after }).catch((error) => {
    if (after && error instanceof RangeError) return jobs.list({ limit: SCHEDULED_WORK_PAGE_SIZE });
    throw error;
  });
  const t = await getFixedT(format.locale);
  return { rows: page.items.map((job) => presentJob(job, t, format, now)), next: page.next };
}
