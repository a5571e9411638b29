/** Version check of spec section 4. */

export const APP_VERSION = 622;

export type VersionCheck = "current" | "reload" | "reload-failed";

/**
 * When the live version is higher the page reloads once; the stored marker holds the live
 * version a reload was already tried for, so a second sighting is a failed reload, not a loop.
 */
export function checkVersion(appVersion: number, liveVersion: number, marker: number | null): VersionCheck {
  if (!(liveVersion > appVersion)) return "current";
  return marker === liveVersion ? "reload-failed" : "reload";
}
