// The catalog feed import (issue 10 §4, ADR 28 and 34) on 100,000 rows: a generated CSV of about
// 18 MB (every column of the feed, varied values, 1% bad rows) through the use cases the import
// form and its job call, on embedded SQLite with the demo catalog's first 3,000 products (a
// third of the feed's ids are theirs: updates), timed in parts:
// - the request's part (importCatalogFeed: the file stored, the import recorded, its job queued);
// - the feed parsed and checked alone (parseCatalogFeed, papaparse), for comparison;
// - the job's whole run (runCatalogImport: read, parse, check, 250 batches of 400 written, each
//   with its progress recorded, then the search index brought up to date);
// - the storing alone (the good products written again in batches of 400), for comparison.
// Wall and this process's CPU time, peak RSS, and the load average around the run.
// `node bench/catalog-import.mjs [rows]` alone, or from `npm run bench`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { importTs } from "./bundle.mjs";
import { time, useBenchStore } from "./measure.mjs";

function loadService() {
  return importTs("catalog-import", {
    contents: [
      `export { getStorage, closeStorage } from "~/storage/index.server";`,
      `export { demoCatalog } from "~/services/catalog-seed.server";`,
      `export { parseCatalogFeed } from "~/domain/catalog-feed";`,
      `export { importCatalogFeed, runCatalogImport } from "~/services/catalog-import.server";`,
    ].join("\n"),
  });
}

/** A feed of `rows` products: a third are the demo catalog's ids (updates), 1% are bad rows. */
export function feedCsv(rows) {
  const brands = ["Acme", "Golden Grain", "Epicerie Fine", "Owl & Co", "Quokka Foods", "Nordic Home", "Bright Kids", "Zen Garden"];
  const availabilities = ["in stock", "in_stock", "out of stock", "preorder", "in store"];
  const categories = ["Grocery > Coffee & tea > Coffee", "Grocery > Spices", "Home > Kitchen > Cookware", "Kids > Toys", "Garden > Tools|Home > Outdoor"];
  const lines = ["id,title,availability,party,brand,price,stroke_price,image_link,link,categories,seller_id"];
  for (let i = 1; i <= rows; i++) {
    const id = i % 3 === 0 && i / 3 <= 3000 ? `SKU-${String(i / 3).padStart(6, "0")}` : `FEED-${String(i).padStart(7, "0")}`;
    const bad = i % 100 === 0;
    const price = ((i * 37) % 9000) / 100 + 1;
    lines.push(
      [
        id,
        bad ? "" : `"Product ${i}, ${brands[i % 8]} edition ${i % 50} x ${1 + (i % 6)}"`,
        availabilities[i % 5],
        i % 4 === 0 ? "3P" : "1P",
        brands[i % 8],
        bad ? "free" : price.toFixed(2),
        i % 5 === 0 ? (price * 1.2).toFixed(2) : "",
        `https://images.example-retailer.com/p/${i}.jpg`,
        `https://www.example-retailer.com/p/${i}`,
        categories[i % 5],
        i % 4 === 0 ? `seller-${i % 97}` : "",
      ].join(","),
    );
  }
  return lines.join("\n");
}

export async function catalogImportBench({ rows = 100_000 } = {}) {
  const dataDir = useBenchStore("catalog-import", { SEARCH_API_URL: "", SEARCH_SYNC_INTERVAL_MS: "0" });
  const { dir, module: m } = await loadService();
  try {
    const storage = m.getStorage();
    await storage.catalog.upsertMany(m.demoCatalog(3000));
    const csv = feedCsv(rows);
    const bytes = Buffer.byteLength(csv);
    const loadBefore = os.loadavg();
    const parse = await time(() => m.parseCatalogFeed("bench-feed.csv", csv));
    if (!parse.value.ok) throw new Error(`feed refused: ${parse.value.reason}`);
    const rssBefore = process.resourceUsage().maxRSS;
    const start = await time(() => m.importCatalogFeed(null, { fileName: "bench-feed.csv", content: new TextEncoder().encode(csv) }));
    if (!start.value.ok) throw new Error(`import refused: ${start.value.reason}`);
    const run = await time(() => m.runCatalogImport(start.value.value.id));
    if (!run.value.ok) throw new Error(`import failed: ${run.value.reason}`);
    // The storing alone, for comparison: the same good products written again in batches of 400.
    const products = parse.value.value.products;
    const store = await time(async () => {
      for (let i = 0; i < products.length; i += 400) await storage.catalog.upsertMany(products.slice(i, i + 400));
    });
    const loadAfter = os.loadavg();
    const peakAddedMb = Math.max(0, (process.resourceUsage().maxRSS - rssBefore) / 1024);
    const report = run.value.value;
    const count = await storage.catalog.count();
    const f = (n) => Math.round(n).toLocaleString("en-GB");
    const load = (l) => l.map((v) => v.toFixed(2)).join(", ");
    return [
      "",
      `## Catalog feed import (${f(rows)} rows)`,
      "",
      `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC by \`node bench/catalog-import.mjs\` on ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.type()} ${os.release()}; load average (1, 5, 15 min) ${load(loadBefore)} before and ${load(loadAfter)} after the run, so wall times are well above the CPU the work took; both are given. Embedded SQLite with the demo catalog's 3,000 products; a generated ${(bytes / 2 ** 20).toFixed(1)} MiB CSV with every feed column (a third of its ids already in the catalog, 1% bad rows), through the use cases the import form and its job call (app/services/catalog-import.server.ts).`,
      "",
      "| what | figure |",
      "|---|---|",
      `| the request's part: the feed stored, the import recorded, its job queued | ${f(start.ms)} ms wall, ${f(start.cpuMs)} ms CPU |`,
      `| parse and check alone (papaparse and the row rules) | ${f(parse.ms)} ms wall, ${f(parse.cpuMs)} ms CPU |`,
      `| store alone: the ${f(products.length)} good products written again, 400 a transaction | ${f(store.ms)} ms wall, ${f(store.cpuMs)} ms CPU |`,
      `| the job: read, parse, check and store in ${f(report.batchesDone)} batches of 400 (progress recorded after each), search index brought up to date | ${f(run.ms)} ms wall, ${f(run.cpuMs)} ms CPU |`,
      `| memory added (process peak RSS after minus before) | ${peakAddedMb.toFixed(0)} MB |`,
      `| outcome | ${f(report.rows)} rows: ${f(report.imported)} new, ${f(report.updated)} updated, ${f(report.badCount)} bad; catalog ${f(count)} products |`,
    ];
  } finally {
    await m.closeStorage();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const rows = Number(process.argv[2] ?? 100_000);
  console.log((await catalogImportBench({ rows })).join("\n"));
}
