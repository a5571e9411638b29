/**
 * Retailer settings of spec sections 3 and 9: per campaign type the bidding strategies, bid
 * limits, slots, placements, slot-to-placement mapping and banner sizes, with the spec's values as
 * defaults. Pure data and lookups: no I/O, no framework. Bids are in cents.
 */
import type { Cents } from "~/domain/money";
import type { TeamAccountType } from "~/domain/types";

export const CAMPAIGN_TYPES = ["sponsored-products", "banner-ads"] as const;
export type CampaignType = (typeof CAMPAIGN_TYPES)[number];
export const DEFAULT_CAMPAIGN_TYPE: CampaignType = "sponsored-products";

export const BID_STRATEGIES = ["CPC", "CPM", "vCPM", "FIXED"] as const;
export type BidStrategy = (typeof BID_STRATEGIES)[number];

export const PLACEMENTS = ["search", "plp", "pdp", "hub", "home"] as const;
export type Placement = (typeof PLACEMENTS)[number];

/** A bid range in cents, both ends allowed. */
export interface BidLimit {
  minCents: Cents;
  maxCents: Cents;
}

export interface CampaignTypeSettings {
  /** Allowed strategies, in order: the first is the fallback. */
  strategies: BidStrategy[];
  /** Strategies for a given team account type, replacing `strategies` (marketplace sellers). */
  strategiesByAccountType: Partial<Record<TeamAccountType, BidStrategy[]>>;
  /** Bid limits per strategy; a strategy without one uses the fallback of spec section 9. */
  bidLimits: Partial<Record<BidStrategy, BidLimit>>;
  /** Slot name -> the placements it serves (the slot-to-placement mapping). */
  slots: Record<string, Placement[]>;
  placements: Placement[];
  /** Whether activating a campaign of this type goes through pending_review. */
  moderation: boolean;
}

export interface RetailerSettings {
  enabledTypes: CampaignType[];
  types: Record<CampaignType, CampaignTypeSettings>;
  /** Banner size (WxH) -> placements it is shown on. */
  bannerSizes: Record<string, Placement[]>;
  /** Sizes of the stored banner images. */
  storedBannerSizes: string[];
  preview: boolean;
  /** The retailer deployment flagged LM (extra activation rules of spec section 5). */
  lmRetailer: boolean;
  floorPrices: boolean;
  suggestedBids: boolean;
  fixedCpc: boolean;
  /** Global minimum bid in cents, or null when the retailer sets none. */
  globalMinBidCents: Cents | null;
}

/** Fallback minimum when neither a limit nor a global minimum exists: 0.01. */
export const FALLBACK_MIN_BID_CENTS = 1;
/** Fallback maximum when the strategy has no limit: 1000. */
export const FALLBACK_MAX_BID_CENTS = 100_000;

export const DEFAULT_RETAILER_SETTINGS: RetailerSettings = {
  enabledTypes: ["sponsored-products", "banner-ads"],
  types: {
    "sponsored-products": {
      strategies: ["CPM", "vCPM", "CPC"],
      strategiesByAccountType: { marketplace_seller: ["CPC"] },
      bidLimits: {
        CPM: { minCents: 100, maxCents: 10_000 },
        vCPM: { minCents: 100, maxCents: 10_000 },
        CPC: { minCents: 15, maxCents: 2_000 },
      },
      slots: { sp: ["search", "plp", "hub"], slider: ["pdp", "home"] },
      placements: ["search", "plp", "pdp", "hub", "home"],
      moderation: false,
    },
    "banner-ads": {
      strategies: ["CPM", "vCPM"],
      strategiesByAccountType: {},
      bidLimits: {
        CPM: { minCents: 100, maxCents: 30_000 },
        vCPM: { minCents: 100, maxCents: 30_000 },
      },
      slots: {
        "670x980": ["search", "plp"],
        "1560x260": ["home", "plp"],
        "345x140": ["home"],
        "345x90": ["plp"],
      },
      placements: ["home", "search", "plp"],
      moderation: false,
    },
  },
  bannerSizes: {
    "670x980": ["search", "plp"],
    "1560x260": ["home", "plp"],
    "345x140": ["home"],
    "345x90": ["plp"],
  },
  storedBannerSizes: ["670x980", "1560x260", "690x280", "690x180"],
  preview: false,
  lmRetailer: false,
  floorPrices: true,
  suggestedBids: true,
  fixedCpc: false,
  globalMinBidCents: 15,
};

