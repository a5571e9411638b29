/**
 * The retailer settings form (operators): one schema shared by conform in the browser and by the
 * action. Field names mirror the screen (bid limits typed in currency units, slots as rows), the
 * rules are app/domain/retailer-settings.ts's, and the parsed value is a RetailerSettings in cents.
 * Messages are i18n keys of the "retailer" namespace.
 */
import * as z from "zod/mini";
import { parseAmountToMinor } from "~/domain/money";
import {
  BID_STRATEGIES,
  CAMPAIGN_TYPES,
  checkBannerSize,
  checkBidBound,
  checkBidLimit,
  checkSlotName,
  checkSlotPlacements,
  checkStrategies,
  duplicateIndexes,
  PLACEMENTS,
  type BidLimit,
  type BidStrategy,
  type CampaignType,
  type CampaignTypeSettings,
  type Placement,
  type RetailerSettings,
  type SettingsReason,
} from "~/domain/retailer-settings";
import { numberFormat } from "~/domain/intl";

export const saveRetailerSettingsIntent = "save-retailer-settings";
export const resetRetailerSettingsIntent = "reset-retailer-settings";

/** Blank rows offered under the slots and banner sizes, so new ones can be added without JS. */
export const BLANK_ROWS = 2;

const checkbox = z.pipe(
  z.optional(z.string()),
  z.transform((v) => v === "on"),
);

/** An optional text, trimmed, at most `max` characters. */
const optionalText = (max: number, message: string) => z.optional(z.string().check(z.trim(), z.maxLength(max, message)));

/** A slot (or a banner size): its name, the placements it serves, and a 'remove' tick. */
const RowSchema = z.object({
  name: optionalText(40, "retailer:errors.slot.nameInvalid"),
  placements: z.array(z.enum(PLACEMENTS)),
  remove: checkbox,
});
type Row = z.infer<typeof RowSchema>;

const LimitSchema = z.object({
  min: optionalText(20, "retailer:errors.amount.invalid"),
  max: optionalText(20, "retailer:errors.amount.invalid"),
});

const TypeSchema = z.object({
  strategies: z.array(z.enum(BID_STRATEGIES)),
  sellerStrategies: z.array(z.enum(BID_STRATEGIES)),
  limits: z.object({ CPC: LimitSchema, CPM: LimitSchema, vCPM: LimitSchema, FIXED: LimitSchema }),
  placements: z.array(z.enum(PLACEMENTS)),
  slots: z.array(RowSchema).check(z.maxLength(50)),
  moderation: checkbox,
});
type TypeForm = z.infer<typeof TypeSchema>;

/** The form's fields before the rules and the conversion: what getZodConstraint reads. */
export const RetailerSettingsFieldsSchema = z.object({
  intent: z.literal(saveRetailerSettingsIntent),
  version: z.coerce.number().check(z.int(), z.gte(1)),
  enabledTypes: z.array(z.enum(CAMPAIGN_TYPES)),
  types: z.object({ "sponsored-products": TypeSchema, "banner-ads": TypeSchema }),
  bannerSizes: z.array(RowSchema).check(z.maxLength(50)),
  storedBannerSizes: optionalText(500, "retailer:errors.bannerSize.invalid"),
  preview: checkbox,
  lmRetailer: checkbox,
  floorPrices: checkbox,
  suggestedBids: checkbox,
  fixedCpc: checkbox,
  globalMinBid: optionalText(20, "retailer:errors.amount.invalid"),
});
type FormValue = z.infer<typeof RetailerSettingsFieldsSchema>;

type AmountReason = SettingsReason | "amount.invalid";

/** An amount typed in currency units ('0.15', '0,15'): its cents, null when blank, or a reason. */
export function parseBidAmount(raw: string | undefined): { cents: number | null; reason: AmountReason | null } {
  if (raw === undefined || raw.trim() === "") return { cents: null, reason: null };
  const parsed = parseAmountToMinor(raw);
  if (!parsed.ok) {
    const reason: AmountReason = parsed.reason === "amount.notPositive" ? "amount.tooLow" : parsed.reason === "amount.tooLarge" ? "amount.tooHigh" : "amount.invalid";
    return { cents: null, reason };
  }
  return { cents: parsed.value, reason: checkBidBound(parsed.value) };
}

/** The rows kept: not ticked for removal and not left blank. */
function keptRows(rows: Row[]): { row: Row & { name: string }; index: number }[] {
  return rows
    .map((row, index) => ({ row: { ...row, name: row.name ?? "" }, index }))
    .filter(({ row }) => !row.remove && (row.name !== "" || row.placements.length > 0));
}

/** Banner sizes are compared and stored in lower case ('670X980' is '670x980'). */
const sizeName = (name: string) => name.toLowerCase();

