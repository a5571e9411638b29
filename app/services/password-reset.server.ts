/** Forgot password and the reset link handled at /auth-management. */
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
import type { User } from "~/domain/types";
import { getEnv } from "~/services/env.server";
import { getFixedT } from "~/services/i18n.server";
import { sendMail } from "~/services/mail.server";
import { hashPassword, isPasswordReused, verifyPassword } from "~/services/passwords.server";
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
  await storage.passwordResets.create(hashToken(token), user.id, new Date(now.getTime() + ttl * 60_000), now);
  const t = await getFixedT(normaliseLocale(user.locale) ?? locale);
  const link = resetLink(token);
  await sendMail({
    to: user.email,
    subject: t("mail.reset.subject"),
    text: t("mail.reset.text", { name: user.displayName || user.email, link, minutes: ttl }),
  });
}

export type ResetCheck = { ok: true; userId: string } | { ok: false; reason: "token.invalid" | "token.used" | "token.expired" };

export async function checkResetToken(token: string, now = new Date()): Promise<ResetCheck> {
  return getStorage().passwordResets.peek(hashToken(token), now);
}

export type SetPasswordResult =
  | { ok: true; user: User }
  | { ok: false; reason: "token.invalid" | "token.used" | "token.expired" | "password.reused" | "password.wrongCurrent" };

async function reused(user: User, password: string): Promise<boolean> {
  return isPasswordReused(password, [user.passwordHash, ...user.passwordHistory].slice(0, PASSWORD_HISTORY_SIZE + 1));
}

/** Uses the token once and sets the new password; every session of the user ends. */
export async function resetPassword(token: string, password: string, now = new Date()): Promise<SetPasswordResult> {
  const storage = getStorage();
  const check = await checkResetToken(token, now);
  if (!check.ok) return check;
  const user = await storage.users.getOne(check.userId);
  if (!user) return { ok: false, reason: "token.invalid" };
  if (await reused(user, password)) return { ok: false, reason: "password.reused" };
  const consumed = await storage.passwordResets.consume(hashToken(token), now);
  if (!consumed.ok) return consumed;
  const updated = await storage.users.setPassword(user.id, await hashPassword(password), PASSWORD_HISTORY_SIZE, { by: user.email });
  await storage.sessions.deleteForUser(user.id);
  // Whoever holds the mailbox is the user: the account-wide sign-in lock (ADR 14) is lifted.
  await storage.loginThrottle.clear(throttleKeys(user.email, "").account);
  return { ok: true, user: updated };
}

/** Profile password change: the current password is checked; other sessions end. */
export async function changePassword(user: User, current: string, next: string): Promise<SetPasswordResult> {
  if (!(await verifyPassword(current, user.passwordHash))) return { ok: false, reason: "password.wrongCurrent" };
  if (await reused(user, next)) return { ok: false, reason: "password.reused" };
  const updated = await getStorage().users.setPassword(user.id, await hashPassword(next), PASSWORD_HISTORY_SIZE, { by: user.email });
  // Every session ends (the caller opens a new one for the browser that made the change).
  await getStorage().sessions.deleteForUser(user.id);
  return { ok: true, user: updated };
}
