/**
 * Schedules of scheduled work (app/domain/schedule.ts): local times of a time zone followed across
 * daylight-saving changes (Paris and New York), the spring-forward gap, the fall-back overlap,
 * month ends, and what runs after downtime (each missed run, or one merged run).
 */
import { describe, expect, it } from "vitest";
import { describeSchedule, firstRun, isSchedule, localInstant, nextRun, planRun, type Schedule } from "~/domain/schedule";

const PARIS = "Europe/Paris";
const NEW_YORK = "America/New_York";

/** The next `n` runs after `from`, as UTC ISO strings. */
function runs(schedule: Schedule, from: string, n: number): string[] {
  const out: string[] = [];
  let at = new Date(from);
  for (let i = 0; i < n; i++) {
    const next = nextRun(schedule, at);
    if (!next) break;
    out.push(next.toISOString());
    at = next;
  }
  return out;
}

describe("a daily schedule at a local time", () => {
  it("runs a 09:00 Paris job at 08:00 UTC in winter and 07:00 UTC in summer, day by day across the spring change", () => {
    const daily: Schedule = { type: "daily", time: "09:00", timeZone: PARIS };
    // Clocks go forward on Sunday 29 March 2026 at 02:00 (UTC+1 → UTC+2).
    expect(runs(daily, "2026-03-26T12:00:00Z", 6)).toEqual([
      "2026-03-27T08:00:00.000Z",
      "2026-03-28T08:00:00.000Z",
      "2026-03-29T07:00:00.000Z",
      "2026-03-30T07:00:00.000Z",
      "2026-03-31T07:00:00.000Z",
      "2026-04-01T07:00:00.000Z",
    ]);
  });

  it("goes back to 08:00 UTC across Paris's autumn change", () => {
    const daily: Schedule = { type: "daily", time: "09:00", timeZone: PARIS };
    // Clocks go back on Sunday 25 October 2026 at 03:00 (UTC+2 → UTC+1).
    expect(runs(daily, "2026-10-23T00:00:00Z", 4)).toEqual([
      "2026-10-23T07:00:00.000Z",
      "2026-10-24T07:00:00.000Z",
      "2026-10-25T08:00:00.000Z",
      "2026-10-26T08:00:00.000Z",
    ]);
  });

  it("follows New York's changes, which fall on other weeks (8 March and 1 November 2026)", () => {
    const daily: Schedule = { type: "daily", time: "09:00", timeZone: NEW_YORK };
    expect(runs(daily, "2026-03-06T12:00:00Z", 4)).toEqual([
      "2026-03-06T14:00:00.000Z",
      "2026-03-07T14:00:00.000Z",
      "2026-03-08T13:00:00.000Z",
      "2026-03-09T13:00:00.000Z",
    ]);
    expect(runs(daily, "2026-10-30T12:00:00Z", 4)).toEqual([
      "2026-10-30T13:00:00.000Z",
      "2026-10-31T13:00:00.000Z",
      "2026-11-01T14:00:00.000Z",
      "2026-11-02T14:00:00.000Z",
    ]);
    // Between the two countries' changes (Paris still on winter time), the gap between the two
    // 09:00 runs is 5 hours, not 6.
    const paris = nextRun({ type: "daily", time: "09:00", timeZone: PARIS }, new Date("2026-03-10T00:00:00Z"))!;
    const ny = nextRun(daily, new Date("2026-03-10T00:00:00Z"))!;
    expect((ny.getTime() - paris.getTime()) / 3_600_000).toBe(5);
  });

  it("runs a local time that does not exist on the spring-forward day at the first valid instant after (the jump)", () => {
    const daily: Schedule = { type: "daily", time: "02:30", timeZone: PARIS };
    // 02:30 does not exist in Paris on 29 March 2026: 02:00 became 03:00 (01:00 UTC).
    expect(runs(daily, "2026-03-27T12:00:00Z", 4)).toEqual([
      "2026-03-28T01:30:00.000Z",
      "2026-03-29T01:00:00.000Z",
      "2026-03-30T00:30:00.000Z",
      "2026-03-31T00:30:00.000Z",
    ]);
    expect(localInstant({ y: 2026, m: 3, d: 8 }, "02:30", NEW_YORK).toISOString()).toBe("2026-03-08T07:00:00.000Z");
    // 02:00 itself is the first minute of the gap.
    expect(localInstant({ y: 2026, m: 3, d: 29 }, "02:00", PARIS).toISOString()).toBe("2026-03-29T01:00:00.000Z");
  });

  it("runs the fall-back day's duplicated hour once, at its first instance", () => {
    const daily: Schedule = { type: "daily", time: "02:30", timeZone: PARIS };
    // 02:30 happens twice in Paris on 25 October 2026: at 00:30 UTC (summer time) and 01:30 UTC.
    const week = runs(daily, "2026-10-23T12:00:00Z", 4);
    expect(week).toEqual([
      "2026-10-24T00:30:00.000Z",
      "2026-10-25T00:30:00.000Z",
      "2026-10-26T01:30:00.000Z",
      "2026-10-27T01:30:00.000Z",
    ]);
    // After the first instance, the next run is the next day's, never the second instance.
    expect(nextRun(daily, new Date("2026-10-25T00:30:00Z"))!.toISOString()).toBe("2026-10-26T01:30:00.000Z");
    expect(nextRun(daily, new Date("2026-10-25T01:00:00Z"))!.toISOString()).toBe("2026-10-26T01:30:00.000Z");
    // New York's 01:30 on 1 November 2026: 05:30 UTC (EDT), not 06:30 (EST).
    const ny: Schedule = { type: "daily", time: "01:30", timeZone: NEW_YORK };
    expect(runs(ny, "2026-10-31T12:00:00Z", 2)).toEqual(["2026-11-01T05:30:00.000Z", "2026-11-02T06:30:00.000Z"]);
  });
});

