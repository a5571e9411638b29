/**
 * The search-as-you-type routes of ADR 35 through the real loaders and actions: the Categories
 * section's category search (the categories of the campaign's products suggested with nothing
 * typed, those it targets left out; typed hits marked when already targeted; the product-page
 * kind; the same search answered by the page's GET form without JavaScript) and the quick
 * builder's product search (the team's brands only for a supplier). Refusals: a viewer (403), a
 * campaign or team of another team (404).
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProductInput, makeTeamData } from "../factories";
import { call, getRequest, postRequest, signIn, startApp, type TestApp, createDraftThroughForm } from "./app-helpers";

let app: TestApp;
let routes: {
  create: typeof import("~/routes/teams.$teamId.campaigns.new.$type");
  products: typeof import("~/routes/campaigns.$campaignId.products");
  categories: typeof import("~/routes/campaigns.$campaignId.categories");
  categorySearch: typeof import("~/routes/campaigns.$campaignId.category-search");
  quickSearch: typeof import("~/routes/teams.$teamId.campaigns.quick_.product-search");
};
const cookies: Record<string, string> = {};
const TEAM = "acme-brand";
const context = { requestId: "t", clientIp: "127.0.0.1" };
const RUN = randomUUID().slice(0, 6).toUpperCase();
/** A word found only in this file's products and categories. */
const WORD = `Wombat${RUN.toLowerCase().replace(/[^a-z]/g, "w")}`;
const sku = (name: string) => `PS-${RUN}-${name}`;
const storage = () => app.m.storageIndex.getStorage();
const fresh = async (id: string) => (await storage().campaigns.getOne(id))!;

function run(fn: (a: never) => unknown, request: Request, params: Record<string, string>) {
  return call(() => fn({ request, params, context } as never));
}

async function newCampaign(who = "supplier.admin", team = TEAM): Promise<string> {
  return createDraftThroughForm(routes.create.action, context, cookies[who], { team, name: `Pickers ${randomUUID().slice(0, 8)}` });
}

const categorySearch = (who: string, id: string, q: string, kind = "category") =>
  run(routes.categorySearch.loader, getRequest(`/campaigns/${id}/category-search?${new URLSearchParams({ q, kind })}`, { cookie: cookies[who] }), { campaignId: id });
const quickSearch = (who: string, team: string, q: string) =>
  run(routes.quickSearch.loader, getRequest(`/teams/${team}/campaigns/quick/product-search?${new URLSearchParams({ q })}`, { cookie: cookies[who] }), { teamId: team });
async function post(route: { action: (a: never) => unknown }, path: string, id: string, form: Record<string, string>) {
  return run(route.action, postRequest(path, { ...form, version: String((await fresh(id)).version) }, { cookie: cookies["supplier.admin"] }), { campaignId: id });
}

beforeAll(async () => {
  app = await startApp();
  process.env.SEARCH_SYNC_INTERVAL_MS = "0";
  routes = {
    create: await import("~/routes/teams.$teamId.campaigns.new.$type"),
    products: await import("~/routes/campaigns.$campaignId.products"),
    categories: await import("~/routes/campaigns.$campaignId.categories"),
    categorySearch: await import("~/routes/campaigns.$campaignId.category-search"),
    quickSearch: await import("~/routes/teams.$teamId.campaigns.quick_.product-search"),
  };
  (await import("~/services/search.server")).resetSearchSyncForTests();
  for (const email of ["retailer.admin@example.com", "supplier.admin@example.com", "supplier.viewer@example.com"]) {
    cookies[email.split("@")[0]!] = await signIn(app.m, email, app.demoPassword);
  }
  await storage().catalog.upsertMany([
    makeProductInput({ id: sku("A"), title: `${WORD} Alpha kettle`, brand: "Acme", party: "1P", categories: [`Kitchen ${WORD} > Kettles ${WORD} > Electric ${WORD}`] }),
    makeProductInput({ id: sku("B"), title: `${WORD} Bravo kettle`, brand: "Acme", party: "1P", categories: [`Kitchen ${WORD} > Kettles ${WORD} > Stove ${WORD}`] }),
    makeProductInput({ id: sku("Z"), title: `${WORD} Zeta kettle`, brand: "Zeta Home", party: "1P", categories: [`Kitchen ${WORD} > Kettles ${WORD} > Electric ${WORD}`] }),
  ]);
});

afterAll(async () => {
  delete process.env.SEARCH_SYNC_INTERVAL_MS;
  await app?.stop();
});

