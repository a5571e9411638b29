/**
 * The console's one search client (fetchSearch): pointed at a retailer's own service
 * (SEARCH_API_URL, here the MSW stand-in of mocks/search.ts) it sends the contract's request with
 * the user's identity token, reads the hits back strictly, and turns every failure (an error
 * status, nonsense, a network failure) into the screen's failure title; without the URL it
 * answers in process from the built-in index.
 */
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { User } from "~/domain/types";
import { SEARCH_API_URL, searchHandler, type SearchUpstream } from "../../mocks/search";
import { startApp, type TestApp } from "./app-helpers";

const upstream: SearchUpstream = { calls: [], answer: { status: 500 } };
const server = setupServer(searchHandler(upstream));
let app: TestApp;
let search: typeof import("~/services/search.server");
let tokens: typeof import("~/services/identity-token.server");
let supplier: User;
let operator: User;
const TITLE = "campaignProducts:failure.upsertProduct";

beforeAll(async () => {
  server.listen({ onUnhandledRequest: "bypass" });
  app = await startApp();
  [search, tokens] = await Promise.all([import("~/services/search.server"), import("~/services/identity-token.server")]);
  supplier = await app.createUser({ email: "sup.search.client@example.com", claims: { type: "supplier", role: "ADMIN" }, roleByTeam: { "acme-brand": "ADMIN" } });
  operator = await app.createUser({ email: "op.search.client@example.com", claims: { type: "operator", role: "ADMIN" } });
});

afterAll(async () => {
  delete process.env.SEARCH_API_URL;
  server.close();
  await app?.stop();
});

beforeEach(() => {
  upstream.calls.length = 0;
  process.env.SEARCH_API_URL = SEARCH_API_URL;
});

describe("the search client with SEARCH_API_URL", () => {
  it("asks the retailer's service at <url>/<kind> with the user's token, and reads its hits", async () => {
    upstream.answer = (kind) => ({ hits: kind === "keyword" ? [{ id: "coffee", name: "coffee", volume: 120, trend: 0.1, floor_price: 20, hits: 4, suggested_bid: 30 }] : [] });
    const result = await search.fetchSearch(supplier, "keyword", { query: "cof", size: 5, fields: ["name", "volume"] }, TITLE);
    expect(result).toEqual({ ok: true, value: { hits: [{ id: "coffee", name: "coffee", volume: 120, trend: 0.1, floor_price: 20, hits: 4, suggested_bid: 30 }] } });
    expect(upstream.calls).toHaveLength(1);
    expect(upstream.calls[0]).toMatchObject({ kind: "keyword", wire: { query: "cof", size: 5, fields: ["name", "volume"] } });
    const token = /^Bearer (.+)$/.exec(upstream.calls[0]!.authorization ?? "")?.[1];
    expect(await tokens.verifyIdentityToken(token)).toEqual({ userId: supplier.id, accountType: "supplier", teams: ["acme-brand"] });
  });

  it("sends products' and categories' own fields on the wire", async () => {
    upstream.answer = () => ({ hits: [] });
    await search.fetchSearch(operator, "product", { includeIds: ["SKU-1", "SKU-2"], size: 2, team: "acme-brand" }, TITLE);
    await search.fetchSearch(operator, "category", { page_type: "pdp", size: 10 }, TITLE);
    expect(upstream.calls.map((c) => [c.kind, c.wire])).toEqual([
      ["product", { size: 2, includeIds: ["SKU-1", "SKU-2"], team: "acme-brand" }],
      ["category", { size: 10, page_type: "pdp" }],
    ]);
  });

  it("gives the screen's failure title when the service fails, answers nonsense or cannot be reached", async () => {
    for (const answer of [{ status: 503 }, { status: 401 }, { raw: { nonsense: true } }, { raw: { hits: [{ title: "no id" }] } }, { networkError: true as const }]) {
      upstream.answer = answer;
      expect(await search.fetchSearch(operator, "product", { size: 5 }, TITLE), JSON.stringify(answer)).toEqual({
        ok: false,
        kind: "unavailable",
        reason: TITLE,
        details: ["errors.errorOccurred"],
      });
    }
  });
});

describe("the search client without SEARCH_API_URL", () => {
  it("answers in process from the built-in index, a supplier's brands only, without calling out", async () => {
    delete process.env.SEARCH_API_URL;
    const result = await search.fetchSearch(supplier, "product", { query: "coffee", size: 10 }, TITLE);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.hits.length).toBeGreaterThan(0);
    expect(result.value.hits.every((h) => h.brand === "Acme")).toBe(true);
    expect(upstream.calls).toEqual([]);
  });
});
