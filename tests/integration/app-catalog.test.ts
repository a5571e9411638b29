/**
 * The Catalog and Inventory screens and the catalog import (issue 10 §4) through their real
 * loaders and actions on a temporary SQLite database with the demo catalog: who may open and
 * import (a supplier is not authorized, a retailer viewer reads but cannot import), browsing with
 * filters, search through the search client and pages, the campaigns sponsoring a product by
 * name, an import with bad rows (written, searchable), a refused feed and a batch that fails
 * ('catalog processing failed' raised, nothing of the failed batch written), and the inventory's
 * operator-only figures.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { BASE_URL, call, getRequest, signIn, startApp, type TestApp } from "./app-helpers";
import { makeCampaignData, makePublishedCampaign } from "../factories";

let app: TestApp;
let routes: {
  catalog: typeof import("~/routes/catalog._index");
  importer: typeof import("~/routes/catalog.import");
  status: typeof import("~/routes/catalog.import_.$importId");
  inventory: typeof import("~/routes/inventory");
};
const cookies: Record<string, string> = {};
const context = { requestId: "t", clientIp: "127.0.0.1" };
const storage = () => app.m.storageIndex.getStorage();

beforeAll(async () => {
  app = await startApp();
  process.env.SEARCH_SYNC_INTERVAL_MS = "0";
  routes = {
    catalog: await import("~/routes/catalog._index"),
    importer: await import("~/routes/catalog.import"),
    status: await import("~/routes/catalog.import_.$importId"),
    inventory: await import("~/routes/inventory"),
  };
  for (const who of ["operator", "retailer.admin", "retailer.viewer", "supplier.admin"]) {
    cookies[who] = await signIn(app.m, `${who}@example.com`, app.demoPassword);
  }
});
afterAll(async () => {
  delete process.env.SEARCH_SYNC_INTERVAL_MS;
  await app?.stop();
});

function openCatalog(who: string, query = "") {
  return call(() => routes.catalog.loader({ request: getRequest(`/catalog${query}`, { cookie: cookies[who] }), params: {}, context } as never));
}
function openInventory(who: string, query = "") {
  return call(() => routes.inventory.loader({ request: getRequest(`/inventory${query}`, { cookie: cookies[who] }), params: {}, context } as never));
}
function openStatus(who: string, id: string) {
  return call(() => routes.status.loader({ request: getRequest(`/catalog/import/${id}`, { cookie: cookies[who] }), params: { importId: id }, context } as never));
}
const importIdOf = (location: string) => location.split("/").pop()!;
/** The scheduler's worker, as a console instance runs it: the due import jobs, to the end. */
async function runJobs() {
  const { createScheduler } = await import("~/services/scheduler.server");
  const { CATALOG_IMPORT_JOB } = await import("~/services/catalog-import.server");
  const scheduler = createScheduler();
  scheduler.register(CATALOG_IMPORT_JOB);
  return (await scheduler.tick()).map((r) => ({ kind: r.kind, outcome: r.outcome }));
}
function openImport(who: string) {
  return call(() => routes.importer.loader({ request: getRequest("/catalog/import", { cookie: cookies[who] }), params: {}, context } as never));
}
/** What a browser posts: the multipart form with the feed file. */
function postFeed(who: string, fileName: string, content: string | Uint8Array<ArrayBuffer>) {
  const form = new FormData();
  form.set("intent", "import-catalog");
  form.set("feed", new File([content], fileName, { type: fileName.endsWith(".json") ? "application/json" : "text/csv" }));
  const request = new Request(new URL("/catalog/import", BASE_URL), { method: "POST", headers: { Cookie: cookies[who]! }, body: form });
  return call(() => routes.importer.action({ request, params: {}, context } as never));
}
const userId = async (email: string) => (await storage().users.getByEmail(email))!.id;
async function notificationTypes(email: string) {
  const page = await storage().notifications.list(await userId(email), { limit: 50 });
  return page.items.map((n) => ({ type: n.type, values: n.values, link: n.link }));
}

