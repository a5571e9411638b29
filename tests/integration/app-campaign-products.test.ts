/**
 * A campaign's Products section and History (issue 4 §4, §6) through the real route loaders and
 * actions: adding by ids with every separator, unknown and already-present ids reported, the 1P/3P
 * rule, switching on and off, removing (bulk removal confirmed first), positions and the sort,
 * the 200-product warning, rights and scope, the history page and its CSV download.
 *
 * Each test creates its own campaign through the creation form of the demo team and uses catalog
 * products with ids unique to this file.
 */
import { randomUUID } from "node:crypto";
import Papa from "papaparse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProductInput, makeTeamData } from "../factories";
import { BASE_URL, call, getRequest, postRequest, signIn, startApp, type TestApp, createDraftThroughForm } from "./app-helpers";

let app: TestApp;
let routes: {
  create: typeof import("~/routes/teams.$teamId.campaigns.new.$type");
  products: typeof import("~/routes/campaigns.$campaignId.products");
  history: typeof import("~/routes/campaigns.$campaignId.history");
  csv: typeof import("~/routes/campaigns.$campaignId.history[.]csv");
};
let t: Awaited<ReturnType<typeof import("~/services/i18n.server").getFixedT>>;
const cookies: Record<string, string> = {};
const TEAM = "acme-brand";
const context = { requestId: "t", clientIp: "127.0.0.1" };
const RUN = randomUUID().slice(0, 6).toUpperCase();
/** Catalog ids of this file: P-<run>-<name>. */
const sku = (name: string) => `P-${RUN}-${name}`;

const storage = () => app.m.storageIndex.getStorage();
const fresh = async (id: string) => (await storage().campaigns.getOne(id))!;
const productsPath = (id: string) => `/campaigns/${id}/products`;

function run(fn: (a: never) => unknown, request: Request, params: Record<string, string>) {
  return call(() => fn({ request, params, context } as never));
}

/** Creates a draft through the creation form; returns its id. */
async function newCampaign(who = "supplier.admin", name = `Products ${randomUUID().slice(0, 8)}`): Promise<string> {
  return createDraftThroughForm(routes.create.action, context, cookies[who], { team: TEAM, name });
}

const loadProducts = (who: string, id: string, query = "") =>
  run(routes.products.loader, getRequest(`${productsPath(id)}${query}`, { cookie: cookies[who] }), { campaignId: id });

async function post(who: string, id: string, form: Record<string, string>, extra: [string, string][] = []) {
  const version = form.version ?? String((await fresh(id)).version);
  const request = postRequest(productsPath(id), { ...form, version }, { cookie: cookies[who] });
  if (extra.length) {
    // Repeated fields (checkboxes): rebuild the body with them.
    const body = new URLSearchParams({ ...form, version });
    for (const [k, v] of extra) body.append(k, v);
    return run(routes.products.action, new Request(request.url, { method: "POST", headers: request.headers, body: body.toString() }), { campaignId: id });
  }
  return run(routes.products.action, request, { campaignId: id });
}

const addIds = (who: string, id: string, ids: string, version?: string) => post(who, id, { intent: "add-products", ids, ...(version ? { version } : {}) });

/** The toast flashed by a redirect. */
async function toastOf(headers: Headers) {
  const cookie = headers.getSetCookie().find((c) => c.startsWith("toast="))!.split(";")[0]!;
  return (await app.m.toast.getToast(getRequest("/", { cookie }))).toast;
}

const message = (key: string) => {
  const [k, json] = key.split("::");
  return t(k!, json ? JSON.parse(json) : undefined);
};

beforeAll(async () => {
  app = await startApp();
  routes = {
    create: await import("~/routes/teams.$teamId.campaigns.new.$type"),
    products: await import("~/routes/campaigns.$campaignId.products"),
    history: await import("~/routes/campaigns.$campaignId.history"),
    csv: await import("~/routes/campaigns.$campaignId.history[.]csv"),
  };
  t = await (await import("~/services/i18n.server")).getFixedT("en-GB");
  for (const email of ["operator@example.com", "retailer.admin@example.com", "retailer.viewer@example.com", "supplier.admin@example.com", "supplier.viewer@example.com"]) {
    cookies[email.split("@")[0]!] = await signIn(app.m, email, app.demoPassword);
  }
  await storage().catalog.upsertMany([
    makeProductInput({ id: sku("A"), title: "Alpha coffee", availability: "in stock", party: "1P" }),
    makeProductInput({ id: sku("B"), title: "Bravo tea", availability: "out of stock", party: "1P" }),
    makeProductInput({ id: sku("C"), title: "Charlie cocoa", availability: "in store", party: "1P" }),
    makeProductInput({ id: sku("D"), title: "Delta sugar", availability: "preorder", party: "1P" }),
    makeProductInput({ id: sku("E"), title: "Echo milk", availability: "not found", party: "1P" }),
    makeProductInput({ id: sku("X3"), title: "Xray marketplace mug", availability: "in stock", party: "3P" }),
    makeProductInput({ id: sku("Y3"), title: "Yankee marketplace cup", availability: "in stock", party: "3P" }),
    makeProductInput({ id: sku("M"), title: "Mixed kettle", availability: "in stock", party: "1P_3P" }),
    makeProductInput({ id: sku("N"), title: "Mixed teapot", availability: "in store", party: "1P_3P" }),
  ]);
});
afterAll(async () => {
  await app?.stop();
});

