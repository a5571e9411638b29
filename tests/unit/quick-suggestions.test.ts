/**
 * The quick builder's suggestion helpers (ADR 32), as the steps show them: the products step's
 * suggestions (best sellers, the team's brands first, at most eight, never 1P and 3P ticked
 * together) and hits, the products already chosen (in the order chosen, those the search does not
 * give the team dropped), the keywords step's suggestions (most searched first, each once, at most
 * twelve, then the products' own words), the categories step's (each level of the products'
 * categories, the deepest first, each once, at most eight). With nothing chosen: nothing suggested.
 *
 * The search client is replaced by a small in-memory catalog that answers as the search contract
 * does (word prefixes of the query, includeIds in any order, size).
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ProductHit, SearchKind, SearchRequest, TargetHit } from "~/domain/search-contract";
import type { Team, User } from "~/domain/types";

vi.mock("~/services/search.server", () => ({ fetchSearch: vi.fn() }));

const { fetchSearch } = await import("~/services/search.server");
const { quickProducts, suggestedCategories, suggestedKeywords } = await import("~/services/campaigns/quick.server");

const user = { id: "u1", claims: { type: "operator", role: "ADMIN" }, teamIds: [] } as unknown as User;
const team = { id: "acme", name: "Acme", associated_brands: ["Acme"], marketplace_seller_id: "" } as unknown as Team;

const sales = (sales: number, clicks = 0) => ({ displays: 0, views: 0, clicks, cost: 0, quantity: 0, sales });

let products: ProductHit[] = [];
let keywords: TargetHit[] = [];
let calls: { kind: SearchKind; request: SearchRequest }[] = [];
let failing = false;

function words(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
}
/** Every word of the query starts a word of the text (the contract's word prefixes). */
function matches(text: string, query: string): boolean {
  const own = words(text);
  return words(query).every((q) => own.some((w) => w.startsWith(q)));
}

beforeEach(() => {
  products = [];
  keywords = [];
  calls = [];
  failing = false;
  vi.mocked(fetchSearch).mockImplementation((async (_user: unknown, kind: SearchKind, request: SearchRequest) => {
    calls.push({ kind, request });
    if (failing) return { ok: false, kind: "unavailable", reason: "quickBuilder:failure.fetch" };
    const pool: { id: string; title?: string; name?: string }[] = kind === "product" ? products : kind === "keyword" ? keywords : [];
    let hits = request.includeIds ? pool.filter((h) => request.includeIds!.includes(h.id)) : pool;
    if (request.query) hits = hits.filter((h) => matches(h.title ?? h.name ?? "", request.query!));
    return { ok: true, value: { hits: hits.slice(0, request.size), total: hits.length } };
  }) as never);
});

const product = (id: string, over: Partial<ProductHit> = {}): ProductHit => ({ id, title: `Product ${id}`, brand: "Acme", party: "1P", availability: "in stock", price: 100, categories: [], ...over });

