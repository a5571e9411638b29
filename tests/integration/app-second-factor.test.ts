/**
 * The operators' second factor (issue 12, ADR 30) through the real loaders and actions on a
 * temporary SQLite database: enrolment on /profile/second-factor, the pending session of the
 * sign-in's second step and its throttle, replayed and recovery codes, the pending session's
 * expiry, enforcement with the setting on and off, the demo operator's exemption, and a wallet
 * entry posted while logged as someone naming both identities.
 */
import { TOTP, Secret } from "otpauth";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { args, attemptSignIn, call, CookieJar, getRequest, postRequest, startApp, type AppUser, type TestApp } from "./app-helpers";
import { makeWalletInput } from "../factories";

let app: TestApp;
let routes: {
  step: typeof import("~/routes/login_.second-factor");
  enrol: typeof import("~/routes/profile_.second-factor");
  users: typeof import("~/routes/users._index");
  user: typeof import("~/routes/users.$userId");
  wallets: typeof import("~/services/wallets.server");
};

beforeAll(async () => {
  app = await startApp();
  routes = {
    step: await import("~/routes/login_.second-factor"),
    enrol: await import("~/routes/profile_.second-factor"),
    users: await import("~/routes/users._index"),
    user: await import("~/routes/users.$userId"),
    wallets: await import("~/services/wallets.server"),
  };
});
afterAll(async () => {
  await app?.stop();
});
afterEach(async () => {
  vi.useRealTimers();
  await setRequired(true);
});

const storage = () => app.m.storageIndex.getStorage();
const ENROL = "/profile/second-factor";
const STEP = "/login/second-factor";
let ip = 0;
/** A fresh client address per test, so one test's failures never throttle another's. */
const nextIp = () => `10.77.0.${++ip}`;

async function setRequired(on: boolean) {
  const config = await storage().config.get();
  await storage().config.update({ access: { staffEmailDomain: config.access?.staffEmailDomain ?? "", operatorTotpRequired: on } }, { by: "system" });
  app.m.config.forgetLiveConfig();
}

const newOperator = () => app.createUser({ claims: { type: "operator", role: "ADMIN" }, roleByTeam: {}, secondFactorExempt: false });

/** The password step: the outcome, and the browser's cookies after it. */
async function password(user: AppUser, clientIp = nextIp(), to?: string) {
  const outcome = await attemptSignIn(app.m, user.email, user.password, { clientIp, to });
  return { outcome, jar: new CookieJar().apply(outcome.headers) };
}

async function giveCode(jar: CookieJar, code: string, clientIp = "10.77.9.9") {
  const outcome = await call(() => routes.step.action(args(postRequest(STEP, { intent: "second-factor-code", code }, { cookie: jar }), clientIp) as never));
  jar.apply(outcome.headers);
  return outcome;
}

function open(jar: CookieJar, path: string) {
  const loaders: Record<string, (a: never) => unknown> = {
    "/": app.m.routes.home.loader as never,
    "/campaigns": app.m.routes.campaigns.loader as never,
    "/profile": app.m.routes.profile.loader as never,
    "/settings": app.m.routes.settings.loader as never,
    "/health": app.m.routes.health.loader as never,
    "/users": routes.users.loader as never,
    [ENROL]: routes.enrol.loader as never,
    [STEP]: routes.step.loader as never,
  };
  return call(() => loaders[path]!(args(getRequest(path, { cookie: jar })) as never));
}

function postEnrol(jar: CookieJar, form: Record<string, string>) {
  return call(async () => {
    const outcome = await routes.enrol.action(args(postRequest(ENROL, form, { cookie: jar })) as never);
    if (outcome instanceof Response) jar.apply(outcome.headers);
    return outcome;
  });
}

const codeAt = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({ timestamp: at });

/** Signs an operator in (setting on: lands on enrolment), enrols, and returns the key and codes. */
async function enrolled(user: AppUser) {
  const { outcome, jar } = await password(user);
  expect(outcome.location).toBe(ENROL);
  expect((await postEnrol(jar, { intent: "start-second-factor" })).location).toBe(ENROL);
  const shown = await open(jar, ENROL);
  const secret = String(shown.data.enrolment.secretText).replaceAll(" ", "");
  const confirmed = await postEnrol(jar, { intent: "confirm-second-factor", code: codeAt(secret, Date.now()) });
  expect(confirmed.status).toBe(302);
  const recoveryCodes: string[] = (await open(jar, ENROL)).data.recoveryCodes;
  return { jar, secret, recoveryCodes };
}

