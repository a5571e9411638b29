import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import type { CampaignOffer } from "~/domain/campaigns/campaign";
import { summariseOffersChange } from "~/domain/campaigns/history-view";
import { documentSize, FIRESTORE_DOCUMENT_LIMIT, valueSize } from "~/domain/document-size";
import {
  addOffers,
  exceedsProductWarning,
  MAX_PRODUCTS,
  moveOffer,
  neighbourOf,
  offerFromProduct,
  orderedOffers,
  pageOfProduct,
  placeSlice,
  planAddition,
  PRODUCTS_BYTE_BUDGET,
  productsBytes,
  productsPage,
  productIdsOf,
  removeOffers,
  setOfferPositions,
  setOffersOn,
  type Offers,
} from "~/domain/campaigns/products";
import {
  AddProductsSchema,
  BulkProductsSchema,
  MoveProductSchema,
  RemoveProductSchema,
  SavePositionsSchema,
  ToggleProductSchema,
} from "~/forms/campaigns/products";

function form(pairs: [string, string][]): FormData {
  const data = new FormData();
  for (const [k, v] of pairs) data.append(k, v);
  return data;
}

const offer = (overrides: Partial<CampaignOffer> = {}): CampaignOffer => ({
  on: true,
  availability: "in stock",
  title: "A product",
  image_link: "/img.svg",
  pos: null,
  party: "1P",
  ...overrides,
});
const product = (id: string, party: "1P" | "3P" | "1P_3P" = "1P", availability = "in stock") => ({ id, party, availability, title: `Product ${id}`, image_link: `/${id}.svg` });

