/**
 * The quick campaign builder (issue 10 section 3): a thin flow over the existing use cases. The
 * steps read suggestions through the one search client (scoped to the team as the product picker
 * is); the last step creates the draft and adds its wallet, products, keywords and categories
 * with createCampaign, updateGeneral, addProducts, addKeywords and addCategory. Nothing is left
 * half-created: when a later use case refuses, the new draft is deleted again and the refusal is
 * returned (ADR 0032).
 */
import { MAX_SEARCH_SIZE } from "~/domain/search-contract";
import { checkPartyMix } from "~/domain/availability";
import { scopeOfTeams } from "~/domain/brand-scope";
import { categoryIdOf, categoryPath, categorySegments } from "~/domain/categories";
import { allowedStrategies, bidLimits, checkBid, coerceStrategy, defaultStrategy } from "~/domain/campaigns/bidding";
import type { Campaign } from "~/domain/campaigns/campaign";
import { centsToInput } from "~/domain/campaigns/editor";
import { withValues } from "~/domain/message";
import { formatMoney } from "~/domain/money";
import type { BidStrategy, CampaignType } from "~/domain/retailer-settings";
import { pickerRows, suggestProducts, SUGGESTION_COUNT, SUGGESTION_POOL, PICKER_QUERY_MAX, PICKER_SIZE, type PickerRow } from "~/domain/campaigns/product-picker";
import { parseKeywordLines } from "~/domain/campaigns/targets";
import { auditActor } from "~/domain/operators";
import { fail, failureMessage, forbidden, ok, type Result } from "~/domain/result";
import { can } from "~/domain/permissions";
import type { Team, User } from "~/domain/types";
import type { QuickCampaignValue } from "~/forms/campaigns/quick";
import { createCampaign, updateBidding, updateGeneral, type CampaignContext } from "~/services/campaigns/campaigns.server";
import { getRetailerSettings } from "~/services/retailer-settings.server";
import { retailerSettings as walletRetailerSettings } from "~/services/wallets.server";
import { addProducts } from "~/services/campaigns/products.server";
import { addCategory, addKeywords } from "~/services/campaigns/keywords.server";
import { fetchSearch } from "~/services/search.server";
import { getStorage } from "~/services/storage.server";

/** The failure title of the builder's reads (a failed read leaves the step usable). */
export const QUICK_FETCH_FAILURE = "quickBuilder:failure.fetch";
/** The failure title of the creation when a later use case refused (the draft was removed). */
export const QUICK_CREATE_FAILURE = "quickBuilder:failure.create";

const FIELDS = ["title", "image_link", "availability", "price", "party", "brand", "categories"];
const MAX_SUGGESTED_KEYWORDS = 12;
const MAX_SUGGESTED_CATEGORIES = 8;

export interface QuickProducts {
  /** Suggested (best sellers of the team's brands), or the hits of what was typed. */
  rows: PickerRow[];
  /** The chosen products' rows (title etc.), in the order chosen. */
  chosen: PickerRow[];
}

/** The products step: the suggestions (or the search's hits) and the products already chosen. */
export async function quickProducts(user: User, team: Team, rawQuery: string, chosenIds: readonly string[]): Promise<Result<QuickProducts>> {
  const query = rawQuery.trim().slice(0, PICKER_QUERY_MAX);
  const found = query
    ? await fetchSearch(user, "product", { query, size: PICKER_SIZE, team: team.id, fields: FIELDS }, QUICK_FETCH_FAILURE)
    : await fetchSearch(user, "product", { size: SUGGESTION_POOL, team: team.id, fields: [...FIELDS, "metrics"] }, QUICK_FETCH_FAILURE);
  if (!found.ok) return found;
  const rows = query ? pickerRows(found.value.hits, {}) : oneParty(suggestProducts(found.value.hits, {}, scopeOfTeams([team]), SUGGESTION_COUNT));
  const chosen = await chosenProducts(user, team, chosenIds);
  if (!chosen.ok) return chosen;
  return ok({ rows, chosen: chosen.value.rows });
}

/** The suggestions are ticked together: those that would mix 1P and 3P with the first ones are left out. */
function oneParty(rows: PickerRow[]): PickerRow[] {
  const kept: PickerRow[] = [];
  for (const row of rows) if (checkPartyMix([...kept.map((k) => k.party), row.party]).ok) kept.push(row);
  return kept;
}

