/**
 * The Targeting section's schema (app/forms/campaign-targeting.ts) and its domain helpers
 * (app/domain/campaign-targeting.ts): devices, capping, placements and slots, dayparting.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import {
  daypartPresetEntries,
  isDaypartPreset,
  isSlotOn,
  resolvePlacementsAndSlots,
} from "~/domain/campaigns/targeting";
import { daypartingEntries } from "~/domain/campaigns/dayparting";
import { DEFAULT_RETAILER_SETTINGS } from "~/domain/retailer-settings";
import { UpdateTargetingSchema, updateTargetingIntent } from "~/forms/campaigns/targeting";

type Entries = [string, string][];

function form(entries: Entries): FormData {
  const data = new FormData();
  for (const [k, v] of entries) data.append(k, v);
  return data;
}

const base = (overrides: { devices?: string[]; daypart?: string[]; placements?: string[]; slots?: string[]; capping?: Entries } = {}): Entries => [
  ["intent", updateTargetingIntent],
  ["version", "3"],
  ...(overrides.devices ?? ["desktop", "mobile"]).map((d): [string, string] => ["devices", d]),
  ...(overrides.capping ?? [
    ["cappingEnabled", "on"],
    ["cappingType", "clicks"],
    ["cappingMax", "7"],
  ]),
  ...(overrides.placements ?? ["search", "plp"]).map((p): [string, string] => ["placements", p]),
  ...(overrides.slots ?? ["sp"]).map((s): [string, string] => ["slots", s]),
  ...(overrides.daypart ?? ["mon-9", "mon-10", "sun-23"]).map((c): [string, string] => ["daypart", c]),
];

const parse = (entries: Entries) => parseWithZod(form(entries), { schema: UpdateTargetingSchema });
function errorsOf(entries: Entries): Record<string, string[] | null> {
  const submission = parse(entries);
  expect(submission.status).toBe("error");
  return submission.status === "error" ? (submission.error ?? {}) : {};
}

describe("UpdateTargetingSchema", () => {
  it("reads a full form: devices, capping, placements, slots and the grid", () => {
    const submission = parse(base());
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    expect(submission.value).toMatchObject({
      version: 3,
      devices: ["desktop", "mobile"],
      cappingEnabled: true,
      cappingType: "clicks",
      cappingMax: 7,
      placements: ["search", "plp"],
      slots: ["sp"],
    });
    expect(submission.value.daypart?.mon).toEqual([9, 10]);
    expect(submission.value.daypart?.sun).toEqual([23]);
    expect(submission.value.daypart?.tue).toEqual([]);
  });

  it("saves a device filter only when some but not all 4 devices are chosen", () => {
    const all = parse(base({ devices: ["unknown", "tablet", "mobile", "desktop"] }));
    expect(all.status === "success" && all.value.devices).toBeNull();
    const one = parse(base({ devices: ["tablet"] }));
    expect(one.status === "success" && one.value.devices).toEqual(["tablet"]);
    const unordered = parse(base({ devices: ["unknown", "desktop"] }));
    expect(unordered.status === "success" && unordered.value.devices).toEqual(["desktop", "unknown"]);
  });

  it("refuses a form with no device chosen, or an unknown device", () => {
    expect(errorsOf(base({ devices: [] })).devices).toEqual(["campaignTargeting:errors.devicesEmpty"]);
    expect(Object.keys(errorsOf(base({ devices: ["smartwatch"] }))).some((k) => k.startsWith("devices"))).toBe(true);
  });

  it("reads capping switched off (unticked) and refuses a maximum below 1, not whole, or above 1000", () => {
    const off = parse(base({ capping: [["cappingType", "views"], ["cappingMax", "5"]] }));
    expect(off.status === "success" && off.value.cappingEnabled).toBe(false);
    for (const max of ["0", "-1", "2.5", "abc", ""]) {
      expect(errorsOf(base({ capping: [["cappingType", "views"], ["cappingMax", max]] })).cappingMax, max).toEqual(["campaignTargeting:errors.cappingMax"]);
    }
    expect(errorsOf(base({ capping: [["cappingType", "views"], ["cappingMax", "1001"]] })).cappingMax).toEqual(["campaignTargeting:errors.cappingMaxTooHigh"]);
    expect(errorsOf(base({ capping: [["cappingType", "impressions"], ["cappingMax", "5"]] })).cappingType).toEqual(["campaignTargeting:errors.cappingType"]);
  });

  it("needs at least one placement", () => {
    expect(errorsOf(base({ placements: [] })).placements).toEqual(["campaignTargeting:errors.placementsEmpty"]);
  });

  it("stores every hour of every day as no restriction (null), and refuses an empty grid", () => {
    const full = parse(base({ daypart: daypartingEntries(null) }));
    expect(full.status === "success" && full.value.daypart).toBeNull();
    expect(errorsOf(base({ daypart: [] })).daypart).toEqual(["campaignTargeting:errors.daypartingEmpty"]);
    // Cells that are not cells are ignored; only those left count.
    expect(errorsOf(base({ daypart: ["mon-24", "xyz-1"] })).daypart).toEqual(["campaignTargeting:errors.daypartingEmpty"]);
  });

  it("needs the intent and a version", () => {
    expect(errorsOf(base().filter(([k]) => k !== "version")).version).toBeTruthy();
    expect(errorsOf(base().map(([k, v]): [string, string] => (k === "intent" ? [k, "other"] : [k, v]))).intent).toBeTruthy();
  });
});

describe("placements and slots of the type", () => {
  const sp = DEFAULT_RETAILER_SETTINGS.types["sponsored-products"];
  const banners = DEFAULT_RETAILER_SETTINGS.types["banner-ads"];

  it("saves the slots left on, and the type's other slots as slotsOff, in the settings' order", () => {
    expect(resolvePlacementsAndSlots(banners, ["plp", "home"], ["345x90", "670x980"])).toEqual({
      ok: true,
      value: { placements: ["home", "plp"], slots: ["670x980", "345x90"], slotsOff: ["1560x260", "345x140"] },
    });
    expect(resolvePlacementsAndSlots(sp, ["search", "plp", "pdp", "hub", "home"], ["sp", "slider"])).toEqual({
      ok: true,
      value: { placements: ["search", "plp", "pdp", "hub", "home"], slots: ["sp", "slider"], slotsOff: [] },
    });
  });

  it("refuses no placement, a placement or slot of another type, no slot, and slots serving none of the placements", () => {
    expect(resolvePlacementsAndSlots(sp, [], ["sp"])).toMatchObject({ ok: false, field: "placements", reason: "campaignTargeting:errors.placementsEmpty" });
    expect(resolvePlacementsAndSlots(banners, ["pdp"], ["670x980"])).toMatchObject({ ok: false, field: "placements", reason: "campaignTargeting:errors.placementNotOfType" });
    expect(resolvePlacementsAndSlots(sp, ["search"], [])).toMatchObject({ ok: false, field: "slots", reason: "campaignTargeting:errors.slotsEmpty" });
    expect(resolvePlacementsAndSlots(sp, ["search"], ["670x980"])).toMatchObject({ ok: false, field: "slots", reason: "campaignTargeting:errors.slotNotOfType" });
    // slider serves pdp and home only.
    expect(resolvePlacementsAndSlots(sp, ["search"], ["slider"])).toMatchObject({ ok: false, field: "slots", reason: "campaignTargeting:errors.noServedSlot" });
  });

  it("tells a slot on only when chosen and not switched off", () => {
    expect(isSlotOn({ slots: ["sp", "slider"], slotsOff: ["slider"] }, "sp")).toBe(true);
    expect(isSlotOn({ slots: ["sp", "slider"], slotsOff: ["slider"] }, "slider")).toBe(false);
    expect(isSlotOn({ slots: ["sp"], slotsOff: [] }, "slider")).toBe(false);
  });
});

describe("dayparting quick fills", () => {
  it("fills every cell, none, or business hours (Monday to Friday, 09:00 to 18:00)", () => {
    expect(daypartPresetEntries("all")).toEqual(daypartingEntries(null));
    expect(daypartPresetEntries("all")).toHaveLength(168);
    expect(daypartPresetEntries("none")).toEqual([]);
    const business = daypartPresetEntries("business");
    expect(business).toHaveLength(5 * 9);
    expect(business[0]).toBe("mon-9");
    expect(business.at(-1)).toBe("fri-17");
    expect(business).not.toContain("mon-18");
    expect(business.some((c) => c.startsWith("sat") || c.startsWith("sun"))).toBe(false);
  });

  it("knows its presets only", () => {
    expect(isDaypartPreset("business")).toBe(true);
    expect(isDaypartPreset("weekend")).toBe(false);
    expect(isDaypartPreset(null)).toBe(false);
  });
});
