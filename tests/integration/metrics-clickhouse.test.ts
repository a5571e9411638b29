import { afterAll, describe, expect, inject, it } from "vitest";
import { ClickHouseMetricsStore } from "~/metrics/clickhouse.server";
import { createMetricsStore } from "~/metrics/index.server";
import { fact, runMetricsContract } from "./metrics.contract";

// The server is started by the global setup (tests/integration/clickhouse-server.ts); null where
// clickhouse-server is not installed (never in CI, where npm test installs it).
const url = inject("clickhouseUrl");

runMetricsContract("clickhouse", async () => new ClickHouseMetricsStore(`${url}/ads_console_contract`), { skip: !url });

async function sql(query: string): Promise<string> {
  const response = await fetch(`${url}/`, { method: "POST", body: query });
  const text = await response.text();
  if (!response.ok) throw new Error(text);
  return text;
}

describe.skipIf(!url)("metrics store on ClickHouse", () => {
  const database = `ads_console_extra_${Date.now().toString(36)}`;
  const open = () => new ClickHouseMetricsStore(`${url}/${database}`);
  afterAll(async () => {
    await sql(`DROP DATABASE IF EXISTS ${database}`);
  });

  it("is the store METRICS_STORE=clickhouse names", () => {
    expect(createMetricsStore({ METRICS_STORE: "clickhouse", CLICKHOUSE_URL: `${url}/${database}` }).kind).toBe("clickhouse");
  });

  it("keeps the sums when the background merges add up the rows of a key", async () => {
    const store = open();
    await store.clear();
    for (let i = 0; i < 5; i++) await store.applyBatch(`merge-${i}`, [fact("2026-11-24T10:00:00Z", { displays: i + 1 }), fact("2026-11-24T10:00:00Z", { device: "mobile", displays: 1 })], null);
    const before = await store.query({ from: "2026-11-24", to: "2026-11-24", groupBy: ["device"] });
    expect(Number((await sql(`SELECT count() FROM ${database}.m_team_day`)).trim())).toBe(5);
    await sql(`OPTIMIZE TABLE ${database}.m_team_day FINAL`);
    await sql(`OPTIMIZE TABLE ${database}.m_campaign_detail_day FINAL`);
    // One row for the team's day now, and the same answers.
    expect(Number((await sql(`SELECT count() FROM ${database}.m_team_day`)).trim())).toBe(1);
    expect(await store.query({ from: "2026-11-24", to: "2026-11-24", groupBy: ["device"] })).toEqual(before);
    expect(before.map((r) => [r.keys.device, r.displays]).sort()).toEqual([["desktop", 15], ["mobile", 5]]);
    await store.close();
  });

  it("counts a batch once when it is applied twice at the same time, or again by another store", async () => {
    const store = open();
    await store.clear();
    const facts = [fact("2026-11-24T10:00:00Z", { displays: 7 })];
    const results = await Promise.all([store.applyBatch("same", facts, null), store.applyBatch("same", facts, null), store.applyBatch("same", facts, null)]);
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    const other = open();
    expect(await other.applyBatch("same", facts, null)).toEqual({ applied: false, reason: "duplicate" });
    expect((await other.query({ from: "2026-11-24", to: "2026-11-24" }))[0].displays).toBe(7);
    await Promise.all([store.close(), other.close()]);
  });

  it("marks a batch only once every grain took its rows: a grain that fails leaves it unmarked, for its retry", async () => {
    const store = open();
    await store.clear();
    // The last grain's table gone: its view fails after the others were written.
    await sql(`DROP TABLE ${database}.m_target_day`);
    await expect(store.applyBatch("broken", [fact("2026-11-24T10:00:00Z", { keyword: "tv" })], null)).rejects.toThrow();
    expect(Number((await sql(`SELECT count() FROM ${database}.metrics_batch WHERE id = 'broken'`)).trim())).toBe(0);
    await store.close();
  });

  it("marks a batch without accepted events, so its retry is a duplicate", async () => {
    const store = open();
    await store.clear();
    expect(await store.applyBatch("empty", [], null)).toEqual({ applied: true });
    expect(await store.applyBatch("empty", [], null)).toEqual({ applied: false, reason: "duplicate" });
    expect(await store.newestEvent()).toBeNull();
    await store.close();
  });
});