const SCREENS = ["/", "/campaigns", "/profile", "/settings", "/health", "/users"];

describe("enrolment", () => {
  it("makes the key on the server, shows it as text, otpauth link and QR code, needs a first right code, and shows ten recovery codes once (kept hashed)", async () => {
    const user = await newOperator();
    const { jar } = await password(user);
    expect((await open(jar, ENROL)).data).toMatchObject({ status: { mayEnrol: true, enrolled: false, required: true }, enrolment: null });
    await postEnrol(jar, { intent: "start-second-factor" });
    const shown = await open(jar, ENROL);
    expect(shown.headers.get("Cache-Control")).toBe("no-store");
    const { secretText, uri, qrSvg } = shown.data.enrolment;
    const secret = secretText.replaceAll(" ", "");
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toMatch(/^otpauth:\/\/totp\/Ads%20console:/);
    expect(uri).toContain(`secret=${secret}`);
    expect(qrSvg).toMatch(/^<svg/);
    // Nothing is saved on the user until a code confirms the key.
    expect((await storage().users.getOne(user.id))!.totpSecret ?? null).toBeNull();

    const wrong = await postEnrol(jar, { intent: "confirm-second-factor", code: codeAt(secret, Date.now() - 10 * 60_000) });
    expect(wrong.status).toBe(400);
    expect(wrong.data.result.error.code).toEqual(["secondFactor:errors.invalidCode"]);

    const right = await postEnrol(jar, { intent: "confirm-second-factor", code: codeAt(secret, Date.now()) });
    expect(right.status).toBe(302);
    const codes: string[] = (await open(jar, ENROL)).data.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    codes.forEach((c) => expect(c).toMatch(/^[2-9a-z]{5}-[2-9a-z]{5}$/));
    // Shown once.
    expect((await open(jar, ENROL)).data.recoveryCodes).toEqual([]);
    const stored = (await storage().users.getOne(user.id))!;
    expect(stored.totpSecret).toBe(secret);
    expect(stored.recoveryCodeHashes).toHaveLength(10);
    stored.recoveryCodeHashes!.forEach((h) => expect(h).toMatch(/^[0-9a-f]{64}$/));
    expect(JSON.stringify(stored)).not.toContain(codes[0]!.replace("-", ""));
    // The enrolling session goes on: the console is open.
    expect((await open(jar, "/campaigns")).status).toBe(200);
  });

  it("is for operators' own accounts only", async () => {
    const retailer = await app.createUser({ claims: { type: "retailer", role: "ADMIN" }, roleByTeam: {} });
    const { jar } = await password(retailer);
    expect((await open(jar, ENROL)).status).toBe(403);
    expect((await postEnrol(jar, { intent: "start-second-factor" })).status).toBe(403);
    expect((await open(jar, "/profile")).data.secondFactor.mayEnrol).toBe(false);
  });

  it("makes new recovery codes and turns off only with the password, and only where nothing requires it", async () => {
    const user = await newOperator();
    const { jar, recoveryCodes } = await enrolled(user);
    const badPassword = await postEnrol(jar, { intent: "regenerate-recovery-codes", password: "Not-the-password-1" });
    expect(badPassword.status).toBe(400);
    expect(badPassword.data.result.error.password).toEqual(["secondFactor:errors.wrongPassword"]);
    expect((await postEnrol(jar, { intent: "regenerate-recovery-codes", password: user.password })).status).toBe(302);
    const fresh: string[] = (await open(jar, ENROL)).data.recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(recoveryCodes[0]);
    // An old recovery code no longer signs in; a new one does.
    const old = await password(user);
    expect((await giveCode(old.jar, recoveryCodes[0]!)).status).toBe(400);
    expect((await giveCode(old.jar, fresh[0]!)).location).toBe("/");

    // Required: no turning off, whatever the password.
    expect((await postEnrol(jar, { intent: "disable-second-factor", password: user.password })).status).toBe(403);
    expect((await storage().users.getOne(user.id))!.totpSecret).toBeTruthy();
    await setRequired(false);
    expect((await postEnrol(jar, { intent: "disable-second-factor", password: "Not-the-password-1" })).status).toBe(400);
    const off = await postEnrol(jar, { intent: "disable-second-factor", password: user.password });
    expect(off.location).toBe("/profile");
    expect((await storage().users.getOne(user.id))!).toMatchObject({ totpSecret: null, recoveryCodeHashes: [] });
    expect((await password(user)).outcome.location).toBe("/");
  });
});

