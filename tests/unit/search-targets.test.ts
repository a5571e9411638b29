/**
 * Keyword and category targets (issue 10 section 1): category ids and pages from the catalog's
 * paths, floor prices (own, inherited, the minimum bid), suggested bids from observed costs or
 * from the floor, the demand figures, and which products a supplier may sponsor.
 */
import { describe, expect, it } from "vitest";
import { inProductScope, productScopeFor, scopeOfTeams } from "~/domain/brand-scope";
import {
  categoryIdOf,
  categoryLineage,
  categoryNodes,
  categoryPageType,
  categoryPath,
  categorySegments,
  categoryUrl,
  keywordKey,
  keywordUrl,
  slug,
} from "~/domain/categories";
import { conversionRate, demandPeriods, fillRate, floorPriceOf, observedCpcCents, suggestBids, trendOf } from "~/domain/demand";
import { DEFAULT_RETAILER_SETTINGS, NO_FLOOR_PRICES, validateFloorPrices, type FloorPrices } from "~/domain/retailer-settings";

describe("categories from the catalog's paths", () => {
  it("splits a path into trimmed segments and ids of slugs", () => {
    expect(categorySegments(" Grocery >Coffee & tea>  Coffee ")).toEqual(["Grocery", "Coffee & tea", "Coffee"]);
    expect(categorySegments("Beauty > > Skin care")).toEqual(["Beauty", "Skin care"]);
    expect(categorySegments("")).toEqual([]);
    expect(slug("Coffee & tea")).toBe("coffee-tea");
    expect(slug("Crème Brûlée!")).toBe("creme-brulee");
    expect(categoryIdOf(["Grocery", "Coffee & tea", "Coffee"])).toBe("grocery--coffee-tea--coffee");
    expect(categoryPath(["Grocery", "Coffee & tea"])).toBe("Grocery > Coffee & tea");
  });

  it("makes a category of every level, each knowing its parent", () => {
    expect(categoryNodes("Grocery > Coffee & tea > Coffee")).toEqual([
      { id: "grocery", name: "Grocery", segments: ["Grocery"], level: 1, parentId: null },
      { id: "grocery--coffee-tea", name: "Coffee & tea", segments: ["Grocery", "Coffee & tea"], level: 2, parentId: "grocery" },
      { id: "grocery--coffee-tea--coffee", name: "Coffee", segments: ["Grocery", "Coffee & tea", "Coffee"], level: 3, parentId: "grocery--coffee-tea" },
    ]);
    // Case and accents do not make another category.
    expect(categoryNodes("GROCERY > coffee & TÉA")[1]!.id).toBe("grocery--coffee-tea");
    expect(categoryLineage("grocery--coffee-tea--coffee")).toEqual(["grocery--coffee-tea--coffee", "grocery--coffee-tea", "grocery"]);
  });

  it("names the shop's pages and their types", () => {
    expect(categoryUrl("https://shop.example.com/", "grocery--coffee-tea")).toBe("https://shop.example.com/c/grocery/coffee-tea");
    expect(keywordUrl("https://shop.example.com", "café crème")).toBe("https://shop.example.com/search?q=caf%C3%A9%20cr%C3%A8me");
    expect([categoryPageType(1), categoryPageType(2), categoryPageType(3, "pdp"), categoryPageType(1, "plp")]).toEqual(["hub", "plp", "pdp", "hub"]);
    expect(keywordKey("  Café   CRÈME ")).toBe("cafe creme");
  });
});

describe("floor prices", () => {
  const settings = DEFAULT_RETAILER_SETTINGS;
  const floors: FloorPrices = {
    keywords: [{ keyword: "coffee", label: "Coffee", cents: 40 }],
    categories: [
      { id: "grocery", path: "Grocery", cents: 25 },
      { id: "grocery--coffee-tea--coffee", path: "Grocery > Coffee & tea > Coffee", cents: 55 },
    ],
  };

  it("a target's own, else its nearest parent category's, else the CPC minimum bid", () => {
    expect(floorPriceOf({ kind: "keyword", key: "coffee" }, floors, settings)).toBe(40);
    expect(floorPriceOf({ kind: "keyword", key: "tea" }, floors, settings)).toBe(15);
    expect(floorPriceOf({ kind: "category", id: "grocery--coffee-tea--coffee" }, floors, settings)).toBe(55);
    expect(floorPriceOf({ kind: "category", id: "grocery--coffee-tea" }, floors, settings)).toBe(25);
    expect(floorPriceOf({ kind: "category", id: "beauty--hair-care" }, floors, settings)).toBe(15);
    expect(floorPriceOf({ kind: "category", id: "beauty" }, NO_FLOOR_PRICES, settings)).toBe(15);
  });

  it("none when the retailer has floor prices off", () => {
    expect(floorPriceOf({ kind: "keyword", key: "coffee" }, floors, { ...settings, floorPrices: false })).toBeNull();
  });

  it("refuses blank keywords, missing or out-of-range prices, the same keyword twice, too many", () => {
    expect(validateFloorPrices(floors)).toBeNull();
    expect(validateFloorPrices({ ...floors, keywords: [{ keyword: "", label: "", cents: 40 }] })).toBe("floor.keywordRequired");
    expect(validateFloorPrices({ ...floors, keywords: [{ keyword: "tea", label: "tea", cents: 0 }] })).toBe("amount.tooLow");
    expect(validateFloorPrices({ ...floors, keywords: [{ keyword: "tea", label: "tea", cents: 100_001 }] })).toBe("amount.tooHigh");
    expect(validateFloorPrices({ ...floors, categories: [floors.categories[0]!, floors.categories[0]!] })).toBe("floor.duplicate");
    expect(validateFloorPrices({ ...floors, keywords: Array.from({ length: 501 }, (_, i) => ({ keyword: `k${i}`, label: `k${i}`, cents: 20 })) })).toBe("floor.tooMany");
  });
});

