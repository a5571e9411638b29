/**
 * Product availability ranks and sorting (spec section 4: by the user's position, unset last, then by availability rank, best first) and the 1P/3P
 * mixing rule of spec section 5. Pure: no I/O, no framework.
 */

export const AVAILABILITIES = [
  "in stock",
  "in store",
  "preorder",
  "out of stock",
  "not found",
  "not eligible",
  "missing category",
] as const;
export type Availability = (typeof AVAILABILITIES)[number];

/** in stock 5, in store 4, preorder 3, out of stock 0, not found (gone) -1, the rest -2. */
export const AVAILABILITY_RANK: Record<Availability, number> = {
  "in stock": 5,
  "in store": 4,
  preorder: 3,
  "out of stock": 0,
  "not found": -1,
  "not eligible": -2,
  "missing category": -2,
};
export const OTHER_RANK = -2;

/** Accepts the spec's words and their feed spellings (in_stock, In-Stock…); unknown ones rank -2. */
export function availabilityRank(availability: string | null | undefined): number {
  const key = (availability ?? "").trim().toLowerCase().replace(/[_-]+/g, " ").replace(/\s+/g, " ");
  return (AVAILABILITY_RANK as Record<string, number>)[key] ?? OTHER_RANK;
}

export interface SortableProduct {
  /** Position chosen by the user; products without one come after those with one. */
  pos?: number | null;
  availability?: string | null;
}

/** By position (ascending, unset last), then availability rank (best first); stable otherwise. */
export function sortProducts<T extends SortableProduct>(products: readonly T[]): T[] {
  const posKey = (p: T) => (typeof p.pos === "number" && Number.isFinite(p.pos) ? p.pos : Number.POSITIVE_INFINITY);
  // Each product's keys computed once, not in every comparison (a save publishes 200 products).
  return products
    .map((product, index) => ({ product, index, pos: posKey(product), rank: availabilityRank(product.availability) }))
    .sort((a, b) => {
      if (a.pos !== b.pos) return a.pos < b.pos ? -1 : 1;
      if (a.rank !== b.rank) return b.rank - a.rank;
      return a.index - b.index;
    })
    .map((x) => x.product);
}

export const PARTIES = ["1P", "3P", "1P_3P"] as const;
export type Party = (typeof PARTIES)[number];

export type PartyMixCheck =
  | { ok: true; value: Party | null }
  | { ok: false; reason: "campaign.products.mixedParty" };

/**
 * 'Sponsoring of 1P & 3P mixed products is not allowed': 1P and 3P together are refused; 1P_3P
 * mixes with either. The value is the party the selection is bound to (1P, 3P, else 1P_3P), or
 * null for no product.
 */
export function checkPartyMix(parties: readonly (Party | null | undefined)[]): PartyMixCheck {
  const present = new Set(parties.filter((p): p is Party => !!p));
  if (present.has("1P") && present.has("3P")) return { ok: false, reason: "campaign.products.mixedParty" };
  if (present.has("1P")) return { ok: true, value: "1P" };
  if (present.has("3P")) return { ok: true, value: "3P" };
  return { ok: true, value: present.has("1P_3P") ? "1P_3P" : null };
}
