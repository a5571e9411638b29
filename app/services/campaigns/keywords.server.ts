/**
 * A campaign's keyword, category and product-category targets and its negative keywords (issue
 * 10 section 2): the lists as the Keywords and Categories sections show them (floor price and
 * suggested bid beside each bid, from the search client; statistics of the period from the
 * metrics client's targeting variant), and each change, applied with the rules of
 * app/domain/campaigns/targets.ts and saved through TargetsRepo.change (rights, version, counts,
 * audit and publication in one transaction). Auto targeting: pruneRemovedProducts after the
 * Products section removes products, refreshAutoTargets for the product categories of the
 * campaign's products.
 */
import { centsToInput } from "~/domain/campaigns/editor";
import { parseKeywordCsvInSteps, type KeywordCsvResult } from "~/domain/campaigns/keyword-csv";
import { decodeTextFile } from "~/domain/text-file";
import { yieldToEventLoop } from "~/utils/cooperative";
import type { CampaignHistoryAction } from "~/domain/campaigns/history-fields";
import { auditActor } from "~/domain/operators";
import { categoryNodes, categoryUrl, keywordKey } from "~/domain/categories";
import { floorPriceOf, suggestBids, targetBidLimits } from "~/domain/demand";
import { withValues } from "~/domain/message";
import { formatMoney, type Cents } from "~/domain/money";
import { derive, type Derived } from "~/domain/metrics/metrics";
import type { Period } from "~/domain/metrics/periods";
import { fail, failureMessage, notFound, ok, type Failure, type Result } from "~/domain/result";
import type { FloorPrices, RetailerSettings } from "~/domain/retailer-settings";
import {
  applyTargetMinBid,
  belowFloorFromCounts,
  checkTargetBid,
  exceedsKeywordWarning,
  KEYWORD_WARNING_THRESHOLD,
  MAX_CATEGORIES,
  MAX_KEYWORDS,
  newTarget,
  offersWithin,
  pruneRemovedProducts,
  targetPlacement,
  type CampaignTarget,
  type ListedTarget,
  type ParsedKeyword,
  type TargetKind,
  type Targets,
} from "~/domain/campaigns/targets";
import { orderedOffers } from "~/domain/campaigns/products";
import type { Campaign, CampaignData } from "~/domain/campaigns/campaign";
import { hasOperatorRights } from "~/domain/permissions";
import type { User } from "~/domain/types";
import { ConflictError, NotFoundError, type Patch, type TargetChange, type TargetPage } from "~/storage/port";
import { editRefusal, publisherFor, type CampaignContext } from "~/services/campaigns/campaigns.server";
import { fetchMetrics } from "~/services/metrics.server";
import { fetchSearch } from "~/services/search.server";
import { getEnv } from "~/services/env.server";
import { getFloorPrices, getRetailerSettings } from "~/services/retailer-settings.server";
import { getStorage } from "~/services/storage.server";
import { stepClock } from "~/utils/cooperative";
import { retailerSettings as walletRetailerSettings } from "~/services/wallets.server";

/** The failure titles of spec section 8 (i18n keys of the campaignKeywords namespace). */
export const TARGET_FAILURE = {
  fetchKeywords: "campaignKeywords:failure.fetchKeywords",
  fetchCategories: "campaignKeywords:failure.fetchCategories",
  fetchProductCategories: "campaignKeywords:failure.fetchProductCategories",
  keyword: "campaignKeywords:failure.keyword",
  keywordList: "campaignKeywords:failure.keywordList",
  category: "campaignKeywords:failure.category",
  categoryList: "campaignKeywords:failure.categoryList",
  productCategory: "campaignKeywords:failure.productCategory",
  noFetchedCampaign: "campaignKeywords:failure.noFetchedCampaign",
} as const;
export type TargetFailureTitle = (typeof TARGET_FAILURE)[keyof typeof TARGET_FAILURE];

export type TargetFailure = Failure & { failure: TargetFailureTitle; message: string };
export type TargetOutcome<T = Campaign> = { ok: true; value: T; warnings: string[] } | TargetFailure;

function refusedAs(failure: TargetFailureTitle, result: Failure): TargetFailure {
  return { ...result, failure, message: failureMessage(result) };
}

