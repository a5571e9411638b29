/**
 * The quick campaign builder's form (issue 10 section 3): one schema for the whole draft, carried
 * from step to step in the URL (GET forms) and posted once at the end. The first step's fields
 * are checked by QuickGeneralSchema before any later step is shown.
 */
import * as z from "zod/mini";
import { isDay } from "~/domain/metrics/periods";
import { BID_STRATEGIES, CAMPAIGN_TYPES } from "~/domain/retailer-settings";
import { optionalBidCents, requiredCents } from "~/forms/campaigns/campaigns";

/** The keywords text travels in the URL: kept well under the server's 16 KB header limit. */
export const QUICK_KEYWORDS_MAX = 6_000;

export const createQuickCampaignIntent = "create-quick-campaign";
export const QUICK_STEPS = ["general", "products", "keywords", "categories", "review"] as const;
export type QuickStep = (typeof QUICK_STEPS)[number];

const ids = z.pipe(
  z.optional(z.array(z.string().check(z.trim(), z.maxLength(256)))),
  z.transform((v) => [...new Set((v ?? []).filter(Boolean))]),
);

const general = {
  name: z
    .string({ error: "campaigns:form.nameAndStartRequired" })
    .check(z.trim(), z.minLength(1, "campaigns:form.nameAndStartRequired"), z.maxLength(120, "validation.tooLong")),
  startDay: z
    .string({ error: "campaigns:form.nameAndStartRequired" })
    .check(z.trim(), z.minLength(1, "campaigns:form.nameAndStartRequired"), z.refine(isDay, "campaigns:form.dayInvalid")),
  campaignType: z.enum(CAMPAIGN_TYPES, { error: "campaigns:form.typeInvalid" }),
  /** Empty = no wallet yet. */
  wallet: z.pipe(
    z.optional(z.string().check(z.trim())),
    z.transform((v) => v || null),
  ),
  /** The campaign's bid strategy and bid, checked as the editor's Bidding (the same schema parts). */
  bidStrategy: z.enum(BID_STRATEGIES, { error: "campaigns:form.strategyInvalid" }),
  campaignBid: requiredCents,
  /** The bid of the keywords and categories (currency units), empty = none. */
  bid: optionalBidCents,
};

export const QuickGeneralSchema = z.object(general);

export const QuickCampaignSchema = z.object({
  intent: z.literal(createQuickCampaignIntent),
  ...general,
  products: ids,
  keywords: z.pipe(
    z.optional(z.string().check(z.maxLength(QUICK_KEYWORDS_MAX, "validation.tooLong"))),
    z.transform((v) => v ?? ""),
  ),
  categories: ids,
  productCategories: ids,
});
export type QuickCampaignValue = z.infer<typeof QuickCampaignSchema>;
