/**
 * Keyword, category and product-category targets of a campaign (issue 10 section 2; spec sections
 * 3, 5 and 9: tKeywords, tCategories, tProductCategories, auto targeting). Pure: no I/O, `now`
 * passed in. Bids are integer cents.
 *
 * Readings (ADR 27):
 * - A target is keyed by its keyword key (keywordKey: folded, spaces collapsed) or its category id.
 *   Each has on, bid (cents; null: the campaign's bid), offers (the campaign's products it
 *   advertises; null: every product of the campaign, what a typed or imported keyword starts
 *   with), name (the keyword as typed, or the category's path), url, placement.
 * - Placement: a category is shown on its list page (plp, the default of a target saved without
 *   one) or, for a top-level category, its hub; a product category on the product pages (pdp).
 * - A target's bid may not sit under its floor price (or the CPC minimum bid when floor prices
 *   are off): 'Minimum allowed bid: {0}'; 'Apply min bid' raises it (the Bidding rule, reused).
 * - Auto targeting: removing products removes them from every target's offers; a target left
 *   with no product is switched off, or deleted when auto targeting created it. A target whose
 *   offers are "every product" is left with none only when the campaign has no product left.
 * - Past 1,000 keywords the campaign is warned about, never refused; 100,000 keywords at most.
 */
import { applyMinBid, checkBid, type BidCheck } from "~/domain/campaigns/bidding";
import { keywordKey, MAX_KEYWORD_LENGTH } from "~/domain/categories";
import type { Cents } from "~/domain/money";
import { collator } from "~/domain/intl";

export const TARGET_KINDS = ["keyword", "category", "productCategory"] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];
export const TARGET_PLACEMENTS = ["plp", "hub", "pdp"] as const;
export type TargetPlacement = (typeof TARGET_PLACEMENTS)[number];
/** Spec section 9: a warning past this many keywords per campaign. */
export const KEYWORD_WARNING_THRESHOLD = 1_000;
/** The most keywords a campaign may hold (the storage is sized for it: ADR 27). */
export const MAX_KEYWORDS = 100_000;
/** The most categories (or product categories) a campaign may hold. */
export const MAX_CATEGORIES = 1_000;
/** A keyword CSV file's size limit (100,000 keywords of ordinary length fit in a few MB). */
export const KEYWORD_CSV_MAX_BYTES = 8 * 1024 * 1024;
/** Negative keywords a campaign may hold (kept on the campaign document). */
export const MAX_NEGATIVE_KEYWORDS = 1_000;

export interface CampaignTarget {
  on: boolean;
  /** Cents; null: the campaign's bid. */
  bid: Cents | null;
  /** Product ids of the campaign; null: every product of the campaign. */
  offers: string[] | null;
  /** The keyword as typed, or the category's path. */
  name: string;
  url: string | null;
  placement: TargetPlacement;
  /** Created by auto targeting (deleted, not switched off, when left without product). */
  auto: boolean;
  created: string;
  updated: string;
}
export type Targets = Record<string, CampaignTarget>;
/** A target as a list shows it (ADR 43: the sorted view keeps no dates). */
export type ListedTarget = Omit<CampaignTarget, "created" | "updated">;

export function listedTarget(target: CampaignTarget): ListedTarget {
  const { created: _created, updated: _updated, ...listed } = target;
  return listed;
}

/** The counts kept on the campaign (spec section 3: keywords, categories, hubs, product categories). */
export interface TargetCounts {
  keywords: number;
  categories: number;
  hubs: number;
  productCategories: number;
}
export const NO_TARGET_COUNTS: TargetCounts = { keywords: 0, categories: 0, hubs: 0, productCategories: 0 };

/** The counts one kind's targets contribute (categories: list pages and hubs apart). */
export function countTargets(kind: TargetKind, targets: Iterable<CampaignTarget>): Partial<TargetCounts> {
  let all = 0;
  let hubs = 0;
  for (const t of targets) {
    all++;
    if (t.placement === "hub") hubs++;
  }
  return targetCountsOf(kind, all, hubs);
}

/** The counts of `all` targets of a kind, `hubs` of them placed on hubs. */
export function targetCountsOf(kind: TargetKind, all: number, hubs: number): Partial<TargetCounts> {
  if (kind === "keyword") return { keywords: all };
  if (kind === "productCategory") return { productCategories: all };
  return { categories: all - hubs, hubs };
}

export function exceedsKeywordWarning(count: number): boolean {
  return count > KEYWORD_WARNING_THRESHOLD;
}

/** The placement a target is saved with: a product category's pdp, a category's hub when asked, else plp. */
export function targetPlacement(kind: TargetKind, asked: string | null | undefined): TargetPlacement {
  if (kind === "productCategory") return "pdp";
  if (kind === "category" && asked === "hub") return "hub";
  return "plp";
}

