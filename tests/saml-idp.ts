/**
 * A real SAML 2.0 identity provider for the tests, on loopback HTTP in the test process: its keys
 * and self-signed certificates are generated (selfsigned), its metadata is served at /metadata,
 * its sign-on endpoint (/sso, HTTP-Redirect binding) reads the console's AuthnRequest and answers
 * with a login response made by a SAML library of its own (samlify's IdentityProvider, not the
 * console's node-saml), posted back to the console by a page (auto-submitted by a script, with a
 * button for a browser without JavaScript). `response()` builds signed responses field by field
 * (xml-crypto) for the attack tests, which need exact control of each part and then alter them.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { inflateRawSync } from "node:zlib";
import { DOMParser } from "@xmldom/xmldom";
import * as samlify from "samlify";
import { generate } from "selfsigned";
import { SignedXml } from "xml-crypto";

export interface IdpKey {
  privateKey: string;
  cert: string;
  /** The certificate's base64 body, as metadata carries it. */
  certBody: string;
}

export async function generateKey(name = "Test IdP"): Promise<IdpKey> {
  const pems = await generate([{ name: "commonName", value: name }], {
    keySize: 2048,
    algorithm: "sha256",
    notBeforeDate: new Date(Date.now() - 24 * 3600_000),
    notAfterDate: new Date(Date.now() + 3650 * 24 * 3600_000),
  });
  const certBody = pems.cert.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "");
  return { privateKey: pems.private, cert: pems.cert, certBody };
}

export interface ResponseOptions {
  /** The AuthnRequest answered; null: an unsolicited response (IdP-initiated). */
  inResponseTo: string | null;
  acsUrl: string;
  audience: string;
  email: string;
  /** Which element carries the signature. */
  sign?: "assertion" | "response" | "both" | "none";
  /** Signs with this key instead of the IdP's current one. */
  key?: IdpKey;
  issuer?: string;
  /** Validity relative to now (ms): NotBefore = now + notBeforeMs, NotOnOrAfter = now + notOnOrAfterMs. */
  notBeforeMs?: number;
  notOnOrAfterMs?: number;
  /** IssueInstant relative to now (ms). */
  issuedMs?: number;
  assertionId?: string;
  /** Attributes besides the e-mail (name → values). */
  attributes?: Record<string, string[]>;
  /** The NameID (default: the e-mail). */
  nameId?: string;
}

export interface SsoPage {
  /** Where the page posts (the console's ACS). */
  action: string;
  SAMLResponse: string;
  RelayState: string;
}

export interface AuthnRequestSeen {
  id: string;
  acsUrl: string;
  issuer: string;
  relayState: string;
}