/** The title of one target's change, or of a list's. */
export function titleOf(kind: TargetKind, list: boolean): TargetFailureTitle {
  if (kind === "keyword") return list ? TARGET_FAILURE.keywordList : TARGET_FAILURE.keyword;
  if (kind === "category") return list ? TARGET_FAILURE.categoryList : TARGET_FAILURE.category;
  return TARGET_FAILURE.productCategory;
}

function money(cents: number, locale: string): string {
  return formatMoney(cents, walletRetailerSettings().currency, locale);
}

interface BidContext {
  settings: RetailerSettings;
  floors: FloorPrices;
  limits: { minCents: Cents; maxCents: Cents };
}

async function bidContext(): Promise<BidContext> {
  const settings = await getRetailerSettings();
  return { settings, floors: await getFloorPrices(), limits: targetBidLimits(settings) };
}

function floorOf(kind: TargetKind, key: string, ctx: BidContext): Cents | null {
  return floorPriceOf(kind === "keyword" ? { kind: "keyword", key } : { kind: "category", id: key }, ctx.floors, ctx.settings);
}

/** floorOf for keywords, from a map of the retailer's keyword floors built once. */
function keywordFloors(ctx: BidContext): (key: string) => Cents | null {
  if (!ctx.settings.floorPrices) return () => null;
  const own = new Map<string, Cents>();
  for (const f of ctx.floors.keywords) if (!own.has(f.keyword)) own.set(f.keyword, f.cents);
  return (key) => own.get(key) ?? targetBidLimits(ctx.settings).minCents;
}

/** A bid refused on its field: 'Minimum allowed bid: {0}' (the floor or the minimum) / 'Maximum allowed bid: {0}'. */
function bidRefusal(bid: Cents, floor: Cents | null, ctx: BidContext, locale: string): string | null {
  const check = checkTargetBid(bid, ctx.limits, floor);
  if (check.ok) return null;
  return check.limitCents === undefined ? check.reason : withValues(check.reason, { 0: money(check.limitCents, locale) });
}

async function save(
  user: User,
  ctx: CampaignContext,
  change: TargetChange,
  version: number,
  title: TargetFailureTitle,
  options: { action?: CampaignHistoryAction; patch?: Patch<CampaignData> } = {},
  unknownTarget?: () => TargetFailure,
): Promise<TargetOutcome> {
  const refusal = editRefusal(user, ctx);
  if (refusal) return refusedAs(title, refusal);
  const settings = await getRetailerSettings();
  try {
    const { campaign } = await getStorage().targets.change(ctx.campaign.id, change, auditActor(user), {
      expectVersion: version,
      action: options.action ?? "update",
      publish: publisherFor(ctx.team, settings),
      patch: options.patch,
    });
    const count = campaign.counts?.keywords ?? 0;
    const warnings = exceedsKeywordWarning(count) ? [withValues("campaignKeywords:warnings.tooMany", { count, max: KEYWORD_WARNING_THRESHOLD })] : [];
    return { ok: true, value: campaign, warnings };
  } catch (error) {
    if (error instanceof UnknownTargetError && unknownTarget) return unknownTarget();
    // A row's change: a target gone (or its campaign) is said first, as when it was read before the change.
    if (unknownTarget && (error instanceof ConflictError || error instanceof NotFoundError)) {
      const key = change.kinds[0] && Object.keys(change.kinds[0].upsert ?? {})[0];
      if (key !== undefined && !(await getStorage().targets.get(ctx.campaign.id, change.kinds[0]!.kind, [key]))[key]) return unknownTarget();
    }
    if (error instanceof ConflictError) return refusedAs(title, fail("conflict", "errors.conflict"));
    if (error instanceof NotFoundError) return refusedAs(title, notFound());
    console.error(JSON.stringify({ level: "error", msg: "Targets save failed", campaignId: ctx.campaign.id, error: error instanceof Error ? error.message : String(error) }));
    return refusedAs(title, fail("invalid", hasOperatorRights(user.claims) ? "campaigns:errors.publishError" : "errors.errorOccurred"));
  }
}

/** The one edit rule (rights and status), refused under the change's title. */
export function targetsDenied(user: User, ctx: CampaignContext, title: TargetFailureTitle): TargetFailure | null {
  const refusal = editRefusal(user, ctx);
  return refusal ? refusedAs(title, refusal) : null;
}

