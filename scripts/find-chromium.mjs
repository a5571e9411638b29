// Finds a Chromium for the browser tests: CHROMIUM_PATH, Debian's chromium, or one that
// Playwright manages. Used by scripts/test.mjs and playwright.config.ts.
import { execFileSync } from "node:child_process";
import fs from "node:fs";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export const CHROMIUM_HELP = [
  "No Chromium was found for the browser tests. Install one of:",
  "  - Debian/Ubuntu: apt-get install chromium   (or set CHROMIUM_PATH to its binary)",
  "  - elsewhere:     npx playwright install chromium",
].join("\n");

/** @returns {{ found: boolean, executablePath?: string }} executablePath undefined = Playwright's own. */
export function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean);
  for (const candidate of candidates) if (fs.existsSync(candidate)) return { found: true, executablePath: candidate };
  try {
    const onPath = execFileSync("sh", ["-c", "command -v chromium || command -v chromium-browser"], { encoding: "utf8" }).trim();
    if (onPath) return { found: true, executablePath: onPath };
  } catch {
    /* not on PATH */
  }
  try {
    const cacheDir = process.env.PLAYWRIGHT_BROWSERS_PATH ?? `${process.env.HOME}/.cache/ms-playwright`;
    if (fs.readdirSync(cacheDir).some((d) => d.startsWith("chromium"))) return { found: true };
  } catch {
    /* no Playwright-managed browser */
  }
  return { found: false };
}