export function newTarget(input: { name: string; url?: string | null; bid?: Cents | null; offers?: string[] | null; placement?: TargetPlacement; auto?: boolean; on?: boolean }, now: Date | string): CampaignTarget {
  // A date, or its ISO text (a list of 100,000 targets made at once shares one).
  const iso = typeof now === "string" ? now : now.toISOString();
  return {
    on: input.on ?? true,
    bid: input.bid ?? null,
    offers: input.offers && input.offers.length ? [...new Set(input.offers)] : null,
    name: input.name,
    url: input.url ?? null,
    placement: input.placement ?? "plp",
    auto: input.auto ?? false,
    created: iso,
    updated: iso,
  };
}

// ---------------------------------------------------------------------------------------------
// The order and search of the lists (ADR 43)

/**
 * The locale whose collation orders the lists: en-GB and fr (the console's languages) both use
 * the root collation of CLDR, so one stored order serves both.
 */
export const TARGET_SORT_LOCALE = "en";

/**
 * The collator's compare, looked up once: a sort of 100,000 targets compares some 1.7 million
 * times, and finding the collator by its locale and options on each comparison took about half
 * of the sort's time.
 */
let compareNames: ((a: string, b: string) => number) | null = null;

/** The lists' order: by name as the locale sorts text, then by key (two targets never tie). */
export function compareTargets(a: { key: string; name: string }, b: { key: string; name: string }): number {
  compareNames ??= collator(TARGET_SORT_LOCALE).compare;
  return compareNames(a.name, b.name) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/** A target as a sort compares it many times: whether its name is folded ASCII noted once (isFoldedAscii). */
export interface SortableTarget {
  key: string;
  name: string;
  plain: boolean;
}

/**
 * compareTargets of targets whose names' kind is noted: two names of lowercase ASCII letters,
 * digits and single spaces are compared by their code units, which is the root collation's order
 * for them (space, then digits, then letters, a prefix first; no contraction, no tie between two
 * different ones), without the collator; any other pair by the collator.
 */
export function compareSortable(a: SortableTarget, b: SortableTarget): number {
  let byName: number;
  if (a.plain && b.plain) byName = a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  else {
    compareNames ??= collator(TARGET_SORT_LOCALE).compare;
    byName = compareNames(a.name, b.name);
  }
  return byName || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/**
 * The text a list's search looks into besides the key, folded as keys are (keywordKey of the
 * name); null when it is the key itself (a keyword's name folds to its key).
 */
export function targetSearchText(key: string, target: Pick<CampaignTarget, "name">): string | null {
  const folded = keywordKey(target.name);
  return folded === key ? null : folded;
}

/** Whether a target is found by the words typed (`query` folded with keywordKey; empty: every target). */
export function matchesQuery(query: string, key: string, searchText: string | null): boolean {
  return !query || key.includes(query) || (searchText !== null && searchText.includes(query));
}

/** Bids of this many cents or more are counted together (the counts of ADR 43 stay small). */
export const BID_COUNT_CAP = 10_000;

/** The band of a bid in the counts kept by bid. */
export function bidCountKey(bid: Cents): string {
  return String(Math.min(bid, BID_COUNT_CAP));
}

/**
 * How many targets' own bids sit under their floor (what 'Apply min bid' would raise), from the
 * counts of bids and the targets that have a floor of their own (with those floors): every other
 * target's floor is the minimum bid. null when the counts cannot tell (a minimum past the cap).
 */
export function belowFloorFromCounts(bidCounts: Readonly<Record<string, number>>, limits: TargetLimits, ownFloors: ReadonlyMap<string, Cents>, withOwnFloor: Targets): number | null {
  if (limits.minCents > BID_COUNT_CAP) return null;
  let below = 0;
  for (const [band, count] of Object.entries(bidCounts)) if (Number(band) < limits.minCents) below += count;
  for (const [key, t] of Object.entries(withOwnFloor)) {
    if (t.bid === null) continue;
    const asCounted = t.bid < limits.minCents;
    const really = applyTargetMinBid(t.bid, limits, ownFloors.get(key) ?? null) !== t.bid;
    below += Number(really) - Number(asCounted);
  }
  return below;
}

// ---------------------------------------------------------------------------------------------
// Keywords typed or imported

export interface ParsedKeyword {
  key: string;
  name: string;
}

export interface KeywordParse {
  keywords: ParsedKeyword[];
  /** Lines (or CSV rows) without a value, with a value too long to be a keyword, or a reserved one (__like_this__). */
  bad: number;
  /** The 1-based numbers of the first bad lines, to show (at most 20). */
  badLines: number[];
  /** Values met twice (the first is kept). */
  duplicates: number;
}

const SHOWN_BAD_LINES = 20;
/**
 * Keys that cannot name a stored target: "__proto__" is every object's prototype, and Firestore
 * reserves map keys written __like_this__. Such a line is a bad one.
 */
const RESERVED_KEY = /^__.*__$/;

/** Keywords gathered value by value (a CSV read in steps): blank or too long ones are bad, repeated ones counted once. */
export function keywordCollector(): { add: (value: string | null | undefined, line: number) => void; result: () => KeywordParse } {
  const seen = new Set<string>();
  const out: KeywordParse = { keywords: [], bad: 0, badLines: [], duplicates: 0 };
  return {
    add(value, line) {
      const name = (value ?? "").replace(/\s+/g, " ").trim();
      const key = name.length <= MAX_KEYWORD_LENGTH ? keywordKey(name) : "";
      if (!key || RESERVED_KEY.test(key)) {
        out.bad++;
        if (out.badLines.length < SHOWN_BAD_LINES) out.badLines.push(line);
        return;
      }
      if (seen.has(key)) {
        out.duplicates++;
        return;
      }
      seen.add(key);
      out.keywords.push({ key, name });
    },
    result: () => out,
  };
}

/** Keywords from values with their line numbers: blank or too long ones are bad, repeated ones counted once. */
export function parseKeywordLinesFrom(values: Iterable<{ value: string | null | undefined; line: number }>): KeywordParse {
  const collect = keywordCollector();
  for (const { value, line } of values) collect.add(value, line);
  return collect.result();
}

/** Keywords typed one per line (spec section 9: keywords separated by line breaks); blank lines are skipped. */
export function parseKeywordLines(text: string): KeywordParse {
  const lines = text.split(/\r\n|\r|\n/);
  const parsed = parseKeywordLinesFrom(lines.map((value, i) => ({ value, line: i + 1 })).filter((l) => l.value.trim() !== ""));
  return parsed;
}

/** The CSV column named as asked, case and spaces aside; null when the header has none. */
export function findColumn(header: readonly string[], column: string): string | null {
  const want = column.trim().toLowerCase();
  return header.find((h) => h.trim().toLowerCase() === want) ?? null;
}

// ---------------------------------------------------------------------------------------------
// Bids

export interface TargetLimits {
  minCents: Cents;
  maxCents: Cents;
}

/** The limits of one target's bid: its floor price raises the minimum. */
export function targetLimits(limits: TargetLimits, floorCents: Cents | null): TargetLimits {
  return { minCents: Math.max(limits.minCents, floorCents ?? 0), maxCents: limits.maxCents };
}

/** 'Minimum allowed bid: {0}' (the floor, or the minimum bid) / 'Maximum allowed bid: {0}'. */
export function checkTargetBid(bidCents: Cents, limits: TargetLimits, floorCents: Cents | null): BidCheck {
  return checkBid(bidCents, targetLimits(limits, floorCents));
}

/** 'Apply min bid' on a target: under its floor (or the minimum), raised to it. */
export function applyTargetMinBid(bidCents: Cents, limits: TargetLimits, floorCents: Cents | null): Cents {
  return applyMinBid(bidCents, targetLimits(limits, floorCents));
}

/** The targets whose own bid is under their floor or the minimum, with the bid they would be raised to. */
export function targetsBelowMinimum(targets: Targets, limits: TargetLimits, floorOf: (key: string) => Cents | null): { key: string; to: Cents }[] {
  const out: { key: string; to: Cents }[] = [];
  for (const [key, t] of Object.entries(targets)) {
    if (t.bid === null) continue;
    const to = applyTargetMinBid(t.bid, limits, floorOf(key));
    if (to !== t.bid) out.push({ key, to });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Offers and auto targeting

/** The offers kept: only the campaign's products (null stays "every product"). */
export function offersWithin(offers: readonly string[] | null, products: ReadonlySet<string>): string[] | null {
  if (offers === null) return null;
  return offers.filter((id) => products.has(id));
}

export interface PruneResult {
  /** The targets changed (offers shortened, switched off); absent keys are unchanged. */
  changed: Targets;
  /** Auto-created targets left with no product: deleted. */
  deleted: string[];
  /** Targets left with no product: switched off. */
  switchedOff: string[];
}

/**
 * Auto targeting (spec section 9): the products removed from the campaign leave every target's
 * offers; a target left with no product is switched off, or deleted when auto-created.
 * `remaining` is how many products the campaign keeps (a target of every product is left with
 * none only when the campaign is).
 */
export function pruneRemovedProducts(targets: Targets, removed: readonly string[], remaining: number, now: Date): PruneResult {
  const gone = new Set(removed);
  const out: PruneResult = { changed: {}, deleted: [], switchedOff: [] };
  const iso = now.toISOString();
  for (const [key, t] of Object.entries(targets)) {
    const offers = t.offers === null ? null : t.offers.filter((id) => !gone.has(id));
    const shortened = t.offers !== null && offers!.length !== t.offers.length;
    const empty = offers === null ? remaining === 0 : offers.length === 0;
    if (empty && (shortened || t.offers === null)) {
      if (t.auto) {
        out.deleted.push(key);
        continue;
      }
      if (t.on) out.switchedOff.push(key);
      if (t.on || shortened) out.changed[key] = { ...t, offers, on: false, updated: iso };
      continue;
    }
    if (shortened) out.changed[key] = { ...t, offers, updated: iso };
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Negative keywords

/** Negative keywords typed one per line: their keys, unique, in the order typed. */
export function parseNegativeKeywords(text: string): { keys: string[]; bad: number } {
  const parsed = parseKeywordLines(text);
  return { keys: parsed.keywords.map((k) => k.key), bad: parsed.bad };
}
