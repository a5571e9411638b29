// POST /api/metrics called with a retailer's identity token once some teams are archived (ADR 51):
// 2,000 teams, 10 of them archived, 30 days of figures (one a team a day), and the route's action
// called in process with real Requests (token checked, body read, scope read from storage, the
// metrics store queried, the answer written), each call timed (wall and CPU). Two bodies: the
// dashboard's (30 days by team, a daily histogram) and one day's totals.
//
// `node bench/metrics-api.mjs [teams] [archived] [calls]`; embedded SQLite for both stores by
// default. METRICS_STORE=clickhouse: the figures in a clickhouse-server started as the tests start
// it (or CLICKHOUSE_URL). STORAGE=firestore with FIRESTORE_EMULATOR_HOST: the teams in the emulator.
// Not part of `npm run bench`.
import fs from "node:fs";
import os from "node:os";
import { importTs } from "./bundle.mjs";
import { percentile, time, useBenchStore } from "./measure.mjs";

const [teamCount = 2_000, archivedCount = 10, calls = 60] = process.argv.slice(2).map(Number);
const DAYS = 30;
const TZ = "Europe/Paris";

const storageKind = process.env.STORAGE === "firestore" ? "firestore" : "sqlite";
const metricsKind = process.env.METRICS_STORE === "clickhouse" ? "clickhouse" : "sqlite";
const dataDir = useBenchStore("metrics-api", {
  STORAGE: storageKind,
  SEED_DEMO_DATA: "false",
  SEED_DEMO_CAMPAIGNS: "false",
  SIMULATE_TRAFFIC: "false",
  PUBLIC_URL: "http://bench.test",
  ...(storageKind === "firestore" ? { FIRESTORE_PROJECT_ID: `bench-metrics-api-${Date.now()}`, METADATA_SERVER_DETECTION: "none" } : {}),
});
delete process.env.METRICS_STORE;

const { dir, module: m } = await importTs("metrics-api", {
  contents: [
    `export { initStorage, closeStorage } from "~/storage/index.server";`,
    `export { newTeamInput } from "~/services/seed.server";`,
    `export { action } from "~/routes/api.metrics";`,
    `export { mintIdentityToken } from "~/services/identity-token.server";`,
    `export { getMetricsStore, setMetricsStoreForTests } from "~/metrics/index.server";`,
    `export { ClickHouseMetricsStore } from "~/metrics/clickhouse.server";`,
    `export { startClickHouse } from "./tests/integration/clickhouse-server";`,
    `export { localDay, localHourAndWeekday, addDays } from "~/domain/metrics/periods";`,
    `export * as service from "~/services/metrics.server";`,
  ].join("\n"),
});

let clickhouse = null;
if (metricsKind === "clickhouse") {
  clickhouse = await m.startClickHouse();
  if (!clickhouse) throw new Error("no clickhouse-server here");
  const store = new m.ClickHouseMetricsStore(`${clickhouse.url}/ads_console_bench_api`);
  await store.clear();
  m.setMetricsStoreForTests(store);
}

const storage = await m.initStorage();
const metrics = m.getMetricsStore();

// The teams: `archivedCount` of them archived, created through the repository (20 at a time).
const started = Date.now();
const teamIds = [];
for (let i = 0; i < teamCount; i += 20) {
  const made = await Promise.all(
    Array.from({ length: Math.min(20, teamCount - i) }, (_, k) =>
      storage.teams.create(m.newTeamInput({ name: `Bench advertiser ${i + k}`, status: i + k < archivedCount ? "archived" : "active" }), { by: "system" }),
    ),
  );
  teamIds.push(...made.map((t) => t.id));
}
console.log(`${teamCount} teams (${archivedCount} archived) in ${((Date.now() - started) / 1000).toFixed(1)} s on ${storageKind}`);

