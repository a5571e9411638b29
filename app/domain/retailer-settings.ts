/**
 * Retailer settings of spec sections 3 and 9: per campaign type the bidding strategies, bid
 * limits, slots, placements, slot-to-placement mapping and banner sizes, with the spec's values as
 * defaults. Pure data and lookups: no I/O, no framework. Bids are in cents.
 */
import type { TeamAccountType } from "./types";

export const CAMPAIGN_TYPES = ["sponsored-products", "banner-ads"] as const;
export type CampaignType = (typeof CAMPAIGN_TYPES)[number];
export const DEFAULT_CAMPAIGN_TYPE: CampaignType = "sponsored-products";

export const BID_STRATEGIES = ["CPC", "CPM", "vCPM", "FIXED"] as const;
export type BidStrategy = (typeof BID_STRATEGIES)[number];

export const PLACEMENTS = ["search", "plp", "pdp", "hub", "home"] as const;
export type Placement = (typeof PLACEMENTS)[number];

/** A bid range in cents, both ends allowed. */
export interface BidLimit {
  minCents: number;
  maxCents: number;
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
  globalMinBidCents: number | null;
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
