/**
 * Dayparting (spec section 3, issue 4 section 4): the days and hours a campaign runs, as a
 * day x hour grid read in the retailer's time zone. Pure: the instant and the zone are passed in.
 *
 * Readings:
 * - A grid with every hour of every day on is no restriction: it is stored as null.
 * - A grid with no hour at all would never run: the form refuses it ('campaignTargeting:errors.daypartingEmpty').
 * - An hour is the local wall-clock hour in the retailer's time zone (TZDate), so daylight-saving
 *   changes need no special case: on the spring-forward night the skipped hour (02:00 in Paris)
 *   never happens, and on the fall-back night the repeated hour (02:00) runs twice.
 * - Form cells are checkboxes named after the day and the hour: "mon-9", "sun-23".
 */
import { TZDate } from "@date-fns/tz";
import { WEEK_DAYS, type Dayparting, type WeekDay } from "~/domain/campaigns/campaign";

export const HOURS: readonly number[] = Array.from({ length: 24 }, (_, h) => h);

/** An hour's column heading, as the dayparting grid and the heatmap beside it show it: "09". */
export function hourLabel(hour: number): string {
  return String(hour).padStart(2, "0");
}

/** An hour as a time, for screen readers and cell labels: "09:00". */
export function hourTime(hour: number): string {
  return `${hourLabel(hour)}:00`;
}

/** The value of a grid cell's checkbox: "mon-9". */
export function cellValue(day: WeekDay, hour: number): string {
  return `${day}-${hour}`;
}

const CELL = /^(mon|tue|wed|thu|fri|sat|sun)-(\d{1,2})$/;

function isHour(h: unknown): h is number {
  return typeof h === "number" && Number.isInteger(h) && h >= 0 && h <= 23;
}

/** A full grid: every day, every hour. */
export function fullDayparting(): Dayparting {
  return Object.fromEntries(WEEK_DAYS.map((d) => [d, [...HOURS]])) as Dayparting;
}

/**
 * Hours sorted, de-duplicated and within 0..23, every day present; null when every hour of every
 * day is on (no restriction) or when there is no grid.
 */
export function normaliseDayparting(d: Partial<Record<WeekDay, readonly number[]>> | null | undefined): Dayparting | null {
  if (!d) return null;
  const out = Object.fromEntries(
    WEEK_DAYS.map((day) => [day, [...new Set((d[day] ?? []).filter(isHour))].sort((a, b) => a - b)]),
  ) as Dayparting;
  return WEEK_DAYS.every((day) => out[day].length === 24) ? null : out;
}

export type DaypartingParse = { ok: true; value: Dayparting | null } | { ok: false; reason: "campaignTargeting:errors.daypartingEmpty" };

/**
 * The grid from the checked cells of the form ("mon-9"…); unknown values are ignored. Every cell
 * checked: null (no restriction); none: refused.
 */
export function parseDaypartingForm(entries: readonly string[]): DaypartingParse {
  const grid = Object.fromEntries(WEEK_DAYS.map((d) => [d, [] as number[]])) as Dayparting;
  let any = false;
  for (const entry of entries) {
    const m = CELL.exec(entry.trim());
    if (!m) continue;
    const hour = Number(m[2]);
    if (!isHour(hour)) continue;
    grid[m[1] as WeekDay].push(hour);
    any = true;
  }
  if (!any) return { ok: false, reason: "campaignTargeting:errors.daypartingEmpty" };
  return { ok: true, value: normaliseDayparting(grid) };
}

/** The checked cells of a grid, in grid order (the form's values); null = every cell. */
export function daypartingEntries(d: Dayparting | null): string[] {
  const grid = normaliseDayparting(d) ?? fullDayparting();
  return WEEK_DAYS.flatMap((day) => grid[day].map((h) => cellValue(day, h)));
}

export interface DaypartingRow {
  day: WeekDay;
  /** Hours on. */
  count: number;
  cells: { hour: number; value: string; on: boolean }[];
}

/** The grid to render: one row per day, Monday first, 24 cells each. */
export function daypartingCells(d: Dayparting | null): DaypartingRow[] {
  const grid = normaliseDayparting(d) ?? fullDayparting();
  return WEEK_DAYS.map((day) => {
    const on = new Set(grid[day]);
    return {
      day,
      count: on.size,
      cells: HOURS.map((hour) => ({ hour, value: cellValue(day, hour), on: on.has(hour) })),
    };
  });
}

/** Weekday of a TZDate (getDay: 0 = Sunday) as a grid day. */
function weekDayOf(date: Date): WeekDay {
  return WEEK_DAYS[(date.getDay() + 6) % 7]!;
}

/** Whether the campaign runs at this instant: its local day and hour in the zone are on. */
export function isInDaypart(d: Dayparting | null, instant: Date, timeZone: string): boolean {
  if (!d) return true;
  const local = new TZDate(instant.getTime(), timeZone);
  return (d[weekDayOf(local)] ?? []).includes(local.getHours());
}

export interface DaypartingSummaryRow {
  day: WeekDay;
  /** Hours on that day. */
  count: number;
  /** Runs of consecutive hours: from (inclusive) to (exclusive), e.g. 9–17 = 09:00 to 17:00. */
  ranges: { from: number; to: number }[];
}

/** Hours per day and their runs, for display; null when there is no restriction. */
export function summariseDayparting(d: Dayparting | null): { days: DaypartingSummaryRow[]; totalHours: number } | null {
  const grid = normaliseDayparting(d);
  if (!grid) return null;
  const days = WEEK_DAYS.map((day) => {
    const hours = grid[day];
    const ranges: { from: number; to: number }[] = [];
    for (const h of hours) {
      const last = ranges[ranges.length - 1];
      if (last && last.to === h) last.to = h + 1;
      else ranges.push({ from: h, to: h + 1 });
    }
    return { day, count: hours.length, ranges };
  });
  return { days, totalHours: days.reduce((sum, r) => sum + r.count, 0) };
}