describe("suggested bids", () => {
  const limits = { minCents: 15, maxCents: 2_000 };

  it("around the CPC observed where events exist, never under the floor", () => {
    expect(suggestBids({ floorCents: 20, observedCpcCents: 50, limits })).toEqual({ lower_bid: 40, suggested_bid: 50, upper_bid: 63 });
    // A CPC under the floor: everything at least the floor.
    expect(suggestBids({ floorCents: 60, observedCpcCents: 50, limits })).toEqual({ lower_bid: 60, suggested_bid: 60, upper_bid: 63 });
  });

  it("from the floor without events: the floor, 20 % and 50 % above", () => {
    expect(suggestBids({ floorCents: 40, observedCpcCents: null, limits })).toEqual({ lower_bid: 40, suggested_bid: 48, upper_bid: 60 });
    // Floor prices off: from the minimum bid.
    expect(suggestBids({ floorCents: null, observedCpcCents: null, limits })).toEqual({ lower_bid: 15, suggested_bid: 18, upper_bid: 23 });
  });

  it("within the bid limits, in whole cents, in order", () => {
    expect(suggestBids({ floorCents: 20, observedCpcCents: 1_900, limits })).toEqual({ lower_bid: 1_520, suggested_bid: 1_900, upper_bid: 2_000 });
    const odd = suggestBids({ floorCents: 15, observedCpcCents: 33.3333, limits });
    for (const v of Object.values(odd)) expect(Number.isInteger(v)).toBe(true);
    expect(odd.lower_bid).toBeLessThanOrEqual(odd.suggested_bid);
    expect(odd.suggested_bid).toBeLessThanOrEqual(odd.upper_bid);
  });
});

describe("demand figures", () => {
  it("reads 28 days ending yesterday, and a week against the week before", () => {
    expect(demandPeriods("2026-11-25")).toEqual({
      volume: { from: "2026-10-28", to: "2026-11-24" },
      recent: { from: "2026-11-18", to: "2026-11-24" },
      previous: { from: "2026-11-11", to: "2026-11-17" },
    });
  });

  it("trend, observed CPC, conversion and fill rates; null where they cannot be told", () => {
    expect(trendOf({ recent: 125, previous: 100 })).toBe(0.25);
    expect(trendOf({ recent: 80, previous: 0 })).toBeNull();
    expect(observedCpcCents({ clicks: 4, costMicros: 2_000_000 })).toBe(50);
    expect(observedCpcCents({ clicks: 0, costMicros: 0 })).toBeNull();
    expect(conversionRate({ clicks: 30, quantity: 2 })).toBe(0.0667);
    expect(conversionRate({ clicks: 0, quantity: 0 })).toBeNull();
    expect(fillRate(3, 12)).toBe(0.25);
    expect(fillRate(0, 0)).toBeNull();
  });
});

describe("which products an advertiser may sponsor", () => {
  const acme = { associated_brands: ["Acme", " Café Noir "], marketplace_seller_id: "" };
  const seller = { associated_brands: [], marketplace_seller_id: "seller-9" };

  it("a supplier: its teams' brands (case and accents aside) and its seller id's products", () => {
    const scope = productScopeFor("supplier", [acme, seller]);
    expect(scope).toEqual({ brands: ["acme", "cafe noir"], sellerIds: ["seller-9"] });
    expect(inProductScope({ brand: "ACME" }, scope)).toBe(true);
    expect(inProductScope({ brand: "Café noir" }, scope)).toBe(true);
    expect(inProductScope({ brand: "Nordic Harvest" }, scope)).toBe(false);
    expect(inProductScope({ brand: "Nordic Harvest", seller_id: "seller-9" }, scope)).toBe(true);
    expect(inProductScope({ brand: "Nordic Harvest", seller_id: "seller-1" }, scope)).toBe(false);
  });

  it("a supplier without brands sponsors nothing; a retailer or an operator anything", () => {
    expect(inProductScope({ brand: "Acme" }, scopeOfTeams([]))).toBe(false);
    expect(productScopeFor("retailer", [])).toBeNull();
    expect(productScopeFor("operator", [acme])).toBeNull();
    expect(inProductScope({ brand: "Anything" }, null)).toBe(true);
  });
});
