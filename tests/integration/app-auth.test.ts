/**
 * Sign-in through the /login action and the session re-check of every request, against a real
 * temporary SQLite database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { splitMessage } from "~/domain/message";
import {
  args,
  attemptSignIn,
  call,
  CookieJar,
  getRequest,
  parseSetCookies,
  postRequest,
  signIn,
  startApp,
  type TestApp,
} from "./app-helpers";

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.stop();
});

/** The sign-in refusal of a /login reply: what went wrong, and its message with its values. */
const refusal = (data: { kind?: string; error?: string }) => ({ kind: data.kind, ...splitMessage(data.error ?? "") });

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** The dashboard loader with a cookie: what the next request of a browser would get. */
function openHome(cookie: string | CookieJar, pathname = "/") {
  return call(() => app.m.routes.home.loader(args(getRequest(pathname, { cookie })) as never));
}

describe("sign-in", () => {
  it("redirects to a same-site `to`, sets the session cookie and records the sign-in on the user", async () => {
    const user = await app.createUser({ claims: { type: "retailer", role: "EDITOR" } });
    const before = await app.m.storageIndex.getStorage().users.getOne(user.id);
    expect(before).toMatchObject({ lastSignIn: null, last_auth: null, last_auth_method: null, auth_providers: [], last_refresh_token: null });

    const started = Date.now();
    const outcome = await attemptSignIn(app.m, user.email.toUpperCase(), user.password, { to: "/campaigns?tab=wallets#top" });
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/campaigns?tab=wallets#top");

    const [session] = parseSetCookies(outcome.headers).filter((c) => c.name === "__session");
    expect(session).toBeDefined();
    expect(session.cleared).toBe(false);
    const setCookie = outcome.headers.getSetCookie().find((c) => c.startsWith("__session="))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);

    const after = (await app.m.storageIndex.getStorage().users.getOne(user.id))!;
    expect(after.lastSignIn).toMatch(ISO_INSTANT);
    expect(Date.parse(after.lastSignIn!)).toBeGreaterThanOrEqual(started - 1000);
    expect(after.last_auth).toBe(after.lastSignIn);
    expect(after.last_auth_method).toBe("password");
    expect(after.auth_providers).toEqual(["password"]);
    expect(after.last_refresh_token).toMatch(ISO_INSTANT);
    expect(Date.parse(after.last_refresh_token!)).toBeGreaterThanOrEqual(started - 1000);

    // The cookie opens the console as that user.
    const home = await openHome(new CookieJar().apply(outcome.headers));
    expect(home.status).toBe(200);
    expect(home.data).toMatchObject({ tab: "teams", name: user.firstname });

    // A second sign-in does not list the provider twice.
    await signIn(app.m, user.email, user.password);
    expect((await app.m.storageIndex.getStorage().users.getOne(user.id))!.auth_providers).toEqual(["password"]);
  });

  it.each([
    ["https://evil.example/phish"],
    ["//evil.example"],
    ["/\\evil.example"],
    ["javascript:alert(1)"],
    [""],
    ["/.//evil.example"],
    ["/%2e%2e//evil.example"],
    ["/a/..//evil.example"],
  ])("ignores a `to` of %j and goes home", async (to) => {
    const user = await app.createUser();
    const outcome = await attemptSignIn(app.m, user.email, user.password, { to });
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/");
  });

  it("answers 401 with the reason for a wrong password or an unknown e-mail, and sets no session", async () => {
    const user = await app.createUser();
    const wrong = await attemptSignIn(app.m, user.email, "Not-the-password-1", { clientIp: "10.1.0.1" });
    expect(wrong.status).toBe(401);
    expect(refusal(wrong.data)).toEqual({ kind: "unauthenticated", key: "auth.invalidCredentials" });
    expect(wrong.headers.getSetCookie()).toEqual([]);

    const unknown = await attemptSignIn(app.m, "nobody@retailer.example", "Whatever-pass-1", { clientIp: "10.1.0.1" });
    expect(unknown.status).toBe(401);
    expect(refusal(unknown.data)).toEqual(refusal(wrong.data));
    // The wrong attempt was not recorded as a sign-in.
    expect((await app.m.storageIndex.getStorage().users.getOne(user.id))!.lastSignIn).toBeNull();
  });

  it("answers 400 for a form that is not valid, without checking the password", async () => {
    const outcome = await call(() =>
      app.m.routes.login.action(args(postRequest("/login", { email: "not-an-email", password: "x" })) as never),
    );
    expect(outcome.status).toBe(400);
    // The form's own error, not a sign-in refusal.
    expect(outcome.data.kind).toBeUndefined();
    expect(outcome.data.result.error.email).toEqual(["validation.emailInvalid"]);
  });

  it("stops a guesser at one address after five failures (429, even with the right password), the lock in storage", async () => {
    const user = await app.createUser();
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const outcome = await attemptSignIn(app.m, user.email, `Wrong-password-${i}`, { clientIp: "10.2.0.1" });
      statuses.push(outcome.status);
      if (i === 5) expect(refusal(outcome.data)).toEqual({ kind: "too-many", key: "auth.tooManyAttempts", values: { minutes: 15 } });
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const right = await attemptSignIn(app.m, user.email, user.password, { clientIp: "10.2.0.1" });
    expect(right.status).toBe(429);
    expect(right.headers.getSetCookie()).toEqual([]);
    // Other accounts from that address are not affected.
    const other = await app.createUser();
    expect((await attemptSignIn(app.m, other.email, other.password, { clientIp: "10.2.0.1" })).status).toBe(302);

    // A fresh process (new module instances, storage reopened on the same file) sees the lock.
    const fresh = await app.freshModules();
    const again = await attemptSignIn(fresh, user.email, user.password, { clientIp: "10.2.0.1" });
    expect(again.status).toBe(429);
    expect((await fresh.storageIndex.getStorage().users.getOne(user.id))!.lastSignIn).toBeNull();
  });

  it("a stranger's failures from another address do not keep the user out", async () => {
    const user = await app.createUser();
    for (let i = 1; i <= 8; i++) await attemptSignIn(app.m, user.email, `Wrong-password-${i}`, { clientIp: "10.5.0.66" });
    expect((await attemptSignIn(app.m, user.email, `Wrong-password-9`, { clientIp: "10.5.0.66" })).status).toBe(429);
    const own = await attemptSignIn(app.m, user.email, user.password, { clientIp: "10.5.0.1" });
    expect(own.status).toBe(302);
  });

  it("a guess spread over many addresses is stopped after 20 failures, while the user's own address still signs in", async () => {
    const user = await app.createUser();
    // The user signed in from home before: the address is known to the account.
    expect((await attemptSignIn(app.m, user.email, user.password, { clientIp: "10.6.0.1" })).status).toBe(302);
    const statuses: number[] = [];
    for (let i = 1; i <= 21; i++) {
      statuses.push((await attemptSignIn(app.m, user.email, `Wrong-password-${i}`, { clientIp: `10.6.1.${i}` })).status);
    }
    expect(statuses.slice(0, 19).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(19)).toEqual([429, 429]);
    // A new address, even with the right password, waits: the guesses are bounded.
    const newcomer = await attemptSignIn(app.m, user.email, user.password, { clientIp: "10.6.2.1" });
    expect(newcomer.status).toBe(429);
    expect(refusal(newcomer.data)).toEqual({ kind: "too-many", key: "auth.tooManyAttempts", values: { minutes: 15 } });
    // Home still works.
    expect((await attemptSignIn(app.m, user.email, user.password, { clientIp: "10.6.0.1" })).status).toBe(302);
  });

  it("the sign-in use case needs no request (a SAML or token path calls it too): the user and where they land, or why not", async () => {
    const user = await app.createUser({ status: "pending" });
    const refused = await app.m.signIn.signInWithPassword({ email: user.email, password: "Not-the-password-1" }, "10.8.0.1");
    expect(refused).toEqual({ ok: false, kind: "unauthenticated", reason: "auth.invalidCredentials" });
    const signedIn = await app.m.signIn.signInWithPassword({ email: user.email, password: user.password }, "10.8.0.1");
    // Signed in and their teams loaded: a pending user is active, and lands on the dashboard.
    expect(signedIn).toMatchObject({ ok: true, value: { user: { id: user.id, status: "active" }, landing: "/" } });
    expect((await app.m.storageIndex.getStorage().users.getOne(user.id))!.lastSignIn).toMatch(ISO_INSTANT);
    // An account disabled since is refused by every way in.
    await app.m.storageIndex.getStorage().users.update(user.id, { disabled: true }, { by: "system" });
    const disabled = (await app.m.storageIndex.getStorage().users.getOne(user.id))!;
    expect(await app.m.signIn.completeSignIn(disabled, "saml")).toEqual({ ok: false, kind: "unauthenticated", reason: "auth.disabled" });
  });

  it("refuses a disabled user, even with the right password", async () => {
    const user = await app.createUser({ disabled: true });
    const outcome = await attemptSignIn(app.m, user.email, user.password, { clientIp: "10.3.0.1" });
    expect(outcome.status).toBe(401);
    expect(refusal(outcome.data)).toEqual({ kind: "unauthenticated", key: "auth.disabled" });
    expect(outcome.headers.getSetCookie()).toEqual([]);
    expect((await app.m.storageIndex.getStorage().users.getOne(user.id))!.lastSignIn).toBeNull();
  });

  it("sends a signed-in user who opens /login home", async () => {
    const cookie = await signIn(app.m, "retailer.viewer@example.com", app.demoPassword);
    const loader = await call(() => app.m.routes.login.loader(args(getRequest("/login", { cookie })) as never));
    expect(loader.location).toBe("/");
    const anonymous = await call(() => app.m.routes.login.loader(args(getRequest("/login?reset=1")) as never));
    expect(anonymous).toMatchObject({ status: 200, data: { reset: true } });
  });
});

