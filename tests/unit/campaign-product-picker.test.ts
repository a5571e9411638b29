/**
 * Issue 10 section 2, products: identifiers pasted with the spec's separators, the CSV of SKUs
 * (a named column, lines without a value counted as bad), reordering, the picker's rows and its
 * suggestions, and the import form's schema.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { scopeOfTeams } from "~/domain/brand-scope";
import { parseSkuCsv, skuColumnIndex, SKU_CSV_MAX_BYTES, SKU_CSV_MAX_LINES } from "~/domain/campaigns/product-csv";
import { keyboardTarget, positionsOf, reorder } from "~/domain/campaigns/product-order";
import { pickerRows, suggestProducts } from "~/domain/campaigns/product-picker";
import { offerFromProduct, orderedOffers, setOfferPositions, type Offers } from "~/domain/campaigns/products";
import { parseProductIds } from "~/domain/catalog";
import type { ProductHit } from "~/domain/search-contract";
import { ImportProductsSchema } from "~/forms/campaigns/product-import";

describe("identifiers pasted (spec: space, comma, semicolon or line break)", () => {
  it.each([
    ["spaces", "A B  C"],
    ["commas", "A,B,C"],
    ["semicolons", "A;B;C"],
    ["line breaks", "A\nB\r\nC"],
    ["a mix, with stray separators", " ;A, ;B\n\nC; "],
  ])("splits on %s", (_, text) => {
    expect(parseProductIds(text)).toEqual(["A", "B", "C"]);
  });

  it("keeps other characters inside an identifier and drops duplicates", () => {
    expect(parseProductIds("SKU-1/2 sku_3.4 SKU-1/2")).toEqual(["SKU-1/2", "sku_3.4"]);
  });
});

describe("CSV of SKUs", () => {
  it("reads the named column among others, with line numbers of the lines without a value", () => {
    const csv = parseSkuCsv("name,SKU,price\nCoffee,A-1,4.99\nTea,,3.10\nCocoa,B-2,2.00\n,,\nMilk, C-3 ,1.00\n");
    expect(csv).toEqual({ ok: true, column: "SKU", ids: ["A-1", "B-2", "C-3"], bad: [3, 5], lines: 5 });
  });

  it.each([
    ["sku", 0],
    ["Id", 0],
    ["product_id", 0],
    ["Product ID", 0],
    ["product-id", 0],
    ["\uFEFFreference", 0],
  ])("accepts the column name %s", (header, index) => {
    expect(skuColumnIndex([header])).toBe(index);
  });

  it("refuses a file without a named column, and an empty file", () => {
    expect(parseSkuCsv("A-1\nB-2\n")).toEqual({ ok: false, reason: "noColumn" });
    expect(parseSkuCsv("name;ean\nx;1\n")).toEqual({ ok: false, reason: "noColumn" });
    expect(parseSkuCsv("")).toEqual({ ok: false, reason: "empty" });
    expect(parseSkuCsv(" \n\n")).toEqual({ ok: false, reason: "empty" });
  });

  it("guesses semicolons and tabs, reads quoted values, and a byte-order mark", () => {
    expect(parseSkuCsv("\uFEFFname;sku\n\"Tea; green\";T-1\nx;T-2")).toMatchObject({ ok: true, ids: ["T-1", "T-2"], bad: [] });
    expect(parseSkuCsv("sku\tname\nT-1\tTea\n\tNothing\n")).toMatchObject({ ok: true, ids: ["T-1"], bad: [3] });
  });

  it("counts a blank line between values as bad, not blank lines at the end; counts a duplicate once", () => {
    expect(parseSkuCsv("sku\nA\n\nB\nA\n\n\n")).toEqual({ ok: true, column: "sku", ids: ["A", "B"], bad: [3], lines: 4 });
  });

  it("counts lines across a quoted line break as the file's lines", () => {
    expect(parseSkuCsv('note,sku\n"two\nlines",A\n,\nx,B')).toMatchObject({ ids: ["A", "B"], bad: [4] });
  });

  it("refuses more lines than the limit", () => {
    const body = Array.from({ length: SKU_CSV_MAX_LINES + 1 }, (_, i) => `S-${i}`).join("\n");
    expect(parseSkuCsv(`sku\n${body}`)).toEqual({ ok: false, reason: "tooManyLines" });
    expect(parseSkuCsv(`sku\n${body.split("\n").slice(1).join("\n")}`)).toMatchObject({ ok: true });
  });

  it("the import form asks for a file, of 512 KB at most", () => {
    const data = (file?: File) => {
      const f = new FormData();
      f.set("intent", "import-products");
      f.set("version", "4");
      if (file) f.set("file", file);
      return f;
    };
    expect(parseWithZod(data(), { schema: ImportProductsSchema }).reply().error).toEqual({ file: ["campaignProductPicker:import.errors.noFile"] });
    const big = new File(["x".repeat(SKU_CSV_MAX_BYTES + 1)], "big.csv", { type: "text/csv" });
    expect(parseWithZod(data(big), { schema: ImportProductsSchema }).reply().error).toEqual({ file: ["campaignProductPicker:import.errors.tooLarge"] });
    const ok = parseWithZod(data(new File(["sku\nA"], "a.csv", { type: "text/csv" })), { schema: ImportProductsSchema });
    expect(ok.status).toBe("success");
  });
});

describe("reordering", () => {
  it("moves one id to another place, clamped; the same list when nothing moves", () => {
    const ids = ["A", "B", "C", "D"];
    expect(reorder(ids, "A", 2)).toEqual(["B", "C", "A", "D"]);
    expect(reorder(ids, "D", 0)).toEqual(["D", "A", "B", "C"]);
    expect(reorder(ids, "B", 99)).toEqual(["A", "C", "D", "B"]);
    expect(reorder(ids, "B", 1)).toBe(ids);
    expect(reorder(ids, "Z", 0)).toBe(ids);
  });

  it("keys on a handle: up, down, first, last; nothing past the ends or for another key", () => {
    expect(keyboardTarget("ArrowUp", 2, 4)).toBe(1);
    expect(keyboardTarget("ArrowDown", 2, 4)).toBe(3);
    expect(keyboardTarget("Home", 2, 4)).toBe(0);
    expect(keyboardTarget("End", 0, 4)).toBe(3);
    expect(keyboardTarget("ArrowUp", 0, 4)).toBeNull();
    expect(keyboardTarget("ArrowDown", 3, 4)).toBeNull();
    expect(keyboardTarget("Enter", 1, 4)).toBeNull();
  });

  it("saved as positions 1, 2, 3…, the list shows that order whatever the availability", () => {
    const offers: Offers = {
      A: offerFromProduct({ title: "A", image_link: "", availability: "in stock", party: "1P" }),
      B: offerFromProduct({ title: "B", image_link: "", availability: "out of stock", party: "1P" }),
      C: offerFromProduct({ title: "C", image_link: "", availability: "preorder", party: "1P" }),
    };
    // Without positions: by availability rank (in stock 5, preorder 3, out of stock 0).
    expect(orderedOffers(offers).map((o) => o.id)).toEqual(["A", "C", "B"]);
    const moved = reorder(["A", "C", "B"], "B", 0);
    const change = setOfferPositions(offers, positionsOf(moved));
    expect(change.ok && orderedOffers(change.value.offers).map((o) => [o.id, o.pos])).toEqual([
      ["B", 1],
      ["A", 2],
      ["C", 3],
    ]);
  });

  it("sorts equal positions by availability rank (spec: position then availability)", () => {
    const offers: Offers = {
      A: { ...offerFromProduct({ title: "A", image_link: "", availability: "out of stock", party: "1P" }), pos: 1 },
      B: { ...offerFromProduct({ title: "B", image_link: "", availability: "in store", party: "1P" }), pos: 1 },
      C: { ...offerFromProduct({ title: "C", image_link: "", availability: "in stock", party: "1P" }), pos: null },
    };
    expect(orderedOffers(offers).map((o) => o.id)).toEqual(["B", "A", "C"]);
  });
});

describe("the picker's rows and suggestions", () => {
  const hit = (id: string, extra: Partial<ProductHit> = {}): ProductHit => ({ id, title: `T ${id}`, brand: "Acme", party: "1P", availability: "in stock", price: 499, ...extra });
  const offers: Offers = { IN: offerFromProduct({ title: "In", image_link: "", availability: "in stock", party: "1P" }) };

  it("marks the products already in the campaign and those that would mix 1P and 3P", () => {
    const rows = pickerRows([hit("IN"), hit("X", { party: "3P" }), hit("Y", { party: "1P_3P" }), hit("Z")], offers);
    expect(rows.map((r) => [r.id, r.inCampaign, r.clashes])).toEqual([
      ["IN", true, false],
      ["X", false, true],
      ["Y", false, false],
      ["Z", false, false],
    ]);
    expect(pickerRows([hit("X", { party: "3P" })], {})[0]!.clashes).toBe(false);
  });

  it("suggests best sellers first, then most clicked, leaving out products in the campaign or of the other party", () => {
    const pool = [
      hit("IN", { metrics: { displays: 0, views: 0, clicks: 0, cost: 0, quantity: 0, sales: 99999 } }),
      hit("A", { metrics: { displays: 10, views: 0, clicks: 1, cost: 0, quantity: 1, sales: 100 } }),
      hit("B", { metrics: { displays: 10, views: 0, clicks: 5, cost: 0, quantity: 0, sales: 0 } }),
      hit("C", { metrics: { displays: 10, views: 0, clicks: 1, cost: 0, quantity: 3, sales: 900 } }),
      hit("D"),
      hit("E", { party: "3P", metrics: { displays: 1, views: 0, clicks: 1, cost: 0, quantity: 9, sales: 5000 } }),
    ];
    expect(suggestProducts(pool, offers, null).map((r) => r.id)).toEqual(["C", "A", "B", "D"]);
    expect(suggestProducts(pool, offers, null, 2).map((r) => r.id)).toEqual(["C", "A"]);
  });

  it("puts the campaign team's brands first", () => {
    const pool = [hit("A", { brand: "Other", metrics: { displays: 0, views: 0, clicks: 0, cost: 0, quantity: 0, sales: 900 } }), hit("B", { brand: "Acmé" })];
    const scope = scopeOfTeams([{ associated_brands: ["ACME"], marketplace_seller_id: "" }]);
    expect(suggestProducts(pool, {}, scope).map((r) => r.id)).toEqual(["B", "A"]);
  });
});
