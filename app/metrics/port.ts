/**
 * The metrics store port: where ad events, rolled up by hour, are kept and summed for the
 * statistics screens. Two adapters implement it and one contract suite
 * (tests/integration/metrics.contract.ts) runs on both:
 *
 * - sqlite (app/metrics/sqlite.server.ts): the embedded default, in the console's own process,
 *   with its own database file; roll-ups at the grains the screens ask for (ADR 17).
 * - clickhouse (app/metrics/clickhouse.server.ts): for event volumes that outgrow one machine.
 *
 * Facts come in already rolled up by hour and by every dimension (the events service adds up a
 * batch of events); a batch is applied once, whatever the number of retries (its id is kept).
 * Days are the retailer's local calendar days, computed when a fact is made (the `day`, `hour`
 * of day and `weekday` fields), so a store never needs a time zone and a 23- or 25-hour day is
 * summed like any other.
 */
import type { Dimension, Histogram, Measures } from "~/domain/metrics/metrics";
import type { Day } from "~/domain/metrics/periods";

/** One hour of one combination of dimensions. */
export interface MetricsFact extends Measures {
  /** Start of the UTC hour, ISO ("2026-11-24T13:00:00.000Z"). */
  hour: string;
  /** The retailer's local day of that hour. */
  day: Day;
  /** The local wall-clock hour (0-23) and weekday (0 = Monday) of that hour. */
  localHour: number;
  weekday: number;
  team: string;
  wallet: string;
  campaign: string;
  campaignType: string;
  placement: string;
  slot: string;
  device: string;
  /** Set on facts of one product, keyword, category or product category ("" otherwise). */
  product: string;
  keyword: string;
  category: string;
  productCategory: string;
}

export type { Histogram };

export interface MetricsQuery {
  /** Local days, both included. */
  from: Day;
  to: Day;
  /** Each dimension's accepted values (a row matches one of them); an empty list matches nothing. */
  filters?: Partial<Record<Dimension, readonly string[]>>;
  /**
   * Each dimension's refused values (a row matching one is left out), with filters or without;
   * an empty list leaves nothing out. Any number of values: what /api/metrics leaves out of a
   * retailer's figures (the archived teams, ADR 51), however many there are.
   */
  exclude?: Partial<Record<Dimension, readonly string[]>>;
  /** The dimensions rows are grouped by, in order (none: one total row). */
  groupBy?: readonly Dimension[];
  histogram?: Histogram;
  /** At most this many rows, the largest cost first (a breakdown's top N); none: every row. */
  limit?: number;
}

export interface MetricsRow extends Measures {
  /** The value of each grouped dimension. */
  keys: Partial<Record<Dimension, string>>;
  /** With histogram 'hour': the UTC hour (ISO); 'day': the local day; 'weekdayHour': "w-h" (e.g. "0-13"). */
  bucket?: string;
}

export type ApplyBatchResult = { applied: true } | { applied: false; reason: "duplicate" };

export interface MetricsStore {
  readonly kind: "sqlite" | "clickhouse";
  /**
   * Adds a batch's facts, atomically and once: a batch id seen before changes nothing. Facts of
   * the same key add up. `newestEvent` is the time of the batch's newest event (ISO).
   */
  applyBatch(batchId: string, facts: readonly MetricsFact[], newestEvent: string | null): Promise<ApplyBatchResult>;
  /** Sums the facts a query selects. Rows with nothing in them are not returned. */
  query(query: MetricsQuery): Promise<MetricsRow[]>;
  /** The time of the newest event received (ISO), or null before the first. */
  newestEvent(): Promise<string | null>;
  /** Deletes everything (tests only). */
  clear(): Promise<void>;
  close(): Promise<void>;
}

export const FACT_DIMENSIONS = [
  "team",
  "wallet",
  "campaign",
  "campaignType",
  "placement",
  "slot",
  "device",
  "product",
  "keyword",
  "category",
  "productCategory",
] as const satisfies readonly Dimension[];