describe("session re-check on every request", () => {
  async function expectSignedOut(cookie: string, pathname = "/campaigns") {
    const outcome = await call(() => app.m.routes.campaigns.loader(args(getRequest(pathname, { cookie })) as never));
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/login?to=%2Fcampaigns");
    const cleared = parseSetCookies(outcome.headers).find((c) => c.name === "__session");
    expect(cleared?.cleared).toBe(true);
  }

  async function expectSignedIn(cookie: string) {
    const outcome = await call(() => app.m.routes.campaigns.loader(args(getRequest("/campaigns", { cookie })) as never));
    expect(outcome.status).toBe(200);
  }

  it("signs a disabled user out at the next request and clears the cookie", async () => {
    const user = await app.createUser();
    const cookie = await signIn(app.m, user.email, user.password);
    await expectSignedIn(cookie);
    await app.m.storageIndex.getStorage().users.update(user.id, { disabled: true }, { by: "operator@example.com" });
    await expectSignedOut(cookie);
  });

  it("signs a user out when their claims role changes", async () => {
    const user = await app.createUser({ claims: { type: "retailer", role: "EDITOR" } });
    const cookie = await signIn(app.m, user.email, user.password);
    await expectSignedIn(cookie);
    await app.m.storageIndex.getStorage().users.update(user.id, { claims: { type: "retailer", role: "VIEWER" } }, { by: "operator@example.com" });
    await expectSignedOut(cookie);
    // Signing in again gives a working session with the new role.
    await expectSignedIn(await signIn(app.m, user.email, user.password));
  });

  it("signs a user out when their account type changes", async () => {
    const user = await app.createUser({ claims: { type: "retailer", role: "ADMIN" } });
    const cookie = await signIn(app.m, user.email, user.password);
    await expectSignedIn(cookie);
    await app.m.storageIndex.getStorage().users.update(user.id, { claims: { type: "supplier", role: "ADMIN" } }, { by: "operator@example.com" });
    await expectSignedOut(cookie);
  });

  it("keeps a session whose user changed something else (display name)", async () => {
    const user = await app.createUser();
    const cookie = await signIn(app.m, user.email, user.password);
    await app.m.storageIndex.getStorage().users.update(user.id, { displayName: "Renamed Person" }, { by: user.email });
    await expectSignedIn(cookie);
  });

  it("after a password change on /profile, other sessions end and the changing session keeps working", async () => {
    const user = await app.createUser({ claims: { type: "retailer", role: "VIEWER" } });
    const laptop = new CookieJar(await signIn(app.m, user.email, user.password));
    const phone = await signIn(app.m, user.email, user.password);
    await expectSignedIn(laptop.header());
    await expectSignedIn(phone);

    const newPassword = "Brand-new-password-7";
    const change = await call(() =>
      app.m.routes.profile.action(
        args(
          postRequest(
            "/profile",
            { intent: "change-password", currentPassword: user.password, password: newPassword, confirmPassword: newPassword },
            { cookie: laptop },
          ),
        ) as never,
      ),
    );
    expect(change.status).toBe(302);
    expect(change.location).toBe("/profile");
    laptop.apply(change.headers);

    await expectSignedOut(phone);
    await expectSignedIn(laptop.header());
    const profile = await call(() => app.m.routes.profile.loader(args(getRequest("/profile", { cookie: laptop })) as never));
    expect(profile.status).toBe(200);
    expect(profile.data.profile.email).toBe(user.email);

    // The new password signs in; the old one no longer does.
    expect((await attemptSignIn(app.m, user.email, user.password, { clientIp: "10.4.0.1" })).status).toBe(401);
    await expectSignedIn(await signIn(app.m, user.email, newPassword));
  });

  it("refuses a password change with a wrong current password and keeps the sessions", async () => {
    const user = await app.createUser();
    const cookie = await signIn(app.m, user.email, user.password);
    const other = await signIn(app.m, user.email, user.password);
    const change = await call(() =>
      app.m.routes.profile.action(
        args(
          postRequest(
            "/profile",
            { intent: "change-password", currentPassword: "Not-my-password-1", password: "Another-pass-word-2", confirmPassword: "Another-pass-word-2" },
            { cookie },
          ),
        ) as never,
      ),
    );
    expect(change.status).toBe(400);
    expect(change.data.result.error.currentPassword).toEqual(["password.wrongCurrent"]);
    await expectSignedIn(other);
    await expectSignedIn(cookie);
  });

  it("locks the password change after five wrong current passwords: even the right one is then refused, and the password stays", async () => {
    const user = await app.createUser();
    const cookie = await signIn(app.m, user.email, user.password);
    const change = (currentPassword: string) =>
      call(() =>
        app.m.routes.profile.action(
          args(postRequest("/profile", { intent: "change-password", currentPassword, password: "Another-pass-word-2", confirmPassword: "Another-pass-word-2" }, { cookie })) as never,
        ),
      );
    for (let i = 1; i <= 4; i++) expect((await change(`Not-my-password-${i}`)).data.result.error.currentPassword).toEqual(["password.wrongCurrent"]);
    const fifth = await change("Not-my-password-5");
    expect(fifth.status).toBe(429);
    expect(fifth.data.result.error.currentPassword).toEqual(['password.tooManyAttempts::{"minutes":15}']);
    // Locked: the right password is not even checked, and nothing changes.
    const right = await change(user.password);
    expect(right.status).toBe(429);
    expect(right.data.result.error.currentPassword[0]).toMatch(/^password\.tooManyAttempts/);
    await expectSignedIn(cookie);
    await expectSignedIn(await signIn(app.m, user.email, user.password));
  });

  it("signs out on /logout: the cookie is cleared", async () => {
    const cookie = await signIn(app.m, "supplier.viewer@example.com", app.demoPassword);
    const { action } = await import("~/routes/logout");
    const outcome = await call(() => action(args(postRequest("/logout", {}, { cookie })) as never));
    expect(outcome.location).toBe("/login");
    expect(parseSetCookies(outcome.headers).find((c) => c.name === "__session")?.cleared).toBe(true);
  });
});

