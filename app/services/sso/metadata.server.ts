/**
 * The identity provider's metadata (ADR 31): parsed from pasted XML, or fetched from a URL and
 * cached (in this process and in storage, shared by instances) for the refresh interval. A
 * failed refresh keeps the last good copy. Every signing certificate listed is accepted, so an
 * IdP rotating its key publishes the new one beside the old and nothing breaks.
 */
import { X509Certificate } from "node:crypto";
import { DOMParser } from "@xmldom/xmldom";
import { fail, ok, type Result } from "~/domain/result";
import { isAllowedMetadataUrl, metadataIsFresh, type SsoSettings } from "~/domain/sso";
import { getStorage } from "~/services/storage.server";

const MD = "urn:oasis:names:tc:SAML:2.0:metadata";
const DS = "http://www.w3.org/2000/09/xmldsig#";
const REDIRECT_BINDING = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
const FETCH_TIMEOUT_MS = 10_000;
const MAX_METADATA_BYTES = 1_000_000;

export interface IdpMetadata {
  entityId: string;
  /** Where users are sent with the AuthnRequest (HTTP-Redirect binding). */
  ssoUrl: string;
  /** Every signing certificate (PEM), the old and the new one during a rotation. */
  certificates: string[];
  /** The certificates' last day of validity (ISO), for the settings screen. */
  validTo: string[];
}

function parseXml(xml: string): Document | null {
  let broken = false;
  const onError = () => {
    broken = true;
  };
  try {
    const doc = new DOMParser({ errorHandler: { warning: () => undefined, error: onError, fatalError: onError } }).parseFromString(xml, "text/xml");
    return broken ? null : (doc as unknown as Document);
  } catch {
    return null;
  }
}

const children = (parent: Element, ns: string, name: string): Element[] =>
  Array.from(parent.childNodes).filter((n): n is Element => n.nodeType === 1 && (n as Element).namespaceURI === ns && (n as Element).localName === name);

function toPem(base64: string): string | null {
  const body = base64.replace(/\s+/g, "");
  if (!body) return null;
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join("\n")}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
    return pem;
  } catch {
    return null;
  }
}

/**
 * Reads an IdP's metadata: its EntityDescriptor (the one named `expectedEntityId` when several
 * are listed), its HTTP-Redirect sign-on URL and its signing certificates.
 */
export function parseIdpMetadata(xml: string, expectedEntityId = ""): Result<IdpMetadata> {
  const doc = parseXml(xml);
  if (!doc?.documentElement) return fail("invalid", "sso:errors.metadataInvalid", { field: "metadataXml" });
  const descriptors = Array.from(doc.getElementsByTagNameNS(MD, "EntityDescriptor")).filter((e) => children(e, MD, "IDPSSODescriptor").length > 0);
  const wanted = expectedEntityId.trim();
  const matching = wanted ? descriptors.filter((e) => e.getAttribute("entityID") === wanted) : descriptors;
  if (matching.length === 0) {
    return fail("invalid", descriptors.length ? "sso:errors.metadataEntityMismatch" : "sso:errors.metadataInvalid", { field: descriptors.length ? "idpEntityId" : "metadataXml" });
  }
  if (matching.length > 1) return fail("invalid", "sso:errors.metadataAmbiguous", { field: "idpEntityId" });
  const entity = matching[0];
  const idp = children(entity, MD, "IDPSSODescriptor")[0];
  const ssoUrl = children(idp, MD, "SingleSignOnService")
    .filter((s) => s.getAttribute("Binding") === REDIRECT_BINDING)
    .map((s) => s.getAttribute("Location") ?? "")[0];
  if (!ssoUrl || !isAllowedMetadataUrl(ssoUrl)) return fail("invalid", "sso:errors.metadataNoRedirect", { field: "metadataXml" });
  const certificates: string[] = [];
  for (const key of children(idp, MD, "KeyDescriptor")) {
    const use = key.getAttribute("use");
    if (use && use !== "signing") continue;
    for (const cert of Array.from(key.getElementsByTagNameNS(DS, "X509Certificate"))) {
      const pem = toPem(cert.textContent ?? "");
      if (!pem) return fail("invalid", "sso:errors.metadataBadCertificate", { field: "metadataXml" });
      if (!certificates.includes(pem)) certificates.push(pem);
    }
  }
  if (certificates.length === 0) return fail("invalid", "sso:errors.metadataNoCertificate", { field: "metadataXml" });
  const validTo = certificates.map((pem) => new Date(new X509Certificate(pem).validTo).toISOString());
  return ok({ entityId: entity.getAttribute("entityID") ?? "", ssoUrl, certificates, validTo });
}

