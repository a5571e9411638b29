/** The live config document, read at most once a second per process. */
import type { LiveConfig } from "~/domain/types";
import { getStorage } from "~/services/storage.server";

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
