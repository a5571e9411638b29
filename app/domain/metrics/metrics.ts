/**
 * Statistics: the measures the ad server's events add up to, the figures derived from them, and
 * the dimensions they are broken down by. One place derives CTR, CPC, spend and ROAS.
 *
 * Units: cost is in micro-units of the currency (one CPM display costs a fraction of a cent), so
 * sums stay exact integers; spend shown to users and debited from wallets is in cents; sales are
 * in cents.
 */
import type { Cents } from "~/domain/money";

/** Micro-units of the currency: 1 currency unit = 1,000,000; 1 cent = 10,000. */
export type Micros = number;
export const MICROS_PER_CENT = 10_000;

/** What events add up to. Every field is a non-negative integer. */
export interface Measures {
  displays: number;
  views: number;
  clicks: number;
  costMicros: Micros;
  /** Units sold (sale events' quantity). */
  quantity: number;
  salesCents: Cents;
}

export const MEASURE_KEYS = ["displays", "views", "clicks", "costMicros", "quantity", "salesCents"] as const satisfies readonly (keyof Measures)[];

export function zeroMeasures(): Measures {
  return { displays: 0, views: 0, clicks: 0, costMicros: 0, quantity: 0, salesCents: 0 };
}

export function addMeasures(into: Measures, add: Measures): Measures {
  for (const key of MEASURE_KEYS) into[key] += add[key];
  return into;
}

export function sumMeasures(rows: readonly Measures[]): Measures {
  const total = zeroMeasures();
  for (const row of rows) addMeasures(total, row);
  return total;
}

export function isZero(m: Measures): boolean {
  return MEASURE_KEYS.every((key) => m[key] === 0);
}

/** The spec's default metrics, in their order (spec section 9). */
export const METRICS = ["displays", "views", "clicks", "ctr", "cost", "sales", "roas"] as const;
export type Metric = (typeof METRICS)[number];
/** Further figures a table may show. */
export type Figure = Metric | "cpc" | "quantity";

/** Which impressions CTR divides clicks by: displays by default, or views as the retailer sets. */
export type CtrBase = "displays" | "views";

export interface Derived {
  displays: number;
  views: number;
  clicks: number;
  /** Clicks per impression, a ratio (0.0123 = 1.23 %); null without impressions. */
  ctr: number | null;
  /** Spend in cents, rounded half up from micros (what the user reads). */
  cost: Cents;
  /** Cost per click in cents; null without clicks. */
  cpc: Cents | null;
  sales: Cents;
  quantity: number;
  /** Sales per unit of spend, a ratio (3.2 = 320 %); null without spend. */
  roas: number | null;
}

/** Cents shown for an amount of micros: rounded half up. (Wallet debits round down and carry.) */
export function microsToCents(micros: Micros): Cents {
  return Math.floor((micros + MICROS_PER_CENT / 2) / MICROS_PER_CENT);
}

export function derive(m: Measures, ctrBase: CtrBase = "displays"): Derived {
  const impressions = ctrBase === "views" ? m.views : m.displays;
  const cost = microsToCents(m.costMicros);
  return {
    displays: m.displays,
    views: m.views,
    clicks: m.clicks,
    ctr: impressions > 0 ? m.clicks / impressions : null,
    cost,
    cpc: m.clicks > 0 ? Math.round(m.costMicros / m.clicks / MICROS_PER_CENT) : null,
    sales: m.salesCents,
    quantity: m.quantity,
    roas: m.costMicros > 0 ? m.salesCents / (m.costMicros / MICROS_PER_CENT) : null,
  };
}

/** Relative change of a figure against the comparison period; null when there is nothing to compare. */
export function change(current: number | null, previous: number | null): number | null {
  if (current === null || previous === null || previous === 0) return null;
  return (current - previous) / Math.abs(previous);
}

/** The figures that are amounts of money (or a ratio of two): never added up over several currencies. */
export const MONEY_METRICS: readonly Metric[] = ["cost", "sales", "roas"];

/**
 * The change a totals tile shows against the comparison period: none for money when the totals
 * add up several currencies (`currency` null), whose sums of euros and zlotys mean nothing, nor
 * when the comparison's money is in several or in another one (`previousCurrency` null or another
 * code; undefined: the totals' own).
 */
export function tileChange(
  metric: Metric,
  totals: Derived,
  previous: Derived | null,
  currency?: string | null,
  previousCurrency?: string | null,
): number | null {
  if (!previous) return null;
  if (MONEY_METRICS.includes(metric) && (currency === null || (previousCurrency !== undefined && previousCurrency !== currency))) return null;
  return change(totals[metric], previous[metric]);
}

/**
 * The currency of a comparison period's money: the one of the wallets it spent or sold through,
 * or null when they are several or unknown (`walletCurrencies` null); without any money, the
 * current period's (`current`), so nothing is set against it.
 */
export function comparisonCurrency(walletCurrencies: readonly string[] | null, current: string | null): string | null {
  if (walletCurrencies === null) return null;
  const set = new Set(walletCurrencies);
  if (set.size === 0) return current;
  return set.size === 1 ? [...set][0]! : null;
}

/** What statistics are broken down and filtered by (spec section 7's terms). */
export const DIMENSIONS = ["team", "wallet", "campaign", "campaignType", "placement", "slot", "device", "product", "keyword", "category", "productCategory"] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** How rows are bucketed in time: by UTC hour, by local day, or by local weekday and hour ("0-13"). */
export type Histogram = "hour" | "day" | "weekdayHour";

/** The breakdowns a campaign's screen draws (spec section 2). */
export const BREAKDOWNS = ["device", "slot", "placement", "campaignType"] as const satisfies readonly Dimension[];
export type Breakdown = (typeof BREAKDOWNS)[number];

export const EVENT_DEVICES = ["desktop", "mobile", "tablet", "app", "unknown"] as const;
export const EVENT_PLACEMENTS = ["home", "hub", "plp", "pdp", "search"] as const;
