/**
 * The forms of a campaign's Products section: one schema each, shared by the browser (conform)
 * and the action. Messages are i18n keys of the campaignProducts namespace.
 */
import * as z from "zod/mini";
import { parseProductIds } from "~/domain/catalog";
import { MAX_POSITION } from "~/domain/campaigns/products";

export const addProductsIntent = "add-products";
export const toggleProductIntent = "toggle-product";
export const removeProductIntent = "remove-product";
export const moveProductIntent = "move-product";
export const savePositionsIntent = "save-positions";
export const bulkProductsIntent = "bulk-products";

/** Ids one paste may hold. */
export const MAX_IDS_PER_ADD = 1000;

const version = z.coerce.number({ error: "campaignProducts:errors.badRequest" }).check(z.int(), z.gte(1, "campaignProducts:errors.badRequest"));
const productId = z
  .string({ error: "campaignProducts:errors.badRequest" })
  .check(z.trim(), z.minLength(1, "campaignProducts:errors.badRequest"), z.maxLength(200));

export const AddProductsSchema = z.object({
  intent: z.literal(addProductsIntent),
  version,
  /** Identifiers separated by spaces, commas, semicolons or line breaks (spec section 5). */
  ids: z.pipe(
    z.string({ error: "campaignProducts:errors.noIds" }).check(z.maxLength(50_000, "campaignProducts:errors.tooManyIds")),
    z.transform((text: string, ctx) => {
      const ids = parseProductIds(text);
      if (!ids.length) ctx.issues.push({ code: "custom", message: "campaignProducts:errors.noIds", input: text });
      else if (ids.length > MAX_IDS_PER_ADD) ctx.issues.push({ code: "custom", message: "campaignProducts:errors.tooManyIds", input: text });
      return ids;
    }),
  ),
});
export type AddProductsValue = z.infer<typeof AddProductsSchema>;

export const ToggleProductSchema = z.object({
  intent: z.literal(toggleProductIntent),
  version,
  productId,
  /** The state asked for: "on" or "off". */
  state: z.enum(["on", "off"], { error: "campaignProducts:errors.badRequest" }),
});
export type ToggleProductValue = z.infer<typeof ToggleProductSchema>;

export const RemoveProductSchema = z.object({
  intent: z.literal(removeProductIntent),
  version,
  productId,
});
export type RemoveProductValue = z.infer<typeof RemoveProductSchema>;

export const MoveProductSchema = z.object({
  intent: z.literal(moveProductIntent),
  version,
  productId,
  direction: z.enum(["up", "down"], { error: "campaignProducts:errors.badRequest" }),
});
export type MoveProductValue = z.infer<typeof MoveProductSchema>;

/** A position typed in the list: a whole number from 1, or empty for none. */
const position = z.pipe(
  z.optional(
    z
      .number({ error: "campaignProducts:errors.positionInvalid" })
      .check(
        z.int("campaignProducts:errors.positionInvalid"),
        z.gte(1, "campaignProducts:errors.positionInvalid"),
        z.lte(MAX_POSITION, "campaignProducts:errors.positionInvalid"),
      ),
  ),
  z.transform((v) => v ?? null),
);

export const SavePositionsSchema = z.object({
  intent: z.literal(savePositionsIntent),
  version,
  positions: z
    .array(z.object({ id: productId, pos: position }), { error: "campaignProducts:errors.badRequest" })
    .check(z.minLength(1, "campaignProducts:errors.badRequest")),
  /**
   * Sent by drag and drop (JavaScript): the list's index of the page's first product; the
   * positions are then the page's products in their new order (ADR 48). Absent: positions typed.
   */
  slice: z.pipe(
    z.optional(z.coerce.number({ error: "campaignProducts:errors.badRequest" }).check(z.int(), z.gte(0, "campaignProducts:errors.badRequest"))),
    z.transform((v) => v ?? null),
  ),
});
export type SavePositionsValue = z.infer<typeof SavePositionsSchema>;

export const BULK_ACTIONS = ["on", "off", "remove"] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/**
 * What a bulk action acts on (ADR 48): the products ticked on the page shown (`selected`), or
 * every product of the campaign, on every page (`campaign`: switching on or off only).
 */
export const BULK_SCOPES = ["selected", "campaign"] as const;

export const BulkProductsSchema = z
  .object({
    intent: z.literal(bulkProductsIntent),
    version,
    bulk: z.enum(BULK_ACTIONS, { error: "campaignProducts:errors.badRequest" }),
    scope: z.pipe(
      z.optional(z.enum(BULK_SCOPES, { error: "campaignProducts:errors.badRequest" })),
      z.transform((v) => v ?? "selected"),
    ),
    selected: z.pipe(
      z.optional(z.array(productId, { error: "campaignProducts:errors.noneSelected" })),
      z.transform((ids: string[] | undefined) => [...new Set(ids ?? [])]),
    ),
    /** Set by the confirmation step of a bulk removal, or of a change of every product. */
    confirmed: z.pipe(
      z.optional(z.string()),
      z.transform((v) => v === "yes"),
    ),
  })
  .check(
    z.refine((v) => v.scope === "campaign" || v.selected.length > 0, { path: ["selected"], message: "campaignProducts:errors.noneSelected" }),
    // Every product of a campaign is never removed at once.
    z.refine((v) => v.scope === "selected" || v.bulk !== "remove", { path: ["bulk"], message: "campaignProducts:errors.badRequest" }),
  );
export type BulkProductsValue = z.infer<typeof BulkProductsSchema>;

export const PRODUCT_INTENTS = [addProductsIntent, toggleProductIntent, removeProductIntent, moveProductIntent, savePositionsIntent, bulkProductsIntent] as const;
