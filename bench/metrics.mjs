// The metrics store under a retailer's volume (issue 9 section 5): 2,000 campaigns x 90 days x 24
// hours x 3 placements = 12,960,000 hourly facts (200 teams, 400 wallets, devices spread), loaded
// into the embedded SQLite store through its applyBatch, then the screens' two heaviest reads
// timed inside the store: one campaign's 30 days (a daily histogram and three breakdowns) and every
// team over 90 days. `node bench/metrics.mjs [campaigns]` alone, or from `npm run bench`.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");

async function loadStore() {
  // The bundle sits inside the project so that its one external, better-sqlite3, resolves.
  const cache = path.join(root, "node_modules/.cache");
  fs.mkdirSync(cache, { recursive: true });
  const dir = fs.mkdtempSync(path.join(cache, "ads-bench-metrics-"));
  const outfile = path.join(dir, "store.mjs");
  await build({
    stdin: {
      contents: `export { SqliteMetricsStore } from "~/metrics/sqlite.server"; export { localDay, localHourAndWeekday, addDays } from "~/domain/metrics/periods";`,
      resolveDir: root,
      loader: "ts",
    },
    bundle: true,
    format: "esm",
    platform: "node",
    outfile,
    external: ["better-sqlite3"],
    alias: { "~": path.join(root, "app") },
    logLevel: "error",
  });
  return { dir, module: await import(pathToFileURL(outfile).href) };
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs the metrics bench; returns the Markdown lines of its section. */
export async function metricsBench({ campaigns = 2_000, days = 90 } = {}) {
  const { dir, module: m } = await loadStore();
  const file = path.join(dir, "metrics.db");
  const store = new m.SqliteMetricsStore(file);
  const timeZone = "Europe/Paris";
  const placements = [
    ["search", "sp"],
    ["plp", "sp"],
    ["pdp", "slider"],
  ];
  const devices = ["mobile", "desktop", "tablet", "unknown"];
  const end = Date.UTC(2026, 10, 24, 0, 0, 0);
  const start = end - days * 24 * 3_600_000;
  let facts = 0;
  const loadStarted = process.hrtime.bigint();
  for (let t = start; t < end; t += 24 * 3_600_000) {
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
    await store.applyBatch(`bench-${t}`, batch, new Date(t + 23 * 3_600_000).toISOString());
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
  const size = fs.statSync(file).size;
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
  const ms = (v) => v.toFixed(2);
  return [
    `## Metrics store (embedded SQLite, ${facts.toLocaleString("en-GB")} hourly facts)`,
    "",
    `${campaigns.toLocaleString("en-GB")} campaigns x ${days} days x 24 hours x 3 placements (200 teams, 400 wallets, 4 devices), loaded through applyBatch one day a batch into the store's roll-ups (app/metrics/grains.ts); times measured inside the store, in this process.`,
    "",
    "| what | p50 ms | p95 ms | goal |",
    "|---|---|---|---|",
    `| one campaign, 30 days: totals, daily histogram, device, slot and placement breakdowns (5 queries) | ${ms(percentile(campaignTimes, 50))} | ${ms(percentile(campaignTimes, 95))} | p95 <= 5 |`,
    `| every team, 90 days | ${ms(percentile(teamTimes, 50))} | ${ms(percentile(teamTimes, 95))} | p95 <= 10 |`,
    "",
    `Loading: ${loadSeconds.toFixed(0)} s for ${facts.toLocaleString("en-GB")} facts (${Math.round(facts / loadSeconds).toLocaleString("en-GB")} facts/s into the roll-ups); database file ${(size / 2 ** 30).toFixed(2)} GiB.`,
    "",
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const campaigns = Number(process.argv[2] ?? 2_000);
  console.log((await metricsBench({ campaigns })).join("\n"));
}
