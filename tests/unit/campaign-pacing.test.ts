import { describe, expect, it } from "vitest";
import {
  normaliseDevices,
  positiveOrNull,
  validatePacing,
  type PacingCheck,
  type PacingInput,
  type TargetDevice,
} from "~/domain/campaigns/pacing";

const NONE = { search: null, plp: null, hub: null, pdp: null, home: null };
const NO_DEVICES = { mobile: null, tablet: null, app: null, unknown: null };

describe("validatePacing (spec section 5)", () => {
  it.each<[string, PacingInput, PacingCheck]>([
    ["empty", {}, { ok: true, value: { total: null, daily: null, placements: NONE, devices: NO_DEVICES } }],
    ["daily below total", { total: 100, daily: 10 }, { ok: true, value: { total: 100, daily: 10, placements: NONE, devices: NO_DEVICES } }],
    ["daily equal to total", { total: 100, daily: 100 }, { ok: false, reason: "campaigns:budget.dailyNotBelowTotal", field: "daily" }],
    ["daily above total", { total: 100, daily: 150 }, { ok: false, reason: "campaigns:budget.dailyNotBelowTotal", field: "daily" }],
    ["daily without total", { daily: 150 }, { ok: true, value: { total: null, daily: 150, placements: NONE, devices: NO_DEVICES } }],
    ["zero total dropped", { total: 0, daily: 150 }, { ok: true, value: { total: null, daily: 150, placements: NONE, devices: NO_DEVICES } }],
    ["negative daily dropped", { total: 100, daily: -5 }, { ok: true, value: { total: 100, daily: null, placements: NONE, devices: NO_DEVICES } }],
    ["NaN dropped", { total: Number.NaN, daily: 5 }, { ok: true, value: { total: null, daily: 5, placements: NONE, devices: NO_DEVICES } }],
    [
      "placements below daily",
      { total: 100, daily: 20, placements: { search: 5, plp: 19.99, hub: 0, pdp: -1 } },
      { ok: true, value: { total: 100, daily: 20, placements: { ...NONE, search: 5, plp: 19.99 }, devices: NO_DEVICES } },
    ],
    ["search equal to daily", { daily: 20, placements: { search: 20 } }, { ok: false, reason: "campaigns:budget.placementNotBelowDaily", field: "search" }],
    ["home above daily", { daily: 20, placements: { plp: 3, home: 25 } }, { ok: false, reason: "campaigns:budget.placementNotBelowDaily", field: "home" }],
    ["hub above daily", { daily: 20, placements: { hub: 21 } }, { ok: false, reason: "campaigns:budget.placementNotBelowDaily", field: "hub" }],
    ["pdp above daily", { daily: 20, placements: { pdp: 21 } }, { ok: false, reason: "campaigns:budget.placementNotBelowDaily", field: "pdp" }],
    [
      "placements without daily are kept",
      { total: 100, placements: { pdp: 500 } },
      { ok: true, value: { total: 100, daily: null, placements: { ...NONE, pdp: 500 }, devices: NO_DEVICES } },
    ],
    [
      "device pacing: values above 0 kept",
      { devices: { mobile: 3, tablet: 0, app: -2, unknown: 1 } },
      { ok: true, value: { total: null, daily: null, placements: NONE, devices: { mobile: 3, tablet: null, app: null, unknown: 1 } } },
    ],
  ])("%s", (_label, input, expected) => {
    expect(validatePacing(input)).toEqual(expected);
  });

  it.each<[number | null | undefined, number | null]>([
    [1, 1],
    [0.01, 0.01],
    [0, null],
    [-3, null],
    [null, null],
    [undefined, null],
    [Number.POSITIVE_INFINITY, null],
  ])("positiveOrNull(%s) -> %s", (value, expected) => {
    expect(positiveOrNull(value)).toBe(expected);
  });
});

describe("normaliseDevices: saved only when some but not all 4 are chosen", () => {
  it.each<[string[] | null, TargetDevice[] | null]>([
    [[], null],
    [null, null],
    [["desktop", "mobile", "tablet", "unknown"], null],
    [["unknown", "tablet", "mobile", "desktop", "desktop"], null],
    [["mobile"], ["mobile"]],
    [["tablet", "desktop"], ["desktop", "tablet"]],
    [["mobile", "mobile"], ["mobile"]],
    [["desktop", "mobile", "tablet"], ["desktop", "mobile", "tablet"]],
    [["app"], null],
    [["app", "mobile"], ["mobile"]],
  ])("%j -> %j", (chosen, expected) => {
    expect(normaliseDevices(chosen)).toEqual(expected);
  });
});
