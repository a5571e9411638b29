import { describe, expect, it } from "vitest";
import {
  availabilityRank,
  checkPartyMix,
  sortProducts,
  type Party,
  type PartyMixCheck,
  type SortableProduct,
} from "~/domain/availability";

describe("availabilityRank", () => {
  it.each<[string | null, number]>([
    ["in stock", 5],
    ["in store", 4],
    ["preorder", 3],
    ["out of stock", 0],
    ["not found", -1],
    ["not eligible", -2],
    ["missing category", -2],
    ["in_stock", 5],
    ["Out-Of-Stock", 0],
    ["  In  Store ", 4],
    ["discontinued", -2],
    ["", -2],
    [null, -2],
  ])("%j -> %i", (availability, rank) => {
    expect(availabilityRank(availability)).toBe(rank);
  });
});

describe("sortProducts: by position, then availability", () => {
  type P = SortableProduct & { id: string };
  it.each<[string, P[], string[]]>([
    [
      "availability breaks ties of position",
      [
        { id: "a", pos: 1, availability: "out of stock" },
        { id: "b", pos: 1, availability: "in stock" },
        { id: "c", pos: 1, availability: "preorder" },
        { id: "d", pos: 1, availability: "not found" },
        { id: "e", pos: 1, availability: "in store" },
        { id: "f", pos: 1, availability: "not eligible" },
      ],
      ["b", "e", "c", "a", "d", "f"],
    ],
    [
      "position first",
      [
        { id: "a", pos: 3, availability: "in stock" },
        { id: "b", pos: 1, availability: "out of stock" },
        { id: "c", pos: 2, availability: "not found" },
      ],
      ["b", "c", "a"],
    ],
    [
      "unset positions last, then availability, then input order",
      [
        { id: "a", availability: "out of stock" },
        { id: "b", pos: null, availability: "in stock" },
        { id: "c", pos: 5, availability: "out of stock" },
        { id: "d", availability: "out of stock" },
      ],
      ["c", "b", "a", "d"],
    ],
    ["empty", [], []],
  ])("%s", (_label, products, ids) => {
    const input = [...products];
    expect(sortProducts(products).map((p) => p.id)).toEqual(ids);
    expect(products).toEqual(input); // not mutated
  });
});

describe("checkPartyMix: 1P and 3P are not mixed; 1P_3P mixes with either", () => {
  it.each<[(Party | null)[], PartyMixCheck]>([
    [[], { ok: true, value: null }],
    [["1P", "1P"], { ok: true, value: "1P" }],
    [["3P"], { ok: true, value: "3P" }],
    [["1P_3P"], { ok: true, value: "1P_3P" }],
    [["1P", "1P_3P"], { ok: true, value: "1P" }],
    [["1P_3P", "3P"], { ok: true, value: "3P" }],
    [["1P", null], { ok: true, value: "1P" }],
    [["1P", "3P"], { ok: false, reason: "campaign.products.mixedParty" }],
    [["3P", "1P_3P", "1P"], { ok: false, reason: "campaign.products.mixedParty" }],
  ])("%j -> %j", (parties, expected) => {
    expect(checkPartyMix(parties)).toEqual(expected);
  });
});
