import * as z from "zod/mini";
import { SUPPORTED_LOCALES } from "~/domain/locale";

const checkbox = z.pipe(
  z.optional(z.string()),
  z.transform((v) => v === "on"),
);

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * A zone as the runtime's list spells it: Intl accepts "europe/paris", which would then be saved
 * as typed and offered beside "Europe/Paris". A zone the list lacks (UTC, Asia/Kolkata) is kept.
 */
export function canonicalTimeZone(value: string): string {
  const lower = value.toLowerCase();
  if (lower === "utc") return "UTC";
  // The browser validates with this schema too; an older one without the list keeps the value.
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return zones.find((zone) => zone.toLowerCase() === lower) ?? value;
}

/**
 * The time zones the profile offers: the runtime's list (which leaves out "UTC" and names some
 * zones by older aliases, Asia/Calcutta for Asia/Kolkata), plus "UTC" and the user's saved zone,
 * so a saved zone the list lacks stays selected and a save of the name never changes it.
 */
export function timeZoneChoices(current: string): string[] {
  const zones = new Set(Intl.supportedValuesOf("timeZone"));
  zones.add("UTC");
  if (current && isTimeZone(current)) zones.add(current);
  return [...zones].sort();
}

export const ProfileSchema = z.object({
  intent: z.literal("update-profile"),
  version: z.coerce.number().check(z.int(), z.gte(1)),
  displayName: z.string({ error: "validation.required" }).check(z.trim(), z.minLength(1, "validation.required"), z.maxLength(80, "validation.tooLong")),
  firstname: z._default(z.optional(z.string().check(z.trim(), z.maxLength(80, "validation.tooLong"))), ""),
  lastname: z._default(z.optional(z.string().check(z.trim(), z.maxLength(80, "validation.tooLong"))), ""),
  locale: z.enum(SUPPORTED_LOCALES),
  timezone: z.pipe(z.string().check(z.refine(isTimeZone, "validation.timezone")), z.transform(canonicalTimeZone)),
  campaignStarts: checkbox,
  campaignArchived: checkbox,
  reportGenerated: checkbox,
  walletsDepleting: checkbox,
});
