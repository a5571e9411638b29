/**
 * Periods of statistics: the spec's date presets (section 9) turned into whole days of the
 * retailer's time zone, which is where days are cut (a day there may last 23 or 25 hours). A
 * period is a pair of local calendar days, both included: "2026-03-29" to "2026-03-29" is the
 * 23-hour Sunday of Paris's spring change.
 *
 * Readings: "last N days" are the N whole days before today (today is still being counted); "last
 * week" is the Monday-to-Sunday week before this one; "this month" and "this year" run to today.
 * The comparison period is the one of the same number of days that ends the day before.
 */
import { TZDate } from "@date-fns/tz";
import { dateTimeFormat } from "~/domain/intl";

export const PRESETS = [
  "today",
  "yesterday",
  "last7",
  "last30",
  "last90",
  "lastWeek",
  "thisMonth",
  "lastMonth",
  "thisYear",
  "lastYear",
  "custom",
  "walletLifetime",
  "campaignLifetime",
] as const;
export type Preset = (typeof PRESETS)[number];
export const DEFAULT_PRESET: Preset = "today";

/** The presets of a screen about many wallets and campaigns (the dashboard, a team's wallets): no lifetime of one. */
export const OVERVIEW_PRESETS: readonly Preset[] = PRESETS.filter((p) => p !== "walletLifetime" && p !== "campaignLifetime");
/** The presets of a campaign's screens: no wallet lifetime. */
export const CAMPAIGN_PRESETS: readonly Preset[] = PRESETS.filter((p) => p !== "walletLifetime");
/** The presets of a wallet's page: no campaign lifetime. */
export const WALLET_PRESETS: readonly Preset[] = PRESETS.filter((p) => p !== "campaignLifetime");

/** A local calendar day, "YYYY-MM-DD". */
export type Day = string;

export interface Period {
  from: Day;
  to: Day;
}

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isDay(value: unknown): value is Day {
  if (typeof value !== "string") return false;
  const m = DAY_RE.exec(value);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === value && Number(m[1]) >= 2000 && Number(m[1]) <= 2100;
}

