// The size of what the Firestore adapter sends for large keyword changes (ADR 50), measured on
// the Firestore emulator (which does not enforce Firestore's limits): every commit request of the
// run is caught as the SDK sends it (`Firestore.prototype.request('commit', ...)`) and encoded
// with the SDK's own protobuf types (CommitRequest), the size the API's 10 MiB request limit is
// about; each written document's storage size is computed by Firestore's documented rules
// (https://cloud.google.com/firestore/docs/storage-size: name + fields + 32 bytes), the size its
// 1 MiB document limit is about.
//
// Through the same use cases the Keywords section's actions call (addKeywords, updateTarget), the
// campaign active with a wallet (so every change writes its publication):
// 1. a CSV of 100,000 keywords imported into an empty campaign;
// 2. one keyword's bid changed in that campaign;
// 3. a second CSV of 100,000 other keywords replacing the first (import with 'replace');
// 4. a duplicate of that campaign (its targets copied with it).
//
// `node bench/firestore-commit-size.mjs [keywords]` (needs java and the emulator jar, as the
// integration tests; or FIRESTORE_EMULATOR_HOST pointing at a running emulator).
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { importTs } from "./bundle.mjs";
import { useBenchStore } from "./measure.mjs";

const require = createRequire(import.meta.url);
const MiB = 2 ** 20;
const REQUEST_LIMIT = 10 * MiB;
const DOCUMENT_LIMIT = MiB;
/** A failed commit this large is not retried (the emulator refuses requests over its gRPC message limit of 4 MiB). */
const STOP_ABOVE = 4 * MiB;

const JAR = "/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud-firestore-emulator.jar";

async function startEmulator() {
  if (process.env.FIRESTORE_EMULATOR_HOST) return { host: process.env.FIRESTORE_EMULATOR_HOST, stop: async () => {} };
  let jar = process.env.FIRESTORE_EMULATOR_JAR ?? JAR;
  if (!fs.existsSync(jar)) {
    const listed = execFileSync("dpkg", ["-L", "google-cloud-cli-firestore-emulator"], { encoding: "utf8" });
    jar = listed.split("\n").find((l) => l.endsWith("emulator.jar"));
  }
  const { freePort } = await importTs("free-port", { file: "tests/free-port.ts" }).then((r) => r.module);
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const child = spawn("java", ["-cp", jar, "com.google.cloud.datastore.emulator.firestore.CloudFirestore", "start", "--host=127.0.0.1", `--port=${port}`], { stdio: "ignore" });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await (await fetch(`http://${host}/`, { signal: AbortSignal.timeout(1000) })).arrayBuffer();
      break;
    } catch {
      if (Date.now() > deadline) throw new Error("emulator did not start");
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    host,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", resolve);
        process.kill(child.pid, "SIGTERM");
      }),
  };
}

/** Firestore's storage size of a value (protobuf Value, as the SDK sends it). */
function valueSize(v) {
  if ("stringValue" in v) return Buffer.byteLength(v.stringValue, "utf8") + 1;
  if ("integerValue" in v || "doubleValue" in v || "timestampValue" in v) return 8;
  if ("booleanValue" in v || "nullValue" in v) return 1;
  if ("mapValue" in v) return fieldsSize(v.mapValue.fields ?? {});
  if ("arrayValue" in v) return (v.arrayValue.values ?? []).reduce((s, x) => s + valueSize(x), 0);
  if ("bytesValue" in v) return v.bytesValue.length;
  if ("referenceValue" in v) return Buffer.byteLength(v.referenceValue, "utf8") + 1;
  return 16;
}
function fieldsSize(fields) {
  let s = 0;
  for (const [name, v] of Object.entries(fields)) s += Buffer.byteLength(name, "utf8") + 1 + valueSize(v);
  return s;
}
/** Document name: each path segment's UTF-8 bytes + 1, plus 16 (documents/... of the database). */
function documentSize(name, fields) {
  const path = name.split("/documents/")[1] ?? name;
  const nameSize = path.split("/").reduce((s, seg) => s + Buffer.byteLength(seg, "utf8") + 1, 0) + 16;
  return nameSize + fieldsSize(fields) + 32;
}

