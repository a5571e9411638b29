// Measures the benches share: a percentile, and wall and CPU time of a piece of work.

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
