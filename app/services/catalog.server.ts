/**
 * The Catalog and Inventory screens' use cases (issue 10 §4, NOTES.md): read by operators and
 * retailer staff, never by suppliers. No HTTP.
 *
 * - `browseCatalog`: the retailer's products a page at a time, filtered by availability, party
 *   and brand; a search goes through the search client (the index of ADR 20, or the retailer's
 *   own service) and pages through its best matches; each product with the published campaigns
 *   that sponsor it (the product cache), by name, those the reader may see.
 * - `readInventory`: what advertisers can buy: placements and slots by page type (the retailer
 *   settings), and keyword and category demand with floor prices and suggested bids (the search
 *   client: operators also get products per page, fill rate and conversion rate).
 */
import { AVAILABILITIES, PARTIES, type Availability, type Party } from "~/domain/availability";
import { getProductImageHosts } from "~/services/image-hosts.server";
import { displayableImage, sponsorsOf, type CatalogFilters } from "~/domain/catalog-view";
import { can, hasOperatorRights } from "~/domain/permissions";
import { forbidden, ok, type Result } from "~/domain/result";
import { CAMPAIGN_TYPES, PLACEMENTS, slotPlacements, type CampaignType, type Placement } from "~/domain/retailer-settings";
import { MAX_SEARCH_SIZE, type TargetHit } from "~/domain/search-contract";
import type { User } from "~/domain/types";
import { getRetailerSettings } from "~/services/retailer-settings.server";
import { catalogBrands, fetchSearch } from "~/services/search.server";
import { getStorage } from "~/services/storage.server";

export const CATALOG_PAGE_SIZE = 25;
/** Campaigns named per product at most (then "and N more"). */
export const MAX_SPONSORS_SHOWN = 5;
/** Brands offered in the filter at most (a larger catalog is filtered by typing the brand). */
export const MAX_BRAND_CHOICES = 500;
export const FETCH_CATALOG_TITLE = "catalog:failure.fetch";
export const FETCH_INVENTORY_TITLE = "catalog:failure.fetchInventory";

export interface CatalogRow {
  id: string;
  title: string;
  /** Null when the page cannot show it (another site's address). */
  image: string | null;
  link: string | null;
  availability: string;
  party: string;
  brand: string;
  price: number | null;
  strokePrice: number | null;
  campaigns: { id: string; name: string }[];
  moreCampaigns: number;
}

export interface CatalogPage {
  rows: CatalogRow[];
  /** The next page's cursor, or null on the last page. */
  next: string | null;
  /** Products in the catalog (all of them, unfiltered). */
  total: number;
  brands: string[];
  /** A search shows its best MAX_SEARCH_SIZE matches only: true when it reached them. */
  searchCapped: boolean;
  /** The search reached them and filters are set: the filters apply to those matches only (the screen says so). */
  filtersWithinCap: boolean;
  /** The search could not be run (the search service failed): its failure title. */
  searchFailed: string | null;
}

export function parseCatalogFilters(params: URLSearchParams): CatalogFilters {
  const q = (params.get("q") ?? "").trim().slice(0, 200);
  const availability = params.get("availability") ?? "";
  const party = params.get("party") ?? "";
  const brand = (params.get("brand") ?? "").trim().slice(0, 200);
  const after = params.get("after");
  return {
    q,
    availability: (AVAILABILITIES as readonly string[]).includes(availability) ? (availability as Availability) : "",
    party: (PARTIES as readonly string[]).includes(party) ? (party as Party) : "",
    brand,
    after: after && after.length <= 2000 ? after : null,
  };
}

/** The published campaigns of each product, by name, among those the reader may see. */
async function sponsorsFor(user: User, productIds: readonly string[]): Promise<Map<string, { campaigns: { id: string; name: string }[]; more: number }>> {
  const storage = getStorage();
  const links = await Promise.all(productIds.map((id) => storage.publication.campaignsForProduct(id)));
  const campaignIds = [...new Set(links.flat())];
  const campaigns = campaignIds.length ? await storage.campaigns.getMany(campaignIds) : [];
  const visible = new Map(campaigns.filter((c) => can(user, "Campaign", "read", { teamId: c.team })).map((c) => [c.id, { id: c.id, name: c.name }]));
  return new Map(productIds.map((id, i) => [id, sponsorsOf(links[i]!, visible, MAX_SPONSORS_SHOWN)]));
}

