/**
 * The category search of a campaign's Categories section (ADR 35): the suggestions offered
 * before anything is typed. Pure: the campaign's products' category paths and the campaign's
 * targets of the kind in, category ids out.
 *
 * Suggested: every level of the categories of the campaign's products, those holding more of
 * its products first, then the more specific (deeper) first, then by path; categories the
 * campaign already targets (of the kind asked) are left out.
 */
import { categoryNodes } from "~/domain/categories";

/** Options shown while typing and suggestions shown. */
export const CATEGORY_PICKER_SIZE = 10;
/** The longest query taken. */
export const CATEGORY_QUERY_MAX = 200;

/** A category as the search lists it to be added. */
export interface CategoryOption {
  id: string;
  name: string;
  level: number | null;
  /** The floor price and suggested bid, formatted in the retailer's currency. */
  floor: string | null;
  suggested: string | null;
  volume: number | null;
  /** The campaign targets it already (of the kind asked). */
  inCampaign: boolean;
}

export interface CategorySuggestion {
  id: string;
  /** "Grocery > Coffee & tea > Coffee". */
  path: string;
  /** The campaign's products in it (or in a category under it). */
  products: number;
  level: number;
}

/**
 * @param products each campaign product's category paths (a product counts once in a category,
 * whichever of its paths lead there)
 * @param targeted the keys of the campaign's targets of the kind asked
 */
export function suggestCategories(products: readonly { categories?: readonly string[] }[], targeted: ReadonlySet<string>, limit = CATEGORY_PICKER_SIZE): CategorySuggestion[] {
  const found = new Map<string, CategorySuggestion>();
  for (const product of products) {
    const own = new Set<string>();
    for (const path of product.categories ?? []) {
      for (const node of categoryNodes(path)) {
        if (own.has(node.id)) continue;
        own.add(node.id);
        const entry = found.get(node.id) ?? { id: node.id, path: node.segments.join(" > "), products: 0, level: node.level };
        entry.products += 1;
        found.set(node.id, entry);
      }
    }
  }
  return [...found.values()]
    .filter((c) => !targeted.has(c.id))
    .sort((a, b) => b.products - a.products || b.level - a.level || a.path.localeCompare(b.path))
    .slice(0, Math.max(0, limit));
}
