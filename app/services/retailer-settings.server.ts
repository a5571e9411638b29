/** The retailer settings in force: the live config's, else the spec's defaults (spec section 9). */
import {
  DEFAULT_RETAILER_SETTINGS,
  validateRetailerSettings,
  type RetailerSettings,
  type SettingsIssue,
} from "~/domain/retailer-settings";
import type { User } from "~/domain/types";
import { ConflictError, fieldOps } from "~/storage/port";
import { requirePermission } from "~/http/auth.server";
import { forgetLiveConfig, getLiveConfig } from "~/services/config.server";
import { getEnv } from "~/services/env.server";
import { getStorage } from "~/services/storage.server";

export async function getRetailerSettings(): Promise<RetailerSettings> {
  const config = await getLiveConfig();
  return config?.retailerSettings ?? DEFAULT_RETAILER_SETTINGS;
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

export type RetailerSettingsOutcome =
  | { ok: true }
  | { ok: false; reason: "errors.conflict"; version: number }
  | { ok: false; reason: "invalid"; issues: SettingsIssue[] };

async function currentVersion(): Promise<number> {
  return (await getStorage().config.get()).version;
}

/**
 * Saves the retailer settings into the live config document (audited, refused on a stale
 * version), then drops the cached config so the new settings apply at once in this process.
 */
export async function updateRetailerSettings(user: User, settings: RetailerSettings, expectVersion: number): Promise<RetailerSettingsOutcome> {
  requirePermission(user, "RetailerSettings", "update");
  const issues = validateRetailerSettings(settings);
  if (issues.length) return { ok: false, reason: "invalid", issues };
  try {
    await getStorage().config.update({ retailerSettings: settings }, { by: user.email }, { expectVersion });
  } catch (error) {
    if (error instanceof ConflictError) return { ok: false, reason: "errors.conflict", version: await currentVersion() };
    throw error;
  }
  forgetLiveConfig();
  return { ok: true };
}

/** Removes the saved settings, so the spec's defaults apply again (audited, version-checked). */
export async function resetRetailerSettings(user: User, expectVersion: number): Promise<RetailerSettingsOutcome> {
  requirePermission(user, "RetailerSettings", "update");
  try {
    await getStorage().config.update({ retailerSettings: fieldOps.delete() }, { by: user.email }, { expectVersion });
  } catch (error) {
    if (error instanceof ConflictError) return { ok: false, reason: "errors.conflict", version: await currentVersion() };
    throw error;
  }
  forgetLiveConfig();
  return { ok: true };
}
