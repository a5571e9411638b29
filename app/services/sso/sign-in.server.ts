/**
 * Signing in by single sign-on (SAML 2.0, ADR 31): the AuthnRequest sent to the identity
 * provider, and the checks of its response, on @node-saml/node-saml (signature over the signed
 * parts only, audience, validity window, InResponseTo against the requests issued) plus the
 * console's own (issuer, recipient, unsolicited responses, replays, the account types the IdP
 * may sign in). Once the user is known, the sign-in is the one every way in shares
 * (completeSignIn). No HTTP: the routes open the session and answer.
 */
import { randomBytes } from "node:crypto";
import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from "@node-saml/node-saml";
import { fail, ok, type Result } from "~/domain/result";
import { EMAIL_MATCH, matchedEmail, maySignInWithSso, replayWindowEnd, type AssertedIdentity, type SsoSettings } from "~/domain/sso";
import { continueSignIn, type SignInStep } from "~/services/sign-in.server";
import { getStorage } from "~/services/storage.server";
import { loadIdpMetadata, type IdpMetadata } from "~/services/sso/metadata.server";
import { getSsoSettings, serviceProviderUrls } from "~/services/sso/settings.server";

/** How long the IdP has to answer a request the console sent (a sign-in page, a second factor…). */
export const REQUEST_TTL_MS = 15 * 60_000;
/** Clocks of the IdP and the console may differ this much. */
export const CLOCK_SKEW_MS = 60_000;
/** An assertion older than this (from its IssueInstant) is refused, whatever its NotOnOrAfter. */
export const MAX_ASSERTION_AGE_MS = 10 * 60_000;

/** Spec section 8: 'Unauthorized Access' / 'Your account cannot be created via SAML authentication.' */
export const SSO_UNAUTHORIZED = "sso:unauthorized.message";
/** Spec section 8: an unknown user is signed out and sent to login. */
export const SSO_UNKNOWN_USER = "sso:unknownUser";

/** Request ids the console issued, in storage: any instance may receive the answer. */
function requestCache(now: () => Date): CacheProvider {
  const repo = () => getStorage().saml;
  return {
    async saveAsync(key, value) {
      const issuedAt = new Date(value);
      await repo().saveRequest(key, issuedAt, new Date(issuedAt.getTime() + REQUEST_TTL_MS));
      return { value, createdAt: issuedAt.getTime() };
    },
    async getAsync(key) {
      return repo().getRequest(key, now());
    },
    async removeAsync(key) {
      if (key) await repo().removeRequest(key);
      return key;
    },
  };
}

function samlFor(settings: SsoSettings, idp: IdpMetadata, now: () => Date, requestId?: string): SAML {
  const sp = serviceProviderUrls(settings);
  return new SAML({
    entryPoint: idp.ssoUrl,
    issuer: sp.entityId,
    audience: sp.entityId,
    callbackUrl: sp.acsUrl,
    idpCert: idp.certificates,
    idpIssuer: idp.entityId,
    // The Response or the Assertion must be signed (node-saml reads only what a valid signature covers).
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    validateInResponseTo: settings.allowUnsolicited ? ValidateInResponseTo.ifPresent : ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_TTL_MS,
    cacheProvider: requestCache(now),
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    maxAssertionAgeMs: MAX_ASSERTION_AGE_MS,
    identifierFormat: settings.matchAttribute === EMAIL_MATCH ? "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress" : null,
    disableRequestedAuthnContext: true,
    signatureAlgorithm: "sha256",
    ...(requestId ? { generateUniqueId: () => requestId } : {}),
  });
}

/** Why a response was refused, for the server's log (the user reads one message for all). */
function refused(why: string, detail?: unknown): Result<never> {
  console.warn(JSON.stringify({ level: "warn", what: "SAML response refused", why, detail: detail instanceof Error ? detail.message : detail }));
  return fail("unauthenticated", SSO_UNAUTHORIZED);
}

/**
 * Starts a sign-in: the IdP's address with the AuthnRequest (HTTP-Redirect binding) and the
 * RelayState, the path to return to (already checked by the caller against the safe-redirect rule).
 */
export async function startSsoSignIn(relayState: string, now = () => new Date()): Promise<Result<{ redirectUrl: string }>> {
  const settings = await getSsoSettings();
  if (!settings.enabled) return fail("not-found", "sso:errors.notConfigured");
  const idp = await loadIdpMetadata(settings, now());
  if (!idp.ok) return fail("unavailable", "sso:errors.unavailable");
  const requestId = `_${randomBytes(20).toString("hex")}`;
  const saml = samlFor(settings, idp.value, now, requestId);
  const redirectUrl = await saml.getAuthorizeUrlAsync(relayState, undefined, {});
  // A purge of expired records rides on each sign-in start, a few at a time.
  await getStorage().saml.purgeExpired(now(), 20);
  return ok({ redirectUrl });
}

type XmlNode = { $?: Record<string, string>; _?: string; [child: string]: unknown };
const first = (value: unknown): XmlNode | undefined => (Array.isArray(value) ? (value[0] as XmlNode) : undefined);
const all = (value: unknown): XmlNode[] => (Array.isArray(value) ? (value as XmlNode[]) : []);