function parts(day: Day): [number, number, number] {
  const m = DAY_RE.exec(day);
  if (!m) throw new RangeError(`Not a day: ${day}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

function fromUtcDate(date: Date): Day {
  return date.toISOString().slice(0, 10);
}

/** Calendar arithmetic on days (no time zone is involved in counting days). */
export function addDays(day: Day, n: number): Day {
  const [y, m, d] = parts(day);
  return fromUtcDate(new Date(Date.UTC(y, m - 1, d + n)));
}

/** Days from `from` to `to`, both included (1 for a single day). */
export function dayCount(period: Period): number {
  const [y1, m1, d1] = parts(period.from);
  const [y2, m2, d2] = parts(period.to);
  return Math.round((Date.UTC(y2, m2 - 1, d2) - Date.UTC(y1, m1 - 1, d1)) / 86_400_000) + 1;
}

/** Every day of the period, in order. */
export function daysOf(period: Period): Day[] {
  const out: Day[] = [];
  for (let day = period.from; day <= period.to; day = addDays(day, 1)) out.push(day);
  return out;
}

/** The local day of an instant in a time zone. */
export function localDay(instant: Date | number, timeZone: string): Day {
  const t = new TZDate(typeof instant === "number" ? instant : instant.getTime(), timeZone);
  return `${t.getFullYear()}-${String(t.getMonth() + 1).padStart(2, "0")}-${String(t.getDate()).padStart(2, "0")}`;
}

/** Whether a period ends before the day of `now` in the zone (its figures leave today out). */
export function endsBeforeToday(period: Period, now: Date | number, timeZone: string): boolean {
  return period.to < localDay(now, timeZone);
}

/** The local wall-clock hour (0-23) and weekday (0 = Monday … 6 = Sunday) of an instant. */
export function localHourAndWeekday(instant: Date | number, timeZone: string): { hour: number; weekday: number } {
  const t = new TZDate(typeof instant === "number" ? instant : instant.getTime(), timeZone);
  return { hour: t.getHours(), weekday: (t.getDay() + 6) % 7 };
}

/** The instant a local day starts at. */
export function dayStart(day: Day, timeZone: string): Date {
  const [y, m, d] = parts(day);
  return new Date(new TZDate(y, m - 1, d, 0, 0, 0, 0, timeZone).getTime());
}

/** The instants a period covers: [start of `from`, start of the day after `to`). */
export function periodBounds(period: Period, timeZone: string): { start: Date; end: Date } {
  return { start: dayStart(period.from, timeZone), end: dayStart(addDays(period.to, 1), timeZone) };
}

/** Monday of the ISO week of a day. */
function weekStart(day: Day): Day {
  const [y, m, d] = parts(day);
  const weekday = (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

export interface PresetContext {
  /** Now, as an instant. */
  now: Date;
  timeZone: string;
  /** For 'custom'. */
  custom?: Partial<Period>;
  /** For 'campaignLifetime': the campaign's start and end instants (ISO), when known. */
  campaign?: { startDate?: string | null; endDate?: string | null; created?: string | null };
  /** For 'walletLifetime': the wallet's first event (ISO) or, lacking one, its creation. */
  wallet?: { firstEvent?: string | null; created?: string | null };
}

/** What a campaign's lifetime preset needs of it. */
export function campaignPresetContext(campaign: { startDate?: string | null; endDate?: string | null; created?: string | null }): Pick<PresetContext, "campaign"> {
  return { campaign: { startDate: campaign.startDate, endDate: campaign.endDate, created: campaign.created } };
}

/** What a wallet's lifetime preset needs of it: it runs from its first ad spend (ADR 41), or its creation. */
export function walletPresetContext(wallet: { firstSpendAt?: string | null; created?: string | null }): Pick<PresetContext, "wallet"> {
  return { wallet: { firstEvent: wallet.firstSpendAt, created: wallet.created } };
}

/**
 * The longest period statistics cover: the /metrics contract's limit (a statistics service
 * refuses longer ones), so a screen never asks for more.
 */
export const MAX_PERIOD_DAYS = 800;

/** A period cut to its last MAX_PERIOD_DAYS days (a custom period from 2000, a lifetime of years). */
export function boundPeriod(period: Period): Period {
  return dayCount(period) > MAX_PERIOD_DAYS ? { from: addDays(period.to, -(MAX_PERIOD_DAYS - 1)), to: period.to } : period;
}

/** The period a preset names, in the retailer's days; never after today, never longer than MAX_PERIOD_DAYS. */
export function resolvePreset(preset: Preset, ctx: PresetContext): Period {
  return boundPeriod(resolveUnbounded(preset, ctx));
}

function resolveUnbounded(preset: Preset, ctx: PresetContext): Period {
  const today = localDay(ctx.now, ctx.timeZone);
  const clamp = (p: Period): Period => {
    const to = p.to > today ? today : p.to;
    const from = p.from > to ? to : p.from;
    return { from, to };
  };
  switch (preset) {
    case "today":
      return { from: today, to: today };
    case "yesterday": {
      const y = addDays(today, -1);
      return { from: y, to: y };
    }
    case "last7":
    case "last30":
    case "last90": {
      const n = preset === "last7" ? 7 : preset === "last30" ? 30 : 90;
      return { from: addDays(today, -n), to: addDays(today, -1) };
    }
    case "lastWeek": {
      const monday = addDays(weekStart(today), -7);
      return { from: monday, to: addDays(monday, 6) };
    }
    case "thisMonth":
      return { from: `${today.slice(0, 7)}-01`, to: today };
    case "lastMonth": {
      const first = `${today.slice(0, 7)}-01`;
      const lastOfPrevious = addDays(first, -1);
      return { from: `${lastOfPrevious.slice(0, 7)}-01`, to: lastOfPrevious };
    }
    case "thisYear":
      return { from: `${today.slice(0, 4)}-01-01`, to: today };
    case "lastYear": {
      const year = Number(today.slice(0, 4)) - 1;
      return { from: `${year}-01-01`, to: `${year}-12-31` };
    }
    case "custom": {
      const from = isDay(ctx.custom?.from) ? ctx.custom.from : today;
      const to = isDay(ctx.custom?.to) ? ctx.custom.to : today;
      return clamp(from <= to ? { from, to } : { from: to, to: from });
    }
    case "campaignLifetime": {
      const start = ctx.campaign?.startDate ?? ctx.campaign?.created;
      const end = ctx.campaign?.endDate;
      const from = start ? localDay(new Date(start), ctx.timeZone) : today;
      const to = end ? localDay(new Date(end), ctx.timeZone) : today;
      return clamp({ from, to });
    }
    case "walletLifetime": {
      const start = ctx.wallet?.firstEvent ?? ctx.wallet?.created;
      return clamp({ from: start ? localDay(new Date(start), ctx.timeZone) : today, to: today });
    }
  }
}

/** The comparison period: as many days, ending the day before the period starts. */
export function previousPeriod(period: Period): Period {
  const n = dayCount(period);
  const to = addDays(period.from, -1);
  return { from: addDays(to, -(n - 1)), to };
}

/** Whether a histogram of the period is drawn by hour (a single day) or by day. */
export function histogramUnit(period: Period): "hour" | "day" {
  return dayCount(period) === 1 ? "hour" : "day";
}

/** What a statistics screen's URL says about its period: `?period=last7&from=…&to=…&compare=1`. */
export interface PeriodChoice {
  preset: Preset;
  period: Period;
  /** The comparison period, when asked for. */
  previous: Period | null;
  /** The custom bounds as typed (kept in the form when another preset is chosen). */
  custom: { from: Day | ""; to: Day | "" };
  /** The period asked for was longer than MAX_PERIOD_DAYS: `period` is its last days. */
  shortened: boolean;
}

/**
 * The URL names of a period: `period`, `from`, `to`, `compare`, or with a prefix (a page whose own
 * `from` and `to` mean something else, such as a wallet's ledger filter) `statsPeriod`, `statsFrom`…
 */
export function periodParamNames(prefix = ""): { period: string; from: string; to: string; compare: string } {
  const name = (base: string) => (prefix ? `${prefix}${base[0]!.toUpperCase()}${base.slice(1)}` : base);
  return { period: name("period"), from: name("from"), to: name("to"), compare: name("compare") };
}

export interface PeriodSearchOptions {
  /** The preset of a URL that names none (default today, spec section 9). */
  defaultPreset?: Preset;
  /** See periodParamNames. */
  prefix?: string;
}

export function periodFromSearch(
  params: URLSearchParams,
  ctx: Omit<PresetContext, "custom">,
  allowed: readonly Preset[] = PRESETS,
  options: PeriodSearchOptions = {},
): PeriodChoice {
  const names = periodParamNames(options.prefix);
  const fallback = options.defaultPreset && allowed.includes(options.defaultPreset) ? options.defaultPreset : DEFAULT_PRESET;
  const named = params.get(names.period);
  const preset = (allowed as readonly string[]).includes(named ?? "") ? (named as Preset) : fallback;
  const from = params.get(names.from) ?? "";
  const to = params.get(names.to) ?? "";
  const custom = { from: isDay(from) ? from : "", to: isDay(to) ? to : "" } as PeriodChoice["custom"];
  const asked = resolveUnbounded(preset, { ...ctx, custom: { from: custom.from || undefined, to: custom.to || undefined } });
  const period = boundPeriod(asked);
  const compareValue = params.get(names.compare);
  const compare = compareValue === "1" || compareValue === "on";
  return { preset, period, previous: compare ? previousPeriod(period) : null, custom, shortened: period.from !== asked.from };
}

/**
 * Every bucket of a period's histogram, in order: for 'hour' the start of each hour of its local
 * days as a UTC ISO instant (24 a day, 23 or 25 on a day the clocks change), for 'day' each local
 * day. The buckets a statistics service answers are those with figures only; these are the ones a
 * chart and a table show, each with zeros when it has none. Hours that start after `now` (the
 * rest of today) are not buckets yet.
 */
export function histogramBuckets(period: Period, unit: "hour" | "day", timeZone: string, now = Infinity): string[] {
  if (unit === "day") return daysOf(period);
  const { start, end } = periodBounds(period, timeZone);
  const out: string[] = [];
  for (let t = start.getTime(); t < end.getTime() && t <= now; t += 3_600_000) out.push(new Date(t).toISOString());
  return out;
}

/**
 * The names of hour buckets (UTC ISO starts) as a table, chart or CSV shows them: `label` of each
 * (its local time, e.g. "02:00"); where two buckets read the same (the hour the clocks go back,
 * 25 October 2026 in Paris) each of them also names its offset from UTC ("02:00 (GMT+2)",
 * "02:00 (GMT+1)"), so they are told apart.
 */
export function hourBucketLabels(buckets: readonly string[], label: (bucket: string) => string, locale: string, timeZone: string): string[] {
  const labels = buckets.map(label);
  const seen = new Map<string, number>();
  for (const name of labels) seen.set(name, (seen.get(name) ?? 0) + 1);
  const offset = dateTimeFormat(locale, { timeZone, timeZoneName: "shortOffset" });
  const offsetOf = (bucket: string) => offset.formatToParts(new Date(bucket)).find((part) => part.type === "timeZoneName")?.value ?? "";
  return labels.map((name, i) => (seen.get(name)! > 1 ? `${name} (${offsetOf(buckets[i]!)})` : name));
}

/**
 * A histogram with every bucket of the period (histogramBuckets), those without a row given
 * `zero()`'s figures. Rows outside the period are dropped; an hour bucket is matched by its
 * instant, whatever ISO spelling the service used.
 */
export function fillHistogram<Row extends { bucket: string }>(
  rows: readonly Row[],
  period: Period,
  unit: "hour" | "day",
  timeZone: string,
  zero: (bucket: string) => Row,
  now = Infinity,
): Row[] {
  const keyOf = (bucket: string) => {
    if (unit === "day") return bucket.slice(0, 10);
    const t = Date.parse(bucket);
    return Number.isNaN(t) ? bucket : new Date(t).toISOString();
  };
  const byBucket = new Map(rows.map((row) => [keyOf(row.bucket), row]));
  const buckets = histogramBuckets(period, unit, timeZone, now);
  // A bucket with figures is kept even when the clock says it has not started (clocks differ).
  const every = new Set(histogramBuckets(period, unit, timeZone));
  const shown = new Set(buckets);
  for (const key of byBucket.keys()) if (every.has(key) && !shown.has(key)) buckets.push(key);
  buckets.sort();
  return buckets.map((bucket) => {
    const row = byBucket.get(bucket);
    return row ? { ...row, bucket } : zero(bucket);
  });
}

/**
 * What a period is compared with. A period over (it ends before today) is compared with the whole
 * previous period. A period still under way (it runs to today: today, this month, this year, a
 * lifetime, a custom period to today) has only part of today behind it, so it is compared with
 * the same elapsed part of the previous period: its days before the last in full, and its last day
 * up to as long after its start as now is after today's start (today 00:00-01:26 against
 * yesterday 00:00-01:26; on a 23- or 25-hour day the time elapsed, not the clock, is matched).
 */
export interface Comparison {
  previous: Period;
  /** For a period under way: the previous period's last day ends at `until` (ISO instant). */
  partial: { whole: Period | null; lastDay: Day; until: string } | null;
}

export function comparisonOf(period: Period, now: Date | number, timeZone: string): Comparison {
  const previous = previousPeriod(period);
  const today = localDay(now, timeZone);
  if (period.to < today) return { previous, partial: null };
  const nowMs = typeof now === "number" ? now : now.getTime();
  const elapsed = nowMs - dayStart(today, timeZone).getTime();
  const lastStart = dayStart(previous.to, timeZone).getTime();
  const lastEnd = dayStart(addDays(previous.to, 1), timeZone).getTime();
  const until = new Date(Math.min(lastEnd, lastStart + elapsed)).toISOString();
  const whole = previous.from < previous.to ? { from: previous.from, to: addDays(previous.to, -1) } : null;
  return { previous, partial: { whole, lastDay: previous.to, until } };
}

/**
 * The figures of hour buckets (UTC ISO starts) before `until`: whole hours in full, the hour
 * `until` falls in by its elapsed share (figures are counted by the hour, not the minute),
 * rounded to whole units.
 */
export function sumHoursUntil<K extends string, M extends Record<K, number>>(rows: readonly ({ bucket: string } & Record<K, number>)[], until: string, keys: readonly K[], zero: () => M): M {
  const end = Date.parse(until);
  const out = zero();
  for (const row of rows) {
    const start = Date.parse(row.bucket);
    const share = Math.max(0, Math.min(1, (end - start) / 3_600_000));
    if (share > 0) for (const key of keys) (out as Record<K, number>)[key] += row[key] * share;
  }
  for (const key of keys) (out as Record<K, number>)[key] = Math.round(out[key]);
  return out;
}
