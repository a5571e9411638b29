/**
 * Single sign-on (issue 12 §1) over real HTTP: the console's SSO routes behind a loopback HTTP
 * server, a real test identity provider (tests/saml-idp.ts: generated keys, responses signed by
 * xml-crypto) on another port, and a "browser" that follows the redirects and posts the IdP's
 * form. The attack set alters the IdP's real signed responses; each test fails if the altered
 * response signs anyone in.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_SSO_SETTINGS, type SsoSettings } from "~/domain/sso";
import type { User } from "~/domain/types";
import { generateKey, startTestIdp, TestIdp } from "../saml-idp";
import { args, BASE_URL, call, CookieJar, getRequest, postRequest, signIn, startApp, type TestApp } from "./app-helpers";

let app: TestApp;
let idp: TestIdp;
let server: http.Server;
let consoleBase: string;
let mods: Awaited<ReturnType<typeof loadSsoModules>>;

async function loadSsoModules() {
  const [login, acs, metadata, settingsRoute, settings, metadataService, step] = await Promise.all([
    import("~/routes/auth.saml.login"),
    import("~/routes/auth.saml.acs"),
    import("~/routes/auth.saml.metadata"),
    import("~/routes/settings_.retailer_.sso"),
    import("~/services/sso/settings.server"),
    import("~/services/sso/metadata.server"),
    import("~/routes/login_.second-factor"),
  ]);
  return { login, acs, metadata, settingsRoute, settings, metadataService, step };
}

/** The console's SSO routes over real HTTP (what server.mjs does for them, without Remix's router). */
async function startConsole(): Promise<void> {
  type Handler = (a: { request: Request; params: object; context: object }) => Promise<Response> | Response;
  const routes: Record<string, Handler> = {
    "GET /auth/saml/login": mods.login.loader as Handler,
    "POST /auth/saml/acs": mods.acs.action as Handler,
    "GET /auth/saml/metadata": mods.metadata.loader as Handler,
  };
  server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", BASE_URL);
    const handler = routes[`${req.method} ${url.pathname}`];
    if (!handler) return void res.writeHead(404).end();
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const request = new Request(url, { method: req.method, headers, body: req.method === "POST" ? Buffer.concat(chunks) : undefined });
    let response: Response;
    try {
      response = await handler({ request, params: {}, context: { requestId: "t", clientIp: "127.0.0.1" } });
    } catch (thrown) {
      if (!(thrown instanceof Response)) return void res.writeHead(500).end(String(thrown));
      response = thrown;
    }
    const out: [string, string][] = [];
    response.headers.forEach((value, name) => name !== "set-cookie" && out.push([name, value]));
    for (const cookie of response.headers.getSetCookie()) out.push(["set-cookie", cookie]);
    res.writeHead(response.status, out.flat());
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  consoleBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The console's public URL (PUBLIC_URL) is mapped to the loopback server, as DNS would. */
const onConsole = (url: string) => url.replace(BASE_URL, consoleBase);

beforeAll(async () => {
  app = await startApp();
  mods = await loadSsoModules();
  idp = await startTestIdp();
  await startConsole();
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await idp?.stop();
  await app?.stop();
});

const storage = () => app.m.storageIndex.getStorage();
const userByEmail = async (email: string) => (await storage().users.getByEmail(email))!;
const sp = () => mods.settings.serviceProviderUrls(DEFAULT_SSO_SETTINGS);

async function configure(partial: Partial<SsoSettings> = {}): Promise<void> {
  const operator = await userByEmail("operator@example.com");
  const version = (await storage().config.get()).version;
  const settings: SsoSettings = {
    ...DEFAULT_SSO_SETTINGS,
    enabled: true,
    metadataSource: "xml",
    metadataXml: idp.metadataXml(),
    accountTypes: ["retailer", "supplier"],
    ...partial,
  };
  const saved = await mods.settings.updateSsoSettings(operator, settings, version);
  expect(saved).toEqual({ ok: true, value: undefined });
}

interface AcsReply {
  status: number;
  location: string | null;
  jar: CookieJar;
}

/** 'Sign in with single sign-on': the console's answer sends the browser to the IdP with an AuthnRequest. */
async function startSignIn(jar = new CookieJar(), to = ""): Promise<{ location: string; requestId: string; relayState: string }> {
  const query = to ? `?${new URLSearchParams({ to })}` : "";
  const response = await fetch(`${consoleBase}/auth/saml/login${query}`, { redirect: "manual", headers: { Cookie: jar.header() } });
  expect(response.status).toBe(303);
  const location = response.headers.get("location")!;
  expect(location.startsWith(idp.ssoUrl)).toBe(true);
  const seen = TestIdp.readAuthnRequest(location);
  return { location, requestId: seen.id, relayState: seen.relayState };
}

async function postToAcs(SAMLResponse: string, RelayState = "", jar = new CookieJar()): Promise<AcsReply> {
  const response = await fetch(`${consoleBase}/auth/saml/acs`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: new URL(idp.baseUrl).origin, Cookie: jar.header() },
    body: new URLSearchParams({ SAMLResponse, RelayState }).toString(),
  });
  return { status: response.status, location: response.headers.get("location"), jar: jar.apply(response.headers) };
}

