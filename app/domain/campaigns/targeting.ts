/**
 * Targeting rules of the campaign editor (issue 4, section 4) that the form schema and the service
 * share: placements and slots of the campaign's type, and the dayparting grid's quick fills.
 * Pure: the retailer settings are passed in. Dayparting itself lives in ./dayparting.ts.
 *
 * Readings:
 * - The slots offered are the type's slots in the retailer settings. A slot the user leaves on is
 *   saved in `slots`; a slot of the type switched off is saved in `slotsOff` (the spec's name).
 *   A stored slot the settings no longer know is dropped from both on the next save.
 * - Placements are the type's placements; at least one must be chosen.
 * - At least one slot must stay on and serve one of the chosen placements, otherwise the campaign
 *   could be published nowhere (see computedSlots in ./campaign-publication.ts).
 */
import { WEEK_DAYS, type WeekDay } from "~/domain/campaigns/campaign";
import { cellValue, HOURS } from "~/domain/campaigns/dayparting";
import type { CampaignTypeSettings, Placement } from "~/domain/retailer-settings";

/** Each reason is the i18n key of its message. */
export type TargetingReason =
  | "campaignTargeting:errors.placementsEmpty"
  | "campaignTargeting:errors.placementNotOfType"
  | "campaignTargeting:errors.slotsEmpty"
  | "campaignTargeting:errors.slotNotOfType"
  | "campaignTargeting:errors.noServedSlot";

export type SlotsCheck =
  | { ok: true; value: { placements: Placement[]; slots: string[]; slotsOff: string[] } }
  | { ok: false; field: "placements" | "slots"; reason: TargetingReason };

/**
 * Placements and slots to save: the chosen placements (in the type's order), the slots left on
 * and the type's other slots as `slotsOff`; or the first rule broken.
 */
export function resolvePlacementsAndSlots(
  typeSettings: Pick<CampaignTypeSettings, "placements" | "slots">,
  chosenPlacements: readonly string[],
  slotsOn: readonly string[],
): SlotsCheck {
  const placementSet = new Set(chosenPlacements);
  if (placementSet.size === 0) return { ok: false, field: "placements", reason: "campaignTargeting:errors.placementsEmpty" };
  if ([...placementSet].some((p) => !(typeSettings.placements as readonly string[]).includes(p))) {
    return { ok: false, field: "placements", reason: "campaignTargeting:errors.placementNotOfType" };
  }
  const placements = typeSettings.placements.filter((p) => placementSet.has(p));
  const typeSlots = Object.keys(typeSettings.slots);
  const onSet = new Set(slotsOn);
  if (onSet.size === 0) return { ok: false, field: "slots", reason: "campaignTargeting:errors.slotsEmpty" };
  if ([...onSet].some((s) => !typeSlots.includes(s))) return { ok: false, field: "slots", reason: "campaignTargeting:errors.slotNotOfType" };
  const slots = typeSlots.filter((s) => onSet.has(s));
  const slotsOff = typeSlots.filter((s) => !onSet.has(s));
  const served = slots.some((s) => (typeSettings.slots[s] ?? []).some((p) => placementSet.has(p)));
  if (!served) return { ok: false, field: "slots", reason: "campaignTargeting:errors.noServedSlot" };
  return { ok: true, value: { placements, slots, slotsOff } };
}

/** Whether a slot is on for a campaign: chosen and not switched off. */
export function isSlotOn(campaign: { slots: readonly string[]; slotsOff: readonly string[] }, slot: string): boolean {
  return campaign.slots.includes(slot) && !campaign.slotsOff.includes(slot);
}

// ---------------------------------------------------------------------------------------------
// Dayparting quick fills

export const DAYPART_PRESETS = ["all", "none", "business"] as const;
export type DaypartPreset = (typeof DAYPART_PRESETS)[number];

/** Business hours: Monday to Friday, 09:00 to 18:00 (the hours 9 to 17). */
export const BUSINESS_DAYS: readonly WeekDay[] = ["mon", "tue", "wed", "thu", "fri"];
export const BUSINESS_HOURS = { from: 9, to: 18 } as const;

export function isDaypartPreset(value: unknown): value is DaypartPreset {
  return typeof value === "string" && (DAYPART_PRESETS as readonly string[]).includes(value);
}

/** The checked cells ("mon-9"…) of a quick fill, in grid order. */
export function daypartPresetEntries(preset: DaypartPreset): string[] {
  if (preset === "none") return [];
  return WEEK_DAYS.flatMap((day) =>
    HOURS.filter((h) => preset === "all" || (BUSINESS_DAYS.includes(day) && h >= BUSINESS_HOURS.from && h < BUSINESS_HOURS.to)).map((h) =>
      cellValue(day, h),
    ),
  );
}
