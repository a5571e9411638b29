/**
 * The single sign-on settings form (operators): one schema, shared by conform in the browser and
 * the action. Messages are i18n keys. The rules that bind fields together live in app/domain/sso.ts
 * and are checked again by the use case.
 */
import * as z from "zod/mini";
import { EMAIL_MATCH, METADATA_SOURCES, REFRESH_MINUTES, SSO_ACCOUNT_TYPES, type SsoSettings } from "~/domain/sso";

export const saveSsoSettingsIntent = "save-sso-settings";

const text = (max: number) => z.optional(z.string().check(z.trim(), z.maxLength(max, "sso:errors.tooLong")));

export const SsoSettingsSchema = z.object({
  intent: z.literal(saveSsoSettingsIntent),
  version: z.coerce.number().check(z.int(), z.gte(1)),
  enabled: z.optional(z.literal("on")),
  metadataSource: z.enum(METADATA_SOURCES, { error: "validation.required" }),
  metadataXml: z.optional(z.string().check(z.maxLength(500_000, "sso:errors.tooLong"))),
  metadataUrl: text(2048),
  metadataRefreshMinutes: z.coerce
    .number({ error: "sso:errors.refreshRange" })
    .check(z.int("sso:errors.refreshRange"), z.gte(REFRESH_MINUTES.min, "sso:errors.refreshRange"), z.lte(REFRESH_MINUTES.max, "sso:errors.refreshRange")),
  idpEntityId: text(1024),
  spEntityId: text(1024),
  matchAttribute: z.string({ error: "sso:errors.matchAttributeRequired" }).check(z.trim(), z.minLength(1, "sso:errors.matchAttributeRequired"), z.maxLength(200, "sso:errors.tooLong")),
  accountTypes: z.optional(z.array(z.enum(SSO_ACCOUNT_TYPES))),
  allowUnsolicited: z.optional(z.literal("on")),
});
export type SsoSettingsForm = z.infer<typeof SsoSettingsSchema>;

/** The form's values as settings. */
export function toSsoSettings(form: SsoSettingsForm): SsoSettings {
  return {
    enabled: form.enabled === "on",
    metadataSource: form.metadataSource,
    metadataXml: form.metadataXml ?? "",
    metadataUrl: form.metadataUrl ?? "",
    metadataRefreshMinutes: form.metadataRefreshMinutes,
    idpEntityId: form.idpEntityId ?? "",
    spEntityId: form.spEntityId ?? "",
    matchAttribute: form.matchAttribute || EMAIL_MATCH,
    accountTypes: form.accountTypes ?? [],
    allowUnsolicited: form.allowUnsolicited === "on",
  };
}

/** The settings as the form's default values. */
export function toSsoFormValue(settings: SsoSettings) {
  return {
    enabled: settings.enabled ? "on" : undefined,
    metadataSource: settings.metadataSource,
    metadataXml: settings.metadataXml,
    metadataUrl: settings.metadataUrl,
    metadataRefreshMinutes: String(settings.metadataRefreshMinutes),
    idpEntityId: settings.idpEntityId,
    spEntityId: settings.spEntityId,
    matchAttribute: settings.matchAttribute,
    accountTypes: [...settings.accountTypes],
    allowUnsolicited: settings.allowUnsolicited ? "on" : undefined,
  };
}
