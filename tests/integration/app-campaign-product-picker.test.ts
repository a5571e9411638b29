/**
 * Issue 10 section 2, products, through the real route loaders and actions: the picker's search
 * and suggestions (brand-scoped for a supplier), the forged add of a product outside the team's
 * brands, the CSV import (report, one transaction, limits), positions saved by drag and drop
 * (save-positions with the page's query kept), per-product statistics for a period, and the
 * failure titles 'Fetch campaign products data' and 'No fetched campaign'. Refusals: a viewer,
 * a campaign of another team.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MetricsStore } from "~/metrics/port";
import { makeProductInput, makeTeamData } from "../factories";
import { fact } from "./metrics.contract";
import { BASE_URL, call, getRequest, postRequest, signIn, startApp, type TestApp, createDraftThroughForm } from "./app-helpers";

let app: TestApp;
let metrics: MetricsStore;
let routes: {
  create: typeof import("~/routes/teams.$teamId.campaigns.new.$type");
  products: typeof import("~/routes/campaigns.$campaignId.products");
  search: typeof import("~/routes/campaigns.$campaignId.product-search");
};
let metricsIndex: typeof import("~/metrics/index.server");
let t: Awaited<ReturnType<typeof import("~/services/i18n.server").getFixedT>>;
const cookies: Record<string, string> = {};
const TEAM = "acme-brand";
const context = { requestId: "t", clientIp: "127.0.0.1" };
const RUN = randomUUID().slice(0, 6).toUpperCase();
/** A word found only in this file's products. */
const WORD = `Quokka${RUN.toLowerCase().replace(/[^a-z]/g, "q")}`;
const sku = (name: string) => `PK-${RUN}-${name}`;
const storage = () => app.m.storageIndex.getStorage();
const fresh = async (id: string) => (await storage().campaigns.getOne(id))!;
const productsPath = (id: string) => `/campaigns/${id}/products`;

function run(fn: (a: never) => unknown, request: Request, params: Record<string, string>) {
  return call(() => fn({ request, params, context } as never));
}

async function newCampaign(who = "supplier.admin", team = TEAM): Promise<string> {
  return createDraftThroughForm(routes.create.action, context, cookies[who], { team, name: `Picker ${randomUUID().slice(0, 8)}` });
}

const loadProducts = (who: string, id: string, query = "") => run(routes.products.loader, getRequest(`${productsPath(id)}${query}`, { cookie: cookies[who] }), { campaignId: id });
const searchAsYouType = (who: string, id: string, q: string) =>
  run(routes.search.loader, getRequest(`/campaigns/${id}/product-search?${new URLSearchParams({ q })}`, { cookie: cookies[who] }), { campaignId: id });

async function post(who: string, id: string, form: Record<string, string>) {
  const version = form.version ?? String((await fresh(id)).version);
  return run(routes.products.action, postRequest(productsPath(id), { ...form, version }, { cookie: cookies[who] }), { campaignId: id });
}

/** The CSV import as the browser sends it: multipart, with the file. */
async function importCsv(who: string, id: string, text: string | Uint8Array<ArrayBuffer>, options: { version?: string; name?: string; params?: Record<string, string> } = {}) {
  const body = new FormData();
  body.set("intent", "import-products");
  body.set("version", options.version ?? String((await fresh(id)).version));
  body.set("file", new File([text], options.name ?? "skus.csv", { type: "text/csv" }));
  const request = new Request(new URL(productsPath(id), BASE_URL), { method: "POST", headers: { Cookie: cookies[who]! }, body });
  return run(routes.products.action, request, { campaignId: id, ...options.params });
}

const message = (key: string) => {
  const [k, json] = key.split("::");
  return t(k!, json ? JSON.parse(json) : undefined);
};
const offerIds = async (id: string) => Object.keys((await fresh(id)).offers ?? {}).sort();

