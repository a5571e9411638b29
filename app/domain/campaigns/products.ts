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
 * - Every product lives in the campaign's one document, which Firestore caps at 1 MiB: an
 *   addition past MAX_PRODUCTS, or whose products would take more than PRODUCTS_BYTE_BUDGET, is
 *   refused (ADR 48). Other changes never are, so a campaign saved before the cap can still be
 *   switched, reordered and trimmed.
 * - The list is shown a page at a time (PRODUCTS_PAGE_SIZE, ADR 48).
 */
import { checkPartyMix, sortProducts, type Party } from "~/domain/availability";
import type { CampaignOffer } from "~/domain/campaigns/campaign";
import type { Product } from "~/domain/catalog";
import { FIRESTORE_DOCUMENT_LIMIT, mapSize } from "~/domain/document-size";

/** Spec section 9: a warning past this many products per campaign. */
export const PRODUCT_WARNING_THRESHOLD = 200;
/**
 * The most products a campaign may hold (ADR 48): about 740 KB of a typical retailer feed's
 * products (EAN ids, 110-character titles, CDN image links: ~300 bytes each as Firestore counts),
 * well under the document's 1 MiB with the campaign's other fields.
 */
export const MAX_PRODUCTS = 2_500;
/**
 * What a campaign's products (`offers` and `productIds`) may take, as Firestore counts bytes: the
 * document's 1 MiB less 128 KiB kept for the campaign's other fields (1,000 negative keywords,
 * banners, creative, schedule…). Catches products with very long titles or links before the count.
 */
export const PRODUCTS_BYTE_BUDGET = FIRESTORE_DOCUMENT_LIMIT - 128 * 1024;
/** Products shown on one page of the list. */
export const PRODUCTS_PAGE_SIZE = 50;
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
  | { ok: false; reason: ProductsRefusal; ids?: string[]; /** The products the campaign would have had (tooMany, tooLarge). */ total?: number };

export type ProductsRefusal =
  | "campaign.products.mixedParty"
  | "campaign.products.notInCampaign"
  | "campaign.products.nothingToAdd"
  | "campaign.products.tooMany"
  | "campaign.products.tooLarge";

/** The bytes the products take in the campaign's document, as Firestore counts them. */
export function productsBytes(value: { offers: Offers; productIds: readonly string[] }): number {
  return mapSize({ offers: value.offers, productIds: value.productIds });
}

export interface ProductsPage {
  /** The page shown (1-based; a page past the last shows the last). */
  page: number;
  pages: number;
  /** 0-based index of the page's first product in the whole list. */
  offset: number;
  /** 1-based numbers of the page's first and last products ("51–100 of 2,415"); 0 when empty. */
  first: number;
  last: number;
  total: number;
}

/** The page `asked` of a list of `total` products (anything not a page number reads as 1). */
export function productsPage(total: number, asked: number, size = PRODUCTS_PAGE_SIZE): ProductsPage {
  const pages = Math.max(1, Math.ceil(total / size));
  const page = Number.isInteger(asked) && asked >= 1 ? Math.min(asked, pages) : 1;
  const offset = (page - 1) * size;
  return { page, pages, offset, first: total ? offset + 1 : 0, last: Math.min(total, offset + size), total };
}

/** The page of the list on which a product is shown (1 when it is not in the campaign). */
export function pageOfProduct(offers: Offers, id: string, size = PRODUCTS_PAGE_SIZE): number {
  const at = orderedOffers(offers).findIndex((o) => o.id === id);
  return at < 0 ? 1 : Math.floor(at / size) + 1;
}

/**
 * The product shown after `id` in the list (the one before when it is the last), or null: where a
 * page reloaded after removing `id` takes the reader (its row's anchor), so the next Tab goes on
 * from the next row rather than from the top of the page.
 */
export function neighbourOf(offers: Offers, id: string): string | null {
  const ids = orderedOffers(offers).map((o) => o.id);
  const at = ids.indexOf(id);
  if (at < 0) return null;
  return ids[at + 1] ?? ids[at - 1] ?? null;
}

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
  const total = Object.keys(next).length;
  if (total > MAX_PRODUCTS) return { ok: false, reason: "campaign.products.tooMany", total };
  const result = changed(next);
  if (result.ok && productsBytes(result.value) > PRODUCTS_BYTE_BUDGET) return { ok: false, reason: "campaign.products.tooLarge", total };
  return result;
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

/**
 * The products of one page put in a new order (drag and drop on that page): `ids` are the
 * products shown from index `from` of the list, in their new order. The whole list is numbered
 * 1, 2, 3… in the order shown with that page's part replaced, so the other pages do not move.
 * Refused when `ids` are not exactly the products at that place of the list.
 */
export function placeSlice(offers: Offers, ids: readonly string[], from: number): ProductsChange {
  const absent = missing(offers, ids);
  if (absent.length) return { ok: false, reason: "campaign.products.notInCampaign", ids: absent };
  const order = orderedOffers(offers).map((o) => o.id);
  const slice = order.slice(from, from + ids.length);
  const asked = new Set(ids);
  if (slice.length !== ids.length || asked.size !== ids.length || slice.some((id) => !asked.has(id))) {
    return { ok: false, reason: "campaign.products.notInCampaign", ids: ids.filter((id) => !slice.includes(id)) };
  }
  order.splice(from, ids.length, ...ids);
  const next: Offers = {};
  order.forEach((offerId, index) => {
    next[offerId] = { ...offers[offerId]!, pos: index + 1 };
  });
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