/** The offers chosen, kept to the campaign's products; none chosen (or all of them): every product (null). */
function chosenOffers(ctx: CampaignContext, offers: readonly string[]): string[] | null {
  const products = Object.keys(ctx.campaign.offers ?? {});
  const kept = offersWithin([...new Set(offers)], new Set(products));
  if (!kept || kept.length === 0 || kept.length === products.length) return null;
  return kept;
}

// ---------------------------------------------------------------------------------------------
// Keywords

export interface AddKeywordsInput {
  version: number;
  keywords: ParsedKeyword[];
  bid: Cents | null;
  offers: string[];
  /** 'Apply min bid': a bid under a keyword's floor is raised to it (the rest saved as typed). */
  applyMin?: boolean;
  /** The keywords become the list (a CSV import's 'replace'): the others are removed. */
  replace?: boolean;
}

/**
 * Adds keywords (typed, or the good lines of a CSV): new ones with the bid and offers given,
 * those present get the bid and offers too. Refused whole when the bid sits under a keyword's
 * floor (unless 'Apply min bid', which raises it for those keywords) or past MAX_KEYWORDS.
 */
export async function addKeywords(user: User, ctx: CampaignContext, input: AddKeywordsInput, locale: string, title: TargetFailureTitle = TARGET_FAILURE.keywordList): Promise<TargetOutcome<Campaign> & { added?: number; updated?: number }> {
  const denied = targetsDenied(user, ctx, title);
  if (denied) return denied;
  if (!input.keywords.length) return refusedAs(title, fail("invalid", "campaignKeywords:errors.noKeywords", { field: "keywords" }));
  const bids = await bidContext();
  // The stored keywords are read before the change only when the list could pass its limit: the
  // campaign's count says so (a stale one is refused by the version check). Otherwise the change
  // merges each keyword with the one stored, in its transaction, which reads their chunks anyway.
  const known = ctx.campaign.counts?.keywords ?? 0;
  const mayExceed = input.replace ? input.keywords.length > MAX_KEYWORDS : known + input.keywords.length > MAX_KEYWORDS;
  if (mayExceed) {
    // Those of the keywords already stored (their chunks only, read in steps).
    const existing = input.replace ? {} : await getStorage().targets.get(ctx.campaign.id, "keyword", input.keywords.map((k) => k.key));
    const after = input.replace ? input.keywords.length : known + input.keywords.filter((k) => !Object.hasOwn(existing, k.key)).length;
    if (after > MAX_KEYWORDS) {
      return refusedAs(title, fail("invalid", withValues("campaignKeywords:errors.tooManyKeywords", { max: MAX_KEYWORDS }), { field: "keywords" }));
    }
  }
  const offers = chosenOffers(ctx, input.offers);
  const now = new Date();
  const iso = now.toISOString();
  const upsert: Targets = {};
  let highestFloor: Cents | null = null;
  // Each keyword's floor from a map (a list of 100,000 keywords against up to 500 floors), and
  // the event loop let through every few milliseconds (ADR 43).
  const floorOfKeyword = keywordFloors(bids);
  const clock = stepClock();
  for (const k of input.keywords) {
    if (clock.due()) await clock.pause();
    const floor = floorOfKeyword(k.key);
    let bid = input.bid;
    if (bid !== null) {
      if (input.applyMin) bid = applyTargetMinBid(bid, bids.limits, floor);
      else if (bidRefusal(bid, floor, bids, locale)) {
        const check = checkTargetBid(bid, bids.limits, floor);
        if (!check.ok && check.reason === "campaigns:bidding.maxBid") return refusedAs(title, fail("invalid", bidRefusal(bid, floor, bids, locale)!, { field: "bid" }));
        highestFloor = Math.max(highestFloor ?? 0, Math.max(bids.limits.minCents, floor ?? 0));
      }
    }
    upsert[k.key] = newTarget({ name: k.name, bid, offers, url: null }, iso);
  }
  if (highestFloor !== null) {
    return refusedAs(title, fail("invalid", withValues("campaigns:bidding.minBid", { 0: money(highestFloor, locale) }), { field: "bid", details: ["campaignKeywords:errors.applyMinOffer"] }));
  }
  // A keyword already there keeps its name, state and dates; it takes the bid (when one is given) and the offers.
  // Those already there are noted by key (a change computed again notes each once more, not twice).
  const present = new Set<string>();
  const merge = (key: string, proposed: CampaignTarget, current: CampaignTarget | undefined): CampaignTarget => {
    if (!current) {
      present.delete(key);
      return proposed;
    }
    present.add(key);
    return { ...current, bid: proposed.bid ?? current.bid, offers, updated: iso };
  };
  const outcome = await save(user, ctx, { kinds: [{ kind: "keyword", upsert, replace: input.replace, merge }] }, input.version, title, { action: input.applyMin ? "apply-min-bid" : "update" });
  if (!outcome.ok) return outcome;
  const added = Object.keys(upsert).length - present.size;
  return { ...outcome, added, updated: input.keywords.length - added };
}

