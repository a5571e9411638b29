/**
 * The forms of a campaign's Keywords and Categories sections: one schema each, shared by the
 * browser (conform) and the actions. Messages are i18n keys of the campaignKeywords namespace
 * (the bid ones the campaigns namespace's, as on Bidding).
 */
import * as z from "zod/mini";
import { DEFAULT_KEYWORD_COLUMN } from "~/domain/campaigns/keyword-csv";
import { KEYWORD_CSV_MAX_BYTES, MAX_NEGATIVE_KEYWORDS, parseKeywordLines, parseNegativeKeywords, TARGET_KINDS } from "~/domain/campaigns/targets";
import { optionalBidCents } from "~/forms/campaigns/campaigns";
import { withValues } from "~/domain/message";

export { KEYWORD_CSV_MAX_BYTES };

export const addKeywordsIntent = "add-keywords";
export const importKeywordsIntent = "import-keywords";
export const updateTargetIntent = "update-target";
export const removeTargetsIntent = "remove-targets";
export const applyMinBidTargetsIntent = "apply-min-bid-targets";
export const negativeKeywordsIntent = "save-negative-keywords";
export const addCategoryIntent = "add-category";
export const autoTargetingIntent = "auto-targeting";

/** Keywords one typed list may hold (a CSV import takes up to MAX_KEYWORDS). */
export const MAX_KEYWORDS_PER_ADD = 5_000;

const version = z.coerce.number({ error: "campaignKeywords:errors.badRequest" }).check(z.int(), z.gte(1, "campaignKeywords:errors.badRequest"));
const key = z.string({ error: "campaignKeywords:errors.badRequest" }).check(z.trim(), z.minLength(1, "campaignKeywords:errors.badRequest"), z.maxLength(300));
const flag = z.pipe(
  z.optional(z.string()),
  z.transform((v) => v === "yes" || v === "on"),
);
const ids = z.pipe(
  z.optional(z.array(z.string().check(z.maxLength(200)))),
  z.transform((v) => [...new Set(v ?? [])]),
);

export const AddKeywordsSchema = z.object({
  intent: z.literal(addKeywordsIntent),
  version,
  /** One keyword per line (spec section 9). */
  keywords: z.pipe(
    z.string({ error: "campaignKeywords:errors.noKeywords" }).check(z.maxLength(500_000, "campaignKeywords:errors.tooManyTyped")),
    z.transform((text: string, ctx) => {
      const parsed = parseKeywordLines(text);
      if (!parsed.keywords.length) ctx.issues.push({ code: "custom", message: "campaignKeywords:errors.noKeywords", input: text });
      else if (parsed.keywords.length > MAX_KEYWORDS_PER_ADD) ctx.issues.push({ code: "custom", message: "campaignKeywords:errors.tooManyTyped", input: text });
      return parsed;
    }),
  ),
  bid: optionalBidCents,
  offers: ids,
  applyMin: flag,
});
export type AddKeywordsValue = z.infer<typeof AddKeywordsSchema>;

export const ImportKeywordsSchema = z.object({
  intent: z.literal(importKeywordsIntent),
  version,
  file: z.file({ error: "campaignKeywords:errors.noFile" }).check(z.minSize(1, "campaignKeywords:errors.noFile"), z.maxSize(KEYWORD_CSV_MAX_BYTES, "campaignKeywords:errors.fileTooLarge")),
  column: z.pipe(
    z.optional(z.string().check(z.trim(), z.maxLength(100))),
    z.transform((v) => v || DEFAULT_KEYWORD_COLUMN),
  ),
  bid: optionalBidCents,
  /** add (default): the file's keywords join the list; replace: they become the list. */
  mode: z.pipe(
    z.optional(z.enum(["add", "replace"])),
    z.transform((v) => v ?? "add"),
  ),
  applyMin: flag,
});
export type ImportKeywordsValue = z.infer<typeof ImportKeywordsSchema>;

export const UpdateTargetSchema = z.object({
  intent: z.literal(updateTargetIntent),
  version,
  kind: z.enum(TARGET_KINDS, { error: "campaignKeywords:errors.badRequest" }),
  key,
  on: flag,
  bid: optionalBidCents,
  placement: z.optional(z.enum(["plp", "hub", "pdp"])),
  /** "yes" when the form lists the products to choose (else the offers stay as they are). */
  editOffers: flag,
  offers: ids,
  applyMin: flag,
});
export type UpdateTargetValue = z.infer<typeof UpdateTargetSchema>;

export const RemoveTargetsSchema = z.object({
  intent: z.literal(removeTargetsIntent),
  version,
  kind: z.enum(TARGET_KINDS, { error: "campaignKeywords:errors.badRequest" }),
  keys: z.pipe(
    z.array(key, { error: "campaignKeywords:errors.noneSelected" }).check(z.minLength(1, "campaignKeywords:errors.noneSelected")),
    z.transform((v: string[]) => [...new Set(v)]),
  ),
});
export type RemoveTargetsValue = z.infer<typeof RemoveTargetsSchema>;

export const ApplyMinBidTargetsSchema = z.object({
  intent: z.literal(applyMinBidTargetsIntent),
  version,
  kind: z.enum(TARGET_KINDS, { error: "campaignKeywords:errors.badRequest" }),
});

export const NegativeKeywordsSchema = z.object({
  intent: z.literal(negativeKeywordsIntent),
  version,
  negatives: z.pipe(
    z.optional(z.string().check(z.maxLength(120_000, "campaignKeywords:errors.tooManyNegatives"))),
    z.transform((text: string | undefined, ctx) => {
      const parsed = parseNegativeKeywords(text ?? "");
      if (parsed.keys.length > MAX_NEGATIVE_KEYWORDS) ctx.issues.push({ code: "custom", message: "campaignKeywords:errors.tooManyNegatives", input: text });
      // A line that cannot be a keyword (too long, or reserved) is pointed at, not dropped in silence.
      else if (parsed.bad) {
        const lines = parseKeywordLines(text ?? "").badLines.join(", ");
        ctx.issues.push({ code: "custom", message: withValues("campaignKeywords:errors.badNegatives", { count: parsed.bad, lines }), input: text });
      }
      return parsed.keys;
    }),
  ),
});

export const AddCategorySchema = z.object({
  intent: z.literal(addCategoryIntent),
  version,
  kind: z.enum(["category", "productCategory"], { error: "campaignKeywords:errors.badRequest" }),
  categoryId: key,
  placement: z.pipe(
    z.optional(z.enum(["plp", "hub"])),
    z.transform((v) => v ?? null),
  ),
  bid: optionalBidCents,
  offers: ids,
  applyMin: flag,
});
export type AddCategoryValue = z.infer<typeof AddCategorySchema>;

export const AutoTargetingSchema = z.object({
  intent: z.literal(autoTargetingIntent),
  version,
  state: z.enum(["on", "off", "refresh"], { error: "campaignKeywords:errors.badRequest" }),
});
