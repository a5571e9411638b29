/**
 * Forgot password and the reset link (/forgot-password, /auth-management): mail through a real
 * local SMTP server or the outbox folder, single-use and expiring tokens, password history.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  args,
  attemptSignIn,
  call,
  decodeRawMail,
  getRequest,
  postRequest,
  readOutbox,
  resetLinkIn,
  signIn,
  startApp,
  type AppUser,
  type TestApp,
} from "./app-helpers";
import { catchSmtp } from "./smtp-catcher";

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.stop();
});

let requests = 0;
/** Each request from its own address unless one is given (the per-address limit is tested below). */
function forgot(email: string, headers: Record<string, string> = {}, clientIp = `10.9.${Math.floor(++requests / 250)}.${requests % 250}`) {
  return call(() => app.m.routes.forgotPassword.action(args(postRequest("/forgot-password", { email }, { headers }), clientIp) as never));
}

function openLink(url: string) {
  return call(() => app.m.routes.authManagement.loader(args(getRequest(url)) as never));
}

function submitReset(oobCode: string, password: string, confirmPassword = password) {
  return call(() =>
    app.m.routes.authManagement.action(args(postRequest("/auth-management", { oobCode, password, confirmPassword })) as never),
  );
}

/** The reset mails written to the outbox for one address, newest last. */
function outboxFor(email: string) {
  return readOutbox(app.outboxDir).filter((mail) => mail.to.includes(email));
}

/** Asks for a reset through the route and returns the link of the mail written to the outbox. */
async function requestLink(user: AppUser) {
  const before = outboxFor(user.email).length;
  const outcome = await forgot(user.email);
  expect(outcome.status).toBe(200);
  const mails = outboxFor(user.email);
  expect(mails).toHaveLength(before + 1);
  return resetLinkIn(mails.at(-1)!.text);
}

const formErrors = (outcome: { data: any }) => outcome.data.result.error?.[""] ?? [];

describe("forgot password", () => {
  it("answers the same for a known and an unknown e-mail, and mails only the known one", async () => {
    const user = await app.createUser();
    const filesBefore = readOutbox(app.outboxDir).length;

    const known = await forgot(user.email);
    const afterKnown = readOutbox(app.outboxDir).length;
    const unknown = await forgot("nobody.at.all@retailer.example");
    const afterUnknown = readOutbox(app.outboxDir).length;

    expect(known.status).toBe(200);
    expect(known.data.sent).toBe(true);
    expect(unknown.status).toBe(known.status);
    expect(unknown.data).toEqual(known.data);
    expect(unknown.headers.getSetCookie()).toEqual(known.headers.getSetCookie());
    expect(afterKnown).toBe(filesBefore + 1);
    expect(afterUnknown).toBe(afterKnown);
  });

  it("sends nothing to a disabled account, with the same answer", async () => {
    const user = await app.createUser({ disabled: true });
    const outcome = await forgot(user.email);
    expect(outcome.status).toBe(200);
    expect(outcome.data.sent).toBe(true);
    expect(outboxFor(user.email)).toEqual([]);
  });

  it("without SMTP_URL writes the mail, with its link, to DATA_DIR/outbox", async () => {
    const user = await app.createUser({ displayName: "Nora Outbox" });
    await forgot(user.email);
    const [mail] = outboxFor(user.email);
    expect(mail.file).toMatch(/\.json$/);
    expect(mail.subject).toBe("Reset your Ads console password");
    expect(mail.text).toContain("Hello Nora Outbox,");
    expect(mail.text).toContain("within 60 minutes");
    const link = resetLinkIn(mail.text);
    expect(mail.text).toContain(`http://console.test/auth-management?mode=resetPassword&oobCode=${encodeURIComponent(link.token)}`);
    expect(link.token.length).toBeGreaterThanOrEqual(40);
  });

  it("writes the mail in the user's language", async () => {
    const user = await app.createUser({ locale: "fr", displayName: "Zoé Martin" });
    await forgot(user.email, { "Accept-Language": "en-GB" });
    const [mail] = outboxFor(user.email);
    expect(mail.subject).toBe("Réinitialisez votre mot de passe de la console publicitaire");
    expect(mail.text).toContain("Bonjour Zoé Martin,");
  });

  it("sends at most three e-mails to one account in 15 minutes, whatever the addresses, with the same answer", async () => {
    const user = await app.createUser();
    const outcomes = [];
    for (let i = 0; i < 8; i++) outcomes.push(await forgot(user.email));
    expect(outboxFor(user.email)).toHaveLength(3);
    for (const outcome of outcomes) expect(outcome).toMatchObject({ status: 200, data: { sent: true } });
    // Another account is not held back.
    const other = await app.createUser();
    await forgot(other.email);
    expect(outboxFor(other.email)).toHaveLength(1);
  });

  it("answers one address at most ten times in 15 minutes, known accounts or not, with the same answer", async () => {
    const users = await Promise.all(Array.from({ length: 3 }, () => app.createUser()));
    const outcomes = [];
    for (let i = 0; i < 8; i++) outcomes.push(await forgot(`nobody-${i}@retailer.example`, {}, "10.8.0.1"));
    for (const user of users) outcomes.push(await forgot(user.email, {}, "10.8.0.1"));
    expect(users.map((u) => outboxFor(u.email).length)).toEqual([1, 1, 0]);
    for (const outcome of outcomes) expect(outcome).toMatchObject({ status: 200, data: { sent: true } });
    // From another address the third user gets the mail.
    await forgot(users[2].email, {}, "10.8.0.2");
    expect(outboxFor(users[2].email)).toHaveLength(1);
  });

  it("answers 400 to an e-mail that is not valid, and sends nothing", async () => {
    const before = readOutbox(app.outboxDir).length;
    const outcome = await forgot("not an e-mail");
    expect(outcome.status).toBe(400);
    expect(outcome.data.sent).toBe(false);
    expect(readOutbox(app.outboxDir)).toHaveLength(before);
  });

  it("sends a signed-in user home", async () => {
    const cookie = await signIn(app.m, "retailer.viewer@example.com", app.demoPassword);
    const outcome = await call(() => app.m.routes.forgotPassword.loader(args(getRequest("/forgot-password", { cookie })) as never));
    expect(outcome.location).toBe("/");
  });
});

