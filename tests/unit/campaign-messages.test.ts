/** Every reason the campaign rules return is translated, the spec's words letter for letter. */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const load = (locale: string) =>
  JSON.parse(fs.readFileSync(path.resolve(__dirname, `../../locales/${locale}/campaigns.json`), "utf8")) as Record<string, unknown>;
const lookup = (tree: Record<string, unknown>, key: string) =>
  key.split(".").reduce<unknown>((v, k) => (v && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined), tree);

const REASONS = [
  // campaign-activation.ts
  "activation.incompleteCampaign",
  "activation.incomplete",
  "activation.missingSalesProducts",
  "activation.missingEndDate",
  "activation.adFormat",
  "activation.adFormatNeedsProduct",
  "activation.teamInactive",
  "budget.aboveBalance",
  // campaign-bulk.ts (and the rules it reuses)
  "campaign.action.forbidden",
  "campaign.action.notAllowed",
  "campaign.delete.onlyDraft",
  "campaign.incomplete",
  "campaign.reject.reasonRequired",
  "campaign.bid.invalid",
  "campaign.bid.tooLow",
  "campaign.bid.tooHigh",
  "campaign.pacing.dailyNotBelowTotal",
  "campaign.pacing.placementNotBelowDaily",
  "campaign.endDate.invalid",
  "campaign.endDate.beforeStart",
  "campaign.edit.archived",
  // dayparting.ts
  "campaign.dayparting.empty",
  // campaign-history-csv.ts headers
  "history.csv.at",
  "history.csv.by",
  "history.csv.action",
  "history.csv.field",
  "history.csv.before",
  "history.csv.after",
];

describe("campaign rule messages", () => {
  it.each(["en-GB", "fr"])("%s translates every reason", (locale) => {
    const tree = load(locale);
    const missing = REASONS.filter((key) => typeof lookup(tree, key) !== "string");
    expect(missing).toEqual([]);
  });

  it.each<[string, string]>([
    ["activation.incompleteCampaign", "Incomplete Campaign"],
    ["activation.missingSalesProducts", "Missing Products for Sales Attribution"],
    ["activation.missingEndDate", "Missing End Date"],
    ["activation.adFormat", "Missing or Incomplete Ad Format"],
    ["activation.adFormatNeedsProduct", "A campaign with an ad format needs at least one product."],
    ["campaign.delete.onlyDraft", "Only draft campaigns can be deleted"],
    ["campaign.incomplete", "Incomplete Campaign"],
    ["campaign.action.forbidden", "Insufficient permissions"],
    ["campaign.bid.tooLow", "Minimum allowed bid: {{limit}}"],
    ["campaign.bid.tooHigh", "Maximum allowed bid: {{limit}}"],
  ])("en-GB %s is the spec's words", (key, text) => {
    expect(lookup(load("en-GB"), key)).toBe(text);
  });
});