// The figures: one fact a team a day at 12:00 UTC, one batch a day.
const lastDay = m.localDay(new Date(), TZ);
const firstDay = m.addDays(lastDay, -(DAYS - 1));
for (let d = 0; d < DAYS; d++) {
  const day = m.addDays(firstDay, d);
  const hour = new Date(`${day}T12:00:00.000Z`);
  const { hour: localHour, weekday } = m.localHourAndWeekday(hour, TZ);
  const facts = teamIds.map((team, t) => ({
    hour: hour.toISOString(), day, localHour, weekday,
    team, wallet: `wallet-${t}`, campaign: `campaign-${t}`, campaignType: "sponsored-products",
    placement: "search", slot: "sp", device: "desktop", product: "", keyword: "", category: "", productCategory: "",
    displays: 100 + (t % 50), views: 70, clicks: 3, costMicros: 1_350_000, quantity: 1, salesCents: 2_999,
  }));
  await metrics.applyBatch(`bench-${day}`, facts, hour.toISOString());
}

const retailer = { id: "bench-retailer", claims: { type: "retailer", role: "ADMIN" }, teamIds: [] };
const token = await m.mintIdentityToken(retailer);

async function call(body) {
  const request = new Request("http://bench.test/api/metrics", {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const response = await m.action({ request, params: {}, context: {} });
  if (response.status !== 200) throw new Error(`answered ${response.status}: ${await response.text()}`);
  return response.json();
}

const bodies = {
  "dashboard: 30 days by team, daily histogram": { dateFrom: firstDay, dateTo: lastDay, histogram: "day", groups: { terms: ["team"], size: 500 } },
  "one day's totals": { dateFrom: lastDay, dateTo: lastDay },
};
const rows = [];
for (const [name, body] of Object.entries(bodies)) {
  const check = await call(body);
  const expected = teamCount - archivedCount;
  if (check.team && check.team.length !== Math.min(500, expected)) throw new Error(`expected ${expected} teams, got ${check.team.length}`);
  for (let i = 0; i < 5; i++) await call(body);
  const wall = [];
  const cpu = [];
  for (let i = 0; i < calls; i++) {
    const { ms, cpuMs } = await time(() => call(body));
    wall.push(ms);
    cpu.push(cpuMs);
  }
  rows.push({ name, wall, cpu, displays: check.summary.displays });
}

// The scope's read alone (what the call reads from storage before it queries the figures).
const scopeOf = m.service.tokenScope ?? m.service.tokenTeamsScope;
for (let i = 0; i < 5; i++) await scopeOf({ accountType: "retailer", teams: null });
const scopeWall = [];
const scopeCpu = [];
for (let i = 0; i < calls; i++) {
  const { ms, cpuMs } = await time(() => scopeOf({ accountType: "retailer", teams: null }));
  scopeWall.push(ms);
  scopeCpu.push(cpuMs);
}
rows.push({ name: `the scope alone (${m.service.tokenScope ? "tokenScope" : "tokenTeamsScope"})`, wall: scopeWall, cpu: scopeCpu });

const f = (v) => (v < 10 ? v.toFixed(2) : v.toFixed(1));
console.log(`\n${new Date().toISOString()}, load ${os.loadavg().map((l) => l.toFixed(2)).join(", ")}; storage ${storageKind}, metrics ${metricsKind}; ${calls} calls each`);
console.log("| call (retailer's token) | p50 ms | p95 ms | max ms | CPU p50 ms | CPU p95 ms |");
console.log("|---|---|---|---|---|---|");
for (const r of rows) {
  console.log(`| ${r.name} | ${f(percentile(r.wall, 50))} | ${f(percentile(r.wall, 95))} | ${f(Math.max(...r.wall))} | ${f(percentile(r.cpu, 50))} | ${f(percentile(r.cpu, 95))} |`);
}

await metrics.close();
await m.closeStorage?.();
await clickhouse?.stop();
fs.rmSync(dir, { recursive: true, force: true });
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