/** Every commit request the SDK sends, with its encoded size and its documents' storage sizes. */
function spyOnCommits() {
  const { Firestore } = require("@google-cloud/firestore");
  // The protobuf library and descriptors the SDK itself encodes its requests with.
  const sdkRequire = createRequire(require.resolve("@google-cloud/firestore"));
  const protobuf = sdkRequire("protobufjs");
  const root = protobuf.Root.fromJSON(sdkRequire("../protos/v1.json"));
  const CommitRequest = root.lookupType("google.firestore.v1.CommitRequest");
  const log = [];
  const original = Firestore.prototype.request;
  Firestore.prototype.request = function (method, request, ...rest) {
    if (method === "commit") {
      const bytes = CommitRequest.encode(CommitRequest.fromObject(request)).finish().length;
      let largest = { size: 0, name: "" };
      let writes = 0;
      for (const w of request.writes ?? []) {
        writes++;
        if (w.update) {
          const size = documentSize(w.update.name, w.update.fields ?? {});
          if (size > largest.size) largest = { size, name: w.update.name.split("/").pop() };
        }
      }
      log.push({ bytes, writes, transaction: !!request.transaction, largest });
      if (process.env.BENCH_VERBOSE) console.error(`commit: ${writes} writes, ${(bytes / MiB).toFixed(2)} MiB, largest document ${largest.size} bytes (${largest.name})`);
    }
    const sent = original.call(this, method, request, ...rest);
    if (method !== "commit") return sent;
    return sent.catch((error) => {
      const entry = log[log.length - 1];
      entry.error = `${error.code ?? ""} ${String(error.details ?? error.message).slice(0, 160)}`;
      if (process.env.BENCH_VERBOSE) console.error(`commit failed: ${entry.error}`);
      // Not retried: a request over the limit fails the same way every time.
      if (entry.bytes > STOP_ABOVE) throw Object.assign(new Error(`commit of ${(entry.bytes / MiB).toFixed(2)} MiB refused: ${entry.error}`), { code: 3 });
      throw error;
    });
  };
  return { log, restore: () => (Firestore.prototype.request = original) };
}

function keywordOf(i, salt = "") {
  const words = ["running", "shoes", "coffee", "organic", "bio", "men", "women", "kids", "winter", "sale", "black", "leather", "wireless", "earbuds", "tea", "green", "large", "pack", "eco", "premium"];
  return `${words[i % 20]} ${words[Math.floor(i / 20) % 20]} ${words[Math.floor(i / 400) % 20]} ${salt}${i}`;
}

const OPERATOR = { id: "bench-operator", email: "bench@example.com", displayName: "Bench", claims: { type: "operator", role: "ADMIN" }, roleByTeam: {}, teamIds: [], status: "active", disabled: false, timezone: "Europe/Paris", locale: "en-GB" };

