/**
 * The quick campaign builder (issue 10 §3) through the real route loader and action: the steps
 * carry the draft in the URL (a missing name refused with the spec's message, the state kept),
 * suggestions from the chosen products' categories, one POST that creates the draft with its
 * products, keywords, product-list and product-page categories; a refusal of a later use case
 * leaves no draft behind; a viewer is refused (403) and another team's supplier answered 404.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProductInput, makeTeamData } from "../factories";
import { call, createDraftThroughForm, getRequest, postRequest, signIn, startApp, type TestApp } from "./app-helpers";

let app: TestApp;
let route: typeof import("~/routes/teams.$teamId.campaigns.quick");
let t: Awaited<ReturnType<typeof import("~/services/i18n.server").getFixedT>>;
const cookies: Record<string, string> = {};
const TEAM = "acme-brand";
const context = { requestId: "t", clientIp: "127.0.0.1" };
const RUN = randomUUID().slice(0, 6).toUpperCase();
const sku = (name: string) => `Q-${RUN}-${name}`;
const storage = () => app.m.storageIndex.getStorage();
const path = `/teams/${TEAM}/campaigns/quick`;

function run(fn: (a: never) => unknown, request: Request, teamId = TEAM) {
  return call(() => fn({ request, params: { teamId }, context } as never));
}
const load = (who: string, query: [string, string][], teamId = TEAM) =>
  run(route.loader, getRequest(`/teams/${teamId}/campaigns/quick?${new URLSearchParams(query)}`, { cookie: cookies[who] }), teamId);
function create(who: string, form: [string, string][], teamId = TEAM) {
  const request = postRequest(`/teams/${teamId}/campaigns/quick`, {}, { cookie: cookies[who] });
  const body = new URLSearchParams([["intent", "create-quick-campaign"], ...form]);
  return run(route.action, new Request(request.url, { method: "POST", headers: request.headers, body: body.toString() }), teamId);
}
const general = (name: string): [string, string][] => [
  ["name", name],
  ["startDay", "2030-01-01"],
  ["campaignType", "sponsored-products"],
  ["wallet", ""],
  ["bidStrategy", "CPC"],
  ["campaignBid", "0.90"],
];

beforeAll(async () => {
  app = await startApp();
  process.env.SEARCH_SYNC_INTERVAL_MS = "0";
  route = await import("~/routes/teams.$teamId.campaigns.quick");
  t = await (await import("~/services/i18n.server")).getFixedT("en-GB");
  for (const email of ["retailer.admin@example.com", "supplier.admin@example.com", "supplier.viewer@example.com"]) {
    cookies[email.split("@")[0]!] = await signIn(app.m, email, app.demoPassword);
  }
  await storage().catalog.upsertMany([
    makeProductInput({ id: sku("A"), title: `Quickbrew ${RUN} coffee`, brand: "Acme", categories: [`Grocery > Qbtest ${RUN} coffee`] }),
    makeProductInput({ id: sku("B"), title: `Quickbrew ${RUN} tea`, brand: "Acme", categories: [`Grocery > Qbtest ${RUN} tea`] }),
  ]);
});
afterAll(async () => {
  delete process.env.SEARCH_SYNC_INTERVAL_MS;
  await app?.stop();
});

describe("quick campaign builder", () => {
  it("refuses to leave the first step without a name with the spec's message, keeping what was typed", async () => {
    const page = await load("supplier.admin", [["step", "products"], ["name", ""], ["startDay", "2030-01-01"], ["campaignType", "sponsored-products"], ["bid", "0.80"]]);
    expect(page.status).toBe(200);
    expect(page.data.step).toBe("general");
    expect(t(page.data.errors.name[0])).toBe("Cannot create campaign without Name and Start Date");
    expect(page.data.state.bid).toBe("0.80");
  });

  it("finds products, suggests the chosen products' categories, and creates the draft with products, keywords and categories in one go", async () => {
    const found = await load("supplier.admin", [["step", "products"], ...general("Q"), ["q", `Quickbrew ${RUN}`]]);
    expect(found.data.step).toBe("products");
    expect(found.data.view.rows.map((r: { id: string }) => r.id).sort()).toEqual([sku("A"), sku("B")]);

    const cats = await load("supplier.admin", [["step", "categories"], ...general("Q"), ["products", sku("A")], ["products", sku("B")]]);
    const names = cats.data.view.categories.map((c: { name: string }) => c.name);
    expect(names).toContain(`Grocery > Qbtest ${RUN} coffee`);
    const coffee = cats.data.view.categories.find((c: { name: string }) => c.name === `Grocery > Qbtest ${RUN} coffee`).id;
    const tea = cats.data.view.categories.find((c: { name: string }) => c.name === `Grocery > Qbtest ${RUN} tea`).id;

    const name = `Quick ${RUN}`;
    const created = await create("supplier.admin", [
      ...general(name),
      ["bid", "1.00"],
      ["products", sku("A")],
      ["products", sku("B")],
      ["keywords", "quickbrew coffee\n\nquickbrew tea"],
      ["categories", coffee],
      ["productCategories", tea],
    ]);
    expect(created.status, JSON.stringify(created.data)).toBe(302);
    const id = created.location!.split("/").pop()!;
    expect(created.location).toBe(`/campaigns/${id}`);
    const campaign = (await storage().campaigns.getOne(id))!;
    // Stored as the quick builder's (the spec's Campaign field `quick`).
    expect(campaign).toMatchObject({ name, status: "draft", team: TEAM, quick: true });
    // The first step's campaign bid is saved: the draft is complete (no "a bid above zero" missing).
    expect(campaign).toMatchObject({ bidStrategy: "CPC", bid: 90 });
    const { isComplete } = await import("~/domain/campaigns/status");
    expect(isComplete(campaign)).toBe(true);
    expect(Object.keys(campaign.offers ?? {}).sort()).toEqual([sku("A"), sku("B")]);
    expect(campaign.counts).toEqual({ keywords: 2, categories: 1, hubs: 0, productCategories: 1 });
    const keywords = await storage().targets.list(id, "keyword");
    expect(Object.keys(keywords).sort()).toEqual(["quickbrew coffee", "quickbrew tea"]);
    expect(keywords["quickbrew coffee"]!.bid).toBe(100);
    expect(Object.keys(await storage().targets.list(id, "category"))).toEqual([coffee]);
    expect(Object.values(await storage().targets.list(id, "productCategory"))[0]).toMatchObject({ placement: "pdp" });
  });

  it("drops a category id edited into the URL that the catalog does not know, instead of offering its raw id as a choice", async () => {
    const cats = await load("supplier.admin", [["step", "categories"], ...general("Q"), ["products", sku("A")], ["categoriesSeen", "1"], ["categories", "no-such-category"], ["productCategories", "constructor"]]);
    const coffee = cats.data.view.categories.find((c: { name: string }) => c.name === `Grocery > Qbtest ${RUN} coffee`).id;
    expect(cats.data.state.categories).toEqual([]);
    expect(cats.data.state.productCategories).toEqual([]);
    const review = await load("supplier.admin", [["step", "review"], ...general("Q"), ["categories", coffee], ["categories", "no-such-category"]]);
    expect(review.data.state.categories).toEqual([coffee]);
    expect(review.data.view.names).toEqual({ [coffee]: `Grocery > Qbtest ${RUN} coffee` });
  });

  it("offers the campaign bid filled with the strategy's minimum, and refuses one under it with the editor's message", async () => {
    const first = await load("supplier.admin", []);
    const { bidding } = first.data;
    expect(bidding.strategies.map((s: { strategy: string }) => s.strategy)).toContain("CPC");
    const settings = await (await import("~/services/retailer-settings.server")).getRetailerSettings();
    const { bidLimits } = await import("~/domain/campaigns/bidding");
    const min = bidLimits(settings, "sponsored-products", bidding.strategy).minCents;
    expect(bidding.bid).toBe((min / 100).toFixed(2));
    const low = await load("supplier.admin", [["step", "products"], ...general("Low").filter(([k]) => k !== "campaignBid"), ["campaignBid", "0.01"]]);
    expect(low.data.step).toBe("general");
    expect(t(low.data.errors.campaignBid[0].split("::")[0], JSON.parse(low.data.errors.campaignBid[0].split("::")[1]))).toMatch(/^Minimum allowed bid: /);
    const empty = await load("supplier.admin", [["step", "products"], ...general("Empty").filter(([k]) => k !== "campaignBid"), ["campaignBid", ""]]);
    expect(empty.data.step).toBe("general");
    expect(t(empty.data.errors.campaignBid[0])).toBe(t("campaigns:form.bidRequired"));
  });

  it("stores the creation form's drafts as not quick", async () => {
    const form = await import("~/routes/teams.$teamId.campaigns.new.$type");
    const id = await createDraftThroughForm(form.action, context, cookies["supplier.admin"]!, { team: TEAM, name: `Form ${RUN}` });
    expect((await storage().campaigns.getOne(id))!.quick).toBe(false);
  });

  it("leaves no draft behind when a later step is refused, and says so", async () => {
    const name = `Refused ${RUN}`;
    const before = (await storage().campaigns.listForTeam(TEAM)).length;
    const refused = await create("supplier.admin", [...general(name), ["products", sku("A")], ["categories", "no-such-category-anywhere"]]);
    expect(refused.status).toBe(400);
    expect(refused.data.error).toBeTruthy();
    const after = await storage().campaigns.listForTeam(TEAM);
    expect(after.length).toBe(before);
    expect(after.some((c) => c.name === name)).toBe(false);
  });

  it("refuses the create without a name with the spec's message", async () => {
    const refused = await create("supplier.admin", [["name", ""], ["startDay", "2030-01-01"], ["campaignType", "sponsored-products"]]);
    expect(refused.status).toBe(400);
    expect(t(refused.data.result.error.name[0])).toBe("Cannot create campaign without Name and Start Date");
  });

  it("refuses a viewer (403) and answers 404 to another team's supplier", async () => {
    expect((await load("supplier.viewer", [])).status).toBe(403);
    expect((await create("supplier.viewer", general("Viewer"))).status).toBe(403);
    const other = await storage().teams.create(makeTeamData({ name: `Other Quick ${RUN}` }), { by: "system" });
    expect((await load("supplier.admin", [], other.id)).status).toBe(404);
    expect((await create("supplier.admin", general("Not yours"), other.id)).status).toBe(404);
    // A retailer may build one for any team.
    expect((await load("retailer.admin", [], other.id)).status).toBe(200);
  });
});