export function isCampaignType(value: string): value is CampaignType {
  return (CAMPAIGN_TYPES as readonly string[]).includes(value);
}

export function isEnabledType(settings: RetailerSettings, type: string): type is CampaignType {
  return isCampaignType(type) && settings.enabledTypes.includes(type);
}

/** The placements a slot of the type serves; empty for an unknown slot. */
export function slotPlacements(settings: RetailerSettings, type: CampaignType, slot: string): Placement[] {
  return settings.types[type].slots[slot] ?? [];
}

/** Whether the type needs moderation (pending_review on activation). */
export function needsModeration(settings: RetailerSettings, type: CampaignType): boolean {
  return settings.types[type].moderation;
}

// ---------------------------------------------------------------------------------------------
// Validation of the operators' settings screen (issue 4, section 1). Each check returns stable
// reason codes (also i18n keys under "retailer:errors."), used by the form schema and the service.

/** A bid limit end may not be below 0.01 … */
export const BID_LIMIT_FLOOR_CENTS = 1;
/** … nor above 1000. */
export const BID_LIMIT_CEILING_CENTS = 100_000;

export type SettingsReason =
  | "amount.tooLow"
  | "amount.tooHigh"
  | "bidLimit.incomplete"
  | "bidLimit.minAboveMax"
  | "enabledTypes.empty"
  | "strategies.empty"
  | "strategies.sellerNotAllowed"
  | "placements.empty"
  | "slot.nameInvalid"
  | "slot.nameRequired"
  | "slot.duplicate"
  | "slot.noPlacement"
  | "slot.placementNotOfType"
  | "bannerSize.invalid"
  | "bannerSize.duplicate"
  | "bannerSize.noPlacement"
  | "bannerSize.placementNotOfType";

/** One problem found in a RetailerSettings value; `path` is a dot path into it. */
export interface SettingsIssue {
  path: string;
  reason: SettingsReason;
}

/** A bid (or a bid limit end) in cents must lie within 0.01–1000. */
export function checkBidBound(cents: Cents): SettingsReason | null {
  if (!Number.isSafeInteger(cents) || cents < BID_LIMIT_FLOOR_CENTS) return "amount.tooLow";
  if (cents > BID_LIMIT_CEILING_CENTS) return "amount.tooHigh";
  return null;
}

/**
 * A strategy's bid limit: both ends or neither (neither = the fallback of spec section 9), each
 * within 0.01–1000, the minimum not above the maximum.
 */
export function checkBidLimit(minCents: Cents | null, maxCents: Cents | null): { field: "min" | "max"; reason: SettingsReason }[] {
  if (minCents === null && maxCents === null) return [];
  if (minCents === null) return [{ field: "min", reason: "bidLimit.incomplete" }];
  if (maxCents === null) return [{ field: "max", reason: "bidLimit.incomplete" }];
  const issues: { field: "min" | "max"; reason: SettingsReason }[] = [];
  const minReason = checkBidBound(minCents);
  const maxReason = checkBidBound(maxCents);
  if (minReason) issues.push({ field: "min", reason: minReason });
  if (maxReason) issues.push({ field: "max", reason: maxReason });
  if (!issues.length && minCents > maxCents) issues.push({ field: "min", reason: "bidLimit.minAboveMax" });
  return issues;
}