describe("weekly and monthly schedules", () => {
  it("runs a Monday 09:00 New York job on Mondays only, across its spring change", () => {
    const weekly: Schedule = { type: "weekly", time: "09:00", timeZone: NEW_YORK, weekday: 1 };
    expect(runs(weekly, "2026-02-25T00:00:00Z", 3)).toEqual([
      "2026-03-02T14:00:00.000Z",
      "2026-03-09T13:00:00.000Z",
      "2026-03-16T13:00:00.000Z",
    ]);
    // Sunday (7) in Paris, across the spring change.
    expect(runs({ type: "weekly", time: "18:00", timeZone: PARIS, weekday: 7 }, "2026-03-20T00:00:00Z", 2)).toEqual([
      "2026-03-22T17:00:00.000Z",
      "2026-03-29T16:00:00.000Z",
    ]);
  });

  it("runs on the month's last day when the day is past its end (31 in February and April; 29 February in leap years)", () => {
    const monthly: Schedule = { type: "monthly", time: "09:00", timeZone: PARIS, day: 31 };
    expect(runs(monthly, "2026-01-15T00:00:00Z", 5)).toEqual([
      "2026-01-31T08:00:00.000Z",
      "2026-02-28T08:00:00.000Z",
      "2026-03-31T07:00:00.000Z",
      "2026-04-30T07:00:00.000Z",
      "2026-05-31T07:00:00.000Z",
    ]);
    expect(runs({ type: "monthly", time: "00:00", timeZone: NEW_YORK, day: 30 }, "2028-01-31T12:00:00Z", 2)).toEqual([
      "2028-02-29T05:00:00.000Z",
      "2028-03-30T04:00:00.000Z",
    ]);
    // The month's first day at midnight in Paris is the evening before in UTC.
    expect(runs({ type: "monthly", time: "00:00", timeZone: PARIS, day: 1 }, "2026-06-15T00:00:00Z", 1)).toEqual(["2026-06-30T22:00:00.000Z"]);
  });
});

describe("once and every", () => {
  it("runs a once job at its instant only", () => {
    const once: Schedule = { type: "once", at: "2026-05-01T10:00:00.000Z" };
    expect(nextRun(once, new Date("2026-04-30T00:00:00Z"))!.toISOString()).toBe("2026-05-01T10:00:00.000Z");
    expect(nextRun(once, new Date("2026-05-01T10:00:00Z"))).toBeNull();
    // Created after its instant: it runs at once.
    expect(firstRun(once, new Date("2026-06-01T00:00:00Z"))!.toISOString()).toBe("2026-05-01T10:00:00.000Z");
  });

  it("runs an interval on its multiples, so every instance agrees on the runs", () => {
    const every: Schedule = { type: "every", seconds: 10 };
    expect(runs(every, "2026-01-01T00:00:03.500Z", 3)).toEqual(["2026-01-01T00:00:10.000Z", "2026-01-01T00:00:20.000Z", "2026-01-01T00:00:30.000Z"]);
    expect(firstRun(every, new Date("2026-01-01T00:00:10Z"))!.toISOString()).toBe("2026-01-01T00:00:20.000Z");
  });
});