describe("adding products", () => {
  it("adds by ids separated by spaces, commas, semicolons and line breaks, stored as offers in display order", async () => {
    const id = await newCampaign();
    const outcome = await addIds("supplier.admin", id, `${sku("A")}, ${sku("B")};${sku("C")}\n${sku("D")}  ${sku("A")}\r\n`);
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe(productsPath(id));
    const toast = await toastOf(outcome.headers);
    expect(t(toast!.title, toast!.values)).toBe("4 products added.");
    const campaign = await fresh(id);
    expect(campaign.offers[sku("A")]).toEqual({ on: true, availability: "in stock", title: "Alpha coffee", image_link: `/images/products/${sku("A")}.svg`, pos: null, party: "1P" });
    // Sorted by availability: in stock, in store, preorder, out of stock.
    expect(campaign.productIds).toEqual([sku("A"), sku("C"), sku("D"), sku("B")]);
    const page = await loadProducts("supplier.admin", id);
    expect(page.data.products.map((p: { id: string }) => p.id)).toEqual([sku("A"), sku("C"), sku("D"), sku("B")]);
    expect(page.data).toMatchObject({ count: 4, onCount: 4, party: "1P", tooMany: false, canEdit: true });
  });

  it("matches ids typed in lower case", async () => {
    const id = await newCampaign();
    expect((await addIds("supplier.admin", id, sku("A").toLowerCase())).status).toBe(302);
    expect((await fresh(id)).productIds).toEqual([sku("A")]);
  });

  it("adds the known ids, reports the unknown ones by id and keeps only them in the box", async () => {
    const id = await newCampaign();
    const outcome = await addIds("supplier.admin", id, `${sku("A")} NOPE-1 ${sku("C")};NOPE-2`);
    expect(outcome.status).toBe(200);
    expect(outcome.data.report).toEqual({ added: 2, present: [], unknown: ["NOPE-1", "NOPE-2"] });
    expect(message(outcome.data.result.error.ids[0])).toBe("Not in the catalog: NOPE-1, NOPE-2. Check these identifiers and add them again.");
    expect(outcome.data.result.initialValue.ids).toBe("NOPE-1\nNOPE-2");
    expect((await fresh(id)).productIds).toEqual([sku("A"), sku("C")]);
  });

  it("refuses a paste of unknown ids only, saving nothing", async () => {
    const id = await newCampaign();
    const before = await fresh(id);
    const outcome = await addIds("supplier.admin", id, "NOPE-1, NOPE-2");
    expect(outcome.status).toBe(400);
    expect(t(outcome.data.failure)).toBe("Upsert mass product");
    expect(message(outcome.data.result.error.ids[0])).toContain("NOPE-1, NOPE-2");
    expect((await fresh(id)).version).toBe(before.version);
  });

  it("reports products already in the campaign", async () => {
    const id = await newCampaign();
    await addIds("supplier.admin", id, sku("A"));
    const outcome = await addIds("supplier.admin", id, `${sku("A")} ${sku("B")}`);
    expect(outcome.status).toBe(200);
    expect(outcome.data.report).toEqual({ added: 1, present: [sku("A")], unknown: [] });
    const only = await addIds("supplier.admin", id, sku("A"));
    expect(only.status).toBe(400);
    expect(only.data.report.present).toEqual([sku("A")]);
    expect(t(only.data.failure)).toBe("Upsert product");
    expect(message(only.data.result.error[""][0])).toBe("No product was added.");
  });

  it("asks for at least one id", async () => {
    const id = await newCampaign();
    const outcome = await addIds("supplier.admin", id, " ,; \n");
    expect(outcome.status).toBe(400);
    expect(message(outcome.data.result.error.ids[0])).toBe("Enter at least one product identifier.");
  });
});

describe("the 1P/3P rule", () => {
  const mixed = "Sponsoring of 1P & 3P mixed products is not allowed";

  it("refuses 3P products in a 1P campaign, saving nothing", async () => {
    const id = await newCampaign();
    await addIds("supplier.admin", id, sku("A"));
    const before = await fresh(id);
    const outcome = await addIds("supplier.admin", id, `${sku("X3")} ${sku("B")}`);
    expect(outcome.status).toBe(400);
    expect(t(outcome.data.failure)).toBe("Upsert mass product");
    expect(message(outcome.data.result.error[""][0])).toBe(mixed);
    expect(message(outcome.data.result.error.ids[0])).toContain(sku("X3"));
    expect(outcome.data.result.initialValue.ids).toBe(`${sku("X3")} ${sku("B")}`);
    const after = await fresh(id);
    expect(after.version).toBe(before.version);
    expect(Object.keys(after.offers)).toEqual([sku("A")]);
  });

  it("refuses one paste mixing 1P and 3P", async () => {
    const id = await newCampaign();
    const outcome = await addIds("supplier.admin", id, `${sku("A")} ${sku("X3")}`);
    expect(outcome.status).toBe(400);
    expect(message(outcome.data.result.error[""][0])).toBe(mixed);
    expect((await fresh(id)).offers).toEqual({});
  });

  it("counts switched-off products too", async () => {
    const id = await newCampaign();
    await addIds("supplier.admin", id, sku("X3"));
    await post("supplier.admin", id, { intent: "toggle-product", productId: sku("X3"), state: "off" });
    expect((await addIds("supplier.admin", id, sku("A"))).status).toBe(400);
  });

  it("lets 1P_3P products mix with 1P, and with 3P", async () => {
    const first = await newCampaign();
    expect((await addIds("supplier.admin", first, `${sku("M")} ${sku("A")}`)).status).toBe(302);
    expect((await addIds("supplier.admin", first, sku("N"))).status).toBe(302);
    expect((await loadProducts("supplier.admin", first)).data.party).toBe("1P");
    const second = await newCampaign();
    expect((await addIds("supplier.admin", second, sku("M"))).status).toBe(302);
    expect((await loadProducts("supplier.admin", second)).data.party).toBe("1P_3P");
    expect((await addIds("supplier.admin", second, `${sku("X3")} ${sku("Y3")}`)).status).toBe(302);
    expect((await loadProducts("supplier.admin", second)).data.party).toBe("3P");
    // Now bound to 3P: a 1P product is refused.
    expect((await addIds("supplier.admin", second, sku("A"))).status).toBe(400);
  });
});

