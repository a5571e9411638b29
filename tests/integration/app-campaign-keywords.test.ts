/**
 * A campaign's Keywords and Categories sections (issue 10 §2) through the real route loaders and
 * actions: keywords typed one per line and imported from a CSV with bad lines (a report, the good
 * ones stored in one change), a bid under the floor refused with 'Minimum allowed bid: {0}' and
 * raised by 'Apply min bid' keeping the rest, the floor and suggested bid beside each bid,
 * negative keywords, a category found by the category search with the hub placement, auto
 * targeting after a product's removal, the counts kept on the campaign, and the refusals (a
 * viewer's 403, another team's campaign 404) under the spec's failure titles.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { makeProductInput, makeTeamData } from "../factories";
import { BASE_URL, call, getRequest, postRequest, signIn, startApp, type TestApp, createDraftThroughForm } from "./app-helpers";

let app: TestApp;
let routes: {
  create: typeof import("~/routes/teams.$teamId.campaigns.new.$type");
  keywords: typeof import("~/routes/campaigns.$campaignId.keywords");
  categories: typeof import("~/routes/campaigns.$campaignId.categories");
  products: typeof import("~/routes/campaigns.$campaignId.products");
  layout: typeof import("~/routes/campaigns.$campaignId");
};
let t: Awaited<ReturnType<typeof import("~/services/i18n.server").getFixedT>>;
const cookies: Record<string, string> = {};
const TEAM = "acme-brand";
const context = { requestId: "t", clientIp: "127.0.0.1" };
const RUN = randomUUID().slice(0, 6).toUpperCase();
const sku = (name: string) => `K-${RUN}-${name}`;
const storage = () => app.m.storageIndex.getStorage();
const fresh = async (id: string) => (await storage().campaigns.getOne(id))!;
const keywordsPath = (id: string) => `/campaigns/${id}/keywords`;
const categoriesPath = (id: string) => `/campaigns/${id}/categories`;

function run(fn: (a: never) => unknown, request: Request, params: Record<string, string>) {
  return call(() => fn({ request, params, context } as never));
}

const message = (key: string) => {
  const [k, json] = key.split("::");
  return t(k!, json ? JSON.parse(json) : undefined);
};

async function newCampaign(who = "supplier.admin"): Promise<string> {
  return createDraftThroughForm(routes.create.action, context, cookies[who], { team: TEAM, name: `Keywords ${randomUUID().slice(0, 8)}` });
}

async function post(path: string, action: (a: never) => unknown, who: string, id: string, form: Record<string, string>, extra: [string, string][] = []) {
  const version = form.version ?? String((await fresh(id)).version);
  const body = new URLSearchParams({ ...form, version });
  for (const [k, v] of extra) body.append(k, v);
  const request = new Request(`${BASE_URL}${path}`, {
    method: "POST",
    headers: { cookie: cookies[who]!, "Content-Type": "application/x-www-form-urlencoded", Origin: BASE_URL },
    body: body.toString(),
  });
  return run(action, request, { campaignId: id });
}
const postKeywords = (who: string, id: string, form: Record<string, string>, extra: [string, string][] = []) => post(keywordsPath(id), routes.keywords.action, who, id, form, extra);
const postCategories = (who: string, id: string, form: Record<string, string>, extra: [string, string][] = []) => post(categoriesPath(id), routes.categories.action, who, id, form, extra);

async function importCsv(who: string, id: string, csv: string | Uint8Array<ArrayBuffer>, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.set("intent", "import-keywords");
  form.set("version", String((await fresh(id)).version));
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set("file", new File([csv], "keywords.csv", { type: "text/csv" }));
  const request = new Request(`${BASE_URL}${keywordsPath(id)}`, { method: "POST", headers: { cookie: cookies[who]!, Origin: BASE_URL }, body: form });
  return run(routes.keywords.action, request, { campaignId: id });
}

const loadKeywords = (who: string, id: string, query = "") => run(routes.keywords.loader, getRequest(`${keywordsPath(id)}${query}`, { cookie: cookies[who] }), { campaignId: id });
const targets = (id: string, kind: "keyword" | "category" | "productCategory" = "keyword") => storage().targets.list(id, kind);

beforeAll(async () => {
  app = await startApp();
  process.env.SEARCH_SYNC_INTERVAL_MS = "0";
  routes = {
    create: await import("~/routes/teams.$teamId.campaigns.new.$type"),
    keywords: await import("~/routes/campaigns.$campaignId.keywords"),
    categories: await import("~/routes/campaigns.$campaignId.categories"),
    products: await import("~/routes/campaigns.$campaignId.products"),
    layout: await import("~/routes/campaigns.$campaignId"),
  };
  t = await (await import("~/services/i18n.server")).getFixedT("en-GB");
  for (const email of ["retailer.admin@example.com", "retailer.viewer@example.com", "supplier.admin@example.com", "supplier.viewer@example.com"]) {
    cookies[email.split("@")[0]!] = await signIn(app.m, email, app.demoPassword);
  }
  await storage().catalog.upsertMany([
    makeProductInput({ id: sku("A"), title: "Alpha coffee", categories: [`Grocery > Kwtest ${RUN} coffee`] }),
    makeProductInput({ id: sku("B"), title: "Bravo tea", categories: [`Grocery > Kwtest ${RUN} tea`] }),
  ]);
  // A keyword floor of 1.20 €; the CPC minimum bid is 0.15 €.
  await storage().config.update({ floorPrices: { keywords: [{ keyword: "running shoes", label: "running shoes", cents: 120 }], categories: [] } } as never, { by: "system" });
  app.m.config.forgetLiveConfig();
});
afterAll(async () => {
  delete process.env.SEARCH_SYNC_INTERVAL_MS;
  await app?.stop();
});

describe("keywords", () => {
  it("adds keywords typed one per line, stored with the counts on the campaign, shown with floor and suggested bid", async () => {
    const id = await newCampaign();
    const outcome = await postKeywords("supplier.admin", id, { intent: "add-keywords", keywords: "Running Shoes\ntrail boots\n\n  socks  ", bid: "1.50" });
    expect(outcome.status, JSON.stringify(outcome.data)).toBe(302);
    const stored = await targets(id);
    expect(Object.keys(stored).sort()).toEqual(["running shoes", "socks", "trail boots"]);
    expect(stored["running shoes"]).toMatchObject({ name: "Running Shoes", bid: 150, on: true, offers: null });
    expect((await fresh(id)).counts).toEqual({ keywords: 3, categories: 0, hubs: 0, productCategories: 0 });
    const page = await loadKeywords("supplier.admin", id);
    expect(page.status).toBe(200);
    const row = page.data.section.rows.find((r: { key: string }) => r.key === "running shoes");
    expect(row).toMatchObject({ bid: "€1.50", floor: "€1.20", belowFloor: false });
    expect(row.suggested).toMatch(/^€/);
    expect(page.data.summary.counts.keywords).toBe(3);
  });

  it("refuses a bid under a keyword's floor with 'Minimum allowed bid', then 'Apply min bid' raises it and keeps the rest", async () => {
    const id = await newCampaign();
    const refused = await postKeywords("supplier.admin", id, { intent: "add-keywords", keywords: "running shoes\ncheap socks", bid: "0.50" });
    expect(refused.status).toBe(400);
    expect(t(refused.data.failure)).toBe("Upsert or Remove keyword list");
    expect(message(refused.data.result.error.bid[0])).toBe("Minimum allowed bid: €1.20");
    expect(refused.data.applyMin).toBe(true);
    // The typed input comes back as typed.
    expect(refused.data.result.initialValue.keywords).toBe("running shoes\ncheap socks");
    expect(await targets(id)).toEqual({});
    const applied = await postKeywords("supplier.admin", id, { intent: "add-keywords", keywords: "running shoes\ncheap socks", bid: "0.50", applyMin: "yes" });
    expect(applied.status).toBe(302);
    const stored = await targets(id);
    expect(stored["running shoes"]?.bid).toBe(120);
    expect(stored["cheap socks"]?.bid).toBe(50);
  });

  it("refuses a bid of 0 or less as under the minimum, instead of silently bidding the campaign's bid; empty stays the campaign's bid", async () => {
    const id = await newCampaign();
    for (const bid of ["0", "-1", "0,00"]) {
      const refused = await postKeywords("supplier.admin", id, { intent: "add-keywords", keywords: "cheap socks", bid });
      expect(refused.status, bid).toBe(400);
      expect(message(refused.data.result.error.bid[0])).toBe("Minimum allowed bid: €0.15");
      expect(refused.data.result.initialValue.bid).toBe(bid);
    }
    expect(await targets(id)).toEqual({});
    expect((await postKeywords("supplier.admin", id, { intent: "add-keywords", keywords: "cheap socks", bid: "" })).status).toBe(302);
    expect((await targets(id))["cheap socks"]?.bid).toBeNull();
    const row = await postKeywords("supplier.admin", id, { intent: "update-target", kind: "keyword", key: "cheap socks", on: "yes", bid: "0" });
    expect(row.status).toBe(400);
    expect(message(row.data.refusal.message)).toBe("Minimum allowed bid: €0.15");
    const raised = await postKeywords("supplier.admin", id, { intent: "update-target", kind: "keyword", key: "cheap socks", on: "yes", bid: "-3", applyMin: "yes" });
    expect(raised.status).toBe(302);
    expect((await targets(id))["cheap socks"]?.bid).toBe(15);
  });

  it("refuses a row's bid under the floor and raises it with the row's 'Apply min bid'; switches a keyword off; removes one and a list", async () => {
    const id = await newCampaign();
    await postKeywords("supplier.admin", id, { intent: "add-keywords", keywords: "running shoes\nboots\nsocks", bid: "2" });
    const refused = await postKeywords("supplier.admin", id, { intent: "update-target", kind: "keyword", key: "running shoes", on: "yes", bid: "0.90" });
    expect(refused.status).toBe(400);
    expect(refused.data.refusal).toMatchObject({ key: "running shoes", applyMin: true, values: { on: true, bid: "0.90" } });
    expect(t(refused.data.refusal.failure)).toBe("Upsert or Remove keyword");
    expect(message(refused.data.refusal.message)).toBe("Minimum allowed bid: €1.20");
    const applied = await postKeywords("supplier.admin", id, { intent: "update-target", kind: "keyword", key: "running shoes", bid: "0.90", applyMin: "yes" });
    expect(applied.status).toBe(302);
    expect((await targets(id))["running shoes"]).toMatchObject({ bid: 120, on: false });
    expect((await postKeywords("supplier.admin", id, { intent: "remove-targets", kind: "keyword", keys: "boots" })).status).toBe(302);
    expect((await postKeywords("supplier.admin", id, { intent: "remove-targets", kind: "keyword" }, [["keys", "socks"], ["keys", "running shoes"]])).status).toBe(302);
    expect(await targets(id)).toEqual({});
    expect((await fresh(id)).counts?.keywords).toBe(0);
  });

  it("refuses a row's change of a keyword no longer there with 'unknown target', whatever else is wrong with the form", async () => {
    const id = await newCampaign();
    await postKeywords("supplier.admin", id, { intent: "add-keywords", keywords: "gone soon\nstays", bid: "1" });
    const stale = String((await fresh(id)).version);
    expect((await postKeywords("supplier.admin", id, { intent: "remove-targets", kind: "keyword", keys: "gone soon" })).status).toBe(302);
    const unknown = message("campaignKeywords:errors.unknownTarget");
    const forms: Record<string, string>[] = [
      { intent: "update-target", kind: "keyword", key: "gone soon", on: "yes", bid: "2" },
      { intent: "update-target", kind: "keyword", key: "gone soon", on: "yes", bid: "0.01" },
      { intent: "update-target", kind: "keyword", key: "gone soon", on: "yes", bid: "2", version: stale },
    ];
    for (const form of forms) {
      const outcome = await postKeywords("supplier.admin", id, form);
      expect(outcome.status, JSON.stringify(form)).toBe(400);
      expect(message(outcome.data.refusal.message)).toBe(unknown);
      expect(t(outcome.data.refusal.failure)).toBe("Upsert or Remove keyword");
    }
    // The one left is changed, once: a stale form for it is a conflict.
    expect((await postKeywords("supplier.admin", id, { intent: "update-target", kind: "keyword", key: "stays", on: "yes", bid: "2.50" })).status).toBe(302);
    expect((await targets(id)).stays).toMatchObject({ bid: 250, on: true, auto: false });
    expect((await postKeywords("supplier.admin", id, { intent: "update-target", kind: "keyword", key: "stays", on: "yes", bid: "3", version: stale })).status).toBe(409);
    expect(Object.keys(await targets(id))).toEqual(["stays"]);
  });

  it("imports a CSV's named column: bad lines counted and reported, the good ones stored in one change", async () => {
    const id = await newCampaign();
    const csv = "id,Keyword,notes\n1,red shoes,x\n2,,empty\n3,\"blue, suede shoes\",quoted\n4,   ,blank\n5,red shoes,again\n";
    const outcome = await importCsv("supplier.admin", id, csv, { column: "keyword", bid: "0.80" });
    expect(outcome.status, JSON.stringify(outcome.data)).toBe(200);
    expect(outcome.data.report).toEqual({ added: 2, updated: 0, bad: 2, badLines: [3, 5], duplicates: 1, rows: 5, column: "Keyword" });
    expect(Object.keys(await targets(id)).sort()).toEqual(["blue, suede shoes", "red shoes"]);
    // A file without the named column: refused, nothing stored.
    const noColumn = await importCsv("supplier.admin", id, "term\nshoes\n", { column: "keyword" });
    expect(noColumn.status).toBe(400);
    expect(message(noColumn.data.result.error.column[0])).toBe("The file has no column named “keyword” (its columns: term).");
    expect(Object.keys(await targets(id))).toHaveLength(2);
    // 'replace': the file becomes the list.
    const replaced = await importCsv("supplier.admin", id, "keyword\ngreen shoes\n", { mode: "replace" });
    expect(replaced.status).toBe(200);
    expect(Object.keys(await targets(id))).toEqual(["green shoes"]);
  });

  it("reads a spreadsheet's 'Unicode text' (UTF-16) and refuses a file that is not UTF-8, instead of storing U+FFFD for its accents", async () => {
    const id = await newCampaign();
    // Excel's CSV on Windows writes Windows-1252: "é" is the byte 0xE9, "è" 0xE8.
    const latin = Uint8Array.from([..."keyword\ncaf", 0xe9, ..." cr", 0xe8, ..."me\n"].map((c) => (typeof c === "number" ? c : c.charCodeAt(0))));
    const refused = await importCsv("supplier.admin", id, latin, { column: "keyword" });
    expect(refused.status).toBe(400);
    expect(message(refused.data.result.error.column[0])).toBe("The file is not UTF-8 text: save it as CSV UTF-8 (or Unicode text) and import it again.");
    expect(Object.keys(await targets(id))).toHaveLength(0);
    // UTF-16 little-endian with its byte order mark.
    const text = "keyword\r\ncafé crème\r\n";
    const utf16 = new Uint8Array(2 + text.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) new DataView(utf16.buffer).setUint16(2 + i * 2, text.charCodeAt(i), true);
    const read = await importCsv("supplier.admin", id, utf16, { column: "keyword" });
    expect(read.status, JSON.stringify(read.data)).toBe(200);
    expect(Object.values(await targets(id)).map((k) => k.name)).toEqual(["café crème"]);
  });

  it("'Apply min bid' to all raises every stored bid a new floor left under it", async () => {
    const id = await newCampaign();
    await postKeywords("supplier.admin", id, { intent: "add-keywords", keywords: "late floor\nhigh bid", bid: "0.50" });
    await storage().config.update(
      { floorPrices: { keywords: [{ keyword: "running shoes", label: "running shoes", cents: 120 }, { keyword: "late floor", label: "late floor", cents: 100 }], categories: [] } } as never,
      { by: "system" },
    );
    app.m.config.forgetLiveConfig();
    expect((await loadKeywords("supplier.admin", id)).data.section.belowFloor).toBe(1);
    const outcome = await postKeywords("supplier.admin", id, { intent: "apply-min-bid-targets", kind: "keyword" });
    expect(outcome.status).toBe(302);
    const stored = await targets(id);
    expect(stored["late floor"]?.bid).toBe(100);
    expect(stored["high bid"]?.bid).toBe(50);
    expect((await loadKeywords("supplier.admin", id)).data.section.belowFloor).toBe(0);
  });

  it("saves negative keywords on the campaign", async () => {
    const id = await newCampaign();
    const outcome = await postKeywords("supplier.admin", id, { intent: "save-negative-keywords", negatives: "Free\ncheap\n\nfree" });
    expect(outcome.status).toBe(302);
    expect((await fresh(id)).negativeKeywords).toEqual(["free", "cheap"]);
  });

  it("refuses negative keywords with a line that cannot be one, naming the line, instead of dropping it in silence", async () => {
    const id = await newCampaign();
    await postKeywords("supplier.admin", id, { intent: "save-negative-keywords", negatives: "free" });
    const outcome = await postKeywords("supplier.admin", id, { intent: "save-negative-keywords", negatives: `cheap\n${"x".repeat(101)}\n\n__proto__` });
    expect(outcome.status).toBe(400);
    expect(message(outcome.data.result.error.negatives[0])).toBe(
      "2 lines are not keywords (over 100 characters, or written __like_this__): lines 2, 4. Correct or remove them, then save again.",
    );
    expect((await fresh(id)).negativeKeywords).toEqual(["free"]);
  });

  it("warns past 1,000 keywords", async () => {
    const id = await newCampaign();
    const keywords = Array.from({ length: 1001 }, (_, i) => `kw ${i}`).join("\n");
    const outcome = await postKeywords("supplier.admin", id, { intent: "add-keywords", keywords });
    expect(outcome.status).toBe(302);
    expect((await loadKeywords("supplier.admin", id)).data.summary).toMatchObject({ tooManyKeywords: true, keywordThreshold: 1000 });
  });
});

describe("a campaign with 100,000 keywords (ADR 43)", () => {
  it("imports them while other work runs, then serves a page (and a search) from the sorted view, not from every chunk", { timeout: 180_000 }, async () => {
    const id = await newCampaign();
    const names = Array.from({ length: 99_999 }, (_, i) => `kw ${i}`);
    const csv = ["keyword", "Running Shoes", ...names].join("\n");
    // The event loop's turns during the import: it lets other requests through between steps.
    let turns = 0;
    let spinning = true;
    const spin = () => {
      turns++;
      if (spinning) setImmediate(spin);
    };
    setImmediate(spin);
    const imported = await importCsv("supplier.admin", id, csv, { column: "keyword", mode: "add", bid: "0.50", applyMin: "yes" });
    spinning = false;
    expect(imported.status, JSON.stringify(imported.data)).toBe(200);
    expect(imported.data.report).toMatchObject({ added: 100_000, rows: 100_000, bad: 0 });
    expect(turns).toBeGreaterThan(20);
    // The limit: one keyword more is refused; keywords already there may be typed again.
    const over = await postKeywords("supplier.admin", id, { intent: "add-keywords", keywords: "one keyword too many\nkw 5", bid: "0.50" });
    expect(over.status).toBe(400);
    expect(message(over.data.result.error.keywords[0])).toBe("A campaign may have at most 100000 keywords.");
    expect((await postKeywords("supplier.admin", id, { intent: "add-keywords", keywords: "kw 5\nKW 6", bid: "0.50" })).status).toBe(302);
    // Three bids under their floor: two under the minimum (0.15 €), one under its own floor (1.20 €).
    const c = await fresh(id);
    await storage().targets.change(
      id,
      { kinds: [{ kind: "keyword", upsert: { "kw 7": { ...(await targets(id))["kw 7"]!, bid: 10 }, "kw 8": { ...(await targets(id))["kw 8"]!, bid: 10 }, "running shoes": { ...(await targets(id))["running shoes"]!, bid: 100 } } }] },
      { by: "system" },
      { expectVersion: c.version },
    );

    const { SqliteDocumentStore } = await import("~/storage/sqlite/document-store.server");
    const { compareTargets } = await import("~/domain/campaigns/targets");
    const all = await targets(id);
    const sorted = Object.keys(all).sort((a, b) => compareTargets({ key: a, name: all[a]!.name }, { key: b, name: all[b]!.name }));
    // The keywords with a floor of their own (one here, two after the 'Apply min bid' test): their chunks are read.
    const ownFloors = ((await storage().config.get()) as never as { floorPrices: { keywords: unknown[] } }).floorPrices.keywords.length;
    const getSpy = vi.spyOn(SqliteDocumentStore.prototype, "get");
    const getManySpy = vi.spyOn(SqliteDocumentStore.prototype, "getMany");
    const targetReads = () => [
      ...getSpy.mock.calls.filter(([col]) => col === "campaign_target").map(([, docId]) => docId),
      ...getManySpy.mock.calls.filter(([col]) => col === "campaign_target").flatMap(([, ids]) => ids),
    ];
    try {
      const page = await loadKeywords("supplier.viewer", id);
      expect(page.status).toBe(200);
      const section = page.data.section;
      expect(section).toMatchObject({ total: 100_000, shown: 100, page: 1, pages: 1000, belowFloor: 3 });
      expect(section.rows.map((r: { key: string }) => r.key)).toEqual(sorted.slice(0, 100));
      // Read: the view's header and the one view page holding the first 100, and the chunks of
      // the keywords with a floor of their own; none of the other chunks (128 in all).
      const reads = targetReads();
      expect(reads.filter((r) => r.includes("_view"))).toHaveLength(2);
      expect(reads.filter((r) => !r.includes("_view")).length).toBeLessThanOrEqual(ownFloors);

      getSpy.mockClear();
      getManySpy.mockClear();
      const last = await loadKeywords("supplier.viewer", id, "?page=5000");
      expect(last.data.section).toMatchObject({ page: 1000, shown: 100, belowFloor: 3 });
      expect(last.data.section.rows.map((r: { key: string }) => r.key)).toEqual(sorted.slice(99_900));
      expect(targetReads().filter((r) => !r.includes("_view")).length).toBeLessThanOrEqual(ownFloors);

      // A search reads the view (a few pages at a time), never the chunks.
      getSpy.mockClear();
      getManySpy.mockClear();
      const found = await loadKeywords("supplier.viewer", id, "?q=KW%209999");
      const matching = sorted.filter((k) => k.includes("kw 9999"));
      expect(found.data.section).toMatchObject({ total: matching.length, shown: matching.length, belowFloor: 3 });
      expect(found.data.section.rows.map((r: { key: string }) => r.key)).toEqual(matching);
      expect(targetReads().filter((r) => !r.includes("_view")).length).toBeLessThanOrEqual(ownFloors);
    } finally {
      getSpy.mockRestore();
      getManySpy.mockRestore();
    }
  });
});

describe("categories and auto targeting", () => {
  it("finds a category by the category search and adds it as a hub; a bid under the minimum is refused then raised", async () => {
    const id = await newCampaign();
    const page = await run(routes.categories.loader, getRequest(`${categoriesPath(id)}?cq=${encodeURIComponent(`kwtest ${RUN} coffee`)}`, { cookie: cookies["supplier.admin"] }), { campaignId: id });
    expect(page.status).toBe(200);
    const hit = page.data.add.hits[0];
    expect(hit.name).toBe(`Grocery > Kwtest ${RUN} coffee`);
    const refused = await postCategories("supplier.admin", id, { intent: "add-category", kind: "category", categoryId: hit.id, placement: "hub", bid: "0.05" });
    expect(refused.status).toBe(400);
    expect(t(refused.data.failure)).toBe("Upsert or Remove category");
    expect(message(refused.data.message)).toBe("Minimum allowed bid: €0.15");
    expect(refused.data.applyMin).toBe(true);
    const added = await postCategories("supplier.admin", id, { intent: "add-category", kind: "category", categoryId: hit.id, placement: "hub", bid: "0.05", applyMin: "yes" });
    expect(added.status).toBe(302);
    expect((await targets(id, "category"))[hit.id]).toMatchObject({ placement: "hub", bid: 15, on: true });
    expect((await fresh(id)).counts).toMatchObject({ categories: 0, hubs: 1 });
    const unknown = await postCategories("supplier.admin", id, { intent: "add-category", kind: "productCategory", categoryId: "no-such-category" });
    expect(unknown.status).toBe(400);
    expect(t(unknown.data.failure)).toBe("Upsert or Remove product category");
  });

  it("auto targeting: product categories follow the products; removing a product prunes offers, switches off or deletes", async () => {
    const id = await newCampaign();
    const add = await post(`/campaigns/${id}/products`, routes.products.action, "supplier.admin", id, { intent: "add-products", ids: `${sku("A")} ${sku("B")}` });
    expect(add.status).toBe(302);
    expect((await postCategories("supplier.admin", id, { intent: "auto-targeting", state: "on" })).status).toBe(302);
    const auto = await targets(id, "productCategory");
    expect(Object.values(auto).map((x) => x.offers)).toEqual(expect.arrayContaining([[sku("A")], [sku("B")]]));
    const campaign = await fresh(id);
    expect(campaign.autoTargeting).toBe(true);
    expect(campaign.auto?.created).toBeTruthy();
    expect(campaign.auto?.refreshed).toBeTruthy();
    // A keyword advertising A only, and one of every product.
    await postKeywords("supplier.admin", id, { intent: "add-keywords", keywords: "alpha only" }, [["offers", sku("A")]]);
    await postKeywords("supplier.admin", id, { intent: "add-keywords", keywords: "everything" });
    expect((await targets(id))["alpha only"]?.offers).toEqual([sku("A")]);
    const removed = await post(`/campaigns/${id}/products`, routes.products.action, "supplier.admin", id, { intent: "remove-product", productId: sku("A") });
    expect(removed.status).toBe(302);
    const kw = await targets(id);
    expect(kw["alpha only"]).toMatchObject({ offers: [], on: false });
    expect(kw.everything).toMatchObject({ offers: null, on: true });
    const left = await targets(id, "productCategory");
    expect(Object.values(left).map((x) => x.offers)).toEqual([[sku("B")]]);
    expect((await fresh(id)).counts?.productCategories).toBe(1);
  });
});

describe("duplicate and delete", () => {
  const postLayout = (who: string, id: string, form: Record<string, string>) => post(`/campaigns/${id}`, routes.layout.action, who, id, form);
  const chunksOf = async (id: string) => {
    const store = app.m.storageIndex.getDocumentStoreForTests();
    let count = 0;
    for (const collection of ["campaign_target", "cache_campaign_target"]) {
      let after: string | null = null;
      do {
        const page: { items: { campaign: string }[]; next: string | null } = await store.query<{ campaign: string }>(collection, { limit: 200, after });
        count += page.items.filter((doc) => doc.campaign === id).length;
        after = page.next;
      } while (after);
    }
    return count;
  };

  it("duplicates a campaign with its keywords, categories, product categories and negative keywords (bids, on/off, offers), counts right; deleting the draft removes its targets", async () => {
    const id = await newCampaign();
    await post(`/campaigns/${id}/products`, routes.products.action, "supplier.admin", id, { intent: "add-products", ids: `${sku("A")} ${sku("B")}` });
    await postKeywords("supplier.admin", id, { intent: "add-keywords", keywords: "copied shoes\ncopied boots", bid: "1.50" });
    await postKeywords("supplier.admin", id, { intent: "add-keywords", keywords: "alpha copied" }, [["offers", sku("A")]]);
    await postKeywords("supplier.admin", id, { intent: "update-target", kind: "keyword", key: "copied boots", bid: "2.10" });
    await postKeywords("supplier.admin", id, { intent: "save-negative-keywords", negatives: "free\ncheap" });
    const page = await run(routes.categories.loader, getRequest(`${categoriesPath(id)}?cq=${encodeURIComponent(`kwtest ${RUN} tea`)}`, { cookie: cookies["supplier.admin"] }), { campaignId: id });
    const hit = page.data.add.hits[0];
    expect((await postCategories("supplier.admin", id, { intent: "add-category", kind: "category", categoryId: hit.id, placement: "hub", bid: "0.40" })).status).toBe(302);
    expect((await postCategories("supplier.admin", id, { intent: "auto-targeting", state: "on" })).status).toBe(302);
    const source = await fresh(id);
    expect(source.counts).toEqual({ keywords: 3, categories: 0, hubs: 1, productCategories: 2 });

    const duplicated = await postLayout("supplier.admin", id, { intent: "duplicate-campaign" });
    expect(duplicated.status, JSON.stringify(duplicated.data)).toBe(302);
    const copyId = duplicated.location!.split("/").pop()!;
    expect(copyId).not.toBe(id);
    const copy = await fresh(copyId);
    expect(copy.status).toBe("draft");
    expect(copy.counts).toEqual(source.counts);
    expect(copy.negativeKeywords).toEqual(["free", "cheap"]);
    const copied = await targets(copyId);
    expect(copied).toEqual(await targets(id));
    expect(copied["copied boots"]).toMatchObject({ bid: 210, on: false, offers: null });
    expect(copied["alpha copied"]).toMatchObject({ on: true, offers: [sku("A")] });
    expect(await targets(copyId, "category")).toEqual({ [hit.id]: expect.objectContaining({ placement: "hub", bid: 40 }) });
    expect(await targets(copyId, "productCategory")).toEqual(await targets(id, "productCategory"));
    // The copy's Keywords section shows them, and its changes are its own.
    const shown = await loadKeywords("supplier.admin", copyId);
    expect(shown.data.section.rows.map((r: { key: string }) => r.key).sort()).toEqual(["alpha copied", "copied boots", "copied shoes"]);
    expect((await postKeywords("supplier.admin", copyId, { intent: "remove-targets", kind: "keyword", keys: "copied shoes" })).status).toBe(302);
    expect((await fresh(copyId)).counts?.keywords).toBe(2);
    expect(Object.keys(await targets(id))).toContain("copied shoes");

    // Deleting the copy (a draft) removes its target chunks; the source's stay.
    expect(await chunksOf(copyId)).toBeGreaterThan(0);
    const deleted = await postLayout("supplier.admin", copyId, { intent: "campaign-action", action: "delete", confirmed: "yes" });
    expect(deleted.status, JSON.stringify(deleted.data)).toBe(302);
    expect(await fresh(copyId)).toBeNull();
    expect(await chunksOf(copyId)).toBe(0);
    expect(Object.keys(await targets(id)).sort()).toEqual(["alpha copied", "copied boots", "copied shoes"]);
  });

  it("sweeps the target chunks of a campaign gone without them, on the scheduler's daily job", async () => {
    const id = await newCampaign();
    await postKeywords("supplier.admin", id, { intent: "add-keywords", keywords: "orphan one\norphan two" });
    const kept = await newCampaign();
    await postKeywords("supplier.admin", kept, { intent: "add-keywords", keywords: "kept one" });
    // As a deletion did before it removed the chunks: the campaign document alone is gone.
    await app.m.storageIndex.getDocumentStoreForTests().delete("campaign", id);
    expect(await chunksOf(id)).toBeGreaterThan(0);
    const { createScheduler } = await import("~/services/scheduler.server");
    const { scheduleTargetSweepJob } = await import("~/services/campaigns/target-sweep.server");
    let now = new Date("2026-11-26T12:00:00.000Z");
    const scheduler = createScheduler({ clock: () => now, owner: "test" });
    await scheduleTargetSweepJob(scheduler);
    expect(await scheduler.tick()).toEqual([]);
    // 03:30 in Paris the next day.
    now = new Date("2026-11-27T02:31:00.000Z");
    const ran = await scheduler.tick();
    expect(ran.map((r) => [r.kind, r.outcome])).toEqual([["target-chunks-sweep", "done"]]);
    expect(await chunksOf(id)).toBe(0);
    expect(Object.keys(await targets(kept))).toEqual(["kept one"]);
  });
});

describe("rights and scope", () => {
  let otherCampaign: string;
  beforeAll(async () => {
    const other = await storage().teams.create(makeTeamData({ name: `Other Kw ${randomUUID().slice(0, 6)}` }), { by: "system" });
    const request = postRequest(
      `/teams/${other.id}/campaigns/new/sponsored-products`,
      { intent: "create-campaign", name: "Not yours", startDay: "2030-01-01", campaignType: "sponsored-products" },
      { cookie: cookies["retailer.admin"] },
    );
    otherCampaign = (await run(routes.create.action, request, { teamId: other.id, type: "sponsored-products" })).location!.split("/").pop()!;
  });

  it("lets a viewer read the keywords and categories but answers 403 to every change, under the spec's titles", async () => {
    const id = await newCampaign("retailer.admin");
    await postKeywords("retailer.admin", id, { intent: "add-keywords", keywords: "shoes" });
    const page = await loadKeywords("supplier.viewer", id);
    expect(page.status).toBe(200);
    expect(page.data.canEdit).toBe(false);
    expect(page.data.section.rows).toHaveLength(1);
    for (const [form, title] of [
      [{ intent: "add-keywords", keywords: "more" }, "Upsert or Remove keyword list"],
      [{ intent: "update-target", kind: "keyword", key: "shoes", bid: "2" }, "Upsert or Remove keyword"],
      [{ intent: "remove-targets", kind: "keyword", keys: "shoes" }, "Upsert or Remove keyword"],
      [{ intent: "save-negative-keywords", negatives: "x" }, "Upsert or Remove keyword list"],
    ] as const) {
      const outcome = await postKeywords("supplier.viewer", id, form as Record<string, string>);
      expect(outcome.status, JSON.stringify(form)).toBe(403);
      expect(t(outcome.data.failure ?? outcome.data.refusal?.failure)).toBe(title);
    }
    const csv = await importCsv("retailer.viewer", id, "keyword\nx\n");
    expect(csv.status).toBe(403);
    expect((await postCategories("supplier.viewer", id, { intent: "add-category", kind: "category", categoryId: "grocery" })).status).toBe(403);
    expect((await postCategories("retailer.viewer", id, { intent: "auto-targeting", state: "on" })).status).toBe(403);
    expect(Object.keys(await targets(id))).toEqual(["shoes"]);
  });

  it("answers 404 to another team's campaign, and 'No fetched campaign' to a change without the loaded campaign", async () => {
    const params = { campaignId: otherCampaign };
    const cookie = cookies["supplier.admin"];
    expect((await run(routes.keywords.loader, getRequest(keywordsPath(otherCampaign), { cookie }), params)).status).toBe(404);
    expect((await run(routes.categories.loader, getRequest(categoriesPath(otherCampaign), { cookie }), params)).status).toBe(404);
    expect((await run(routes.keywords.action, postRequest(keywordsPath(otherCampaign), { intent: "add-keywords", keywords: "x", version: "1" }, { cookie }), params)).status).toBe(404);
    expect((await run(routes.categories.action, postRequest(categoriesPath(otherCampaign), { intent: "auto-targeting", state: "on", version: "1" }, { cookie }), params)).status).toBe(404);
    const id = await newCampaign();
    const noVersion = await run(routes.keywords.action, postRequest(keywordsPath(id), { intent: "add-keywords", keywords: "x" }, { cookie }), { campaignId: id });
    expect(noVersion.status).toBe(400);
    expect(t(noVersion.data.failure)).toBe("No fetched campaign");
  });
});
