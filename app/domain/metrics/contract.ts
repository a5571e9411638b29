/**
 * The /metrics contract of spec section 7: what the console asks a statistics service and what it
 * reads back. A request names a period (local days), an optional histogram, groups (each term is
 * its own breakdown, e.g. placement, device, slot) and filters (terms with their values). The
 * answer is a statistics object: the summary, the histogram, and one list per group term under
 * the term's own name (`team`, `wallet`, `campaign`, `product`, `keyword`, `category`,
 * `productCategory`, `placement`, `device`, `slot`, `campaignType`), each row with its key and
 * its measures.
 *
 * The spec's variants are requests of this shape: the team variant groups by team; byWallet and
 * byCampaign by wallet or campaign; the products variant by product without histogram; the
 * targeting variant by category, productCategory and keyword with a placement filter.
 */
import { DIMENSIONS, type Dimension, type Histogram, type Measures } from "~/domain/metrics/metrics";
import { dayCount, isDay, type Day } from "~/domain/metrics/periods";

export const HISTOGRAMS = ["hour", "day", "weekdayHour"] as const satisfies readonly Histogram[];

/** The longest period one request may cover, and the most values one filter may list. */
export const MAX_PERIOD_DAYS = 800;
export const MAX_FILTER_VALUES = 1_000;
export const MAX_GROUPS = 6;
/**
 * Rows per group at most (the top by cost): the hard limit of a statistics export, far past the
 * 10,000 rows a screen warns about (EXPORT_WARNING_ROWS), so an export lists every row.
 */
export const MAX_GROUP_ROWS = 100_000;

export interface MetricsRequest {
  dateFrom: Day;
  dateTo: Day;
  histogram?: Histogram;
  groups?: { terms: Dimension[]; size?: number };
  filters?: { terms: Partial<Record<Dimension, string[]>> };
}

export interface MeasuresRow extends Measures {
  key: string;
}

export interface HistogramRow extends Measures {
  bucket: string;
}

export type MetricsResponse = {
  summary: Measures;
  histogram?: HistogramRow[];
  /** Time of the newest event the service has received (ISO), or null. */
  newestEvent: string | null;
} & Partial<Record<Dimension, MeasuresRow[]>>;

export type ParsedMetricsRequest = { ok: true; value: MetricsRequest } | { ok: false; reason: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isDimension = (value: unknown): value is Dimension => typeof value === "string" && (DIMENSIONS as readonly string[]).includes(value);

/** Checks a request body strictly (it may come from any service holding a token). */
export function parseMetricsRequest(body: unknown): ParsedMetricsRequest {
  if (!isRecord(body)) return { ok: false, reason: "body must be an object" };
  const { dateFrom, dateTo, histogram, groups, filters } = body;
  if (!isDay(dateFrom) || !isDay(dateTo)) return { ok: false, reason: "dateFrom and dateTo must be days (YYYY-MM-DD)" };
  if (dateFrom > dateTo) return { ok: false, reason: "dateFrom is after dateTo" };
  if (dayCount({ from: dateFrom, to: dateTo }) > MAX_PERIOD_DAYS) return { ok: false, reason: `a period covers ${MAX_PERIOD_DAYS} days at most` };
  const request: MetricsRequest = { dateFrom, dateTo };
  if (histogram !== undefined && histogram !== null) {
    if (!(HISTOGRAMS as readonly string[]).includes(histogram as string)) return { ok: false, reason: "unknown histogram" };
    request.histogram = histogram as Histogram;
  }
  if (groups !== undefined && groups !== null) {
    if (!isRecord(groups) || !Array.isArray(groups.terms) || !groups.terms.every(isDimension)) return { ok: false, reason: "groups.terms must list dimensions" };
    if (groups.terms.length > MAX_GROUPS) return { ok: false, reason: `at most ${MAX_GROUPS} group terms` };
    const size = groups.size;
    if (size !== undefined && (!Number.isInteger(size) || (size as number) < 1 || (size as number) > MAX_GROUP_ROWS)) return { ok: false, reason: "groups.size out of range" };
    request.groups = { terms: [...new Set(groups.terms)], ...(size !== undefined ? { size: size as number } : {}) };
  }
  if (filters !== undefined && filters !== null) {
    if (!isRecord(filters) || !isRecord(filters.terms)) return { ok: false, reason: "filters.terms must be an object" };
    const terms: Partial<Record<Dimension, string[]>> = {};
    for (const [name, values] of Object.entries(filters.terms)) {
      if (!isDimension(name)) return { ok: false, reason: `unknown filter ${name.slice(0, 40)}` };
      if (!Array.isArray(values) || !values.every((v) => typeof v === "string" && v.length <= 200)) return { ok: false, reason: `filter ${name} must list strings` };
      if (values.length > MAX_FILTER_VALUES) return { ok: false, reason: `filter ${name} lists too many values` };
      terms[name] = [...new Set(values as string[])];
    }
    request.filters = { terms };
  }
  return { ok: true, value: request };
}

/**
 * What a caller may see: every team (null), or these teams only. A request is narrowed to it:
 * its team filter becomes the teams both name, so a token never reads another team's figures.
 */
export function scopeRequest(request: MetricsRequest, teams: readonly string[] | null): MetricsRequest {
  if (teams === null) return request;
  const asked = request.filters?.terms.team;
  const allowed = asked ? asked.filter((t) => teams.includes(t)) : [...teams];
  return { ...request, filters: { terms: { ...(request.filters?.terms ?? {}), team: allowed } } };
}
