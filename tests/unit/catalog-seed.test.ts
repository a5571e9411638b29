import { describe, expect, it, vi } from "vitest";
import { AVAILABILITIES, PARTIES } from "~/domain/availability";
import { demoCatalog, demoProduct, mulberry32, seedDemoCatalog } from "~/services/catalog-seed.server";
import type { Storage } from "~/storage/port";

const share = <T>(items: readonly T[], test: (item: T) => boolean) => items.filter(test).length / items.length;

describe("demoCatalog", () => {
  const catalog = demoCatalog();

  it("is the same on every call, without Math.random, and each product depends on its index only", () => {
    const random = vi.spyOn(Math, "random");
    try {
      expect(demoCatalog()).toEqual(catalog);
      expect(random).not.toHaveBeenCalled();
    } finally {
      random.mockRestore();
    }
    expect(demoCatalog(100)).toEqual(catalog.slice(0, 100));
    expect(demoProduct(1234)).toEqual(catalog[1234]);
    expect(demoCatalog(0)).toEqual([]);
    // Pinned, so that a change to the generator is a visible decision (demo data, e2e tests).
    expect(catalog[0]).toEqual({
      id: "SKU-000001",
      title: "Nordic Living Multi-Surface Cleaner Lemon 1 l",
      image_link: "/images/products/SKU-000001.svg",
      link: "https://shop.example.com/p/SKU-000001",
      availability: "in stock",
      party: "1P",
      brand: "Nordic Living",
      price: 499,
      stroke_price: null,
      categories: ["Home > Cleaning"],
    });
    expect(catalog.slice(1, 4).map((p) => p.title)).toEqual([
      "Acme HDMI Cable Braided 2 m",
      "CleanCo Kitchen Towels Recycled 8 rolls",
      "Soundwave HDMI Cable High Speed 2 m",
    ]);
  });

  it("has 3000 products with ids SKU-000001 onwards, unique ids and titles, every field well formed", () => {
    expect(catalog).toHaveLength(3000);
    expect(catalog[0]!.id).toBe("SKU-000001");
    expect(catalog[122]!.id).toBe("SKU-000123");
    expect(catalog[2999]!.id).toBe("SKU-003000");
    expect(new Set(catalog.map((p) => p.id)).size).toBe(3000);
    expect(new Set(catalog.map((p) => p.title)).size).toBe(3000);
    // One assertion over every product (3000 x 10 expect() calls take seconds).
    const problems: string[] = [];
    const check = (ok: boolean, what: string, p: (typeof catalog)[number]) => void (ok || problems.push(`${p.id}: ${what}`));
    for (const p of catalog) {
      check(/^SKU-\d{6}$/.test(p.id), "id", p);
      check(p.title.startsWith(`${p.brand} `), "title starts with the brand", p);
      check(p.link === `https://shop.example.com/p/${p.id}`, "link", p);
      check(p.image_link === `/images/products/${p.id}.svg`, "image_link", p);
      check(Number.isInteger(p.price) && p.price > 0 && [99, 49, 29, 79].includes(p.price % 100), "price", p);
      check(p.stroke_price === null || (Number.isInteger(p.stroke_price) && p.stroke_price > p.price), "stroke price", p);
      check((AVAILABILITIES as readonly string[]).includes(p.availability), "availability", p);
      check((PARTIES as readonly string[]).includes(p.party), "party", p);
      check(
        p.availability === "missing category"
          ? p.categories.length === 0
          : p.categories.length === 1 && /^(Grocery|Beauty|Home|Electronics)( > [A-Z][^>]*[a-z0-9])+$/.test(p.categories[0]!),
        "categories",
        p,
      );
    }
    expect(problems).toEqual([]);
  });

  it("looks like a retailer's catalog: mostly in stock and 1P, some stroke prices, four departments, Acme products", () => {
    expect(share(catalog, (p) => p.availability === "in stock")).toBeGreaterThan(0.7);
    expect(share(catalog, (p) => p.availability === "out of stock")).toBeGreaterThan(0.03);
    for (const availability of AVAILABILITIES) expect(catalog.some((p) => p.availability === availability)).toBe(true);
    expect(share(catalog, (p) => p.party === "1P")).toBeGreaterThan(0.6);
    expect(share(catalog, (p) => p.party === "3P")).toBeGreaterThan(0.1);
    expect(share(catalog, (p) => p.party === "1P_3P")).toBeGreaterThan(0.03);
    const strokes = share(catalog, (p) => p.stroke_price !== null);
    expect(strokes).toBeGreaterThan(0.08);
    expect(strokes).toBeLessThan(0.25);
    for (const department of ["Grocery", "Beauty", "Home", "Electronics"]) {
      expect(share(catalog, (p) => p.categories[0]?.startsWith(`${department} > `) ?? false)).toBeGreaterThan(0.15);
    }
    expect(catalog.some((p) => p.categories[0] === "Beauty > Hair care")).toBe(true);
    const acme = catalog.filter((p) => p.brand === "Acme");
    expect(acme.length).toBeGreaterThan(200);
    // Acme (the demo brand team) sells first-party: it never mixes 1P with 3P.
    expect(acme.every((p) => p.party !== "3P")).toBe(true);
    // Prices go from a euro or two to TVs.
    expect(Math.min(...catalog.map((p) => p.price))).toBeLessThan(300);
    expect(Math.max(...catalog.map((p) => p.price))).toBeGreaterThan(50_000);
  });

  it("continues past one pass of every product combination with distinct titles", () => {
    const many = demoCatalog(6000);
    expect(new Set(many.map((p) => p.title)).size).toBe(6000);
  });
});

describe("mulberry32", () => {
  it("repeats for a seed and differs between seeds, in [0, 1)", () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const c = mulberry32(43);
    const first = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(first);
    expect(Array.from({ length: 5 }, () => c())).not.toEqual(first);
    const values = Array.from({ length: 1000 }, mulberry32(7));
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
  });
});

describe("seedDemoCatalog", () => {
  function fakeStorage(existing: number) {
    const upserted: number[] = [];
    const storage = {
      catalog: {
        count: async () => existing,
        upsertMany: async (products: readonly unknown[]) => {
          upserted.push(products.length);
          return products.length;
        },
      },
    } as unknown as Storage;
    return { storage, upserted };
  }

  it("fills an empty catalog and leaves one with products alone", async () => {
    const empty = fakeStorage(0);
    expect(await seedDemoCatalog(empty.storage)).toBe(3000);
    expect(empty.upserted).toEqual([3000]);
    const filled = fakeStorage(12);
    expect(await seedDemoCatalog(filled.storage)).toBe(0);
    expect(filled.upserted).toEqual([]);
  });
});
