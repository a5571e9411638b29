import { describe, expect, it } from "vitest";
import { comparisonOf, sumHoursUntil } from "~/domain/metrics/periods";

const TZ = "Europe/Paris";

describe("what a period is compared with", () => {
  it("compares today at 01:26 with yesterday 00:00-01:26, not the whole of yesterday", () => {
    const now = new Date("2026-11-27T00:26:00Z"); // 01:26 in Paris
    expect(comparisonOf({ from: "2026-11-27", to: "2026-11-27" }, now, TZ)).toEqual({
      previous: { from: "2026-11-26", to: "2026-11-26" },
      partial: { whole: null, lastDay: "2026-11-26", until: "2026-11-26T00:26:00.000Z" },
    });
  });

  it("compares this month so far with the previous days in full and their last day up to the same time", () => {
    const now = new Date("2026-11-27T09:00:00Z"); // 10:00 in Paris, 27 days of November
    const c = comparisonOf({ from: "2026-11-01", to: "2026-11-27" }, now, TZ);
    expect(c.previous).toEqual({ from: "2026-10-05", to: "2026-10-31" });
    expect(c.partial).toEqual({ whole: { from: "2026-10-05", to: "2026-10-30" }, lastDay: "2026-10-31", until: "2026-10-31T09:00:00.000Z" });
  });

  it("compares a period that is over with the whole previous period", () => {
    const now = new Date("2026-11-27T00:26:00Z");
    expect(comparisonOf({ from: "2026-11-26", to: "2026-11-26" }, now, TZ)).toEqual({ previous: { from: "2026-11-25", to: "2026-11-25" }, partial: null });
  });

  it("matches the time elapsed since midnight across a clock change", () => {
    // Monday 30 March 2026 at 03:00 in Paris (01:00Z): 3 hours elapsed. Sunday 29 March lost
    // its 02:00, so 3 hours after its midnight (23:00Z on the 28th) is 02:00Z, 04:00 on its clock.
    const c = comparisonOf({ from: "2026-03-30", to: "2026-03-30" }, new Date("2026-03-30T01:00:00Z"), TZ);
    expect(c.partial?.until).toBe("2026-03-29T02:00:00.000Z");
    // Late on a 24-hour day compared with a 23-hour one: never past the end of that day.
    const late = comparisonOf({ from: "2026-03-30", to: "2026-03-30" }, new Date("2026-03-30T21:59:00Z"), TZ);
    expect(late.partial?.until).toBe("2026-03-29T22:00:00.000Z");
  });

  it("sums whole hours before the cut and the cut hour by its elapsed share", () => {
    const rows = [
      { bucket: "2026-11-25T23:00:00.000Z", clicks: 10 },
      { bucket: "2026-11-26T00:00:00.000Z", clicks: 60 },
      { bucket: "2026-11-26T05:00:00.000Z", clicks: 99 },
    ];
    expect(sumHoursUntil(rows, "2026-11-26T00:26:00.000Z", ["clicks"], () => ({ clicks: 0 }))).toEqual({ clicks: 10 + 26 });
  });
});