export interface UpdateTargetInput {
  version: number;
  kind: TargetKind;
  key: string;
  on: boolean;
  bid: Cents | null;
  offers: string[];
  placement?: string | null;
  applyMin?: boolean;
  /** The offers stay as they are (a row's quick form, which does not list the products). */
  keepOffers?: boolean;
}

/** A row's change of a target no longer stored (removed meanwhile): thrown from its merge, so nothing is written. */
class UnknownTargetError extends Error {}

/**
 * One target's on/off, bid, offers (and a category's placement). The target is merged in the
 * change's own transaction (its chunk read once, there); it is read before only to tell a refused
 * bid of a target that is gone from 'unknown target', as the first check.
 */
export async function updateTarget(user: User, ctx: CampaignContext, input: UpdateTargetInput, locale: string): Promise<TargetOutcome> {
  const title = titleOf(input.kind, false);
  const denied = targetsDenied(user, ctx, title);
  if (denied) return denied;
  const unknown = () => refusedAs(title, fail("invalid", "campaignKeywords:errors.unknownTarget"));
  const bids = await bidContext();
  const floor = floorOf(input.kind, input.key, bids);
  let bid = input.bid;
  if (bid !== null) {
    if (input.applyMin) bid = applyTargetMinBid(bid, bids.limits, floor);
    const refused = bidRefusal(bid, floor, bids, locale);
    if (refused) {
      if (!(await getStorage().targets.get(ctx.campaign.id, input.kind, [input.key]))[input.key]) return unknown();
      return refusedAs(title, fail("invalid", refused, { field: "bid", details: refused.startsWith("campaigns:bidding.minBid") ? ["campaignKeywords:errors.applyMinOffer"] : [] }));
    }
  }
  const now = new Date();
  const offers = input.keepOffers ? null : chosenOffers(ctx, input.offers);
  const merge = (_key: string, _proposed: CampaignTarget, current: CampaignTarget | undefined): CampaignTarget => {
    if (!current) throw new UnknownTargetError();
    return {
      ...current,
      on: input.on,
      bid,
      offers: input.keepOffers ? current.offers : offers,
      placement: input.kind === "keyword" ? current.placement : targetPlacement(input.kind, input.placement ?? current.placement),
      // A target changed by hand is the user's: auto targeting no longer deletes it.
      auto: false,
      updated: now.toISOString(),
    };
  };
  // The proposed target only names the key: the merge makes it from the stored one.
  const upsert = { [input.key]: newTarget({ name: input.key, bid }, now) };
  return save(user, ctx, { kinds: [{ kind: input.kind, upsert, merge }] }, input.version, title, { action: input.applyMin ? "apply-min-bid" : "update" }, unknown);
}

/** Removes targets (one, or those selected). */
export async function removeTargets(user: User, ctx: CampaignContext, input: { version: number; kind: TargetKind; keys: string[] }): Promise<TargetOutcome> {
  const title = titleOf(input.kind, input.keys.length > 1);
  const denied = targetsDenied(user, ctx, title);
  if (denied) return denied;
  return save(user, ctx, { kinds: [{ kind: input.kind, remove: input.keys }] }, input.version, title);
}

/** 'Apply min bid' on every target of the kinds: bids under their floor (or the minimum) raised to it. */
export async function applyMinBidToTargets(user: User, ctx: CampaignContext, input: { version: number; kinds: TargetKind[] }): Promise<TargetOutcome> {
  const title = titleOf(input.kinds[0] ?? "keyword", true);
  const denied = targetsDenied(user, ctx, title);
  if (denied) return denied;
  const bids = await bidContext();
  const now = new Date().toISOString();
  const rule = (kind: TargetKind) => (all: Targets) => {
    const upsert: Targets = {};
    for (const [key, t] of Object.entries(all)) {
      if (t.bid === null) continue;
      const to = applyTargetMinBid(t.bid, bids.limits, floorOf(kind, key, bids));
      if (to !== t.bid) upsert[key] = { ...t, bid: to, updated: now };
    }
    return { upsert, remove: [] };
  };
  return save(user, ctx, { kinds: input.kinds.map((kind) => ({ kind, rewrite: rule(kind) })) }, input.version, title, { action: "apply-min-bid" });
}

