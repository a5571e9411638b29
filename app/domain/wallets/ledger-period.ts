/**
 * Days of the ledger, cut in the retailer's time zone (the retailer's time zone, never the
 * reader's, decides where a day starts). A period is two calendar days, both inclusive; the ledger is asked for the instants
 * [start of `from`, start of the day after `to`). Pure: `now` is passed in.
 */
import { TZDate } from "@date-fns/tz";
import { isDay } from "~/domain/metrics/periods";

/**
 * A real calendar day written yyyy-mm-dd, of the years 2000 to 2100 (metrics/periods' rule): a
 * hand-edited 9999-12-31 has no next day to read the ledger up to.
 */
export function isIsoDay(value: string): boolean {
  return isDay(value);
}

/** The calendar day `n` days after `day` (yyyy-mm-dd). */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** The instant a day starts in a time zone (its midnight, or the first instant after a DST gap). */
export function dayStart(day: string, timeZone: string): Date {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(new TZDate(y, m - 1, d, 0, 0, 0, 0, timeZone).getTime());
}

/** The calendar day an instant falls on in a time zone. */
export function dayOf(instant: Date, timeZone: string): string {
  const local = new TZDate(instant.getTime(), timeZone);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}`;
}

export interface Period {
  /** First day, inclusive (yyyy-mm-dd), or none. */
  from?: string;
  /** Last day, inclusive (yyyy-mm-dd), or none. */
  to?: string;
}

export interface PeriodInstants {
  /** Inclusive lower instant (ISO, UTC). */
  from?: string;
  /** Exclusive upper instant (ISO, UTC). */
  to?: string;
}

export type PeriodProblem = "period.invalidDate" | "period.reversed";

export type CheckPeriodResult = { ok: true; value: PeriodInstants } | { ok: false; reason: PeriodProblem; field: "from" | "to" };

/** The instants of a period of whole days in the retailer's time zone. */
export function periodInstants(period: Period, timeZone: string): CheckPeriodResult {
  if (period.from && !isIsoDay(period.from)) return { ok: false, reason: "period.invalidDate", field: "from" };
  if (period.to && !isIsoDay(period.to)) return { ok: false, reason: "period.invalidDate", field: "to" };
  if (period.from && period.to && period.from > period.to) return { ok: false, reason: "period.reversed", field: "to" };
  return {
    ok: true,
    value: {
      from: period.from ? dayStart(period.from, timeZone).toISOString() : undefined,
      to: period.to ? dayStart(addDays(period.to, 1), timeZone).toISOString() : undefined,
    },
  };
}

/** Today, in the retailer's time zone, as instants. */
export function todayInstants(now: Date, timeZone: string): Required<PeriodInstants> & { day: string } {
  const day = dayOf(now, timeZone);
  return { day, from: dayStart(day, timeZone).toISOString(), to: dayStart(addDays(day, 1), timeZone).toISOString() };
}
