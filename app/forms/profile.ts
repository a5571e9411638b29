import * as z from "zod";
import { SUPPORTED_LOCALES } from "~/domain/locale";

const checkbox = z
  .string()
  .optional()
  .transform((v) => v === "on");

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const ProfileSchema = z.object({
  intent: z.literal("update-profile"),
  version: z.coerce.number().int().min(1),
  displayName: z.string({ error: "validation.required" }).trim().min(1, "validation.required").max(80, "validation.tooLong"),
  firstname: z.string().trim().max(80, "validation.tooLong").optional().default(""),
  lastname: z.string().trim().max(80, "validation.tooLong").optional().default(""),
  locale: z.enum(SUPPORTED_LOCALES),
  timezone: z.string().refine(isTimeZone, "validation.timezone"),
  campaignStarts: checkbox,
  campaignArchived: checkbox,
  reportGenerated: checkbox,
  walletsDepleting: checkbox,
});
