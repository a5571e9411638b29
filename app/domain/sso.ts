/**
 * Single sign-on (SAML, issue 12 §1): the identity provider's settings and the rules a response
 * must pass once its signature has been checked. Pure: no I/O, no clock (times come in).
 */
import type { AccountType } from "~/domain/types";

/** The account types an identity provider may sign in. Never operators: a retailer's IdP cannot make anyone an operator. */
export const SSO_ACCOUNT_TYPES = ["retailer", "supplier"] as const satisfies readonly AccountType[];
export type SsoAccountType = (typeof SSO_ACCOUNT_TYPES)[number];

export const METADATA_SOURCES = ["xml", "url"] as const;
export type MetadataSource = (typeof METADATA_SOURCES)[number];

/** The match attribute meaning "the user's e-mail", wherever the IdP puts it. */
export const EMAIL_MATCH = "email";
/** The match attribute meaning "the assertion's NameID". */
export const NAME_ID_MATCH = "NameID";

export const REFRESH_MINUTES = { min: 5, max: 1440, default: 60 } as const;

export interface SsoSettings {
  /** Offer 'Sign in with single sign-on' on the sign-in page. */
  enabled: boolean;
  /** Where the IdP's metadata comes from: pasted XML, or a URL fetched and cached. */
  metadataSource: MetadataSource;
  metadataXml: string;
  metadataUrl: string;
  /** How long fetched metadata is used before it is fetched again (minutes). */
  metadataRefreshMinutes: number;
  /** The IdP's entity id: responses must be issued by it (and metadata must describe it). */
  idpEntityId: string;
  /** The console's own entity id (the audience of assertions); '' = its metadata URL. */
  spEntityId: string;
  /** Which attribute holds the user's e-mail: 'email' (mail, email, the e-mail OID or an e-mail NameID), 'NameID', or an attribute name. */
  matchAttribute: string;
  /** Which account types this IdP may sign in. */
  accountTypes: SsoAccountType[];
  /** Accept responses the console did not ask for (IdP-initiated sign-in). */
  allowUnsolicited: boolean;
}

export const DEFAULT_SSO_SETTINGS: SsoSettings = {
  enabled: false,
  metadataSource: "xml",
  metadataXml: "",
  metadataUrl: "",
  metadataRefreshMinutes: REFRESH_MINUTES.default,
  idpEntityId: "",
  spEntityId: "",
  matchAttribute: EMAIL_MATCH,
  accountTypes: ["retailer"],
  allowUnsolicited: false,
};

/** A broken rule of the settings: the field and the i18n key of its message. */
export interface SsoSettingsIssue {
  field: keyof SsoSettings;
  reason: string;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** An https URL (http only on this machine's loopback, for a test IdP). */
export function isAllowedMetadataUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname));
}

/** The rules of the settings form (the metadata itself is checked by parsing it, in the service). */
export function validateSsoSettings(settings: SsoSettings): SsoSettingsIssue[] {
  const issues: SsoSettingsIssue[] = [];
  if (settings.metadataSource === "xml" && settings.enabled && !settings.metadataXml.trim()) {
    issues.push({ field: "metadataXml", reason: "sso:errors.metadataXmlRequired" });
  }
  // A URL typed is checked whichever source is chosen: it is stored, and used once the source is switched.
  if (((settings.metadataSource === "url" && settings.enabled) || settings.metadataUrl) && !isAllowedMetadataUrl(settings.metadataUrl)) {
    issues.push({ field: "metadataUrl", reason: "sso:errors.metadataUrlInvalid" });
  }
  const minutes = settings.metadataRefreshMinutes;
  if (!Number.isInteger(minutes) || minutes < REFRESH_MINUTES.min || minutes > REFRESH_MINUTES.max) {
    issues.push({ field: "metadataRefreshMinutes", reason: "sso:errors.refreshRange" });
  }
  if (!settings.matchAttribute.trim()) issues.push({ field: "matchAttribute", reason: "sso:errors.matchAttributeRequired" });
  if (settings.enabled && settings.accountTypes.length === 0) issues.push({ field: "accountTypes", reason: "sso:errors.accountTypesRequired" });
  if (settings.accountTypes.some((type) => !(SSO_ACCOUNT_TYPES as readonly string[]).includes(type))) {
    issues.push({ field: "accountTypes", reason: "sso:errors.accountTypesRequired" });
  }
  return issues;
}

/** May this IdP sign in an account of this type? Never an operator, whatever the settings say. */
export function maySignInWithSso(settings: Pick<SsoSettings, "accountTypes">, type: AccountType): boolean {
  if (type === "operator") return false;
  return (settings.accountTypes as readonly string[]).includes(type);
}

/** Attribute names that carry an e-mail address, by IdP habit. */
const EMAIL_ATTRIBUTES = [
  "email",
  "mail",
  "emailAddress",
  "urn:oid:0.9.2342.19200300.100.1.3",
  "urn:oid:1.2.840.113549.1.9.1",
  "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
];
const EMAIL_NAME_ID_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";

/** What a verified assertion says about the user. */
export interface AssertedIdentity {
  nameID: string | null;
  nameIDFormat: string | null;
  /** Attribute name → its values. */
  attributes: Record<string, string[]>;
}

const looksLikeEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

/**
 * The e-mail the user is matched on: the configured attribute's single value (several different
 * values: none, the match would be ambiguous), lower-cased and trimmed.
 */
export function matchedEmail(identity: AssertedIdentity, matchAttribute: string): string | null {
  const single = (values: readonly string[] | undefined): string | null => {
    const distinct = [...new Set((values ?? []).map((v) => v.trim().toLowerCase()).filter(Boolean))];
    return distinct.length === 1 && looksLikeEmail(distinct[0]) ? distinct[0] : null;
  };
  if (matchAttribute === NAME_ID_MATCH) return single(identity.nameID ? [identity.nameID] : []);
  if (matchAttribute === EMAIL_MATCH) {
    for (const name of EMAIL_ATTRIBUTES) {
      const found = Object.entries(identity.attributes).find(([key]) => key.toLowerCase() === name.toLowerCase());
      if (found) return single(found[1]);
    }
    if (identity.nameID && (identity.nameIDFormat === EMAIL_NAME_ID_FORMAT || looksLikeEmail(identity.nameID))) return single([identity.nameID]);
    return null;
  }
  return single(identity.attributes[matchAttribute]);
}

/** How long an assertion id is remembered against replays: until the assertion could no longer be accepted. */
export function replayWindowEnd(notOnOrAfter: readonly (string | undefined)[], issueInstant: string | undefined, now: Date, maxAgeMs: number, skewMs: number): Date {
  const candidates = notOnOrAfter.map((v) => (v ? Date.parse(v) : NaN)).filter(Number.isFinite);
  const issued = issueInstant ? Date.parse(issueInstant) : NaN;
  if (Number.isFinite(issued)) candidates.push(issued + maxAgeMs);
  // Past the latest instant at which it could still pass, plus the clock skew allowed.
  const end = candidates.length ? Math.max(...candidates) + skewMs : now.getTime() + maxAgeMs + skewMs;
  return new Date(Math.max(end, now.getTime() + skewMs));
}

/** Fetched metadata is used until it is this old (then fetched again; kept when the fetch fails). */
export function metadataIsFresh(fetchedAt: string | null | undefined, refreshMinutes: number, now: Date): boolean {
  if (!fetchedAt) return false;
  const age = now.getTime() - Date.parse(fetchedAt);
  return Number.isFinite(age) && age >= 0 && age < refreshMinutes * 60_000;
}
