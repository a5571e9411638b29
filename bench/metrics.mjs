// The metrics store under a retailer's volume (issue 9 section 5): 2,000 campaigns x 90 days x 24
// hours x 3 placements = 12,960,000 hourly facts (200 teams, 400 wallets, devices spread), loaded
// through applyBatch into the embedded SQLite store, then into ClickHouse (a clickhouse-server
// started on loopback as the tests start it, or CLICKHOUSE_URL), and the screens' two heaviest
// reads timed inside each store: one campaign's 30 days (a daily histogram and three breakdowns)
// and every team over 90 days. `node bench/metrics.mjs [campaigns]` alone, or from `npm run bench`.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { importTs } from "./bundle.mjs";
import { percentile } from "./measure.mjs";

function loadStore() {
  return importTs("metrics", {
    contents: [
      `export { SqliteMetricsStore } from "~/metrics/sqlite.server";`,
      `export { ClickHouseMetricsStore } from "~/metrics/clickhouse.server";`,
      `export { startClickHouse } from "./tests/integration/clickhouse-server";`,
      `export { localDay, localHourAndWeekday, addDays } from "~/domain/metrics/periods";`,
    ].join("\n"),
  });
}

/** The same facts for every store: one day a batch. */
function* dayBatches(m, { campaigns, days, start }) {
  const timeZone = "Europe/Paris";
  const placements = [
    ["search", "sp"],
    ["plp", "sp"],
    ["pdp", "slider"],
  ];
  const devices = ["mobile", "desktop", "tablet", "unknown"];
  for (let d = 0; d < days; d++) {
    const t = start + d * 24 * 3_600_000;
    const batch = [];
    for (let h = 0; h < 24; h++) {
      const hour = new Date(t + h * 3_600_000);
      const { hour: localHour, weekday } = m.localHourAndWeekday(hour, timeZone);
      const day = m.localDay(hour, timeZone);
      for (let c = 0; c < campaigns; c++) {
        for (const [placement, slot] of placements) {
          const displays = 20 + ((c * 7 + h * 13) % 90);
          const clicks = displays % 5;
          batch.push({
            hour: hour.toISOString(), day, localHour, weekday,
            team: `team-${c % 200}`, wallet: `wallet-${c % 400}`, campaign: `campaign-${c}`, campaignType: c % 4 === 0 ? "banner-ads" : "sponsored-products",
            placement, slot, device: devices[(c + h) % 4], product: "", keyword: "", category: "", productCategory: "",
            displays, views: Math.floor(displays * 0.7), clicks, costMicros: clicks * 450_000, quantity: clicks % 2, salesCents: (clicks % 2) * 2_999,
          });
        }
      }
    }
    yield { id: `bench-${t}`, batch, newest: new Date(t + 23 * 3_600_000).toISOString() };
  }
}

