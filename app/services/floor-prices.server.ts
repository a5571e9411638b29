/**
 * Floor prices per keyword and category (issue 10 section 1): operators set them on the retailer
 * settings screen; searches give them as each hit's floor_price. Kept in the live config beside
 * the retailer settings (their own field: saving or resetting the other settings keeps them).
 */
import { auditActor } from "~/domain/operators";
import { can } from "~/domain/permissions";
import { fail, forbidden, ok, type Result } from "~/domain/result";
import { NO_FLOOR_PRICES, validateFloorPrices, type FloorPrices } from "~/domain/retailer-settings";
import type { User } from "~/domain/types";
import type { FloorPricesInput } from "~/forms/floor-prices";
import { ConflictError } from "~/storage/port";
import { forgetLiveConfig } from "~/services/config.server";
import { catalogCategories, findCategory } from "~/services/search.server";
import { getStorage } from "~/services/storage.server";

/** The form's data: the floors, the config version they belong to, the catalog's categories to choose from. */
export async function readFloorPricesForEdit(): Promise<{ floors: FloorPrices; version: number; categories: string[] }> {
  const config = await getStorage().config.get();
  let categories: string[] = [];
  try {
    categories = (await catalogCategories()).map((c) => c.path);
  } catch (error) {
    // The choices are a convenience: the form still works (the service checks what is typed).
    console.error(JSON.stringify({ level: "error", what: "floor price categories", error: error instanceof Error ? error.message : String(error) }));
  }
  return { floors: config.floorPrices ?? NO_FLOOR_PRICES, version: config.version, categories };
}

/**
 * Saves the floor prices: refused without the right, with a category the catalog does not have
 * (or named twice) on its row, on a broken rule, or on a stale version (someone saved first).
 */
export async function updateFloorPrices(user: User, input: FloorPricesInput): Promise<Result<void>> {
  if (!can(user, "RetailerSettings", "update")) return forbidden();
  const fieldErrors: Record<string, string[]> = {};
  const categories: FloorPrices["categories"] = [];
  const seen = new Set<string>();
  for (const row of input.categories) {
    const found = await findCategory(row.path);
    const field = `categories[${row.index}].category`;
    if (!found) fieldErrors[field] = ["retailer:errors.floor.unknownCategory"];
    else if (seen.has(found.id)) fieldErrors[field] = ["retailer:errors.floor.duplicate"];
    else {
      seen.add(found.id);
      categories.push({ id: found.id, path: found.path, cents: row.cents });
    }
  }
  if (Object.keys(fieldErrors).length) return fail("invalid", "retailer:errors.invalid", { fieldErrors });
  const floors: FloorPrices = {
    keywords: input.keywords.map((k) => ({ keyword: k.keyword, label: k.label, cents: k.cents })),
    categories,
  };
  const reason = validateFloorPrices(floors);
  if (reason) return fail("invalid", "retailer:errors.invalid", { details: [`retailer:errors.${reason}`] });
  try {
    await getStorage().config.update({ floorPrices: floors }, auditActor(user), { expectVersion: input.version });
  } catch (error) {
    if (error instanceof ConflictError) return fail("conflict", "retailer:errors.floorConflict");
    throw error;
  }
  forgetLiveConfig();
  return ok();
}
