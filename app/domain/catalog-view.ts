/**
 * The catalog screen's rules (issue 10 §4): its filters in the URL, which images it may show,
 * how a product's sponsoring campaigns are listed. Pure.
 */
import { onImageHost } from "~/domain/image-hosts";
import type { Availability, Party } from "~/domain/availability";
import { collator } from "~/domain/intl";

/** Campaign names in English order, case and accents aside (made once). */
const byName = collator("en", { sensitivity: "base" });

export interface CatalogFilters {
  /** Words searched (through the search client); empty: the catalog by title. */
  q: string;
  availability: Availability | "";
  party: Party | "";
  brand: string;
  /** The page's cursor: the store's, or a search's place in its matches. */
  after: string | null;
}

/** The URL query of a catalog page: the filters set, and the cursor when given. */
export function catalogQuery(filters: Omit<CatalogFilters, "after">, after: string | null = null): string {
  const params = new URLSearchParams();
  if (filters.q) params.set("q", filters.q);
  if (filters.availability) params.set("availability", filters.availability);
  if (filters.party) params.set("party", filters.party);
  if (filters.brand) params.set("brand", filters.brand);
  if (after) params.set("after", after);
  const text = params.toString();
  return text ? `?${text}` : "";
}

/**
 * Images the console's pages may show: this site's own, data: images and those of the retailer's
 * product image hosts (the content security policy's img-src); another site's picture is not loaded.
 */
export function displayableImage(link: string, imageHosts: readonly string[] = []): boolean {
  return (link.startsWith("/") && !link.startsWith("//")) || link.startsWith("data:image/") || onImageHost(link, imageHosts);
}

/**
 * A product's sponsoring campaigns as the reader sees them: those of `visible` (by id, with their
 * names), in name order, at most `max`, and how many more; campaigns the reader may not see, or
 * gone from storage, are not counted.
 */
export function sponsorsOf(
  campaignIds: readonly string[],
  visible: ReadonlyMap<string, { id: string; name: string }>,
  max: number,
): { campaigns: { id: string; name: string }[]; more: number } {
  const seen = campaignIds
    .map((id) => visible.get(id))
    .filter((c): c is { id: string; name: string } => !!c)
    .sort((a, b) => byName.compare(a.name, b.name));
  return { campaigns: seen.slice(0, max), more: Math.max(0, seen.length - max) };
}

/** The translation key of an availability ("in stock", "in_stock" -> in_stock). */
export function availabilityKey(availability: string): string {
  return availability.trim().toLowerCase().replace(/[\s_-]+/g, "_");
}
