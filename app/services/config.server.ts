/** The live config document, read at most once a second per process. */
import { auditActor } from "~/domain/operators";
import { conflict, ok, type Result } from "~/domain/result";
import type { LiveConfig, User } from "~/domain/types";
import { getStorage } from "~/services/storage.server";
import { ConflictError } from "~/storage/port";

const TTL_MS = 1000;
let cache: { at: number; value: LiveConfig } | undefined;

/** The live config, or null when it cannot be read ('Fetch config'). */
export async function getLiveConfig(): Promise<LiveConfig | null> {
  if (cache && Date.now() - cache.at < TTL_MS) return cache.value;
  try {
    const value = await getStorage().config.get();
    cache = { at: Date.now(), value };
    return value;
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "Fetch config failed", error: String(error) }));
    return null;
  }
}

export function forgetLiveConfig(): void {
  cache = undefined;
}

/** The platform settings (maintenance mode, live version) as stored, for the settings page. */
export async function getPlatformSettings(): Promise<LiveConfig> {
  return getStorage().config.get();
}

/** Saves the platform settings; a stale version is a conflict. Rights are the caller's to check. */
export async function updatePlatformSettings(
  actor: User,
  input: { version: number; maintenance: boolean; appVersion: number },
): Promise<Result<LiveConfig>> {
  try {
    const saved = await getStorage().config.update({ maintenance: input.maintenance, appVersion: input.appVersion }, auditActor(actor), { expectVersion: input.version });
    forgetLiveConfig();
    return ok(saved);
  } catch (error) {
    if (error instanceof ConflictError) return conflict();
    throw error;
  }
}

/** A browser still on an old version after its one reload: kept in the config's reload log. */
export async function logReloadFailure(user: User, versions: { from: number; to: number }, now = new Date()): Promise<void> {
  await getStorage().config.logReloadFailure({ at: now.toISOString(), ...versions, userId: user.id });
}
