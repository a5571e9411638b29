/**
 * POST /api/search/{product,keyword,category}: the /search contract of spec section 7 answered
 * over the embedded index built from the catalog, with an identity token like /api/metrics:
 * the fields each role gets, a supplier's brand scope (and the server accepting only those
 * products), floor prices, suggested bids from observed costs or from the floor, demand from
 * the statistics, the catalog's changes followed, and every request refused (401, 400 with a
 * reason, 404, 405), an oversized size capped.
 */
import path from "node:path";
import { generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_RETAILER_SETTINGS, type FloorPrices } from "~/domain/retailer-settings";
import type { User } from "~/domain/types";
import type { MetricsStore } from "~/metrics/port";
import { makeProductInput } from "../factories";
import { fact } from "./metrics.contract";
import { BASE_URL, postRequest, signIn, startApp, call, type TestApp } from "./app-helpers";

let app: TestApp;
let metrics: MetricsStore;
let m: {
  route: typeof import("~/routes/api.search.$kind");
  tokens: typeof import("~/services/identity-token.server");
  metricsIndex: typeof import("~/metrics/index.server");
  search: typeof import("~/services/search.server");
  products: typeof import("~/routes/campaigns.$campaignId.products");
  create: typeof import("~/routes/teams.$teamId.campaigns.new.$type");
};
let operator: User;
let retailer: User;
let supplier: User;
let seller: User;
let tokens: Record<"operator" | "retailer" | "supplier" | "seller", string>;

const storage = () => app.m.storageIndex.getStorage();
const DAY_MS = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY_MS - 6 * 3_600_000).toISOString();

beforeAll(async () => {
  app = await startApp();
  process.env.SEARCH_SYNC_INTERVAL_MS = "0";
  const [route, tokensModule, metricsIndex, sqliteMetrics, search, products, create] = await Promise.all([
    import("~/routes/api.search.$kind"),
    import("~/services/identity-token.server"),
    import("~/metrics/index.server"),
    import("~/metrics/sqlite.server"),
    import("~/services/search.server"),
    import("~/routes/campaigns.$campaignId.products"),
    import("~/routes/teams.$teamId.campaigns.new.$type"),
  ]);
  m = { route, tokens: tokensModule, metricsIndex, search, products, create };
  search.resetSearchSyncForTests();
  metrics = new sqliteMetrics.SqliteMetricsStore(path.join(app.dir, "metrics-search.db"));
  metricsIndex.setMetricsStoreForTests(metrics);

  const { newTeamInput } = app.m.seed;
  await storage().teams.create(
    newTeamInput({ name: "Casa Seller", account_type: "marketplace_seller", marketplace_seller_id: "seller-77", associated_brands: [] }),
    { by: "system" },
    "casa-seller",
  );
  await storage().catalog.upsertMany([
    makeProductInput({ id: "SKU-MP1", title: "Casa Bella Espresso Cups", brand: "Casa Bella", party: "3P", seller_id: "seller-77", categories: ["Home > Kitchen"] }),
    makeProductInput({ id: "SKU-MP2", title: "Casa Bella Espresso Saucers", brand: "Casa Bella", party: "3P", categories: ["Home > Kitchen"] }),
  ]);
  operator = await app.createUser({ email: "op.search@example.com", claims: { type: "operator", role: "ADMIN" } });
  retailer = await app.createUser({ email: "ret.search@example.com", claims: { type: "retailer", role: "VIEWER" } });
  supplier = (await storage().users.getByEmail("supplier.admin@example.com"))!;
  seller = await app.createUser({ email: "seller.search@example.com", claims: { type: "supplier", role: "ADMIN" }, roleByTeam: { "casa-seller": "ADMIN" } });
  tokens = {
    operator: await m.tokens.mintIdentityToken(operator),
    retailer: await m.tokens.mintIdentityToken(retailer),
    supplier: await m.tokens.mintIdentityToken(supplier),
    seller: await m.tokens.mintIdentityToken(seller),
  };

  // Demand: "Coffee" searched last week and the week before (cost paid: a CPC of 0.50); the
  // Coffee category seen on its list pages; nothing on "tea".
  await metrics.applyBatch(
    "demand",
    [
      fact(ago(2), { keyword: "Coffee", displays: 150, clicks: 10, costMicros: 5_000_000, quantity: 1 }),
      fact(ago(10), { keyword: "coffee", displays: 100, clicks: 5, costMicros: 2_500_000, quantity: 0 }),
      fact(ago(3), { placement: "plp", category: "grocery--coffee-tea--coffee", displays: 80, clicks: 2, costMicros: 600_000 }),
      fact(ago(3), { placement: "pdp", productCategory: "grocery--coffee-tea--coffee", displays: 30, clicks: 0, costMicros: 0 }),
      fact(ago(2), { team: "acme-brand", product: "SKU-000002", displays: 40, clicks: 3, costMicros: 900_000 }),
      fact(ago(2), { team: "other-team", product: "SKU-000002", displays: 7, clicks: 1, costMicros: 100_000 }),
    ],
    null,
  );
});