describe("after downtime", () => {
  const daily: Schedule = { type: "daily", time: "09:00", timeZone: PARIS };
  const due = new Date("2026-03-27T08:00:00Z");
  const now = new Date("2026-03-30T12:00:00Z");

  it("runs each missed run once under 'each': the oldest first, the next one after it", () => {
    expect(planRun(daily, due, now, "each")).toEqual({ scheduledFor: due, runs: 1 });
    const seen: string[] = [];
    let next: Date | null = due;
    while (next && next <= now) {
      const plan = planRun(daily, next, now, "each");
      seen.push(plan.scheduledFor.toISOString());
      next = nextRun(daily, plan.scheduledFor);
    }
    // 27, 28, 29 (the change) and 30 March: four runs, each once.
    expect(seen).toEqual(["2026-03-27T08:00:00.000Z", "2026-03-28T08:00:00.000Z", "2026-03-29T07:00:00.000Z", "2026-03-30T07:00:00.000Z"]);
    expect(next!.toISOString()).toBe("2026-03-31T07:00:00.000Z");
  });

  it("merges the missed runs into one under 'merge': the latest due, counting them", () => {
    const plan = planRun(daily, due, now, "merge");
    expect(plan).toEqual({ scheduledFor: new Date("2026-03-30T07:00:00Z"), runs: 4 });
    expect(nextRun(daily, plan.scheduledFor)!.toISOString()).toBe("2026-03-31T07:00:00.000Z");
    const every: Schedule = { type: "every", seconds: 10 };
    expect(planRun(every, new Date("2026-01-01T00:00:10Z"), new Date("2026-01-01T00:01:05Z"), "merge")).toEqual({
      scheduledFor: new Date("2026-01-01T00:01:00Z"),
      runs: 6,
    });
  });
});

describe("schedules are checked and said in words", () => {
  it("refuses unknown zones, times, weekdays, days and intervals", () => {
    expect(isSchedule({ type: "daily", time: "09:00", timeZone: PARIS })).toBe(true);
    expect(isSchedule({ type: "daily", time: "24:00", timeZone: PARIS })).toBe(false);
    expect(isSchedule({ type: "daily", time: "09:00", timeZone: "Europe/Atlantis" })).toBe(false);
    expect(isSchedule({ type: "weekly", time: "09:00", timeZone: PARIS, weekday: 8 })).toBe(false);
    expect(isSchedule({ type: "monthly", time: "09:00", timeZone: PARIS, day: 0 })).toBe(false);
    expect(isSchedule({ type: "every", seconds: 0 })).toBe(false);
    expect(isSchedule({ type: "once", at: "not a date" })).toBe(false);
    expect(isSchedule({ type: "hourly" })).toBe(false);
  });

  it("gives the words of each schedule in the reader's language, a once instant in the reader's zone", () => {
    const en = { locale: "en-GB", timeZone: PARIS };
    const fr = { locale: "fr", timeZone: PARIS };
    expect(describeSchedule({ type: "weekly", time: "09:00", timeZone: NEW_YORK, weekday: 1 }, en)).toEqual({
      key: "weekly",
      values: { weekday: "Monday", time: "09:00", zone: "America/New York" },
    });
    expect(describeSchedule({ type: "weekly", time: "09:00", timeZone: PARIS, weekday: 7 }, fr).values.weekday).toBe("dimanche");
    expect(describeSchedule({ type: "monthly", time: "09:00", timeZone: PARIS, day: 31 }, en).key).toBe("monthlyEnd");
    expect(describeSchedule({ type: "monthly", time: "09:00", timeZone: PARIS, day: 5 }, en).key).toBe("monthly");
    expect(describeSchedule({ type: "every", seconds: 10 }, en)).toEqual({ key: "everySeconds", values: { count: 10 } });
    expect(describeSchedule({ type: "every", seconds: 300 }, en)).toEqual({ key: "everyMinutes", values: { count: 5 } });
    expect(describeSchedule({ type: "every", seconds: 7200 }, en)).toEqual({ key: "everyHours", values: { count: 2 } });
    expect(describeSchedule({ type: "once", at: "2026-07-01T07:00:00Z" }, en).values.at).toBe("1 July 2026 at 09:00");
  });
});