describe("product form schemas", () => {
  it("reads ids separated by spaces, commas, semicolons and line breaks, without duplicates", () => {
    const s = parseWithZod(form([["intent", "add-products"], ["version", "3"], ["ids", " A, B;C\nD\r\nE\tF  A ;; "]]), { schema: AddProductsSchema });
    expect(s.status).toBe("success");
    expect(s.status === "success" && s.value).toEqual({ intent: "add-products", version: 3, ids: ["A", "B", "C", "D", "E", "F"] });
  });

  it("asks for at least one id and at most 1000", () => {
    const empty = parseWithZod(form([["intent", "add-products"], ["version", "3"], ["ids", " ;, \n"]]), { schema: AddProductsSchema });
    expect(empty.reply().error).toEqual({ ids: ["campaignProducts:errors.noIds"] });
    const missing = parseWithZod(form([["intent", "add-products"], ["version", "3"]]), { schema: AddProductsSchema });
    expect(missing.reply().error).toEqual({ ids: ["campaignProducts:errors.noIds"] });
    const many = Array.from({ length: 1001 }, (_, i) => `SKU-${i}`).join(" ");
    const tooMany = parseWithZod(form([["intent", "add-products"], ["version", "3"], ["ids", many]]), { schema: AddProductsSchema });
    expect(tooMany.reply().error).toEqual({ ids: ["campaignProducts:errors.tooManyIds"] });
  });

  it("needs the version of the loaded campaign", () => {
    const s = parseWithZod(form([["intent", "add-products"], ["ids", "A"]]), { schema: AddProductsSchema });
    expect(s.status).toBe("error");
    expect(Object.keys(s.reply().error ?? {})).toEqual(["version"]);
  });

  it("toggles to a stated state only", () => {
    const on = parseWithZod(form([["intent", "toggle-product"], ["version", "2"], ["productId", "A"], ["state", "on"]]), { schema: ToggleProductSchema });
    expect(on.status === "success" && on.value).toEqual({ intent: "toggle-product", version: 2, productId: "A", state: "on" });
    const bad = parseWithZod(form([["intent", "toggle-product"], ["version", "2"], ["productId", "A"], ["state", "maybe"]]), { schema: ToggleProductSchema });
    expect(bad.status).toBe("error");
    const noId = parseWithZod(form([["intent", "remove-product"], ["version", "2"], ["productId", "  "]]), { schema: RemoveProductSchema });
    expect(noId.status).toBe("error");
  });

  it("moves up or down only", () => {
    expect(parseWithZod(form([["intent", "move-product"], ["version", "2"], ["productId", "A"], ["direction", "down"]]), { schema: MoveProductSchema }).status).toBe("success");
    expect(parseWithZod(form([["intent", "move-product"], ["version", "2"], ["productId", "A"], ["direction", "left"]]), { schema: MoveProductSchema }).status).toBe("error");
  });

  it("reads positions: whole numbers from 1 to 9999, empty for none", () => {
    const s = parseWithZod(
      form([
        ["intent", "save-positions"],
        ["version", "2"],
        ["positions[0].id", "A"],
        ["positions[0].pos", "2"],
        ["positions[1].id", "B"],
        ["positions[1].pos", ""],
      ]),
      { schema: SavePositionsSchema },
    );
    expect(s.status === "success" && s.value.positions).toEqual([
      { id: "A", pos: 2 },
      { id: "B", pos: null },
    ]);
    for (const bad of ["0", "1.5", "10000", "-1", "two"]) {
      const r = parseWithZod(form([["intent", "save-positions"], ["version", "2"], ["positions[0].id", "A"], ["positions[0].pos", bad]]), { schema: SavePositionsSchema });
      expect(r.reply().error, bad).toEqual({ "positions[0].pos": ["campaignProducts:errors.positionInvalid"] });
    }
  });

  it("reads a bulk selection of one or several products, and asks for one", () => {
    const one = parseWithZod(form([["intent", "bulk-products"], ["version", "2"], ["bulk", "off"], ["selected", "A"]]), { schema: BulkProductsSchema });
    expect(one.status === "success" && one.value).toEqual({ intent: "bulk-products", version: 2, bulk: "off", scope: "selected", selected: ["A"], confirmed: false });
    const several = parseWithZod(
      form([["intent", "bulk-products"], ["version", "2"], ["bulk", "remove"], ["selected", "A"], ["selected", "B"], ["selected", "A"], ["confirmed", "yes"]]),
      { schema: BulkProductsSchema },
    );
    expect(several.status === "success" && several.value).toMatchObject({ selected: ["A", "B"], confirmed: true });
    const none = parseWithZod(form([["intent", "bulk-products"], ["version", "2"], ["bulk", "on"]]), { schema: BulkProductsSchema });
    expect(none.reply().error).toEqual({ selected: ["campaignProducts:errors.noneSelected"] });
  });

  it("reads a switch of every product of the campaign without a selection, never a removal of them all", () => {
    const all = parseWithZod(form([["intent", "bulk-products"], ["version", "2"], ["bulk", "off"], ["scope", "campaign"]]), { schema: BulkProductsSchema });
    expect(all.status === "success" && all.value).toEqual({ intent: "bulk-products", version: 2, bulk: "off", scope: "campaign", selected: [], confirmed: false });
    const removeAll = parseWithZod(form([["intent", "bulk-products"], ["version", "2"], ["bulk", "remove"], ["scope", "campaign"], ["confirmed", "yes"]]), { schema: BulkProductsSchema });
    expect(removeAll.reply().error).toEqual({ bulk: ["campaignProducts:errors.badRequest"] });
    const odd = parseWithZod(form([["intent", "bulk-products"], ["version", "2"], ["bulk", "off"], ["scope", "everything"]]), { schema: BulkProductsSchema });
    expect(odd.status).toBe("error");
  });

  it("reads the page's place sent with the positions of a drag and drop", () => {
    const fields: [string, string][] = [["intent", "save-positions"], ["version", "3"], ["positions[0].id", "B"], ["positions[0].pos", "51"]];
    const typed = parseWithZod(form(fields), { schema: SavePositionsSchema });
    expect(typed.status === "success" && typed.value.slice).toBeNull();
    const dragged = parseWithZod(form([...fields, ["slice", "50"]]), { schema: SavePositionsSchema });
    expect(dragged.status === "success" && dragged.value.slice).toBe(50);
    expect(parseWithZod(form([...fields, ["slice", "-1"]]), { schema: SavePositionsSchema }).status).toBe("error");
  });
});

