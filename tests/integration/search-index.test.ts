/**
 * The embedded search index (app/search/fts-index.server.ts, ADR 20) on SQLite FTS5, in memory:
 * full-text product search that ignores accents and case, matches word prefixes and ranks by
 * relevance; a supplier's scope; ids to look among; categories and keywords ranked by demand,
 * with their products and sponsored products counted.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productData, type Product } from "~/domain/catalog";
import { NO_DEMAND } from "~/domain/demand";
import { queryWords } from "~/domain/search";
import { CANDIDATES, SearchIndex } from "~/search/fts-index.server";
import { makeProductInput } from "../factories";

function product(input: Parameters<typeof makeProductInput>[0]): Product {
  const { id, ...rest } = makeProductInput(input);
  return { ...productData(id, rest), id, version: 1 };
}

const CATALOG: Product[] = [
  product({ id: "SKU-001", title: "Acme Ground Coffee Classic 250 g", brand: "Acme", categories: ["Grocery > Coffee & tea > Coffee"] }),
  product({ id: "SKU-002", title: "Nordic Harvest Coffee Beans Colombia 1 kg", brand: "Nordic Harvest", categories: ["Grocery > Coffee & tea > Coffee"], availability: "out of stock" }),
  product({ id: "SKU-003", title: "Lumière Crème Hydratante 50 ml", brand: "Lumière", categories: ["Beauty > Skin care"] }),
  product({ id: "SKU-004", title: "Acme Green Tea Jasmine 20 bags", brand: "Acme", categories: ["Grocery > Coffee & tea > Tea"] }),
  // Only its category says coffee.
  product({ id: "SKU-005", title: "Kaffeehaus Filter Papers", brand: "Kaffeehaus", categories: ["Grocery > Coffee & tea > Coffee"] }),
  product({ id: "SKU-006", title: "Marketplace Coffee Mug", brand: "Casa Bella", party: "3P", seller_id: "seller-7", categories: ["Home > Kitchen"] }),
  product({ id: "SKU-007", title: "Acme Coffee Beans Decaf 500 g", brand: "Acme", categories: ["Grocery > Coffee & tea > Coffee"], availability: "preorder" }),
];

let index: SearchIndex;
const ids = (words: string, options: Partial<Parameters<SearchIndex["searchProducts"]>[0]> = {}) =>
  index.searchProducts({ words: queryWords(words), scope: null, limit: 20, ...options }).map((h) => h.id);

beforeAll(() => {
  index = new SearchIndex(":memory:");
  index.upsertProducts(CATALOG);
});
afterAll(() => index.close());

describe("products", () => {
  it("finds words by their prefix, in any order, whatever the accents and case", () => {
    expect(ids("creme")).toEqual(["SKU-003"]);
    expect(ids("CRÈME hydr")).toEqual(["SKU-003"]);
    expect(ids("lumiere")).toEqual(["SKU-003"]);
    expect(ids("jasm gre")).toEqual(["SKU-004"]);
    expect(ids("sku-00")).toHaveLength(CATALOG.length);
    expect(ids("SKU-006")).toEqual(["SKU-006"]);
    expect(ids("offee")).toEqual([]);
    // Words may come from the title and the categories alike.
    expect(ids("coffee tea jasmine")).toEqual(["SKU-004"]);
    expect(ids("coffee jasmine mint")).toEqual([]);
  });

  it("ranks words in the title first, then the better availability; a category match last", () => {
    const coffee = ids("coffee");
    expect(coffee).toHaveLength(6);
    // Only their categories say coffee: last.
    expect(coffee.slice(4).sort()).toEqual(["SKU-004", "SKU-005"]);
    expect(ids("coffee beans")).toEqual(["SKU-007", "SKU-002"]);
    expect(ids("acme coffee").slice(0, 2).sort()).toEqual(["SKU-001", "SKU-007"]);
  });

  it("lists by availability and title without words; among ids in their order", () => {
    const all = ids("");
    expect(all).toHaveLength(CATALOG.length);
    expect(all.indexOf("SKU-002")).toBeGreaterThan(all.indexOf("SKU-001"));
    expect(ids("", { includeIds: ["SKU-004", "NOPE", "SKU-001"] })).toEqual(["SKU-004", "SKU-001"]);
    expect(ids("coffee", { includeIds: ["SKU-005", "SKU-003", "SKU-001"] })).toEqual(["SKU-001", "SKU-005"]);
    expect(ids("coffee", { includeIds: [] })).toEqual([]);
    expect(ids("", { limit: 2 })).toHaveLength(2);
  });

  it("keeps a supplier to its brands and seller id", () => {
    const acme = { brands: ["acme"], sellerIds: [] };
    expect(ids("coffee beans", { scope: acme })).toEqual(["SKU-007"]);
    expect(ids("coffee", { scope: acme }).sort()).toEqual(["SKU-001", "SKU-004", "SKU-007"]);
    expect(ids("", { scope: acme }).sort()).toEqual(["SKU-001", "SKU-004", "SKU-007"]);
    expect(ids("coffee", { scope: acme, includeIds: ["SKU-001", "SKU-002"] })).toEqual(["SKU-001"]);
    expect(ids("mug", { scope: { brands: [], sellerIds: ["seller-7"] } })).toEqual(["SKU-006"]);
    expect(ids("mug", { scope: acme })).toEqual([]);
    expect(ids("coffee", { scope: { brands: [], sellerIds: [] } })).toEqual([]);
    expect(ids("", { scope: { brands: [], sellerIds: [] } })).toEqual([]);
  });

  it("carries each product's hit, replaced when the product changes", () => {
    const [hit] = index.searchProducts({ words: ["jasmine"], scope: null, limit: 1 });
    expect(hit).toEqual({
      id: "SKU-004",
      title: "Acme Green Tea Jasmine 20 bags",
      image_link: "/images/products/SKU-004.svg",
      availability: "in stock",
      link: "https://shop.example.com/p/SKU-004",
      price: 499,
      stroke_price: null,
      party: "1P",
      brand: "Acme",
      categories: ["Grocery > Coffee & tea > Tea"],
      rating: null,
      reviews: null,
    });
    index.upsertProducts([{ ...CATALOG[3]!, title: "Acme Green Tea Mint 20 bags" }]);
    expect(ids("jasmine")).toEqual([]);
    expect(ids("mint")).toEqual(["SKU-004"]);
    index.upsertProducts([CATALOG[3]!]);
    expect(index.productCount()).toBe(CATALOG.length);
  });

  it(`ranks at most ${CANDIDATES} matches of a very broad query, and still answers`, () => {
    const broad = new SearchIndex(":memory:");
    try {
      const count = CANDIDATES + 500;
      // The last three also say "zq": past the first CANDIDATES matches of "bulk".
      broad.upsertProducts(Array.from({ length: count }, (_, i) => product({ id: `SKU-B${i}`, title: `Bulk item ${i >= count - 3 ? "zq " : ""}${i}` })));
      expect(broad.searchProducts({ words: ["b"], scope: null, limit: 10 })).toHaveLength(10);
      expect(broad.searchProducts({ words: ["item", `${CANDIDATES + 400}`], scope: null, limit: 10 }).map((h) => h.id)).toEqual([`SKU-B${CANDIDATES + 400}`]);
      // A short word beside a broad one: none of its matches is missed.
      expect(broad.searchProducts({ words: queryWords("bulk zq"), scope: null, limit: 10 }).map((h) => h.id).sort()).toEqual([`SKU-B${count - 3}`, `SKU-B${count - 2}`, `SKU-B${count - 1}`]);
      expect(broad.searchProducts({ words: queryWords("bulk it"), scope: null, limit: 10 })).toHaveLength(10);
    } finally {
      broad.close();
    }
  });
});

describe("categories", () => {
  it("has every level of every path, found by name or path prefix, and counts their products", () => {
    const all = index.allCategories().map((c) => c.id);
    expect(all).toEqual(["beauty", "beauty--skin-care", "grocery", "grocery--coffee-tea", "grocery--coffee-tea--coffee", "grocery--coffee-tea--tea", "home", "home--kitchen"]);
    const found = index.searchCategories({ words: queryWords("coff"), limit: 10, demand: "category" });
    // Named so first (the shorter name first), then only their path.
    expect(found.map((c) => c.id)).toEqual(["grocery--coffee-tea--coffee", "grocery--coffee-tea", "grocery--coffee-tea--tea"]);
    expect(index.searchCategories({ words: queryWords("grocery tea"), limit: 10, demand: "category" }).map((c) => c.id)).toContain("grocery--coffee-tea--tea");
    expect(index.categoryProducts(["grocery", "grocery--coffee-tea--coffee", "nope"])).toEqual(
      new Map([
        ["grocery", { products: 5, sponsored: 0 }],
        ["grocery--coffee-tea--coffee", { products: 4, sponsored: 0 }],
        ["nope", { products: 0, sponsored: 0 }],
      ]),
    );
  });

  it("ranks by demand, an exact name first; counts the sponsored products", () => {
    index.replaceDemand("category", new Map([["grocery--coffee-tea--tea", { ...NO_DEMAND, displays: 900 }], ["grocery--coffee-tea--coffee", { ...NO_DEMAND, displays: 100 }]]));
    expect(index.searchCategories({ words: [], limit: 2, demand: "category" }).map((c) => [c.id, c.demand?.displays])).toEqual([
      ["grocery--coffee-tea--tea", 900],
      ["grocery--coffee-tea--coffee", 100],
    ]);
    expect(index.searchCategories({ words: queryWords("tea"), limit: 3, demand: "category" })[0]!.id).toBe("grocery--coffee-tea--tea");
    expect(index.searchCategories({ words: queryWords("coffee"), limit: 3, demand: "category" })[0]!.id).toBe("grocery--coffee-tea--coffee");
    // Another kind of demand ranks otherwise.
    expect(index.searchCategories({ words: [], limit: 1, demand: "productCategory" })[0]!.demand).toBeNull();
    index.replaceSponsored(["SKU-001", "SKU-002", "SKU-999"]);
    expect(index.categoryProducts(["grocery--coffee-tea--coffee"]).get("grocery--coffee-tea--coffee")).toEqual({ products: 4, sponsored: 2 });
    index.replaceSponsored([]);
  });
});

describe("keywords", () => {
  it("finds keywords by prefix, the most searched first, an exact one first of all, and counts the products each finds", () => {
    index.replaceKeywords([
      { key: "coffee", name: "coffee" },
      { key: "coffee beans", name: "coffee beans" },
      { key: "cafe", name: "café" },
      { key: "tea", name: "tea" },
    ]);
    index.replaceDemand("keyword", new Map([["coffee beans", { ...NO_DEMAND, displays: 500 }], ["coffee", { ...NO_DEMAND, displays: 300 }]]));
    expect(index.searchKeywords({ words: queryWords("cof"), limit: 5, demand: "keyword" }).map((k) => k.key)).toEqual(["coffee beans", "coffee"]);
    expect(index.searchKeywords({ words: queryWords("coffee"), limit: 5, demand: "keyword" }).map((k) => k.key)).toEqual(["coffee", "coffee beans"]);
    expect(index.searchKeywords({ words: queryWords("CAFÉ"), limit: 5, demand: "keyword" })).toEqual([{ key: "cafe", name: "café", demand: null }]);
    expect(index.searchKeywords({ words: [], includeIds: ["tea", "nope"], limit: 5, demand: "keyword" }).map((k) => k.key)).toEqual(["tea"]);
    expect(index.keywordProducts(["coffee", "coffee beans", "tea"])).toEqual(
      new Map([
        ["coffee", { products: 6, sponsored: 0 }],
        ["coffee beans", { products: 2, sponsored: 0 }],
        ["tea", { products: 5, sponsored: 0 }],
      ]),
    );
    expect(index.brands().sort()).toEqual(["Acme", "Casa Bella", "Kaffeehaus", "Lumière", "Nordic Harvest"]);
  });
});

describe("the index file", () => {
  it("is kept across restarts, and dropped when written by another version of the index", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ads-search-index-"));
    const file = path.join(dir, "search-index.db");
    try {
      const first = new SearchIndex(file);
      first.upsertProducts(CATALOG.slice(0, 2));
      first.setMeta("catalogId", "c-1");
      first.close();
      const again = new SearchIndex(file);
      expect([again.productCount(), again.getMeta("catalogId")]).toEqual([2, "c-1"]);
      again.setMeta("schema", "0");
      again.close();
      const rebuilt = new SearchIndex(file);
      // Nothing left: the next sync rebuilds it from the catalog.
      expect([rebuilt.productCount(), rebuilt.getMeta("catalogId")]).toEqual([0, null]);
      rebuilt.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