describe("switching, removing, positions", () => {
  it("switches a product off and on again: productIds follows", async () => {
    const id = await newCampaign();
    await addIds("supplier.admin", id, `${sku("A")} ${sku("C")}`);
    const off = await post("supplier.admin", id, { intent: "toggle-product", productId: sku("A"), state: "off" });
    expect(off.status).toBe(302);
    expect(off.location).toBe(`${productsPath(id)}#product-${sku("A")}`);
    let campaign = await fresh(id);
    expect(campaign.offers[sku("A")]!.on).toBe(false);
    expect(campaign.productIds).toEqual([sku("C")]);
    expect((await loadProducts("supplier.admin", id)).data).toMatchObject({ count: 2, onCount: 1 });
    await post("supplier.admin", id, { intent: "toggle-product", productId: sku("A"), state: "on" });
    campaign = await fresh(id);
    expect(campaign.productIds).toEqual([sku("A"), sku("C")]);
  });

  it("removes one product at once, and several only after a confirmation", async () => {
    const id = await newCampaign();
    await addIds("supplier.admin", id, `${sku("A")} ${sku("B")} ${sku("C")} ${sku("D")}`);
    const one = await post("supplier.admin", id, { intent: "remove-product", productId: sku("D") });
    expect(one.status).toBe(302);
    expect(Object.keys((await fresh(id)).offers).sort()).toEqual([sku("A"), sku("B"), sku("C")]);

    const ask = await post("supplier.admin", id, { intent: "bulk-products", bulk: "remove" }, [["selected", sku("A")], ["selected", sku("B")]]);
    expect(ask.status).toBe(200);
    expect(ask.data).toEqual({ form: "confirm", products: [{ id: sku("A"), title: "Alpha coffee" }, { id: sku("B"), title: "Bravo tea" }] });
    expect(Object.keys((await fresh(id)).offers)).toHaveLength(3);

    const done = await post("supplier.admin", id, { intent: "bulk-products", bulk: "remove", confirmed: "yes" }, [["selected", sku("A")], ["selected", sku("B")]]);
    expect(done.status).toBe(302);
    expect(t((await toastOf(done.headers))!.title, { count: 2 })).toBe("2 products removed.");
    const campaign = await fresh(id);
    expect(Object.keys(campaign.offers)).toEqual([sku("C")]);
    expect(campaign.productIds).toEqual([sku("C")]);
  });

  it("switches selected products off in bulk, and asks for a selection", async () => {
    const id = await newCampaign();
    await addIds("supplier.admin", id, `${sku("A")} ${sku("B")} ${sku("C")}`);
    const none = await post("supplier.admin", id, { intent: "bulk-products", bulk: "off" });
    expect(none.status).toBe(400);
    expect(message(none.data.message)).toBe("Select at least one product first.");
    const done = await post("supplier.admin", id, { intent: "bulk-products", bulk: "off" }, [["selected", sku("A")], ["selected", sku("C")]]);
    expect(done.status).toBe(302);
    expect((await fresh(id)).productIds).toEqual([sku("B")]);
  });

  it("reports a product no longer in the campaign with the failure title", async () => {
    const id = await newCampaign();
    await addIds("supplier.admin", id, sku("A"));
    const outcome = await post("supplier.admin", id, { intent: "remove-product", productId: sku("B") });
    expect(outcome.status).toBe(400);
    expect(t(outcome.data.failure)).toBe("Remove product");
    expect(message(outcome.data.message)).toContain(sku("B"));
    const toggle = await post("supplier.admin", id, { intent: "toggle-product", productId: sku("B"), state: "off" });
    expect(t(toggle.data.failure)).toBe("Upsert product");
  });

  it("refuses forged ids that name members of every object ('constructor', '__proto__', 'toString'): no product of that name is stored, the campaign is not saved", async () => {
    const id = await newCampaign();
    await addIds("supplier.admin", id, sku("A"));
    const before = await fresh(id);
    const forged: Record<string, string>[] = [
      { intent: "toggle-product", productId: "constructor", state: "on" },
      { intent: "remove-product", productId: "__proto__" },
      { intent: "move-product", productId: "toString", direction: "up" },
      { intent: "save-positions", "positions[0].id": "hasOwnProperty", "positions[0].pos": "1" },
    ];
    for (const form of forged) {
      const outcome = await post("supplier.admin", id, form);
      expect(outcome.status).toBe(400);
      expect(message(outcome.data.message)).toContain(form.productId ?? form["positions[0].id"]);
    }
    const bulk = await post("supplier.admin", id, { intent: "bulk-products", bulk: "on" }, [["selected", "valueOf"]]);
    expect(bulk.status).toBe(400);
    const after = await fresh(id);
    expect(after.version).toBe(before.version);
    expect(Object.keys(after.offers)).toEqual([sku("A")]);
    expect(after.productIds).toEqual([sku("A")]);

    // An offer such a request stored before (nothing but "on") still lists, under its id, and can be removed.
    await storage().campaigns.update(id, { offers: { ...after.offers, constructor: { on: true } as never } }, { by: "" }, { expectVersion: after.version });
    const listed = (await loadProducts("supplier.admin", id)).data.products.find((p: { id: string }) => p.id === "constructor");
    expect(listed).toMatchObject({ title: "constructor", image_link: "", availability: "" });
    expect((await post("supplier.admin", id, { intent: "remove-product", productId: "constructor" })).status).toBe(302);
    expect(Object.keys((await fresh(id)).offers)).toEqual([sku("A")]);
  });

  it("sorts by position, then availability; positions typed and moves up and down", async () => {
    const id = await newCampaign();
    await addIds("supplier.admin", id, `${sku("E")} ${sku("B")} ${sku("D")} ${sku("C")} ${sku("A")}`);
    // No position: by availability rank (in stock 5, in store 4, preorder 3, out of stock 0, not found -1).
    expect((await fresh(id)).productIds).toEqual([sku("A"), sku("C"), sku("D"), sku("B"), sku("E")]);

    const saved = await post("supplier.admin", id, {
      intent: "save-positions",
      "positions[0].id": sku("E"),
      "positions[0].pos": "1",
      "positions[1].id": sku("B"),
      "positions[1].pos": "2",
      "positions[2].id": sku("A"),
      "positions[2].pos": "",
    });
    expect(saved.status).toBe(302);
    let campaign = await fresh(id);
    expect(campaign.offers[sku("E")]!.pos).toBe(1);
    expect(campaign.offers[sku("A")]!.pos).toBeNull();
    expect(campaign.productIds).toEqual([sku("E"), sku("B"), sku("A"), sku("C"), sku("D")]);

    const invalid = await post("supplier.admin", id, { intent: "save-positions", "positions[0].id": sku("E"), "positions[0].pos": "0" });
    expect(invalid.status).toBe(400);
    expect(t(invalid.data.failure)).toBe("Upsert mass product");
    expect(message(invalid.data.message)).toBe("A position is a whole number from 1 to 9999, or empty.");

    const up = await post("supplier.admin", id, { intent: "move-product", productId: sku("C"), direction: "up" });
    expect(up.status).toBe(302);
    expect(up.location).toBe(`${productsPath(id)}?moved=${sku("C")}&dir=up`);
    campaign = await fresh(id);
    expect(campaign.productIds).toEqual([sku("E"), sku("B"), sku("C"), sku("A"), sku("D")]);
    expect(Object.values(campaign.offers).map((o) => o.pos).sort()).toEqual([1, 2, 3, 4, 5]);

    await post("supplier.admin", id, { intent: "move-product", productId: sku("E"), direction: "down" });
    expect((await fresh(id)).productIds).toEqual([sku("B"), sku("E"), sku("C"), sku("A"), sku("D")]);
    const page = await loadProducts("supplier.admin", id, `?moved=${sku("E")}&dir=down`);
    expect(page.data.moved).toEqual({ id: sku("E"), direction: "down" });
    expect(page.data.products.map((p: { id: string; pos: number }) => [p.id, p.pos])).toEqual([
      [sku("B"), 1],
      [sku("E"), 2],
      [sku("C"), 3],
      [sku("A"), 4],
      [sku("D"), 5],
    ]);
  });

  it("refuses a stale version with a conflict, keeping the input", async () => {
    const id = await newCampaign();
    const stale = String((await fresh(id)).version);
    await addIds("supplier.admin", id, sku("A"));
    const outcome = await addIds("supplier.admin", id, sku("B"), stale);
    expect(outcome.status).toBe(409);
    expect(message(outcome.data.result.error[""][0])).toBe(t("errors.conflict"));
    expect(outcome.data.result.initialValue.ids).toBe(sku("B"));
    expect(Object.keys((await fresh(id)).offers)).toEqual([sku("A")]);
  });

  it("a form without the loaded campaign's version is 'No fetched campaign'", async () => {
    const id = await newCampaign();
    const request = postRequest(productsPath(id), { intent: "add-products", ids: sku("A") }, { cookie: cookies["supplier.admin"] });
    const outcome = await run(routes.products.action, request, { campaignId: id });
    expect(outcome.status).toBe(400);
    expect(t(outcome.data.failure)).toBe("No fetched campaign");
  });
});

