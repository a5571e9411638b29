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
 * targeting variant groups by category (with a placement filter) and is answered with the
 * category, productCategory and keyword lists.
 *
 * On the wire the names are the spec's, word for word: the campaign type term is `campaign_type`,
 * and measures read `displays, views, clicks, cost, quantity, sales`, where `cost` is in
 * micro-units of the currency (1 cent = 10,000: a CPM display costs a fraction of a cent) and
 * `sales` in cents, both integers. Inside the console the same figures are `Measures`
 * (`costMicros`, `salesCents`, the term `campaignType`): the functions below convert at the edge,
 * for the /api/metrics route and for the client of a retailer's own service.
 */
import { DIMENSIONS, type Dimension, type Histogram, type Measures } from "~/domain/metrics/metrics";
import { dayCount, isDay, MAX_PERIOD_DAYS, type Day } from "~/domain/metrics/periods";

export const HISTOGRAMS = ["hour", "day", "weekdayHour"] as const satisfies readonly Histogram[];

/** The longest period one request may cover (periods.ts: screens never ask for more), and the most values one filter may list. */
export { MAX_PERIOD_DAYS };
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

/** The measures of one row as the contract names them. */
export interface WireMeasures {
  displays: number;
  views: number;
  clicks: number;
  /** Micro-units of the currency. */
  cost: number;
  quantity: number;
  /** Cents. */
  sales: number;
}

/** Each term's name on the wire: the spec's, where it differs from the console's. */
const WIRE_TERM: Partial<Record<Dimension, string>> = { campaignType: "campaign_type" };
const TERM_OF_WIRE: Record<string, Dimension> = Object.fromEntries(DIMENSIONS.map((d) => [WIRE_TERM[d] ?? d, d]));
/** Read too, for callers written to the console's own names. */
const TERM_ALIASES: Record<string, Dimension> = { campaignType: "campaignType" };

export function wireTerm(term: Dimension): string {
  return WIRE_TERM[term] ?? term;
}

function termOfWire(name: unknown): Dimension | null {
  if (typeof name !== "string") return null;
  return Object.hasOwn(TERM_OF_WIRE, name) ? TERM_OF_WIRE[name]! : Object.hasOwn(TERM_ALIASES, name) ? TERM_ALIASES[name]! : null;
}

export function measuresToWire(m: Measures): WireMeasures {
  return { displays: m.displays, views: m.views, clicks: m.clicks, cost: m.costMicros, quantity: m.quantity, sales: m.salesCents };
}

/** A wire row's measures, each a non-negative integer; null when one is not. */
function measuresFromWire(row: unknown): Measures | null {
  if (!isRecord(row)) return null;
  const read = (name: keyof WireMeasures) => {
    const value = row[name] ?? 0;
    return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : null;
  };
  const [displays, views, clicks, cost, quantity, sales] = (["displays", "views", "clicks", "cost", "quantity", "sales"] as const).map(read);
  if ([displays, views, clicks, cost, quantity, sales].some((v) => v === null)) return null;
  return { displays: displays!, views: views!, clicks: clicks!, costMicros: cost!, quantity: quantity!, salesCents: sales! };
}

/** A request as the console sends it to a statistics service. */
export function requestToWire(request: MetricsRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { dateFrom: request.dateFrom, dateTo: request.dateTo };
  if (request.histogram) body.histogram = request.histogram;
  if (request.groups) body.groups = { terms: request.groups.terms.map(wireTerm), ...(request.groups.size !== undefined ? { size: request.groups.size } : {}) };
  if (request.filters) body.filters = { terms: Object.fromEntries(Object.entries(request.filters.terms).map(([term, values]) => [wireTerm(term as Dimension), values])) };
  return body;
}

/** An answer as a statistics service sends it. */
export function responseToWire(response: MetricsResponse): Record<string, unknown> {
  const body: Record<string, unknown> = { summary: measuresToWire(response.summary), newestEvent: response.newestEvent };
  if (response.histogram) body.histogram = response.histogram.map((row) => ({ bucket: row.bucket, ...measuresToWire(row) }));
  for (const term of DIMENSIONS) {
    const rows = response[term];
    if (rows) body[wireTerm(term)] = rows.map((row) => ({ key: row.key, ...measuresToWire(row) }));
  }
  return body;
}

/** Reads a statistics service's answer strictly; null when it is not a statistics object. */
export function parseMetricsResponse(body: unknown): MetricsResponse | null {
  if (!isRecord(body)) return null;
  const summary = measuresFromWire(body.summary);
  if (!summary) return null;
  const newestEvent = typeof body.newestEvent === "string" ? body.newestEvent : null;
  const response: MetricsResponse = { summary, newestEvent };
  if (body.histogram !== undefined) {
    if (!Array.isArray(body.histogram)) return null;
    const rows: HistogramRow[] = [];
    for (const row of body.histogram) {
      const m = measuresFromWire(row);
      if (!m || !isRecord(row) || typeof row.bucket !== "string") return null;
      rows.push({ bucket: row.bucket, ...m });
    }
    response.histogram = rows;
  }
  for (const term of DIMENSIONS) {
    const list = body[wireTerm(term)];
    if (list === undefined) continue;
    if (!Array.isArray(list)) return null;
    const rows: MeasuresRow[] = [];
    for (const row of list) {
      const m = measuresFromWire(row);
      if (!m || !isRecord(row) || typeof row.key !== "string") return null;
      rows.push({ key: row.key, ...m });
    }
    response[term] = rows;
  }
  return response;
}

/**
 * The lists a request's groups are answered with: each term's own, and for the targeting
 * variant (grouped by category) the product category and keyword lists too.
 */
export function answeredTerms(terms: readonly Dimension[]): Dimension[] {
  const out = [...terms];
  if (terms.includes("category")) for (const extra of ["productCategory", "keyword"] as const) if (!out.includes(extra)) out.push(extra);
  return out;
}

export type ParsedMetricsRequest = { ok: true; value: MetricsRequest } | { ok: false; reason: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

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
    const terms = isRecord(groups) && Array.isArray(groups.terms) ? groups.terms.map(termOfWire) : null;
    if (!isRecord(groups) || !terms || terms.some((t) => t === null)) return { ok: false, reason: "groups.terms must list dimensions" };
    if (terms.length > MAX_GROUPS) return { ok: false, reason: `at most ${MAX_GROUPS} group terms` };
    const size = groups.size;
    if (size !== undefined && (!Number.isInteger(size) || (size as number) < 1 || (size as number) > MAX_GROUP_ROWS)) return { ok: false, reason: "groups.size out of range" };
    request.groups = { terms: [...new Set(terms as Dimension[])], ...(size !== undefined ? { size: size as number } : {}) };
  }
  if (filters !== undefined && filters !== null) {
    if (!isRecord(filters) || !isRecord(filters.terms)) return { ok: false, reason: "filters.terms must be an object" };
    const terms: Partial<Record<Dimension, string[]>> = {};
    for (const [wireName, values] of Object.entries(filters.terms)) {
      const name = termOfWire(wireName);
      if (!name) return { ok: false, reason: `unknown filter ${wireName.slice(0, 40)}` };
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
