/**
 * Campaign forms: one schema each, shared by the browser (conform) and the actions. Messages are
 * i18n keys ("campaigns:…" for this area's, the others common's). Money is typed in currency
 * units and becomes integer cents here; rules that need the retailer settings (bid limits,
 * strategies) are checked by the service with the same domain functions.
 */
import * as z from "zod/mini";
import { CAMPAIGN_ACTIONS } from "~/domain/campaigns/actions";
import { isDay } from "~/domain/metrics/periods";
import { parseAmountToMinor } from "~/domain/money";
import { BID_STRATEGIES, CAMPAIGN_TYPES, PLACEMENTS } from "~/domain/retailer-settings";
import { PACING_DEVICES, PACING_PLACEMENTS } from "~/domain/campaigns/pacing";

export const createCampaignIntent = "create-campaign";
export const updateGeneralIntent = "update-general";
export const updateBiddingIntent = "update-bidding";
export const applyMinBidIntent = "apply-min-bid";
export const updateBudgetIntent = "update-budget";
export const campaignActionIntent = "campaign-action";
export const duplicateCampaignIntent = "duplicate-campaign";

/** A yyyy-mm-dd day from a date input (empty = none): a real calendar day (2026-02-30 is not). */
const optionalDay = z
  .pipe(
    z.optional(z.string().check(z.trim())),
    z.transform((v) => (v ? v : null)),
  )
  .check(z.refine((v) => v === null || isDay(v), "campaigns:form.dayInvalid"));

const name = z
  .string({ error: "campaigns:form.nameAndStartRequired" })
  .check(z.trim(), z.minLength(1, "campaigns:form.nameAndStartRequired"), z.maxLength(120, "validation.tooLong"));

const startDay = z
  .string({ error: "campaigns:form.nameAndStartRequired" })
  .check(z.trim(), z.minLength(1, "campaigns:form.nameAndStartRequired"), z.refine(isDay, "campaigns:form.dayInvalid"));

const endNotBeforeStart = (v: { startDay?: string | null; endDay?: string | null }) => !v.startDay || !v.endDay || v.endDay >= v.startDay;

/** An optional amount in currency units → cents; empty is null, 0 or less is `notPositive`. */
const optionalAmount = (notPositive: null | 0) =>
  z.pipe(
    z.optional(z.string().check(z.trim())),
    z.transform((value: string | undefined, ctx) => {
      if (!value) return null;
      const parsed = parseAmountToMinor(value);
      if (parsed.ok) return parsed.value;
      if (parsed.reason === "amount.notPositive") return notPositive;
      ctx.issues.push({ code: "custom", message: `campaigns:form.${parsed.reason === "amount.tooLarge" ? "amountTooLarge" : "amountInvalid"}`, input: value });
      return z.NEVER;
    }),
  );

/** An optional amount in currency units → cents; empty or 0 or less is dropped (null). */
export const optionalCents = optionalAmount(null);

/**
 * An optional bid in currency units → cents; empty is null (the campaign's bid applies). A bid of
 * 0 or less is not dropped: it is 0, a bid outside the limits, so the use case refuses it with
 * 'Minimum allowed bid: {0}' and offers 'Apply min bid' (spec section 5), instead of silently
 * bidding the campaign's bid.
 */
export const optionalBidCents = optionalAmount(0);

/** A required amount in currency units → cents (0 allowed for FIXED). */
export const requiredCents = z.pipe(
  z.string({ error: "campaigns:form.bidRequired" }).check(z.trim(), z.minLength(1, "campaigns:form.bidRequired")),
  z.transform((value: string, ctx) => {
    if (/^0+(?:[.,]0{1,2})?$/.test(value)) return 0;
    const parsed = parseAmountToMinor(value);
    if (!parsed.ok) {
      ctx.issues.push({ code: "custom", message: parsed.reason === "amount.notPositive" ? "campaigns:form.bidNotPositive" : "campaigns:form.amountInvalid", input: value });
      return z.NEVER;
    }
    return parsed.value;
  }),
);

