/**
 * Forms of the operators' tools ('Log as', the session's role) and of the second factor: one
 * schema each, shared by conform in the browser and by the actions. Messages are i18n keys.
 */
import * as z from "zod/mini";

export const logAsIntent = "log-as";
export const endLogAsIntent = "end-log-as";
export const sessionRoleIntent = "session-role";

export const LogAsSchema = z.object({ intent: z.literal(logAsIntent) });
export const EndLogAsSchema = z.object({ intent: z.literal(endLogAsIntent), redirectTo: z.optional(z.string()) });

/** Any string: the use case refuses a role above one's own (a forged step-up) with its message. */
export const SessionRoleSchema = z.object({
  intent: z.literal(sessionRoleIntent),
  role: z.string({ error: "validation.required" }).check(z.trim(), z.minLength(1, "validation.required"), z.maxLength(40)),
  redirectTo: z.optional(z.string()),
});

export const saveAccessSettingsIntent = "save-access-settings";

/** The staff e-mail domain ('' for none) and whether operators need a second factor. */
export const AccessSettingsSchema = z.object({
  intent: z.literal(saveAccessSettingsIntent),
  version: z.coerce.number().check(z.int()),
  staffEmailDomain: z.optional(
    z.string().check(
      z.trim(),
      z.maxLength(253, "operators:access.domainInvalid"),
      z.regex(/^@?([a-z0-9-]+\.)+[a-z]{2,}$|^$/i, "operators:access.domainInvalid"),
    ),
  ),
  operatorTotpRequired: z.optional(z.literal("on")),
});
