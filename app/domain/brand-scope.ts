/**
 * Which catalog products an advertiser may sponsor (issue 10 section 1): a supplier only the
 * products of its teams' brands (their associated brands) and, for a marketplace seller, the
 * products the catalog attributes to its seller id where the feed gives one; a retailer or an
 * operator any product. Search shows only those, and the server accepts only those. Pure.
 */
import type { Product } from "~/domain/catalog";
import { foldText } from "~/domain/search";
import type { AccountType, Team } from "~/domain/types";

/** Null: every product. Brands are folded (case and accents do not matter). */
export type ProductScope = { brands: string[]; sellerIds: string[] } | null;

/** The scope of teams (a supplier's, or the one team a campaign belongs to). */
export function scopeOfTeams(teams: readonly Pick<Team, "associated_brands" | "marketplace_seller_id">[]): NonNullable<ProductScope> {
  const brands = new Set<string>();
  const sellerIds = new Set<string>();
  for (const team of teams) {
    for (const brand of team.associated_brands ?? []) {
      const key = foldText(brand);
      if (key) brands.add(key);
    }
    const seller = (team.marketplace_seller_id ?? "").trim();
    if (seller) sellerIds.add(seller);
  }
  return { brands: [...brands].sort(), sellerIds: [...sellerIds].sort() };
}

/** A supplier sponsors within its teams' scope; retailers and operators sponsor anything. */
export function productScopeFor(accountType: AccountType, teams: readonly Pick<Team, "associated_brands" | "marketplace_seller_id">[]): ProductScope {
  return accountType === "supplier" ? scopeOfTeams(teams) : null;
}

export function inProductScope(product: Pick<Product, "brand"> & { seller_id?: string | null }, scope: ProductScope): boolean {
  if (scope === null) return true;
  if (scope.brands.includes(foldText(product.brand))) return true;
  return !!product.seller_id && scope.sellerIds.includes(product.seller_id);
}