beforeAll(async () => {
  app = await startApp();
  process.env.SEARCH_SYNC_INTERVAL_MS = "0";
  routes = {
    create: await import("~/routes/teams.$teamId.campaigns.new.$type"),
    products: await import("~/routes/campaigns.$campaignId.products"),
    search: await import("~/routes/campaigns.$campaignId.product-search"),
  };
  (await import("~/services/search.server")).resetSearchSyncForTests();
  metricsIndex = await import("~/metrics/index.server");
  const sqlite = await import("~/metrics/sqlite.server");
  metrics = new sqlite.SqliteMetricsStore(path.join(app.dir, "picker-metrics.db"));
  metricsIndex.setMetricsStoreForTests(metrics);
  t = await (await import("~/services/i18n.server")).getFixedT("en-GB");
  for (const email of ["operator@example.com", "retailer.admin@example.com", "supplier.admin@example.com", "supplier.viewer@example.com"]) {
    cookies[email.split("@")[0]!] = await signIn(app.m, email, app.demoPassword);
  }
  await storage().catalog.upsertMany([
    makeProductInput({ id: sku("A"), title: `${WORD} Alpha kettle`, brand: "Acme", availability: "in stock", party: "1P" }),
    makeProductInput({ id: sku("B"), title: `${WORD} Bravo kettle`, brand: "Acme", availability: "in store", party: "1P" }),
    makeProductInput({ id: sku("C"), title: `${WORD} Charlie kettle`, brand: "Acme", availability: "preorder", party: "1P" }),
    makeProductInput({ id: sku("Z"), title: `${WORD} Zeta kettle`, brand: "Zeta Home", availability: "in stock", party: "1P" }),
    makeProductInput({ id: sku("X3"), title: `${WORD} Xray marketplace kettle`, brand: "Acme", availability: "in stock", party: "3P" }),
  ]);
});

afterAll(async () => {
  delete process.env.SEARCH_SYNC_INTERVAL_MS;
  metricsIndex?.setMetricsStoreForTests(undefined);
  await metrics?.close();
  await app?.stop();
});

describe("the picker", () => {
  it("finds a supplier only its team's brands, as you type and without JavaScript, marking what is in the campaign or would mix 1P and 3P", async () => {
    const id = await newCampaign();
    await post("supplier.admin", id, { intent: "add-products", ids: sku("A") });
    const typed = await searchAsYouType("supplier.admin", id, WORD.slice(0, 7));
    expect(typed.status).toBe(200);
    const rows = typed.data.rows as { id: string; inCampaign: boolean; clashes: boolean; brand: string }[];
    expect(rows.map((r) => r.id).sort()).toEqual([sku("A"), sku("B"), sku("C"), sku("X3")].sort());
    expect(rows.find((r) => r.id === sku("A"))).toMatchObject({ inCampaign: true, clashes: false });
    expect(rows.find((r) => r.id === sku("X3"))).toMatchObject({ inCampaign: false, clashes: true });
    // The same search as a GET form (without JavaScript): the page lists it.
    const page = await loadProducts("supplier.admin", id, `?q=${WORD}`);
    expect(page.data.picker).toMatchObject({ query: WORD, suggested: false });
    expect(page.data.picker.rows.map((r: { id: string }) => r.id)).not.toContain(sku("Z"));
    // An operator building the same campaign may sponsor any brand.
    const operator = await searchAsYouType("operator", id, WORD);
    expect(operator.data.rows.map((r: { id: string }) => r.id)).toContain(sku("Z"));
  });

  it("suggests products with nothing typed, never those already in the campaign", async () => {
    const id = await newCampaign();
    await post("supplier.admin", id, { intent: "add-products", ids: sku("B") });
    const page = await loadProducts("supplier.admin", id);
    expect(page.data.picker.suggested).toBe(true);
    const suggested = page.data.picker.rows as { id: string; brand: string }[];
    expect(suggested.length).toBeGreaterThan(0);
    expect(suggested.map((r) => r.id)).not.toContain(sku("B"));
    expect(suggested.every((r) => r.brand === "Acme")).toBe(true);
  });

  it("refuses a forged add of a product outside the supplier's brands (saved nothing), which an operator may add", async () => {
    const id = await newCampaign();
    const before = (await fresh(id)).version;
    const forged = await post("supplier.admin", id, { intent: "add-products", ids: sku("Z") });
    expect(forged.status).toBe(400);
    expect(t(forged.data.failure)).toBe("Upsert product");
    expect(forged.data.report.unknown).toEqual([sku("Z")]);
    expect((await fresh(id)).version).toBe(before);
    expect(await offerIds(id)).toEqual([]);
    const operator = await post("operator", id, { intent: "add-products", ids: sku("Z") });
    expect(operator.status).toBe(302);
    expect(await offerIds(id)).toEqual([sku("Z")]);
  });

  it("keeps the page's query and period after adding from the results", async () => {
    const id = await newCampaign();
    const outcome = await post("supplier.admin", id, { intent: "add-products", ids: sku("C"), back: `?q=${WORD}&period=yesterday` });
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe(`${productsPath(id)}?q=${WORD}&period=yesterday`);
    // Only this page's query string is taken.
    const elsewhere = await post("supplier.admin", id, { intent: "add-products", ids: sku("A"), back: "https://evil.example/x" });
    expect(elsewhere.location).toBe(productsPath(id));
  });

  it("refuses the search to a viewer (403) and to a campaign of another team (404)", async () => {
    const id = await newCampaign();
    expect((await searchAsYouType("supplier.viewer", id, WORD)).status).toBe(403);
    expect((await loadProducts("supplier.viewer", id)).data.picker).toBeNull();
    const other = await storage().teams.create(makeTeamData({ name: `Other ${RUN}` }), { by: "system" });
    const theirs = await newCampaign("retailer.admin", other.id);
    expect((await searchAsYouType("supplier.admin", theirs, WORD)).status).toBe(404);
    expect((await importCsv("supplier.admin", theirs, `sku\n${sku("A")}`, { version: "1" })).status).toBe(404);
  });
});