describe("who may open the screens", () => {
  it("a supplier is not authorized on the catalog, the inventory and the import", async () => {
    for (const open of [() => openCatalog("supplier.admin"), () => openInventory("supplier.admin"), () => openImport("supplier.admin")]) {
      const outcome = await open();
      expect(outcome.location).toBe("/not-authorized");
    }
    const posted = await postFeed("supplier.admin", "feed.csv", "id,title,availability,party,brand,price\nX-1,T,in stock,1P,B,1");
    expect(posted.location).toBe("/not-authorized");
    expect((await openStatus("supplier.admin", "any")).location).toBe("/not-authorized");
    expect(await storage().catalog.getOne("X-1")).toBeNull();
  });

  it("retailer staff read the catalog, but an import is refused to them: not offered, not authorized, 403 when forged", async () => {
    for (const who of ["retailer.viewer", "retailer.admin"]) {
      const catalog = await openCatalog(who);
      expect(catalog.status).toBe(200);
      expect(catalog.data.canImport).toBe(false);
      expect((await openImport(who)).location).toBe("/not-authorized");
      const posted = await postFeed(who, "feed.csv", "id,title,availability,party,brand,price\nX-2,T,in stock,1P,B,1");
      expect(posted.status).toBe(403);
      expect(posted.data.error).toBe("errors.insufficientPermissions");
      expect((await openStatus(who, "any")).location).toBe("/not-authorized");
    }
    // Nothing was stored nor queued for them.
    expect((await storage().catalogImports.list({})).items).toEqual([]);
    expect(await storage().catalog.getOne("X-2")).toBeNull();
    expect((await openCatalog("operator")).data.canImport).toBe(true);
    expect((await openImport("operator")).status).toBe(200);
  });
});

