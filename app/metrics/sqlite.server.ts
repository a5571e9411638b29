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
import { MEASURE_KEYS } from "~/domain/metrics/metrics";
import type { ApplyBatchResult, MetricsFact, MetricsQuery, MetricsRow, MetricsStore } from "~/metrics/port";
import { COLUMN, GRAINS, type Grain, grainAccepts, MEASURE_COLUMN } from "~/metrics/grains";
import { keyColumns, metricsRows, metricsSelect } from "~/metrics/select-sql";

function createIndexSql(grain: Grain, index: Grain["indexes"][number], i: number): string {
  return `CREATE INDEX ${grain.table}_i${i} ON ${grain.table} (${index.map((k) => COLUMN[k]).join(", ")})`;
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
  /** Prepared SELECTs by their SQL (compiling one costs more than running it on a page's campaigns). */
  private readonly selects = new Map<string, Database.Statement>();

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
      this.ensureLayout(grain);
      for (const [i, index] of grain.indexes.entries()) {
        this.db.exec(createIndexSql(grain, index, i).replace("CREATE INDEX ", "CREATE INDEX IF NOT EXISTS "));
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

  /**
   * Creates the grain's table, or rebuilds one written with an earlier layout (another key order,
   * another index) by copying its rows into the new one: a database of an earlier release is
   * read with today's keys.
   */
  private ensureLayout(grain: Grain) {
    const wanted = createTableSql(grain);
    const existing = this.db.prepare(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`).get(grain.table) as { sql: string } | undefined;
    if (!existing) {
      this.db.exec(wanted);
      return;
    }
    if (existing.sql === wanted.replace("CREATE TABLE IF NOT EXISTS ", "CREATE TABLE ")) {
      const indexes = this.db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`).all(grain.table) as { name: string; sql: string }[];
      const wantedIndexes = new Set(grain.indexes.map((index, i) => createIndexSql(grain, index, i)));
      for (const index of indexes) if (!wantedIndexes.has(index.sql)) this.db.exec(`DROP INDEX ${index.name}`);
      return;
    }
    const columns = [...keyColumns(grain), ...MEASURE_KEYS.map((m) => MEASURE_COLUMN[m])].join(", ");
    this.db.transaction(() => {
      this.db.exec(`ALTER TABLE ${grain.table} RENAME TO ${grain.table}_old`);
      this.db.exec(wanted);
      this.db.exec(`INSERT INTO ${grain.table} (${columns}) SELECT ${columns} FROM ${grain.table}_old`);
      this.db.exec(`DROP TABLE ${grain.table}_old`);
    }).immediate();
  }

  async applyBatch(batchId: string, facts: readonly MetricsFact[], newestEvent: string | null): Promise<ApplyBatchResult> {
    const apply = this.db.transaction((): ApplyBatchResult => {
      const inserted = this.db.prepare(`INSERT OR IGNORE INTO metrics_batch (id, applied) VALUES (?, ?)`).run(batchId, new Date().toISOString());
      if (inserted.changes === 0) return { applied: false, reason: "duplicate" };
      for (const grain of GRAINS) {
        const statement = this.upserts.get(grain.table)!;
        // One upsert per row of the grain (a batch's facts fold into far fewer team or wallet
        // days than it has facts), in key order, so neighbouring rows share their B-tree pages.
        const rows = new Map<string, (string | number)[]>();
        for (const fact of facts) {
          if (!grainAccepts(grain, fact)) continue;
          const keys: (string | number)[] = [...grain.time.map((t) => fact[t]), ...grain.dimensions.map((d) => fact[d])];
          const id = grain.primaryKey.map((k) => fact[k]).join("\u0000");
          const row = rows.get(id);
          if (row) MEASURE_KEYS.forEach((m, i) => ((row[keys.length + i] as number) += fact[m]));
          else rows.set(id, [...keys, ...MEASURE_KEYS.map((m) => fact[m])]);
        }
        for (const id of [...rows.keys()].sort()) statement.run(...rows.get(id)!);
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
    const params: (string | number)[] = [];
    const select = metricsSelect(query, {
      value: (value) => {
        params.push(value);
        return "?";
      },
      list: (values) => {
        if (!values.every((v) => typeof v === "string")) throw new TypeError("Not a list of strings");
        params.push(JSON.stringify(values));
        return "(SELECT value FROM json_each(?))";
      },
      table: (grain) => grain.table,
      weekdayHour: "weekday || '-' || local_hour",
    });
    if (!select) return [];
    return metricsRows(select, this.statement(select.sql).all(...params) as Record<string, string | number>[]);
  }

  /**
   * The prepared statement of a SELECT. Its text is built from fixed parts and placeholders only
   * (values are bound), so the distinct texts are few: one per grain, filter shape and number of
   * filter values; past 500 the cache stops growing.
   */
  private statement(sql: string): Database.Statement {
    let statement = this.selects.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      if (this.selects.size < 500) this.selects.set(sql, statement);
    }
    return statement;
  }

  async newestEvent(): Promise<string | null> {
    const row = this.statement(`SELECT value FROM metrics_state WHERE key = 'newestEvent'`).get() as { value: string } | undefined;
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
