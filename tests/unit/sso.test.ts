import { describe, expect, it } from "vitest";
import {
  DEFAULT_SSO_SETTINGS,
  isAllowedMetadataUrl,
  matchedEmail,
  maySignInWithSso,
  metadataIsFresh,
  replayWindowEnd,
  validateSsoSettings,
  type SsoSettings,
} from "~/domain/sso";

const settings = (partial: Partial<SsoSettings>): SsoSettings => ({ ...DEFAULT_SSO_SETTINGS, ...partial });

describe("single sign-on settings (issue 12 §1)", () => {
  it("are off by default, for retailer staff, matching the e-mail, refusing unsolicited responses", () => {
    expect(DEFAULT_SSO_SETTINGS).toMatchObject({ enabled: false, accountTypes: ["retailer"], matchAttribute: "email", allowUnsolicited: false });
    expect(validateSsoSettings(DEFAULT_SSO_SETTINGS)).toEqual([]);
  });

  it("need metadata once switched on, an https URL, a refresh interval of 5 to 1440 minutes and someone to sign in", () => {
    expect(validateSsoSettings(settings({ enabled: true })).map((i) => i.reason)).toEqual(["sso:errors.metadataXmlRequired"]);
    expect(validateSsoSettings(settings({ enabled: true, metadataSource: "url", metadataUrl: "http://idp.example/md" })).map((i) => i.field)).toEqual(["metadataUrl"]);
    expect(validateSsoSettings(settings({ metadataRefreshMinutes: 4 })).map((i) => i.field)).toEqual(["metadataRefreshMinutes"]);
    expect(validateSsoSettings(settings({ metadataRefreshMinutes: 1441 })).map((i) => i.field)).toEqual(["metadataRefreshMinutes"]);
    expect(validateSsoSettings(settings({ enabled: true, metadataXml: "<x/>", accountTypes: [] })).map((i) => i.field)).toEqual(["accountTypes"]);
    expect(validateSsoSettings(settings({ accountTypes: ["operator" as never] })).map((i) => i.field)).toEqual(["accountTypes"]);
    expect(validateSsoSettings(settings({ matchAttribute: " " })).map((i) => i.field)).toEqual(["matchAttribute"]);
    // A URL typed while the XML source is chosen is checked too: it is stored, and used once the source is switched.
    expect(validateSsoSettings(settings({ metadataSource: "xml", metadataUrl: "http://169.254.169.254/latest/meta-data/" })).map((i) => i.field)).toEqual(["metadataUrl"]);
    expect(validateSsoSettings(settings({ metadataSource: "xml", metadataUrl: "" }))).toEqual([]);
  });

  it("accept metadata URLs in https, and http only on loopback (a test IdP)", () => {
    expect(isAllowedMetadataUrl("https://idp.example/metadata")).toBe(true);
    expect(isAllowedMetadataUrl("http://127.0.0.1:8080/metadata")).toBe(true);
    expect(isAllowedMetadataUrl("http://localhost/metadata")).toBe(true);
    expect(isAllowedMetadataUrl("http://idp.example/metadata")).toBe(false);
    expect(isAllowedMetadataUrl("https://user:pw@idp.example/metadata")).toBe(false);
    expect(isAllowedMetadataUrl("javascript:alert(1)")).toBe(false);
    expect(isAllowedMetadataUrl("file:///etc/passwd")).toBe(false);
  });
});

describe("who an identity provider may sign in", () => {
  it("only the account types it is set up for, never an operator", () => {
    expect(maySignInWithSso({ accountTypes: ["retailer"] }, "retailer")).toBe(true);
    expect(maySignInWithSso({ accountTypes: ["retailer"] }, "supplier")).toBe(false);
    expect(maySignInWithSso({ accountTypes: ["retailer", "supplier"] }, "supplier")).toBe(true);
    expect(maySignInWithSso({ accountTypes: ["retailer", "supplier", "operator"] as never }, "operator")).toBe(false);
  });
});

describe("the e-mail a user is matched on", () => {
  const identity = (attributes: Record<string, string[]>, nameID: string | null = null, nameIDFormat: string | null = null) => ({ attributes, nameID, nameIDFormat });

  it("'email': the usual e-mail attributes, else an e-mail NameID; lower-cased", () => {
    expect(matchedEmail(identity({ email: ["Ann@Retailer.example"] }), "email")).toBe("ann@retailer.example");
    expect(matchedEmail(identity({ "urn:oid:0.9.2342.19200300.100.1.3": ["ann@retailer.example"] }), "email")).toBe("ann@retailer.example");
    expect(matchedEmail(identity({ "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress": ["ann@retailer.example"] }), "email")).toBe("ann@retailer.example");
    expect(matchedEmail(identity({}, "ann@retailer.example", "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"), "email")).toBe("ann@retailer.example");
    expect(matchedEmail(identity({}, "a1b2c3", "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent"), "email")).toBeNull();
  });

  it("a named attribute, or the NameID; none when ambiguous or not an e-mail", () => {
    expect(matchedEmail(identity({ staffMail: ["bob@retailer.example"], email: ["ann@retailer.example"] }), "staffMail")).toBe("bob@retailer.example");
    expect(matchedEmail(identity({}, "bob@retailer.example"), "NameID")).toBe("bob@retailer.example");
    expect(matchedEmail(identity({ email: ["ann@retailer.example", "bob@retailer.example"] }), "email")).toBeNull();
    expect(matchedEmail(identity({ email: ["ann@retailer.example", "ANN@retailer.example"] }), "email")).toBe("ann@retailer.example");
    expect(matchedEmail(identity({ staffMail: ["not an e-mail"] }), "staffMail")).toBeNull();
    expect(matchedEmail(identity({}), "staffMail")).toBeNull();
  });
});

describe("how long a used assertion is remembered", () => {
  const now = new Date("2026-11-26T10:00:00.000Z");
  it("until the latest instant it could still be accepted, plus the clock skew", () => {
    const end = replayWindowEnd(["2026-11-26T10:05:00.000Z", "2026-11-26T10:03:00.000Z"], "2026-11-26T09:59:00.000Z", now, 10 * 60_000, 60_000);
    expect(end.toISOString()).toBe("2026-11-26T10:10:00.000Z");
    expect(replayWindowEnd([undefined], undefined, now, 10 * 60_000, 60_000).toISOString()).toBe("2026-11-26T10:11:00.000Z");
  });
});

describe("fetched metadata", () => {
  const now = new Date("2026-11-26T10:00:00.000Z");
  it("is fresh for the refresh interval", () => {
    expect(metadataIsFresh("2026-11-26T09:31:00.000Z", 30, now)).toBe(true);
    expect(metadataIsFresh("2026-11-26T09:30:00.000Z", 30, now)).toBe(false);
    expect(metadataIsFresh(null, 30, now)).toBe(false);
  });
});
