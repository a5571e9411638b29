/**
 * The product picker of a campaign (issue 10 section 2): what a search hit shows (already in the
 * campaign, would break the 1P/3P rule) and the suggestions offered before anything is typed.
 * Pure: search hits and the campaign's offers in, rows out.
 *
 * Suggestions: the best sellers among the products the campaign may take (the search service's
 * products with their statistics over its demand days): most sales first, then most clicks, then
 * the search's own order (availability, title). Products already in the campaign and those of the
 * other party (1P/3P) are left out. When the campaign's team names brands, its brands' products
 * come first for everyone (an operator building a supplier's campaign sees that supplier's
 * products; a supplier is scoped to them by the search service anyway).
 */
import { checkPartyMix, type Party } from "~/domain/availability";
import { inProductScope, type ProductScope } from "~/domain/brand-scope";
import { hasOffer, type Offers } from "~/domain/campaigns/products";
import type { ProductHit } from "~/domain/search-contract";

/** Hits shown while typing. */
export const PICKER_SIZE = 10;
/** Suggestions shown. */
export const SUGGESTION_COUNT = 8;
/** Products read to choose the suggestions from. */
export const SUGGESTION_POOL = 100;
/** The longest query taken. */
export const PICKER_QUERY_MAX = 200;

export interface PickerRow {
  id: string;
  title: string;
  image_link: string;
  availability: string;
  brand: string;
  party: Party | null;
  /** Cents, or null when the search did not give it. */
  price: number | null;
  /** Already among the campaign's products. */
  inCampaign: boolean;
  /** Adding it would mix 1P and 3P products. */
  clashes: boolean;
}

function partyOf(value: string | undefined): Party | null {
  return value === "1P" || value === "3P" || value === "1P_3P" ? value : null;
}

/** The party the campaign is bound to (null: none, or 1P_3P only). */
function boundParty(offers: Offers): Party | null {
  const mix = checkPartyMix(Object.values(offers).map((o) => o.party));
  return mix.ok ? mix.value : null;
}

export function pickerRows(hits: readonly ProductHit[], offers: Offers): PickerRow[] {
  const bound = boundParty(offers);
  return hits.map((hit) => {
    const party = partyOf(hit.party);
    return {
      id: hit.id,
      title: hit.title ?? hit.id,
      image_link: hit.image_link ?? "",
      availability: hit.availability ?? "",
      brand: hit.brand ?? "",
      party,
      price: typeof hit.price === "number" ? hit.price : null,
      inCampaign: hasOffer(offers, hit.id),
      clashes: !!party && !!bound && !checkPartyMix([bound, party]).ok,
    };
  });
}

/** The suggestions among a pool of hits (in the search's order, with their statistics). */
export function suggestProducts(pool: readonly ProductHit[], offers: Offers, teamScope: ProductScope, limit = SUGGESTION_COUNT): PickerRow[] {
  const rows = pickerRows(pool, offers);
  const figures = new Map(pool.map((hit, index) => [hit.id, { sales: hit.metrics?.sales ?? 0, clicks: hit.metrics?.clicks ?? 0, index }]));
  const ownBrand = (hit: ProductHit) => (teamScope && teamScope.brands.length ? inProductScope({ brand: hit.brand ?? "" }, teamScope) : true);
  const own = new Set(pool.filter(ownBrand).map((h) => h.id));
  return rows
    .filter((row) => !row.inCampaign && !row.clashes)
    .sort((a, b) => {
      const oa = own.has(a.id) ? 0 : 1;
      const ob = own.has(b.id) ? 0 : 1;
      if (oa !== ob) return oa - ob;
      const fa = figures.get(a.id)!;
      const fb = figures.get(b.id)!;
      return fb.sales - fa.sales || fb.clicks - fa.clicks || fa.index - fb.index;
    })
    .slice(0, limit);
}