describe("more than 200 products", () => {
  it("warns past 200 products, without refusing them", async () => {
    const many = Array.from({ length: 201 }, (_, i) => makeProductInput({ id: sku(`MANY-${String(i).padStart(3, "0")}`), party: "1P" }));
    await storage().catalog.upsertMany(many);
    const id = await newCampaign();
    const first = await addIds("supplier.admin", id, many.slice(0, 200).map((p) => p.id).join("\n"));
    expect(first.status).toBe(302);
    expect((await toastOf(first.headers))!.description).toBeUndefined();
    expect((await loadProducts("supplier.admin", id)).data.tooMany).toBe(false);
    const second = await addIds("supplier.admin", id, many[200]!.id);
    expect(second.status).toBe(302);
    const toast = (await toastOf(second.headers))!;
    expect(t(toast.description!, toast.values)).toBe("The campaign now has 201 products, more than 200: consider fewer, better ones.");
    const page = await loadProducts("supplier.admin", id);
    expect(page.data).toMatchObject({ count: 201, tooMany: true, threshold: 200 });
    expect(t("campaignProducts:warnings.tooManyNotice", { total: page.data.count, max: page.data.threshold })).toBe("This campaign has 201 products, more than 200: consider fewer, better ones.");
    expect((await fresh(id)).productIds).toHaveLength(201);
  });
});

