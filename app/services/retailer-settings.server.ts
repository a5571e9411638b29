/** The retailer settings in force: the live config's, else the spec's defaults (spec section 9). */
import { auditActor } from "~/domain/operators";
import { can } from "~/domain/permissions";
import { DEFAULT_RETAILER_SETTINGS, NO_FLOOR_PRICES, validateRetailerSettings, type FloorPrices, type RetailerSettings } from "~/domain/retailer-settings";
import { fail, forbidden, ok, type Result } from "~/domain/result";
import type { User } from "~/domain/types";
import { ConflictError, fieldOps } from "~/storage/port";
import { forgetLiveConfig, getLiveConfig } from "~/services/config.server";
import { getEnv } from "~/services/env.server";
import { getStorage } from "~/services/storage.server";

export async function getRetailerSettings(): Promise<RetailerSettings> {
  const config = await getLiveConfig();
  return config?.retailerSettings ?? DEFAULT_RETAILER_SETTINGS;
}

/** The floor prices per keyword and category in force (none until an operator sets some). */
export async function getFloorPrices(): Promise<FloorPrices> {
  const config = await getLiveConfig();
  return config?.floorPrices ?? NO_FLOOR_PRICES;
}

/** The retailer's time zone: schedules ads and cuts days (users' own time zones only display instants). */
export function retailerTimeZone(): string {
  return getEnv().RETAILER_TIMEZONE;
}

/** The settings screen's data: read fresh (not through the one-second cache), with the version. */
export async function readRetailerSettingsForEdit() {
  const config = await getStorage().config.get();
  return {
    settings: config.retailerSettings ?? DEFAULT_RETAILER_SETTINGS,
    /** True while the retailer has never saved settings (or reset them): the spec's defaults apply. */
    isDefault: !config.retailerSettings,
    version: config.version,
    updated: config.updated,
    updatedBy: config.updatedBy,
  };
}

/**
 * A save or a reset: refused without the right (forbidden), on a rule broken (invalid, each
 * broken rule in `details`) or on a stale version (conflict: someone else saved first; the
 * current version is read again with readRetailerSettingsForEdit).
 */
export type RetailerSettingsOutcome = Result<void>;

/** Writes the live config's settings (audited, refused on a stale version); a conflict says `reason`. */
async function writeSettings(user: User, settings: RetailerSettings | null, expectVersion: number, conflictReason: string): Promise<RetailerSettingsOutcome> {
  try {
    await getStorage().config.update({ retailerSettings: settings ?? fieldOps.delete() }, auditActor(user), { expectVersion });
  } catch (error) {
    if (error instanceof ConflictError) return fail("conflict", conflictReason);
    throw error;
  }
  // The new settings apply at once in this process.
  forgetLiveConfig();
  return ok();
}

/** Saves the retailer settings into the live config document. */
export async function updateRetailerSettings(user: User, settings: RetailerSettings, expectVersion: number): Promise<RetailerSettingsOutcome> {
  if (!can(user, "RetailerSettings", "update")) return forbidden();
  const issues = validateRetailerSettings(settings);
  if (issues.length) return fail("invalid", "retailer:errors.invalid", { details: issues.map((issue) => `retailer:errors.${issue.reason}`) });
  return writeSettings(user, settings, expectVersion, "retailer:errors.conflict");
}

/** Removes the saved settings, so the spec's defaults apply again. */
export async function resetRetailerSettings(user: User, expectVersion: number): Promise<RetailerSettingsOutcome> {
  if (!can(user, "RetailerSettings", "update")) return forbidden();
  return writeSettings(user, null, expectVersion, "retailer:errors.resetConflict");
}
