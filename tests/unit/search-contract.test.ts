/**
 * The /search contract (spec section 7, app/domain/search-contract.ts): requests read strictly
 * with a reason for each refusal, an oversized size capped, the fields each caller's hits carry
 * (operators' own fields, suggested bids only when on), and a service's answer read strictly.
 */
import { describe, expect, it } from "vitest";
import {
  DEFAULT_SEARCH_SIZE,
  hitFields,
  MAX_SEARCH_SIZE,
  parseSearchRequest,
  parseSearchResponse,
  pickFields,
  productHitOf,
  searchRequestToWire,
  TARGET_FIELDS,
} from "~/domain/search-contract";

describe("parseSearchRequest", () => {
  it("takes an empty body: the default size, nothing else", () => {
    expect(parseSearchRequest("product", {})).toEqual({ ok: true, value: { size: DEFAULT_SEARCH_SIZE } });
  });

  it("reads query, includeIds (without repeats), size, fields, team and page_type", () => {
    expect(parseSearchRequest("product", { query: "cof", includeIds: ["SKU-1", "SKU-2", "SKU-1"], size: 5, fields: ["id", "title", "price"], team: "acme-brand" })).toEqual({
      ok: true,
      value: { query: "cof", includeIds: ["SKU-1", "SKU-2"], size: 5, fields: ["title", "price"], team: "acme-brand" },
    });
    expect(parseSearchRequest("category", { page_type: "pdp", fields: ["name", "floor_price"] })).toMatchObject({ ok: true, value: { page_type: "pdp" } });
  });

  it("caps an oversized size", () => {
    expect(parseSearchRequest("keyword", { size: 5_000 })).toMatchObject({ ok: true, value: { size: MAX_SEARCH_SIZE } });
  });

  it.each<[string, unknown, RegExp]>([
    ["not an object", [], /object/],
    ["a query that is not text", { query: 12 }, /query/],
    ["a query too long", { query: "x".repeat(201) }, /200/],
    ["ids that are not strings", { includeIds: [1, 2] }, /includeIds/],
    ["too many ids", { includeIds: Array.from({ length: 1_001 }, (_, i) => `SKU-${i}`) }, /1000/],
    ["a size of 0", { size: 0 }, /size/],
    ["a size that is not whole", { size: 2.5 }, /size/],
    ["a size as text", { size: "10" }, /size/],
    ["an unknown field", { fields: ["title", "password"] }, /unknown field password/],
    ["fields that are not a list", { fields: "title" }, /fields/],
  ])("refuses %s with a reason", (_, body, reason) => {
    const parsed = parseSearchRequest("product", body);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(reason);
  });

  it("refuses a field of another kind, a team outside products, a page type outside categories", () => {
    expect(parseSearchRequest("product", { fields: ["floor_price"] })).toMatchObject({ ok: false });
    expect(parseSearchRequest("keyword", { fields: ["price"] })).toMatchObject({ ok: false });
    expect(parseSearchRequest("keyword", { team: "t" })).toMatchObject({ ok: false, reason: "team applies to products only" });
    expect(parseSearchRequest("product", { page_type: "plp" })).toMatchObject({ ok: false, reason: "page_type applies to categories only" });
    expect(parseSearchRequest("category", { page_type: "home" })).toMatchObject({ ok: false });
  });
});

describe("the fields of each caller's hits", () => {
  it("all of them for an operator", () => {
    expect([...hitFields("keyword", undefined, "operator", true)].sort()).toEqual([...TARGET_FIELDS].sort());
  });

  it("without products_per_page, fill_rate and conversion_rate for anyone else, even when asked", () => {
    for (const who of ["retailer", "supplier"] as const) {
      const fields = hitFields("category", ["name", "fill_rate", "conversion_rate", "products_per_page", "volume"], who, true);
      expect([...fields].sort()).toEqual(["name", "volume"]);
    }
  });

  it("without the suggested bids when the retailer has them off", () => {
    const fields = hitFields("keyword", undefined, "retailer", false);
    expect(fields.has("suggested_bid")).toBe(false);
    expect(fields.has("lower_bid")).toBe(false);
    expect(fields.has("floor_price")).toBe(true);
  });

  it("picks the fields asked, the id always", () => {
    const hit = productHitOf({ id: "SKU-1", title: "Tea", image_link: "/i.svg", availability: "in stock", link: "https://shop/p", price: 299, stroke_price: null, party: "1P", brand: "Acme", categories: ["Grocery"] });
    expect(pickFields(hit, new Set(["title", "price"]))).toEqual({ id: "SKU-1", title: "Tea", price: 299 });
    expect(hit).toMatchObject({ rating: null, reviews: null });
  });
});

describe("the wire", () => {
  it("sends what was asked", () => {
    expect(searchRequestToWire({ size: 10, query: "tea", includeIds: ["a"], fields: ["name"], page_type: "hub" })).toEqual({ size: 10, query: "tea", includeIds: ["a"], fields: ["name"], page_type: "hub" });
  });

  it("reads hits with an id and well-typed known fields, dropping unknown ones", () => {
    expect(parseSearchResponse("keyword", { hits: [{ id: "tea", name: "tea", volume: 12, trend: null, floor_price: 15, extra: "x" }] })).toEqual({
      hits: [{ id: "tea", name: "tea", volume: 12, trend: null, floor_price: 15 }],
    });
    expect(parseSearchResponse("product", { hits: [] })).toEqual({ hits: [] });
  });

  it("refuses what is not a search answer", () => {
    expect(parseSearchResponse("product", { nonsense: true })).toBeNull();
    expect(parseSearchResponse("product", { hits: [{ title: "no id" }] })).toBeNull();
    expect(parseSearchResponse("product", { hits: [{ id: "SKU-1", price: 2.5 }] })).toBeNull();
    expect(parseSearchResponse("keyword", { hits: [{ id: "tea", volume: -1 }] })).toBeNull();
  });
});