describe("a large campaign, a page at a time (ADR 48)", () => {
  const large = (i: number) => `L-${RUN}-${String(i).padStart(4, "0")}`;
  type Row = { id: string; on: boolean; index: number };

  /** A draft holding `count` products (written through the storage port: a paste takes 1,000 at most). */
  async function largeCampaign(count: number): Promise<string> {
    const id = await newCampaign();
    const offers = Object.fromEntries(
      Array.from({ length: count }, (_, i) => [large(i), { on: true, availability: "in stock", title: `Large product ${i}`, image_link: "", pos: null, party: "1P" as const }]),
    );
    const campaign = await fresh(id);
    await storage().campaigns.update(id, { offers, productIds: Object.keys(offers).sort() }, { by: "" }, { expectVersion: campaign.version });
    return id;
  }
  const idsOf = (data: { products: Row[] }) => data.products.map((p) => p.id);

  it("serves a campaign of 2,415 products 50 at a time: the page, its place in the list and the campaign's counts", async () => {
    const id = await largeCampaign(2415);
    const first = await loadProducts("supplier.admin", id);
    expect(first.data.products).toHaveLength(50);
    expect(first.data.paging).toEqual({ page: 1, pages: 49, offset: 0, first: 1, last: 50, total: 2415 });
    expect(first.data).toMatchObject({ count: 2415, onCount: 2415, tooMany: true });
    expect(idsOf(first.data)).toEqual(Array.from({ length: 50 }, (_, i) => large(i)));
    // What the page carries stays small, whatever the campaign's size (it was all 2,415 rows).
    expect(JSON.stringify(first.data).length).toBeLessThan(40_000);

    const second = await loadProducts("supplier.admin", id, "?page=2");
    expect(second.data.paging).toMatchObject({ page: 2, first: 51, last: 100 });
    expect(idsOf(second.data)[0]).toBe(large(50));
    expect(second.data.products[0].index).toBe(50);

    // A page past the last shows the last; anything else than a page number, the first.
    const past = await loadProducts("supplier.admin", id, "?page=999");
    expect(past.data.paging).toMatchObject({ page: 49, first: 2401, last: 2415 });
    expect(past.data.products).toHaveLength(15);
    expect((await loadProducts("supplier.admin", id, "?page=abc")).data.paging.page).toBe(1);

    // "51–100 of 2,415", digits grouped in each language.
    expect(t("campaignProducts:pages.range", { first: 51, last: 100, total: 2415 })).toBe("51–100 of 2,415");
    const fr = await (await import("~/services/i18n.server")).getFixedT("fr");
    expect(fr("campaignProducts:pages.range", { first: 51, last: 100, total: 2415 })).toBe("51–100 sur 2\u202f415");
  });

  it("switches a product of page 2 off: that product changes, and the page comes back to page 2", async () => {
    const id = await largeCampaign(260);
    const target = idsOf((await loadProducts("supplier.admin", id, "?page=2")).data)[7]!;
    expect(target).toBe(large(57));
    const off = await post("supplier.admin", id, { intent: "toggle-product", productId: target, state: "off", back: "?page=2" });
    expect(off.status).toBe(302);
    expect(off.location).toBe(`${productsPath(id)}?page=2#product-${target}`);
    const campaign = await fresh(id);
    expect(Object.entries(campaign.offers).filter(([, o]) => !o.on).map(([k]) => k)).toEqual([target]);
    expect(campaign.productIds).toHaveLength(259);
    const back = await loadProducts("supplier.admin", id, "?page=2");
    expect(back.data.products.find((p: Row) => p.id === target)).toMatchObject({ on: false });
    expect(back.data.onCount).toBe(259);

    // A bulk switch of products selected on page 3 comes back to page 3, and changes only them.
    const page3 = idsOf((await loadProducts("supplier.admin", id, "?page=3")).data);
    const bulk = await post("supplier.admin", id, { intent: "bulk-products", bulk: "off", back: "?page=3" }, [["selected", page3[0]!], ["selected", page3[1]!]]);
    expect(bulk.location).toBe(`${productsPath(id)}?page=3`);
    expect((await fresh(id)).productIds).toHaveLength(257);
    // Only a query of this page is taken back.
    const elsewhere = await post("supplier.admin", id, { intent: "toggle-product", productId: target, state: "on", back: "//evil.example/?page=2" });
    expect(elsewhere.location).toBe(`${productsPath(id)}#product-${target}`);
  });

  it("removing the only product of the last page shows the new last page; moving the first of a page up follows it to the page before", async () => {
    const id = await largeCampaign(101);
    const removed = await post("supplier.admin", id, { intent: "remove-product", productId: large(100), back: "?page=3" });
    // Back at the row that took its place: the one before it, now the last of the new last page.
    expect(removed.location).toBe(`${productsPath(id)}?page=3#product-${large(99)}`);
    const after = await loadProducts("supplier.admin", id, "?page=3");
    expect(after.data.paging).toMatchObject({ page: 2, pages: 2, first: 51, last: 100, total: 100 });
    expect(idsOf(after.data).at(-1)).toBe(large(99));

    const up = await post("supplier.admin", id, { intent: "move-product", productId: large(50), direction: "up", back: "?page=2" });
    expect(up.location).toBe(`${productsPath(id)}?moved=${large(50)}&dir=up`);
    expect(idsOf((await loadProducts("supplier.admin", id)).data)[49]).toBe(large(50));
    const down = await post("supplier.admin", id, { intent: "move-product", productId: large(50), direction: "down", back: `?moved=${large(50)}&dir=up` });
    expect(down.location).toBe(`${productsPath(id)}?page=2&moved=${large(50)}&dir=down`);
  });

  it("puts page 2's products in a new order (drag and drop) without moving the other pages' products", async () => {
    const id = await largeCampaign(120);
    const page2 = idsOf((await loadProducts("supplier.admin", id, "?page=2")).data);
    const reversed = [...page2].reverse();
    const form: Record<string, string> = { intent: "save-positions", slice: "50", back: "?page=2" };
    reversed.forEach((productId, i) => {
      form[`positions[${i}].id`] = productId;
      form[`positions[${i}].pos`] = String(51 + i);
    });
    const saved = await post("supplier.admin", id, form);
    expect(saved.status).toBe(302);
    expect(saved.location).toBe(`${productsPath(id)}?page=2`);
    const campaign = await fresh(id);
    expect(campaign.productIds.slice(0, 50)).toEqual(Array.from({ length: 50 }, (_, i) => large(i)));
    expect(campaign.productIds.slice(50, 100)).toEqual(reversed);
    expect(campaign.productIds.slice(100)).toEqual(Array.from({ length: 20 }, (_, i) => large(100 + i)));
    expect(campaign.offers[reversed[0]!]!.pos).toBe(51);

    // Products that are not that page's (the list changed, or a forged form) are refused.
    const wrong = await post("supplier.admin", id, { intent: "save-positions", slice: "0", "positions[0].id": large(60), "positions[0].pos": "1" });
    expect(wrong.status).toBe(400);
    expect(t(wrong.data.failure)).toBe("Upsert mass product");
    expect((await fresh(id)).productIds).toEqual(campaign.productIds);
  });

  it("switches every product of the campaign off, on every page, only after a confirmation saying how many; never removes them all", async () => {
    const id = await largeCampaign(130);
    await post("supplier.admin", id, { intent: "toggle-product", productId: large(7), state: "off" });
    const ask = await post("supplier.admin", id, { intent: "bulk-products", bulk: "off", scope: "campaign", back: "?page=2" });
    expect(ask.status).toBe(200);
    expect(ask.data).toEqual({ form: "confirmAll", bulk: "off", count: 130 });
    expect(t("campaignProducts:bulkAll.confirmOff", { count: ask.data.count })).toBe("Switch off all 130 products of the campaign, on every page?");
    expect((await fresh(id)).productIds).toHaveLength(129);

    // A viewer, the supplier's or the retailer's, is refused the question and the change (and is
    // shown no form: the page's canEdit is false for them, the pages are there).
    for (const viewer of ["supplier.viewer", "retailer.viewer"]) {
      const page2 = await loadProducts(viewer, id, "?page=2");
      expect(page2.data).toMatchObject({ canEdit: false, paging: { page: 2, pages: 3 } });
      expect((await post(viewer, id, { intent: "bulk-products", bulk: "off", scope: "campaign" })).status).toBe(403);
      expect((await post(viewer, id, { intent: "bulk-products", bulk: "off", scope: "campaign", confirmed: "yes" })).status).toBe(403);
    }

    const done = await post("supplier.admin", id, { intent: "bulk-products", bulk: "off", scope: "campaign", confirmed: "yes", back: "?page=2" });
    expect(done.status).toBe(302);
    expect(done.location).toBe(`${productsPath(id)}?page=2`);
    expect(t((await toastOf(done.headers))!.title, { count: 130 })).toBe("130 products switched off.");
    let campaign = await fresh(id);
    expect(campaign.productIds).toEqual([]);
    expect(Object.keys(campaign.offers)).toHaveLength(130);

    // The selection's bulk bar still acts on the selection only.
    await post("supplier.admin", id, { intent: "bulk-products", bulk: "on" }, [["selected", large(120)]]);
    expect((await fresh(id)).productIds).toEqual([large(120)]);

    // History records what changed of each product switched (129: one was off already), its state
    // and its title once: less than the
    // campaign's products, where before and after in full took twice them (past 1 MiB on Firestore).
    const entry = (await storage().audit.list({ entity: "campaign", entityId: id, limit: 5 })).items.find((e) => e.changes.some((c) => c.field === "offers" && Object.keys((c.before ?? {}) as object).length === 129))!;
    const offersChange = entry.changes.find((c) => c.field === "offers")!;
    expect((offersChange.before as Record<string, unknown>)[large(0)]).toEqual({ on: true });
    expect((offersChange.after as Record<string, unknown>)[large(0)]).toEqual({ on: false, title: "Large product 0" });
    const history = await run(routes.history.loader, getRequest(`/campaigns/${id}/history`, { cookie: cookies["supplier.admin"] }), { campaignId: id });
    const lines = history.data.entries.flatMap((e: { changes: { field: string; lines: string[]; before: { text: string }; after: { text: string } }[] }) => e.changes.filter((c) => c.field === "offers"));
    expect(lines.some((c: { lines: string[] }) => c.lines[0]?.startsWith("Switched off: Large product 0, Large product 1"))).toBe(true);
    expect(lines.some((c: { before: { text: string }; after: { text: string } }) => c.before.text.startsWith("Large product 0 (on); ") && c.after.text.startsWith("Large product 0 (off); "))).toBe(true);

    const removeAll = await post("supplier.admin", id, { intent: "bulk-products", bulk: "remove", scope: "campaign", confirmed: "yes" });
    expect(removeAll.status).toBe(400);
    campaign = await fresh(id);
    expect(Object.keys(campaign.offers)).toHaveLength(130);
  });

  it("refuses an addition past 2,500 products with the reason, saving nothing; the campaign's other changes still work", async () => {
    const id = await largeCampaign(2500);
    await storage().catalog.upsertMany([makeProductInput({ id: sku("CAP-1"), party: "1P" }), makeProductInput({ id: sku("CAP-2"), party: "1P" })]);
    const before = await fresh(id);
    const refused = await addIds("supplier.admin", id, `${sku("CAP-1")} ${sku("CAP-2")}`);
    expect(refused.status).toBe(400);
    expect(t(refused.data.failure)).toBe("Upsert mass product");
    expect(message(refused.data.result.error[""][0])).toBe("A campaign holds at most 2,500 products: with these it would have 2,502. Add fewer, or put the others in another campaign.");
    expect((await fresh(id)).version).toBe(before.version);
    // The same through the CSV import.
    const file = new File([`sku\n${sku("CAP-1")}\n`], "skus.csv", { type: "text/csv" });
    const body = new FormData();
    body.set("intent", "import-products");
    body.set("version", String(before.version));
    body.set("file", file);
    const imported = await run(routes.products.action, new Request(new URL(productsPath(id), BASE_URL), { method: "POST", headers: { Cookie: cookies["supplier.admin"]! }, body }), { campaignId: id });
    expect(imported.status).toBe(400);
    expect(message(imported.data.message)).toBe("A campaign holds at most 2,500 products: with these it would have 2,501. Add fewer, or put the others in another campaign.");
    expect(Object.keys((await fresh(id)).offers)).toHaveLength(2500);
    // Switching and removing are never refused.
    expect((await post("supplier.admin", id, { intent: "toggle-product", productId: large(3), state: "off" })).status).toBe(302);
    expect((await post("supplier.admin", id, { intent: "remove-product", productId: large(4) })).status).toBe(302);
    expect((await addIds("supplier.admin", id, sku("CAP-1"))).status).toBe(302);
    expect(Object.keys((await fresh(id)).offers)).toHaveLength(2500);
  });
});