export function splitSizes(text: string | undefined): string[] {
  return (text ?? "")
    .split(/[\s,;]+/)
    .map((s) => sizeName(s.trim()))
    .filter(Boolean);
}

function refine(value: FormValue, ctx: z.core.$RefinementCtx<FormValue>) {
  const issue = (path: (string | number)[], reason: AmountReason) =>
    ctx.addIssue({ code: "custom", path, message: `retailer:errors.${reason}` });

  if (!value.enabledTypes.length) issue(["enabledTypes"], "enabledTypes.empty");

  for (const type of CAMPAIGN_TYPES) {
    const form = value.types[type];
    const base = ["types", type];
    for (const { field, reason } of checkStrategies(form.strategies, form.sellerStrategies)) issue([...base, field], reason);
    for (const strategy of BID_STRATEGIES) {
      const min = parseBidAmount(form.limits[strategy].min);
      const max = parseBidAmount(form.limits[strategy].max);
      if (min.reason) issue([...base, "limits", strategy, "min"], min.reason);
      if (max.reason) issue([...base, "limits", strategy, "max"], max.reason);
      if (!min.reason && !max.reason) {
        for (const { field, reason } of checkBidLimit(min.cents, max.cents)) issue([...base, "limits", strategy, field], reason);
      }
    }
    if (!form.placements.length) issue([...base, "placements"], "placements.empty");
    const slots = keptRows(form.slots);
    for (const { row, index } of slots) {
      const nameReason = checkSlotName(row.name);
      if (nameReason) issue([...base, "slots", index, "name"], nameReason);
      const placementReason = checkSlotPlacements(row.placements, form.placements);
      if (placementReason) issue([...base, "slots", index, "placements"], `slot.${placementReason}`);
    }
    for (const at of duplicateIndexes(slots.map(({ row }) => row.name))) issue([...base, "slots", slots[at].index, "name"], "slot.duplicate");
  }

  const sizes = keptRows(value.bannerSizes);
  for (const { row, index } of sizes) {
    const sizeReason = row.name ? checkBannerSize(sizeName(row.name)) : "slot.nameRequired";
    if (sizeReason) issue(["bannerSizes", index, "name"], sizeReason === "slot.nameRequired" ? "bannerSize.invalid" : sizeReason);
    const placementReason = checkSlotPlacements(row.placements, value.types["banner-ads"].placements);
    if (placementReason) issue(["bannerSizes", index, "placements"], `bannerSize.${placementReason}`);
  }
  for (const at of duplicateIndexes(sizes.map(({ row }) => sizeName(row.name)))) issue(["bannerSizes", sizes[at].index, "name"], "bannerSize.duplicate");

  const stored = splitSizes(value.storedBannerSizes);
  if (stored.some((s) => checkBannerSize(s))) issue(["storedBannerSizes"], "bannerSize.invalid");
  else if (duplicateIndexes(stored).length) issue(["storedBannerSizes"], "bannerSize.duplicate");

  const globalMin = parseBidAmount(value.globalMinBid);
  if (globalMin.reason) issue(["globalMinBid"], globalMin.reason);
}

/** Placements in the order of `order`, then any others in the usual order. */
function inOrder<T extends string>(values: readonly T[], order: readonly T[], all: readonly T[]): T[] {
  const rank = (v: T) => {
    const at = order.indexOf(v);
    return at >= 0 ? at : order.length + all.indexOf(v);
  };
  return [...new Set(values)].sort((a, b) => rank(a) - rank(b));
}

function toTypeSettings(form: TypeForm): CampaignTypeSettings {
  const bidLimits: Partial<Record<BidStrategy, BidLimit>> = {};
  for (const strategy of BID_STRATEGIES) {
    const min = parseBidAmount(form.limits[strategy].min).cents;
    const max = parseBidAmount(form.limits[strategy].max).cents;
    if (min !== null && max !== null) bidLimits[strategy] = { minCents: min, maxCents: max };
  }
  const strategies = [...new Set(form.strategies)];
  const sellers = inOrder(form.sellerStrategies, strategies, BID_STRATEGIES);
  const placements = [...new Set(form.placements)];
  return {
    strategies,
    strategiesByAccountType: sellers.length ? { marketplace_seller: sellers } : {},
    bidLimits,
    slots: Object.fromEntries(keptRows(form.slots).map(({ row }) => [row.name, inOrder(row.placements, placements, PLACEMENTS)])),
    placements,
    moderation: form.moderation,
  };
}

