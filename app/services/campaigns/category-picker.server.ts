/**
 * The category search as you type of a campaign's Categories section (ADR 35): the categories
 * (or product categories) matching what was typed, through the same search as the page's GET form
 * (searchCategoriesToAdd), each marked when the campaign already targets it; with nothing typed,
 * the categories of the campaign's products it does not target yet (suggestCategories).
 */
import { CATEGORY_PICKER_SIZE, CATEGORY_QUERY_MAX, suggestCategories, type CategoryOption } from "~/domain/campaigns/category-picker";
import { orderedOffers } from "~/domain/campaigns/products";
import { formatMoney } from "~/domain/money";
import { ok, type Result } from "~/domain/result";
import type { User } from "~/domain/types";
import type { CampaignContext } from "~/services/campaigns/campaigns.server";
import { searchCategoriesToAdd, TARGET_FAILURE } from "~/services/campaigns/keywords.server";
import { fetchSearch } from "~/services/search.server";
import { getStorage } from "~/services/storage.server";
import { retailerSettings as walletRetailerSettings } from "~/services/wallets.server";

export type CategoryKind = "category" | "productCategory";

export interface CategorySearchResult {
  query: string;
  suggested: boolean;
  rows: CategoryOption[];
}

export async function searchCampaignCategories(user: User, ctx: CampaignContext, kind: CategoryKind, rawQuery: string, locale: string): Promise<Result<CategorySearchResult>> {
  const query = rawQuery.trim().slice(0, CATEGORY_QUERY_MAX);
  const targeted = new Set(Object.keys(await getStorage().targets.list(ctx.campaign.id, kind)));
  if (query) {
    const found = await searchCategoriesToAdd(user, kind, query, locale);
    if (!found.ok) return found;
    return ok({ query, suggested: false, rows: found.value.map((hit) => ({ ...hit, inCampaign: targeted.has(hit.id) })) });
  }
  const ids = orderedOffers(ctx.campaign.offers ?? {}).map((o) => o.id);
  const products = ids.length ? await getStorage().catalog.getMany(ids) : [];
  const suggestions = suggestCategories(products, targeted);
  if (!suggestions.length) return ok({ query, suggested: true, rows: [] });
  const title = kind === "category" ? TARGET_FAILURE.fetchCategories : TARGET_FAILURE.fetchProductCategories;
  const found = await fetchSearch(
    user,
    "category",
    { includeIds: suggestions.map((s) => s.id), size: CATEGORY_PICKER_SIZE, fields: ["name", "hierarchies", "level", "floor_price", "suggested_bid", "volume"], ...(kind === "productCategory" ? { page_type: "pdp" as const } : {}) },
    title,
  );
  if (!found.ok) return found;
  const money = (cents: number) => formatMoney(cents, walletRetailerSettings().currency, locale);
  const byId = new Map(found.value.hits.map((h) => [h.id, h]));
  const rows = suggestions.flatMap((s): CategoryOption[] => {
    const hit = byId.get(s.id);
    if (!hit) return []; // not in the search's catalog (any more)
    return [
      {
        id: s.id,
        name: hit.hierarchies?.length ? hit.hierarchies.join(" > ") : s.path,
        level: hit.level ?? s.level,
        floor: hit.floor_price == null ? null : money(hit.floor_price),
        suggested: hit.suggested_bid == null ? null : money(hit.suggested_bid),
        volume: hit.volume ?? null,
        inCampaign: false,
      },
    ];
  });
  return ok({ query, suggested: true, rows });
}
