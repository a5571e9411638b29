// Serving with statistics (issue 9 section 5), on a production build with the simulator off:
// - the signed-in campaign list with its metric columns on 2,000 campaigns (30 days of hourly
//   statistics each), beside the static /error-404 page in the same run;
// - ingestion throughput of POST /api/events (batches as the ad server sends them, in parallel);
// - the time from an event posted to its number on the campaign's Statistics tab;
// - the server's memory (resident set size) while it serves.
// `node bench/serving.mjs [campaigns]` alone (after `npx remix build`), or from `npm run bench`.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { importTs } from "./bundle.mjs";
import { CONNECTIONS, DURATION, load, signIn, waitFor, warmUp } from "./http.mjs";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");

export function loadSeeder() {
  return importTs("serving", { file: "bench/seed-serving.ts" });
}

/** Resident set size of a process, in MiB (Linux). */
function rssMiB(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** The peak RSS of `pid` while `fn` runs. */
async function peakRss(pid, fn) {
  let peak = rssMiB(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 100);
  try {
    const value = await fn();
    return { value, peak: Math.max(peak, rssMiB(pid)) };
  } finally {
    clearInterval(timer);
  }
}

export function startServer(env, port) {
  return spawn("node", ["server.mjs"], { cwd: root, env: { ...process.env, ...env, PORT: String(port) }, stdio: ["ignore", "ignore", "inherit"] });
}

async function stopServer(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

function event(campaign, type, now, i) {
  return {
    type,
    time: new Date(now - (i % 600) * 1000).toISOString(),
    team: campaign.team,
    wallet: campaign.wallet,
    campaign: campaign.id,
    campaignType: campaign.campaignType,
    placement: ["search", "plp", "pdp"][i % 3],
    slot: "sp",
    device: ["mobile", "desktop", "tablet"][i % 3],
    ...(type === "click" ? { cost: 450_000 } : { cost: 2_000 }),
  };
}

async function postBatch(base, key, batchId, events) {
  const res = await fetch(`${base}/api/events`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ batchId, events }),
  });
  const body = await res.json();
  if (res.status !== 200 || body.refused.length) throw new Error(`Batch ${batchId}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return body.accepted;
}

/** Runs the serving bench; returns the Markdown lines of its section. */
export async function servingBench({ campaigns = 2_000, port = 3391 } = {}) {
  const base = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ads-bench-serving-"));
  const key = randomBytes(24).toString("hex");
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: path.join(dataDir, "console.db"),
    STORAGE: "sqlite",
    SEED_DEMO_DATA: "true",
    SEED_DEMO_CAMPAIGNS: "true",
    SIMULATE_TRAFFIC: "false",
    EVENTS_API_KEY: key,
    RETAILER_TIMEZONE: "Europe/Paris",
  };
  const { dir, module: seeder } = await loadSeeder();
  let server = startServer(env, port);
  try {
    // First boot seeds the demo accounts, team, wallet and catalog; then the bench's campaigns
    // and statistics go in while the server is stopped.
    await waitFor(`${base}/login`);
    await stopServer(server);
    console.log(`Serving bench: seeding ${campaigns} campaigns and 30 days of statistics…`);
    const seeded = await seeder.seedServing(env, campaigns);
    server = startServer(env, port);
    await waitFor(`${base}/login`);
    const pid = server.pid;
    const cookie = await signIn(base);
    // The list with its metric columns (chosen in the column picker) for the last 30 days.
    const columns = ["name", "team", "liveStatus", "wallet", "bid", "spend", "displays", "views", "clicks", "ctr", "sales", "roas"];
    const listUrl = `${base}/campaigns?${columns.map((c) => `columns=${c}`).join("&")}&period=last30`;
    const list = await (await fetch(listUrl, { headers: { cookie } })).text();
    if (!list.includes("Bench campaign")) throw new Error("The campaign list does not show the bench's campaigns");
    if (!/<th[^>]*>(?:(?!<\/th>).)*Displays/s.test(list)) throw new Error("The campaign list shows no Displays column");
    await new Promise((r) => setTimeout(r, 2_000));
    const idleRss = rssMiB(pid);

    // Both pages are first served for a few seconds, not counted: the figures are of a server
    // whose code is compiled, not of its first seconds. Then the list and the static page take
    // turns twice, so that a drift of the machine's speed weighs on both alike.
    console.log("Serving bench: warming up…");
    await warmUp([listUrl, `${base}/error-404`], { cookie });
    console.log("Serving bench: the campaign list with metric columns, and /error-404…");
    const listRuns = [];
    const staticRuns = [];
    let listPeak = 0;
    for (let round = 0; round < 2; round++) {
      const run = await peakRss(pid, () => load(listUrl, { cookie }));
      listPeak = Math.max(listPeak, run.peak);
      listRuns.push(run.value);
      staticRuns.push(await load(`${base}/error-404`, { cookie }));
    }

    console.log("Serving bench: ingestion…");
    const all = seeded.campaigns;
    const BATCHES = 40;
    const PER_BATCH = 2_500;
    const PARALLEL = 4;
    const now = Date.now();
    let next = 0;
    let accepted = 0;
    const ingestStarted = process.hrtime.bigint();
    const ingest = await peakRss(pid, () =>
      Promise.all(
        Array.from({ length: PARALLEL }, async () => {
          while (next < BATCHES) {
            const b = next++;
            const events = Array.from({ length: PER_BATCH }, (_, i) => {
              const n = b * PER_BATCH + i;
              return event(all[n % (all.length - 1)], n % 40 === 0 ? "click" : "display", now, n);
            });
            const counted = await postBatch(base, key, `bench-ingest-${b}`, events);
            accepted += counted;
          }
        }),
      ),
    );
    const ingestSeconds = Number(process.hrtime.bigint() - ingestStarted) / 1e9;

    console.log("Serving bench: an event to its number on the campaign screen…");
    const fresh = all[all.length - 1];
    const COUNT = 7_777;
    const shown = /7[,\u202f\u00a0 .]?777/;
    const before = await (await fetch(`${base}/campaigns/${fresh.id}/statistics`, { headers: { cookie } })).text();
    if (shown.test(before)) throw new Error("The probe campaign already shows the probe's number");
    const probeStarted = Date.now();
    await postBatch(base, key, "bench-probe", Array.from({ length: COUNT }, (_, i) => event(fresh, "display", Date.now(), i)));
    let toScreenMs = null;
    while (Date.now() - probeStarted < 120_000) {
      const html = await (await fetch(`${base}/campaigns/${fresh.id}/statistics`, { headers: { cookie } })).text();
      if (shown.test(html)) {
        toScreenMs = Date.now() - probeStarted;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const afterRss = rssMiB(pid);
    const f = (v) => v.toFixed(0);
    const served = (run) => `${f(run.rps)} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms`;
    const sum = (runs) => runs.reduce((total, run) => total + run.rps, 0);
    return [
      `## Serving with statistics (${campaigns.toLocaleString("en-GB")} campaigns, simulator off)`,
      "",
      `A production server on embedded SQLite with the demo data plus ${campaigns.toLocaleString("en-GB")} running campaigns and ${seeded.facts.toLocaleString("en-GB")} hourly facts (30 days of each campaign) in its metrics store; signed in as operator@example.com; autocannon at ${CONNECTIONS} connections for ${DURATION} s; the load generator on the same machine.`,
      "",
      "| what | measured | goal |",
      "|---|---|---|",
      `| /campaigns (signed in; columns name, team, live status, wallet, bid, spend and the metric columns for the last 30 days): req/s, p50, p99, in each of the two rounds | ${listRuns.map(served).join("; ")} | p99 <= 100 ms |`,
      `| /error-404 (static), in turn with the list | ${staticRuns.map(served).join("; ")} | |`,
      `| throughput ratio list / static (both rounds' requests) | ${(sum(listRuns) / sum(staticRuns)).toFixed(2)} (rounds: ${listRuns.map((run, i) => (run.rps / staticRuns[i].rps).toFixed(2)).join(", ")}) | >= 0.5 |`,
      `| POST /api/events: ${BATCHES} batches of ${PER_BATCH.toLocaleString("en-GB")} events, ${PARALLEL} at a time | ${Math.round(accepted / ingestSeconds).toLocaleString("en-GB")} events/s (${accepted.toLocaleString("en-GB")} events in ${ingestSeconds.toFixed(1)} s) | reported |`,
      `| an event posted to its number on the campaign's Statistics tab | ${toScreenMs === null ? "not shown within 120 s" : `${toScreenMs.toLocaleString("en-GB")} ms`} | <= 60 s |`,
      `| server memory (RSS): idle after boot, peak serving the list, peak ingesting, after | ${f(idleRss)} MiB, ${f(listPeak)} MiB, ${f(ingest.peak)} MiB, ${f(afterRss)} MiB | reported |`,
      "",
    ];
  } finally {
    await stopServer(server);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const campaigns = Number(process.argv[2] ?? 2_000);
  console.log((await servingBench({ campaigns })).join("\n"));
}