afterAll(async () => {
  delete process.env.SEARCH_SYNC_INTERVAL_MS;
  m?.metricsIndex.setMetricsStoreForTests(undefined);
  await metrics?.close();
  await app?.stop();
});

async function setConfig(patch: { retailerSettings?: typeof DEFAULT_RETAILER_SETTINGS; floorPrices?: FloorPrices }) {
  const { fieldOps } = await import("~/storage/port");
  await storage().config.update(
    { retailerSettings: patch.retailerSettings ?? fieldOps.delete(), floorPrices: patch.floorPrices ?? fieldOps.delete() } as never,
    { by: "system" },
  );
  app.m.config.forgetLiveConfig();
}

beforeEach(async () => {
  m.tokens.resetSigningKeyCache();
  await setConfig({});
});

function post(kind: string, body: unknown, token?: string | null, raw?: string): Promise<Response> {
  const request = new Request(`${BASE_URL}/api/search/${kind}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: raw ?? JSON.stringify(body),
  });
  return m.route.action({ request, params: { kind }, context: {} } as never) as Promise<Response>;
}

async function hits(kind: string, body: unknown, who: keyof typeof tokens) {
  const response = await post(kind, body, tokens[who]);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()).hits as Record<string, any>[];
}

describe("POST /api/search/product", () => {
  it("finds products by word prefixes, accents and case aside, with the hit fields of spec section 3", async () => {
    const found = await hits("product", { query: "ACME hdmi cab", size: 5 }, "operator");
    expect(found.length).toBeGreaterThan(0);
    for (const hit of found) expect(hit.title).toMatch(/^Acme HDMI Cable/);
    expect(Object.keys(found[0]!).sort()).toEqual(["availability", "brand", "categories", "id", "image_link", "link", "metrics", "party", "price", "rating", "reviews", "stroke_price", "title"]);
    expect(found[0]).toMatchObject({ rating: null, reviews: null, metrics: { displays: expect.any(Number), cost: expect.any(Number) } });
    expect((await hits("product", { query: "lumiere" }, "operator")).every((h) => h.brand === "Lumière")).toBe(true);
  });

  it("gives each product's statistics over the demand days, a supplier's teams' only", async () => {
    const forOperator = await hits("product", { includeIds: ["SKU-000002"], fields: ["metrics"] }, "operator");
    expect(forOperator).toEqual([{ id: "SKU-000002", metrics: { displays: 47, views: 16, clicks: 4, cost: 1_000_000, quantity: 0, sales: 0 } }]);
    const forSupplier = await hits("product", { includeIds: ["SKU-000002"], fields: ["metrics"] }, "supplier");
    expect(forSupplier[0]!.metrics).toMatchObject({ displays: 40, clicks: 3, cost: 900_000 });
  });

  it("shows a supplier only its team's brands, whatever it asks for", async () => {
    const coffee = await hits("product", { query: "coffee", size: 50 }, "supplier");
    expect(coffee.length).toBeGreaterThan(0);
    expect(coffee.every((h) => h.brand === "Acme")).toBe(true);
    const others = await hits("product", { includeIds: ["SKU-000001", "SKU-000002", "SKU-000004"] }, "supplier");
    expect(others.map((h) => h.id)).toEqual(["SKU-000002"]);
    // Its own team by id; another team's brands are not its to see.
    expect((await hits("product", { query: "coffee", team: "acme-brand", size: 3 }, "supplier")).every((h) => h.brand === "Acme")).toBe(true);
    expect(await hits("product", { query: "espresso", team: "casa-seller" }, "supplier")).toEqual([]);
    // A retailer sees every brand.
    expect(new Set((await hits("product", { query: "coffee", size: 100 }, "retailer")).map((h) => h.brand)).size).toBeGreaterThan(3);
  });

  it("shows a marketplace seller the products the catalog attributes to its seller id", async () => {
    expect((await hits("product", { query: "casa espresso" }, "seller")).map((h) => h.id)).toEqual(["SKU-MP1"]);
    expect((await hits("product", { query: "casa espresso" }, "retailer")).map((h) => h.id).sort()).toEqual(["SKU-MP1", "SKU-MP2"]);
  });

  it("follows the catalog: a product upserted is found by the next search", async () => {
    expect(await hits("product", { query: "zanzibar" }, "operator")).toEqual([]);
    await storage().catalog.upsertMany([makeProductInput({ id: "SKU-NEW1", title: "Zanzibar Vanilla Pods", brand: "Acme" })]);
    expect((await hits("product", { query: "zanzi" }, "supplier")).map((h) => h.id)).toEqual(["SKU-NEW1"]);
  });

  it("caps an oversized size", async () => {
    expect(await hits("product", { size: 5_000 }, "operator")).toHaveLength(100);
    expect(await hits("product", {}, "operator")).toHaveLength(20);
  });
});

describe("POST /api/search/keyword and /category", () => {
  it("gives a keyword's demand, floor price and bids suggested from its observed CPC", async () => {
    await setConfig({ floorPrices: { keywords: [{ keyword: "coffee", label: "Coffee", cents: 40 }], categories: [] } });
    const [coffee] = await hits("keyword", { includeIds: ["Coffee"] }, "retailer");
    expect(coffee).toEqual({
      id: "coffee",
      name: "coffee",
      level: null,
      hierarchies: [],
      volume: 250,
      trend: 0.5,
      url: "https://shop.example.com/search?q=coffee",
      page_type: "search",
      floor_price: 40,
      hits: 15,
      lower_bid: 40,
      suggested_bid: 50,
      upper_bid: 63,
    });
  });

  it("suggests bids from the floor where no event exists, and lists keywords by prefix, the most searched first", async () => {
    const found = await hits("keyword", { query: "co" }, "supplier");
    expect(found[0]!.id).toBe("coffee");
    const [tea] = await hits("keyword", { query: "tea", size: 1 }, "supplier");
    expect(tea).toMatchObject({ id: "tea", volume: 0, trend: null, hits: 0, floor_price: 15, lower_bid: 15, suggested_bid: 18, upper_bid: 23 });
  });

  it("gives a category's level, hierarchy, page and inherited floor price", async () => {
    await setConfig({ floorPrices: { keywords: [], categories: [{ id: "grocery", path: "Grocery", cents: 25 }] } });
    const found = await hits("category", { query: "coffee" }, "retailer");
    const coffee = found.find((h) => h.id === "grocery--coffee-tea--coffee")!;
    expect(coffee).toMatchObject({
      name: "Coffee",
      level: 3,
      hierarchies: ["Grocery", "Coffee & tea", "Coffee"],
      url: "https://shop.example.com/c/grocery/coffee-tea/coffee",
      page_type: "plp",
      volume: 80,
      hits: 2,
      floor_price: 25,
    });
    expect(found[0]!.id).toBe("grocery--coffee-tea--coffee");
    const [grocery] = await hits("category", { includeIds: ["grocery"] }, "retailer");
    expect(grocery).toMatchObject({ level: 1, page_type: "hub", floor_price: 25, hierarchies: ["Grocery"] });
    // Product categories: demand on product pages.
    const [pdp] = await hits("category", { includeIds: ["grocery--coffee-tea--coffee"], page_type: "pdp" }, "retailer");
    expect(pdp).toMatchObject({ page_type: "pdp", volume: 30 });
  });

  it("gives products_per_page, fill_rate and conversion_rate to operators only", async () => {
    const OPERATOR_ONLY = ["products_per_page", "fill_rate", "conversion_rate"];
    const [forOperator] = await hits("keyword", { includeIds: ["coffee"] }, "operator");
    expect(forOperator).toMatchObject({ conversion_rate: 0.0667, fill_rate: expect.any(Number) });
    expect(forOperator!.products_per_page).toBeGreaterThan(0);
    for (const who of ["retailer", "supplier"] as const) {
      const [hit] = await hits("category", { includeIds: ["grocery"], fields: [...OPERATOR_ONLY, "name"] }, who);
      expect(hit).toEqual({ id: "grocery", name: "Grocery" });
    }
    const [category] = await hits("category", { includeIds: ["grocery"], fields: OPERATOR_ONLY }, "operator");
    expect(Object.keys(category!).sort()).toEqual(["conversion_rate", "fill_rate", "id", "products_per_page"]);
    expect(category!.products_per_page).toBeGreaterThan(100);
  });

  it("leaves the suggested bids out when the retailer has them off, and the floor price null when floors are off", async () => {
    await setConfig({ retailerSettings: { ...DEFAULT_RETAILER_SETTINGS, suggestedBids: false, floorPrices: false } });
    const [coffee] = await hits("keyword", { includeIds: ["coffee"] }, "operator");
    expect(coffee).toMatchObject({ floor_price: null, volume: 250 });
    expect(coffee).not.toHaveProperty("suggested_bid");
    expect(coffee).not.toHaveProperty("lower_bid");
  });
});

describe("refusals", () => {
  it("401 without a token, with a malformed, forged or expired one", async () => {
    expect((await post("product", {})).status).toBe(401);
    expect((await post("product", {}, "not.a.jwt")).status).toBe(401);
    const { privateKey } = await generateKeyPair("ES256");
    const [published] = await m.tokens.signingKeys();
    const forged = await new SignJWT({ typ: "operator", teams: null })
      .setProtectedHeader({ alg: "ES256", kid: published!.kid })
      .setIssuer(BASE_URL)
      .setAudience(m.tokens.TOKEN_AUDIENCE)
      .setSubject(operator.id)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(privateKey);
    expect((await post("keyword", {}, forged)).status).toBe(401);
    const expired = await m.tokens.mintIdentityToken(operator, new Date(Date.now() - 10 * 60_000));
    const response = await post("category", {}, expired);
    expect(response.status).toBe(401);
    expect(response.headers.get("WWW-Authenticate")).toContain("Bearer");
    // A supplier's token widened by hand.
    const [header, payload, signature] = tokens.supplier.split(".");
    const widened = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, "base64url").toString()), typ: "operator", teams: null })).toString("base64url");
    expect((await post("product", {}, `${header}.${widened}.${signature}`)).status).toBe(401);
  });

  it.each<[string, string, unknown, RegExp]>([
    ["product", "a body that is not JSON", undefined, /JSON/],
    ["product", "a list", [], /object/],
    ["product", "a size of 0", { size: 0 }, /size/],
    ["keyword", "an unknown field", { fields: ["volume", "secret"] }, /unknown field secret/],
    ["category", "too many ids", { includeIds: Array.from({ length: 1_001 }, (_, i) => `c-${i}`) }, /1000/],
    ["product", "a query that is not text", { query: ["coffee"] }, /query/],
    ["keyword", "a team", { team: "acme-brand" }, /products only/],
  ])("400 on /%s for %s, with the reason", async (kind, _, body, reason) => {
    const response = await post(kind, body, tokens.operator, body === undefined ? "{oops" : undefined);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatch(reason);
  });

  it.each(["product", "keyword", "category"])("400, not 500, on /%s for a body nested 200,000 levels deep", async (kind) => {
    const deep = "[".repeat(200_000) + "]".repeat(200_000);
    const response = await post(kind, undefined, tokens.operator, `{"query":${deep},"includeIds":${deep}}`);
    expect(response.status).toBe(400);
  });

  it("404 for another kind, 405 for other methods", async () => {
    expect((await post("users", {}, tokens.operator)).status).toBe(404);
    expect((await m.route.loader()).status).toBe(405);
  });
});

describe("the server accepts only the products a supplier may sponsor", () => {
  it("a product of another brand is unknown to the supplier's campaign, and accepted from a retailer", async () => {
    const cookies = {
      supplier: await signIn(app.m, "supplier.admin@example.com", app.demoPassword),
      retailer: await signIn(app.m, "retailer.admin@example.com", app.demoPassword),
    };
    const created = await call(() =>
      m.create.action({
        request: postRequest("/teams/acme-brand/campaigns/new/sponsored-products", { intent: "create-campaign", name: "Scope check", startDay: "2030-01-01", campaignType: "sponsored-products" }, { cookie: cookies.supplier }),
        params: { teamId: "acme-brand", type: "sponsored-products" },
        context: { requestId: "t", clientIp: "127.0.0.1" },
      } as never),
    );
    expect(created.status).toBe(302);
    const id = created.location!.split("/").pop()!;
    const add = async (who: "supplier" | "retailer", ids: string) => {
      const campaign = (await storage().campaigns.getOne(id))!;
      return call(() =>
        m.products.action({
          request: postRequest(`/campaigns/${id}/products`, { intent: "add-products", ids, version: String(campaign.version) }, { cookie: cookies[who] }),
          params: { campaignId: id },
          context: { requestId: "t", clientIp: "127.0.0.1" },
        } as never),
      );
    };
    // SKU-000001 is Nordic Living's, SKU-000002 Acme's.
    const refused = await add("supplier", "SKU-000001");
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.data)).toContain("SKU-000001");
    expect(Object.keys((await storage().campaigns.getOne(id))!.offers)).toEqual([]);
    // With one it may sponsor: that one added, the other reported as not in its catalog.
    const partly = await add("supplier", "SKU-000001 SKU-000002");
    expect(partly.status).toBe(200);
    expect(partly.data.report).toEqual({ added: 1, present: [], unknown: ["SKU-000001"] });
    expect(Object.keys((await storage().campaigns.getOne(id))!.offers)).toEqual(["SKU-000002"]);
    expect((await add("retailer", "SKU-000001")).status).toBe(302);
    expect(Object.keys((await storage().campaigns.getOne(id))!.offers).sort()).toEqual(["SKU-000001", "SKU-000002"]);
  });
});
