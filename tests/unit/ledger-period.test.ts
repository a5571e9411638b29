import { describe, expect, it } from "vitest";
import { addDays, dayOf, dayStart, isIsoDay, periodInstants, todayInstants } from "~/domain/wallets/ledger-period";

describe("days of the ledger in the retailer's time zone", () => {
  it("knows real calendar days", () => {
    expect(isIsoDay("2026-02-28")).toBe(true);
    expect(isIsoDay("2028-02-29")).toBe(true);
    expect(isIsoDay("2026-02-29")).toBe(false);
    expect(isIsoDay("2026-13-01")).toBe(false);
    expect(isIsoDay("1/3/2026")).toBe(false);
  });

  it("adds days across months and years", () => {
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  });

  it("starts a day at its local midnight, summer or winter", () => {
    expect(dayStart("2026-01-15", "Europe/Paris").toISOString()).toBe("2026-01-14T23:00:00.000Z");
    expect(dayStart("2026-07-15", "Europe/Paris").toISOString()).toBe("2026-07-14T22:00:00.000Z");
    expect(dayStart("2026-07-15", "Europe/Warsaw").toISOString()).toBe("2026-07-14T22:00:00.000Z");
  });

  it("tells the local day of an instant", () => {
    expect(dayOf(new Date("2026-03-01T23:30:00Z"), "Europe/Paris")).toBe("2026-03-02");
    expect(dayOf(new Date("2026-03-01T22:59:59Z"), "Europe/Paris")).toBe("2026-03-01");
  });

  it("turns a period of inclusive days into [from, to) instants", () => {
    expect(periodInstants({ from: "2026-03-29", to: "2026-03-29" }, "Europe/Paris")).toEqual({
      ok: true,
      // The day DST starts in Paris lasts 23 hours.
      value: { from: "2026-03-28T23:00:00.000Z", to: "2026-03-29T22:00:00.000Z" },
    });
    expect(periodInstants({}, "Europe/Paris")).toEqual({ ok: true, value: { from: undefined, to: undefined } });
  });

  it("refuses wrong dates and a period that ends before it starts", () => {
    expect(periodInstants({ from: "2026-02-30" }, "Europe/Paris")).toEqual({ ok: false, reason: "period.invalidDate", field: "from" });
    expect(periodInstants({ to: "tomorrow" }, "Europe/Paris")).toEqual({ ok: false, reason: "period.invalidDate", field: "to" });
    expect(periodInstants({ from: "2026-03-02", to: "2026-03-01" }, "Europe/Paris")).toEqual({ ok: false, reason: "period.reversed", field: "to" });
  });

  it("gives today's bounds", () => {
    expect(todayInstants(new Date("2026-11-22T23:30:00Z"), "Europe/Paris")).toEqual({
      day: "2026-11-23",
      from: "2026-11-22T23:00:00.000Z",
      to: "2026-11-23T23:00:00.000Z",
    });
  });
});
