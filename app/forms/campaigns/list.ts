/**
 * The campaign list's forms (issue 4 section 2): custom views (save, rename, delete) and the bulk
 * edit (review, then apply). One schema each, read by the actions; the browser gets the same
 * rules as native attributes (required, maxLength, type=date). Messages are i18n keys.
 */
import * as z from "zod/mini";
import { CAMPAIGN_ACTIONS, type CampaignAction } from "~/domain/campaigns/actions";
import { isDay } from "~/domain/metrics/periods";
import { optionalCents, requiredCents } from "~/forms/campaigns/campaigns";

export const saveViewIntent = "save-view";
export const renameViewIntent = "rename-view";
export const deleteViewIntent = "delete-view";
export const bulkReviewIntent = "bulk-review";
export const bulkApplyIntent = "bulk-apply";

export const VIEW_NAME_MAX = 60;
/** At most one page and a bit: the review lists every campaign. */
export const MAX_BULK_CAMPAIGNS = 100;

/** Actions offered in bulk: reject needs a reason per campaign, so it stays in the editor. */
export const BULK_ACTIONS = CAMPAIGN_ACTIONS.filter((a) => a !== "reject") as Exclude<CampaignAction, "reject">[];

const viewName = z
  .string({ error: "campaignList:views.nameRequired" })
  .check(z.trim(), z.minLength(1, "campaignList:views.nameRequired"), z.maxLength(VIEW_NAME_MAX, "validation.tooLong"));
const viewId = z.string().check(z.trim(), z.minLength(1), z.maxLength(128));
/** An optional text field; absent reads as "". */
const optionalText = z._default(z.optional(z.string().check(z.trim())), "");

export const SaveViewSchema = z.object({
  intent: z.literal(saveViewIntent),
  name: viewName,
  /** The list's query string when the form was shown (filters, sort, columns). */
  query: z._default(z.optional(z.string().check(z.maxLength(4000))), ""),
});

export const RenameViewSchema = z.object({
  intent: z.literal(renameViewIntent),
  viewId,
  name: viewName,
});

export const DeleteViewSchema = z.object({
  intent: z.literal(deleteViewIntent),
  viewId,
  confirmed: z.literal("yes", { error: "campaignList:views.confirmDelete" }),
});

/** The change of a bulk edit, as the select names it: "action:pause", "endDay", "bid", "daily". */
export const BULK_CHANGES = [...BULK_ACTIONS.map((a) => `action:${a}` as const), "endDay", "bid", "daily"] as const;
export type BulkChangeChoice = (typeof BULK_CHANGES)[number];

export const BulkEditSchema = z.pipe(
  z.object({
    intent: z.enum([bulkReviewIntent, bulkApplyIntent]),
    campaignIds: z
      .array(z.string().check(z.trim(), z.minLength(1), z.maxLength(128)))
      .check(z.minLength(1, "campaignList:bulk.noneSelected"), z.maxLength(MAX_BULK_CAMPAIGNS, "campaignList:bulk.tooMany")),
    change: z.enum(BULK_CHANGES, { error: "campaignList:bulk.chooseChange" }),
    endDay: optionalText,
    bid: optionalText,
    daily: optionalText,
    /** The version each campaign was reviewed at (apply only): id -> version. */
    versions: z._default(z.record(z.string(), z.coerce.number().check(z.int(), z.gte(1))), {}),
  }),
  z.transform((value, ctx) => {
    const issue = (path: string, message: string) => ctx.issues.push({ code: "custom", path: [path], message, input: value });
    const base = { intent: value.intent, campaignIds: [...new Set(value.campaignIds)], versions: value.versions };
    if (value.change.startsWith("action:")) {
      return { ...base, change: { kind: "action" as const, action: value.change.slice("action:".length) as CampaignAction } };
    }
    if (value.change === "endDay") {
      if (!isDay(value.endDay)) {
        issue("endDay", "campaigns:form.dayInvalid");
        return z.NEVER;
      }
      return { ...base, change: { kind: "endDay" as const, day: value.endDay } };
    }
    if (value.change === "bid") {
      const bid = requiredCents.safeParse(value.bid);
      if (!bid.success) {
        issue("bid", bid.error.issues[0]?.message ?? "campaigns:form.amountInvalid");
        return z.NEVER;
      }
      return { ...base, change: { kind: "bid" as const, cents: bid.data } };
    }
    const daily = optionalCents.safeParse(value.daily);
    if (!daily.success) {
      issue("daily", daily.error.issues[0]?.message ?? "campaigns:form.amountInvalid");
      return z.NEVER;
    }
    return { ...base, change: { kind: "daily" as const, cents: daily.data } };
  }),
);
export type BulkEditValue = z.infer<typeof BulkEditSchema>;

/** The bulk form's fields as a plain object for the schema (repeated campaignId, version.<id>). */
export function bulkEditInput(formData: FormData) {
  const versions: Record<string, string> = {};
  for (const [key, value] of formData) {
    if (key.startsWith("version.") && typeof value === "string") versions[key.slice("version.".length)] = value;
  }
  const text = (key: string) => {
    const v = formData.get(key);
    return typeof v === "string" ? v : undefined;
  };
  return {
    intent: text("intent"),
    campaignIds: formData.getAll("campaignId").filter((v): v is string => typeof v === "string" && v.trim() !== ""),
    change: text("change"),
    endDay: text("endDay"),
    bid: text("bid"),
    daily: text("daily"),
    versions,
  };
}
