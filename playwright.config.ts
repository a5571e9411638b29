/**
 * End-to-end tests: the built app (`remix build` runs first, in `npm test`) served four times by
 * `node server.mjs`, each on a free port with a fresh temporary DATA_DIR (see tests/e2e/servers.ts):
 * one server for the JS-on specs, one for the JS-off specs, one for each one's stateful specs.
 *
 * Per server, two projects run one after the other:
 *   setup-<server>      signs in once per demo role and stores the sessions in tests/e2e/.auth/
 *   <server>            on js-on and js-off, the behaviour specs (*.spec.ts) in parallel; with
 *                       JS off only the tests tagged @nojs, which between them submit every form
 *                       (tests/e2e/nojs-forms.ts names the test of each form;
 *                       tests/unit/nojs-forms.test.ts checks it);
 *                       on js-on-stateful and js-off-stateful, the specs that change shared state
 *                       (*.stateful.spec.ts: password reset, language, profile, maintenance), one
 *                       at a time, on a server of their own so the other specs' sessions stay valid.
 */
import { defineConfig, type Project } from "@playwright/test";
import { chromiumInstallHint, CHROMIUM_ARGS, findChromium } from "./tests/e2e/browser";
import type { E2EOptions } from "./tests/e2e/fixtures";
import { prepareServers, type E2EServer } from "./tests/e2e/servers";

const CI = !!process.env.CI;
const servers = await prepareServers();

const browser = findChromium();
if (browser.source === "none") throw new Error(`\n${chromiumInstallHint()}\n`);

function projectsFor(server: E2EServer, statefulServer: E2EServer, javaScriptEnabled: boolean): Project<E2EOptions>[] {
  // Without JavaScript only what submits forms runs again (tests tagged @nojs; every form of the
  // console is submitted by at least one of them, see tests/e2e/nojs-forms.ts): what only a script
  // shows is tested once.
  const grep = javaScriptEnabled ? undefined : /@nojs/;
  const use = { baseURL: server.baseURL, javaScriptEnabled, server };
  const statefulUse = { baseURL: statefulServer.baseURL, javaScriptEnabled, server: statefulServer };
  return [
    { name: `setup-${server.name}`, testMatch: /auth\.setup\.ts$/, use },
    {
      name: server.name,
      testMatch: /\.spec\.ts$/,
      testIgnore: /\.stateful\.spec\.ts$/,
      dependencies: [`setup-${server.name}`],
      fullyParallel: true,
      grep,
      use,
    },
    { name: `setup-${statefulServer.name}`, testMatch: /auth\.setup\.ts$/, use: statefulUse },
    {
      name: statefulServer.name,
      testMatch: /\.stateful\.spec\.ts$/,
      dependencies: [`setup-${statefulServer.name}`],
      fullyParallel: false,
      workers: 1,
      grep,
      use: statefulUse,
    },
  ];
}

export default defineConfig<E2EOptions>({
  testDir: "./tests/e2e",
  outputDir: "./test-results",
  workers: 2,
  // No retries, in CI too: a test that passes only on a second try is a defect to fix, not to hide.
  retries: 0,
  forbidOnly: CI,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: CI ? [["list"], ["html", { open: "never" }]] : [["list"]],
  use: {
    browserName: "chromium",
    headless: true,
    locale: "en-GB",
    timezoneId: "Europe/Paris",
    viewport: { width: 1280, height: 800 },
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: true },
    screenshot: "only-on-failure",
    launchOptions: { executablePath: browser.executablePath, args: CHROMIUM_ARGS },
  },
  projects: [...projectsFor(servers["js-on"], servers["js-on-stateful"], true), ...projectsFor(servers["js-off"], servers["js-off-stateful"], false)],
  webServer: Object.values(servers).map((server) => ({
    name: server.name,
    command: "node server.mjs",
    url: `${server.baseURL}/login`,
    reuseExistingServer: !CI,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
    env: {
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(server.port),
      PUBLIC_URL: server.baseURL,
      DATA_DIR: server.dataDir,
      DATABASE_URL: `${server.dataDir}/console.db`,
      STORAGE: "sqlite",
      SEED_DEMO_DATA: "true",
      // The specs create the campaigns they look at; demo campaigns would only blur their counts.
      SEED_DEMO_CAMPAIGNS: "false",
      SMTP_URL: "",
      COOKIE_SECURE: "false",
    },
  })),
});
