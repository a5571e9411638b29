import { describe, expect, it } from "vitest";
import { fillHistogram, histogramBuckets } from "~/domain/metrics/periods";

const TZ = "Europe/Paris";
const row = (bucket: string, clicks: number) => ({ bucket, clicks });
const zero = (bucket: string) => row(bucket, 0);

describe("every bucket of a histogram, zeros where no figures", () => {
  it("lists the 24 hours of a Paris day, starting at local midnight", () => {
    const hours = histogramBuckets({ from: "2026-11-26", to: "2026-11-26" }, "hour", TZ);
    expect(hours).toHaveLength(24);
    expect(hours[0]).toBe("2026-11-25T23:00:00.000Z");
    expect(hours[23]).toBe("2026-11-26T22:00:00.000Z");
  });

  it("has 23 hours on the spring change and 25 on the autumn change", () => {
    expect(histogramBuckets({ from: "2026-03-29", to: "2026-03-29" }, "hour", TZ)).toHaveLength(23);
    expect(histogramBuckets({ from: "2026-10-25", to: "2026-10-25" }, "hour", TZ)).toHaveLength(25);
  });

  it("fills the hours without figures (yesterday's 01:00, 07:00, 09:00 were missing)", () => {
    const period = { from: "2026-11-26", to: "2026-11-26" };
    const rows = [row("2026-11-25T23:00:00.000Z", 3), row("2026-11-26T01:00:00.000Z", 2)];
    const filled = fillHistogram(rows, period, "hour", TZ, zero);
    expect(filled).toHaveLength(24);
    expect(filled.slice(0, 4).map((r) => r.clicks)).toEqual([3, 0, 2, 0]);
    expect(filled[1].bucket).toBe("2026-11-26T00:00:00.000Z");
  });

  it("matches an hour however the service spells the instant, and drops rows outside the period", () => {
    const period = { from: "2026-11-26", to: "2026-11-26" };
    const filled = fillHistogram([row("2026-11-26T00:00:00Z", 5), row("2026-11-27T10:00:00.000Z", 9)], period, "hour", TZ, zero);
    expect(filled[1]).toEqual(row("2026-11-26T00:00:00.000Z", 5));
    expect(filled.reduce((s, r) => s + r.clicks, 0)).toBe(5);
  });

  it("fills a DST day's 25 hours with the repeated 02:00 kept apart", () => {
    const period = { from: "2026-10-25", to: "2026-10-25" };
    // 02:00 CEST is 00:00Z; 02:00 CET is 01:00Z: two buckets of the same local hour.
    const filled = fillHistogram([row("2026-10-25T00:00:00.000Z", 1), row("2026-10-25T01:00:00.000Z", 4)], period, "hour", TZ, zero);
    expect(filled).toHaveLength(25);
    expect(filled.slice(1, 4).map((r) => r.clicks)).toEqual([0, 1, 4]);
  });

  it("fills every day of a daily histogram", () => {
    const filled = fillHistogram([row("2026-11-02", 7)], { from: "2026-11-01", to: "2026-11-05" }, "day", TZ, zero);
    expect(filled.map((r) => [r.bucket, r.clicks])).toEqual([
      ["2026-11-01", 0],
      ["2026-11-02", 7],
      ["2026-11-03", 0],
      ["2026-11-04", 0],
      ["2026-11-05", 0],
    ]);
  });

  it("stops today's hours at now", () => {
    const period = { from: "2026-11-27", to: "2026-11-27" };
    const now = Date.parse("2026-11-27T00:26:00Z"); // 01:26 in Paris
    expect(histogramBuckets(period, "hour", TZ, now)).toEqual(["2026-11-26T23:00:00.000Z", "2026-11-27T00:00:00.000Z"]);
  });
});
