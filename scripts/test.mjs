#!/usr/bin/env node
// `npm test`: type check, unit, integration and storage contract tests (SQLite and the
// Firestore emulator, started by the integration project's global setup), then the browser
// tests on a production build (playwright.config.ts finds a Chromium or says how to get one).
// Stops at the first failing step with its exit code.
import { spawnSync } from "node:child_process";

const steps = [
  ["Machine parts (Chromium, Java, clickhouse-server)", "node", ["scripts/ensure-tools.mjs"]],
  ["Type check", "npx", ["tsc", "--noEmit"]],
  ["Unit, integration and storage contract tests, with coverage", "npx", ["vitest", "run", "--coverage"]],
  ["Production build", "npx", ["remix", "build"]],
  ["Browser tests", "npx", ["playwright", "test"]],
];

for (const [name, command, args] of steps) {
  console.log(`\n▶ ${name}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: "inherit", env: process.env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`\n✖ ${name} failed after ${seconds}s`);
    process.exit(result.status ?? 1);
  }
  console.log(`✔ ${name} (${seconds}s)`);
}