describe("the password that confirms a change", () => {
  it("locks new recovery codes and turning off after five wrong passwords, the right one refused while locked", async () => {
    const user = await newOperator();
    const { jar } = await enrolled(user);
    await setRequired(false);
    for (let i = 1; i <= 4; i++) {
      const intent = i % 2 ? "regenerate-recovery-codes" : "disable-second-factor";
      expect((await postEnrol(jar, { intent, password: `Not-the-password-${i}` })).data.result.error.password).toEqual(["secondFactor:errors.wrongPassword"]);
    }
    const fifth = await postEnrol(jar, { intent: "disable-second-factor", password: "Not-the-password-5" });
    expect(fifth.status).toBe(429);
    expect(fifth.data.result.error.password).toEqual(['password.tooManyAttempts::{"minutes":15}']);
    expect((await postEnrol(jar, { intent: "disable-second-factor", password: user.password })).status).toBe(429);
    expect((await postEnrol(jar, { intent: "regenerate-recovery-codes", password: user.password })).status).toBe(429);
    expect((await storage().users.getOne(user.id))!.totpSecret).toBeTruthy();
    // The lock is over after 15 minutes: the right password works again.
    vi.useFakeTimers({ now: Date.now() + 16 * 60_000, toFake: ["Date"] });
    expect((await postEnrol(jar, { intent: "disable-second-factor", password: user.password })).location).toBe("/profile");
  });
});

