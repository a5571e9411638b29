/**
 * The retailer's product catalog (spec section 3) and saved campaign list views. Pure data.
 * Prices are integer cents.
 */
import type { Party } from "~/domain/availability";
import { foldText, searchTokens } from "~/domain/search";
import type { Cents } from "~/domain/money";
import type { DocMeta } from "~/domain/types";

export interface ProductInput {
  title: string;
  image_link: string;
  link: string;
  availability: string;
  party: Party;
  brand: string;
  price: Cents;
  /** Null when there is no former price. */
  stroke_price: Cents | null;
  categories: string[];
  /** The marketplace seller the feed attributes the product to, where it gives one. */
  seller_id?: string | null;
}

export interface ProductData extends ProductInput {
  titleLower: string;
  brandLower: string;
  /** Word prefixes of the title, the brand and the id, for search. */
  searchTokens: string[];
  /** The catalog change (CatalogRepo.upsertMany) that last wrote the product, for indexes built from it. */
  catalogSeq?: number;
}
export type Product = ProductData & DocMeta;

export function productData(id: string, input: ProductInput): ProductData {
  return {
    ...input,
    titleLower: foldText(input.title),
    brandLower: foldText(input.brand),
    searchTokens: searchTokens(input.title, input.brand, id),
  };
}

export interface CampaignViewData {
  userId: string;
  name: string;
  nameLower: string;
  /** The list's query string (filters, sort), without the cursor: "status=active&sort=name". */
  query: string;
  /** Columns shown, in order. */
  columns: string[];
  created: string;
  updated: string;
}
export type CampaignView = CampaignViewData & DocMeta;

/**
 * Product identifiers typed or pasted: separated by spaces, commas, semicolons or line breaks
 * (spec section 5); trimmed, de-duplicated, order kept.
 */
export function parseProductIds(text: string): string[] {
  const seen = new Set<string>();
  const ids: string[] = [];
  for (const raw of text.split(/[\s,;]+/)) {
    const id = raw.trim();
    if (id && !seen.has(id)) {
      seen.add(id);
      ids.push(id);
    }
  }
  return ids;
}
