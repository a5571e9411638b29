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
function openImport(who: string) {
  return call(() => routes.importer.loader({ request: getRequest("/catalog/import", { cookie: cookies[who] }), params: {}, context } as never));
}
/** What a browser posts: the multipart form with the feed file. */
function postFeed(who: string, fileName: string, content: string) {
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
    }
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
  it("imports the good rows of a CSV and reports the bad ones; the products are then listed and found", async () => {
    const csv = [
      "id,title,availability,party,brand,price,stroke_price,categories,colour",
      "IMP-0001,Zanzibar Vanilla Pods x3,in_stock,1P,Epicerie Fine,8.90,10.50,Grocery > Spices,red",
      "IMP-0002,Zanzibar Cloves 40 g,preorder,3P,Epicerie Fine,3.20,,,",
      "IMP-0003,,in stock,1P,Epicerie Fine,2.00,,,",
      "IMP-0004,Zanzibar Pepper,somewhere,1P,Epicerie Fine,free,,,",
      "SKU-000003,Renamed by the feed,in stock,1P,Acme,4.99,,,",
    ].join("\n");
    const posted = await postFeed("operator", "spices.csv", csv);
    expect(posted.status).toBe(200);
    expect(posted.data.report).toMatchObject({ fileName: "spices.csv", format: "csv", rows: 5, imported: 3, badCount: 2, ignoredColumns: ["colour"] });
    expect(posted.data.report.bad).toEqual([
      { line: 4, id: "IMP-0003", reasons: ["catalog:import.reasons.titleMissing"] },
      { line: 5, id: "IMP-0004", reasons: ["catalog:import.reasons.availabilityInvalid", "catalog:import.reasons.priceInvalid"] },
    ]);
    expect(await storage().catalog.getOne("IMP-0001")).toMatchObject({ price: 890, stroke_price: 1050, availability: "in stock", categories: ["Grocery > Spices"] });
    expect(await storage().catalog.getOne("IMP-0003")).toBeNull();
    expect((await storage().catalog.getOne("SKU-000003"))!.title).toBe("Renamed by the feed");
    expect((await openCatalog("retailer.viewer")).data.total).toBe(3002);

    const found = await openCatalog("retailer.viewer", "?q=zanzibar");
    expect(found.data.rows.map((r: { id: string }) => r.id).sort()).toEqual(["IMP-0001", "IMP-0002"]);
    const byBrand = await openCatalog("retailer.viewer", "?brand=epicerie+fine");
    expect(byBrand.data.rows.map((r: { id: string }) => r.id).sort()).toEqual(["IMP-0001", "IMP-0002"]);
  });

  it("imports a JSON feed", async () => {
    const posted = await postFeed("operator", "feed.json", JSON.stringify({ products: [{ id: "IMP-J1", title: "Jasmine Rice 1 kg", availability: "in stock", party: "1P", brand: "Golden Grain", price: 2.49 }] }));
    expect(posted.data.report).toMatchObject({ format: "json", imported: 1, badCount: 0 });
    expect((await storage().catalog.getOne("IMP-J1"))!.price).toBe(249);
  });

  it("is a use case a job or a script calls without a user (the system), and that refuses a user without the right", async () => {
    const { importCatalogFeed } = await import("~/services/catalog-import.server");
    const feed = { fileName: "nightly.csv", content: "id,title,availability,party,brand,price\nIMP-S1,Nightly Tea,in stock,1P,Golden Grain,1.99" };
    const viewer = (await storage().users.getByEmail("retailer.viewer@example.com"))!;
    expect(await importCatalogFeed(viewer, feed)).toMatchObject({ ok: false, kind: "forbidden", reason: "errors.insufficientPermissions" });
    expect(await storage().catalog.getOne("IMP-S1")).toBeNull();
    const result = await importCatalogFeed(null, feed);
    expect(result).toMatchObject({ ok: true, value: { imported: 1, batches: 1, badCount: 0 } });
    expect((await storage().catalog.getOne("IMP-S1"))!.title).toBe("Nightly Tea");
  });

  it("refuses a feed it cannot process, says why, and raises 'catalog processing failed' to the catalog's readers", async () => {
    const posted = await postFeed("operator", "broken.csv", "id,title,brand\nIMP-X,Thing,Acme");
    expect(posted.status).toBe(400);
    expect(posted.data.error).toBe('catalog:import.errors.missingColumns::{"columns":"availability, party, price"}');
    expect(await storage().catalog.getOne("IMP-X")).toBeNull();
    for (const email of ["retailer.viewer@example.com", "operator@example.com"]) {
      expect(await notificationTypes(email)).toContainEqual({ type: "catalogProcessingFailed", values: { file: "broken.csv", imported: 0 }, link: "/catalog/import" });
    }
    expect((await notificationTypes("supplier.admin@example.com")).map((n) => n.type)).not.toContain("catalogProcessingFailed");

    const missing = await postFeed("operator", "", "");
    expect(missing.status).toBe(400);
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
    try {
      const posted = await postFeed("operator", "big.csv", lines.join("\n"));
      expect(posted.status).toBe(503);
      expect(posted.data.error).toBe('catalog:import.errors.failed::{"imported":400,"batch":2}');
    } finally {
      spy.mockRestore();
    }
    expect(await storage().catalog.getOne("BATCH-0400")).not.toBeNull();
    expect(await storage().catalog.getOne("BATCH-0401")).toBeNull();
    expect(await notificationTypes("retailer.admin@example.com")).toContainEqual({ type: "catalogProcessingFailed", values: { file: "big.csv", imported: 400 }, link: "/catalog/import" });
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