describe("the sign-in's second step", () => {
  it("gives a pending session after the password that reaches no screen but the code form, then the code signs in where the user was going", async () => {
    const user = await newOperator();
    const { secret } = await enrolled(user);
    const { outcome, jar } = await password(user, nextIp(), "/campaigns?status=running");
    expect(outcome.location).toBe(STEP);
    // Nothing recorded yet: the sign-in is not complete.
    const before = (await storage().users.getOne(user.id))!.lastSignIn;
    for (const screen of SCREENS) {
      const opened = await open(jar, screen);
      expect(opened.location, screen).toBe(STEP);
    }
    expect((await postEnrol(jar, { intent: "start-second-factor" })).location).toBe(STEP);
    const root = await call(() => app.m.routes.root.loader(args(getRequest("/", { cookie: jar })) as never));
    expect(root.data.user).toBeNull();
    expect((await open(jar, STEP)).data).toEqual({ expired: false, email: user.email });

    const done = await giveCode(jar, codeAt(secret, Date.now() + 30_000));
    expect(done.location).toBe("/campaigns?status=running");
    expect((await open(jar, "/campaigns")).status).toBe(200);
    expect((await storage().users.getOne(user.id))!.lastSignIn).not.toBe(before);
    // Signed in: the code form sends home.
    expect((await open(jar, STEP)).location).toBe("/");
  });

  it("refuses a wrong code, then throttles: locked after five, even the right code is not checked", async () => {
    const user = await newOperator();
    const { secret } = await enrolled(user);
    const { jar } = await password(user);
    const address = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await giveCode(jar, "000000", address)).status);
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    const locked = await giveCode(jar, codeAt(secret, Date.now() + 30_000), address);
    expect(locked.status).toBe(429);
    expect(locked.data.error).toMatch(/^auth\.tooManyAttempts/);
    expect((await open(jar, "/")).location).toBe(STEP);
  });

  it("never accepts a code twice (replayed, or an earlier step)", async () => {
    const user = await newOperator();
    const { secret } = await enrolled(user);
    const code = codeAt(secret, Date.now() + 30_000);
    const first = await password(user);
    expect((await giveCode(first.jar, code)).location).toBe("/");
    const replay = await password(user);
    const refused = await giveCode(replay.jar, code);
    expect(refused.status).toBe(400);
    expect(refused.data.result.error.code).toEqual(["secondFactor:errors.invalidCode"]);
    // The step the enrolment used is spent too.
    expect((await giveCode(replay.jar, codeAt(secret, Date.now()))).status).toBe(400);
    expect((await open(replay.jar, "/")).location).toBe(STEP);
  });

  it("accepts each recovery code once, in any case and spacing", async () => {
    const user = await newOperator();
    const { recoveryCodes } = await enrolled(user);
    const first = await password(user);
    expect((await giveCode(first.jar, ` ${recoveryCodes[3]!.toUpperCase()} `)).location).toBe("/");
    expect((await storage().users.getOne(user.id))!.recoveryCodeHashes).toHaveLength(9);
    const again = await password(user);
    expect((await giveCode(again.jar, recoveryCodes[3]!)).status).toBe(400);
  });

  it("expires: a code given too late is refused and the session reaches nothing", async () => {
    const user = await newOperator();
    const { secret } = await enrolled(user);
    const { jar } = await password(user);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 6 * 60_000);
    expect((await open(jar, STEP)).data).toEqual({ expired: true, email: null });
    const late = await giveCode(jar, codeAt(secret, Date.now()));
    expect(late.status).toBe(401);
    expect(late.data.error).toBe("secondFactor:errors.expired");
    expect((await open(jar, "/")).location).toBe("/login");
  });

  it("is decided by the sign-in use case, so a SAML sign-in asks for the code too, recording nothing before it", async () => {
    const user = await newOperator();
    await enrolled(user);
    const known = (await storage().users.getOne(user.id))!;
    const step = await app.m.signIn.continueSignIn(known, "saml");
    expect(step).toMatchObject({ ok: true, value: { kind: "second-factor", method: "saml", user: { id: user.id } } });
    expect((await storage().users.getOne(user.id))!.last_auth_method).toBe("password");
  });
});

describe("enforcement", () => {
  it("with the setting on (the default), an operator without a second factor is sent to enrol before anything else; off, signs in with the password", async () => {
    expect((await storage().config.get()).access?.operatorTotpRequired ?? true).toBe(true);
    const user = await newOperator();
    const { outcome, jar } = await password(user, nextIp(), "/campaigns");
    expect(outcome.location).toBe(ENROL);
    for (const screen of SCREENS) expect((await open(jar, screen)).location, screen).toBe(ENROL);
    expect((await open(jar, ENROL)).status).toBe(200);
    const root = await call(() => app.m.routes.root.loader(args(getRequest(ENROL, { cookie: jar })) as never));
    expect(root.data.menu).toEqual([]);

    await setRequired(false);
    // The same session is free at once, and a new sign-in needs the password only.
    expect((await open(jar, "/campaigns")).status).toBe(200);
    const off = await password(user);
    expect(off.outcome.location).toBe("/");
    expect((await open(off.jar, "/health")).status).toBe(200);

    // Turned on again: the open session is sent to enrol at its next request.
    await setRequired(true);
    expect((await open(off.jar, "/health")).location).toBe(ENROL);
  });

  it("a session that never gave a code its user now has becomes a pending sign-in", async () => {
    await setRequired(false);
    const user = await newOperator();
    const { jar: elsewhere } = await password(user);
    expect((await open(elsewhere, "/")).status).toBe(200);
    await setRequired(true);
    await enrolled(user);
    expect((await open(elsewhere, "/campaigns")).location).toBe(STEP);
  });

  it("exempts the demo operator only through its setting: without it, the demo operator must enrol too", async () => {
    const demo = (await storage().users.getByEmail("operator@example.com"))!;
    expect(demo.secondFactorExempt).toBe(true);
    const exempt = await attemptSignIn(app.m, demo.email, app.demoPassword, { clientIp: nextIp() });
    expect(exempt.location).toBe("/");
    await storage().users.update(demo.id, { secondFactorExempt: false }, { by: "system" });
    try {
      const required = await attemptSignIn(app.m, demo.email, app.demoPassword, { clientIp: nextIp() });
      expect(required.location).toBe(ENROL);
      expect((await open(new CookieJar().apply(required.headers), "/")).location).toBe(ENROL);
    } finally {
      await storage().users.update(demo.id, { secondFactorExempt: true }, { by: "system" });
    }
  });
});

