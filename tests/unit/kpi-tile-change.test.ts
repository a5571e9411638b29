/**
 * The change a totals tile shows against the comparison period (KpiTiles): a figure's relative
 * change, except for money when the totals add up several currencies, where the tile shows no
 * amount ("—") and so no change either (the audit found "+32.1%" under a "—" Spend).
 */
import { describe, expect, it } from "vitest";
import { comparisonCurrency, derive, METRICS, tileChange, zeroMeasures } from "~/domain/metrics/metrics";

const now = derive({ ...zeroMeasures(), displays: 200, views: 100, clicks: 20, costMicros: 20_000_000, salesCents: 8_000 });
const before = derive({ ...zeroMeasures(), displays: 100, views: 100, clicks: 10, costMicros: 10_000_000, salesCents: 1_000 });

describe("the change a totals tile shows", () => {
  it("is the relative change of each figure in one currency (or the page's)", () => {
    for (const currency of ["EUR", undefined]) {
      expect(tileChange("displays", now, before, currency)).toBe(1);
      expect(tileChange("cost", now, before, currency)).toBe(1);
      expect(tileChange("sales", now, before, currency)).toBe(7);
      expect(tileChange("roas", now, before, currency)).toBe(3);
    }
  });

  it("leaves money out over several currencies, and keeps counts and CTR", () => {
    const shown = Object.fromEntries(METRICS.map((m) => [m, tileChange(m, now, before, null)]));
    expect(shown).toEqual({ displays: 1, views: 0, clicks: 1, ctr: 0, cost: null, sales: null, roas: null });
  });

  it("is none without a comparison period, or from nothing", () => {
    expect(tileChange("displays", now, null, "EUR")).toBeNull();
    expect(tileChange("clicks", now, derive(zeroMeasures()), "EUR")).toBeNull();
  });
});

describe("against a comparison in other currencies", () => {
  it("leaves money out when the comparison's money is in several currencies or another one, and keeps counts", () => {
    for (const previousCurrency of [null, "PLN"]) {
      const shown = Object.fromEntries(METRICS.map((m) => [m, tileChange(m, now, before, "EUR", previousCurrency)]));
      expect(shown).toEqual({ displays: 1, views: 0, clicks: 1, ctr: 0, cost: null, sales: null, roas: null });
    }
    expect(tileChange("cost", now, before, "EUR", "EUR")).toBe(1);
  });

  it("takes the comparison's currency from the wallets its money went through", () => {
    expect(comparisonCurrency(["PLN", "PLN"], "EUR")).toBe("PLN");
    expect(comparisonCurrency(["EUR", "PLN"], "EUR")).toBeNull();
    // Unknown (too many wallets to list): several, as far as money is concerned.
    expect(comparisonCurrency(null, "EUR")).toBeNull();
    // No money in the comparison: nothing set against this period's.
    expect(comparisonCurrency([], "EUR")).toBe("EUR");
    expect(comparisonCurrency([], null)).toBeNull();
  });
});
