/**
 * Parts shown beside their total add up to it. Each part is an amount in micro-units (a CPM display
 * costs a fraction of a cent); rounding each to cents on its own can make the parts read a cent
 * more or less than the total on the same screen (€0.63 + €0.42 + €0.28 = €1.33 under "€1.32").
 * Largest remainder: each part gets its whole cents, and the cents left to reach the total go one
 * by one to the parts with the largest fractions (or, when the parts' whole cents already pass
 * the total, are taken from those with the smallest fractions). Ties go to the earlier part.
 */
import { MICROS_PER_CENT } from "~/domain/metrics/metrics";

/**
 * Cents for each part (micro-units) summing exactly to `totalCents`; by default the total is the
 * parts' sum rounded half up. No part goes below zero.
 */
export function apportionCents(partsMicros: readonly number[], totalCents?: number): number[] {
  const sumMicros = partsMicros.reduce((s, m) => s + m, 0);
  const total = totalCents ?? Math.floor((sumMicros + MICROS_PER_CENT / 2) / MICROS_PER_CENT);
  const cents = partsMicros.map((m) => Math.floor(m / MICROS_PER_CENT));
  const remainder = partsMicros.map((m) => m - Math.floor(m / MICROS_PER_CENT) * MICROS_PER_CENT);
  let left = total - cents.reduce((s, c) => s + c, 0);
  if (partsMicros.length === 0) return [];
  const byLargest = partsMicros.map((_, i) => i).sort((a, b) => remainder[b] - remainder[a] || a - b);
  for (let k = 0; left > 0; k = (k + 1) % byLargest.length, left--) cents[byLargest[k]]++;
  const bySmallest = [...byLargest].reverse();
  for (let guard = 0; left < 0 && guard < bySmallest.length * 2 + Math.abs(left) * bySmallest.length; guard++) {
    const i = bySmallest[guard % bySmallest.length];
    if (cents[i] > 0) {
      cents[i]--;
      left++;
    }
  }
  return cents;
}