function toSettings(value: FormValue): RetailerSettings {
  const bannerPlacements = [...new Set(value.types["banner-ads"].placements)];
  return {
    enabledTypes: CAMPAIGN_TYPES.filter((type) => value.enabledTypes.includes(type)),
    types: {
      "sponsored-products": toTypeSettings(value.types["sponsored-products"]),
      "banner-ads": toTypeSettings(value.types["banner-ads"]),
    },
    bannerSizes: Object.fromEntries(
      keptRows(value.bannerSizes).map(({ row }) => [sizeName(row.name), inOrder(row.placements, bannerPlacements, PLACEMENTS)]),
    ),
    storedBannerSizes: [...new Set(splitSizes(value.storedBannerSizes))],
    preview: value.preview,
    lmRetailer: value.lmRetailer,
    floorPrices: value.floorPrices,
    suggestedBids: value.suggestedBids,
    fixedCpc: value.fixedCpc,
    globalMinBidCents: parseBidAmount(value.globalMinBid).cents,
  };
}

/** The save form: parses to `{ version, settings }` with every amount in cents. */
export const RetailerSettingsSchema = z.pipe(
  RetailerSettingsFieldsSchema.check(z.superRefine(refine)),
  z.transform((value: FormValue) => ({
    version: value.version,
    settings: toSettings(value),
  })),
);

export const ResetRetailerSettingsSchema = z.object({
  intent: z.literal(resetRetailerSettingsIntent),
  version: z.coerce.number().check(z.int(), z.gte(1)),
});

// ---------------------------------------------------------------------------------------------
// From settings to the form's initial values

/** Cents as typed in the form, the locale's way: 15 -> '0.15' (en-GB) or '0,15' (fr). */
export function formatAmountInput(cents: number | null | undefined, locale: string): string {
  if (cents === null || cents === undefined) return "";
  return numberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false }).format(cents / 100);
}

/** The strategies in the order the screen lists them: the type's own first (the first is its fallback). */
export function strategyOptions(settings: CampaignTypeSettings): BidStrategy[] {
  return inOrder(BID_STRATEGIES, settings.strategies, BID_STRATEGIES);
}

/** The placements in the order the screen lists them: the type's own first. */
export function placementOptions(placements: readonly Placement[]): Placement[] {
  return inOrder(PLACEMENTS, placements, PLACEMENTS);
}

const on = (value: boolean): string | undefined => (value ? "on" : undefined);

/** A slot or banner size as the form shows it. */
export interface RowValue {
  name: string;
  placements: Placement[];
  remove?: string;
}
const toRows = (record: Record<string, Placement[]>): RowValue[] => [
  ...Object.entries(record).map(([name, placements]) => ({ name, placements: [...placements] })),
  ...Array.from({ length: BLANK_ROWS }, () => ({ name: "", placements: [] })),
];

function typeFormValue(settings: CampaignTypeSettings, locale: string) {
  return {
    strategies: [...settings.strategies],
    sellerStrategies: [...(settings.strategiesByAccountType.marketplace_seller ?? [])],
    limits: Object.fromEntries(
      BID_STRATEGIES.map((s) => [
        s,
        { min: formatAmountInput(settings.bidLimits[s]?.minCents, locale), max: formatAmountInput(settings.bidLimits[s]?.maxCents, locale) },
      ]),
    ) as Record<BidStrategy, { min: string; max: string }>,
    placements: [...settings.placements],
    slots: toRows(settings.slots),
    moderation: on(settings.moderation),
  };
}

/** The form's initial values for these settings, with blank rows to add slots and sizes. */
export function toFormValue(settings: RetailerSettings, locale: string) {
  return {
    enabledTypes: [...settings.enabledTypes],
    types: Object.fromEntries(CAMPAIGN_TYPES.map((type) => [type, typeFormValue(settings.types[type], locale)])) as Record<
      CampaignType,
      ReturnType<typeof typeFormValue>
    >,
    bannerSizes: toRows(settings.bannerSizes),
    storedBannerSizes: settings.storedBannerSizes.join(", "),
    preview: on(settings.preview),
    lmRetailer: on(settings.lmRetailer),
    floorPrices: on(settings.floorPrices),
    suggestedBids: on(settings.suggestedBids),
    fixedCpc: on(settings.fixedCpc),
    globalMinBid: formatAmountInput(settings.globalMinBidCents, locale),
  };
}
export type RetailerSettingsFormValue = ReturnType<typeof toFormValue>;

/** The form's values as posted by a browser (name -> values), e.g. for tests. */
export function toFormEntries(value: unknown, prefix = ""): [string, string][] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) {
    // Arrays of objects are rows (name[0].field); arrays of strings are repeated names.
    return value.flatMap((item, index) => (typeof item === "object" && item !== null ? toFormEntries(item, `${prefix}[${index}]`) : [[prefix, String(item)]]));
  }
  if (typeof value === "object") {
    return Object.entries(value).flatMap(([key, item]) => toFormEntries(item, prefix ? `${prefix}.${key}` : key));
  }
  return [[prefix, String(value)]];
}