describe("sessions live on the server", () => {
  const openCampaigns = (m: typeof app.m, cookie: string) =>
    call(() => m.routes.campaigns.loader(args(getRequest("/campaigns", { cookie })) as never));
  const logoutWith = async (m: typeof app.m, cookie: string) => {
    const { action } = await import("~/routes/logout");
    return call(() => action(args(postRequest("/logout", {}, { cookie })) as never));
  };

  it("keeps only a random id in the cookie, nothing of the user", async () => {
    const user = await app.createUser();
    const outcome = await attemptSignIn(app.m, user.email, user.password);
    const value = decodeURIComponent(new CookieJar().apply(outcome.headers).header().split("__session=")[1].split(";")[0]);
    const payload = value.slice(0, value.lastIndexOf("."));
    const decoded = Buffer.from(payload, "base64").toString("utf8");
    expect(decoded).not.toContain(user.id);
    expect(decoded).not.toContain("claimsRole");
  });

  it("a cookie replayed after sign-out opens nothing", async () => {
    const user = await app.createUser();
    const cookie = await signIn(app.m, user.email, user.password);
    expect((await openCampaigns(app.m, cookie)).status).toBe(200);
    await logoutWith(app.m, cookie);
    const replay = await openCampaigns(app.m, cookie);
    expect(replay.status).toBe(302);
    expect(replay.location).toBe("/login?to=%2Fcampaigns");
    expect(parseSetCookies(replay.headers).find((c) => c.name === "__session")?.cleared).toBe(true);
  });

  it("a sign-out on one server instance ends the session on another", async () => {
    const user = await app.createUser();
    const cookie = await signIn(app.m, user.email, user.password);
    const other = await app.freshModules();
    expect((await openCampaigns(other, cookie)).status).toBe(200);
    await logoutWith(app.m, cookie);
    expect((await openCampaigns(other, cookie)).location).toBe("/login?to=%2Fcampaigns");
  });

  it("a disabled user's sessions end for good: enabling the account again does not revive them", async () => {
    const user = await app.createUser();
    const cookie = await signIn(app.m, user.email, user.password);
    const users = app.m.storageIndex.getStorage().users;
    await users.update(user.id, { disabled: true }, { by: "operator@example.com" });
    expect((await openCampaigns(app.m, cookie)).status).toBe(302);
    await users.update(user.id, { disabled: false }, { by: "operator@example.com" });
    expect((await openCampaigns(app.m, cookie)).status).toBe(302);
  });

  it("endUserSessions ends every session of a user at once (for disabling an account)", async () => {
    const user = await app.createUser();
    const laptop = await signIn(app.m, user.email, user.password);
    const phone = await signIn(app.m, user.email, user.password);
    const bystander = await app.createUser();
    const theirs = await signIn(app.m, bystander.email, bystander.password);
    await app.m.session.endUserSessions(user.id);
    expect((await openCampaigns(app.m, laptop)).status).toBe(302);
    expect((await openCampaigns(app.m, phone)).status).toBe(302);
    expect((await openCampaigns(app.m, theirs)).status).toBe(200);
  });

  it("signing in gives a new session id, and the one the browser had before ends", async () => {
    const user = await app.createUser();
    const first = await signIn(app.m, user.email, user.password);
    const again = await attemptSignIn(app.m, user.email, user.password, { cookie: first });
    // /login sends a signed-in user home first; a stale or planted id is replaced, never reused.
    expect(again.location).toBe("/");
    await logoutWith(app.m, first);
    const planted = await attemptSignIn(app.m, user.email, user.password, { cookie: first });
    const second = new CookieJar().apply(planted.headers).header();
    expect(second).not.toBe(first);
    expect((await openCampaigns(app.m, second)).status).toBe(200);
    expect((await openCampaigns(app.m, first)).status).toBe(302);
  });
});