/** The whole flow, as a browser does it: the console, the IdP's page, its form posted back. */
async function ssoSignIn(email: string, options: { to?: string; jar?: CookieJar } = {}): Promise<AcsReply> {
  const jar = options.jar ?? new CookieJar();
  // Started signed out (the sign-in page is for signed-out visitors); the answer comes to whatever the browser holds.
  const { location } = await startSignIn(new CookieJar(), options.to);
  idp.user = email;
  const page = await (await fetch(location)).text();
  const form = TestIdp.readSsoPage(page);
  expect(form.action).toBe(sp().acsUrl);
  const response = await fetch(onConsole(form.action), {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: jar.header() },
    body: new URLSearchParams({ SAMLResponse: form.SAMLResponse, RelayState: form.RelayState }).toString(),
  });
  return { status: response.status, location: response.headers.get("location"), jar: jar.apply(response.headers) };
}

/** A response of the IdP to a real request of the console, for `email`, with the options' changes. */
async function solicited(email: string, options: Partial<Parameters<TestIdp["responseXml"]>[0]> = {}): Promise<string> {
  const { requestId } = await startSignIn();
  return idp.response({ inResponseTo: requestId, acsUrl: sp().acsUrl, audience: sp().entityId, email, ...options });
}

async function signedInAs(jar: CookieJar): Promise<User | null> {
  return (await app.m.auth.getCurrentUser(getRequest("/", { cookie: jar }))).user;
}

async function toastOf(jar: CookieJar) {
  return (await app.m.toast.getToast(getRequest("/login", { cookie: jar }))).toast;
}

/** Refused: back to /login, no session, 'Unauthorized Access' (spec section 8), and the user's record untouched. */
async function expectRefused(reply: AcsReply, email?: string, before?: User): Promise<void> {
  expect(reply.status).toBe(302);
  expect(reply.location).toBe("/login");
  expect(reply.jar.has("__session")).toBe(false);
  expect(await signedInAs(reply.jar)).toBeNull();
  expect(await toastOf(reply.jar)).toMatchObject({ type: "error", title: "sso:unauthorized.title", description: "sso:unauthorized.message" });
  if (email && before) {
    const after = await userByEmail(email);
    expect(after.last_auth).toBe(before.last_auth);
    expect(after.version).toBe(before.version);
  }
}

const ADMIN = "retailer.admin@example.com";
const VIEWER = "retailer.viewer@example.com";