/** The chosen products as the search sees them for this team (others are dropped). */
async function chosenProducts(user: User, team: Team, ids: readonly string[]) {
  if (!ids.length) return ok({ rows: [] as PickerRow[], categories: [] as string[] });
  const found = await fetchSearch(user, "product", { includeIds: [...ids], size: Math.min(ids.length, 100), team: team.id, fields: FIELDS }, QUICK_FETCH_FAILURE);
  if (!found.ok) return found;
  const byId = new Map(found.value.hits.map((h) => [h.id, h]));
  const hits = ids.map((id) => byId.get(id)).filter((h) => !!h);
  return ok({ rows: pickerRows(hits, {}), categories: hits.flatMap((h) => h.categories ?? []) });
}

export interface QuickCategory {
  id: string;
  name: string;
}

/** The keywords step: keyword hits for the chosen products' categories and titles, most searched first. */
export async function suggestedKeywords(user: User, team: Team, ids: readonly string[]): Promise<Result<string[]>> {
  const chosen = await chosenProducts(user, team, ids);
  if (!chosen.ok) return chosen;
  const queries = new Set<string>();
  for (const path of chosen.value.categories) {
    const leaf = categorySegments(path).at(-1);
    if (leaf) queries.add(leaf);
  }
  for (const row of chosen.value.rows) {
    const words = row.title.split(/\s+/).filter((w) => w.length > 2).slice(0, 2).join(" ");
    if (words) queries.add(words);
  }
  const names = new Map<string, number>();
  for (const query of [...queries].slice(0, 8)) {
    const found = await fetchSearch(user, "keyword", { query, size: 4, fields: ["name", "volume"] }, QUICK_FETCH_FAILURE);
    if (!found.ok) return found;
    for (const hit of found.value.hits) if (hit.name && !names.has(hit.name)) names.set(hit.name, hit.volume ?? 0);
  }
  const searched = [...names].sort((a, b) => b[1] - a[1]).map(([name]) => name);
  // Then the products' own words: their titles without brand, sizes and figures ("smart tv led").
  const own = chosen.value.rows.map((row) => {
    const brand = row.brand.toLowerCase();
    return row.title
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => w && w !== brand && !/[0-9"'’]/.test(w))
      .join(" ");
  });
  const out = [...new Set([...searched.map((n) => n.toLowerCase()), ...own.filter(Boolean)])];
  return ok(out.slice(0, MAX_SUGGESTED_KEYWORDS));
}

/** The categories step: the chosen products' categories (each level, the deepest first). */
export async function suggestedCategories(user: User, team: Team, ids: readonly string[]): Promise<Result<QuickCategory[]>> {
  const chosen = await chosenProducts(user, team, ids);
  if (!chosen.ok) return chosen;
  const out = new Map<string, QuickCategory>();
  for (const path of chosen.value.categories) {
    const segments = categorySegments(path);
    for (let n = segments.length; n >= 1 && out.size < MAX_SUGGESTED_CATEGORIES; n--) {
      const own = segments.slice(0, n);
      out.set(categoryIdOf(own), { id: categoryIdOf(own), name: categoryPath(own) });
    }
  }
  return ok([...out.values()]);
}

/**
 * The campaign bid of the first step, as the editor's Bidding offers it: the strategies the type
 * (and the team's account type) allows, each with its limits, the chosen one (or the default)
 * and the bid to show (the typed one, else the chosen strategy's minimum).
 */
export async function quickBidding(team: Team, type: CampaignType, chosen: string | null, typed: string | null, locale: string) {
  const settings = await getRetailerSettings();
  const currency = walletRetailerSettings().currency;
  const money = (cents: number) => formatMoney(cents, currency, locale);
  // None chosen yet: the editor's default (CPC where allowed), as a new campaign gets.
  const strategy = chosen ? coerceStrategy(settings, type, team.account_type, chosen) : defaultStrategy(settings, type, team.account_type);
  const strategies = allowedStrategies(settings, type, team.account_type).map((s) => {
    const l = bidLimits(settings, type, s);
    return { strategy: s, min: money(l.minCents), max: money(l.maxCents) };
  });
  const bid = typed ?? centsToInput(bidLimits(settings, type, strategy).minCents);
  return { strategy, strategies, bid };
}

/** The first step's campaign bid against its strategy's limits (the editor's messages), or null. */
export async function checkQuickBid(team: Team, type: CampaignType, chosen: BidStrategy, cents: number, locale: string): Promise<string | null> {
  const settings = await getRetailerSettings();
  const strategy = coerceStrategy(settings, type, team.account_type, chosen);
  if (strategy !== chosen) return "campaigns:form.strategyInvalid";
  if (strategy === "FIXED") return null;
  const result = checkBid(cents, bidLimits(settings, type, strategy));
  if (result.ok) return null;
  return result.limitCents === undefined ? result.reason : withValues(result.reason, { 0: formatMoney(result.limitCents, walletRetailerSettings().currency, locale) });
}

/**
 * Names of categories by id (the review step lists the ticked ones by name), and which of the
 * ids looked up the catalog does not know (an id edited into the URL): the draft drops those
 * rather than offer their raw id as a choice. Null when the search failed (nothing is dropped).
 */
export async function categoryNames(user: User, ids: readonly string[]): Promise<{ names: Map<string, string>; unknown: Set<string> } | null> {
  if (!ids.length) return { names: new Map(), unknown: new Set() };
  const asked = [...new Set(ids)].slice(0, MAX_SEARCH_SIZE);
  const found = await fetchSearch(user, "category", { includeIds: asked, size: asked.length, fields: ["name", "hierarchies"] }, QUICK_FETCH_FAILURE);
  if (!found.ok) return null;
  const names = new Map(found.value.hits.map((h) => [h.id, h.hierarchies?.length ? h.hierarchies.join(" > ") : (h.name ?? h.id)]));
  return { names, unknown: new Set(asked.filter((id) => !names.has(id))) };
}

/**
 * Creates the draft with its wallet, products, keywords and categories through the existing use
 * cases, in one go: when one refuses, the draft is deleted again and its refusal returned.
 */
export async function createQuickCampaign(user: User, team: Team, value: QuickCampaignValue, locale: string): Promise<Result<Campaign>> {
  if (!can(user, "Campaign", "create", { teamId: team.id })) return forbidden();
  const created = await createCampaign(user, team, { intent: "create-campaign", name: value.name, startDay: value.startDay, endDay: null, campaignType: value.campaignType }, { quick: true });
  if (!created.ok) return created;
  const ctx: CampaignContext = { campaign: created.value, team };
  const warnings: string[] = [];
  const step = async (run: () => Promise<Result<Campaign>>): Promise<Result<Campaign> | null> => {
    const outcome = await run();
    if (!outcome.ok) return outcome;
    ctx.campaign = outcome.value;
    warnings.push(...(outcome.warnings ?? []));
    return null;
  };
  const keywords = parseKeywordLines(value.keywords).keywords;
  const steps: (() => Promise<Result<Campaign>>)[] = [];
  // The campaign's bid and strategy first, as the editor's Bidding saves them (limits checked there).
  steps.push(() =>
    updateBidding(user, ctx, { intent: "update-bidding", version: ctx.campaign.version, bidStrategy: value.bidStrategy, bid: value.campaignBid, bid_search: null, bid_plp: null, bid_pdp: null, bid_hub: null, bid_home: null }, locale),
  );
  if (value.wallet) {
    steps.push(() => updateGeneral(user, ctx, { intent: "update-general", version: ctx.campaign.version, name: value.name, startDay: value.startDay, endDay: null, wallet: value.wallet }, locale));
  }
  if (value.products.length) steps.push(async () => { const r = await addProducts(user, ctx, { ids: value.products, version: ctx.campaign.version }); return r.ok ? ok(r.value, r.warnings) : r; });
  if (keywords.length) steps.push(() => addKeywords(user, ctx, { version: ctx.campaign.version, keywords, bid: value.bid, offers: [] }, locale));
  for (const categoryId of value.categories) {
    steps.push(() => addCategory(user, ctx, { version: ctx.campaign.version, kind: "category", categoryId, placement: "plp", bid: value.bid, offers: [] }, locale));
  }
  for (const categoryId of value.productCategories) {
    steps.push(() => addCategory(user, ctx, { version: ctx.campaign.version, kind: "productCategory", categoryId, placement: "pdp", bid: value.bid, offers: [] }, locale));
  }
  for (const run of steps) {
    const refused = await step(run);
    if (refused && !refused.ok) {
      // Nothing half-created: the draft goes again (to deleted_campaign, as a user's deletion would).
      await getStorage().campaigns.delete(ctx.campaign.id, auditActor(user), new Date());
      const field = refused.field === "bid" || refused.field === "keywords" ? refused.field : undefined;
      return fail(refused.kind, failureMessage(refused), { field, details: [QUICK_CREATE_FAILURE, ...(refused.details ?? [])] });
    }
  }
  return ok(ctx.campaign, warnings);
}
