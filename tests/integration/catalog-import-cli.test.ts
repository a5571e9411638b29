/**
 * `npm run catalog:import -- feed.csv` (scripts/catalog-import.mjs) through its entry function, on
 * a temporary SQLite database with the demo catalog: the same use case as the import form (an
 * import recorded as the system, its job run, the products written), the report printed with the
 * bad rows' lines and reasons, a feed it cannot process failed with exit code 1 and 'catalog
 * processing failed' raised, and a usage error with exit code 2.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startApp, type TestApp } from "./app-helpers";

let app: TestApp;
let dir: string;
const storage = () => app.m.storageIndex.getStorage();

beforeAll(async () => {
  app = await startApp();
  process.env.SEARCH_SYNC_INTERVAL_MS = "0";
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "catalog-cli-"));
});
afterAll(async () => {
  delete process.env.SEARCH_SYNC_INTERVAL_MS;
  fs.rmSync(dir, { recursive: true, force: true });
  await app?.stop();
});

async function run(args: string[]) {
  const { catalogImportCli } = await import("~/cli/catalog-import.server");
  const out: string[] = [];
  const err: string[] = [];
  const code = await catalogImportCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) }, { pollMs: 10 });
  return { code, out, err };
}

it("imports a feed file through the form's use case and prints the report with the bad rows", async () => {
  const file = path.join(dir, "nightly-feed.csv");
  fs.writeFileSync(
    file,
    ["id,title,availability,party,brand,price", "CLI-0001,Night Owl Coffee 1 kg,in stock,1P,Owl & Co,12.90", "CLI-0002,,in stock,1P,Owl & Co,3.00", "SKU-000007,Renamed at night,in stock,1P,Acme,2.50"].join("\n"),
  );
  const { code, out, err } = await run([file]);
  expect(err).toEqual([]);
  expect(code).toBe(0);
  expect(out).toContain("Rows read: 3. New products: 1. Products updated: 1. Bad rows: 1.");
  expect(out).toContain("  line 3 (CLI-0002): No title.");
  expect(out.at(-1)).toBe("Imported.");
  expect(await storage().catalog.getOne("CLI-0001")).toMatchObject({ title: "Night Owl Coffee 1 kg", price: 1290 });
  expect((await storage().catalog.getOne("SKU-000007"))!.title).toBe("Renamed at night");
  // Recorded as the form's imports are: by the system, with its report, listed on the import screen.
  const [latest] = (await storage().catalogImports.list({ limit: 1 })).items;
  expect(latest).toMatchObject({ fileName: "nightly-feed.csv", by: "system", status: "done", imported: 1, updated: 1, badCount: 1 });
});

it("fails a feed it cannot process with exit code 1, says why, and raises 'catalog processing failed'", async () => {
  const file = path.join(dir, "broken.csv");
  fs.writeFileSync(file, "id,title\nCLI-X,Thing");
  const { code, err } = await run([file]);
  expect(code).toBe(1);
  expect(err).toEqual(["Catalog processing failed: Required columns are missing: availability, party, brand, price."]);
  expect(await storage().catalog.getOne("CLI-X")).toBeNull();
  const operator = (await storage().users.getByEmail("operator@example.com"))!;
  const notes = (await storage().notifications.list(operator.id, { limit: 10 })).items;
  expect(notes.map((n) => [n.type, n.values])).toContainEqual(["catalogProcessingFailed", { file: "broken.csv", imported: 0 }]);
});

it("answers a usage error (no file, or one that cannot be read) with exit code 2", async () => {
  expect((await run([])).code).toBe(2);
  const missing = await run([path.join(dir, "nowhere.csv")]);
  expect(missing.code).toBe(2);
  expect(missing.err[0]).toMatch(/^Cannot read .*nowhere\.csv/);
});
