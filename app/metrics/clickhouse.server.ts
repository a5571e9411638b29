/**
 * The metrics store on ClickHouse, for event volumes that outgrow one machine (ADR 17). It keeps
 * the roll-up grains of the embedded store (app/metrics/grains.ts), runs the same SELECT
 * (app/metrics/select-sql.ts) and answers the same contract suite.
 *
 * Written for ClickHouse 18.16 (the version these machines install), through @clickhouse/client
 * over HTTP:
 * - 18.16 has no query parameters: every value goes through clickhouse-sql.ts's checks and
 *   quoting; names come from fixed lists only.
 * - Keep-alive is off: the server drops idle sockets after a few seconds, and an insert sent on a
 *   dropped socket fails.
 * - UInt64 sums come back as JSON numbers (`output_format_json_quote_64bit_integers=0`); cost sums
 *   stay exact below 2^53 micro-units (9 billion currency units).
 *
 * The write path: a batch's facts go in ONE insert into `metrics_in` (a Null table: it keeps
 * nothing) whose materialized views sum them into one SummingMergeTree per grain; merges add up
 * the rows of a key in the background, and every read sums anyway. The last view, by name (18.16
 * pushes views in name order), writes the batch's id into `metrics_batch`, so a batch found there
 * went in whole. A retried batch (the ad server's retry, or the console's after a timeout) is
 * answered as a duplicate. Within one process, two applies of one batch id wait for each other.
 * What this cannot make exact, and the embedded store can (one transaction): a server failure
 * part-way through the views of one insert, or two instances applying one batch id at the same
 * moment (ADR 17). The money never depends on it: spend is settled from the storage's batches.
 */
import { createClient, type ClickHouseClient } from "@clickhouse/client";
import { MEASURE_KEYS } from "~/domain/metrics/metrics";
import { identifier, quoteInteger, quoteString } from "~/metrics/clickhouse-sql";
import { COLUMN, GRAINS, MEASURE_COLUMN, type Grain } from "~/metrics/grains";
import type { ApplyBatchResult, MetricsFact, MetricsQuery, MetricsRow, MetricsStore } from "~/metrics/port";
import { FACT_DIMENSIONS } from "~/metrics/port";
import { keyColumns, metricsRows, metricsSelect } from "~/metrics/select-sql";

const MEASURES = MEASURE_KEYS.map((m) => MEASURE_COLUMN[m]);
const INPUT = "metrics_in";
const BATCHES = "metrics_batch";
/** Named to sort after every grain's view: the batch is marked only once its rows are in. */
const BATCH_VIEW = "mv_zz_batch";
/** ClickHouse's default max_query_size (bytes of a query's text it parses). */
const DEFAULT_MAX_QUERY_SIZE = 262_144;

function columnType(column: string): string {
  if (column === "day") return "Date";
  if (column === "local_hour" || column === "weekday") return "UInt8";
  return "String";
}

/** Only the facts of one product, or of one target, count in the product and target grains. */
function acceptsSql(grain: Grain): string {
  if (grain.requires === "product") return " WHERE product != ''";
  if (grain.requires === "target") return " WHERE keyword != '' OR category != '' OR product_category != ''";
  return "";
}

export class ClickHouseMetricsStore implements MetricsStore {
  readonly kind = "clickhouse" as const;
  private readonly client: ClickHouseClient;
  private readonly database: string;
  private ready: Promise<void> | null = null;
  private readonly inFlight = new Map<string, Promise<ApplyBatchResult>>();

  /** `url`: e.g. http://user:password@127.0.0.1:8123/ads_console (the path names the database). */
  constructor(url: string) {
    const parsed = new URL(url);
    this.database = identifier(decodeURIComponent(parsed.pathname.replace(/^\/+|\/+$/g, "")) || "ads_console");
    this.client = createClient({
      url: `${parsed.protocol}//${parsed.host}`,
      username: decodeURIComponent(parsed.username) || "default",
      password: decodeURIComponent(parsed.password),
      keep_alive: { enabled: false },
      request_timeout: 60_000,
      clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
    });
  }

  private name(table: string): string {
    return `${this.database}.${identifier(table)}`;
  }

  private async run(sql: string): Promise<void> {
    await this.client.command({ query: sql });
  }

  private async select<T>(sql: string): Promise<T[]> {
    // The server parses at most max_query_size bytes of a query (256 KiB by default): a long
    // exclusion list (thousands of archived teams) raises it for its own query only.
    const bytes = Buffer.byteLength(sql);
    const settings = bytes > DEFAULT_MAX_QUERY_SIZE - 1024 ? { clickhouse_settings: { max_query_size: String(bytes + 65_536) } } : {};
    const result = await this.client.query({ query: sql, format: "JSON", ...settings });
    return ((await result.json()) as { data: T[] }).data;
  }