export const CreateCampaignSchema = z
  .object({
    intent: z.literal(createCampaignIntent),
    name,
    startDay,
    endDay: optionalDay,
    campaignType: z.enum(CAMPAIGN_TYPES, { error: "campaigns:form.typeInvalid" }),
  })
  .check(z.refine(endNotBeforeStart, { path: ["endDay"], message: "campaigns:form.endBeforeStart" }));
export type CreateCampaignValue = z.infer<typeof CreateCampaignSchema>;

const version = z.coerce.number().check(z.int(), z.gte(1));

export const UpdateGeneralSchema = z
  .object({
    intent: z.literal(updateGeneralIntent),
    version,
    name,
    startDay,
    endDay: optionalDay,
    /** Empty = no wallet. */
    wallet: z.pipe(
      z.optional(z.string().check(z.trim())),
      z.transform((v) => v || null),
    ),
  })
  .check(z.refine(endNotBeforeStart, { path: ["endDay"], message: "campaigns:form.endBeforeStart" }));
export type UpdateGeneralValue = z.infer<typeof UpdateGeneralSchema>;

export const UpdateBiddingSchema = z.object({
  intent: z.literal(updateBiddingIntent),
  version,
  bidStrategy: z.enum(BID_STRATEGIES, { error: "campaigns:form.strategyInvalid" }),
  bid: requiredCents,
  bid_search: optionalBidCents,
  bid_plp: optionalBidCents,
  bid_pdp: optionalBidCents,
  bid_hub: optionalBidCents,
  bid_home: optionalBidCents,
});
/** The placement bid fields, one per placement. */
export const PLACEMENT_BID_FIELDS = PLACEMENTS.map((p) => `bid_${p}` as const);
export type UpdateBiddingValue = z.infer<typeof UpdateBiddingSchema>;

export const ApplyMinBidSchema = z.object({
  intent: z.literal(applyMinBidIntent),
  version,
  /** The strategy chosen on the form when its bid was refused; its minimum applies (and it is saved). */
  bidStrategy: z.catch(z.optional(z.enum(BID_STRATEGIES)), undefined),
});

export const UpdateBudgetSchema = z.object({
  intent: z.literal(updateBudgetIntent),
  version,
  pacingTotal: optionalCents,
  pacingDaily: optionalCents,
  pacing_search: optionalCents,
  pacing_plp: optionalCents,
  pacing_hub: optionalCents,
  pacing_pdp: optionalCents,
  pacing_home: optionalCents,
  device_mobile: optionalCents,
  device_tablet: optionalCents,
  device_app: optionalCents,
  device_unknown: optionalCents,
});
export const PACING_PLACEMENT_FIELDS = PACING_PLACEMENTS.map((p) => `pacing_${p}` as const);
export const PACING_DEVICE_FIELDS = PACING_DEVICES.map((d) => `device_${d}` as const);
export type UpdateBudgetValue = z.infer<typeof UpdateBudgetSchema>;

export const CampaignActionSchema = z.object({
  intent: z.literal(campaignActionIntent),
  version,
  action: z.enum(CAMPAIGN_ACTIONS, { error: "campaigns:actions.unknown" }),
  /** Required by reject (checked by the rule, so the message is the rule's). */
  reason: z.optional(z.string().check(z.trim(), z.maxLength(500, "validation.tooLong"))),
  /** Set by the confirmation step of destructive actions (delete, archive). */
  confirmed: z.pipe(
    z.optional(z.string()),
    z.transform((v) => v === "yes"),
  ),
});
export type CampaignActionValue = z.infer<typeof CampaignActionSchema>;

/** Actions that ask for a confirmation first. */
export const CONFIRMED_ACTIONS = new Set(["delete", "archive", "disable", "suspend"]);
