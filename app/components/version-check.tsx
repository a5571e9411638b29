import { useEffect } from "react";
import { checkVersion } from "~/domain/version";

const MARKER_KEY = "console:reloaded-for-version";

/** Spec section 4: when the live version is higher, reload once; a second sighting is logged. */
export function VersionCheck({ appVersion, liveVersion }: { appVersion: number; liveVersion: number }) {
  useEffect(() => {
    // Nothing to do while the live version is not higher: localStorage is not even opened (its
    // first use costs a synchronous read, about 50 ms observed, inside the hydration's task).
    if (checkVersion(appVersion, liveVersion, null) === "current") return;
    let marker: number | null = null;
    try {
      const stored = window.localStorage.getItem(MARKER_KEY);
      marker = stored ? Number(stored) : null;
    } catch {
      marker = null;
    }
    const verdict = checkVersion(appVersion, liveVersion, marker);
    if (verdict === "reload") {
      try {
        window.localStorage.setItem(MARKER_KEY, String(liveVersion));
      } catch {
        /* storage unavailable: reload anyway, once per page */
      }
      window.location.reload();
    } else if (verdict === "reload-failed") {
      console.error(`Version check: still on ${appVersion} after reloading for ${liveVersion}`);
      const body = new URLSearchParams({ from: String(appVersion), to: String(liveVersion) });
      void fetch("/api/reload-failure", { method: "POST", body }).catch(() => undefined);
    }
  }, [appVersion, liveVersion]);
  return null;
}