describe("the CSV import", () => {
  it("imports the known SKUs in one save and reports the unknown ones and the lines without a value", async () => {
    const id = await newCampaign();
    const before = (await fresh(id)).version;
    const outcome = await importCsv("supplier.admin", id, `name;SKU\nAlpha;${sku("A")}\nEmpty;\nNope;NOPE-${RUN}\nBravo;${sku("B")}\n;\n`);
    expect(outcome.status).toBe(200);
    expect(outcome.data.report).toEqual({ column: "SKU", imported: 2, present: [], unknown: [`NOPE-${RUN}`], bad: [3, 6] });
    expect(await offerIds(id)).toEqual([sku("A"), sku("B")].sort());
    expect((await fresh(id)).version).toBe(before + 1);
  });

  it("a clean file: a redirect with the count; a second time the products are reported as present", async () => {
    const id = await newCampaign();
    const clean = await importCsv("supplier.admin", id, `sku\n${sku("A")}\n${sku("C")}\n`);
    expect(clean.status).toBe(302);
    const again = await importCsv("supplier.admin", id, `sku\n${sku("A")}\n`);
    expect(again.status).toBe(400);
    expect(again.data.report.present).toEqual([sku("A")]);
  });

  it("applies nothing when one product would mix 1P and 3P, or when the campaign changed meanwhile", async () => {
    const id = await newCampaign();
    await post("supplier.admin", id, { intent: "add-products", ids: sku("A") });
    const before = await fresh(id);
    const mixed = await importCsv("supplier.admin", id, `sku\n${sku("B")}\n${sku("X3")}\n`);
    expect(mixed.status).toBe(400);
    expect(t(mixed.data.failure)).toBe("Upsert mass product");
    expect(message(mixed.data.message)).toContain(sku("X3"));
    expect(await offerIds(id)).toEqual([sku("A")]);
    const stale = await importCsv("supplier.admin", id, `sku\n${sku("B")}\n`, { version: String(before.version - 1) });
    expect(stale.status).toBe(409);
    expect((await fresh(id)).version).toBe(before.version);
  });

  it("refuses a file without a named column, one without values, and one over 512 KB", async () => {
    const id = await newCampaign();
    const noColumn = await importCsv("supplier.admin", id, `${sku("A")}\n${sku("B")}\n`);
    expect(noColumn.status).toBe(400);
    expect(message(noColumn.data.message)).toBe("No column named sku, id, product_id or reference in the first line of this file.");
    const noValues = await importCsv("supplier.admin", id, "id,name\n,a\n,b\n");
    expect(noValues.status).toBe(400);
    expect(noValues.data.report.bad).toEqual([2, 3]);
    const big = await importCsv("supplier.admin", id, `sku\n${"X".repeat(512 * 1024)}`);
    expect(big.status).toBe(400);
    expect(big.data.result.error.file).toEqual(["campaignProductPicker:import.errors.tooLarge"]);
    expect(await offerIds(id)).toEqual([]);
  });

  it("reads a spreadsheet's UTF-16 'Unicode text' file, and refuses a file that is not UTF-8 instead of misreading it", async () => {
    const id = await newCampaign();
    // Excel's "Unicode text": UTF-16 little-endian with its byte order mark, columns separated by tabs.
    const utf16 = new Uint8Array([0xff, 0xfe, ...Buffer.from(`Référence\tsku\nÉté\t${sku("A")}\n`, "utf16le")]);
    const read = await importCsv("supplier.admin", id, utf16);
    expect(read.status).toBe(302);
    expect(await offerIds(id)).toEqual([sku("A")]);
    // A Windows-1252 export: "é" is byte 0xE9, which is no UTF-8.
    const latin1 = Buffer.from(`Désignation;sku\nCafé;${sku("B")}\n`, "latin1");
    const refused = await importCsv("supplier.admin", id, new Uint8Array(latin1));
    expect(refused.status).toBe(400);
    expect(message(refused.data.message)).toBe("This file is not UTF-8 text: save it as CSV UTF-8 (or Unicode text) and import it again.");
    expect(await offerIds(id)).toEqual([sku("A")]);
  });

  it("refuses a viewer (403) and a form without the loaded campaign ('No fetched campaign')", async () => {
    const id = await newCampaign();
    const viewer = await importCsv("supplier.viewer", id, `sku\n${sku("A")}`);
    expect(viewer.status).toBe(403);
    const body = new FormData();
    body.set("intent", "import-products");
    body.set("file", new File([`sku\n${sku("A")}`], "a.csv", { type: "text/csv" }));
    const request = new Request(new URL(productsPath(id), BASE_URL), { method: "POST", headers: { Cookie: cookies["supplier.admin"]! }, body });
    const noVersion = await run(routes.products.action, request, { campaignId: id });
    expect(noVersion.status).toBe(400);
    expect(t(noVersion.data.failure)).toBe("No fetched campaign");
    const noCampaign = await run(routes.products.action, postRequest("/campaigns//products", { intent: "remove-product", productId: sku("A"), version: "1" }, { cookie: cookies["supplier.admin"] }), {});
    expect(t(noCampaign.data.failure)).toBe("No fetched campaign");
    expect(await offerIds(id)).toEqual([]);
  });
});