/** Negative keywords: the whole list as typed (one per line). */
export async function saveNegativeKeywords(user: User, ctx: CampaignContext, input: { version: number; keys: string[] }): Promise<TargetOutcome> {
  const title = TARGET_FAILURE.keywordList;
  const denied = targetsDenied(user, ctx, title);
  if (denied) return denied;
  return save(user, ctx, { kinds: [] }, input.version, title, { patch: { negativeKeywords: input.keys } });
}

// ---------------------------------------------------------------------------------------------
// Categories and product categories

export interface AddCategoryInput {
  version: number;
  kind: "category" | "productCategory";
  categoryId: string;
  placement: string | null;
  bid: Cents | null;
  offers: string[];
  applyMin?: boolean;
}

/** Adds a catalog category (or product category), found through the search client. */
export async function addCategory(user: User, ctx: CampaignContext, input: AddCategoryInput, locale: string): Promise<TargetOutcome> {
  const title = titleOf(input.kind, false);
  const denied = targetsDenied(user, ctx, title);
  if (denied) return denied;
  const found = await fetchSearch(user, "category", { includeIds: [input.categoryId], size: 1, fields: ["name", "hierarchies", "url", "level"] }, title);
  if (!found.ok) return refusedAs(title, found);
  const hit = found.value.hits.find((h) => h.id === input.categoryId);
  if (!hit) return refusedAs(title, fail("invalid", "campaignKeywords:errors.unknownCategory"));
  const total = ctx.campaign.counts ? (input.kind === "category" ? ctx.campaign.counts.categories + ctx.campaign.counts.hubs : ctx.campaign.counts.productCategories) : 0;
  if (total >= MAX_CATEGORIES) return refusedAs(title, fail("invalid", withValues("campaignKeywords:errors.tooManyCategories", { max: MAX_CATEGORIES })));
  const bids = await bidContext();
  const floor = floorOf(input.kind, input.categoryId, bids);
  let bid = input.bid;
  if (bid !== null) {
    if (input.applyMin) bid = applyTargetMinBid(bid, bids.limits, floor);
    const refused = bidRefusal(bid, floor, bids, locale);
    if (refused) return refusedAs(title, fail("invalid", refused, { field: "bid", details: refused.startsWith("campaigns:bidding.minBid") ? ["campaignKeywords:errors.applyMinOffer"] : [] }));
  }
  const name = hit.hierarchies?.length ? hit.hierarchies.join(" > ") : (hit.name ?? input.categoryId);
  const target = newTarget(
    { name, url: hit.url ?? categoryUrl(getEnv().RETAILER_SITE_URL, input.categoryId), bid, offers: chosenOffers(ctx, input.offers), placement: targetPlacement(input.kind, input.placement) },
    new Date(),
  );
  return save(user, ctx, { kinds: [{ kind: input.kind, upsert: { [input.categoryId]: target } }] }, input.version, title, { action: input.applyMin ? "apply-min-bid" : "update" });
}

/** Switches auto targeting on or off; on, the product categories of the campaign's products follow them. */
export async function setAutoTargeting(user: User, ctx: CampaignContext, input: { version: number; on: boolean }): Promise<TargetOutcome> {
  const title = TARGET_FAILURE.productCategory;
  const denied = targetsDenied(user, ctx, title);
  if (denied) return denied;
  if (!input.on) return save(user, ctx, { kinds: [] }, input.version, title, { patch: { autoTargeting: false } });
  return refreshAutoTargets(user, ctx, input.version, true);
}

/**
 * Auto targeting's refresh: one product-category target per category of the campaign's products
 * (the deepest level of each product's first category path), advertising those products;
 * auto-created targets no product is in any more are deleted. Dates: created (first time),
 * updated (when targets changed), refreshed (each time).
 */