export async function firestoreCommitSizes({ keywords = 100_000 } = {}) {
  const emulator = await startEmulator();
  const dataDir = useBenchStore("fs-size", { SEARCH_API_URL: "", STORAGE: "firestore", FIRESTORE_PROJECT_ID: `bench-${Date.now()}`, FIRESTORE_EMULATOR_HOST: emulator.host, METADATA_SERVER_DETECTION: "none" });
  const { dir, module: m } = await importTs("fs-size", {
    contents: [
      `export { initStorage, closeStorage } from "~/storage/index.server";`,
      `export { demoCatalog } from "~/services/catalog-seed.server";`,
      `export { newTeamInput } from "~/services/seed.server";`,
      `export { newCampaignData } from "~/domain/campaigns/campaign";`,
      `export { addOffers } from "~/domain/campaigns/products";`,
      `export { DEFAULT_RETAILER_SETTINGS } from "~/domain/retailer-settings";`,
      `export { parseKeywordCsvInSteps } from "~/domain/campaigns/keyword-csv";`,
      `export { yieldToEventLoop } from "~/utils/cooperative";`,
      `export { addKeywords, updateTarget } from "~/services/campaigns/keywords.server";`,
      `export { getMetricsStore } from "~/metrics/index.server";`,
    ].join("\n"),
  });
  const spy = spyOnCommits();
  const rows = [];
  try {
    const storage = await m.initStorage();
    const team = await storage.teams.create(m.newTeamInput({ name: "Bench Brand" }), { by: "system" }, "bench-brand");
    const catalog = m.demoCatalog(400).filter((p) => p.party === "1P").slice(0, 200);
    await storage.catalog.upsertMany(catalog);
    const offers = m.addOffers({}, catalog);
    const campaign = await storage.campaigns.create(
      { ...m.newCampaignData({ name: "Bench import", team: { id: team.id, name: team.name, account_type: "brand" } }, m.DEFAULT_RETAILER_SETTINGS, "system", new Date(), "Europe/Paris"), status: "active", wallet: "bench-wallet", bid: 50, offers: offers.value.offers, productIds: offers.value.productIds },
      { by: "system" },
    );
    const ctxOf = async () => ({ campaign: await storage.campaigns.getOne(campaign.id), team });
    const measure = async (what, fn) => {
      spy.log.length = 0;
      const started = performance.now();
      let error = null;
      try {
        await fn();
      } catch (e) {
        error = e;
      }
      const ms = performance.now() - started;
      const commits = [...spy.log];
      const biggest = commits.reduce((a, c) => (c.bytes > a.bytes ? c : a), { bytes: 0, writes: 0, largest: { size: 0, name: "" } });
      const largestDoc = commits.reduce((a, c) => (c.largest.size > a.size ? c.largest : a), { size: 0, name: "" });
      rows.push({ what, commits: commits.length, inTransaction: commits.filter((c) => c.transaction).length, biggest, total: commits.reduce((s, c) => s + c.bytes, 0), writes: commits.reduce((s, c) => s + c.writes, 0), largestDoc, ms, error: error ? String(error.message ?? error).slice(0, 200) : null });
    };
    const importCsv = async (salt) => {
      const csv = ["keyword", ...Array.from({ length: keywords }, (_, i) => keywordOf(i, salt))].join("\n");
      const parsed = await m.parseKeywordCsvInSteps(csv, "keyword", m.yieldToEventLoop);
      if (!parsed.ok) throw new Error(parsed.reason);
      const ctx = await ctxOf();
      const outcome = await m.addKeywords(OPERATOR, ctx, { version: ctx.campaign.version, keywords: parsed.keywords, bid: 60, offers: [], ...(salt ? { replace: true } : {}) }, "en-GB");
      if (!outcome.ok) throw new Error(`import refused: ${outcome.message}`);
    };
    await measure(`CSV import of ${keywords.toLocaleString("en-GB")} keywords into an empty campaign`, () => importCsv(""));
    await measure(`one keyword's bid in that campaign`, async () => {
      const ctx = await ctxOf();
      const r = await m.updateTarget(OPERATOR, ctx, { version: ctx.campaign.version, kind: "keyword", key: keywordOf(12345), on: true, bid: 75, offers: [], keepOffers: true }, "en-GB");
      if (!r.ok) throw new Error(r.message);
    });
    await measure(`a second CSV of ${keywords.toLocaleString("en-GB")} other keywords replacing them`, () => importCsv("x"));
    await measure(`a duplicate of that campaign (its targets copied)`, async () => {
      const { id: _id, version: _version, counts: _counts, targetBuckets: _buckets, targetGens: _gens, ...data } = await storage.campaigns.getOne(campaign.id);
      await storage.campaigns.create({ ...data, name: "Bench copy", status: "draft" }, { by: "system" }, undefined, { targetsOf: campaign.id });
    });
    const stored = await storage.campaigns.getOne(campaign.id);
    rows.push({ note: `stored afterwards: ${(stored.counts?.keywords ?? 0).toLocaleString("en-GB")} keywords, ${stored.targetBuckets?.keyword ?? 0} chunks` });
  } finally {
    spy.restore();
    await m.closeStorage();
    await m.getMetricsStore().close();
    await emulator.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const mib = (b) => `${(b / MiB).toFixed(2)} MiB`;
  const kib = (b) => `${(b / 1024).toFixed(0)} KiB`;
  const out = [
    "| change | commit requests | largest request (protobuf) | share of 10 MiB | its writes | all requests | largest document (storage size) | share of 1 MiB | wall |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of rows) {
    if (r.note) continue;
    out.push(`| ${r.what}${r.error ? ` (failed: ${r.error})` : ""} | ${r.commits} (${r.inTransaction} in a transaction) | ${mib(r.biggest.bytes)} | ${((100 * r.biggest.bytes) / REQUEST_LIMIT).toFixed(0)} % | ${r.biggest.writes} | ${mib(r.total)}, ${r.writes} writes | ${kib(r.largestDoc.size)} (${r.largestDoc.name}) | ${((100 * r.largestDoc.size) / DOCUMENT_LIMIT).toFixed(0)} % | ${(r.ms / 1000).toFixed(1)} s |`);
  }
  for (const r of rows) if (r.note) out.push("", r.note);
  out.push("", `Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(", ")}; ${new Date().toISOString()}.`);
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const keywords = Number(process.argv[2] ?? 100_000);
  console.log((await firestoreCommitSizes({ keywords })).join("\n"));
}