/** One page of the catalog for a reader of it. */
export async function browseCatalog(user: User, filters: CatalogFilters): Promise<Result<CatalogPage>> {
  if (!can(user, "Catalog", "read")) return forbidden();
  const storage = getStorage();
  const [total, brands] = await Promise.all([storage.catalog.count(), catalogBrands().catch(() => [] as string[])]);
  type Item = { id: string; title?: string; image_link?: string; link?: string; availability?: string; party?: string; brand?: string; price?: number; stroke_price?: number | null };
  let items: Item[];
  let next: string | null = null;
  let searchCapped = false;
  let searchFailed: string | null = null;
  if (filters.q) {
    const found = await fetchSearch(user, "product", { query: filters.q, size: MAX_SEARCH_SIZE, fields: ["title", "image_link", "link", "availability", "party", "brand", "price", "stroke_price"] }, FETCH_CATALOG_TITLE);
    if (!found.ok) {
      searchFailed = found.reason;
      items = [];
    } else {
      searchCapped = found.value.hits.length >= MAX_SEARCH_SIZE;
      const brandKey = filters.brand.toLocaleLowerCase("en");
      const matching = found.value.hits.filter(
        (hit) =>
          (!filters.availability || hit.availability === filters.availability) &&
          (!filters.party || hit.party === filters.party) &&
          (!brandKey || (hit.brand ?? "").toLocaleLowerCase("en") === brandKey),
      );
      // The cursor of a search's pages is the place in its ranked matches.
      const from = Math.max(0, Math.min(Number.parseInt(filters.after ?? "0", 10) || 0, matching.length));
      items = matching.slice(from, from + CATALOG_PAGE_SIZE);
      next = from + CATALOG_PAGE_SIZE < matching.length ? String(from + CATALOG_PAGE_SIZE) : null;
    }
  } else {
    const spec = {
      availability: filters.availability || undefined,
      party: filters.party || undefined,
      brand: filters.brand || undefined,
      limit: CATALOG_PAGE_SIZE,
    };
    const page = await storage.catalog.list({ ...spec, after: filters.after }).catch((error) => {
      // A cursor that is not ours (edited by hand, or a search's place number): the first page.
      if (error instanceof RangeError && filters.after) return storage.catalog.list(spec);
      throw error;
    });
    items = page.items;
    next = page.next;
  }
  const [sponsors, imageHosts] = await Promise.all([
    sponsorsFor(
      user,
      items.map((item) => item.id),
    ),
    getProductImageHosts(),
  ]);
  const rows: CatalogRow[] = items.map((item) => ({
    id: item.id,
    title: item.title ?? item.id,
    image: displayableImage(item.image_link ?? "", imageHosts) ? item.image_link! : null,
    link: item.link && /^https?:\/\//.test(item.link) ? item.link : null,
    availability: item.availability ?? "",
    party: item.party ?? "",
    brand: item.brand ?? "",
    price: typeof item.price === "number" ? item.price : null,
    strokePrice: typeof item.stroke_price === "number" ? item.stroke_price : null,
    campaigns: sponsors.get(item.id)?.campaigns ?? [],
    moreCampaigns: sponsors.get(item.id)?.more ?? 0,
  }));
  const filtersWithinCap = searchCapped && Boolean(filters.availability || filters.party || filters.brand);
  return ok({ rows, next, total, brands: brands.slice(0, MAX_BRAND_CHOICES), searchCapped, filtersWithinCap, searchFailed });
}

// ---------------------------------------------------------------------------------------------
// Inventory

export const INVENTORY_SIZE = 25;

export interface PageTypeInventory {
  placement: Placement;
  /** Per enabled campaign type, the slots that serve this page type (empty: the type is not sold there); banner slots are named by their size. */
  slots: { type: CampaignType; slots: string[] }[];
}

export interface DemandTable {
  hits: TargetHit[];
  /** The failure title when the search service failed (the rest of the screen stays). */
  failed: string | null;
}

export interface Inventory {
  pageTypes: PageTypeInventory[];
  types: CampaignType[];
  keywords: DemandTable;
  categories: DemandTable;
  /** Whether the operators' figures (products per page, fill rate, conversion rate) are shown. */
  operatorFigures: boolean;
  suggestedBids: boolean;
  floorPrices: boolean;
}

/** What advertisers can buy, and the demand for it (a query narrows keywords and categories). */
export async function readInventory(user: User, query: string): Promise<Result<Inventory>> {
  if (!can(user, "Inventory", "read")) return forbidden();
  const settings = await getRetailerSettings();
  const types = CAMPAIGN_TYPES.filter((type) => settings.enabledTypes.includes(type));
  const pageTypes: PageTypeInventory[] = PLACEMENTS.map((placement) => ({
    placement,
    slots: types.map((type) => ({
      type,
      slots: settings.types[type].placements.includes(placement)
        ? Object.keys(settings.types[type].slots).filter((slot) => slotPlacements(settings, type, slot).includes(placement))
        : [],
    })),
  }));
  const q = query.trim().slice(0, 200);
  const request = { size: INVENTORY_SIZE, ...(q ? { query: q } : {}) };
  const [keywords, categories] = await Promise.all([
    fetchSearch(user, "keyword", request, FETCH_INVENTORY_TITLE),
    fetchSearch(user, "category", request, FETCH_INVENTORY_TITLE),
  ]);
  const table = (found: typeof keywords): DemandTable => (found.ok ? { hits: found.value.hits, failed: null } : { hits: [], failed: found.reason });
  return ok({
    pageTypes,
    types,
    keywords: table(keywords),
    categories: table(categories),
    operatorFigures: hasOperatorRights(user.claims),
    suggestedBids: settings.suggestedBids,
    floorPrices: settings.floorPrices,
  });
}
