/** The single sign-on settings (issue 12 §1): in the live config document, edited by operators only. */
import { generateServiceProviderMetadata } from "@node-saml/node-saml";
import { auditActor } from "~/domain/operators";
import { can } from "~/domain/permissions";
import { fail, forbidden, ok, type Result } from "~/domain/result";
import { DEFAULT_SSO_SETTINGS, EMAIL_MATCH, validateSsoSettings, type SsoSettings } from "~/domain/sso";
import type { User } from "~/domain/types";
import { ConflictError } from "~/storage/port";
import { forgetLiveConfig, getLiveConfig } from "~/services/config.server";
import { getEnv } from "~/services/env.server";
import { getStorage } from "~/services/storage.server";
import { fetchMetadataXml, parseIdpMetadata, rememberFetchedMetadata, type IdpMetadata } from "~/services/sso/metadata.server";

export const ACS_PATH = "/auth/saml/acs";
export const SP_METADATA_PATH = "/auth/saml/metadata";
export const SSO_START_PATH = "/auth/saml/login";

/** The console's addresses an identity provider is told about. */
export function serviceProviderUrls(settings: Pick<SsoSettings, "spEntityId"> = DEFAULT_SSO_SETTINGS) {
  const base = getEnv().PUBLIC_URL;
  const metadataUrl = `${base}${SP_METADATA_PATH}`;
  return { acsUrl: `${base}${ACS_PATH}`, metadataUrl, entityId: settings.spEntityId.trim() || metadataUrl };
}

/** The settings in force (the defaults, switched off, until an operator saves some). */
export async function getSsoSettings(): Promise<SsoSettings> {
  const config = await getLiveConfig();
  return { ...DEFAULT_SSO_SETTINGS, ...config?.sso };
}

/** Whether the sign-in page offers single sign-on. */
export async function ssoOffered(): Promise<boolean> {
  return (await getSsoSettings()).enabled;
}

/** For the settings screen: read fresh, with the version a save is based on, and what the metadata says. */
export async function readSsoSettingsForEdit(user: User): Promise<Result<{ settings: SsoSettings; version: number; idp: IdpMetadata | null; sp: ReturnType<typeof serviceProviderUrls> }>> {
  if (!can(user, "RetailerSettings", "update")) return forbidden();
  const config = await getStorage().config.get();
  const settings = { ...DEFAULT_SSO_SETTINGS, ...config.sso };
  let idp: IdpMetadata | null = null;
  if (settings.metadataSource === "xml" && settings.metadataXml) {
    const parsed = parseIdpMetadata(settings.metadataXml, settings.idpEntityId);
    idp = parsed.ok ? parsed.value : null;
  } else if (settings.metadataSource === "url" && settings.metadataUrl) {
    const stored = await getStorage().saml.getMetadata(settings.metadataUrl);
    const parsed = stored ? parseIdpMetadata(stored.xml, settings.idpEntityId) : null;
    idp = parsed?.ok ? parsed.value : null;
  }
  return ok({ settings, version: config.version, idp, sp: serviceProviderUrls(settings) });
}

/**
 * Saves the settings: operators only; the metadata is read (the URL fetched once) so that a
 * broken one is refused at once, and the IdP's entity id is taken from it when left empty.
 */
export async function updateSsoSettings(user: User, input: SsoSettings, version: number, now = new Date()): Promise<Result<void>> {
  if (!can(user, "RetailerSettings", "update")) return forbidden();
  const issues = validateSsoSettings(input);
  if (issues.length) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of issues) (fieldErrors[issue.field] ??= []).push(issue.reason);
    return fail("invalid", "sso:errors.invalid", { fieldErrors });
  }
  const settings: SsoSettings = { ...input, metadataXml: input.metadataSource === "xml" ? input.metadataXml.trim() : "" };
  const hasMetadata = settings.metadataSource === "xml" ? !!settings.metadataXml : !!settings.metadataUrl;
  if (hasMetadata) {
    const xml = settings.metadataSource === "xml" ? ok(settings.metadataXml) : await fetchMetadataXml(settings.metadataUrl);
    if (!xml.ok) return xml;
    const parsed = parseIdpMetadata(xml.value, settings.idpEntityId);
    if (!parsed.ok) return parsed;
    settings.idpEntityId = parsed.value.entityId;
    if (settings.metadataSource === "url") await rememberFetchedMetadata(settings.metadataUrl, xml.value, parsed.value, now);
  }
  try {
    await getStorage().config.update({ sso: settings }, auditActor(user), { expectVersion: version });
  } catch (error) {
    if (error instanceof ConflictError) return fail("conflict", "retailer:errors.conflict");
    throw error;
  }
  forgetLiveConfig();
  return ok();
}

/** The console's service-provider metadata: its entity id and assertion consumer (HTTP-POST), assertions wanted signed. */
export async function serviceProviderMetadataXml(): Promise<string> {
  const settings = await getSsoSettings();
  const sp = serviceProviderUrls(settings);
  return generateServiceProviderMetadata({
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    identifierFormat: settings.matchAttribute === EMAIL_MATCH ? "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress" : null,
    wantAssertionsSigned: true,
  });
}
