import { useEffect, useState } from "react";

/**
 * False in the server's render and the browser's first (hydrating) one, true from then on: what
 * only works with JavaScript (a combobox's role, a script-driven control) is drawn once it runs.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