describe("the catalog", () => {
  it("lists products by title, 25 a page, with the next page's cursor in the URL; filters combine", async () => {
    const first = await openCatalog("retailer.viewer");
    expect(first.data.total).toBe(3000);
    expect(first.data.rows).toHaveLength(25);
    const titles = first.data.rows.map((r: { title: string }) => r.title);
    expect(titles).toEqual([...titles].sort((a: string, b: string) => a.localeCompare(b, "en", { sensitivity: "base" })));
    expect(first.data.rows[0]).toMatchObject({ image: expect.stringMatching(/^\/images\/products\//), price: expect.any(Number) });
    expect(first.data.next).toEqual(expect.any(String));
    const second = await openCatalog("retailer.viewer", `?after=${encodeURIComponent(first.data.next)}`);
    expect(second.data.rows).toHaveLength(25);
    expect(second.data.rows[0].id).not.toBe(first.data.rows[0].id);

    const filtered = await openCatalog("retailer.viewer", "?party=1P&availability=in+stock&brand=Acme");
    expect(filtered.data.rows.length).toBeGreaterThan(0);
    for (const row of filtered.data.rows) expect(row).toMatchObject({ party: "1P", availability: "in stock", brand: "Acme" });
    expect(filtered.data.brands).toContain("Acme");
    // An unknown value of a filter is dropped, not an error.
    expect((await openCatalog("retailer.viewer", "?party=9P")).data.filters.party).toBe("");
  });

  it("searches through the search client, ranked, with the filters, paged by place", async () => {
    const found = await openCatalog("retailer.viewer", "?q=coffee+beans");
    expect(found.data.rows.length).toBeGreaterThan(0);
    for (const row of found.data.rows) expect(row.title).toMatch(/coffee/i);
    const filtered = await openCatalog("retailer.viewer", "?q=shampoo&party=1P");
    for (const row of filtered.data.rows) expect(row).toMatchObject({ party: "1P", title: expect.stringMatching(/shampoo/i) });
    // A broad search: its best 100 matches, 25 a page.
    const broad = await openCatalog("retailer.viewer", "?q=acme");
    expect(broad.data.searchCapped).toBe(true);
    expect(broad.data.next).toBe("25");
    const page2 = await openCatalog("retailer.viewer", "?q=acme&after=25");
    expect(page2.data.rows[0].id).not.toBe(broad.data.rows[0].id);
    expect((await openCatalog("retailer.viewer", "?q=zzzznothing")).data.rows).toEqual([]);
    // Filters on a search that reached its 100 best matches apply to those only: the screen says so.
    expect(broad.data.filtersWithinCap).toBe(false);
    const narrowed = await openCatalog("retailer.viewer", "?q=acme&availability=preorder");
    expect(narrowed.data).toMatchObject({ searchCapped: true, filtersWithinCap: true });
    expect((await openCatalog("retailer.viewer", "?availability=preorder")).data.filtersWithinCap).toBe(false);
    const t = await (await import("~/services/i18n.server")).getFixedT("en-GB");
    expect(t("catalog:searchCappedFiltered", { count: 100 })).toBe(
      "The filters apply to the search's 100 best matches only, so some products they select may be missing: add words to the search, or clear it to filter the whole catalog.",
    );
  });

  it("names the published campaigns that sponsor a product, linking by id, and nothing else", async () => {
    const campaign = await storage().campaigns.create(makeCampaignData({ name: "Espresso week", team: "acme-brand" }), { by: "system" });
    await storage().publication.apply(campaign.id, makePublishedCampaign(campaign.id, ["SKU-000001", "SKU-000002"], { team: "acme-brand" }));
    await storage().publication.apply("campaign-gone", makePublishedCampaign("campaign-gone", ["SKU-000001"]));
    const product = await storage().catalog.getOne("SKU-000001");
    const found = await openCatalog("retailer.viewer", `?q=${encodeURIComponent(product!.title)}`);
    const row = found.data.rows.find((r: { id: string }) => r.id === "SKU-000001");
    expect(row.campaigns).toEqual([{ id: campaign.id, name: "Espresso week" }]);
    expect(row.moreCampaigns).toBe(0);
  });
});

describe("the catalog import", () => {
  it("queues the feed as a job and sends the user to its page; the job imports the good rows and the page reports the bad ones", async () => {
    const csv = [
      "id,title,availability,party,brand,price,stroke_price,categories,colour",
      "IMP-0001,Zanzibar Vanilla Pods x3,in_stock,1P,Epicerie Fine,8.90,10.50,Grocery > Spices,red",
      "IMP-0002,Zanzibar Cloves 40 g,preorder,3P,Epicerie Fine,3.20,,,",
      "IMP-0003,,in stock,1P,Epicerie Fine,2.00,,,",
      "IMP-0004,Zanzibar Pepper,somewhere,1P,Epicerie Fine,free,,,",
      "SKU-000003,Renamed by the feed,in stock,1P,Acme,4.99,,,",
    ].join("\n");
    const posted = await postFeed("operator", "spices.csv", csv);
    expect(posted.status).toBe(302);
    const id = importIdOf(posted.location!);
    // Nothing is written inside the request: the page shows the import waiting for its job.
    expect(await storage().catalog.getOne("IMP-0001")).toBeNull();
    const waiting = await openStatus("operator", id);
    expect(waiting.data).toMatchObject({ fileName: "spices.csv", status: "queued", by: "Olivia Operator", rows: null });

    expect(await runJobs()).toEqual([{ kind: "catalogImport", outcome: "done" }]);
    const page = await openStatus("operator", id);
    expect(page.data).toMatchObject({ fileName: "spices.csv", format: "csv", status: "done", rows: 5, imported: 2, updated: 1, badCount: 2, ignoredColumns: ["colour"], progress: 100, failure: null });
    expect(page.data.bad).toEqual([
      { line: 4, id: "IMP-0003", reasons: ["catalog:import.reasons.titleMissing"] },
      { line: 5, id: "IMP-0004", reasons: ["catalog:import.reasons.availabilityInvalid", "catalog:import.reasons.priceInvalid"] },
    ]);
    expect(await storage().catalog.getOne("IMP-0001")).toMatchObject({ price: 890, stroke_price: 1050, availability: "in stock", categories: ["Grocery > Spices"] });
    expect(await storage().catalog.getOne("IMP-0003")).toBeNull();
    expect((await storage().catalog.getOne("SKU-000003"))!.title).toBe("Renamed by the feed");
    expect((await openCatalog("retailer.viewer")).data.total).toBe(3002);
    // The stored feed is removed once it is imported; the report stays.
    expect(await storage().catalogImports.getOne(id)).toMatchObject({ fileKey: null, status: "done" });

    const found = await openCatalog("retailer.viewer", "?q=zanzibar");
    expect(found.data.rows.map((r: { id: string }) => r.id).sort()).toEqual(["IMP-0001", "IMP-0002"]);
    const byBrand = await openCatalog("retailer.viewer", "?brand=epicerie+fine");
    expect(byBrand.data.rows.map((r: { id: string }) => r.id).sort()).toEqual(["IMP-0001", "IMP-0002"]);

    // The import screen lists it, newest first, with its result.
    const screen = await openImport("operator");
    expect(screen.data.imports[0]).toMatchObject({ id, fileName: "spices.csv", by: "Olivia Operator", status: "done", imported: 2, updated: 1, badCount: 2 });
  });

  it("is recorded in Activity: who started it, when, the file and its result; and the job is listed with its outcome", async () => {
    const posted = await postFeed("operator", "activity.json", JSON.stringify([{ id: "IMP-A1", title: "Activity Tea", availability: "in stock", party: "1P", brand: "Golden Grain", price: 2.49 }]));
    const id = importIdOf(posted.location!);
    await runJobs();
    const activity = await call(() => app.m.routes.health.loader({ request: getRequest("/health?entity=catalogImport", { cookie: cookies.operator }), params: {}, context } as never));
    const entries = activity.data.entries.filter((e: { entityId: string }) => e.entityId === id);
    expect(entries.map((e: { actionLabel: string; entityLabel: string; subject: string; byName: string }) => [e.actionLabel, e.entityLabel, e.subject, e.byName])).toEqual([
      ["Finished", "Catalog import", "activity.json", "Olivia Operator"],
      ["Started", "Catalog import", "activity.json", "Olivia Operator"],
    ]);
    const finished = entries[0] as { atText: string; changes: { label: string; after: { text: string } }[] };
    expect(finished.atText).not.toMatch(/T\d\d:/);
    expect(finished.changes.map((c) => [c.label, c.after.text])).toEqual([
      ["File", "activity.json"],
      ["Rows read", "1"],
      ["New products", "1"],
      ["Products updated", "0"],
      ["Bad rows", "0"],
    ]);
    const job = activity.data.work.rows.find((r: { id: string }) => r.id === `catalog-import-${id}`);
    expect(job).toMatchObject({ name: "Catalog import: activity.json", state: "done", stateLabel: "Done" });
  });

  it("is a use case a script calls without a user (the system), and that refuses a user without the right", async () => {
    const { importCatalogFeed } = await import("~/services/catalog-import.server");
    const feed = { fileName: "nightly.csv", content: "id,title,availability,party,brand,price\nIMP-S1,Nightly Tea,in stock,1P,Golden Grain,1.99" };
    const viewer = (await storage().users.getByEmail("retailer.viewer@example.com"))!;
    expect(await importCatalogFeed(viewer, feed)).toMatchObject({ ok: false, kind: "forbidden", reason: "errors.insufficientPermissions" });
    await runJobs();
    expect(await storage().catalog.getOne("IMP-S1")).toBeNull();
    const result = await importCatalogFeed(null, feed);
    expect(result.ok).toBe(true);
    await runJobs();
    expect((await storage().catalog.getOne("IMP-S1"))!.title).toBe("Nightly Tea");
  });

  it("refuses a feed it cannot process: the page says why, and 'catalog processing failed' is raised to the catalog's readers", async () => {
    const posted = await postFeed("operator", "broken.csv", "id,title,brand\nIMP-X,Thing,Acme");
    expect(posted.status).toBe(302);
    const id = importIdOf(posted.location!);
    expect(await runJobs()).toEqual([{ kind: "catalogImport", outcome: "failed" }]);
    const page = await openStatus("operator", id);
    expect(page.data).toMatchObject({ status: "failed", failure: 'catalog:import.errors.missingColumns::{"columns":"availability, party, price"}' });
    expect(await storage().catalog.getOne("IMP-X")).toBeNull();
    // The operator opens the import; retailer staff, who may not open imports, the catalog.
    expect(await notificationTypes("operator@example.com")).toContainEqual({ type: "catalogProcessingFailed", values: { file: "broken.csv", imported: 0 }, link: `/catalog/import/${id}` });
    expect(await notificationTypes("retailer.viewer@example.com")).toContainEqual({ type: "catalogProcessingFailed", values: { file: "broken.csv", imported: 0 }, link: "/catalog" });
    expect((await notificationTypes("supplier.admin@example.com")).map((n) => n.type)).not.toContain("catalogProcessingFailed");

    const missing = await postFeed("operator", "", "");
    expect(missing.status).toBe(400);
  });

  it("reads a UTF-16 feed with its byte order mark, and refuses at once a feed that is not UTF-8 rather than store U+FFFD for its accents", async () => {
    const header = "id,title,availability,party,brand,price\n";
    const utf16 = new Uint8Array([0xff, 0xfe, ...Buffer.from(`${header}IMP-U16,Café crème 250 g,in stock,1P,Maison Dufour,4.99\n`, "utf16le")]);
    const posted = await postFeed("operator", "unicode.csv", utf16);
    expect(posted.status).toBe(302);
    await runJobs();
    expect((await storage().catalog.getOne("IMP-U16"))!.title).toBe("Café crème 250 g");

    // Excel's CSV on Windows writes Windows-1252: "é" is the byte 0xE9.
    const latin1 = new Uint8Array(Buffer.from(`${header}IMP-1252,Café crème 250 g,in stock,1P,Maison Dufour,4.99\n`, "latin1"));
    const refused = await postFeed("operator", "excel.csv", latin1);
    expect(refused.status).toBe(400);
    expect(refused.data.result.error[""]).toEqual(["catalog:import.errors.notUtf8"]);
    const t = await (await import("~/services/i18n.server")).getFixedT("en-GB");
    expect(t("catalog:import.errors.notUtf8")).toBe("The file is not UTF-8 text: save it as CSV UTF-8 (or Unicode text) and import it again.");
    await runJobs();
    expect(await storage().catalog.getOne("IMP-1252")).toBeNull();
    expect((await storage().catalogImports.list({ limit: 5 })).items.map((i) => i.fileName)).not.toContain("excel.csv");
  });

  it("a batch that fails stops the import: the batches before it stay written, nothing of it is, and the failure is raised", async () => {
    const lines = ["id,title,availability,party,brand,price"];
    for (let i = 1; i <= 500; i++) lines.push(`BATCH-${String(i).padStart(4, "0")},Batch product ${i},in stock,1P,Batchco,1.00`);
    const catalog = storage().catalog;
    const real = catalog.upsertMany.bind(catalog);
    let calls = 0;
    const spy = vi.spyOn(catalog, "upsertMany").mockImplementation(async (products) => {
      calls++;
      if (calls === 2) throw new Error("storage went away");
      return real(products);
    });
    let id: string;
    try {
      const posted = await postFeed("operator", "big.csv", lines.join("\n"));
      id = importIdOf(posted.location!);
      expect(await runJobs()).toEqual([{ kind: "catalogImport", outcome: "failed" }]);
    } finally {
      spy.mockRestore();
    }
    expect((await openStatus("operator", id)).data).toMatchObject({ status: "failed", imported: 400, failure: 'catalog:import.errors.failed::{"imported":400,"batch":2}' });
    expect(await storage().catalog.getOne("BATCH-0400")).not.toBeNull();
    expect(await storage().catalog.getOne("BATCH-0401")).toBeNull();
    expect(await notificationTypes("retailer.admin@example.com")).toContainEqual({ type: "catalogProcessingFailed", values: { file: "big.csv", imported: 400 }, link: "/catalog" });
  });

  it("keeps in the scheduled work the jobs of the latest 20 imports only; older imports keep their page", async () => {
    const { importCatalogFeed, catalogImportJobId } = await import("~/services/catalog-import.server");
    const ids: string[] = [];
    for (let i = 0; i < 22; i++) {
      const started = await importCatalogFeed(null, { fileName: `tiny-${i}.csv`, content: `id,title,availability,party,brand,price\nTINY-${i},Tiny ${i},in stock,1P,Tiny,1.00` });
      if (!started.ok) throw new Error("not started");
      ids.push(started.value.id);
      await runJobs();
    }
    expect(await storage().jobs.getOne(catalogImportJobId(ids[0]!))).toBeNull();
    expect(await storage().jobs.getOne(catalogImportJobId(ids[1]!))).toBeNull();
    expect(await storage().jobs.getOne(catalogImportJobId(ids[2]!))).toMatchObject({ kind: "catalogImport", lastRun: { outcome: "done" } });
    expect((await openStatus("operator", ids[0]!)).data).toMatchObject({ fileName: "tiny-0.csv", status: "done", imported: 1 });
  });

  it("resumes after a restart mid-way from the first batch not recorded, without writing the earlier ones again", async () => {
    const lines = ["id,title,availability,party,brand,price"];
    for (let i = 1; i <= 900; i++) lines.push(`RES-${String(i).padStart(4, "0")},Resumed product ${i},in stock,1P,Resumeco,1.00`);
    const { importCatalogFeed, runCatalogImport } = await import("~/services/catalog-import.server");
    const started = await importCatalogFeed(null, { fileName: "resume.csv", content: lines.join("\n") });
    if (!started.ok) throw new Error("not started");
    const id = started.value.id;
    // The first run stops after its first batch, as a process killed there would.
    const controller = new AbortController();
    const catalog = storage().catalog;
    const real = catalog.upsertMany.bind(catalog);
    const written: string[] = [];
    const spy = vi.spyOn(catalog, "upsertMany").mockImplementation(async (products) => {
      written.push(products[0]!.id);
      const n = await real(products);
      controller.abort();
      return n;
    });
    try {
      expect(await runCatalogImport(id, { signal: controller.signal })).toMatchObject({ ok: false, reason: "catalogImport:errors.interrupted" });
      expect(await storage().catalogImports.getOne(id)).toMatchObject({ status: "running", batchesDone: 1, imported: 400 });
      // Taken over (the job's next attempt): batches 2 and 3 only.
      expect(await runCatalogImport(id)).toMatchObject({ ok: true, value: { status: "done", batchesDone: 3, imported: 900, updated: 0 } });
      expect(written).toEqual(["RES-0001", "RES-0401", "RES-0801"]);
      // A run repeated once it is done writes nothing.
      expect(await runCatalogImport(id)).toMatchObject({ ok: true, value: { status: "done" } });
      expect(written).toHaveLength(3);
    } finally {
      spy.mockRestore();
    }
    expect(await storage().catalog.getOne("RES-0900")).not.toBeNull();
  });
});

describe("the inventory", () => {
  it("shows page types with their slots from the retailer settings", async () => {
    const inventory = await openInventory("retailer.viewer");
    expect(inventory.status).toBe(200);
    const search = inventory.data.pageTypes.find((p: { placement: string }) => p.placement === "search");
    expect(search.slots).toContainEqual({ type: "sponsored-products", slots: ["sp"] });
    const pdp = inventory.data.pageTypes.find((p: { placement: string }) => p.placement === "pdp");
    expect(pdp.slots).toContainEqual({ type: "sponsored-products", slots: ["slider"] });
  });

  it("gives keyword and category demand with floor prices and suggested bids; the operators' figures to operators only", async () => {
    const viewer = await openInventory("retailer.viewer", "?q=coffee");
    expect(viewer.data.operatorFigures).toBe(false);
    expect(viewer.data.keywords.failed).toBeNull();
    expect(viewer.data.categories.hits.length).toBeGreaterThan(0);
    const category = viewer.data.categories.hits[0];
    expect(category).toHaveProperty("floor_price");
    expect(category).toHaveProperty("suggested_bid");
    expect(category).not.toHaveProperty("products_per_page");
    expect(category).not.toHaveProperty("fill_rate");

    const operator = await openInventory("operator", "?q=coffee");
    expect(operator.data.operatorFigures).toBe(true);
    expect(operator.data.categories.hits[0]).toHaveProperty("products_per_page");
    expect(operator.data.categories.hits[0]).toHaveProperty("fill_rate");
    expect(operator.data.categories.hits[0]).toHaveProperty("conversion_rate");
  });
});
