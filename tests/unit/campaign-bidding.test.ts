import { describe, expect, it } from "vitest";
import {
  allowedStrategies,
  applyMinBid,
  bidLimits,
  checkBid,
  coerceStrategy,
  defaultStrategy,
  type BidCheck,
} from "~/domain/campaigns/bidding";
import {
  DEFAULT_RETAILER_SETTINGS as S,
  type BidLimit,
  type BidStrategy,
  type CampaignType,
  type RetailerSettings,
} from "~/domain/retailer-settings";
import type { TeamAccountType } from "~/domain/types";

/** Sponsored products allow FIXED but not CPC; banner-ads lose their limits and global minimum. */
const CUSTOM: RetailerSettings = {
  ...S,
  globalMinBidCents: null,
  types: {
    "sponsored-products": { ...S.types["sponsored-products"], strategies: ["CPM", "FIXED"], strategiesByAccountType: {} },
    "banner-ads": { ...S.types["banner-ads"], bidLimits: {} },
  },
};

describe("allowedStrategies", () => {
  it.each<[CampaignType, TeamAccountType | null, BidStrategy[]]>([
    ["sponsored-products", "brand", ["CPM", "vCPM", "CPC"]],
    ["sponsored-products", null, ["CPM", "vCPM", "CPC"]],
    ["sponsored-products", "marketplace_seller", ["CPC"]],
    ["banner-ads", "brand", ["CPM", "vCPM"]],
    ["banner-ads", "marketplace_seller", ["CPM", "vCPM"]],
  ])("%s for %s -> %j", (type, account, expected) => {
    expect(allowedStrategies(S, type, account)).toEqual(expected);
  });
});

describe("defaultStrategy: CPC, else FIXED, else the first", () => {
  it.each<[RetailerSettings, CampaignType, TeamAccountType | null, BidStrategy]>([
    [S, "sponsored-products", "brand", "CPC"],
    [S, "sponsored-products", "marketplace_seller", "CPC"],
    [S, "banner-ads", "brand", "CPM"],
    [CUSTOM, "sponsored-products", "brand", "FIXED"],
  ])("case %# %s %s -> %s", (settings, type, account, expected) => {
    expect(defaultStrategy(settings, type, account)).toBe(expected);
  });
});

describe("coerceStrategy: not allowed -> first allowed", () => {
  it.each<[CampaignType, TeamAccountType | null, string | null, BidStrategy]>([
    ["sponsored-products", "brand", "vCPM", "vCPM"],
    ["sponsored-products", "brand", "CPC", "CPC"],
    ["sponsored-products", "brand", "FIXED", "CPM"],
    ["sponsored-products", "marketplace_seller", "CPM", "CPC"],
    ["banner-ads", "brand", "CPC", "CPM"],
    ["banner-ads", "brand", null, "CPM"],
    ["banner-ads", "brand", "cpm", "CPM"],
  ])("%s for %s: %s -> %s", (type, account, strategy, expected) => {
    expect(coerceStrategy(S, type, account, strategy)).toBe(expected);
  });
});

describe("bidLimits with the fallback of spec section 9", () => {
  it.each<[RetailerSettings, CampaignType, BidStrategy, BidLimit]>([
    [S, "banner-ads", "CPM", { minCents: 100, maxCents: 30_000 }],
    [S, "sponsored-products", "CPC", { minCents: 15, maxCents: 2_000 }],
    [S, "sponsored-products", "vCPM", { minCents: 100, maxCents: 10_000 }],
    // No limit for the strategy: global minimum 0.15, max 1000.
    [S, "sponsored-products", "FIXED", { minCents: 15, maxCents: 100_000 }],
    [S, "banner-ads", "CPC", { minCents: 15, maxCents: 100_000 }],
    // No limit and no global minimum: 0.01.
    [CUSTOM, "banner-ads", "CPM", { minCents: 1, maxCents: 100_000 }],
  ])("case %# %s %s", (settings, type, strategy, expected) => {
    expect(bidLimits(settings, type, strategy)).toEqual(expected);
  });
});

describe("checkBid and applyMinBid", () => {
  const CPC = { minCents: 15, maxCents: 2_000 };
  it.each<[number, BidCheck]>([
    [15, { ok: true, value: 15 }],
    [2_000, { ok: true, value: 2_000 }],
    [500, { ok: true, value: 500 }],
    [14, { ok: false, reason: "campaigns:bidding.minBid", limitCents: 15 }],
    [0, { ok: false, reason: "campaigns:bidding.minBid", limitCents: 15 }],
    [2_001, { ok: false, reason: "campaigns:bidding.maxBid", limitCents: 2_000 }],
    [Number.NaN, { ok: false, reason: "campaigns:form.bidNotPositive" }],
    [15.5, { ok: false, reason: "campaigns:form.bidNotPositive" }],
  ])("%d cents -> %j", (bid, expected) => {
    expect(checkBid(bid, CPC)).toEqual(expected);
  });

  it.each<[number, number]>([
    [0, 15],
    [14, 15],
    [15, 15],
    [900, 900],
    [Number.NaN, 15],
  ])("apply min bid to %d -> %d", (bid, expected) => {
    expect(applyMinBid(bid, CPC)).toBe(expected);
  });
});
