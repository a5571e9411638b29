/** Forgot password and the reset link handled at /auth-management. */
import { auditActor } from "~/domain/operators";
import { createHash, randomBytes } from "node:crypto";
import { normaliseLocale } from "~/domain/locale";
import { PASSWORD_HISTORY_SIZE } from "~/domain/passwords";
import {
  lockMinutesLeft,
  MAX_RESET_MAILS_PER_ACCOUNT,
  MAX_RESET_REQUESTS_PER_ADDRESS,
  resetThrottleKeys,
  throttleKeys,
} from "~/domain/login-throttle";
import { fail, ok, type Failure, type Result } from "~/domain/result";
import type { User } from "~/domain/types";
import { getEnv } from "~/services/env.server";
import { getFixedT } from "~/services/i18n.server";
import { sendMail } from "~/services/mail.server";
import { hashPassword, isPasswordReused } from "~/services/passwords.server";
import { confirmPassword } from "~/services/password-confirmation.server";
import { getStorage } from "~/services/storage.server";

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function resetLink(token: string): string {
  return `${getEnv().PUBLIC_URL}/auth-management?mode=resetPassword&oobCode=${encodeURIComponent(token)}`;
}

/**
 * Sends a reset link when the e-mail belongs to an enabled account, within the limits of ADR 14
 * (per account and per address). The caller answers the same whatever happened, so the form
 * reveals neither the account nor the limit.
 */
export async function requestPasswordReset(email: string, locale: string, now = new Date(), address = "unknown"): Promise<void> {
  const storage = getStorage();
  const keys = resetThrottleKeys(email, address);
  const [byAccount, byAddress] = await Promise.all([storage.loginThrottle.get(keys.account), storage.loginThrottle.get(keys.address)]);
  if (lockMinutesLeft(byAccount, now) > 0 || lockMinutesLeft(byAddress, now) > 0) return;
  // Counted whether or not the account exists: the limit tells nothing either.
  await Promise.all([
    storage.loginThrottle.recordFailure(keys.account, now, MAX_RESET_MAILS_PER_ACCOUNT),
    storage.loginThrottle.recordFailure(keys.address, now, MAX_RESET_REQUESTS_PER_ADDRESS),
  ]);
  const user = await storage.users.getByEmail(email);
  if (!user || user.disabled) return;
  const token = randomBytes(32).toString("base64url");
  const ttl = getEnv().PASSWORD_RESET_TTL_MINUTES;
  await storage.passwordResets.create(hashToken(token), user.id, new Date(now.getTime() + ttl * 60_000), now, user.sessionEpoch);
  const t = await getFixedT(normaliseLocale(user.locale) ?? locale);
  const link = resetLink(token);
  await sendMail({
    to: user.email,
    subject: t("mail.reset.subject"),
    text: t("mail.reset.text", { name: user.displayName || user.email, link, minutes: ttl }),
  });
}

/** Why a reset link cannot be used: the reason is the message's key ('The link has expired'…). */
function tokenRefused(reason: "token.invalid" | "token.used" | "token.expired" | "token.superseded"): Failure {
  return fail("invalid", reason);
}

/**
 * A reset link's user, while the link may still be used: unused, unexpired, the account enabled, and sent since the
 * user's password was last set (a link sent earlier, e.g. the first of two, or one from before a
 * change on the profile, is dead once a password was set).
 */
export async function checkResetToken(token: string, now = new Date()): Promise<Result<User>> {
  const check = await getStorage().passwordResets.peek(hashToken(token), now);
  if (!check.ok) return tokenRefused(check.reason);
  const user = await getStorage().users.getOne(check.userId);
  // A disabled account gets no link (requestPasswordReset), and one sent before it was disabled dies.
  if (!user || user.disabled) return tokenRefused("token.invalid");
  if (check.passwordEpoch !== undefined && check.passwordEpoch !== user.sessionEpoch) return tokenRefused("token.superseded");
  return ok(user);
}

/**
 * A password set (reset or change): the user with the new password, or why not: a link that
 * cannot be used (the whole form), a password used before (the new password's field), a
 * wrong current password (its field).
 */
export type SetPasswordResult = Result<User>;

const passwordReused = () => fail("invalid", "password.reused", { field: "password" });

async function reused(user: User, password: string): Promise<boolean> {
  return isPasswordReused(password, [user.passwordHash, ...user.passwordHistory].slice(0, PASSWORD_HISTORY_SIZE + 1));
}

/** Uses the token once and sets the new password; every session of the user ends. */
export async function resetPassword(token: string, password: string, now = new Date()): Promise<SetPasswordResult> {
  const storage = getStorage();
  const check = await checkResetToken(token, now);
  if (!check.ok) return check;
  const user = check.value;
  if (await reused(user, password)) return passwordReused();
  // The link is used and the password set in one transaction, on the condition that no password
  // was set since the link was sent (nor since it was checked): of two links used at once, the
  // second finds the epoch moved and is refused as superseded.
  const set = await storage.users.resetPassword(user.id, await hashPassword(password), PASSWORD_HISTORY_SIZE, auditActor(user), {
    tokenHash: hashToken(token),
    now,
    expectEpoch: user.sessionEpoch,
  });
  if (!set.ok) return tokenRefused(set.reason);
  const updated = set.user;
  await storage.sessions.deleteForUser(user.id);
  // Whoever holds the mailbox is the user: the account-wide sign-in lock (ADR 14) is lifted.
  await storage.loginThrottle.clear(throttleKeys(user.email, "").account);
  return ok(updated);
}

/**
 * Profile password change: the current password is checked; other sessions end. Never while an
 * operator is logged as the user: the new session would be the user's own, ending the 'Log as'
 * and its record of both identities.
 */
export async function changePassword(user: User, current: string, next: string): Promise<SetPasswordResult> {
  if (user.loggedAsBy) return fail("forbidden", "operators:refused.passwordLoggedAs");
  const confirmed = await confirmPassword(user, current, fail("invalid", "password.wrongCurrent", { field: "currentPassword" }));
  if (!confirmed.ok) return confirmed;
  if (await reused(user, next)) return passwordReused();
  const updated = await getStorage().users.setPassword(user.id, await hashPassword(next), PASSWORD_HISTORY_SIZE, auditActor(user));
  // Every session ends (the caller opens a new one for the browser that made the change).
  await getStorage().sessions.deleteForUser(user.id);
  return ok(updated);
}
