/**
 * Budget pacing and device rules of spec section 5. Pure: no I/O, no framework.
 *
 * Readings: pacing values are integer cents, as the campaign stores them. "Below" is read
 * strictly: a daily cap equal to the total, or a placement cap equal to the daily cap, is refused.
 * A value that is missing, not a number, 0 or less is dropped (null) before any comparison.
 * Placement caps are compared with the daily cap only when a daily cap is set.
 */

import type { Cents } from "~/domain/money";

export const PACING_PLACEMENTS = ["search", "plp", "hub", "pdp", "home"] as const;
export type PacingPlacement = (typeof PACING_PLACEMENTS)[number];
/** Pacing per device uses the spec's own list: mobile, tablet, app and unknown (no desktop). */
export const PACING_DEVICES = ["mobile", "tablet", "app", "unknown"] as const;
export type PacingDevice = (typeof PACING_DEVICES)[number];

export interface PacingInput {
  total?: Cents | null;
  daily?: Cents | null;
  placements?: Partial<Record<PacingPlacement, Cents | null>>;
  devices?: Partial<Record<PacingDevice, Cents | null>>;
}

export interface Pacing {
  total: Cents | null;
  daily: Cents | null;
  placements: Record<PacingPlacement, Cents | null>;
  devices: Record<PacingDevice, Cents | null>;
}

export type PacingRefusal = "campaigns:budget.dailyNotBelowTotal" | "campaigns:budget.placementNotBelowDaily";
export type PacingCheck =
  | { ok: true; value: Pacing }
  | { ok: false; reason: PacingRefusal; /** "daily" or the placement. */ field: "daily" | PacingPlacement };

/** A value above 0, else null (dropped). */
export function positiveOrNull(value: Cents | null | undefined): Cents | null {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : null;
}

export function validatePacing(input: PacingInput): PacingCheck {
  const total = positiveOrNull(input.total);
  const daily = positiveOrNull(input.daily);
  const placements = Object.fromEntries(
    PACING_PLACEMENTS.map((p) => [p, positiveOrNull(input.placements?.[p])]),
  ) as Record<PacingPlacement, Cents | null>;
  const devices = Object.fromEntries(PACING_DEVICES.map((d) => [d, positiveOrNull(input.devices?.[d])])) as Record<PacingDevice, Cents | null>;
  if (total !== null && daily !== null && !(daily < total)) {
    return { ok: false, reason: "campaigns:budget.dailyNotBelowTotal", field: "daily" };
  }
  if (daily !== null) {
    for (const p of PACING_PLACEMENTS) {
      const cap = placements[p];
      if (cap !== null && !(cap < daily)) return { ok: false, reason: "campaigns:budget.placementNotBelowDaily", field: p };
    }
  }
  return { ok: true, value: { total, daily, placements, devices } };
}

/** Targeting devices: desktop, mobile, tablet and unknown; a campaign targets all 4 by default. */
export const TARGET_DEVICES = ["desktop", "mobile", "tablet", "unknown"] as const;
export type TargetDevice = (typeof TARGET_DEVICES)[number];

/**
 * The device filter to save: the chosen known devices in the canonical order, only when some but
 * not all 4 are chosen; otherwise null (no filter saved, every device targeted).
 */
export function normaliseDevices(chosen: readonly string[] | null | undefined): TargetDevice[] | null {
  const set = new Set(chosen ?? []);
  const picked = TARGET_DEVICES.filter((d) => set.has(d));
  return picked.length > 0 && picked.length < TARGET_DEVICES.length ? picked : null;
}
