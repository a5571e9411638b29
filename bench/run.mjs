#!/usr/bin/env node
// `npm run bench`: builds, starts the server on freshly seeded data, measures gzip JS per route
// (from the build manifest) and SSR throughput and latency (autocannon) for /login, / and the
// campaign list, editor and products pages signed in, each beside the static /error-404 page in the same run, and writes bench/RESULTS.md.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import autocannon from "autocannon";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PORT = Number(process.env.BENCH_PORT ?? 3390);
const BASE = `http://127.0.0.1:${PORT}`;
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 10;

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit" });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed`);
}

async function waitFor(url, ms = 30_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      await fetch(url, { redirect: "manual" });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`Server did not answer at ${url}`);
}

function gzipSize(file) {
  return zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
}

async function jsPerRoute() {
  const build = await import(path.join(root, "build/index.js"));
  const { assets } = build;
  const publicDir = path.join(root, "public");
  const file = (url) => path.join(publicDir, url);
  const base = [assets.entry.module, ...assets.entry.imports, assets.routes.root.module, ...(assets.routes.root.imports ?? [])];
  const rows = [];
  for (const [id, route] of Object.entries(assets.routes)) {
    if (id === "root" || !route.module) continue;
    const files = new Set([...base, route.module, ...(route.imports ?? [])]);
    const bytes = [...files].reduce((sum, url) => sum + gzipSize(file(url)), 0);
    rows.push({ id, path: route.path ?? (route.index ? "/" : ""), bytes });
  }
  return rows.sort((a, b) => a.id.localeCompare(b.id));
}

async function load(url, headers = {}) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  if (result.non2xx > 0 && !url.endsWith("/error-404")) throw new Error(`${url}: ${result.non2xx} non-2xx answers`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors };
}

async function signIn() {
  const res = await fetch(`${BASE}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: BASE, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: "operator@example.com", password: "Demo-password-1", to: "/" }),
  });
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]);
  if (res.status !== 302 || !cookies.length) throw new Error(`Sign-in failed: ${res.status}`);
  return cookies.join("; ");
}

async function main() {
  run("npx", ["remix", "build"]);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ads-bench-"));
  const server = spawn("node", ["server.mjs"], {
    cwd: root,
    env: { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, DATABASE_URL: path.join(dataDir, "console.db"), SEED_DEMO_DATA: "true" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    await waitFor(`${BASE}/login`);
    const js = await jsPerRoute();
    const cookie = await signIn();
    const listHtml = await (await fetch(`${BASE}/campaigns`, { headers: { cookie } })).text();
    const campaignId = /\/campaigns\/([0-9a-f-]{36})/.exec(listHtml)?.[1];
    if (!campaignId) throw new Error("No demo campaign in /campaigns");
    const pairs = [];
    for (const [name, url, headers] of [
      ["/login", `${BASE}/login`, {}],
      ["/ (signed in)", `${BASE}/`, { cookie }],
      ["/campaigns (signed in)", `${BASE}/campaigns`, { cookie }],
      ["/campaigns/{id} editor (signed in)", `${BASE}/campaigns/${campaignId}`, { cookie }],
      ["/campaigns/{id}/products (signed in)", `${BASE}/campaigns/${campaignId}/products`, { cookie }],
    ]) {
      const page = await load(url, headers);
      const staticPage = await load(`${BASE}/error-404`, headers);
      pairs.push({ name, page, staticPage });
    }
    const cpu = os.cpus()[0]?.model ?? "unknown CPU";
    const lines = [
      "# Benchmark results",
      "",
      `Measured ${new Date().toISOString()} by \`npm run bench\` on ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.type()} ${os.release()}.`,
      "Production build, embedded SQLite with the demo data, server and load generator on the same machine.",
      "",
      "## JavaScript per route (gzip, level 9)",
      "",
      "Entry, root and the route's own modules and imports, as the browser loads them on a first visit.",
      "",
      "| route | path | gzip JS |",
      "|---|---|---|",
      ...js.map((r) => `| ${r.id} | ${r.path} | ${(r.bytes / 1024).toFixed(1)} KiB |`),
      "",
      `## Server rendering (autocannon, ${CONNECTIONS} connections, ${DURATION} s each)`,
      "",
      "Each page is measured beside the static /error-404 page in the same run; the ratio is page / static.",
      "",
      "| page | req/s | p50 ms | p99 ms | /error-404 req/s | /error-404 p50 ms | throughput ratio | p50 ratio |",
      "|---|---|---|---|---|---|---|---|",
      ...pairs.map(
        ({ name, page, staticPage }) =>
          `| ${name} | ${page.rps.toFixed(0)} | ${page.p50} | ${page.p99} | ${staticPage.rps.toFixed(0)} | ${staticPage.p50} | ${(page.rps / staticPage.rps).toFixed(2)} | ${(page.p50 / Math.max(staticPage.p50, 1)).toFixed(2)} |`,
      ),
      "",
    ];
    fs.writeFileSync(path.join(root, "bench/RESULTS.md"), lines.join("\n"));
    console.log(lines.join("\n"));
  } finally {
    server.kill("SIGTERM");
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