describe("an operator removing another's second factor (a lost phone)", () => {
  function postUser(jar: CookieJar, userId: string) {
    const request = postRequest(`/users/${userId}`, { intent: "reset-second-factor" }, { cookie: jar });
    return call(() => routes.user.action({ ...args(request), params: { userId } } as never));
  }
  const openUser = (jar: CookieJar, userId: string) =>
    call(() => routes.user.loader({ ...args(getRequest(`/users/${userId}`, { cookie: jar })), params: { userId } } as never));

  it("is offered to an operator on someone who has one, never on oneself; the user then enrols again", async () => {
    const lost = await newOperator();
    const { jar: lostJar } = await enrolled(lost);
    const helper = await newOperator();
    const { jar } = await enrolled(helper);
    expect((await openUser(jar, lost.id)).data.resetSecondFactor).toBe(true);
    expect((await openUser(jar, helper.id)).data.resetSecondFactor).toBe(false);
    expect((await postUser(jar, helper.id)).status).toBe(403);
    expect((await storage().users.getOne(helper.id))!.totpSecret).toBeTruthy();

    const done = await postUser(jar, lost.id);
    expect(done.location).toBe(`/users/${lost.id}`);
    expect((await storage().users.getOne(lost.id))!).toMatchObject({ totpSecret: null, recoveryCodeHashes: [] });
    const audit = (await storage().audit.list({ entity: "user", entityId: lost.id, limit: 20 })).items;
    expect(audit.find((e) => e.changes.some((c) => c.field === "totpSecret") && e.by === helper.email)).toBeTruthy();
    expect((await openUser(jar, lost.id)).data.resetSecondFactor).toBe(false);
    // Their open sessions end (a lost phone may hold one); their next sign-in is sent to enrol.
    expect((await open(lostJar, "/campaigns")).location).toBe("/login?to=%2Fcampaigns");
    expect((await password(lost)).outcome.location).toBe(ENROL);
  });

  it("is refused to a retailer administrator", async () => {
    const lost = await newOperator();
    await enrolled(lost);
    const admin = await password(await app.createUser({ claims: { type: "retailer", role: "ADMIN" }, roleByTeam: {} }));
    expect([403, 404]).toContain((await postUser(admin.jar, lost.id)).status);
    expect((await storage().users.getOne(lost.id))!.totpSecret).toBeTruthy();
  });
});

describe("'Log as' and the wallet ledger", () => {
  it("an entry posted while logged as someone records both identities", async () => {
    const operator = (await storage().users.getByEmail("operator@example.com"))!;
    const supplier = (await storage().users.getByEmail("supplier.admin@example.com"))!;
    const teamId = Object.keys(supplier.roleByTeam)[0]!;
    const wallet = await storage().wallets.create(teamId, makeWalletInput({ label: "Log as wallet" }), { by: "system" });
    const actingAs = { ...supplier, loggedAsBy: { id: operator.id, email: operator.email, displayName: operator.displayName, claims: operator.claims } };
    const value = { type: "credit" as const, amount: 2_500, reference: "PO-1", comment: "", idempotencyKey: "log-as-1" };
    const posted = await routes.wallets.postEntry(actingAs, wallet, value);
    expect(posted.ok && posted.value.entry).toMatchObject({ by: supplier.email, realBy: operator.email });
    const own = await routes.wallets.postEntry(supplier, wallet, { ...value, idempotencyKey: "own-1" });
    expect(own.ok && own.value.entry.realBy).toBeUndefined();
    const reversed = await routes.wallets.reverseEntry(actingAs, wallet, (posted.ok && posted.value.entry.id) || "", "wrong team");
    expect(reversed.ok && reversed.value.entry).toMatchObject({ by: supplier.email, realBy: operator.email });
  });
});