describe("the category search as you type", () => {
  it("suggests the categories of the campaign's products (those with more of them first) and leaves out those it targets; a typed search marks them", async () => {
    const id = await newCampaign();
    const none = await categorySearch("supplier.admin", id, "");
    expect(none.status).toBe(200);
    expect(none.data).toMatchObject({ suggested: true, rows: [] });

    await post(routes.products, `/campaigns/${id}/products`, id, { intent: "add-products", ids: `${sku("A")} ${sku("B")}` });
    const suggested = await categorySearch("supplier.admin", id, "");
    const names = (suggested.data.rows as { name: string }[]).map((r) => r.name);
    expect(names.slice(0, 2)).toEqual([`Kitchen ${WORD} > Kettles ${WORD}`, `Kitchen ${WORD}`]);
    expect(names.slice(2).sort()).toEqual([`Kitchen ${WORD} > Kettles ${WORD} > Electric ${WORD}`, `Kitchen ${WORD} > Kettles ${WORD} > Stove ${WORD}`].sort());
    expect(suggested.data.rows[0].floor).toMatch(/€/);

    const kettles = (suggested.data.rows as { id: string; name: string }[]).find((r) => r.name === `Kitchen ${WORD} > Kettles ${WORD}`)!.id;
    const added = await post(routes.categories, `/campaigns/${id}/categories`, id, { intent: "add-category", kind: "category", categoryId: kettles });
    expect(added.status, JSON.stringify(added.data)).toBe(302);
    const after = await categorySearch("supplier.admin", id, "");
    expect((after.data.rows as { id: string }[]).map((r) => r.id)).not.toContain(kettles);

    const typed = await categorySearch("supplier.admin", id, WORD.slice(0, 8));
    expect(typed.data.suggested).toBe(false);
    const rows = typed.data.rows as { id: string; inCampaign: boolean }[];
    expect(rows.find((r) => r.id === kettles)).toMatchObject({ inCampaign: true });
    expect(rows.filter((r) => r.inCampaign)).toHaveLength(1);
    // The product-page kind: the same category is not targeted there yet.
    const pdp = await categorySearch("supplier.admin", id, WORD.slice(0, 8), "productCategory");
    expect((pdp.data.rows as { id: string; inCampaign: boolean }[]).find((r) => r.id === kettles)).toMatchObject({ inCampaign: false });

    // Without JavaScript the page's GET form gives the same suggestions and hits.
    const page = await run(routes.categories.loader, getRequest(`/campaigns/${id}/categories`, { cookie: cookies["supplier.admin"] }), { campaignId: id });
    expect(page.data.add).toMatchObject({ suggested: true });
    expect((page.data.add.hits as { id: string }[]).map((h) => h.id)).toEqual((after.data.rows as { id: string }[]).map((r) => r.id));
    const searched = await run(routes.categories.loader, getRequest(`/campaigns/${id}/categories?${new URLSearchParams({ cq: WORD.slice(0, 8) })}`, { cookie: cookies["supplier.admin"] }), { campaignId: id });
    expect((searched.data.add.hits as { id: string; inCampaign: boolean }[]).find((h) => h.id === kettles)).toMatchObject({ inCampaign: true });
  });

  it("refuses a viewer (403) and a campaign of another team (404)", async () => {
    const id = await newCampaign();
    expect((await categorySearch("supplier.viewer", id, WORD)).status).toBe(403);
    const other = await storage().teams.create(makeTeamData({ name: `Other pickers ${RUN}` }), { by: "system" });
    const theirs = await newCampaign("retailer.admin", other.id);
    expect((await categorySearch("supplier.admin", theirs, WORD)).status).toBe(404);
    expect((await categorySearch("retailer.admin", theirs, WORD)).status).toBe(200);
  });
});

describe("the quick builder's product search as you type", () => {
  it("finds a supplier its team's brands only, and suggests with nothing typed", async () => {
    const typed = await quickSearch("supplier.admin", TEAM, WORD);
    expect(typed.status).toBe(200);
    expect((typed.data.rows as { id: string }[]).map((r) => r.id).sort()).toEqual([sku("A"), sku("B")]);
    expect(typed.data.suggested).toBe(false);
    const suggested = await quickSearch("supplier.admin", TEAM, "");
    expect(suggested.data.suggested).toBe(true);
    expect((suggested.data.rows as unknown[]).length).toBeGreaterThan(0);
  });

  it("refuses a viewer (403) and another team's supplier (404)", async () => {
    expect((await quickSearch("supplier.viewer", TEAM, WORD)).status).toBe(403);
    const other = await storage().teams.create(makeTeamData({ name: `Other quick pickers ${RUN}` }), { by: "system" });
    expect((await quickSearch("supplier.admin", other.id, WORD)).status).toBe(404);
    expect((await quickSearch("retailer.admin", other.id, WORD)).status).toBe(200);
  });
});