describe("SMTP", () => {
  const received = catchSmtp(() => app);

  it("delivers the reset mail with a working link, and writes nothing to the outbox", async () => {
    const user = await app.createUser({ displayName: "Sam Smtp" });
    const outcome = await forgot(user.email);
    expect(outcome.status).toBe(200);
    expect(outcome.data.sent).toBe(true);

    const mail = received.find((m) => m.to.includes(user.email));
    expect(mail, "the SMTP server received the mail").toBeDefined();
    expect(mail!.from).toBe("no-reply@example.com");
    const { headers, text } = decodeRawMail(mail!.raw);
    expect(headers.to).toContain(user.email);
    expect(headers.subject).toBe("Reset your Ads console password");
    expect(text).toContain("Hello Sam Smtp,");
    expect(outboxFor(user.email)).toEqual([]);

    const link = resetLinkIn(text);
    expect((await openLink(link.url)).data).toEqual({ oobCode: link.token, problem: null });
    const reset = await submitReset(link.token, "Smtp-new-password-1");
    expect(reset.location).toBe("/login?reset=1");
    expect(await signIn(app.m, user.email, "Smtp-new-password-1")).toContain("__session=");
  });

  it("sends nothing for an unknown e-mail", async () => {
    const before = received.length;
    const outcome = await forgot("unknown.smtp@retailer.example");
    expect(outcome.data.sent).toBe(true);
    expect(received).toHaveLength(before);
  });
});

