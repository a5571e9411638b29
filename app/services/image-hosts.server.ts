/**
 * The retailer's product image hosts (ADR 34): https origins whose product pictures the console's
 * pages load (the content security policy's img-src, the catalog's images). Kept in the live
 * config beside the retailer settings (their own field, as the floor prices: saving or resetting
 * the other settings keeps them); operators edit them, retailer admins read them.
 */
import { checkImageHost, parseImageHosts } from "~/domain/image-hosts";
import { auditActor } from "~/domain/operators";
import { can } from "~/domain/permissions";
import { fail, forbidden, ok, type Result } from "~/domain/result";
import type { User } from "~/domain/types";
import { ConflictError } from "~/storage/port";
import { forgetLiveConfig, getLiveConfig } from "~/services/config.server";
import { getStorage } from "~/services/storage.server";

/** The hosts in force (none when the config cannot be read); each checked again, as it goes into a header. */
export async function getProductImageHosts(): Promise<string[]> {
  const config = await getLiveConfig();
  return (config?.productImageHosts ?? []).filter((host) => checkImageHost(host).ok);
}

/** For the settings screen: read fresh, with the version a save is based on. */
export async function readImageHostsForEdit(): Promise<{ hosts: string[]; version: number }> {
  const config = await getStorage().config.get();
  return { hosts: config.productImageHosts ?? [], version: config.version };
}

/**
 * Saves the hosts typed one per line: refused without the right, on a value that is not an https
 * origin (the message names it), or on a stale version (someone saved first).
 */
export async function updateImageHosts(user: User, input: { version: number; hosts: string }): Promise<Result<string[]>> {
  if (!can(user, "RetailerSettings", "update")) return forbidden();
  const parsed = parseImageHosts(input.hosts);
  if (!parsed.ok) return fail("invalid", parsed.reason, { field: "hosts", values: { value: parsed.value } });
  try {
    await getStorage().config.update({ productImageHosts: parsed.hosts }, auditActor(user), { expectVersion: input.version });
  } catch (error) {
    if (error instanceof ConflictError) return fail("conflict", "retailer:errors.conflict");
    throw error;
  }
  forgetLiveConfig();
  return ok(parsed.hosts);
}