export async function refreshAutoTargets(user: User, ctx: CampaignContext, version: number, switchOn = false): Promise<TargetOutcome> {
  const title = TARGET_FAILURE.productCategory;
  const denied = targetsDenied(user, ctx, title);
  if (denied) return denied;
  const ids = orderedOffers(ctx.campaign.offers ?? {}).map((o) => o.id);
  const products = ids.length ? await getStorage().catalog.getMany(ids) : [];
  const byCategory = new Map<string, { name: string; products: string[] }>();
  for (const p of products) {
    const nodes = categoryNodes(p.categories?.[0] ?? "");
    const leaf = nodes[nodes.length - 1];
    if (!leaf) continue;
    const entry = byCategory.get(leaf.id) ?? { name: leaf.segments.join(" > "), products: [] };
    entry.products.push(p.id);
    byCategory.set(leaf.id, entry);
  }
  const now = new Date();
  const iso = now.toISOString();
  const site = getEnv().RETAILER_SITE_URL;
  let changed = false;
  const rewrite = (all: Targets) => {
    const upsert: Targets = {};
    const remove: string[] = [];
    for (const [key, t] of Object.entries(all)) if (t.auto && !byCategory.has(key)) remove.push(key);
    for (const [id, entry] of byCategory) {
      const current = all[id];
      if (current && !current.auto) continue; // the user's own target of that category stays as it is
      const offers = [...entry.products].sort();
      if (current && JSON.stringify(current.offers) === JSON.stringify(offers)) continue;
      upsert[id] = current ? { ...current, offers, updated: iso } : newTarget({ name: entry.name, url: categoryUrl(site, id), offers, placement: "pdp", auto: true }, now);
    }
    changed = remove.length > 0 || Object.keys(upsert).length > 0;
    return { upsert, remove };
  };
  const auto = ctx.campaign.auto ?? { created: null, updated: null, refreshed: null };
  // The dates are known once the rule has run: the patch reads them lazily through a getter.
  const patch = {
    autoTargeting: switchOn ? true : (ctx.campaign.autoTargeting ?? true),
    get auto() {
      return { created: auto.created ?? iso, updated: changed ? iso : auto.updated, refreshed: iso };
    },
  };
  return save(user, ctx, { kinds: [{ kind: "productCategory", rewrite }] }, version, title, { action: "auto-targeting", patch });
}

/**
 * Auto targeting after products left the campaign (the Products section's removal): every
 * target's offers lose them; a target left with no product is switched off, or deleted when
 * auto-created. Runs after the removal was saved; a failure is logged (the offers the ad server
 * reads are always within the campaign's published products).
 */
export async function pruneTargetsOfRemovedProducts(user: User, campaign: Campaign, removed: readonly string[]): Promise<void> {
  if (!removed.length || !(campaign.counts && (campaign.counts.keywords || campaign.counts.categories || campaign.counts.hubs || campaign.counts.productCategories))) return;
  const now = new Date();
  const remaining = Object.keys(campaign.offers ?? {}).length;
  const rule = (all: Targets) => {
    const r = pruneRemovedProducts(all, removed, remaining, now);
    return { upsert: r.changed, remove: r.deleted };
  };
  try {
    const team = await getStorage().teams.getOne(campaign.team);
    const settings = await getRetailerSettings();
    const kinds = (["keyword", "category", "productCategory"] as const).map((kind) => ({ kind, rewrite: rule }));
    const auto = campaign.auto ?? { created: null, updated: null, refreshed: null };
    await getStorage().targets.change(campaign.id, { kinds }, auditActor(user), {
      action: "auto-targeting",
      publish: publisherFor(team, settings),
      patch: { auto: { ...auto, updated: now.toISOString() } },
    });
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "Auto targeting failed", campaignId: campaign.id, error: error instanceof Error ? error.message : String(error) }));
  }
}

// ---------------------------------------------------------------------------------------------
// What the sections show

export const TARGET_PAGE_SIZE = 100;

export interface TargetRow {
  key: string;
  name: string;
  url: string | null;
  on: boolean;
  bid: string | null;
  bidInput: string;
  bidCents: Cents | null;
  placement: CampaignTarget["placement"];
  auto: boolean;
  /** Product ids advertised; null: every product of the campaign. */
  offers: string[] | null;
  floor: string | null;
  floorCents: Cents | null;
  suggested: string | null;
  belowFloor: boolean;
  figures: Derived | null;
}

