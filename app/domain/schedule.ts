/**
 * Schedules of scheduled work (ADR 21): once at an instant, every N seconds, or daily, weekly or
 * monthly at a local time of an IANA time zone, which is followed across daylight-saving changes:
 *
 * - a 09:00 Europe/Paris job runs at 08:00 UTC in winter and 07:00 UTC in summer;
 * - a local time that does not exist (the spring-forward gap: 02:30 on Paris's last Sunday of
 *   March) runs at the first valid instant after it (03:00, when the clocks jump);
 * - a local time that happens twice (the fall-back overlap) runs once, at its first instance;
 * - a monthly day past the month's end (31 in April) runs on the month's last day.
 *
 * And what to run after downtime, per kind of job: `each` missed run once each (a report of each
 * missed period) or the missed runs `merge`d into one (an alert says the state once).
 *
 * Pure: the zone's offsets come from the runtime's time zone data through @date-fns/tz.
 */
import { TZDate, tzOffset } from "@date-fns/tz";
import { dateTimeFormat } from "~/domain/intl";

export const SCHEDULE_TYPES = ["once", "every", "daily", "weekly", "monthly"] as const;
export type ScheduleType = (typeof SCHEDULE_TYPES)[number];

/** "HH:MM", 24-hour, of the schedule's time zone. */
export type LocalTime = string;

export type Schedule =
  | { type: "once"; at: string }
  | { type: "every"; seconds: number }
  | { type: "daily"; time: LocalTime; timeZone: string }
  /** ISO weekday: 1 = Monday … 7 = Sunday. */
  | { type: "weekly"; time: LocalTime; timeZone: string; weekday: number }
  /** Day of the month, 1 to 31 (past the month's end: its last day). */
  | { type: "monthly"; time: LocalTime; timeZone: string; day: number };

/** What runs after downtime: each missed run once, or the missed runs merged into one. */
export const CATCH_UP_POLICIES = ["each", "merge"] as const;
export type CatchUp = (typeof CATCH_UP_POLICIES)[number];

const TIME_RE = /^([01]\d|2[0-3]):([0-5]\d)$/;
const MINUTE = 60_000;
const DAY = 86_400_000;

export function isTimeZone(value: unknown): value is string {
  if (typeof value !== "string" || !value) return false;
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: value });
    return !Number.isNaN(tzOffset(value, new Date(0)));
  } catch {
    return false;
  }
}

export function isLocalTime(value: unknown): value is LocalTime {
  return typeof value === "string" && TIME_RE.test(value);
}

/** Whether a schedule is whole and valid (stored schedules are checked again when read). */
export function isSchedule(value: unknown): value is Schedule {
  if (typeof value !== "object" || value === null) return false;
  const s = value as Record<string, unknown>;
  switch (s.type) {
    case "once":
      return typeof s.at === "string" && !Number.isNaN(Date.parse(s.at));
    case "every":
      return Number.isInteger(s.seconds) && (s.seconds as number) >= 1;
    case "daily":
      return isLocalTime(s.time) && isTimeZone(s.timeZone);
    case "weekly":
      return isLocalTime(s.time) && isTimeZone(s.timeZone) && Number.isInteger(s.weekday) && (s.weekday as number) >= 1 && (s.weekday as number) <= 7;
    case "monthly":
      return isLocalTime(s.time) && isTimeZone(s.timeZone) && Number.isInteger(s.day) && (s.day as number) >= 1 && (s.day as number) <= 31;
    default:
      return false;
  }
}

interface CalendarDay {
  y: number;
  /** 1 to 12. */
  m: number;
  d: number;
}

function addCalendarDays(day: CalendarDay, n: number): CalendarDay {
  const date = new Date(Date.UTC(day.y, day.m - 1, day.d + n));
  return { y: date.getUTCFullYear(), m: date.getUTCMonth() + 1, d: date.getUTCDate() };
}

function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** ISO weekday (1 = Monday … 7 = Sunday) of a calendar day. */
function isoWeekday(day: CalendarDay): number {
  return ((new Date(Date.UTC(day.y, day.m - 1, day.d)).getUTCDay() + 6) % 7) + 1;
}

