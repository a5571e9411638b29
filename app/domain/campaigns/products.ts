/**
 * The products of a campaign (issue 4 section 4, spec sections 3-5 and 9): adding catalog products
 * by id, switching them on and off, removing them, choosing their positions. Pure: the offers in,
 * the next offers out; the service reads the catalog and saves.
 *
 * Readings:
 * - `offers` keeps every product of the campaign, switched on or off; `productIds` is the ids of
 *   the offers switched on, in display order (position, then availability rank: sortProducts).
 * - The 1P/3P rule (checkPartyMix) bears on every product of the campaign, on or off, so that
 *   switching one back on can never make a mix.
 * - A new product has no position: it comes after the positioned ones, by availability. Moving a
 *   product up or down numbers the whole list 1, 2, 3… in the order shown, then swaps the two.
 * - Past 200 products (spec section 9) the campaign is warned about, never refused.
 */
import { checkPartyMix, sortProducts, type Party } from "~/domain/availability";
import type { CampaignOffer } from "~/domain/campaigns/campaign";
import type { Product } from "~/domain/catalog";

/** Spec section 9: a warning past this many products per campaign. */
export const PRODUCT_WARNING_THRESHOLD = 200;
/** Positions a user may type. */
export const MAX_POSITION = 9999;

export type Offers = Record<string, CampaignOffer>;
export type OfferRow = CampaignOffer & { id: string };

/** The offer a catalog product becomes when added: switched on, no position. */
export function offerFromProduct(product: Pick<Product, "availability" | "title" | "image_link" | "party">): CampaignOffer {
  return {
    on: true,
    availability: product.availability,
    title: product.title,
    image_link: product.image_link,
    pos: null,
    party: product.party ?? null,
  };
}