/** What the signed assertion says, read from node-saml's parse of the signed XML only. */
function readAssertion(profile: Profile) {
  const assertion = (profile.getAssertion?.() as { Assertion?: XmlNode } | undefined)?.Assertion;
  const subject = first(assertion?.Subject);
  const confirmations = all(subject?.SubjectConfirmation).map((c) => first(c.SubjectConfirmationData)?.$ ?? {});
  const conditions = first(assertion?.Conditions)?.$ ?? {};
  return {
    id: assertion?.$?.ID ?? null,
    issueInstant: assertion?.$?.IssueInstant,
    notOnOrAfter: [conditions.NotOnOrAfter, ...confirmations.map((c) => c.NotOnOrAfter)],
    recipients: confirmations.map((c) => c.Recipient).filter((r): r is string => !!r),
    inResponseTo: confirmations.map((c) => c.InResponseTo).filter((r): r is string => !!r),
  };
}

function identityOf(profile: Profile): AssertedIdentity {
  const attributes: Record<string, string[]> = {};
  const raw = (profile.attributes ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(raw)) {
    const values = Array.isArray(value) ? value : [value];
    attributes[name] = values.filter((v): v is string => typeof v === "string");
  }
  return { nameID: profile.nameID || null, nameIDFormat: profile.nameIDFormat || null, attributes };
}

/** The Response element's Destination (checked when present). */
function destinationOf(samlResponse: string): string | null {
  const xml = Buffer.from(samlResponse, "base64").toString("utf8");
  const match = /<(?:[A-Za-z0-9_-]+:)?Response\b[^>]*?\sDestination="([^"]*)"/.exec(xml);
  return match ? match[1] : null;
}

export interface SsoSignedIn {
  /** Where the sign-in stands (ADR 30): signed in, or a second factor's code still due. */
  step: SignInStep;
  /** The RelayState the IdP sent back (the caller checks it against the safe-redirect rule). */
  relayState: string | null;
}

/**
 * Checks the IdP's response and signs the user in, through the decision every way in shares
 * (continueSignIn: a user with a second factor is asked for its code first). Failures: SSO_UNKNOWN_USER (not-found) when
 * no account matches, SSO_UNAUTHORIZED for every refused or broken response, and the shared
 * sign-in's own (a disabled account).
 */
export async function finishSsoSignIn(form: { SAMLResponse?: string | null; RelayState?: string | null }, now = () => new Date()): Promise<Result<SsoSignedIn>> {
  const settings = await getSsoSettings();
  if (!settings.enabled) return refused("single sign-on is off");
  if (!form.SAMLResponse || form.SAMLResponse.length > 1_000_000) return refused("no SAMLResponse");
  const idp = await loadIdpMetadata(settings, now());
  if (!idp.ok) return refused("metadata unavailable", idp.reason);
  const sp = serviceProviderUrls(settings);
  const saml = samlFor(settings, idp.value, now);

  let profile: Profile | null;
  try {
    ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: form.SAMLResponse }));
  } catch (error) {
    return refused("node-saml", error);
  }
  if (!profile) return refused("no profile");
  // node-saml checks the issuer of logout messages only: the assertion's (signed) issuer is checked here.
  if (profile.issuer !== idp.value.entityId) return refused("issuer", profile.issuer);
  const assertion = readAssertion(profile);
  if (!assertion.id) return refused("assertion without ID");
  if (assertion.recipients.some((r) => r !== sp.acsUrl)) return refused("recipient", assertion.recipients);
  const destination = destinationOf(form.SAMLResponse);
  if (destination && destination !== sp.acsUrl) return refused("destination", destination);
  const solicited = typeof profile.inResponseTo === "string" && profile.inResponseTo !== "";
  if (!settings.allowUnsolicited) {
    // The request id must be inside the signed assertion: an unsolicited assertion wrapped in a
    // Response naming a request id the attacker obtained is refused.
    if (!solicited || !assertion.inResponseTo.includes(profile.inResponseTo as string)) return refused("unsolicited");
  }
  if (solicited) await getStorage().saml.removeRequest(profile.inResponseTo as string);
  const until = replayWindowEnd(assertion.notOnOrAfter, assertion.issueInstant, now(), MAX_ASSERTION_AGE_MS, CLOCK_SKEW_MS);
  if (!(await getStorage().saml.rememberAssertion(idp.value.entityId, assertion.id, until, now()))) return refused("replay", assertion.id);

  const email = matchedEmail(identityOf(profile), settings.matchAttribute);
  if (!email) return refused("no match attribute", settings.matchAttribute);
  const user = await getStorage().users.getByEmail(email);
  if (!user) return fail("not-found", SSO_UNKNOWN_USER);
  if (!maySignInWithSso(settings, user.claims.type)) return refused("account type", user.claims.type);
  const step = await continueSignIn(user, "saml", now());
  if (!step.ok) return step;
  return ok({ step: step.value, relayState: form.RelayState ?? null });
}