/** The calendar day of an instant in a time zone. */
function localDayOf(instant: Date, timeZone: string): CalendarDay {
  const local = new TZDate(instant.getTime(), timeZone);
  return { y: local.getFullYear(), m: local.getMonth() + 1, d: local.getDate() };
}

const offsetMs = (timeZone: string, t: number) => tzOffset(timeZone, new Date(t)) * MINUTE;

/**
 * The instant of a local day and time in a time zone. When the clocks jump over that time (the
 * spring-forward gap), the first valid instant after it: the jump itself. When it happens twice
 * (the fall-back overlap), the first of the two.
 */
export function localInstant(day: CalendarDay, time: LocalTime, timeZone: string): Date {
  const match = TIME_RE.exec(time);
  if (!match) throw new RangeError(`Not a local time: ${time}`);
  const wall = Date.UTC(day.y, day.m - 1, day.d, Number(match[1]), Number(match[2]));
  // The zone's offsets around that wall time (a day either side covers any change on the day).
  const offsets = [...new Set([offsetMs(timeZone, wall - DAY), offsetMs(timeZone, wall), offsetMs(timeZone, wall + DAY)])];
  const valid = offsets
    .map((o) => wall - o)
    .filter((t) => t + offsetMs(timeZone, t) === wall)
    .sort((a, b) => a - b);
  if (valid.length) return new Date(valid[0]!);
  // In a gap: before the change the earlier offset applies, after it the later one. The change
  // lies between those two readings of the wall time; find it to the second.
  let lo = wall - Math.max(...offsets);
  let hi = wall - Math.min(...offsets);
  const after = offsetMs(timeZone, hi);
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (offsetMs(timeZone, mid) === after) hi = mid;
    else lo = mid;
  }
  return new Date(hi);
}

/** The instants of one calendar day's run (none when a weekly or monthly schedule skips it). */
function runOn(schedule: Exclude<Schedule, { type: "once" } | { type: "every" }>, day: CalendarDay): Date | null {
  if (schedule.type === "weekly" && isoWeekday(day) !== schedule.weekday) return null;
  if (schedule.type === "monthly" && day.d !== Math.min(schedule.day, daysInMonth(day.y, day.m))) return null;
  return localInstant(day, schedule.time, schedule.timeZone);
}

/** The first run strictly after `after`, or null when none is left. */
export function nextRun(schedule: Schedule, after: Date): Date | null {
  const t = after.getTime();
  switch (schedule.type) {
    case "once": {
      const at = Date.parse(schedule.at);
      return at > t ? new Date(at) : null;
    }
    case "every": {
      // Aligned on multiples of the interval since the epoch: every instance agrees on the runs.
      const ms = schedule.seconds * 1000;
      return new Date((Math.floor(t / ms) + 1) * ms);
    }
    case "daily":
    case "weekly":
    case "monthly": {
      // From the day before the local day of `after` (its run may still be ahead in UTC terms),
      // a day at a time; a monthly run is at most 31 days after the previous one.
      const start = addCalendarDays(localDayOf(after, schedule.timeZone), -1);
      const horizon = schedule.type === "daily" ? 3 : schedule.type === "weekly" ? 9 : 63;
      for (let i = 0; i < horizon; i++) {
        const run = runOn(schedule, addCalendarDays(start, i));
        if (run && run.getTime() > t) return run;
      }
      return null;
    }
  }
}

/** A new job's first run: a once job's instant (run at once when past), else the next run from `now`. */
export function firstRun(schedule: Schedule, now: Date): Date | null {
  if (schedule.type === "once") return new Date(Date.parse(schedule.at));
  return nextRun(schedule, now);
}

/** Most missed runs counted one by one when merging (beyond it, the count says "at least"). */
export const MAX_MERGED_COUNT = 10_000;

export interface RunPlan {
  /** The run this start stands for. */
  scheduledFor: Date;
  /** How many scheduled runs it stands for (1, or more when missed runs merge). */
  runs: number;
}

