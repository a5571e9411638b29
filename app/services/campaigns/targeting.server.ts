/**
 * The Targeting section of the campaign editor: what its form shows (devices, capping, the type's
 * placements and slots from the retailer settings, the dayparting grid in the retailer's time
 * zone) and the save, through saveSection (rights, version, audit and publication in one
 * transaction).
 */
import { TZDate } from "@date-fns/tz";
import { WEEK_DAYS } from "~/domain/campaigns/campaign";
import { TARGET_DEVICES } from "~/domain/campaigns/pacing";
import { isSlotOn, resolvePlacementsAndSlots } from "~/domain/campaigns/targeting";
import { daypartingEntries, summariseDayparting } from "~/domain/campaigns/dayparting";
import type { User } from "~/domain/types";
import type { UpdateTargetingValue } from "~/forms/campaigns/targeting";
import { campaignEditable, editRefusal, saveSection, type CampaignContext, type SaveResult } from "~/services/campaigns/campaigns.server";
import { fail } from "~/domain/result";
import { getRetailerSettings, retailerTimeZone } from "~/services/retailer-settings.server";
import { dateTimeFormat } from "~/domain/intl";

/** The section's data: raw values for the form's defaults, and what the page states. */
export async function targetingView(user: User, ctx: CampaignContext, locale: string, now = new Date()) {
  const settings = await getRetailerSettings();
  const c = ctx.campaign;
  const typeSettings = settings.types[c.campaignType];
  const timeZone = retailerTimeZone();
  const local = new TZDate(now.getTime(), timeZone);
  return {
    campaignId: c.id,
    version: c.version,
    canEdit: campaignEditable(user, ctx),
    campaignType: c.campaignType,
    timeZone,
    /** The retailer's local time now, e.g. "Monday 14:05", so the user can relate the grid to it. */
    localNow: dateTimeFormat(locale, { weekday: "long", hour: "2-digit", minute: "2-digit", timeZone }).format(now),
    localDay: WEEK_DAYS[(local.getDay() + 6) % 7]!,
    localHour: local.getHours(),
    placements: typeSettings.placements.map((p) => p),
    slots: Object.entries(typeSettings.slots).map(([slot, placements]) => ({ slot, placements })),
    /** Stored slots the settings no longer know (dropped on the next save). */
    unknownSlots: c.slots.filter((s) => !Object.hasOwn(typeSettings.slots, s)),
    defaults: {
      devices: c.devices ?? [...TARGET_DEVICES],
      cappingEnabled: c.capping.enabled,
      cappingType: c.capping.type,
      cappingMax: String(c.capping.max),
      placements: c.placements.filter((p) => typeSettings.placements.includes(p)),
      slots: Object.keys(typeSettings.slots).filter((s) => isSlotOn(c, s)),
      daypart: daypartingEntries(c.dayparting),
    },
    saved: {
      devices: c.devices,
      dayparting: summariseDayparting(c.dayparting),
    },
  };
}
export type TargetingView = Awaited<ReturnType<typeof targetingView>>;

/** Saves devices, capping, placements and slots, and dayparting. */
export async function updateTargeting(user: User, ctx: CampaignContext, value: UpdateTargetingValue): Promise<SaveResult> {
  const denied = editRefusal(user, ctx);
  if (denied) return denied;
  const settings = await getRetailerSettings();
  const typeSettings = settings.types[ctx.campaign.campaignType];
  const resolved = resolvePlacementsAndSlots(typeSettings, value.placements, value.slots);
  if (!resolved.ok) return fail("invalid", resolved.reason, { field: resolved.field });
  const { placements, slots, slotsOff } = resolved.value;
  return saveSection(
    user,
    ctx,
    {
      devices: value.devices,
      capping: { enabled: value.cappingEnabled, type: value.cappingType, max: value.cappingMax },
      placements,
      slots,
      slotsOff,
      dayparting: value.daypart,
    },
    value.version,
  );
}
