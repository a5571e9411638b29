/**
 * The process's one metrics store, chosen by METRICS_STORE: "sqlite" (the default, embedded,
 * METRICS_DATABASE_URL, default $DATA_DIR/metrics.db) or "clickhouse" (CLICKHOUSE_URL, default
 * http://127.0.0.1:8123/ads_console; the path names the database).
 */
import { ClickHouseMetricsStore } from "~/metrics/clickhouse.server";
import type { MetricsStore } from "~/metrics/port";
import { SqliteMetricsStore } from "~/metrics/sqlite.server";

export type MetricsEnv = Readonly<Record<string, string | undefined>>;

export function createMetricsStore(env: MetricsEnv = process.env): MetricsStore {
  const kind = (env.METRICS_STORE || "sqlite").trim().toLowerCase();
  switch (kind) {
    case "sqlite": {
      const url = env.METRICS_DATABASE_URL || `${env.DATA_DIR || "./data"}/metrics.db`;
      return new SqliteMetricsStore(url.startsWith("file:") ? url.slice("file:".length) : url);
    }
    case "clickhouse":
      return new ClickHouseMetricsStore(env.CLICKHOUSE_URL || "http://127.0.0.1:8123/ads_console");
    default:
      throw new Error(`Unknown METRICS_STORE "${env.METRICS_STORE}": use "sqlite" or "clickhouse"`);
  }
}

const holder = globalThis as typeof globalThis & { __adsConsoleMetrics?: MetricsStore };

export function getMetricsStore(): MetricsStore {
  holder.__adsConsoleMetrics ??= createMetricsStore(process.env);
  return holder.__adsConsoleMetrics;
}

/** Tests swap the store (e.g. a fresh in-memory one). */
export function setMetricsStoreForTests(store: MetricsStore | undefined): void {
  holder.__adsConsoleMetrics = store;
}