  private init(): Promise<void> {
    this.ready ??= (async () => {
      await this.run(`CREATE DATABASE IF NOT EXISTS ${this.database}`);
      const factColumns = ["hour", "day", "local_hour", "weekday", ...FACT_DIMENSIONS.map((d) => COLUMN[d])];
      const inputColumns = [...factColumns.map((c) => `${c} ${columnType(c)}`), ...MEASURES.map((m) => `${m} UInt64`), "batch String", "newest String"];
      await this.run(`CREATE TABLE IF NOT EXISTS ${this.name(INPUT)} (${inputColumns.join(", ")}) ENGINE = Null`);
      for (const grain of GRAINS) {
        const keys = keyColumns(grain);
        const columns = [...keys.map((c) => `${c} ${columnType(c)}`), ...MEASURES.map((m) => `${m} UInt64`)];
        // Columns outside the key (a day's local hour and weekday) follow from the key's hour.
        await this.run(
          `CREATE TABLE IF NOT EXISTS ${this.name(grain.table)} (${columns.join(", ")}) ` +
            `ENGINE = SummingMergeTree((${MEASURES.join(", ")})) PARTITION BY toYYYYMM(day) ORDER BY (${grain.primaryKey.map((k) => COLUMN[k]).join(", ")})`,
        );
        await this.run(
          `CREATE MATERIALIZED VIEW IF NOT EXISTS ${this.name(`mv_${grain.table}`)} TO ${this.name(grain.table)} AS ` +
            `SELECT ${[...keys, ...MEASURES.map((m) => `sum(${m}) AS ${m}`)].join(", ")} FROM ${this.name(INPUT)}${acceptsSql(grain)} GROUP BY ${keys.join(", ")}`,
        );
      }
      await this.run(`CREATE TABLE IF NOT EXISTS ${this.name(BATCHES)} (id String, newest String, applied DateTime) ENGINE = ReplacingMergeTree() ORDER BY id`);
      await this.run(
        `CREATE MATERIALIZED VIEW IF NOT EXISTS ${this.name(BATCH_VIEW)} TO ${this.name(BATCHES)} AS ` +
          `SELECT batch AS id, max(newest) AS newest, now() AS applied FROM ${this.name(INPUT)} GROUP BY batch`,
      );
    })().catch((error) => {
      this.ready = null;
      throw error;
    });
    return this.ready;
  }

  private async applied(batchId: string): Promise<boolean> {
    const [row] = await this.select<{ n: number }>(`SELECT count() AS n FROM ${this.name(BATCHES)} WHERE id = ${quoteString(batchId)}`);
    return Number(row?.n ?? 0) > 0;
  }

  applyBatch(batchId: string, facts: readonly MetricsFact[], newestEvent: string | null): Promise<ApplyBatchResult> {
    const running = this.inFlight.get(batchId);
    if (running) return running.then(() => this.applyBatch(batchId, facts, newestEvent));
    const work = this.applyOnce(batchId, facts, newestEvent).finally(() => this.inFlight.delete(batchId));
    this.inFlight.set(batchId, work);
    return work;
  }

  private async applyOnce(batchId: string, facts: readonly MetricsFact[], newestEvent: string | null): Promise<ApplyBatchResult> {
    await this.init();
    if (await this.applied(batchId)) return { applied: false, reason: "duplicate" };
    const newest = newestEvent ?? "";
    if (facts.length === 0) {
      await this.client.insert({ table: this.name(BATCHES), format: "JSONEachRow", values: [{ id: batchId, newest, applied: Math.floor(Date.now() / 1000) }] });
      return { applied: true };
    }
    const values = facts.map((fact) => {
      const row: Record<string, string | number> = { hour: fact.hour, day: fact.day, local_hour: fact.localHour, weekday: fact.weekday, batch: batchId, newest };
      for (const d of FACT_DIMENSIONS) row[COLUMN[d]] = fact[d];
      for (const m of MEASURE_KEYS) row[MEASURE_COLUMN[m]] = fact[m];
      return row;
    });
    await this.client.insert({ table: this.name(INPUT), format: "JSONEachRow", values });
    return { applied: true };
  }

  async query(query: MetricsQuery): Promise<MetricsRow[]> {
    await this.init();
    const select = metricsSelect(query, {
      value: (value) => (typeof value === "number" ? quoteInteger(value) : quoteString(value)),
      list: (values) => `(${values.map(quoteString).join(", ")})`,
      table: (grain) => this.name(grain.table),
      weekdayHour: "concat(toString(weekday), '-', toString(local_hour))",
    });
    if (!select) return [];
    return metricsRows(select, await this.select<Record<string, string | number>>(select.sql));
  }

  async newestEvent(): Promise<string | null> {
    await this.init();
    const [row] = await this.select<{ at: string }>(`SELECT max(newest) AS at FROM ${this.name(BATCHES)} WHERE newest != ''`);
    return row?.at ? row.at : null;
  }

  async clear(): Promise<void> {
    await this.run(`DROP DATABASE IF EXISTS ${this.database}`);
    this.ready = null;
    await this.init();
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