/** At least one strategy; the marketplace sellers' strategies (if any) among the allowed ones. */
export function checkStrategies(
  strategies: readonly BidStrategy[],
  sellerStrategies: readonly BidStrategy[],
): { field: "strategies" | "sellerStrategies"; reason: SettingsReason }[] {
  if (!strategies.length) return [{ field: "strategies", reason: "strategies.empty" }];
  if (sellerStrategies.some((s) => !strategies.includes(s))) return [{ field: "sellerStrategies", reason: "strategies.sellerNotAllowed" }];
  return [];
}

/** Slot names: a letter or digit, then letters, digits, '-' or '_', 40 characters at most. */
export function checkSlotName(name: string): SettingsReason | null {
  if (!name) return "slot.nameRequired";
  return /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/.test(name) ? null : "slot.nameInvalid";
}

/** Banner sizes are written WIDTHxHEIGHT in pixels, e.g. 670x980. */
export function checkBannerSize(size: string): SettingsReason | null {
  return /^[1-9]\d{0,4}x[1-9]\d{0,4}$/.test(size) ? null : "bannerSize.invalid";
}

/** The placements of a slot (or banner size): at least one, all among the type's placements. */
export function checkSlotPlacements(
  placements: readonly Placement[],
  typePlacements: readonly Placement[],
): "noPlacement" | "placementNotOfType" | null {
  if (!placements.length) return "noPlacement";
  return placements.every((p) => typePlacements.includes(p)) ? null : "placementNotOfType";
}

/** Positions of the names already seen earlier in the list (case-insensitive). */
export function duplicateIndexes(names: readonly string[]): number[] {
  const seen = new Set<string>();
  const duplicates: number[] = [];
  names.forEach((name, index) => {
    const key = name.toLowerCase();
    if (seen.has(key)) duplicates.push(index);
    else seen.add(key);
  });
  return duplicates;
}

/** Every rule above applied to a whole settings value (the service's last check before saving). */
export function validateRetailerSettings(settings: RetailerSettings): SettingsIssue[] {
  const issues: SettingsIssue[] = [];
  if (!settings.enabledTypes.length) issues.push({ path: "enabledTypes", reason: "enabledTypes.empty" });
  for (const type of CAMPAIGN_TYPES) {
    const s = settings.types[type];
    const base = `types.${type}`;
    for (const { field, reason } of checkStrategies(s.strategies, s.strategiesByAccountType.marketplace_seller ?? [])) {
      issues.push({ path: field === "strategies" ? `${base}.strategies` : `${base}.strategiesByAccountType.marketplace_seller`, reason });
    }
    for (const strategy of BID_STRATEGIES) {
      const limit = s.bidLimits[strategy];
      if (!limit) continue;
      for (const { field, reason } of checkBidLimit(limit.minCents, limit.maxCents)) {
        issues.push({ path: `${base}.bidLimits.${strategy}.${field}Cents`, reason });
      }
    }
    if (!s.placements.length) issues.push({ path: `${base}.placements`, reason: "placements.empty" });
    for (const [slot, placements] of Object.entries(s.slots)) {
      const nameReason = checkSlotName(slot);
      if (nameReason) issues.push({ path: `${base}.slots.${slot}`, reason: nameReason });
      const placementReason = checkSlotPlacements(placements, s.placements);
      if (placementReason) issues.push({ path: `${base}.slots.${slot}`, reason: `slot.${placementReason}` });
    }
    const slotNames = Object.keys(s.slots);
    duplicateIndexes(slotNames).forEach((index) => issues.push({ path: `${base}.slots.${slotNames[index]}`, reason: "slot.duplicate" }));
  }
  const bannerPlacements = settings.types["banner-ads"].placements;
  for (const [size, placements] of Object.entries(settings.bannerSizes)) {
    const sizeReason = checkBannerSize(size);
    if (sizeReason) issues.push({ path: `bannerSizes.${size}`, reason: sizeReason });
    const placementReason = checkSlotPlacements(placements, bannerPlacements);
    if (placementReason) issues.push({ path: `bannerSizes.${size}`, reason: `bannerSize.${placementReason}` });
  }
  const sizes = Object.keys(settings.bannerSizes);
  duplicateIndexes(sizes).forEach((index) => issues.push({ path: `bannerSizes.${sizes[index]}`, reason: "bannerSize.duplicate" }));
  settings.storedBannerSizes.forEach((size, index) => {
    if (checkBannerSize(size)) issues.push({ path: `storedBannerSizes.${index}`, reason: "bannerSize.invalid" });
  });
  duplicateIndexes(settings.storedBannerSizes).forEach((index) => issues.push({ path: `storedBannerSizes.${index}`, reason: "bannerSize.duplicate" }));
  if (settings.globalMinBidCents !== null) {
    const reason = checkBidBound(settings.globalMinBidCents);
    if (reason) issues.push({ path: "globalMinBidCents", reason });
  }
  return issues;
}

