import * as z from "zod/mini";

/** Platform settings held in the live config (operators only). */
export const PlatformSettingsSchema = z.object({
  intent: z.literal("save-platform"),
  version: z.coerce.number().check(z.int(), z.gte(1)),
  maintenance: z.pipe(
    z.optional(z.string()),
    z.transform((v) => v === "on"),
  ),
  appVersion: z.coerce
    .number({ error: "validation.wholeNumber" })
    .check(z.int("validation.wholeNumber"), z.gte(1, "validation.wholeNumber"), z.lte(1_000_000, "validation.wholeNumber")),
});