/** The offers in display order: position (unset last), then availability rank, then id. */
export function orderedOffers(offers: Offers): OfferRow[] {
  const rows = Object.entries(offers)
    .map(([id, offer]) => ({ ...offer, id }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return sortProducts(rows);
}

/** The ids switched on, in display order (the campaign's `productIds`). */
export function productIdsOf(offers: Offers): string[] {
  return orderedOffers(offers)
    .filter((o) => o.on)
    .map((o) => o.id);
}

/** True past the threshold of spec section 9. */
export function exceedsProductWarning(count: number): boolean {
  return count > PRODUCT_WARNING_THRESHOLD;
}

export type ProductsChange =
  | { ok: true; value: { offers: Offers; productIds: string[] } }
  | { ok: false; reason: ProductsRefusal; ids?: string[] };

export type ProductsRefusal = "campaign.products.mixedParty" | "campaign.products.notInCampaign" | "campaign.products.nothingToAdd";

function changed(offers: Offers): ProductsChange {
  return { ok: true, value: { offers, productIds: productIdsOf(offers) } };
}

export interface AdditionPlan {
  /** Catalog products not yet in the campaign, in the order asked. */
  added: string[];
  /** Asked for but already in the campaign. */
  present: string[];
  /** Asked for but not in the catalog. */
  unknown: string[];
}

/**
 * Sorts the ids asked for into added / already present / unknown. `found` maps an id as typed to
 * its catalog product (the service may match a different spelling, e.g. upper case).
 */
export function planAddition(offers: Offers, requested: readonly string[], found: ReadonlyMap<string, Pick<Product, "id">>): AdditionPlan {
  const plan: AdditionPlan = { added: [], present: [], unknown: [] };
  const seen = new Set<string>();
  for (const asked of requested) {
    const product = found.get(asked);
    if (!product) {
      plan.unknown.push(asked);
      continue;
    }
    if (seen.has(product.id)) continue;
    seen.add(product.id);
    if (hasOffer(offers, product.id)) plan.present.push(product.id);
    else plan.added.push(product.id);
  }
  return plan;
}

/** Adds the products (refused whole when the result would mix 1P and 3P). */
export function addOffers(offers: Offers, products: readonly Pick<Product, "id" | "availability" | "title" | "image_link" | "party">[]): ProductsChange {
  const fresh = products.filter((p) => !hasOffer(offers, p.id));
  if (!fresh.length) return { ok: false, reason: "campaign.products.nothingToAdd" };
  const parties: (Party | null)[] = [...Object.values(offers).map((o) => o.party), ...fresh.map((p) => p.party)];
  const mix = checkPartyMix(parties);
  if (!mix.ok) return { ok: false, reason: mix.reason, ids: mixedIds(offers, fresh) };
  const next: Offers = { ...offers };
  for (const product of fresh) next[product.id] = offerFromProduct(product);
  return changed(next);
}

/** The new products whose party clashes with the campaign's (or with each other's). */
function mixedIds(offers: Offers, fresh: readonly Pick<Product, "id" | "party">[]): string[] {
  const bound = checkPartyMix(Object.values(offers).map((o) => o.party));
  const campaignParty = bound.ok ? bound.value : null;
  if (campaignParty === "1P" || campaignParty === "3P") {
    const other = campaignParty === "1P" ? "3P" : "1P";
    return fresh.filter((p) => p.party === other).map((p) => p.id);
  }
  // The campaign itself is not bound: the minority party of the new products clashes.
  const ones = fresh.filter((p) => p.party === "1P");
  const threes = fresh.filter((p) => p.party === "3P");
  return (threes.length <= ones.length ? threes : ones).map((p) => p.id);
}

/**
 * Whether the campaign has this product: an own key of its offers. A forged id such as
 * "constructor" or "__proto__" names no product (read as `offers[id]`, it found Object's own
 * members, and a switch "on" stored a product of that name).
 */
export function hasOffer(offers: Offers, id: string): boolean {
  return Object.prototype.hasOwnProperty.call(offers, id);
}

function missing(offers: Offers, ids: readonly string[]): string[] {
  return ids.filter((id) => !hasOffer(offers, id));
}

/** Switches products on or off. */
export function setOffersOn(offers: Offers, ids: readonly string[], on: boolean): ProductsChange {
  const absent = missing(offers, ids);
  if (absent.length) return { ok: false, reason: "campaign.products.notInCampaign", ids: absent };
  const next: Offers = { ...offers };
  for (const id of ids) next[id] = { ...next[id]!, on };
  return changed(next);
}

/** Removes products from the campaign. */
export function removeOffers(offers: Offers, ids: readonly string[]): ProductsChange {
  const absent = missing(offers, ids);
  if (absent.length) return { ok: false, reason: "campaign.products.notInCampaign", ids: absent };
  const drop = new Set(ids);
  return changed(Object.fromEntries(Object.entries(offers).filter(([id]) => !drop.has(id))));
}

/**
 * Sets the positions typed (null clears one). Products not mentioned keep theirs; products of
 * equal position are ordered by availability.
 */
export function setOfferPositions(offers: Offers, positions: readonly { id: string; pos: number | null }[]): ProductsChange {
  const absent = missing(
    offers,
    positions.map((p) => p.id),
  );
  if (absent.length) return { ok: false, reason: "campaign.products.notInCampaign", ids: absent };
  const next: Offers = { ...offers };
  for (const { id, pos } of positions) next[id] = { ...next[id]!, pos };
  return changed(next);
}

/** Moves a product one place up or down the list shown; the list is numbered 1, 2, 3… */
export function moveOffer(offers: Offers, id: string, direction: "up" | "down"): ProductsChange {
  if (!hasOffer(offers, id)) return { ok: false, reason: "campaign.products.notInCampaign", ids: [id] };
  const order = orderedOffers(offers).map((o) => o.id);
  const at = order.indexOf(id);
  const to = direction === "up" ? at - 1 : at + 1;
  if (to >= 0 && to < order.length) [order[at], order[to]] = [order[to]!, order[at]!];
  const next: Offers = {};
  order.forEach((offerId, index) => {
    next[offerId] = { ...offers[offerId]!, pos: index + 1 };
  });
  return changed(next);
}
