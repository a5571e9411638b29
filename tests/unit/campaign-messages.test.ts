/**
 * Every reason the campaign rules return is an i18n key ('ns:key', or a common key) translated in
 * both languages, the spec's words letter for letter; one key per message (no duplicates).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const load = (locale: string, ns: string) =>
  JSON.parse(fs.readFileSync(path.resolve(__dirname, `../../locales/${locale}/${ns}.json`), "utf8")) as Record<string, unknown>;
const lookup = (locale: string, fullKey: string) => {
  const [ns, key] = fullKey.includes(":") ? fullKey.split(":") : ["common", fullKey];
  return key.split(".").reduce<unknown>((v, k) => (v && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined), load(locale, ns));
};

const REASONS = [
  // activation.ts
  "campaigns:activation.incompleteCampaign",
  "campaigns:activation.incomplete",
  "campaigns:activation.missingSalesProducts",
  "campaigns:activation.missingEndDate",
  "campaigns:activation.adFormat",
  "campaigns:activation.adFormatNeedsProduct",
  "campaigns:activation.teamInactive",
  "campaigns:budget.aboveBalance",
  // actions.ts, bulk.ts, bidding.ts, pacing.ts
  "errors.insufficientPermissions",
  "campaigns:actions.notAllowed",
  "campaigns:errors.onlyDraftDelete",
  "campaigns:actions.reasonRequired",
  "campaigns:form.bidNotPositive",
  "campaigns:bidding.minBid",
  "campaigns:bidding.maxBid",
  "campaigns:budget.dailyNotBelowTotal",
  "campaigns:budget.placementNotBelowDaily",
  "campaigns:form.dayInvalid",
  "campaigns:form.endBeforeStart",
  "campaigns:campaign.edit.archived",
  // dayparting.ts, targeting.ts
  "campaignTargeting:errors.daypartingEmpty",
  "campaignTargeting:errors.placementsEmpty",
  "campaignTargeting:errors.placementNotOfType",
  "campaignTargeting:errors.slotsEmpty",
  "campaignTargeting:errors.slotNotOfType",
  "campaignTargeting:errors.noServedSlot",
];

describe("campaign rule messages", () => {
  it.each(["en-GB", "fr"])("%s translates every reason", (locale) => {
    const missing = REASONS.filter((key) => typeof lookup(locale, key) !== "string");
    expect(missing).toEqual([]);
  });

  it.each<[string, string]>([
    ["campaigns:activation.incompleteCampaign", "Incomplete Campaign"],
    ["campaigns:activation.missingSalesProducts", "Missing Products for Sales Attribution"],
    ["campaigns:activation.missingEndDate", "Missing End Date"],
    ["campaigns:activation.adFormat", "Missing or Incomplete Ad Format"],
    ["campaigns:activation.adFormatNeedsProduct", "A campaign with an ad format needs at least one product."],
    ["campaigns:errors.onlyDraftDelete", "Only draft campaigns can be deleted"],
    ["errors.insufficientPermissions", "Insufficient permissions"],
    ["campaigns:bidding.minBid", "Minimum allowed bid: {{0}}"],
    ["campaigns:bidding.maxBid", "Maximum allowed bid: {{0}}"],
  ])("en-GB %s is the spec's words", (key, text) => {
    expect(lookup("en-GB", key)).toBe(text);
  });

  it.each(["en-GB", "fr"])("%s keeps each of these messages under one key", (locale) => {
    const texts: string[] = [];
    const walk = (v: unknown) => {
      if (typeof v === "string") texts.push(v);
      else if (v && typeof v === "object") Object.values(v).forEach(walk);
    };
    for (const ns of ["campaigns", "campaignList", "campaignTargeting", "campaignEditor"]) walk(load(locale, ns));
    for (const key of [
      "campaigns:errors.onlyDraftDelete",
      "campaigns:bidding.minBid",
      "campaigns:bidding.maxBid",
      // Shown alike by the editor, its actions and the bulk review.
      "campaigns:activation.missingSalesProducts",
      "campaigns:activation.missingEndDate",
      "campaigns:activation.adFormat",
      "campaigns:activation.adFormatNeedsProduct",
      "campaigns:activation.teamInactive",
      "campaignTargeting:errors.daypartingEmpty",
    ]) {
      const text = lookup(locale, key);
      expect(texts.filter((t) => t === text), key).toHaveLength(1);
    }
  });
});
