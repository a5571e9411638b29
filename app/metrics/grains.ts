/**
 * The roll-up grains both metrics adapters keep (ADR 17), from the smallest table to the largest,
 * and the one rule that picks the table a query reads: the first whose dimensions cover the
 * query's groups and filters and whose time is fine enough for its histogram.
 */
import type { Dimension, Measures } from "~/domain/metrics/metrics";
import type { MetricsFact, MetricsQuery } from "~/metrics/port";

export type TimeKey = "hour" | "day" | "localHour" | "weekday";

export interface Grain {
  table: string;
  time: readonly TimeKey[];
  dimensions: readonly Dimension[];
  /** The row key (the upsert target); the first columns serve the common range reads. */
  primaryKey: readonly (Dimension | TimeKey)[];
  indexes: readonly (readonly (Dimension | TimeKey)[])[];
  /** Only facts of one product, or of one target (keyword, category, product category), count here. */
  requires?: "product" | "target";
}

const DAY: readonly TimeKey[] = ["day"];
const HOUR: readonly TimeKey[] = ["hour", "day", "localHour", "weekday"];

export const GRAINS: readonly Grain[] = [
  { table: "m_team_day", time: DAY, dimensions: ["team"], primaryKey: ["day", "team"], indexes: [["team", "day"]] },
  { table: "m_wallet_day", time: DAY, dimensions: ["team", "wallet"], primaryKey: ["day", "team", "wallet"], indexes: [["wallet", "day"]] },
  {
    // Keyed by campaign first: a list page's 25 campaigns over 30 days read 25 ranges of the
    // table itself, with no look-up from an index into it (3x faster, bench/RESULTS.md).
    table: "m_campaign_day",
    time: DAY,
    dimensions: ["team", "wallet", "campaign", "campaignType"],
    primaryKey: ["campaign", "day", "team", "wallet", "campaignType"],
    indexes: [["day"], ["wallet", "day"]],
  },
  {
    // A campaign's breakdowns over days (device, slot, placement) without reading its hours.
    table: "m_campaign_detail_day",
    time: DAY,
    dimensions: ["team", "wallet", "campaign", "campaignType", "placement", "slot", "device"],
    primaryKey: ["campaign", "day", "team", "wallet", "campaignType", "placement", "slot", "device"],
    indexes: [["day"]],
  },
  {
    table: "m_campaign_hour",
    time: HOUR,
    dimensions: ["team", "wallet", "campaign", "campaignType", "placement", "slot", "device"],
    primaryKey: ["campaign", "hour", "team", "wallet", "campaignType", "placement", "slot", "device"],
    indexes: [["day"], ["team", "day"]],
  },
  {
    table: "m_product_day",
    time: DAY,
    dimensions: ["team", "wallet", "campaign", "campaignType", "placement", "product"],
    primaryKey: ["campaign", "day", "product", "team", "wallet", "campaignType", "placement"],
    indexes: [["day"]],
    requires: "product",
  },
  {
    table: "m_target_day",
    time: DAY,
    dimensions: ["team", "wallet", "campaign", "campaignType", "placement", "keyword", "category", "productCategory"],
    primaryKey: ["campaign", "day", "keyword", "category", "productCategory", "team", "wallet", "campaignType", "placement"],
    indexes: [["day"]],
    requires: "target",
  },
];

export class UnsupportedMetricsQueryError extends Error {}

export function grainAccepts(grain: Grain, fact: MetricsFact): boolean {
  if (grain.requires === "product") return fact.product !== "";
  if (grain.requires === "target") return fact.keyword !== "" || fact.category !== "" || fact.productCategory !== "";
  return true;
}

/** The table a query reads. */
export function chooseGrain(query: MetricsQuery): Grain {
  const excluded = Object.entries(query.exclude ?? {}).filter(([, values]) => values?.length).map(([d]) => d as Dimension);
  const needed = new Set<Dimension>([...(query.groupBy ?? []), ...(Object.keys(query.filters ?? {}) as Dimension[]), ...excluded]);
  const needsHour = query.histogram === "hour" || query.histogram === "weekdayHour";
  const grain = GRAINS.find((g) => (!needsHour || g.time.includes("hour")) && [...needed].every((d) => g.dimensions.includes(d)));
  if (!grain) throw new UnsupportedMetricsQueryError(`No roll-up answers ${[...needed].join(", ")}${needsHour ? " by hour" : ""}`);
  return grain;
}

/** Grouped by one of these, a fact without a value (e.g. a display with no keyword) is left out. */
export const SPARSE_DIMENSIONS: readonly Dimension[] = ["product", "keyword", "category", "productCategory"];

/** The column of each dimension and time key in every adapter's tables. */
export const COLUMN: Record<Dimension | "hour" | "day" | "localHour" | "weekday", string> = {
  team: "team",
  wallet: "wallet",
  campaign: "campaign",
  campaignType: "campaign_type",
  placement: "placement",
  slot: "slot",
  device: "device",
  product: "product",
  keyword: "keyword",
  category: "category",
  productCategory: "product_category",
  hour: "hour",
  day: "day",
  localHour: "local_hour",
  weekday: "weekday",
};
/** The column of each measure. */
export const MEASURE_COLUMN: Record<keyof Measures, string> = {
  displays: "displays",
  views: "views",
  clicks: "clicks",
  costMicros: "cost_micros",
  quantity: "quantity",
  salesCents: "sales_cents",
};
