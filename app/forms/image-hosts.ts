/**
 * The product image hosts form of the retailer settings screen (operators): https origins typed
 * one per line. One schema shared by conform in the browser and by the action; the rule is
 * app/domain/image-hosts.ts's, and the message names the first value refused.
 */
import * as z from "zod/mini";
import { parseImageHosts } from "~/domain/image-hosts";
import { withValues } from "~/domain/message";

export const saveImageHostsIntent = "save-image-hosts";

export const ImageHostsSchema = z.object({
  intent: z.literal(saveImageHostsIntent),
  version: z.coerce.number().check(z.int(), z.gte(1)),
  hosts: z.pipe(
    z.optional(z.string().check(z.maxLength(5_000, "imageHosts:errors.tooLong"))),
    z.transform((v) => v ?? ""),
  ).check(
    z.superRefine((text, ctx) => {
      const parsed = parseImageHosts(text);
      if (!parsed.ok) ctx.addIssue({ code: "custom", message: withValues(parsed.reason, { value: parsed.value }), input: text });
    }),
  ),
});
export type ImageHostsForm = z.infer<typeof ImageHostsSchema>;