describe("the reset link", () => {
  it("lifts the account-wide sign-in lock a spread guess left (ADR 14): the user signs in from a new address", async () => {
    const user = await app.createUser();
    for (let i = 1; i <= 20; i++) await attemptSignIn(app.m, user.email, `Wrong-password-${i}`, { clientIp: `10.7.1.${i}` });
    expect((await attemptSignIn(app.m, user.email, user.password, { clientIp: "10.7.2.1" })).status).toBe(429);
    const link = await requestLink(user);
    expect((await submitReset(link.token, "After-the-storm-1")).status).toBe(302);
    expect((await attemptSignIn(app.m, user.email, "After-the-storm-1", { clientIp: "10.7.2.1" })).status).toBe(302);
  });

  it("works once: the password changes, sessions end, and a second use answers token.used", async () => {
    const user = await app.createUser();
    const oldSession = await signIn(app.m, user.email, user.password);
    const link = await requestLink(user);

    expect(await openLink(link.url)).toMatchObject({ status: 200, data: { oobCode: link.token, problem: null } });
    const first = await submitReset(link.token, "First-new-password-1");
    expect(first.status).toBe(302);
    expect(first.location).toBe("/login?reset=1");
    expect(first.headers.getSetCookie().some((c) => c.startsWith("toast="))).toBe(true);

    // The new password signs in, the old one does not; the session opened before has ended.
    expect((await attemptSignIn(app.m, user.email, user.password, { clientIp: "10.9.0.1" })).status).toBe(401);
    await signIn(app.m, user.email, "First-new-password-1");
    const stale = await call(() => app.m.routes.home.loader(args(getRequest("/", { cookie: oldSession })) as never));
    expect(stale.location).toBe("/login");

    const second = await submitReset(link.token, "Second-new-password-2");
    expect(second.status).toBe(400);
    expect(formErrors(second)).toEqual(["token.used"]);
    expect((await openLink(link.url)).data.problem).toBe("token.used");
    expect((await attemptSignIn(app.m, user.email, "Second-new-password-2", { clientIp: "10.9.0.2" })).status).toBe(401);
  });

  it("a link sent before the password was last set no longer works: the first of two links once the second is used, or one from before a change on the profile", async () => {
    const user = await app.createUser();
    const first = await requestLink(user);
    const second = await requestLink(user);
    expect((await submitReset(second.token, "Second-link-pass-1")).location).toBe("/login?reset=1");
    expect((await openLink(first.url)).data.problem).toBe("token.superseded");
    const refused = await submitReset(first.token, "First-link-pass-1");
    expect(refused.status).toBe(400);
    expect(formErrors(refused)).toEqual(["token.superseded"]);
    await signIn(app.m, user.email, "Second-link-pass-1");

    // A link asked for, then the password changed on the profile: the link is dead too.
    const other = await app.createUser();
    const link = await requestLink(other);
    const cookie = await signIn(app.m, other.email, other.password);
    const changed = await call(() =>
      app.m.routes.profile.action(
        args(postRequest("/profile", { intent: "change-password", currentPassword: other.password, password: "Profile-pass-77", confirmPassword: "Profile-pass-77" }, { cookie })) as never,
      ),
    );
    expect(changed.status).toBe(302);
    expect(formErrors(await submitReset(link.token, "Link-after-change-1"))).toEqual(["token.superseded"]);
    await signIn(app.m, other.email, "Profile-pass-77");
  });

  it("of two valid links of one user used at the same instant, exactly one sets the password; the other is refused as superseded", async () => {
    const user = await app.createUser();
    const first = await requestLink(user);
    const second = await requestLink(user);
    const [a, b] = await Promise.all([submitReset(first.token, "Race-first-pass-1"), submitReset(second.token, "Race-second-pass-2")]);
    const won = [a, b].filter((o) => o.location === "/login?reset=1");
    const lost = [a, b].filter((o) => o.status === 400);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(formErrors(lost[0]!)).toEqual(["token.superseded"]);
    // The winner's password is the one set; the loser's never was.
    const winner = won[0] === a ? "Race-first-pass-1" : "Race-second-pass-2";
    const loser = won[0] === a ? "Race-second-pass-2" : "Race-first-pass-1";
    expect((await attemptSignIn(app.m, user.email, loser, { clientIp: "10.9.0.3" })).status).toBe(401);
    await signIn(app.m, user.email, winner);
    // The password epoch moved once: the password history holds the original password alone.
    const stored = await app.m.storageIndex.getStorage().users.getOne(user.id);
    expect(stored!.passwordHistory).toHaveLength(1);
  });

  it("a link sent before the account was disabled does not set its password", async () => {
    const user = await app.createUser();
    const link = await requestLink(user);
    await app.m.storageIndex.getStorage().users.update(user.id, { disabled: true }, { by: "retailer.admin@example.com" });
    expect((await openLink(link.url)).data.problem).toBe("token.invalid");
    expect(formErrors(await submitReset(link.token, "While-disabled-1"))).toEqual(["token.invalid"]);
    await app.m.storageIndex.getStorage().users.update(user.id, { disabled: false }, { by: "retailer.admin@example.com" });
    // Enabled again: still the password it had.
    await signIn(app.m, user.email, user.password);
  });

  it("expires: a token older than its time-to-live answers token.expired", async () => {
    const user = await app.createUser();
    const createdAt = new Date(Date.now() - 2 * 60 * 60_000);
    await app.m.passwordReset.requestPasswordReset(user.email, "en-GB", createdAt);
    const { token, url } = resetLinkIn(outboxFor(user.email).at(-1)!.text);

    // Valid for 60 minutes from when it was made, not one millisecond more.
    expect(await app.m.passwordReset.checkResetToken(token, new Date(createdAt.getTime() + 59 * 60_000))).toMatchObject({ ok: true, value: { id: user.id } });
    expect(await app.m.passwordReset.checkResetToken(token, new Date(createdAt.getTime() + 60 * 60_000))).toEqual({ ok: false, kind: "invalid", reason: "token.expired" });

    expect((await openLink(url)).data.problem).toBe("token.expired");
    const outcome = await submitReset(token, "Too-late-password-1");
    expect(outcome.status).toBe(400);
    expect(formErrors(outcome)).toEqual(["token.expired"]);
    expect(await app.m.passwordReset.resetPassword(token, "Too-late-password-1")).toEqual({ ok: false, kind: "invalid", reason: "token.expired" });
    // Still the old password.
    await signIn(app.m, user.email, user.password);
  });

  it("injecting `now`: a token used inside its time-to-live works", async () => {
    const user = await app.createUser();
    const createdAt = new Date(Date.now() - 2 * 60 * 60_000);
    await app.m.passwordReset.requestPasswordReset(user.email, "en-GB", createdAt);
    const { token } = resetLinkIn(outboxFor(user.email).at(-1)!.text);
    const result = await app.m.passwordReset.resetPassword(token, "In-time-password-1", new Date(createdAt.getTime() + 30 * 60_000));
    expect(result.ok).toBe(true);
    expect(await app.m.passwordReset.resetPassword(token, "In-time-password-2", new Date(createdAt.getTime() + 31 * 60_000))).toEqual({
      ok: false,
      kind: "invalid",
      reason: "token.used",
    });
  });

  it("refuses a new password equal to the current or an earlier one (password.reused), without using the token", async () => {
    const user = await app.createUser();
    const first = await requestLink(user);
    expect((await submitReset(first.token, "Second-password-22")).location).toBe("/login?reset=1");

    const link = await requestLink(user);
    const same = await submitReset(link.token, "Second-password-22");
    expect(same.status).toBe(400);
    expect(same.data.result.error.password).toEqual(["password.reused"]);

    const earlier = await submitReset(link.token, user.password);
    expect(earlier.status).toBe(400);
    expect(earlier.data.result.error.password).toEqual(["password.reused"]);

    // The token was not used by the refusals.
    expect((await openLink(link.url)).data.problem).toBeNull();
    expect((await submitReset(link.token, "Third-password-333")).location).toBe("/login?reset=1");
    await signIn(app.m, user.email, "Third-password-333");
  });

  it("checks the new password's strength and confirmation before the token", async () => {
    const user = await app.createUser();
    const link = await requestLink(user);
    const weak = await submitReset(link.token, "short");
    expect(weak.status).toBe(400);
    expect(weak.data.result.error.password).toEqual(["password.tooShort"]);
    const mismatch = await submitReset(link.token, "Good-password-1", "Other-password-1");
    expect(mismatch.data.result.error.confirmPassword).toEqual(["password.mismatch"]);
    expect((await openLink(link.url)).data.problem).toBeNull();
  });

  it.each([
    ["/auth-management?mode=resetPassword&oobCode=not-a-real-token", "token.invalid"],
    ["/auth-management?mode=verifyEmail&oobCode=abc", "token.invalid"],
    ["/auth-management", "token.invalid"],
  ])("answers %s with %s", async (url, problem) => {
    expect((await openLink(url)).data.problem).toBe(problem);
  });
});