describe("campaign products rules", () => {
  it("makes an offer of a catalog product: on, no position", () => {
    expect(offerFromProduct({ availability: "preorder", title: "Tea", image_link: "/t.svg", party: "3P" })).toEqual({
      on: true,
      availability: "preorder",
      title: "Tea",
      image_link: "/t.svg",
      pos: null,
      party: "3P",
    });
  });

  it("orders by position, then availability rank, then id; productIds keeps the ones on", () => {
    const offers: Offers = {
      gone: offer({ availability: "not found" }),
      out: offer({ availability: "out of stock" }),
      store: offer({ availability: "in store" }),
      b: offer({ availability: "in stock" }),
      a: offer({ availability: "in stock" }),
      pinned: offer({ availability: "out of stock", pos: 1 }),
      off: offer({ availability: "in stock", on: false }),
    };
    expect(orderedOffers(offers).map((o) => o.id)).toEqual(["pinned", "a", "b", "off", "store", "out", "gone"]);
    expect(productIdsOf(offers)).toEqual(["pinned", "a", "b", "store", "out", "gone"]);
  });

  it("sorts the ids asked into added, already present and unknown", () => {
    const found = new Map([
      ["A", { id: "A" }],
      ["b", { id: "B" }],
      ["B", { id: "B" }],
    ]);
    expect(planAddition({ A: offer() }, ["A", "b", "B", "Z"], found)).toEqual({ added: ["B"], present: ["A"], unknown: ["Z"] });
  });

  it("adds products, refusing a 1P/3P mix whole and naming the products that clash", () => {
    const added = addOffers({ A: offer() }, [product("B", "1P"), product("M", "1P_3P")]);
    expect(added.ok && added.value.productIds).toEqual(["A", "B", "M"]);
    expect(addOffers({ A: offer() }, [product("X", "3P"), product("B")])).toEqual({ ok: false, reason: "campaign.products.mixedParty", ids: ["X"] });
    expect(addOffers({}, [product("A"), product("B"), product("X", "3P")])).toEqual({ ok: false, reason: "campaign.products.mixedParty", ids: ["X"] });
    expect(addOffers({ M: offer({ party: "1P_3P" }) }, [product("X", "3P")]).ok).toBe(true);
    // Switched-off products count.
    expect(addOffers({ X: offer({ party: "3P", on: false }) }, [product("A")]).ok).toBe(false);
    expect(addOffers({ A: offer() }, [product("A")])).toEqual({ ok: false, reason: "campaign.products.nothingToAdd" });
  });

  it("switches on and off, removes, and refuses products not in the campaign", () => {
    const offers: Offers = { A: offer(), B: offer({ availability: "in store" }) };
    const off = setOffersOn(offers, ["A"], false);
    expect(off.ok && off.value.offers.A!.on).toBe(false);
    expect(off.ok && off.value.productIds).toEqual(["B"]);
    const removed = removeOffers(offers, ["A"]);
    expect(removed.ok && Object.keys(removed.value.offers)).toEqual(["B"]);
    expect(removeOffers(offers, ["A", "Z"])).toEqual({ ok: false, reason: "campaign.products.notInCampaign", ids: ["Z"] });
    expect(setOffersOn(offers, ["Z"], true)).toEqual({ ok: false, reason: "campaign.products.notInCampaign", ids: ["Z"] });
  });

  it("sets positions typed, keeping the others", () => {
    const offers: Offers = { A: offer(), B: offer({ availability: "in store", pos: 5 }), C: offer({ availability: "out of stock" }) };
    const next = setOfferPositions(offers, [{ id: "C", pos: 1 }, { id: "B", pos: null }]);
    expect(next.ok && next.value.productIds).toEqual(["C", "A", "B"]);
    expect(setOfferPositions(offers, [{ id: "Z", pos: 1 }]).ok).toBe(false);
  });

  it("moves a product up or down, numbering the list", () => {
    const offers: Offers = { A: offer(), B: offer({ availability: "in store" }), C: offer({ availability: "out of stock" }) };
    const up = moveOffer(offers, "C", "up");
    expect(up.ok && up.value.productIds).toEqual(["A", "C", "B"]);
    expect(up.ok && Object.fromEntries(Object.entries(up.value.offers).map(([id, o]) => [id, o.pos]))).toEqual({ A: 1, C: 2, B: 3 });
    const top = moveOffer(offers, "A", "up");
    expect(top.ok && top.value.productIds).toEqual(["A", "B", "C"]);
    const down = moveOffer(offers, "A", "down");
    expect(down.ok && down.value.productIds).toEqual(["B", "A", "C"]);
    expect(moveOffer(offers, "Z", "down").ok).toBe(false);
  });

  it("warns past 200 products", () => {
    expect(exceedsProductWarning(200)).toBe(false);
    expect(exceedsProductWarning(201)).toBe(true);
  });
});

