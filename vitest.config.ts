import os from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = { "~": fileURLToPath(new URL("./app", import.meta.url)) };

export default defineConfig({
  resolve: { alias },
  test: {
    globals: true,
    // Two test files at a time at least: vitest's default is one fewer than the CPUs, so one at a
    // time on a 2-core machine, while most integration files wait on the Firestore emulator or
    // clickhouse-server (each file has its own database, documents and ports).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // Coverage of app/ by the unit and integration tests (`vitest run --coverage`, as `npm test`
    // runs it): a text summary in the log, html and json-summary in coverage/ (gitignored).
    coverage: {
      provider: "v8",
      include: ["app/**/*.{ts,tsx}"],
      exclude: ["app/**/*.d.ts"],
      reporter: ["text-summary", "html", "json-summary"],
      reportsDirectory: "./coverage",
    },
    projects: [
      {
        resolve: { alias },
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], globals: true, environment: "node" },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globals: true,
          environment: "node",
          globalSetup: ["tests/integration/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
