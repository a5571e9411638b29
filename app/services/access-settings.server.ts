/** The retailer's access settings (issue 12): the staff e-mail domain and the operators' second factor. */
import { normaliseStaffDomain } from "~/domain/operators";
import { can } from "~/domain/permissions";
import { auditActor } from "~/domain/operators";
import { fail, forbidden, ok, type Result } from "~/domain/result";
import { DEFAULT_ACCESS_SETTINGS, type AccessSettings, type User } from "~/domain/types";
import { ConflictError } from "~/storage/port";
import { forgetLiveConfig, getLiveConfig } from "~/services/config.server";
import { getStorage } from "~/services/storage.server";

/** The settings in force (the live config's, else the defaults: no staff domain, second factor on). */
export async function getAccessSettings(): Promise<AccessSettings> {
  const config = await getLiveConfig();
  return { ...DEFAULT_ACCESS_SETTINGS, ...config?.access };
}

/** For the settings screen: read fresh, with the version a save is based on. */
export async function readAccessSettingsForEdit(): Promise<AccessSettings & { version: number }> {
  const config = await getStorage().config.get();
  return { ...DEFAULT_ACCESS_SETTINGS, ...config.access, version: config.version };
}

/** Operators only (the RetailerSettings update right); a stale version is a conflict. */
export async function updateAccessSettings(user: User, input: AccessSettings & { version: number }): Promise<Result<void>> {
  if (!can(user, "RetailerSettings", "update")) return forbidden();
  const access: AccessSettings = { staffEmailDomain: normaliseStaffDomain(input.staffEmailDomain), operatorTotpRequired: input.operatorTotpRequired };
  try {
    await getStorage().config.update({ access }, auditActor(user), { expectVersion: input.version });
  } catch (error) {
    if (error instanceof ConflictError) return fail("conflict", "retailer:errors.conflict");
    throw error;
  }
  forgetLiveConfig();
  return ok();
}
