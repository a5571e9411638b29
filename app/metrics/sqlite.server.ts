/**
 * The embedded metrics store: better-sqlite3, its own database file, in the console's process.
 *
 * Facts are rolled up on the way in into tables at the grains the screens ask for (ADR 17), each
 * keyed by all its dimensions so that a fact adds to its row (upsert): a query reads the smallest
 * table whose dimensions cover the query's groups and filters. A team's 90 days read ~100 rows a
 * team from `team_day`; one campaign's 30 days by hour read `campaign_hour` through its
 * (campaign, hour) key.
 *
 * Every value in SQL is bound as a parameter; table and column names come only from the fixed
 * lists below, never from input.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { Dimension, Measures } from "~/domain/metrics/metrics";
import { MEASURE_KEYS } from "~/domain/metrics/metrics";
import type { ApplyBatchResult, MetricsFact, MetricsQuery, MetricsRow, MetricsStore } from "~/metrics/port";
import { chooseGrain, GRAINS, type Grain, grainAccepts, SPARSE_DIMENSIONS } from "~/metrics/grains";

const COLUMN: Record<Dimension | "hour" | "day" | "localHour" | "weekday", string> = {
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
const MEASURE_COLUMN: Record<keyof Measures, string> = {
  displays: "displays",
  views: "views",
  clicks: "clicks",
  costMicros: "cost_micros",
  quantity: "quantity",
  salesCents: "sales_cents",
};

function keyColumns(grain: Grain): string[] {
  return [...grain.time.map((t) => COLUMN[t]), ...grain.dimensions.map((d) => COLUMN[d])];
}

function createTableSql(grain: Grain): string {
  const keys = keyColumns(grain);
  const keyDefs = keys.map((c) => `${c} ${c === "local_hour" || c === "weekday" ? "INTEGER" : "TEXT"} NOT NULL`);
  const measureDefs = MEASURE_KEYS.map((m) => `${MEASURE_COLUMN[m]} INTEGER NOT NULL DEFAULT 0`);
  return `CREATE TABLE IF NOT EXISTS ${grain.table} (${[...keyDefs, ...measureDefs].join(", ")}, PRIMARY KEY (${grain.primaryKey.map((k) => COLUMN[k]).join(", ")})) WITHOUT ROWID`;
}

export class SqliteMetricsStore implements MetricsStore {
  readonly kind = "sqlite" as const;
  private readonly db: Database.Database;
  private readonly upserts: Map<string, Database.Statement>;

  constructor(filename: string) {
    if (filename !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(filename)), { recursive: true });
    this.db = new Database(filename);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("busy_timeout = 5000");
    this.db.pragma("synchronous = NORMAL");
    this.db.exec(`CREATE TABLE IF NOT EXISTS metrics_batch (id TEXT PRIMARY KEY, applied TEXT NOT NULL) WITHOUT ROWID`);
    this.db.exec(`CREATE TABLE IF NOT EXISTS metrics_state (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID`);
    this.upserts = new Map();
    for (const grain of GRAINS) {
      this.db.exec(createTableSql(grain));
      for (const [i, index] of grain.indexes.entries()) {
        this.db.exec(`CREATE INDEX IF NOT EXISTS ${grain.table}_i${i} ON ${grain.table} (${index.map((k) => COLUMN[k]).join(", ")})`);
      }
      const keys = keyColumns(grain);
      const measures = MEASURE_KEYS.map((m) => MEASURE_COLUMN[m]);
      const all = [...keys, ...measures];
      this.upserts.set(
        grain.table,
        this.db.prepare(
          `INSERT INTO ${grain.table} (${all.join(", ")}) VALUES (${all.map(() => "?").join(", ")}) ` +
            `ON CONFLICT (${grain.primaryKey.map((k) => COLUMN[k]).join(", ")}) DO UPDATE SET ` +
            measures.map((c) => `${c} = ${c} + excluded.${c}`).join(", "),
        ),
      );
    }
  }

  async applyBatch(batchId: string, facts: readonly MetricsFact[], newestEvent: string | null): Promise<ApplyBatchResult> {
    const apply = this.db.transaction((): ApplyBatchResult => {
      const inserted = this.db.prepare(`INSERT OR IGNORE INTO metrics_batch (id, applied) VALUES (?, ?)`).run(batchId, new Date().toISOString());
      if (inserted.changes === 0) return { applied: false, reason: "duplicate" };
      for (const grain of GRAINS) {
        const statement = this.upserts.get(grain.table)!;
        for (const fact of facts) {
          if (!grainAccepts(grain, fact)) continue;
          const keys = [...grain.time.map((t) => fact[t]), ...grain.dimensions.map((d) => fact[d])];
          statement.run(...keys, ...MEASURE_KEYS.map((m) => fact[m]));
        }
      }
      if (newestEvent) {
        const current = this.db.prepare(`SELECT value FROM metrics_state WHERE key = 'newestEvent'`).get() as { value: string } | undefined;
        if (!current || Date.parse(current.value) < Date.parse(newestEvent)) {
          this.db.prepare(`INSERT INTO metrics_state (key, value) VALUES ('newestEvent', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(newestEvent);
        }
      }
      return { applied: true };
    });
    return apply.immediate();
  }

  async query(query: MetricsQuery): Promise<MetricsRow[]> {
    const grain = chooseGrain(query);
    const groupBy = query.groupBy ?? [];
    const where: string[] = ["day >= ?", "day <= ?"];
    const params: unknown[] = [query.from, query.to];
    for (const [dimension, values] of Object.entries(query.filters ?? {}) as [Dimension, readonly string[] | undefined][]) {
      if (!values) continue;
      if (values.length === 0) return [];
      where.push(`${COLUMN[dimension]} IN (${values.map(() => "?").join(", ")})`);
      params.push(...values);
    }
    for (const dimension of groupBy) if (SPARSE_DIMENSIONS.includes(dimension)) where.push(`${COLUMN[dimension]} <> ''`);
    const groupColumns = groupBy.map((d) => COLUMN[d]);
    let bucket: string | null = null;
    if (query.histogram === "hour") bucket = "hour";
    else if (query.histogram === "day") bucket = "day";
    else if (query.histogram === "weekdayHour") bucket = "weekday || '-' || local_hour";
    const selectKeys = [...groupColumns.map((c, i) => `${c} AS k${i}`), ...(bucket ? [`${bucket} AS bucket`] : [])];
    const sums = MEASURE_KEYS.map((m) => `SUM(${MEASURE_COLUMN[m]}) AS ${MEASURE_COLUMN[m]}`);
    const groups = [...groupColumns, ...(bucket ? [bucket] : [])];
    let sql = `SELECT ${[...selectKeys, ...sums].join(", ")} FROM ${grain.table} WHERE ${where.join(" AND ")}`;
    if (groups.length) sql += ` GROUP BY ${groups.join(", ")}`;
    sql += ` HAVING ${MEASURE_KEYS.map((m) => `SUM(${MEASURE_COLUMN[m]}) <> 0`).join(" OR ")}`;
    if (query.limit !== undefined) {
      sql += ` ORDER BY cost_micros DESC, displays DESC${groupColumns.length ? `, ${groupColumns.map((_, i) => `k${i}`).join(", ")}` : ""} LIMIT ?`;
      params.push(Math.max(0, Math.floor(query.limit)));
    } else if (groups.length) {
      sql += ` ORDER BY ${[...(bucket ? ["bucket"] : []), ...groupColumns.map((_, i) => `k${i}`)].join(", ")}`;
    }
    const rows = this.db.prepare(sql).all(...params) as Record<string, string | number>[];
    return rows.map((row) => {
      const keys: MetricsRow["keys"] = {};
      groupBy.forEach((d, i) => (keys[d] = String(row[`k${i}`])));
      const out: MetricsRow = { keys, displays: 0, views: 0, clicks: 0, costMicros: 0, quantity: 0, salesCents: 0 };
      for (const m of MEASURE_KEYS) out[m] = Number(row[MEASURE_COLUMN[m]]);
      if (bucket) out.bucket = String(row.bucket);
      return out;
    });
  }

  async newestEvent(): Promise<string | null> {
    const row = this.db.prepare(`SELECT value FROM metrics_state WHERE key = 'newestEvent'`).get() as { value: string } | undefined;
    return row?.value ?? null;
  }

  async clear(): Promise<void> {
    this.db.transaction(() => {
      for (const grain of GRAINS) this.db.exec(`DELETE FROM ${grain.table}`);
      this.db.exec(`DELETE FROM metrics_batch; DELETE FROM metrics_state;`);
    })();
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
