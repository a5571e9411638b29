import { describe, expect, it } from "vitest";
import { WEEK_DAYS, type Dayparting } from "~/domain/campaigns/campaign";
import {
  daypartingCells,
  daypartingEntries,
  fullDayparting,
  isInDaypart,
  normaliseDayparting,
  parseDaypartingForm,
  summariseDayparting,
} from "~/domain/campaigns/dayparting";

const grid = (hours: Partial<Dayparting>): Dayparting => ({ mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [], ...hours });
const ALL_CELLS = WEEK_DAYS.flatMap((d) => Array.from({ length: 24 }, (_, h) => `${d}-${h}`));

describe("parseDaypartingForm: checked cells to a grid", () => {
  it.each<[string, string[], ReturnType<typeof parseDaypartingForm>]>([
    ["every cell: no restriction", ALL_CELLS, { ok: true, value: null }],
    ["every cell plus noise: still none", [...ALL_CELLS, "mon-24", "xyz"], { ok: true, value: null }],
    ["no cell: refused", [], { ok: false, reason: "campaignTargeting:errors.daypartingEmpty" }],
    ["only invalid cells: refused", ["mon-24", "mon--1", "funday-3", "mon-", "MON-3"], { ok: false, reason: "campaignTargeting:errors.daypartingEmpty" }],
    ["some cells, sorted and de-duplicated", ["tue-17", "mon-9", "tue-8", "mon-9", " sun-0 "], { ok: true, value: grid({ mon: [9], tue: [8, 17], sun: [0] }) }],
    ["every cell but one", ALL_CELLS.filter((c) => c !== "sat-23"), { ok: true, value: { ...fullDayparting(), sat: fullDayparting().sat.slice(0, 23) } }],
  ])("%s", (_label, entries, expected) => {
    expect(parseDaypartingForm(entries)).toEqual(expected);
  });

  it("round-trips through the form's values", () => {
    const d = grid({ wed: [0, 1, 2], fri: [23] });
    expect(daypartingEntries(d)).toEqual(["wed-0", "wed-1", "wed-2", "fri-23"]);
    expect(parseDaypartingForm(daypartingEntries(d))).toEqual({ ok: true, value: d });
    expect(daypartingEntries(null)).toHaveLength(168);
  });
});

describe("normaliseDayparting", () => {
  it.each<[string, Partial<Record<string, number[]>> | null, Dayparting | null]>([
    ["null", null, null],
    ["every hour", fullDayparting(), null],
    ["missing days are off, bad hours dropped", { mon: [3, 1, 1, 24, -1, 2.5] }, grid({ mon: [1, 3] })],
  ])("%s", (_label, input, expected) => {
    expect(normaliseDayparting(input as Dayparting | null)).toEqual(expected);
  });
});

describe("daypartingCells: the grid to render", () => {
  it("has 7 rows of 24 cells, Monday first, with the form's values", () => {
    const rows = daypartingCells(grid({ mon: [9, 10], sun: [23] }));
    expect(rows.map((r) => r.day)).toEqual(["mon", "tue", "wed", "thu", "fri", "sat", "sun"]);
    expect(rows.every((r) => r.cells.length === 24)).toBe(true);
    expect(rows[0]!.count).toBe(2);
    expect(rows[0]!.cells[9]).toEqual({ hour: 9, value: "mon-9", on: true });
    expect(rows[0]!.cells[11]!.on).toBe(false);
    expect(rows[6]!.cells[23]).toEqual({ hour: 23, value: "sun-23", on: true });
  });

  it("shows every cell on without restriction", () => {
    expect(daypartingCells(null).every((r) => r.count === 24 && r.cells.every((c) => c.on))).toBe(true);
  });
});

