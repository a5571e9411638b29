/**
 * The Targeting section of the campaign editor: one schema, shared by the browser (conform) and
 * the action. Messages are i18n keys of the "campaignTargeting" namespace. Rules that need the
 * retailer settings (the type's placements and slots) are checked by the service with
 * resolvePlacementsAndSlots (app/domain/campaign-targeting.ts).
 */
import * as z from "zod/mini";
import { CAPPING_TYPES } from "~/domain/campaigns/campaign";
import { normaliseDevices, TARGET_DEVICES } from "~/domain/campaigns/pacing";
import { parseDaypartingForm } from "~/domain/campaigns/dayparting";

export const updateTargetingIntent = "update-targeting";
/** The name of the dayparting quick-fill buttons (values: DAYPART_PRESETS). */
export const daypartPresetField = "daypartPreset";
/** The name of the grid's checkboxes (values "mon-9"…). */
export const daypartField = "daypart";

export const MAX_CAPPING = 1000;
const version = z.coerce.number().check(z.int(), z.gte(1));

export const UpdateTargetingSchema = z.object({
  intent: z.literal(updateTargetingIntent),
  version,
  /** Devices ticked; saved only when some but not all 4 are (normaliseDevices), none is refused. */
  devices: z.pipe(
    z
      .array(z.enum(TARGET_DEVICES, { error: "campaignTargeting:errors.deviceUnknown" }))
      .check(z.maxLength(TARGET_DEVICES.length), z.minLength(1, "campaignTargeting:errors.devicesEmpty")),
    z.transform((chosen) => normaliseDevices(chosen)),
  ),
  cappingEnabled: z.pipe(
    z.optional(z.boolean()),
    z.transform((v) => v === true),
  ),
  cappingType: z.enum(CAPPING_TYPES, { error: "campaignTargeting:errors.cappingType" }),
  cappingMax: z
    .number({ error: "campaignTargeting:errors.cappingMax" })
    .check(
      z.int("campaignTargeting:errors.cappingMax"),
      z.gte(1, "campaignTargeting:errors.cappingMax"),
      z.lte(MAX_CAPPING, "campaignTargeting:errors.cappingMaxTooHigh"),
    ),
  /** The type's placements chosen; the service checks them against the settings. */
  placements: z.array(z.string().check(z.trim(), z.maxLength(20))).check(z.maxLength(20), z.minLength(1, "campaignTargeting:errors.placementsEmpty")),
  /** The type's slots left on; the others are saved as slotsOff. */
  slots: z.array(z.string().check(z.trim(), z.maxLength(40))).check(z.maxLength(50)),
  /** The grid's checked cells; all of them = no restriction (null), none is refused. */
  daypart: z.pipe(
    z.array(z.string().check(z.trim(), z.maxLength(8))).check(z.maxLength(7 * 24)),
    z.transform((entries: string[], ctx) => {
      const parsed = parseDaypartingForm(entries);
      if (!parsed.ok) {
        ctx.issues.push({ code: "custom", message: parsed.reason, input: entries });
        return z.NEVER;
      }
      return parsed.value;
    }),
  ),
});
export type UpdateTargetingValue = z.infer<typeof UpdateTargetingSchema>;
