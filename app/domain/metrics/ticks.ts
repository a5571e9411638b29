/**
 * Round axis ticks for a chart from zero to a maximum: steps of 1, 2, 2.5 or 5 times a power of
 * ten (0, 0.1, 0.2, 0.3, 0.4 rather than 0, 0.09, 0.17, 0.26, 0.34), never finer than `minStep`
 * (a cent for money drawn in currency units, 1 for counts).
 */
export function niceTicks(max: number, count = 5, minStep = 0): number[] {
  if (!Number.isFinite(max) || max <= 0) return [0, Math.max(minStep, 1)];
  const rough = max / Math.max(1, count - 1);
  const power = 10 ** Math.floor(Math.log10(rough));
  // Counts step by whole numbers: no 2.5 below ten.
  const factors = minStep >= 1 && power < 10 ? [1, 2, 5, 10] : [1, 2, 2.5, 5, 10];
  const step = Math.max(minStep, (factors.find((f) => f * power >= rough) ?? 10) * power);
  const steps = Math.ceil(max / step - 1e-9);
  // Rounded to the step's decimals so 0.30000000000000004 reads 0.3.
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + 1);
  return Array.from({ length: steps + 1 }, (_, i) => Number((i * step).toFixed(decimals)));
}