/** Fetches metadata from its URL: https (loopback http for a test IdP), bounded in time and size, no redirects. */
export async function fetchMetadataXml(url: string): Promise<Result<string>> {
  if (!isAllowedMetadataUrl(url)) return fail("invalid", "sso:errors.metadataUrlInvalid", { field: "metadataUrl" });
  try {
    const response = await fetch(url, { redirect: "error", signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { Accept: "application/samlmetadata+xml, application/xml, text/xml" } });
    if (!response.ok) return fail("unavailable", "sso:errors.metadataFetchFailed", { field: "metadataUrl", values: { status: response.status } });
    const body = await response.arrayBuffer();
    if (body.byteLength > MAX_METADATA_BYTES) return fail("unavailable", "sso:errors.metadataTooLarge", { field: "metadataUrl" });
    return ok(new TextDecoder().decode(body));
  } catch {
    return fail("unavailable", "sso:errors.metadataFetchFailed", { field: "metadataUrl", values: { status: "—" } });
  }
}

/** The last good metadata of each URL in this process (the storage copy is shared by instances). */
const memory = new Map<string, { xml: string; fetchedAt: string; parsed: IdpMetadata }>();
const parsedXml = new Map<string, IdpMetadata>();

/** Tests start from a cold cache. */
export function forgetMetadataForTests(): void {
  memory.clear();
  parsedXml.clear();
}

/** The IdP metadata in force for these settings; fetched again when older than the refresh interval. */
export async function loadIdpMetadata(settings: SsoSettings, now = new Date()): Promise<Result<IdpMetadata>> {
  if (settings.metadataSource === "xml") {
    const key = `${settings.idpEntityId}\n${settings.metadataXml}`;
    const known = parsedXml.get(key);
    if (known) return ok(known);
    const parsed = parseIdpMetadata(settings.metadataXml, settings.idpEntityId);
    if (parsed.ok) parsedXml.set(key, parsed.value);
    return parsed;
  }
  const url = settings.metadataUrl;
  const cached = memory.get(url);
  if (cached && metadataIsFresh(cached.fetchedAt, settings.metadataRefreshMinutes, now) && cached.parsed.entityId === (settings.idpEntityId || cached.parsed.entityId)) {
    return ok(cached.parsed);
  }
  const repo = getStorage().saml;
  const stored = await repo.getMetadata(url);
  if (stored && metadataIsFresh(stored.fetchedAt, settings.metadataRefreshMinutes, now)) {
    const parsed = parseIdpMetadata(stored.xml, settings.idpEntityId);
    if (parsed.ok) {
      memory.set(url, { xml: stored.xml, fetchedAt: stored.fetchedAt, parsed: parsed.value });
      return parsed;
    }
  }
  const fetched = await fetchMetadataXml(url);
  const parsed = fetched.ok ? parseIdpMetadata(fetched.value, settings.idpEntityId) : fetched;
  if (parsed.ok && fetched.ok) {
    const fetchedAt = now.toISOString();
    memory.set(url, { xml: fetched.value, fetchedAt, parsed: parsed.value });
    await repo.saveMetadata({ url, xml: fetched.value, fetchedAt });
    return parsed;
  }
  // The IdP's metadata endpoint is down or serves something broken: keep signing in with the last good copy.
  const fallbackXml = cached?.xml ?? stored?.xml;
  const fallback = fallbackXml ? parseIdpMetadata(fallbackXml, settings.idpEntityId) : null;
  console.error(JSON.stringify({ level: "error", what: "SAML metadata refresh", url, reason: parsed.ok ? null : parsed.reason, keptLastGood: !!fallback?.ok }));
  return fallback?.ok ? fallback : parsed;
}

/** Stores freshly fetched metadata (a save of the settings fetched it once already). */
export async function rememberFetchedMetadata(url: string, xml: string, parsed: IdpMetadata, now: Date): Promise<void> {
  memory.set(url, { xml, fetchedAt: now.toISOString(), parsed });
  await getStorage().saml.saveMetadata({ url, xml, fetchedAt: now.toISOString() });
}