/** The figures of each keyword, category and product category for the period (the targeting variant of /metrics). */
async function targetFigures(user: User, ctx: CampaignContext, period: Period, title: string): Promise<Result<Record<TargetKind, Map<string, Derived>>>> {
  const response = await fetchMetrics(
    user,
    { dateFrom: period.from, dateTo: period.to, filters: { terms: { campaign: [ctx.campaign.id] } }, groups: { terms: ["category"], size: 1000 } },
    title,
  );
  if (!response.ok) return response;
  const of = (rows: { key: string }[] | undefined) => new Map((rows ?? []).map((row) => [row.key, derive(row as never)]));
  return ok({ keyword: of(response.value.keyword), category: of(response.value.category), productCategory: of(response.value.productCategory) });
}

export interface TargetsSection {
  rows: TargetRow[];
  total: number;
  shown: number;
  page: number;
  pages: number;
  query: string;
  belowFloor: number;
  products: { id: string; title: string }[];
  /** Failures of the sources beside the list (search, statistics): the list still shows. */
  notices: string[];
  statisticsFailed: boolean;
}

/** One kind's targets for the section: filtered by the words typed, a page of them, with floors, suggestions and figures. */
export async function targetsSection(
  user: User,
  ctx: CampaignContext,
  kind: TargetKind,
  input: { query: string; page: number; period: Period },
  locale: string,
): Promise<Result<TargetsSection> & { failure?: TargetFailureTitle }> {
  const title = kind === "keyword" ? TARGET_FAILURE.fetchKeywords : kind === "category" ? TARGET_FAILURE.fetchCategories : TARGET_FAILURE.fetchProductCategories;
  const storage = getStorage();
  const q = keywordKey(input.query);
  let shown: TargetPage;
  let belowFloor: number;
  let pages: number;
  let page: number;
  const bids = await bidContext();
  try {
    // One page read from the kind's sorted view (ADR 43); a page past the last shows the last.
    const read = (p: number) => storage.targets.page(ctx.campaign.id, kind, { query: q, offset: (p - 1) * TARGET_PAGE_SIZE, limit: TARGET_PAGE_SIZE });
    page = Math.max(1, input.page);
    shown = await read(page);
    pages = Math.max(1, Math.ceil(shown.total / TARGET_PAGE_SIZE));
    if (page > pages) shown = await read((page = pages));
    belowFloor = await countBelowFloor(ctx.campaign.id, kind, shown.bidCounts, bids);
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: title, campaignId: ctx.campaign.id, error: error instanceof Error ? error.message : String(error) }));
    return { ...fail("unavailable", title, { details: ["errors.errorOccurred"] }), failure: title };
  }
  const all: Record<string, ListedTarget> = Object.fromEntries(shown.items.map((i) => [i.key, i.target]));
  const shownKeys = shown.items.map((i) => i.key);
  const notices: string[] = [];
  // Floors and suggestions from the search client (as a retailer's service would give them).
  const hits = new Map<string, { floor: Cents | null; suggested: Cents | null }>();
  if (shownKeys.length) {
    const found = await fetchSearch(
      user,
      kind === "keyword" ? "keyword" : "category",
      { includeIds: shownKeys, size: Math.min(100, shownKeys.length), fields: ["floor_price", "suggested_bid"], ...(kind === "productCategory" ? { page_type: "pdp" as const } : {}) },
      title,
    );
    if (found.ok) for (const h of found.value.hits) hits.set(h.id, { floor: h.floor_price ?? null, suggested: h.suggested_bid ?? null });
    else notices.push(found.reason);
  }
  const figures = shownKeys.length ? await targetFigures(user, ctx, input.period, title) : ok(null);
  const products = orderedOffers(ctx.campaign.offers ?? {}).map((o) => ({ id: o.id, title: o.title || o.id }));
  const productSet = new Set(products.map((p) => p.id));
  const rows = shownKeys.map((key): TargetRow => {
    const t = all[key]!;
    const localFloor = floorOf(kind, key, bids);
    const hit = hits.get(key);
    const floor = hit ? (hit.floor ?? localFloor) : localFloor;
    const suggested = hit?.suggested ?? suggestBids({ floorCents: localFloor, observedCpcCents: null, limits: bids.limits }).suggested_bid;
    return {
      key,
      name: t.name,
      url: t.url,
      on: t.on,
      bid: t.bid === null ? null : money(t.bid, locale),
      bidInput: centsToInput(t.bid),
      bidCents: t.bid,
      placement: t.placement,
      auto: t.auto,
      offers: offersWithin(t.offers, productSet),
      floor: floor === null ? null : money(floor, locale),
      floorCents: floor,
      suggested: bids.settings.suggestedBids ? money(suggested, locale) : null,
      belowFloor: t.bid !== null && applyTargetMinBid(t.bid, bids.limits, localFloor) !== t.bid,
      figures: figures.ok && figures.value ? (figures.value[kind].get(key) ?? null) : null,
    };
  });
  return ok({ rows, total: shown.total, shown: rows.length, page, pages, query: input.query, belowFloor, products, notices, statisticsFailed: !figures.ok });
}