describe("rights and scope", () => {
  let otherCampaign: string;
  beforeAll(async () => {
    const other = await storage().teams.create(makeTeamData({ name: `Other Brand ${randomUUID().slice(0, 6)}` }), { by: "system" });
    const request = postRequest(
      `/teams/${other.id}/campaigns/new/sponsored-products`,
      { intent: "create-campaign", name: "Not yours", startDay: "2030-01-01", campaignType: "sponsored-products" },
      { cookie: cookies["retailer.admin"] },
    );
    const outcome = await run(routes.create.action, request, { teamId: other.id, type: "sponsored-products" });
    otherCampaign = outcome.location!.split("/").pop()!;
  });

  it("lets a supplier viewer read the products but answers 403 to every change", async () => {
    const id = await newCampaign("retailer.admin");
    await addIds("retailer.admin", id, sku("A"));
    const page = await loadProducts("supplier.viewer", id);
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ canEdit: false, count: 1 });
    const before = await fresh(id);
    for (const form of <Record<string, string>[]>[
      { intent: "add-products", ids: sku("B") },
      { intent: "toggle-product", productId: sku("A"), state: "off" },
      { intent: "remove-product", productId: sku("A") },
      { intent: "move-product", productId: sku("A"), direction: "down" },
      { intent: "save-positions", "positions[0].id": sku("A"), "positions[0].pos": "3" },
    ]) {
      const outcome = await post("supplier.viewer", id, form);
      expect(outcome.status, form.intent).toBe(403);
    }
    const bulk = await post("supplier.viewer", id, { intent: "bulk-products", bulk: "remove" }, [["selected", sku("A")]]);
    expect(bulk.status).toBe(403);
    expect(t(bulk.data.message)).toBe("Insufficient permissions");
    expect((await fresh(id)).version).toBe(before.version);
    expect((await loadProducts("retailer.viewer", id)).data.canEdit).toBe(false);
  });

  it("answers 404 to the products, history and CSV of a campaign outside the user's teams", async () => {
    const params = { campaignId: otherCampaign };
    const cookie = cookies["supplier.admin"];
    expect((await run(routes.products.loader, getRequest(productsPath(otherCampaign), { cookie }), params)).status).toBe(404);
    expect((await run(routes.products.action, postRequest(productsPath(otherCampaign), { intent: "add-products", ids: sku("A"), version: "1" }, { cookie }), params)).status).toBe(404);
    expect((await run(routes.history.loader, getRequest(`/campaigns/${otherCampaign}/history`, { cookie }), params)).status).toBe(404);
    expect((await run(routes.csv.loader, getRequest(`/campaigns/${otherCampaign}/history.csv`, { cookie }), params)).status).toBe(404);
    expect((await run(routes.history.loader, getRequest(`/campaigns/no-such-campaign/history`, { cookie }), { campaignId: "no-such-campaign" })).status).toBe(404);
    // A retailer sees it.
    expect((await run(routes.history.loader, getRequest(`/campaigns/${otherCampaign}/history`, { cookie: cookies["retailer.viewer"] }), params)).status).toBe(200);
  });
});