// ---------------------------------------------------------------------------------------------
// Floor prices per keyword or category (issue 10 section 1): the lowest bid a keyword or category
// target accepts, set by operators. A category's floor also holds for its subcategories that
// have none of their own; a target without a floor has the CPC minimum bid as its floor.

export interface KeywordFloor {
  /** The keyword's key (keywordKey: folded), as searches and targets name it. */
  keyword: string;
  /** The keyword as the operator wrote it, shown on screen. */
  label: string;
  cents: Cents;
}

export interface CategoryFloor {
  /** The category id (app/domain/categories.ts). */
  id: string;
  /** Its path as shown, "Grocery > Coffee & tea". */
  path: string;
  cents: Cents;
}

/** Lists rather than maps: keywords may hold any character, which map keys of some stores refuse. */
export interface FloorPrices {
  keywords: KeywordFloor[];
  categories: CategoryFloor[];
}

export const NO_FLOOR_PRICES: FloorPrices = { keywords: [], categories: [] };
/** Floors per list at most. */
export const MAX_FLOOR_PRICES = 500;

export type FloorReason = "floor.keywordRequired" | "floor.categoryRequired" | "floor.duplicate" | "floor.tooMany" | "floor.unknownCategory" | "floor.priceRequired";

/** Each keyword floor's problems (keywords already keyed; empty ones are refused). */
export function checkKeywordFloors(floors: readonly { keyword: string; cents: Cents | null }[]): { index: number; field: "keyword" | "price"; reason: FloorReason | SettingsReason }[] {
  const issues: { index: number; field: "keyword" | "price"; reason: FloorReason | SettingsReason }[] = [];
  floors.forEach((floor, index) => {
    if (!floor.keyword) issues.push({ index, field: "keyword", reason: "floor.keywordRequired" });
    if (floor.cents === null) issues.push({ index, field: "price", reason: "floor.priceRequired" });
    else {
      const reason = checkBidBound(floor.cents);
      if (reason) issues.push({ index, field: "price", reason });
    }
  });
  duplicateIndexes(floors.map((f) => f.keyword)).forEach((index) => {
    if (floors[index]!.keyword) issues.push({ index, field: "keyword", reason: "floor.duplicate" });
  });
  return issues;
}

/** The same rules for category floors, by category id. */
export function checkCategoryFloors(floors: readonly { id: string; cents: Cents | null }[]): { index: number; field: "category" | "price"; reason: FloorReason | SettingsReason }[] {
  return checkKeywordFloors(floors.map((f) => ({ keyword: f.id, cents: f.cents }))).map(({ index, field, reason }) => ({
    index,
    field: field === "keyword" ? "category" : "price",
    reason: reason === "floor.keywordRequired" ? "floor.categoryRequired" : reason,
  }));
}

/** Every floor rule over a whole value (the service's last check before saving). */
export function validateFloorPrices(floors: FloorPrices): FloorReason | SettingsReason | null {
  if (floors.keywords.length > MAX_FLOOR_PRICES || floors.categories.length > MAX_FLOOR_PRICES) return "floor.tooMany";
  const first = [...checkKeywordFloors(floors.keywords), ...checkCategoryFloors(floors.categories)][0];
  return first ? first.reason : null;
}
