import { describe, expect, it } from "vitest";
import {
  dayCount,
  histogramUnit,
  isDay,
  localDay,
  localHourAndWeekday,
  periodBounds,
  periodFromSearch,
  periodParamNames,
  PRESETS,
  walletPresetContext,
  previousPeriod,
  resolvePreset,
  type Preset,
} from "~/domain/metrics/periods";

const TZ = "Europe/Paris";
const at = (iso: string) => ({ now: new Date(iso), timeZone: TZ });

describe("date presets in the retailer's days", () => {
  // Tuesday 24 November 2026, 10:00 in Paris.
  const tuesday = at("2026-11-24T09:00:00Z");

  it.each<[Preset, string, string]>([
    ["today", "2026-11-24", "2026-11-24"],
    ["yesterday", "2026-11-23", "2026-11-23"],
    ["last7", "2026-11-17", "2026-11-23"],
    ["last30", "2026-10-25", "2026-11-23"],
    ["last90", "2026-08-26", "2026-11-23"],
    ["lastWeek", "2026-11-16", "2026-11-22"],
    ["thisMonth", "2026-11-01", "2026-11-24"],
    ["lastMonth", "2026-10-01", "2026-10-31"],
    ["thisYear", "2026-01-01", "2026-11-24"],
    ["lastYear", "2025-01-01", "2025-12-31"],
  ])("%s is %s to %s", (preset, from, to) => {
    expect(resolvePreset(preset, tuesday)).toEqual({ from, to });
  });

  it("takes the day in Paris, not in UTC, just after local midnight", () => {
    // 23:30 UTC on 31 December is already 1 January in Paris.
    const newYear = at("2026-12-31T23:30:00Z");
    expect(resolvePreset("today", newYear)).toEqual({ from: "2027-01-01", to: "2027-01-01" });
    expect(resolvePreset("thisYear", newYear)).toEqual({ from: "2027-01-01", to: "2027-01-01" });
    expect(resolvePreset("lastYear", newYear)).toEqual({ from: "2026-01-01", to: "2026-12-31" });
    expect(resolvePreset("lastMonth", newYear)).toEqual({ from: "2026-12-01", to: "2026-12-31" });
  });

  it("reads last week as Monday to Sunday, whichever day today is", () => {
    expect(resolvePreset("lastWeek", at("2026-11-23T08:00:00Z"))).toEqual({ from: "2026-11-16", to: "2026-11-22" }); // a Monday
    expect(resolvePreset("lastWeek", at("2026-11-29T20:00:00Z"))).toEqual({ from: "2026-11-16", to: "2026-11-22" }); // a Sunday
  });

  it("knows 29 February in a leap year", () => {
    expect(resolvePreset("lastMonth", at("2028-03-01T12:00:00Z"))).toEqual({ from: "2028-02-01", to: "2028-02-29" });
  });

  it("takes custom days in order, never after today, ignoring what is not a day", () => {
    expect(resolvePreset("custom", { ...tuesday, custom: { from: "2026-11-20", to: "2026-11-10" } })).toEqual({ from: "2026-11-10", to: "2026-11-20" });
    expect(resolvePreset("custom", { ...tuesday, custom: { from: "2026-11-20", to: "2027-01-01" } })).toEqual({ from: "2026-11-20", to: "2026-11-24" });
    expect(resolvePreset("custom", { ...tuesday, custom: { from: "2026-02-30", to: "junk" } })).toEqual({ from: "2026-11-24", to: "2026-11-24" });
  });

  it("runs a campaign's and a wallet's lifetime from their start to today or the campaign's end", () => {
    expect(resolvePreset("campaignLifetime", { ...tuesday, campaign: { startDate: "2026-11-01T23:00:00Z", endDate: "2026-11-10T22:59:59Z" } })).toEqual({ from: "2026-11-02", to: "2026-11-10" });
    expect(resolvePreset("campaignLifetime", { ...tuesday, campaign: { startDate: "2026-11-20T00:00:00Z", endDate: null } })).toEqual({ from: "2026-11-20", to: "2026-11-24" });
    expect(resolvePreset("campaignLifetime", { ...tuesday, campaign: { startDate: "2027-01-01T00:00:00Z" } })).toEqual({ from: "2026-11-24", to: "2026-11-24" });
    expect(resolvePreset("walletLifetime", { ...tuesday, wallet: { firstEvent: null, created: "2026-10-01T10:00:00Z" } })).toEqual({ from: "2026-10-01", to: "2026-11-24" });
  });

  it("compares with as many days just before", () => {
    expect(previousPeriod({ from: "2026-11-17", to: "2026-11-23" })).toEqual({ from: "2026-11-10", to: "2026-11-16" });
    expect(previousPeriod({ from: "2026-03-01", to: "2026-03-01" })).toEqual({ from: "2026-02-28", to: "2026-02-28" });
  });

  it("counts a 23-hour and a 25-hour day as one day each, and bounds them by their real hours", () => {
    expect(dayCount({ from: "2026-03-29", to: "2026-03-29" })).toBe(1);
    expect(dayCount({ from: "2026-03-28", to: "2026-03-30" })).toBe(3);
    const spring = periodBounds({ from: "2026-03-29", to: "2026-03-29" }, TZ);
    expect((spring.end.getTime() - spring.start.getTime()) / 3_600_000).toBe(23);
    const autumn = periodBounds({ from: "2026-10-25", to: "2026-10-25" }, TZ);
    expect((autumn.end.getTime() - autumn.start.getTime()) / 3_600_000).toBe(25);
    expect(histogramUnit({ from: "2026-10-25", to: "2026-10-25" })).toBe("hour");
    expect(histogramUnit({ from: "2026-10-25", to: "2026-10-26" })).toBe("day");
  });

  it("gives the local day, hour and weekday of instants around the clock changes", () => {
    expect(localDay(new Date("2026-03-29T00:30:00Z"), TZ)).toBe("2026-03-29");
    expect(localHourAndWeekday(new Date("2026-03-29T01:30:00Z"), TZ)).toEqual({ hour: 3, weekday: 6 });
    expect(localHourAndWeekday(new Date("2026-10-25T00:30:00Z"), TZ)).toEqual({ hour: 2, weekday: 6 });
    expect(localHourAndWeekday(new Date("2026-10-25T01:30:00Z"), TZ)).toEqual({ hour: 2, weekday: 6 });
  });

  it("accepts only real days", () => {
    expect(isDay("2026-02-28")).toBe(true);
    for (const bad of ["2026-02-30", "2026-13-01", "26-01-01", "2026-1-1", "", null, 20260101, "1999-12-31"]) expect(isDay(bad)).toBe(false);
  });

  it("reads the period from the URL, falling back to today for what is not offered", () => {
    const ctx = at("2026-11-24T09:00:00Z");
    expect(periodFromSearch(new URLSearchParams("period=last7&compare=1"), ctx)).toMatchObject({
      preset: "last7",
      period: { from: "2026-11-17", to: "2026-11-23" },
      previous: { from: "2026-11-10", to: "2026-11-16" },
    });
    expect(periodFromSearch(new URLSearchParams("period=walletLifetime"), ctx, ["today", "yesterday"])).toMatchObject({ preset: "today", previous: null });
    expect(periodFromSearch(new URLSearchParams("period=custom&from=2026-11-01&to=2026-11-03"), ctx)).toMatchObject({
      period: { from: "2026-11-01", to: "2026-11-03" },
      custom: { from: "2026-11-01", to: "2026-11-03" },
    });
    expect(periodFromSearch(new URLSearchParams("period=bogus&from=x"), ctx)).toMatchObject({ preset: "today", custom: { from: "", to: "" } });
  });

  it("falls back to a screen's own default preset, and reads prefixed names where from and to mean something else", () => {
    const ctx = at("2026-11-24T09:00:00Z");
    expect(periodFromSearch(new URLSearchParams(""), ctx, PRESETS, { defaultPreset: "last30" })).toMatchObject({ preset: "last30", period: { from: "2026-10-25", to: "2026-11-23" } });
    // A default the screen does not offer is not taken.
    expect(periodFromSearch(new URLSearchParams(""), ctx, ["today", "yesterday"], { defaultPreset: "last30" }).preset).toBe("today");
    const wallet = { ...ctx, ...walletPresetContext({ firstSpendAt: "2026-11-02T10:00:00Z", created: "2026-10-01T10:00:00Z" }) };
    expect(periodFromSearch(new URLSearchParams("from=2026-11-20&to=2026-11-21"), wallet, PRESETS, { defaultPreset: "walletLifetime", prefix: "stats" })).toMatchObject({
      preset: "walletLifetime",
      period: { from: "2026-11-02", to: "2026-11-24" },
      custom: { from: "", to: "" },
    });
    expect(periodFromSearch(new URLSearchParams("statsPeriod=custom&statsFrom=2026-11-20&statsTo=2026-11-21&statsCompare=1"), wallet, PRESETS, { prefix: "stats" })).toMatchObject({
      period: { from: "2026-11-20", to: "2026-11-21" },
      previous: { from: "2026-11-18", to: "2026-11-19" },
    });
    expect(periodParamNames("stats")).toEqual({ period: "statsPeriod", from: "statsFrom", to: "statsTo", compare: "statsCompare" });
    expect(periodParamNames()).toEqual({ period: "period", from: "from", to: "to", compare: "compare" });
  });
});
