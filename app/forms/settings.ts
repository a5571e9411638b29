import * as z from "zod";

/** Platform settings held in the live config (operators only). */
export const PlatformSettingsSchema = z.object({
  intent: z.literal("save-platform"),
  version: z.coerce.number().int().min(1),
  maintenance: z
    .string()
    .optional()
    .transform((v) => v === "on"),
  appVersion: z.coerce
    .number({ error: "validation.wholeNumber" })
    .int("validation.wholeNumber")
    .min(1, "validation.wholeNumber")
    .max(1_000_000, "validation.wholeNumber"),
});
