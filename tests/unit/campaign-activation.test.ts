import { describe, expect, it } from "vitest";
import { emptyCreative, type Campaign } from "~/domain/campaigns/campaign";
import {
  activationProblems,
  budgetWarning,
  walletFields,
  walletFlag,
  type ActivationRefusal,
} from "~/domain/campaigns/activation";
import type { TeamStatus, WalletStatus } from "~/domain/types";
import { makeCampaign, settingsWith } from "./campaign-fixture";

const PLAIN = settingsWith();
const LM = settingsWith((s) => {
  s.lmRetailer = true;
});
const BANNER = { "670x980": { image: "b/a.png", href_link: "https://shop.example/a" } };
const VIDEO = { ...emptyCreative(), elements: ["video"], video_file: "v.mp4", video_thumb: "v.jpg", href_link: "https://shop.example" };

describe("activationProblems", () => {
  it.each<[string, Campaign, "plain" | "lm", ActivationRefusal[]]>([
    ["a complete sponsored-products campaign", makeCampaign(), "plain", []],
    ["no bid", makeCampaign({ bid: 0 }), "plain", ["campaigns:activation.incomplete"]],
    ["FIXED needs no bid", makeCampaign({ bid: 0, bidStrategy: "FIXED", endDate: "2026-04-01T21:59:59.999Z" }), "lm", []],
    ["no name", makeCampaign({ name: "  " }), "plain", ["campaigns:activation.incomplete"]],
    ["no start date", makeCampaign({ startDate: null }), "plain", ["campaigns:activation.incomplete"]],
    // LM retailer rules.
    ["LM: FIXED without end date", makeCampaign({ bidStrategy: "FIXED" }), "lm", ["campaigns:activation.missingEndDate"]],
    ["not LM: FIXED without end date is fine", makeCampaign({ bidStrategy: "FIXED" }), "plain", []],
    ["LM: CPC without end date is fine", makeCampaign(), "lm", []],
    [
      "LM: banner-ads without product",
      makeCampaign({ banners: BANNER, productIds: [] }, "banner-ads"),
      "lm",
      ["campaigns:activation.missingSalesProducts"],
    ],
    ["LM: banner-ads with one product", makeCampaign({ banners: BANNER, productIds: ["p1"] }, "banner-ads"), "lm", []],
    [
      "LM: both rules at once",
      makeCampaign({ banners: BANNER, productIds: [], bidStrategy: "FIXED" }, "banner-ads"),
      "lm",
      ["campaigns:activation.missingSalesProducts", "campaigns:activation.missingEndDate"],
    ],
    // Ad format.
    ["banner-ads without banner", makeCampaign({ productIds: ["p1"] }, "banner-ads"), "plain", ["campaigns:activation.adFormat"]],
    [
      "banner-ads whose only banner lacks its link",
      makeCampaign({ productIds: ["p1"], banners: { "670x980": { image: "b/a.png", href_link: "" } } }, "banner-ads"),
      "plain",
      ["campaigns:activation.adFormat"],
    ],
    [
      "banner-ads whose only banner is on a slot switched off",
      makeCampaign({ productIds: ["p1"], banners: BANNER, slotsOff: ["670x980"] }, "banner-ads"),
      "plain",
      ["campaigns:activation.adFormat"],
    ],
    ["a complete creative with a product", makeCampaign({ creative: VIDEO, productIds: ["p1"] }), "plain", []],
    [
      "a creative missing its poster",
      makeCampaign({ creative: { ...VIDEO, video_thumb: null }, productIds: ["p1"] }),
      "plain",
      ["campaigns:activation.adFormat"],
    ],
    ["a creative with no element switched on is no ad format", makeCampaign({ creative: { ...emptyCreative(), brand: "Acme" } }), "plain", []],
    // An ad format needs a product.
    ["banner-ads with a banner and no product", makeCampaign({ banners: BANNER }, "banner-ads"), "plain", ["campaigns:activation.adFormatNeedsProduct"]],
    ["a creative and no product", makeCampaign({ creative: VIDEO }), "plain", ["campaigns:activation.adFormatNeedsProduct"]],
    [
      "everything wrong at once",
      makeCampaign({ bid: 0, bidStrategy: "CPM", productIds: [], creative: { ...VIDEO, href_link: "" } }, "banner-ads"),
      "lm",
      ["campaigns:activation.incomplete", "campaigns:activation.missingSalesProducts", "campaigns:activation.adFormat"],
    ],
  ])("%s", (_label, campaign, settings, expected) => {
    expect(activationProblems(campaign, settings === "lm" ? LM : PLAIN)).toEqual(expected);
  });

  it.each<[TeamStatus | null, boolean]>([
    ["active", false],
    ["suspended", true],
    ["archived", true],
    [null, true],
  ])("a team %s blocks enabling: %s", (teamStatus, blocked) => {
    expect(activationProblems(makeCampaign(), PLAIN, { teamStatus }).includes("campaigns:activation.teamInactive")).toBe(blocked);
  });
});

describe("budgetWarning: a total budget above the wallet's balance", () => {
  it.each<[string, number | null, number | null, boolean]>([
    ["above", 10_001, 10_000, true],
    ["equal", 10_000, 10_000, false],
    ["below", 9_999, 10_000, false],
    ["no budget", null, 10_000, false],
    ["no wallet", 10_000, null, false],
    ["empty wallet", 1, 0, true],
  ])("%s", (_label, pacingTotal, balance, warned) => {
    const warning = budgetWarning({ pacingTotal }, balance === null ? null : { balance });
    expect(warning !== null).toBe(warned);
    if (warning) expect(warning).toEqual({ reason: "campaigns:budget.aboveBalance", budgetCents: pacingTotal, balanceCents: balance });
  });
});

describe("walletFlag: insufficient_funds for an unusable wallet", () => {
  it.each<[string, { status: WalletStatus; balance: number } | null, boolean]>([
    ["active with money", { status: "active", balance: 1 }, false],
    ["test with money", { status: "test", balance: 500 }, false],
    ["balance 0", { status: "active", balance: 0 }, true],
    ["balance below 0", { status: "active", balance: -5 }, true],
    ["archived", { status: "archived", balance: 500 }, true],
    ["disabled", { status: "disabled", balance: 500 }, true],
    ["no wallet", null, true],
  ])("%s", (_label, wallet, flagged) => {
    expect(walletFlag(wallet)).toBe(flagged);
  });

  it("gives the wallet fields a campaign stores", () => {
    expect(walletFields({ id: "w1", label: "Main", credit: 5000, balance: 0, status: "active" })).toEqual({
      wallet: "w1",
      selectedWallet: { label: "Main", credit: 5000, balance: 0, status: "active" },
      insufficient_funds: true,
    });
    expect(walletFields(null)).toEqual({ wallet: null, selectedWallet: null, insufficient_funds: true });
  });
});