/**
 * What to run now for a job whose next run `due` has come (due <= now): under `each`, that run
 * (the following missed ones come next, one by one); under `merge`, the latest run due, standing
 * for every run missed since `due`.
 */
export function planRun(schedule: Schedule, due: Date, now: Date, policy: CatchUp): RunPlan {
  if (policy === "each" || schedule.type === "once") return { scheduledFor: due, runs: 1 };
  if (schedule.type === "every") {
    const ms = schedule.seconds * 1000;
    const latest = Math.max(due.getTime(), Math.floor(now.getTime() / ms) * ms);
    return { scheduledFor: new Date(latest), runs: Math.min(MAX_MERGED_COUNT, Math.floor((latest - due.getTime()) / ms) + 1) };
  }
  let latest = due;
  let runs = 1;
  for (;;) {
    const next = nextRun(schedule, latest);
    if (!next || next.getTime() > now.getTime()) break;
    latest = next;
    if (++runs >= MAX_MERGED_COUNT) {
      // Years of a daily job missed: jump to the last run due without counting further.
      const last = lastRunAtOrBefore(schedule, now);
      if (last && last.getTime() > latest.getTime()) latest = last;
      break;
    }
  }
  return { scheduledFor: latest, runs };
}

/** The last run at or before `now` of a daily, weekly or monthly schedule. */
function lastRunAtOrBefore(schedule: Exclude<Schedule, { type: "once" } | { type: "every" }>, now: Date): Date | null {
  let candidate: Date | null = null;
  const start = addCalendarDays(localDayOf(now, schedule.timeZone), -62);
  for (let i = 0; i < 64; i++) {
    const run = runOn(schedule, addCalendarDays(start, i));
    if (run && run.getTime() <= now.getTime()) candidate = run;
  }
  return candidate;
}

/** The words of a schedule: an i18n key and its values, in the reader's locale. */
export interface ScheduleWords {
  key: string;
  values: Record<string, string | number>;
}

/** "09:00" as the locale writes a time of day. */
function timeWords(time: LocalTime, locale: string): string {
  const [h, m] = time.split(":").map(Number);
  return dateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", timeZone: "UTC" }).format(new Date(Date.UTC(2024, 0, 1, h, m)));
}

/** "Monday" in the locale (1 January 2024 was a Monday). */
function weekdayWords(weekday: number, locale: string): string {
  return dateTimeFormat(locale, { weekday: "long", timeZone: "UTC" }).format(new Date(Date.UTC(2024, 0, weekday)));
}

/** "Europe/Paris", "America/New York": the zone as people read its name. */
export function zoneWords(timeZone: string): string {
  return timeZone.replace(/_/g, " ");
}

/**
 * The schedule in words (keys under `activity.jobs.schedules`). A once job's instant is written in
 * the reader's time zone.
 */
export function describeSchedule(schedule: Schedule, reader: { locale: string; timeZone: string }): ScheduleWords {
  switch (schedule.type) {
    case "once":
      return {
        key: "once",
        values: {
          at: dateTimeFormat(reader.locale, { dateStyle: "long", timeStyle: "short", timeZone: reader.timeZone }).format(new Date(schedule.at)),
        },
      };
    case "every": {
      const s = schedule.seconds;
      if (s % 3600 === 0) return { key: "everyHours", values: { count: s / 3600 } };
      if (s % 60 === 0) return { key: "everyMinutes", values: { count: s / 60 } };
      return { key: "everySeconds", values: { count: s } };
    }
    case "daily":
      return { key: "daily", values: { time: timeWords(schedule.time, reader.locale), zone: zoneWords(schedule.timeZone) } };
    case "weekly":
      return {
        key: "weekly",
        values: { weekday: weekdayWords(schedule.weekday, reader.locale), time: timeWords(schedule.time, reader.locale), zone: zoneWords(schedule.timeZone) },
      };
    case "monthly":
      return {
        key: schedule.day > 28 ? "monthlyEnd" : "monthly",
        values: { day: schedule.day, time: timeWords(schedule.time, reader.locale), zone: zoneWords(schedule.timeZone) },
      };
  }
}