describe("history", () => {
  const loadHistory = (who: string, id: string, query = "") =>
    run(routes.history.loader, getRequest(`/campaigns/${id}/history${query}`, { cookie: cookies[who] }), { campaignId: id });

  async function exportCsv(who: string, id: string) {
    const request = getRequest(`/campaigns/${id}/history.csv`, { cookie: cookies[who] });
    const response = (await routes.csv.loader({ request, params: { campaignId: id }, context } as never)) as Response;
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.arrayBuffer());
    return { response, text, rows: Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { skipEmptyLines: true }).data };
  }

  it("lists every change newest first, with who, when and each field before and after, readable", async () => {
    const id = await newCampaign("supplier.admin");
    await addIds("supplier.admin", id, `${sku("A")} ${sku("C")}`);
    await post("retailer.admin", id, { intent: "toggle-product", productId: sku("A"), state: "off" });
    const campaign = await fresh(id);
    await storage().campaigns.update(id, { bid: 150, pacingTotal: 250_000 }, { by: "" }, { expectVersion: campaign.version });

    const outcome = await loadHistory("supplier.viewer", id);
    expect(outcome.status).toBe(200);
    const entries = outcome.data.entries as { by: string; action: string; actionLabel: string; atText: string; at: string; changes: { field: string; label: string; before: { text: string }; after: { text: string }; lines: string[] }[] }[];
    expect(entries.map((e) => [e.action, e.by])).toEqual([
      ["update", "system"],
      ["update", "retailer.admin@example.com"],
      ["update", "supplier.admin@example.com"],
      ["create", "supplier.admin@example.com"],
    ]);
    expect(entries[0]!.actionLabel).toBe("Edited");
    // Money in cents shown as money.
    const bid = entries[0]!.changes.find((c) => c.field === "bid")!;
    expect(bid.label).toBe("Bid");
    expect(bid.before.text).toBe("€0.00");
    expect(bid.after.text).toBe("€1.50");
    expect(entries[0]!.changes.find((c) => c.field === "pacingTotal")!.after.text).toBe("€2,500.00");
    // The toggle: the products before/after by title, with what changed, and productIds by title.
    const toggle = entries[1]!.changes;
    expect(toggle.find((c) => c.field === "offers")!.lines).toEqual(["Switched off: Alpha coffee"]);
    // In words, not JSON nor ids; only the products that changed (a campaign of thousands of
    // products switching one wrote both whole maps, ~1 MB, over Firestore's document limit).
    expect(toggle.find((c) => c.field === "offers")!.before.text).toBe("Alpha coffee (on)");
    expect(toggle.find((c) => c.field === "offers")!.after.text).toBe("Alpha coffee (off)");
    const stored = (await storage().audit.list({ entity: "campaign", entityId: id, limit: 10 })).items.find((e) => e.by === "retailer.admin@example.com")!;
    const offersChange = stored.changes.find((c) => c.field === "offers")!;
    expect([Object.keys(offersChange.before as object), Object.keys(offersChange.after as object)]).toEqual([[sku("A")], [sku("A")]]);
    const ids = toggle.find((c) => c.field === "productIds")!;
    expect(ids.before.text).toBe("Alpha coffee, Charlie cocoa");
    expect(ids.after.text).toBe("Charlie cocoa");
    expect(entries[2]!.changes.find((c) => c.field === "offers")!.lines).toEqual(["Added: Alpha coffee, Charlie cocoa"]);
    // Words shown in the reader's language.
    expect(entries[3]!.changes.find((c) => c.field === "status")!.after.text).toBe("Draft");
    expect(entries[3]!.changes.find((c) => c.field === "campaignType")!.after.text).toBe("Sponsored products");
    expect(entries[3]!.actionLabel).toBe("Created");
    // The instant, in the user's time zone (Europe/Paris).
    const at = new Date(entries[0]!.at);
    expect(entries[0]!.atText).toBe(new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "Europe/Paris" }).format(at));
    expect(outcome.data.timeZone).toBe("Europe/Paris");
    expect(outcome.data.next).toBeNull();
  });

  it("pages with a cursor", async () => {
    const id = await newCampaign();
    await addIds("supplier.admin", id, sku("A"));
    for (let i = 0; i < 21; i++) {
      const state = i % 2 === 0 ? "off" : "on";
      expect((await post("supplier.admin", id, { intent: "toggle-product", productId: sku("A"), state })).status).toBe(302);
    }
    // 23 entries: create, add, 21 toggles.
    const first = await loadHistory("supplier.admin", id);
    expect(first.data.entries).toHaveLength(20);
    expect(first.data.next).toBeTruthy();
    expect(first.data.paged).toBe(false);
    const second = await loadHistory("supplier.admin", id, `?after=${encodeURIComponent(first.data.next)}`);
    expect(second.data.entries).toHaveLength(3);
    expect(second.data.paged).toBe(true);
    expect(second.data.next).toBeNull();
    expect(second.data.entries.at(-1).action).toBe("create");
    const seen = new Set([...first.data.entries, ...second.data.entries].map((e: { id: string }) => e.id));
    expect(seen.size).toBe(23);
    expect((await loadHistory("supplier.admin", id, "?after=not-a-cursor")).status).toBe(400);
  });

  it("downloads the history as CSV in the screen's words: headers, one row per field, money in the currency, formulas neutralised, named after the campaign", async () => {
    const name = `=Spring été ${randomUUID().slice(0, 4)}`;
    const id = await newCampaign("supplier.admin", name);
    await addIds("supplier.admin", id, sku("A"));
    const campaign = await fresh(id);
    await storage().campaigns.update(id, { bid: 150 }, { by: "retailer.admin@example.com" }, { expectVersion: campaign.version });

    const { response, rows } = await exportCsv("supplier.viewer", id);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const disposition = response.headers.get("Content-Disposition")!;
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" }).format(new Date());
    const slug = name.toLowerCase().normalize("NFKD").replace(/\p{M}+/gu, "").replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "");
    expect(disposition).toContain(`filename="campaign-${slug}-history-${today}.csv"`);
    expect(disposition).toMatch(/^attachment;/);
    expect(rows[0]).toEqual(["Date (Europe/Paris)", "By", "Action", "Field", "Before", "After"]);
    const body = rows.slice(1);
    // Oldest first: the creation rows, then the products, then the bid.
    expect(body[0]![2]).toBe("Created");
    expect(body[0]![1]).toBe("Sam Supplier");
    const nameRow = body.find((r) => r[3] === "Name")!;
    expect(nameRow.slice(4)).toEqual(["(none)", `'${name}`]);
    const productIds = body.find((r) => r[3] === "Products switched on" && r[4] === "(none)")!;
    expect(productIds[5]).toBe("Alpha coffee");
    expect(body.find((r) => r[3].startsWith("Products\n"))![3]).toBe("Products\nAdded: Alpha coffee");
    const bid = body.at(-1)!;
    expect(bid.slice(2)).toEqual(["Edited", "Bid", "€0.00", "€1.50"]);
    expect(bid[1]).not.toContain("@");
    // The time as the screen shows it, in the reader's zone.
    expect(bid[0]).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}:\d{2}$/);
    expect(rows.flat().join("\n")).not.toMatch(/\d{4}-\d{2}-\d{2}T|[{}]|"on"|P-\w+-A/);
  });

  it("gives the CSV to every reader of the campaign, in their language", async () => {
    const french = await app.createUser({ claims: { type: "retailer", role: "VIEWER" }, locale: "fr", roleByTeam: {} });
    cookies.french = await signIn(app.m, french.email, french.password);
    const id = await newCampaign();
    const { response, rows } = await exportCsv("french", id);
    expect(response.status).toBe(200);
    expect(rows[0]).toEqual(["Date (Europe/Paris)", "Par", "Action", "Champ", "Avant", "Après"]);
    expect(rows[1]![2]).toBe("Création");
  });
});
