/**
 * The floor prices form of the retailer settings screen (operators): a row per keyword and per
 * category with its floor price typed in currency units, blank rows to add more and a 'remove'
 * tick, so that it works without JavaScript. One schema shared by conform in the browser and by
 * the action; the rules are app/domain/retailer-settings.ts's. Whether a category exists in the
 * catalog is the service's check (it reads the catalog). Messages are i18n keys of "retailer".
 */
import * as z from "zod/mini";
import { categoryIdOf, categorySegments, categoryPath, keywordKey } from "~/domain/categories";
import {
  checkCategoryFloors,
  checkKeywordFloors,
  MAX_FLOOR_PRICES,
  type FloorPrices,
} from "~/domain/retailer-settings";
import { formatAmountInput, parseBidAmount } from "~/forms/retailer-settings";

export const saveFloorPricesIntent = "save-floor-prices";

/** Blank rows offered under each list, to add floors without JavaScript. */
export const FLOOR_BLANK_ROWS = 3;

const checkbox = z.pipe(
  z.optional(z.string()),
  z.transform((v) => v === "on"),
);
const optionalText = (max: number, message: string) => z.optional(z.string().check(z.trim(), z.maxLength(max, message)));

const KeywordRowSchema = z.object({
  keyword: optionalText(100, "retailer:errors.floor.keywordTooLong"),
  price: optionalText(20, "retailer:errors.amount.invalid"),
  remove: checkbox,
});
const CategoryRowSchema = z.object({
  category: optionalText(300, "retailer:errors.floor.unknownCategory"),
  price: optionalText(20, "retailer:errors.amount.invalid"),
  remove: checkbox,
});

export const FloorPricesFieldsSchema = z.object({
  intent: z.literal(saveFloorPricesIntent),
  version: z.coerce.number().check(z.int(), z.gte(1)),
  keywords: z.array(KeywordRowSchema).check(z.maxLength(MAX_FLOOR_PRICES + FLOOR_BLANK_ROWS, "retailer:errors.floor.tooMany")),
  categories: z.array(CategoryRowSchema).check(z.maxLength(MAX_FLOOR_PRICES + FLOOR_BLANK_ROWS, "retailer:errors.floor.tooMany")),
});
type FormValue = z.infer<typeof FloorPricesFieldsSchema>;

/** A row is kept unless ticked for removal or left blank. */
function kept<T extends { remove: boolean }>(rows: T[], text: (row: T) => string | undefined, price: (row: T) => string | undefined) {
  return rows.map((row, index) => ({ row, index })).filter(({ row }) => !row.remove && ((text(row) ?? "") !== "" || (price(row) ?? "") !== ""));
}

function keptKeywords(value: FormValue) {
  return kept(value.keywords, (r) => r.keyword, (r) => r.price).map(({ row, index }) => ({
    index,
    keyword: keywordKey(row.keyword ?? ""),
    label: (row.keyword ?? "").replace(/\s+/g, " ").trim(),
    price: parseBidAmount(row.price),
  }));
}

function keptCategories(value: FormValue) {
  return kept(value.categories, (r) => r.category, (r) => r.price).map(({ row, index }) => {
    const segments = categorySegments(row.category ?? "");
    return { index, id: segments.length ? categoryIdOf(segments) : "", path: categoryPath(segments), price: parseBidAmount(row.price) };
  });
}

function refine(value: FormValue, ctx: z.core.$RefinementCtx<FormValue>) {
  const issue = (path: (string | number)[], reason: string) => ctx.addIssue({ code: "custom", path, message: `retailer:errors.${reason}` });
  const keywords = keptKeywords(value);
  for (const row of keywords) if (row.price.reason) issue(["keywords", row.index, "price"], row.price.reason);
  for (const { index, field, reason } of checkKeywordFloors(keywords.map((r) => ({ keyword: r.keyword, cents: r.price.reason ? 0 : r.price.cents })))) {
    if (field === "price" && keywords[index]!.price.reason) continue;
    issue(["keywords", keywords[index]!.index, field === "keyword" ? "keyword" : "price"], reason);
  }
  const categories = keptCategories(value);
  for (const row of categories) if (row.price.reason) issue(["categories", row.index, "price"], row.price.reason);
  for (const { index, field, reason } of checkCategoryFloors(categories.map((r) => ({ id: r.id, cents: r.price.reason ? 0 : r.price.cents })))) {
    if (field === "price" && categories[index]!.price.reason) continue;
    issue(["categories", categories[index]!.index, field], reason);
  }
}

/** What the service saves: each floor in cents, with its row (for the errors the service finds). */
export interface FloorPricesInput {
  version: number;
  keywords: { index: number; keyword: string; label: string; cents: number }[];
  /** Categories as typed (a path), resolved against the catalog by the service. */
  categories: { index: number; path: string; cents: number }[];
}

export const FloorPricesSchema = z.pipe(
  FloorPricesFieldsSchema.check(z.superRefine(refine)),
  z.transform(
    (value: FormValue): FloorPricesInput => ({
      version: value.version,
      keywords: keptKeywords(value).map((r) => ({ index: r.index, keyword: r.keyword, label: r.label, cents: r.price.cents! })),
      categories: keptCategories(value).map((r) => ({ index: r.index, path: r.path, cents: r.price.cents! })),
    }),
  ),
);

/** The form's initial values: a row per floor, then blank rows. */
export function toFloorFormValue(floors: FloorPrices, locale: string) {
  const blank = () => ({ price: "" });
  return {
    keywords: [
      ...floors.keywords.map((f) => ({ keyword: f.label || f.keyword, price: formatAmountInput(f.cents, locale) })),
      ...Array.from({ length: FLOOR_BLANK_ROWS }, () => ({ keyword: "", ...blank() })),
    ],
    categories: [
      ...floors.categories.map((f) => ({ category: f.path, price: formatAmountInput(f.cents, locale) })),
      ...Array.from({ length: FLOOR_BLANK_ROWS }, () => ({ category: "", ...blank() })),
    ],
  };
}