describe("single sign-on over HTTP with a real identity provider", () => {
  beforeEach(async () => {
    mods.metadataService.forgetMetadataForTests();
    idp.metadataKeys = [idp.key];
    idp.metadataOverride = null;
    await configure();
  });

  it("serves the console's SAML metadata: its entity id and assertion consumer", async () => {
    const response = await fetch(`${consoleBase}/auth/saml/metadata`);
    expect(response.headers.get("content-type")).toContain("application/samlmetadata+xml");
    const xml = await response.text();
    expect(xml).toContain(`entityID="${BASE_URL}/auth/saml/metadata"`);
    expect(xml).toContain(`Location="${BASE_URL}/auth/saml/acs"`);
    expect(xml).toContain("urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST");
  });

  it("signs an existing user in: connected, last sign-in, last_auth_method 'saml', auth_providers, and lands on the path asked for", async () => {
    const before = await userByEmail(ADMIN);
    await storage().users.recordSignOut(before.id);
    expect((await userByEmail(ADMIN)).disconnected).toBe(true);

    const reply = await ssoSignIn(ADMIN, { to: "/campaigns?status=active" });
    expect(reply.status).toBe(303);
    expect(reply.location).toBe("/campaigns?status=active");
    expect((await signedInAs(reply.jar))?.email).toBe(ADMIN);
    const after = await userByEmail(ADMIN);
    expect(after).toMatchObject({ disconnected: false, last_auth_method: "saml" });
    expect(after.auth_providers).toContain("saml");
    expect(Date.parse(after.last_auth!)).toBeGreaterThan(Date.now() - 60_000);
    expect(after.lastSignIn).toBe(after.last_auth);
    // The AuthnRequest named the console and its assertion consumer, and carried the path back.
    const request = idp.requests.at(-1)!;
    expect(request).toMatchObject({ issuer: sp().entityId, acsUrl: sp().acsUrl, relayState: "/campaigns?status=active" });
  });

  it("returns only to a path of the console: another site in `to` or in the RelayState lands on the user's landing page", async () => {
    const outside = await ssoSignIn(ADMIN, { to: "https://evil.example/steal" });
    expect(outside.status).toBe(303);
    expect(outside.location).toBe("/");
    expect(idp.requests.at(-1)!.relayState).toBe("");

    const outsiders = [
      "https://evil.example/",
      "//evil.example/x",
      "/\\evil.example",
      "\\\\evil.example",
      "%2F%2Fevil.example",
      "https:%2F%2Fevil.example",
      "/\n/evil.example",
      "/\t/evil.example",
      "javascript:alert(1)",
      "evil.example",
    ];
    for (const relayState of outsiders) {
      const reply = await postToAcs(await solicited(ADMIN), relayState);
      expect(reply.status, relayState).toBe(303);
      expect(reply.location, relayState).toBe("/");
    }
    // Encoded slashes inside a path stay a path of the console (the browser never reads them as a host).
    for (const relayState of ["/%2F%2Fevil.example", "/%5Cevil.example", "/%0A/evil.example"]) {
      const encoded = await postToAcs(await solicited(ADMIN), relayState);
      expect(encoded.location, relayState).toBe(relayState);
      expect(new URL(encoded.location!, "http://console.test").host).toBe("console.test");
    }
    // The `to` of the sign-in link is checked as well: another site never travels as RelayState.
    for (const to of ["//evil.example", "/\\evil.example", "https:%2F%2Fevil.example"]) {
      expect((await startSignIn(new CookieJar(), to)).relayState, to).toBe("");
    }
  });

  it("asks a user who has a second factor for its code before signing them in, then lands on the path asked for", async () => {
    const user = await app.createUser({ claims: { type: "retailer", role: "EDITOR" }, roleByTeam: {} });
    const secret = new Secret({ size: 20 });
    await storage().users.setSecondFactor(user.id, { totpSecret: secret.base32, recoveryCodeHashes: [] }, { by: "system" });
    const before = await userByEmail(user.email);

    const reply = await ssoSignIn(user.email, { to: "/campaigns" });
    expect(reply.status).toBe(303);
    expect(reply.location).toBe("/login/second-factor");
    // A pending sign-in only: nobody is signed in, nothing is recorded yet.
    expect(await signedInAs(reply.jar)).toBeNull();
    expect((await userByEmail(user.email)).last_auth).toBe(before.last_auth);

    const code = new TOTP({ secret, algorithm: "SHA1", digits: 6, period: 30 }).generate();
    const given = await call(() => mods.step.action(args(postRequest("/login/second-factor", { intent: "second-factor-code", code }, { cookie: reply.jar })) as never));
    expect(given.status).toBe(302);
    expect(given.location).toBe("/campaigns");
    reply.jar.apply(given.headers);
    expect((await signedInAs(reply.jar))?.id).toBe(user.id);
    expect(await userByEmail(user.email)).toMatchObject({ last_auth_method: "saml" });
  });

  it("signs out an unknown user and sends them to login", async () => {
    const jar = new CookieJar(await signIn(app.m, VIEWER, app.demoPassword));
    expect((await signedInAs(jar))?.email).toBe(VIEWER);
    const previous = jar.header();
    const reply = await ssoSignIn(`nobody.${randomBytes(3).toString("hex")}@retailer.example`, { jar });
    expect(reply.status).toBe(302);
    expect(reply.location).toBe("/login");
    expect(reply.jar.has("__session")).toBe(false);
    // The session the browser held is over, on the server too.
    expect(await signedInAs(new CookieJar(previous))).toBeNull();
    expect(await toastOf(reply.jar)).toMatchObject({ type: "error", description: "sso:unknownUser" });
  });

  it("refuses a disabled account with the sign-in's own message, opening no session", async () => {
    const user = await app.createUser({ claims: { type: "retailer", role: "VIEWER" }, roleByTeam: {}, disabled: true });
    const reply = await ssoSignIn(user.email);
    expect(reply.status).toBe(302);
    expect(reply.location).toBe("/login");
    expect(reply.jar.has("__session")).toBe(false);
    expect(await toastOf(reply.jar)).toMatchObject({ type: "error", description: "auth.disabled" });
    expect((await userByEmail(user.email)).last_auth ?? null).toBe(user.last_auth ?? null);
  });

  it("signs in only the account types the IdP is set up for, and never an operator", async () => {
    await configure({ accountTypes: ["retailer"] });
    const supplier = await userByEmail("supplier.admin@example.com");
    await expectRefused(await ssoSignIn(supplier.email), supplier.email, supplier);

    await configure({ accountTypes: ["retailer", "supplier"] });
    const operator = await userByEmail("operator@example.com");
    await expectRefused(await ssoSignIn(operator.email), operator.email, operator);
    // Settings naming operators are refused.
    const version = (await storage().config.get()).version;
    const refused = await mods.settings.updateSsoSettings(operator, { ...DEFAULT_SSO_SETTINGS, enabled: true, metadataXml: idp.metadataXml(), accountTypes: ["operator" as never] }, version);
    expect(refused).toMatchObject({ ok: false, kind: "invalid" });
  });

  it("matches users on the configured attribute", async () => {
    await configure({ matchAttribute: "staffMail" });
    const viewer = await userByEmail(VIEWER);
    // The e-mail attribute names the admin, the configured one the viewer: the viewer is signed in.
    const reply = await postToAcs(await solicited(ADMIN, { attributes: { staffMail: [VIEWER] } }));
    expect(reply.status).toBe(303);
    expect((await signedInAs(reply.jar))?.id).toBe(viewer.id);
    // Without that attribute, nobody is.
    await expectRefused(await postToAcs(await solicited(ADMIN)));
  });

  it("refuses a missing, malformed, oversized or non-SAML answer cleanly ('Unauthorized Access', never a server error)", async () => {
    const before = await userByEmail(ADMIN);
    const b64 = (s: string) => Buffer.from(s).toString("base64");
    for (const SAMLResponse of [
      "",
      "not base64 at all %%%",
      b64("<not-xml"),
      b64("<html><body>hello</body></html>"),
      b64('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">&x;</samlp:Response>'),
      "A".repeat(1_200_000),
    ]) {
      await expectRefused(await postToAcs(SAMLResponse), ADMIN, before);
    }
    // No SAMLResponse field at all.
    const bare = await fetch(`${consoleBase}/auth/saml/acs`, { method: "POST", redirect: "manual", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "RelayState=%2F" });
    expect(bare.status).toBe(302);
    expect(bare.headers.get("location")).toBe("/login");
  });

  it("words the refusal as spec section 8 does", async () => {
    const { getFixedT } = await import("~/services/i18n.server");
    const t = await getFixedT("en-GB");
    expect(t("sso:unauthorized.title")).toBe("Unauthorized Access");
    expect(t("sso:unauthorized.message")).toBe("Your account cannot be created via SAML authentication.");
    const fr = await getFixedT("fr");
    expect(fr("sso:unauthorized.message")).not.toBe("sso:unauthorized.message");
  });

  it("shows 'Unauthorized Access' when single sign-on is off", async () => {
    const response = await solicited(ADMIN);
    await configure({ enabled: false });
    await expectRefused(await postToAcs(response), ADMIN, await userByEmail(ADMIN));
  });

  describe("the attack set: each altered response is refused", () => {
    it("a tampered response (the signed e-mail changed)", async () => {
      const before = await userByEmail(ADMIN);
      const xml = Buffer.from(await solicited(VIEWER), "base64").toString("utf8").replaceAll(VIEWER, ADMIN);
      await expectRefused(await postToAcs(Buffer.from(xml).toString("base64")), ADMIN, before);
    });

    it("a response made by the identity provider's SAML library (samlify), tampered or replayed", async () => {
      const made = async () => {
        const { requestId, relayState } = await startSignIn();
        return idp.libraryResponse({ id: requestId, acsUrl: sp().acsUrl, issuer: sp().entityId, relayState }, VIEWER);
      };
      const before = await userByEmail(ADMIN);
      const tampered = Buffer.from(await made(), "base64").toString("utf8").replaceAll(VIEWER, ADMIN);
      expect(tampered).toContain(ADMIN);
      await expectRefused(await postToAcs(Buffer.from(tampered).toString("base64")), ADMIN, before);
      // Untouched, it signs the viewer in once; posted again, it is refused.
      const response = await made();
      const first = await postToAcs(response);
      expect(first.status).toBe(303);
      expect((await signedInAs(first.jar))?.email).toBe(VIEWER);
      await expectRefused(await postToAcs(response));
    });

    it("a comment slipped into the signed e-mail (c14n ignores comments; a naive reader stops at them)", async () => {
      const before = await userByEmail(ADMIN);
      const attacker = `${ADMIN}.evil.example`;
      const xml = Buffer.from(await solicited(attacker), "base64").toString("utf8").replaceAll(attacker, `${ADMIN}<!---->.evil.example`);
      expect(xml).toContain(`${ADMIN}<!---->`);
      // The whole text is read (an unknown address, signed out to login), never the part before the comment.
      const reply = await postToAcs(Buffer.from(xml).toString("base64"));
      expect(reply).toMatchObject({ status: 302, location: "/login" });
      expect(await signedInAs(reply.jar)).toBeNull();
      expect(await toastOf(reply.jar)).toMatchObject({ type: "error", description: "sso:unknownUser" });
      expect((await userByEmail(ADMIN)).version).toBe(before.version);
    });

    it("an unsigned response", async () => {
      const before = await userByEmail(ADMIN);
      await expectRefused(await postToAcs(await solicited(ADMIN, { sign: "none" })), ADMIN, before);
    });

    it("a response signed by a key the metadata does not list", async () => {
      const before = await userByEmail(ADMIN);
      const stranger = await generateKey("Not the IdP");
      await expectRefused(await postToAcs(await solicited(ADMIN, { key: stranger, sign: "both" })), ADMIN, before);
    });

    it("an expired response", async () => {
      const before = await userByEmail(ADMIN);
      const expired = await solicited(ADMIN, { issuedMs: -20 * 60_000, notBeforeMs: -20 * 60_000, notOnOrAfterMs: -10 * 60_000 });
      await expectRefused(await postToAcs(expired), ADMIN, before);
    });

    it("a response for another audience", async () => {
      const before = await userByEmail(ADMIN);
      await expectRefused(await postToAcs(await solicited(ADMIN, { audience: "https://another-sp.example/metadata" })), ADMIN, before);
    });

    it("a response from another issuer, even signed with the IdP's key", async () => {
      const before = await userByEmail(ADMIN);
      await expectRefused(await postToAcs(await solicited(ADMIN, { issuer: "https://other-idp.example" })), ADMIN, before);
    });

    it("a response meant for another assertion consumer", async () => {
      const before = await userByEmail(ADMIN);
      await expectRefused(await postToAcs(await solicited(ADMIN, { acsUrl: "https://another-sp.example/acs" })), ADMIN, before);
    });

    it("a replayed response (the first post signs in, the same response again does not)", async () => {
      const response = await solicited(ADMIN);
      const first = await postToAcs(response);
      expect(first.status).toBe(303);
      const before = await userByEmail(ADMIN);
      await expectRefused(await postToAcs(response), ADMIN, before);
    });

    it("a replayed unsolicited response, where unsolicited responses are allowed", async () => {
      await configure({ allowUnsolicited: true });
      const response = idp.response({ inResponseTo: null, acsUrl: sp().acsUrl, audience: sp().entityId, email: ADMIN });
      expect((await postToAcs(response)).status).toBe(303);
      const before = await userByEmail(ADMIN);
      await expectRefused(await postToAcs(response), ADMIN, before);
    });

    it("a response to a request the console never sent (foreign InResponseTo)", async () => {
      const before = await userByEmail(ADMIN);
      const foreign = idp.response({ inResponseTo: `_${randomBytes(20).toString("hex")}`, acsUrl: sp().acsUrl, audience: sp().entityId, email: ADMIN });
      await expectRefused(await postToAcs(foreign), ADMIN, before);
    });

    it("a second response to a request already answered", async () => {
      const { requestId } = await startSignIn();
      const answer = (email: string) => idp.response({ inResponseTo: requestId, acsUrl: sp().acsUrl, audience: sp().entityId, email });
      expect((await postToAcs(answer(VIEWER))).status).toBe(303);
      const before = await userByEmail(ADMIN);
      await expectRefused(await postToAcs(answer(ADMIN)), ADMIN, before);
    });

    it("an unsolicited response while the setting is off (it is off by default); accepted once it is on", async () => {
      expect(DEFAULT_SSO_SETTINGS.allowUnsolicited).toBe(false);
      const unsolicited = () => idp.response({ inResponseTo: null, acsUrl: sp().acsUrl, audience: sp().entityId, email: ADMIN });
      const before = await userByEmail(ADMIN);
      await expectRefused(await postToAcs(unsolicited()), ADMIN, before);
      await configure({ allowUnsolicited: true });
      expect((await postToAcs(unsolicited(), "/campaigns")).location).toBe("/campaigns");
    });

    it("an unsolicited assertion wrapped in a Response naming a request id of the attacker's", async () => {
      const { requestId } = await startSignIn();
      const before = await userByEmail(ADMIN);
      const xml = idp
        .responseXml({ inResponseTo: null, acsUrl: sp().acsUrl, audience: sp().entityId, email: ADMIN })
        .replace(/<samlp:Response ([^>]*?)>/, `<samlp:Response $1 InResponseTo="${requestId}">`);
      await expectRefused(await postToAcs(Buffer.from(xml).toString("base64")), ADMIN, before);
    });

    describe("XML signature wrapping (the viewer's signed assertion reused to sign in as the admin)", () => {
      async function parts() {
        const xml = Buffer.from(await solicited(VIEWER), "base64").toString("utf8");
        const signed = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
        const signature = /<ds:Signature[\s\S]*<\/ds:Signature>/.exec(signed)![0];
        const id = /ID="([^"]+)"/.exec(signed)![1];
        const evil = signed.replace(signature, "").replaceAll(VIEWER, ADMIN);
        return { xml, signed, signature, id, evil };
      }
      const b64 = (s: string) => Buffer.from(s).toString("base64");

      it("an evil assertion beside the signed one", async () => {
        const { xml, signed, evil } = await parts();
        const before = await userByEmail(ADMIN);
        await expectRefused(await postToAcs(b64(xml.replace(signed, evil.replace(/ID="[^"]+"/, 'ID="_evil"') + signed))), ADMIN, before);
      });

      it("the signed assertion moved into Extensions, an evil one with its id and signature in its place", async () => {
        const { xml, signed, signature, evil } = await parts();
        const evilSigned = evil.replace("</saml:Issuer>", `</saml:Issuer>${signature}`);
        const wrapped = xml.replace(signed, evilSigned).replace("<samlp:Status>", `<samlp:Extensions>${signed}</samlp:Extensions><samlp:Status>`);
        const before = await userByEmail(ADMIN);
        await expectRefused(await postToAcs(b64(wrapped)), ADMIN, before);
      });

      it("the signed assertion nested inside an evil one carrying its signature", async () => {
        const { xml, signed, signature, evil } = await parts();
        const nested = evil
          .replace(/ID="[^"]+"/, 'ID="_evil"')
          .replace("</saml:Issuer>", `</saml:Issuer>${signature}`)
          .replace("</saml:Assertion>", `${signed}</saml:Assertion>`);
        const before = await userByEmail(ADMIN);
        await expectRefused(await postToAcs(b64(xml.replace(signed, nested))), ADMIN, before);
      });

      it("a response-level signature kept while the unsigned assertion inside is swapped", async () => {
        const xml = idp.responseXml({ inResponseTo: (await startSignIn()).requestId, acsUrl: sp().acsUrl, audience: sp().entityId, email: VIEWER, sign: "response" });
        const before = await userByEmail(ADMIN);
        await expectRefused(await postToAcs(b64(xml.replaceAll(VIEWER, ADMIN))), ADMIN, before);
      });
    });
  });

  describe("signatures accepted", () => {
    it("a response signed on the Response only, or on both", async () => {
      expect((await postToAcs(await solicited(ADMIN, { sign: "response" }))).status).toBe(303);
      expect((await postToAcs(await solicited(ADMIN, { sign: "both" }))).status).toBe(303);
    });

    it("during a certificate rotation, the old and the new key", async () => {
      const next = await generateKey("Test IdP 2027");
      await configure({ metadataXml: idp.metadataXml([idp.key, next]) });
      expect((await postToAcs(await solicited(ADMIN, { key: next }))).status).toBe(303);
      expect((await postToAcs(await solicited(ADMIN))).status).toBe(303);
    });
  });

  describe("metadata from a URL", () => {
    it("is fetched at save, cached for the refresh interval, fetched again after it, and kept when a refresh fails", async () => {
      const hits = idp.metadataHits;
      await configure({ metadataSource: "url", metadataUrl: idp.metadataUrl, metadataXml: "", metadataRefreshMinutes: 30 });
      expect(idp.metadataHits).toBe(hits + 1);
      // Signing in uses the cached copy.
      expect((await ssoSignIn(ADMIN)).status).toBe(303);
      expect(idp.metadataHits).toBe(hits + 1);

      // The IdP rotates its key: until the interval has passed, the console knows only the old one.
      const settings = await mods.settings.getSsoSettings();
      const next = await generateKey("Rotated");
      idp.metadataKeys = [next];
      mods.metadataService.forgetMetadataForTests();
      const soon = new Date(Date.now() + 10 * 60_000);
      const cached = await mods.metadataService.loadIdpMetadata(settings, soon);
      expect(cached.ok && cached.value.certificates.length).toBe(1);
      expect(idp.metadataHits).toBe(hits + 1);
      const later = new Date(Date.now() + 31 * 60_000);
      const refreshed = await mods.metadataService.loadIdpMetadata(settings, later);
      expect(idp.metadataHits).toBe(hits + 2);
      expect(refreshed.ok && refreshed.value.certificates[0]).toContain(next.certBody.slice(0, 60));

      // The IdP's metadata endpoint fails: the last good copy is kept.
      idp.metadataOverride = 503;
      const muchLater = new Date(Date.now() + 120 * 60_000);
      const kept = await mods.metadataService.loadIdpMetadata(settings, muchLater);
      expect(idp.metadataHits).toBe(hits + 3);
      expect(kept.ok && kept.value.certificates[0]).toContain(next.certBody.slice(0, 60));
    });

    it("refuses a URL that cannot be fetched, or is not https, when saved", async () => {
      const operator = await userByEmail("operator@example.com");
      const version = (await storage().config.get()).version;
      idp.metadataOverride = 500;
      const failed = await mods.settings.updateSsoSettings(operator, { ...DEFAULT_SSO_SETTINGS, enabled: true, metadataSource: "url", metadataUrl: idp.metadataUrl }, version);
      expect(failed).toMatchObject({ ok: false, reason: "sso:errors.metadataFetchFailed", field: "metadataUrl" });
      const insecure = await mods.settings.updateSsoSettings(operator, { ...DEFAULT_SSO_SETTINGS, enabled: true, metadataSource: "url", metadataUrl: "http://idp.example/metadata" }, version);
      expect(insecure).toMatchObject({ ok: false, fieldErrors: { metadataUrl: ["sso:errors.metadataUrlInvalid"] } });
    });
  });
});

describe("the identity provider's settings screen", () => {
  it("is for operators only: a retailer admin is sent to not-authorized and refused a save", async () => {
    const cookie = await signIn(app.m, ADMIN, app.demoPassword);
    const page = await call(() => mods.settingsRoute.loader(args(getRequest("/settings/retailer/sso", { cookie })) as never));
    expect(page.location).toBe("/not-authorized");
    const save = await call(() =>
      mods.settingsRoute.action(args(postRequest("/settings/retailer/sso", { intent: "save-sso-settings", version: "1", metadataSource: "xml", metadataRefreshMinutes: "60", matchAttribute: "email" }, { cookie })) as never),
    );
    expect(save.status).toBe(403);
  });

  it("an operator saves the settings; broken metadata is refused with its reason", async () => {
    const cookie = await signIn(app.m, "operator@example.com", app.demoPassword);
    const page = await call(() => mods.settingsRoute.loader(args(getRequest("/settings/retailer/sso", { cookie })) as never));
    expect(page.status).toBe(200);
    const form = (metadataXml: string) => ({
      intent: "save-sso-settings",
      version: String(page.data.version),
      enabled: "on",
      metadataSource: "xml",
      metadataXml,
      metadataRefreshMinutes: "60",
      matchAttribute: "email",
      accountTypes: "retailer",
    });
    const broken = await call(() => mods.settingsRoute.action(args(postRequest("/settings/retailer/sso", form("<not-metadata/>"), { cookie })) as never));
    expect(broken.status).toBe(400);
    expect(broken.data.result.error.metadataXml).toEqual(["sso:errors.metadataInvalid"]);

    const saved = await call(() => mods.settingsRoute.action(args(postRequest("/settings/retailer/sso", form(idp.metadataXml()), { cookie })) as never));
    expect(saved.location).toBe("/settings/retailer/sso");
    const stored = (await storage().config.get()).sso!;
    expect(stored).toMatchObject({ enabled: true, idpEntityId: idp.entityId, accountTypes: ["retailer"], allowUnsolicited: false });
    const reread = await call(() => mods.settingsRoute.loader(args(getRequest("/settings/retailer/sso", { cookie })) as never));
    expect(reread.data.idp).toMatchObject({ entityId: idp.entityId, ssoUrl: idp.ssoUrl });
  });
});
