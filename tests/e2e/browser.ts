/**
 * Which Chromium the e2e run drives. Playwright cannot download browsers everywhere (CI images,
 * offline machines), so a system Chromium is preferred:
 *   1. CHROMIUM_PATH, when set (it must exist);
 *   2. /usr/bin/chromium, else `chromium` / `chromium-browser` on PATH;
 *   3. a Playwright-managed Chromium (`npx playwright install chromium`), driven without
 *      executablePath.
 * When none is found, the config prints `chromiumInstallHint()` and lets Playwright try its
 * default browser anyway (it may have only the headless shell, which is not looked for here).
 */
import fs from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";

export interface ChromiumChoice {
  /** Passed as launchOptions.executablePath; undefined lets Playwright use its own browser. */
  executablePath: string | undefined;
  source: "CHROMIUM_PATH" | "system" | "playwright" | "none";
}

/** Flags for a headless Chromium in a container: no sandbox, no GPU, no background traffic. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function playwrightManaged(): string | undefined {
  try {
    const file = chromium.executablePath();
    return file && isExecutable(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

export function findChromium(env: NodeJS.ProcessEnv = process.env): ChromiumChoice {
  const fromEnv = env.CHROMIUM_PATH?.trim();
  if (fromEnv) {
    if (!isExecutable(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} is not an executable file.\n${chromiumInstallHint()}`);
    return { executablePath: fromEnv, source: "CHROMIUM_PATH" };
  }
  const system = ["/usr/bin/chromium"].find(isExecutable) ?? onPath("chromium", env) ?? onPath("chromium-browser", env);
  if (system) return { executablePath: system, source: "system" };
  if (playwrightManaged()) return { executablePath: undefined, source: "playwright" };
  return { executablePath: undefined, source: "none" };
}

export function chromiumInstallHint(): string {
  return [
    "No Chromium found for the end-to-end tests. Install one of:",
    "  - the system package:        sudo apt-get install chromium   (Debian/Ubuntu)",
    "  - Playwright's own browser:  npx playwright install chromium",
    "or point CHROMIUM_PATH at a Chromium or Chrome executable.",
  ].join("\n");
}