describe("isInDaypart: the local day and hour in the retailer's time zone", () => {
  const PARIS = "Europe/Paris";
  it.each<[string, Dayparting | null, string, string, boolean]>([
    ["no restriction", null, "2026-03-29T01:30:00Z", PARIS, true],
    // Winter (UTC+1): 08:30Z is 09:30 on Monday 9 March.
    ["winter, hour on", grid({ mon: [9] }), "2026-03-09T08:30:00Z", PARIS, true],
    ["winter, UTC hour is not the local hour", grid({ mon: [8] }), "2026-03-09T08:30:00Z", PARIS, false],
    // Summer (UTC+2): 07:30Z is 09:30.
    ["summer, hour on", grid({ mon: [9] }), "2026-07-06T07:30:00Z", PARIS, true],
    ["summer, UTC+1 would say 8", grid({ mon: [8] }), "2026-07-06T07:30:00Z", PARIS, false],
    // The local day, not the UTC day: 22:30Z on Sunday 5 July is 00:30 on Monday in Paris.
    ["day boundary in summer", grid({ mon: [0] }), "2026-07-05T22:30:00Z", PARIS, true],
    ["day boundary: not Sunday", grid({ sun: [22, 23] }), "2026-07-05T22:30:00Z", PARIS, false],
    // Spring forward, Sunday 29 March 2026: 02:00 CET becomes 03:00 CEST at 01:00Z.
    ["spring forward: 00:30Z is 01:30", grid({ sun: [1] }), "2026-03-29T00:30:00Z", PARIS, true],
    ["spring forward: 00:59Z is still hour 1", grid({ sun: [1] }), "2026-03-29T00:59:59Z", PARIS, true],
    ["spring forward: 01:00Z is 03:00, not 02:00", grid({ sun: [2] }), "2026-03-29T01:00:00Z", PARIS, false],
    ["spring forward: 01:00Z is hour 3", grid({ sun: [3] }), "2026-03-29T01:00:00Z", PARIS, true],
    ["spring forward: 01:30Z is 03:30", grid({ sun: [3] }), "2026-03-29T01:30:00Z", PARIS, true],
    // Fall back, Sunday 25 October 2026: 03:00 CEST becomes 02:00 CET at 01:00Z; hour 2 runs twice.
    ["fall back: 00:30Z is the first 02:30", grid({ sun: [2] }), "2026-10-25T00:30:00Z", PARIS, true],
    ["fall back: 01:30Z is the second 02:30", grid({ sun: [2] }), "2026-10-25T01:30:00Z", PARIS, true],
    ["fall back: 01:30Z is not hour 1", grid({ sun: [1] }), "2026-10-25T01:30:00Z", PARIS, false],
    ["fall back: 02:30Z is 03:30", grid({ sun: [3] }), "2026-10-25T02:30:00Z", PARIS, true],
    ["fall back: 23:30Z on Saturday is 01:30 Sunday", grid({ sun: [1] }), "2026-10-24T23:30:00Z", PARIS, true],
    ["another zone", grid({ mon: [4] }), "2026-03-09T08:30:00Z", "America/New_York", true],
  ])("%s", (_label, d, instant, timeZone, expected) => {
    expect(isInDaypart(d, new Date(instant), timeZone)).toBe(expected);
  });

  it("runs 23 hours on the spring-forward Sunday and 25 on the fall-back one", () => {
    const sundayOnly = grid({ sun: fullDayparting().sun });
    const hoursOn = (startUtc: string) =>
      Array.from({ length: 30 }, (_, i) => new Date(Date.parse(startUtc) + i * 3_600_000)).filter((t) => isInDaypart(sundayOnly, t, "Europe/Paris")).length;
    // From Saturday 22:00Z, past the end of Sunday in Paris.
    expect(hoursOn("2026-03-28T22:00:00Z")).toBe(23);
    expect(hoursOn("2026-10-24T21:00:00Z")).toBe(25);
  });
});

describe("summariseDayparting", () => {
  it.each<[string, Dayparting | null, ReturnType<typeof summariseDayparting>]>([
    ["no restriction", null, null],
    ["every hour", fullDayparting(), null],
    [
      "runs of hours per day",
      grid({ mon: [9, 10, 11, 14, 15], sun: [0, 23] }),
      {
        totalHours: 7,
        days: [
          { day: "mon", count: 5, ranges: [{ from: 9, to: 12 }, { from: 14, to: 16 }] },
          { day: "tue", count: 0, ranges: [] },
          { day: "wed", count: 0, ranges: [] },
          { day: "thu", count: 0, ranges: [] },
          { day: "fri", count: 0, ranges: [] },
          { day: "sat", count: 0, ranges: [] },
          { day: "sun", count: 2, ranges: [{ from: 0, to: 1 }, { from: 23, to: 24 }] },
        ],
      },
    ],
  ])("%s", (_label, d, expected) => {
    expect(summariseDayparting(d)).toEqual(expected);
  });
});