/** Loads the facts into a store and times the two reads; returns the figures. */
async function measureStore(m, store, { campaigns, days }) {
  const timeZone = "Europe/Paris";
  const end = Date.UTC(2026, 10, 24, 0, 0, 0);
  const start = end - days * 24 * 3_600_000;
  let facts = 0;
  const loadStarted = process.hrtime.bigint();
  for (const { id, batch, newest } of dayBatches(m, { campaigns, days, start })) {
    await store.applyBatch(id, batch, newest);
    facts += batch.length;
  }
  const loadSeconds = Number(process.hrtime.bigint() - loadStarted) / 1e9;
  const time = async (fn) => {
    const started = process.hrtime.bigint();
    await fn();
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  const lastDay = m.localDay(new Date(end - 3_600_000), timeZone);
  const from30 = m.addDays(lastDay, -29);
  const from90 = m.addDays(lastDay, -(days - 1));
  const campaignTimes = [];
  for (let i = 0; i < 60; i++) {
    const filters = { campaign: [`campaign-${(i * 37) % campaigns}`] };
    campaignTimes.push(
      await time(async () => {
        await store.query({ from: from30, to: lastDay, filters });
        await store.query({ from: from30, to: lastDay, filters, histogram: "day" });
        for (const term of ["device", "slot", "placement"]) await store.query({ from: from30, to: lastDay, filters, groupBy: [term] });
      }),
    );
  }
  const teamTimes = [];
  for (let i = 0; i < 30; i++) teamTimes.push(await time(() => store.query({ from: from90, to: lastDay, groupBy: ["team"] })));
  return { facts, loadSeconds, campaignTimes, teamTimes };
}

/** Runs the metrics bench; returns the Markdown lines of its section. */
export async function metricsBench({ campaigns = 2_000, days = 90 } = {}) {
  const { dir, module: m } = await loadStore();
  const file = path.join(dir, "metrics.db");
  const sqlite = new m.SqliteMetricsStore(file);
  console.log("Metrics store: embedded SQLite…");
  const onSqlite = await measureStore(m, sqlite, { campaigns, days });
  await sqlite.close();
  const size = fs.statSync(file).size;
  fs.rmSync(dir, { recursive: true, force: true });

  let onClickHouse = null;
  let clickhouseNote = "";
  const server = await m.startClickHouse();
  if (server) {
    try {
      const store = new m.ClickHouseMetricsStore(`${server.url}/ads_console_bench`);
      await store.clear();
      console.log("Metrics store: ClickHouse…");
      onClickHouse = await measureStore(m, store, { campaigns, days });
      const version = await (await fetch(`${server.url}/?query=${encodeURIComponent("SELECT version()")}`)).text();
      const bytes = await (await fetch(`${server.url}/?query=${encodeURIComponent("SELECT sum(bytes_on_disk) FROM system.parts WHERE active AND database = 'ads_console_bench'")}`)).text();
      clickhouseNote = `ClickHouse ${version.trim()} (a single server on loopback, its default settings), ${(Number(bytes) / 2 ** 20).toFixed(1)} MiB on disk after loading.`;
      await store.clear();
      await store.close();
    } finally {
      await server.stop();
    }
  } else {
    clickhouseNote = "ClickHouse: no clickhouse-server here, not measured.";
  }

  const ms = (v) => v.toFixed(2);
  const row = (what, name, times, goal) => `| ${what} | ${name} | ${ms(percentile(times, 50))} | ${ms(percentile(times, 95))} | ${goal} |`;
  const facts = onSqlite.facts;
  return [
    `## Metrics store (${facts.toLocaleString("en-GB")} hourly facts)`,
    "",
    `${campaigns.toLocaleString("en-GB")} campaigns x ${days} days x 24 hours x 3 placements (200 teams, 400 wallets, 4 devices), loaded through applyBatch one day a batch into each store's roll-ups (app/metrics/grains.ts); times measured inside the store, in this process (for ClickHouse, including its HTTP round trips).`,
    "",
    "| what | store | p50 ms | p95 ms | goal (embedded) |",
    "|---|---|---|---|---|",
    row("one campaign, 30 days: totals, daily histogram, device, slot and placement breakdowns (5 queries)", "embedded SQLite", onSqlite.campaignTimes, "p95 <= 5"),
    ...(onClickHouse ? [row("the same 5 queries", "ClickHouse", onClickHouse.campaignTimes, "reported")] : []),
    row("every team, 90 days", "embedded SQLite", onSqlite.teamTimes, "p95 <= 10"),
    ...(onClickHouse ? [row("every team, 90 days", "ClickHouse", onClickHouse.teamTimes, "reported")] : []),
    "",
    `Loading into SQLite: ${onSqlite.loadSeconds.toFixed(0)} s (${Math.round(facts / onSqlite.loadSeconds).toLocaleString("en-GB")} facts/s into the roll-ups); database file ${(size / 2 ** 30).toFixed(2)} GiB.`,
    ...(onClickHouse ? [`Loading into ClickHouse: ${onClickHouse.loadSeconds.toFixed(0)} s (${Math.round(facts / onClickHouse.loadSeconds).toLocaleString("en-GB")} facts/s). ${clickhouseNote}`] : [clickhouseNote]),
    "",
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const campaigns = Number(process.argv[2] ?? 2_000);
  console.log((await metricsBench({ campaigns })).join("\n"));
}
