import { describe, expect, it } from "vitest";
import { apportionCents } from "~/domain/apportion";

const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

describe("parts that add up to their total (largest remainder)", () => {
  it("makes Search, Shop pages and Product pages add up to today's €1.32 (they read €1.33 rounded one by one)", () => {
    // 0.625 + 0.4249 + 0.2751 cents-wise: one by one half-up gives 63 + 42 + 28 = 133.
    const parts = [6_250, 4_249, 2_751].map((c) => c * 1_000 / 10); // micros: 625_000, 424_900, 275_100
    expect(apportionCents(parts, 132)).toEqual([62, 42, 28]);
    expect(sum(apportionCents(parts, 132))).toBe(132);
  });

  it("gives the missing cents to the largest fractions", () => {
    // 0.7, 0.2, 0.1 cents: total 1 cent goes to the first.
    expect(apportionCents([7_000, 2_000, 1_000])).toEqual([1, 0, 0]);
    // 3 parts of a third each, total 1 cent: the earliest gets it.
    expect(apportionCents([3_334, 3_333, 3_333])).toEqual([1, 0, 0]);
  });

  it("takes cents from the smallest fractions when the total is lower, never below zero", () => {
    expect(apportionCents([10_000, 20_000, 0], 2)).toEqual([1, 1, 0]);
    expect(sum(apportionCents([10_000, 20_000, 0], 0))).toBe(0);
  });

  it("keeps whole cents as they are and handles no parts", () => {
    expect(apportionCents([630_000, 420_000, 280_000])).toEqual([63, 42, 28]);
    expect(apportionCents([])).toEqual([]);
  });
});
