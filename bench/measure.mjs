// What the benches share: a percentile, wall and CPU time of a piece of work, and the embedded
// store of an in-process bench.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** The p-th percentile (0-100) of numbers, nearest rank. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Wall time and this process's CPU time (user and system: less moved by other work on a shared machine). */
export async function time(fn) {
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const value = await fn();
  const used = process.cpuUsage(cpu);
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, cpuMs: (used.user + used.system) / 1000, value };
}

/**
 * An in-process bench's own embedded SQLite store: a fresh data folder, and the environment the
 * console's services read (plus `extra`). Returns the folder, for the bench to remove.
 */
export function useBenchStore(name, extra = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `ads-bench-${name}-`));
  Object.assign(process.env, {
    STORAGE: "sqlite",
    DATA_DIR: dataDir,
    DATABASE_URL: path.join(dataDir, "console.db"),
    SESSION_SECRET: "bench-session-secret-0123456789-abcdefghij",
    ...extra,
  });
  return dataDir;
}
