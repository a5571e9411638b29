#!/usr/bin/env node
// `npm run simulate -- --url http://console:3000 --key <EVENTS_API_KEY> [--every 5] [--times N]`
// Sends demo traffic to any console: every few seconds it reads the campaigns that can serve
// (GET /api/events/campaigns) and posts the events the simulator makes for them to /api/events.
// The simulation is the console's own (app/domain/metrics/simulation.ts), bundled with esbuild.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const { values } = parseArgs({
  options: { url: { type: "string" }, key: { type: "string" }, every: { type: "string", default: "5" }, times: { type: "string" } },
});
const base = (values.url ?? process.env.CONSOLE_URL ?? "http://localhost:3000").replace(/\/$/, "");
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
let key = values.key ?? process.env.EVENTS_API_KEY;
if (!key) {
  const demo = path.join(process.env.DATA_DIR ?? path.join(root, "data"), "events-api-key");
  if (fs.existsSync(demo)) key = fs.readFileSync(demo, "utf8").trim();
}
if (!key) {
  console.error("No events key: pass --key, set EVENTS_API_KEY, or run beside the embedded demo's data folder.");
  process.exit(2);
}
const every = Math.max(1, Number(values.every)) * 1000;

const outfile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ads-simulate-")), "simulation.mjs");
await build({
  entryPoints: [path.join(root, "app/domain/metrics/simulation.ts")],
  bundle: true,
  format: "esm",
  platform: "node",
  outfile,
  alias: { "~": path.join(root, "app") },
  logLevel: "error",
});
const { simulateTraffic } = await import(pathToFileURL(outfile).href);
const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };

async function tick(n) {
  const response = await fetch(`${base}/api/events/campaigns`, { headers });
  if (!response.ok) throw new Error(`${base}/api/events/campaigns answered ${response.status}`);
  const { campaigns, timeZone } = await response.json();
  const now = new Date();
  const events = simulateTraffic({ campaigns, now, seconds: every / 1000, timeZone, random: Math.random });
  for (let i = 0; i < events.length; i += 10_000) {
    const batchId = `simulate-${now.getTime()}-${n}-${i / 10_000}`;
    const posted = await fetch(`${base}/api/events`, { method: "POST", headers, body: JSON.stringify({ batchId, events: events.slice(i, i + 10_000) }) });
    const summary = await posted.json().catch(() => ({}));
    console.log(`${now.toISOString()} ${campaigns.length} campaigns, batch ${batchId}: ${posted.status} accepted ${summary.accepted ?? 0}, refused ${summary.refused?.length ?? 0}`);
  }
  if (!events.length) console.log(`${now.toISOString()} ${campaigns.length} campaigns can serve; no event this tick`);
}

const times = values.times ? Number(values.times) : Infinity;
for (let n = 0; n < times; n++) {
  try {
    await tick(n);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
  }
  if (n + 1 < times) await new Promise((resolve) => setTimeout(resolve, every));
}