describe("order and statistics", () => {
  it("saves a new order as positions (drag and drop sends them all), keeping the page's query", async () => {
    const id = await newCampaign();
    await post("supplier.admin", id, { intent: "add-products", ids: `${sku("A")} ${sku("B")} ${sku("C")}` });
    // By availability first: A in stock, B in store, C preorder.
    expect((await loadProducts("supplier.admin", id)).data.products.map((p: { id: string }) => p.id)).toEqual([sku("A"), sku("B"), sku("C")]);
    const saved = await post("supplier.admin", id, {
      intent: "save-positions",
      "positions[0].id": sku("C"),
      "positions[0].pos": "1",
      "positions[1].id": sku("A"),
      "positions[1].pos": "2",
      "positions[2].id": sku("B"),
      "positions[2].pos": "3",
      back: "?period=last7",
    });
    expect(saved.status).toBe(302);
    expect(saved.location).toBe(`${productsPath(id)}?period=last7`);
    expect((await loadProducts("supplier.admin", id)).data.products.map((p: { id: string; pos: number }) => [p.id, p.pos])).toEqual([
      [sku("C"), 1],
      [sku("A"), 2],
      [sku("B"), 3],
    ]);
  });

  it("shows each product's displays, clicks, CTR, spend, sales and ROAS for the period chosen", async () => {
    const id = await newCampaign();
    await post("supplier.admin", id, { intent: "add-products", ids: `${sku("A")} ${sku("B")}` });
    const now = new Date();
    const yesterday = new Date(now.getTime() - 86_400_000);
    await metrics.applyBatch(
      `picker-${RUN}`,
      [
        fact(new Date(now.getTime() - 60_000).toISOString(), { team: TEAM, campaign: id, product: sku("A"), displays: 200, clicks: 10, costMicros: 5_000_000, salesCents: 4000, quantity: 2 }),
        fact(yesterday.toISOString(), { team: TEAM, campaign: id, product: sku("B"), displays: 50, clicks: 1, costMicros: 300_000 }),
      ],
      now.toISOString(),
    );
    const today = await loadProducts("supplier.admin", id);
    expect(today.data.fetchFailure).toBeNull();
    expect(today.data.figures[sku("A")]).toMatchObject({ displays: 200, clicks: 10, ctr: 0.05, cost: 500, sales: 4000, roas: 8 });
    expect(today.data.figures[sku("B")]).toBeUndefined();
    const before = await loadProducts("supplier.admin", id, "?period=yesterday");
    expect(before.data.choice.preset).toBe("yesterday");
    expect(before.data.figures[sku("B")]).toMatchObject({ displays: 50, clicks: 1, cost: 30 });
  });

  it("says 'Fetch campaign products data' when the statistics or the search cannot be read, and still lists the products", async () => {
    const id = await newCampaign();
    await post("supplier.admin", id, { intent: "add-products", ids: sku("A") });
    process.env.SEARCH_API_URL = "http://127.0.0.1:9/search";
    process.env.METRICS_API_URL = "http://127.0.0.1:9/metrics";
    try {
      const page = await loadProducts("supplier.admin", id);
      expect(page.status).toBe(200);
      expect(t(page.data.fetchFailure)).toBe("Fetch campaign products data");
      expect(page.data.products.map((p: { id: string }) => p.id)).toEqual([sku("A")]);
      const typed = await searchAsYouType("supplier.admin", id, WORD);
      expect(t(typed.data.failure)).toBe("Fetch campaign products data");
    } finally {
      delete process.env.SEARCH_API_URL;
      delete process.env.METRICS_API_URL;
    }
  });
});