describe("the products step", () => {
  it("suggests best sellers first (sales, then clicks, then the search's order), the team's brands before others, at most eight", async () => {
    products = [
      product("other-best", { brand: "Zeta", metrics: sales(9_000) }),
      product("a-low", { metrics: sales(100) }),
      product("a-tie-more-clicks", { metrics: sales(500, 9) }),
      product("a-best", { metrics: sales(800) }),
      product("a-tie-fewer-clicks", { metrics: sales(500, 1) }),
      ...Array.from({ length: 10 }, (_, i) => product(`a-none-${i}`)),
    ];
    const found = await quickProducts(user, team, "", []);
    expect(found.ok && found.value.rows.map((r) => r.id)).toEqual(["a-best", "a-tie-more-clicks", "a-tie-fewer-clicks", "a-low", "a-none-0", "a-none-1", "a-none-2", "a-none-3"]);
    // The search is asked for the team (the search service scopes a supplier to its brands).
    expect(calls[0]!.request.team).toBe("acme");
  });

  it("ranks another brand's best seller after the team's own", async () => {
    products = [product("other-best", { brand: "Zeta", metrics: sales(9_000) }), product("a-one", { metrics: sales(1) })];
    const found = await quickProducts(user, team, "", []);
    expect(found.ok && found.value.rows.map((r) => r.id)).toEqual(["a-one", "other-best"]);
  });

  it("never suggests 1P and 3P products together: those that would mix with the best ones are left out", async () => {
    products = [product("p1", { party: "1P", metrics: sales(30) }), product("p3", { party: "3P", metrics: sales(20) }), product("p1b", { party: "1P", metrics: sales(10) }), product("both", { party: "1P_3P", metrics: sales(5) })];
    const found = await quickProducts(user, team, "", []);
    expect(found.ok && found.value.rows.map((r) => r.id)).toEqual(["p1", "p1b", "both"]);
  });

  it("lists what was typed in the search's order, 1P and 3P alike (the user ticks them), without suggesting", async () => {
    products = [product("k1", { title: "Kettle steel", metrics: sales(1) }), product("m1", { title: "Mug" }), product("k3", { title: "Electric kettle", party: "3P", metrics: sales(99) })];
    const found = await quickProducts(user, team, "  kett ", []);
    expect(found.ok && found.value.rows.map((r) => r.id)).toEqual(["k1", "k3"]);
    expect(calls[0]!.request.query).toBe("kett");
  });

  it("gives the chosen products in the order chosen, each once, dropping those the search does not give the team", async () => {
    products = [product("c1", { title: "First" }), product("c2", { title: "Second" })];
    const found = await quickProducts(user, team, "", ["c2", "gone", "c1"]);
    expect(found.ok && found.value.chosen.map((r) => [r.id, r.title])).toEqual([
      ["c2", "Second"],
      ["c1", "First"],
    ]);
  });

  it("reports the search's failure with the builder's title", async () => {
    failing = true;
    expect(await quickProducts(user, team, "", [])).toMatchObject({ ok: false, reason: "quickBuilder:failure.fetch" });
  });
});

describe("the keywords step", () => {
  it("suggests nothing when no product is chosen", async () => {
    products = [product("a", { title: "Coffee beans" })];
    expect(await suggestedKeywords(user, team, [])).toMatchObject({ ok: true, value: [] });
  });

  it("puts the most searched keyword hits first, each once whatever its case, then the products' own words without brand or sizes", async () => {
    products = [product("a", { title: "Acme Coffee Beans 1kg", categories: ["Grocery > Coffee & tea > Coffee"] })];
    keywords = [
      { id: "coffee", name: "coffee", volume: 50 },
      { id: "coffee-maker", name: "coffee maker", volume: 900 },
      { id: "coffee-beans", name: "Coffee Beans", volume: 300 },
    ];
    const found = await suggestedKeywords(user, team, ["a"]);
    expect(found.ok && found.value).toEqual(["coffee maker", "coffee beans", "coffee"]);
  });

  it("adds the products' titles as keywords when the search knows none, and stops at twelve", async () => {
    products = Array.from({ length: 15 }, (_, i) => product(`p${i}`, { title: `Acme Gadget${String.fromCharCode(97 + i)} Deluxe` }));
    const found = await suggestedKeywords(user, team, products.map((p) => p.id));
    expect(found.ok && found.value).toHaveLength(12);
    expect(found.ok && found.value[0]).toBe("gadgeta deluxe");
    expect(found.ok && found.value.every((k) => !k.includes("acme"))).toBe(true);
  });
});

describe("the categories step", () => {
  it("suggests nothing when no product is chosen", async () => {
    expect(await suggestedCategories(user, team, [])).toMatchObject({ ok: true, value: [] });
  });

  it("suggests each level of the chosen products' categories, the deepest first, each once", async () => {
    products = [
      product("a", { categories: ["Grocery > Coffee & tea > Coffee"] }),
      product("b", { categories: ["Grocery > Coffee & tea > Tea"] }),
    ];
    const found = await suggestedCategories(user, team, ["a", "b"]);
    expect(found.ok && found.value).toEqual([
      { id: "grocery--coffee-tea--coffee", name: "Grocery > Coffee & tea > Coffee" },
      { id: "grocery--coffee-tea", name: "Grocery > Coffee & tea" },
      { id: "grocery", name: "Grocery" },
      { id: "grocery--coffee-tea--tea", name: "Grocery > Coffee & tea > Tea" },
    ]);
  });

  it("stops at eight categories", async () => {
    products = Array.from({ length: 5 }, (_, i) => product(`p${i}`, { categories: [`Dept${i} > Aisle${i} > Shelf${i}`] }));
    const found = await suggestedCategories(user, team, products.map((p) => p.id));
    expect(found.ok && found.value).toHaveLength(8);
    expect(found.ok && found.value[0]!.name).toBe("Dept0 > Aisle0 > Shelf0");
  });
});
