import { describe, expect, it } from "vitest";
import {
  DEFAULT_RETAILER_SETTINGS as S,
  FALLBACK_MAX_BID_CENTS,
  FALLBACK_MIN_BID_CENTS,
  isCampaignType,
  isEnabledType,
  needsModeration,
  slotPlacements,
  type BidStrategy,
  type CampaignType,
  type Placement,
} from "~/domain/retailer-settings";

describe("retailer settings: the spec's section 9 defaults", () => {
  it("enables sponsored-products and banner-ads", () => {
    expect(S.enabledTypes).toEqual(["sponsored-products", "banner-ads"]);
  });

  it.each<[CampaignType, BidStrategy[]]>([
    ["banner-ads", ["CPM", "vCPM"]],
    ["sponsored-products", ["CPM", "vCPM", "CPC"]],
  ])("%s strategies %j", (type, strategies) => {
    expect(S.types[type].strategies).toEqual(strategies);
  });

  it("marketplace sellers get CPC only for sponsored products", () => {
    expect(S.types["sponsored-products"].strategiesByAccountType.marketplace_seller).toEqual(["CPC"]);
    expect(S.types["banner-ads"].strategiesByAccountType.marketplace_seller).toBeUndefined();
  });

  it.each<[CampaignType, BidStrategy, number, number]>([
    ["banner-ads", "CPM", 100, 30_000],
    ["banner-ads", "vCPM", 100, 30_000],
    ["sponsored-products", "CPM", 100, 10_000],
    ["sponsored-products", "vCPM", 100, 10_000],
    ["sponsored-products", "CPC", 15, 2_000],
  ])("%s %s limits %i–%i cents", (type, strategy, min, max) => {
    expect(S.types[type].bidLimits[strategy]).toEqual({ minCents: min, maxCents: max });
  });

  it("global and fallback bids", () => {
    expect(S.globalMinBidCents).toBe(15);
    expect(FALLBACK_MIN_BID_CENTS).toBe(1);
    expect(FALLBACK_MAX_BID_CENTS).toBe(100_000);
  });

  it.each<[CampaignType, string, Placement[]]>([
    ["sponsored-products", "sp", ["search", "plp", "hub"]],
    ["sponsored-products", "slider", ["pdp", "home"]],
    ["sponsored-products", "nope", []],
    ["banner-ads", "670x980", ["search", "plp"]],
    ["banner-ads", "1560x260", ["home", "plp"]],
    ["banner-ads", "345x140", ["home"]],
    ["banner-ads", "345x90", ["plp"]],
  ])("%s slot %s -> %j", (type, slot, placements) => {
    expect(slotPlacements(S, type, slot)).toEqual(placements);
  });

  it("banner sizes and stored sizes", () => {
    expect(Object.keys(S.bannerSizes)).toEqual(["670x980", "1560x260", "345x140", "345x90"]);
    expect(S.storedBannerSizes).toEqual(["670x980", "1560x260", "690x280", "690x180"]);
  });

  it.each<[CampaignType, Placement[]]>([
    ["banner-ads", ["home", "search", "plp"]],
    ["sponsored-products", ["search", "plp", "pdp", "hub", "home"]],
  ])("%s placements %j", (type, placements) => {
    expect(S.types[type].placements).toEqual(placements);
  });

  it("flags: moderation off, LM off, floor prices and suggested bids on, fixed CPC off", () => {
    expect(needsModeration(S, "banner-ads")).toBe(false);
    expect(needsModeration(S, "sponsored-products")).toBe(false);
    expect(S.lmRetailer).toBe(false);
    expect(S.floorPrices).toBe(true);
    expect(S.suggestedBids).toBe(true);
    expect(S.fixedCpc).toBe(false);
    expect(typeof S.preview).toBe("boolean");
  });

  it.each<[string, boolean, boolean]>([
    ["sponsored-products", true, true],
    ["banner-ads", true, true],
    ["sponsored-display", false, false],
    ["", false, false],
  ])("type %j known %s enabled %s", (type, known, enabled) => {
    expect(isCampaignType(type)).toBe(known);
    expect(isEnabledType(S, type)).toBe(enabled);
  });

  it("a type switched off is no longer enabled", () => {
    expect(isEnabledType({ ...S, enabledTypes: ["sponsored-products"] }, "banner-ads")).toBe(false);
  });
});