// Values as the History shows them (and its CSV writes them): tests/unit/campaign-history-csv.test.ts.
describe("a large campaign's products (ADR 48)", () => {
  const many = (count: number, overrides: Partial<CampaignOffer> = {}): Offers =>
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`SKU-${String(i).padStart(6, "0")}`, offer(overrides)]));

  it("cuts the list into pages of 50: the page asked, clamped to the last, and its place", () => {
    expect(productsPage(2415, 2)).toEqual({ page: 2, pages: 49, offset: 50, first: 51, last: 100, total: 2415 });
    expect(productsPage(2415, 49)).toMatchObject({ first: 2401, last: 2415 });
    expect(productsPage(2415, 50)).toMatchObject({ page: 49 });
    for (const asked of [0, -3, 1.5, Number.NaN]) expect(productsPage(2415, asked).page).toBe(1);
    expect(productsPage(0, 3)).toEqual({ page: 1, pages: 1, offset: 0, first: 0, last: 0, total: 0 });
    expect(productsPage(100, 2)).toMatchObject({ page: 2, pages: 2, first: 51, last: 100 });
  });

  it("finds the page a product is shown on", () => {
    const offers = many(120);
    expect(pageOfProduct(offers, "SKU-000049")).toBe(1);
    expect(pageOfProduct(offers, "SKU-000050")).toBe(2);
    expect(pageOfProduct(offers, "SKU-000119")).toBe(3);
    expect(pageOfProduct(offers, "nope")).toBe(1);
  });

  it("names the row that takes a removed product's place: the next one, the one before for the last, none for the only one", () => {
    const offers = many(3);
    expect(neighbourOf(offers, "SKU-000000")).toBe("SKU-000001");
    expect(neighbourOf(offers, "SKU-000002")).toBe("SKU-000001");
    // The last of a page: the first of the next page moves up into its place once it is gone.
    expect(neighbourOf(many(60), "SKU-000049")).toBe("SKU-000050");
    expect(neighbourOf(many(1), "SKU-000000")).toBeNull();
    expect(neighbourOf(offers, "nope")).toBeNull();
  });

  it("puts one page's products in a new order, numbering the whole list around them", () => {
    const offers = many(6, { pos: null });
    const change = placeSlice(offers, ["SKU-000003", "SKU-000002"], 2);
    expect(change.ok && change.value.productIds).toEqual(["SKU-000000", "SKU-000001", "SKU-000003", "SKU-000002", "SKU-000004", "SKU-000005"]);
    expect(change.ok && Object.values(change.value.offers).map((o) => o.pos).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    // Not the products at that place of the list: refused.
    expect(placeSlice(offers, ["SKU-000003", "SKU-000004"], 2)).toMatchObject({ ok: false, reason: "campaign.products.notInCampaign", ids: ["SKU-000004"] });
    expect(placeSlice(offers, ["SKU-000002", "SKU-000002"], 2)).toMatchObject({ ok: false, reason: "campaign.products.notInCampaign" });
    expect(placeSlice(offers, ["SKU-000005", "nope"], 4)).toMatchObject({ ok: false, ids: ["nope"] });
  });

  it("refuses an addition past 2,500 products, never a change of those already there", () => {
    const full = many(MAX_PRODUCTS - 1);
    expect(addOffers(full, [product("NEW-1")]).ok).toBe(true);
    expect(addOffers(full, [product("NEW-1"), product("NEW-2")])).toEqual({ ok: false, reason: "campaign.products.tooMany", total: MAX_PRODUCTS + 1 });
    const over = many(MAX_PRODUCTS + 10);
    expect(setOffersOn(over, ["SKU-000001"], false).ok).toBe(true);
    expect(removeOffers(over, ["SKU-000001"]).ok).toBe(true);
  });

  it("refuses an addition whose products would not fit in Firestore's document, however few", () => {
    // A feed's longest: 256-character ids, 500-character titles with accents, 2,048-character links.
    const long = (i: number) => ({ id: `${"X".repeat(250)}${String(i).padStart(6, "0")}`, party: "1P" as const, availability: "in stock", title: "é".repeat(500), image_link: `https://${"a".repeat(2040)}` });
    const big = Array.from({ length: 260 }, (_, i) => long(i));
    const change = addOffers({}, big);
    expect(change).toEqual({ ok: false, reason: "campaign.products.tooLarge", total: 260 });
    const fits = addOffers({}, big.slice(0, 200));
    expect(fits.ok && productsBytes(fits.value)).toBeLessThan(PRODUCTS_BYTE_BUDGET);
  });

  it("counts a document's bytes as Firestore does (checked against the emulator's 1 MiB refusal)", () => {
    expect(valueSize("abc")).toBe(4);
    expect(valueSize("é")).toBe(3);
    expect(valueSize(null) + valueSize(true) + valueSize(12) + valueSize(1.5)).toBe(1 + 1 + 8 + 8);
    expect(valueSize(["a", "bc"])).toBe(2 + 3);
    expect(valueSize({ on: true, pos: null })).toBe(3 + 1 + 4 + 1);
    // The emulator wrote a campaign document of exactly 1,048,576 bytes by this count and refused one of 1,048,577.
    expect(documentSize("campaign", "c1", { a: "" })).toBe(9 + 3 + 16 + 32 + 2 + 1);
    expect(FIRESTORE_DOCUMENT_LIMIT).toBe(1_048_576);
    // A typical retailer feed's product takes about 300 bytes: 2,500 of them stay well under the budget.
    const typical = Object.fromEntries(
      Array.from({ length: MAX_PRODUCTS }, (_, i) => {
        const id = String(3_000_000_000_000 + i * 7919);
        return [id, offerFromProduct({ availability: "in stock", party: "1P", title: "Crème hydratante visage à l’acide hyaluronique et aux céramides, peaux sèches et sensibles, flacon 50 ml", image_link: `https://media.retailer-cdn.example.com/is/image/catalog/products/${id}_main_800x800.jpg` })];
      }),
    );
    expect(productsBytes({ offers: typical, productIds: productIdsOf(typical) })).toBeLessThan(PRODUCTS_BYTE_BUDGET);
  });
});

describe("history of products", () => {
  it("summarises a change of products", () => {
    const before = { A: { on: true, pos: null }, B: { on: true, pos: 1 }, C: { on: false, pos: null } };
    const after = { B: { on: false, pos: 2 }, C: { on: true, pos: null }, D: { on: true, pos: null } };
    expect(summariseOffersChange(before, after)).toEqual({
      added: ["D"],
      removed: ["A"],
      switchedOn: ["C"],
      switchedOff: ["B"],
      moved: [{ id: "B", before: 1, after: 2 }],
    });
    expect(summariseOffersChange(null, { A: { on: true } }).added).toEqual(["A"]);
  });
});