const XSD_ID = () => `_${randomBytes(16).toString("hex")}`;
const iso = (ms: number) => new Date(Date.now() + ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function signElement(xml: string, element: "Assertion" | "Response", key: IdpKey): string {
  const sig = new SignedXml({
    privateKey: key.privateKey,
    publicCert: key.cert,
    signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    canonicalizationAlgorithm: "http://www.w3.org/2001/10/xml-exc-c14n#",
  });
  const path = element === "Assertion" ? "/*[local-name(.)='Response']/*[local-name(.)='Assertion']" : "/*[local-name(.)='Response']";
  sig.addReference({
    xpath: path,
    transforms: ["http://www.w3.org/2000/09/xmldsig#enveloped-signature", "http://www.w3.org/2001/10/xml-exc-c14n#"],
    digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256",
  });
  // The signature goes right after the element's Issuer, as the SAML schema orders it.
  sig.computeSignature(xml, { prefix: "ds", location: { reference: `${path}/*[local-name(.)='Issuer']`, action: "after" } });
  return sig.getSignedXml();
}

export class TestIdp {
  readonly entityId: string;
  key!: IdpKey;
  /** Certificates the metadata lists (the current key's by default; during a rotation, two). */
  metadataKeys: IdpKey[] = [];
  /** What GET /metadata answers: the metadata, or a status code to fail with. */
  metadataOverride: string | number | null = null;
  metadataHits = 0;
  /** The user the IdP signs in at /sso. */
  user = "retailer.admin@example.com";
  /** Requests received at /sso, newest last. */
  readonly requests: AuthnRequestSeen[] = [];
  private server!: http.Server;
  baseUrl = "";

  constructor(readonly host = "127.0.0.1") {
    this.entityId = `https://idp.test/${randomBytes(4).toString("hex")}`;
  }

  async start(): Promise<this> {
    this.key = await generateKey();
    this.metadataKeys = [this.key];
    this.server = http.createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.baseUrl = `http://${this.host}:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections?.();
    await new Promise((resolve) => this.server.close(resolve));
  }

  get metadataUrl(): string {
    return `${this.baseUrl}/metadata`;
  }

  get ssoUrl(): string {
    return `${this.baseUrl}/sso`;
  }

  metadataXml(keys: IdpKey[] = this.metadataKeys): string {
    const keyDescriptors = keys
      .map((k) => `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${k.certBody}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`)
      .join("");
    return (
      `<?xml version="1.0"?>` +
      `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${this.entityId}">` +
      `<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" WantAuthnRequestsSigned="false">` +
      keyDescriptors +
      `<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>` +
      `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${this.ssoUrl}"/>` +
      `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${this.ssoUrl}"/>` +
      `</md:IDPSSODescriptor></md:EntityDescriptor>`
    );
  }

  /** A signed SAMLResponse (base64, as the POST binding carries it). */
  response(options: ResponseOptions): string {
    return Buffer.from(this.responseXml(options), "utf8").toString("base64");
  }

  responseXml(o: ResponseOptions): string {
    const issuer = o.issuer ?? this.entityId;
    const inResponseTo = o.inResponseTo ? ` InResponseTo="${o.inResponseTo}"` : "";
    const issued = iso(o.issuedMs ?? 0);
    const notBefore = iso(o.notBeforeMs ?? -30_000);
    const notOnOrAfter = iso(o.notOnOrAfterMs ?? 5 * 60_000);
    const attributes = { email: [o.email], ...o.attributes };
    const attributeXml = Object.entries(attributes)
      .map(([name, values]) => `<saml:Attribute Name="${escapeXml(name)}">${values.map((v) => `<saml:AttributeValue>${escapeXml(v)}</saml:AttributeValue>`).join("")}</saml:Attribute>`)
      .join("");
    const assertion =
      `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${o.assertionId ?? XSD_ID()}" Version="2.0" IssueInstant="${issued}">` +
      `<saml:Issuer>${escapeXml(issuer)}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${escapeXml(o.nameId ?? o.email)}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
      `<saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${escapeXml(o.acsUrl)}"${inResponseTo}/>` +
      `</saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${escapeXml(o.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${issued}" SessionIndex="${XSD_ID()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
      `<saml:AttributeStatement>${attributeXml}</saml:AttributeStatement>` +
      `</saml:Assertion>`;
    let xml =
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${XSD_ID()}" Version="2.0" IssueInstant="${issued}" Destination="${escapeXml(o.acsUrl)}"${inResponseTo}>` +
      `<saml:Issuer>${escapeXml(issuer)}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      assertion +
      `</samlp:Response>`;
    const sign = o.sign ?? "assertion";
    const key = o.key ?? this.key;
    if (sign === "assertion" || sign === "both") xml = signElement(xml, "Assertion", key);
    if (sign === "response" || sign === "both") xml = signElement(xml, "Response", key);
    return xml;
  }

  /** Reads the AuthnRequest of an HTTP-Redirect URL (SAMLRequest deflated and base64-encoded). */
  static readAuthnRequest(url: string): AuthnRequestSeen {
    const query = new URL(url).searchParams;
    const xml = inflateRawSync(Buffer.from(query.get("SAMLRequest") ?? "", "base64")).toString("utf8");
    const doc = new DOMParser().parseFromString(xml, "text/xml");
    const request = doc.documentElement!;
    const issuer = request.getElementsByTagNameNS("urn:oasis:names:tc:SAML:2.0:assertion", "Issuer")[0]?.textContent ?? "";
    return {
      id: request.getAttribute("ID") ?? "",
      acsUrl: request.getAttribute("AssertionConsumerServiceURL") ?? "",
      issuer,
      relayState: query.get("RelayState") ?? "",
    };
  }

  /**
   * The login response samlify's identity provider makes for a request seen at /sso: the
   * assertion signed with the IdP's key, the user's e-mail as its NameID (base64, POST binding).
   */
  async libraryResponse(seen: AuthnRequestSeen, email = this.user): Promise<string> {
    const { binding } = samlify.Constants.namespace;
    const idp = samlify.IdentityProvider({
      entityID: this.entityId,
      privateKey: this.key.privateKey,
      signingCert: this.key.cert,
      nameIDFormat: ["urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"],
      singleSignOnService: [{ Binding: binding.redirect, Location: this.ssoUrl }],
      singleLogoutService: [{ Binding: binding.redirect, Location: `${this.baseUrl}/slo` }],
    });
    // The console as samlify sees it: its entity id and assertion consumer, from its AuthnRequest.
    const sp = samlify.ServiceProvider({
      entityID: seen.issuer,
      wantAssertionsSigned: true,
      assertionConsumerService: [{ Binding: binding.post, Location: seen.acsUrl }],
    });
    const made = await idp.createLoginResponse(sp, { extract: { request: { id: seen.id } } } as never, "post", { email });
    return (made as { context: string }).context;
  }

  /** The page /sso answers: a form posting the response to the console, submitted at once by a script. */
  async ssoPage(seen: AuthnRequestSeen): Promise<string> {
    const SAMLResponse = await this.libraryResponse(seen);
    return (
      `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Test identity provider</title></head><body>` +
      `<main><h1>Test identity provider</h1><p>Signed in as ${escapeXml(this.user)}.</p>` +
      `<form method="post" action="${escapeXml(seen.acsUrl)}">` +
      `<input type="hidden" name="SAMLResponse" value="${SAMLResponse}">` +
      `<input type="hidden" name="RelayState" value="${escapeXml(seen.relayState)}">` +
      `<button type="submit">Continue to the console</button></form></main>` +
      `<script>document.forms[0].submit()</script></body></html>`
    );
  }

  /** The form of an /sso page, as a browser would submit it. */
  static readSsoPage(html: string): SsoPage {
    const attr = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "";
    const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
    return { action: unescape(/action="([^"]*)"/.exec(html)?.[1] ?? ""), SAMLResponse: attr("SAMLResponse"), RelayState: unescape(attr("RelayState")) };
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? "/", this.baseUrl);
    if (url.pathname === "/metadata") {
      this.metadataHits += 1;
      if (typeof this.metadataOverride === "number") {
        res.writeHead(this.metadataOverride).end();
        return;
      }
      res.writeHead(200, { "Content-Type": "application/samlmetadata+xml" }).end(this.metadataOverride ?? this.metadataXml());
      return;
    }
    if (url.pathname === "/sso") {
      let seen: AuthnRequestSeen;
      try {
        seen = TestIdp.readAuthnRequest(url.toString());
      } catch {
        res.writeHead(400).end("Bad SAMLRequest");
        return;
      }
      this.requests.push(seen);
      this.ssoPage(seen).then(
        (page) => res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(page),
        (error: unknown) => res.writeHead(500).end(String(error)),
      );
      return;
    }
    res.writeHead(404).end();
  }
}

export async function startTestIdp(host?: string): Promise<TestIdp> {
  return new TestIdp(host).start();
}
