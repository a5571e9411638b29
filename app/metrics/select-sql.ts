/**
 * The one SELECT both SQL adapters of the metrics store run (SQLite and ClickHouse): the grain's
 * table, the period, the filters and exclusions, the groups and the histogram bucket, the sums, the rows without
 * anything left out, and the top-N order. Each adapter says only how a value is written into its
 * SQL (a bound parameter in SQLite, a checked and quoted literal in ClickHouse 18.16, which has no
 * parameters) and how the weekday-by-hour bucket is spelt. Names come from fixed lists only.
 */
import { MEASURE_KEYS, type Dimension } from "~/domain/metrics/metrics";
import { chooseGrain, COLUMN, type Grain, MEASURE_COLUMN, SPARSE_DIMENSIONS } from "~/metrics/grains";
import type { MetricsQuery, MetricsRow } from "~/metrics/port";

export interface SqlDialect {
  /** Writes a value into the SQL: a placeholder it binds, or a safe literal. */
  value(value: string | number): string;
  /**
   * Writes a list of any length for `NOT IN`, parentheses included: one bound JSON array read by
   * json_each in SQLite (no limit on the number of values a statement binds), checked and quoted
   * literals in ClickHouse.
   */
  list(values: readonly string[]): string;
  /** The table's name as the SQL names it (e.g. database.table). */
  table(grain: Grain): string;
  /** The "weekday-localHour" bucket, e.g. "0-13". */
  weekdayHour: string;
}

export interface MetricsSelect {
  sql: string;
  groupBy: readonly Dimension[];
  bucketed: boolean;
}

/** The SELECT of a query, or null when a filter accepts nothing (an empty list of values). */
export function metricsSelect(query: MetricsQuery, dialect: SqlDialect): MetricsSelect | null {
  const grain = chooseGrain(query);
  const groupBy = query.groupBy ?? [];
  const where = [`day >= ${dialect.value(query.from)}`, `day <= ${dialect.value(query.to)}`];
  for (const [dimension, values] of Object.entries(query.filters ?? {}) as [Dimension, readonly string[] | undefined][]) {
    if (!values) continue;
    if (values.length === 0) return null;
    where.push(`${COLUMN[dimension]} IN (${values.map((v) => dialect.value(v)).join(", ")})`);
  }
  for (const [dimension, values] of Object.entries(query.exclude ?? {}) as [Dimension, readonly string[] | undefined][]) {
    if (!values?.length) continue;
    if (!Object.hasOwn(COLUMN, dimension)) throw new RangeError(`Not a dimension: ${dimension}`);
    where.push(`${COLUMN[dimension]} NOT IN ${dialect.list(values)}`);
  }
  for (const dimension of groupBy) if (SPARSE_DIMENSIONS.includes(dimension)) where.push(`${COLUMN[dimension]} <> ''`);
  const groupColumns = groupBy.map((d) => COLUMN[d]);
  const keyAliases = groupColumns.map((_, i) => `k${i}`);
  let bucket: string | null = null;
  if (query.histogram === "hour") bucket = "hour";
  else if (query.histogram === "day") bucket = "day";
  else if (query.histogram === "weekdayHour") bucket = dialect.weekdayHour;
  const select = [
    ...groupColumns.map((c, i) => `${c} AS ${keyAliases[i]}`),
    ...(bucket ? [`${bucket} AS bucket`] : []),
    ...MEASURE_KEYS.map((m) => `SUM(${MEASURE_COLUMN[m]}) AS s_${MEASURE_COLUMN[m]}`),
  ];
  const groups = [...keyAliases, ...(bucket ? ["bucket"] : [])];
  let sql = `SELECT ${select.join(", ")} FROM ${dialect.table(grain)} WHERE ${where.join(" AND ")}`;
  if (groups.length) sql += ` GROUP BY ${groups.join(", ")}`;
  sql += ` HAVING ${MEASURE_KEYS.map((m) => `s_${MEASURE_COLUMN[m]} <> 0`).join(" OR ")}`;
  if (query.limit !== undefined) {
    sql += ` ORDER BY ${["s_cost_micros DESC", "s_displays DESC", ...keyAliases].join(", ")} LIMIT ${dialect.value(Math.max(0, Math.floor(query.limit)))}`;
  } else if (groups.length) {
    sql += ` ORDER BY ${[...(bucket ? ["bucket"] : []), ...keyAliases].join(", ")}`;
  }
  return { sql, groupBy, bucketed: bucket !== null };
}

/** The rows of that SELECT as the port returns them. */
export function metricsRows(select: MetricsSelect, rows: readonly Record<string, string | number>[]): MetricsRow[] {
  return rows.map((row) => {
    const keys: MetricsRow["keys"] = {};
    select.groupBy.forEach((d, i) => (keys[d] = String(row[`k${i}`])));
    const out: MetricsRow = { keys, displays: 0, views: 0, clicks: 0, costMicros: 0, quantity: 0, salesCents: 0 };
    for (const m of MEASURE_KEYS) out[m] = Number(row[`s_${MEASURE_COLUMN[m]}`]);
    if (select.bucketed) out.bucket = String(row.bucket);
    return out;
  });
}

/** The time and dimension columns of a grain's table, in the order of its definition. */
export function keyColumns(grain: Grain): string[] {
  return [...grain.time.map((t) => COLUMN[t]), ...grain.dimensions.map((d) => COLUMN[d])];
}