/**
 * How many targets of a kind have their own bid under their floor (or the minimum bid). A
 * keyword's floor is the minimum unless the retailer set one for it: the counts of bids kept with
 * the sorted view say how many bids sit under the minimum, and only the keywords with a floor of
 * their own are read (their chunks). Categories inherit floors along their lineage and are few
 * (MAX_CATEGORIES): read and checked one by one, as before.
 */
async function countBelowFloor(campaignId: string, kind: TargetKind, bidCounts: Record<string, number>, bids: BidContext): Promise<number> {
  if (kind === "keyword") {
    const ownFloors = new Map<string, Cents>(bids.settings.floorPrices ? bids.floors.keywords.map((f) => [f.keyword, f.cents]) : []);
    const withOwnFloor = ownFloors.size ? await getStorage().targets.get(campaignId, kind, [...ownFloors.keys()]) : {};
    const counted = belowFloorFromCounts(bidCounts, bids.limits, ownFloors, withOwnFloor);
    if (counted !== null) return counted;
  }
  let below = 0;
  for (const [key, t] of Object.entries(await getStorage().targets.list(campaignId, kind))) {
    if (t.bid !== null && applyTargetMinBid(t.bid, bids.limits, floorOf(kind, key, bids)) !== t.bid) below++;
  }
  return below;
}

/** The campaign's counts and auto-targeting state, and its negative keywords, for the sections' headers. */
export function targetingSummary(campaign: Campaign) {
  const counts = { keywords: 0, categories: 0, hubs: 0, productCategories: 0, ...campaign.counts };
  return {
    counts,
    tooManyKeywords: exceedsKeywordWarning(counts.keywords),
    keywordThreshold: KEYWORD_WARNING_THRESHOLD,
    negativeKeywords: campaign.negativeKeywords ?? [],
    autoTargeting: campaign.autoTargeting ?? false,
    auto: campaign.auto ?? null,
  };
}

/** Category hits for the add form's search (a GET form without JavaScript). */
export async function searchCategoriesToAdd(user: User, kind: "category" | "productCategory", query: string, locale: string) {
  const title = kind === "category" ? TARGET_FAILURE.fetchCategories : TARGET_FAILURE.fetchProductCategories;
  if (!query.trim()) return ok([] as { id: string; name: string; level: number | null; floor: string | null; suggested: string | null; volume: number | null }[]);
  const found = await fetchSearch(user, "category", { query, size: 10, fields: ["name", "hierarchies", "level", "floor_price", "suggested_bid", "volume"], ...(kind === "productCategory" ? { page_type: "pdp" as const } : {}) }, title);
  if (!found.ok) return found;
  return ok(
    found.value.hits.map((h) => ({
      id: h.id,
      name: h.hierarchies?.length ? h.hierarchies.join(" > ") : (h.name ?? h.id),
      level: h.level ?? null,
      floor: h.floor_price == null ? null : money(h.floor_price, locale),
      suggested: h.suggested_bid == null ? null : money(h.suggested_bid, locale),
      volume: h.volume ?? null,
    })),
  );
}

/**
 * A keyword CSV file as sent: UTF-8, or UTF-16 with its mark (a spreadsheet's "Unicode text"),
 * other bytes refused (ADR 47); read in steps so that 100,000 keywords leave other requests
 * served meanwhile (ADR 43).
 */
export async function readKeywordFile(file: Blob, column: string): Promise<KeywordCsvResult | { ok: false; reason: "notUtf8" }> {
  const decoded = decodeTextFile(new Uint8Array(await file.arrayBuffer()));
  return decoded.ok ? parseKeywordCsvInSteps(decoded.text, column, yieldToEventLoop) : decoded;
}
