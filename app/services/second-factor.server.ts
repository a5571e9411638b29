/**
 * The operators' second factor (issue 12, ADR 30): enrolment (a secret made here, confirmed by a
 * first code), recovery codes (shown once, kept as sha256), turning it off, and checking a code
 * at sign-in with its throttle. TOTP by otpauth (RFC 6238, SHA-1, 6 digits, 30 s); the QR code
 * is drawn here as SVG by uqr, so no QR code ever reaches the browser's JavaScript. No HTTP.
 */
import { createHash, randomInt } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { renderSVG } from "uqr";
import { lockMinutesLeft } from "~/domain/login-throttle";
import { auditActor } from "~/domain/operators";
import { fail, forbidden, ok, type Failure, type Result } from "~/domain/result";
import {
  canDisableSecondFactor,
  canEnrolSecondFactor,
  canResetSecondFactor,
  codeThrottleKeys,
  formatRecoveryCode,
  MAX_CODE_FAILURES_PER_ACCOUNT,
  MAX_CODE_FAILURES_PER_PAIR,
  normaliseRecoveryCode,
  normaliseTotpCode,
  RECOVERY_ALPHABET,
  RECOVERY_CODE_COUNT,
  TOTP_DIGITS,
  TOTP_PERIOD_S,
  TOTP_WINDOW,
  totpStepAt,
} from "~/domain/second-factor";
import type { User } from "~/domain/types";
import { getAccessSettings } from "~/services/access-settings.server";
import { confirmPassword } from "~/services/password-confirmation.server";
import { getStorage } from "~/services/storage.server";

/** The name authenticator apps show above the account. */
export const TOTP_ISSUER = "Ads console";

function totpFor(secret: string, label: string): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label, algorithm: "SHA1", digits: TOTP_DIGITS, period: TOTP_PERIOD_S, secret: Secret.fromBase32(secret) });
}

/** A new secret (160 bits, base32), made on the server; it is kept by the caller until confirmed. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** What the enrolment screen shows of a secret: as text in groups of four, as a URI, as a QR code. */
export function enrolmentView(user: Pick<User, "email">, secret: string) {
  const uri = totpFor(secret, user.email).toString();
  return {
    secretText: secret.match(/.{1,4}/g)!.join(" "),
    uri,
    qrSvg: renderSVG(uri, { border: 2, pixelSize: 4 }),
  };
}

/** The time step a code was made for, or null when it matches no step of the window. */
function matchingStep(secret: string, code: string, now: Date): number | null {
  const delta = totpFor(secret, "x").validate({ token: code, timestamp: now.getTime(), window: TOTP_WINDOW });
  return delta === null ? null : totpStepAt(now) + delta;
}

export const hashRecoveryCode = (code: string) => createHash("sha256").update(code).digest("hex");

/** Ten new recovery codes: the codes to show once, and the hashes to keep. */
function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const raw = Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join(""),
  );
  return { codes: raw.map(formatRecoveryCode), hashes: raw.map(hashRecoveryCode) };
}

const invalidCode = (): Failure => fail("invalid", "secondFactor:errors.invalidCode", { field: "code" });
const wrongPassword = (): Failure => fail("invalid", "secondFactor:errors.wrongPassword", { field: "password" });

/** Where the user stands, for /profile and its second-factor screen. */
export async function secondFactorStatus(user: User) {
  const access = await getAccessSettings();
  return {
    mayEnrol: canEnrolSecondFactor(user),
    enrolled: Boolean(user.totpSecret),
    required: canEnrolSecondFactor(user) && !canDisableSecondFactor(user, access),
    recoveryCodesLeft: user.recoveryCodeHashes?.length ?? 0,
  };
}

/**
 * Enrols the user with the secret they were shown, once a first code of it is right: the
 * second factor and ten recovery codes are saved, and the codes returned to be shown once. The
 * confirming code counts as used.
 */
export async function confirmEnrolment(user: User, secret: string | undefined, input: string, now = new Date()): Promise<Result<{ user: User; recoveryCodes: string[] }>> {
  if (!canEnrolSecondFactor(user)) return forbidden();
  if (!secret) return fail("invalid", "secondFactor:errors.enrolmentExpired");
  if (user.totpSecret) return fail("conflict", "secondFactor:errors.alreadyEnrolled");
  const code = normaliseTotpCode(input);
  const step = code ? matchingStep(secret, code, now) : null;
  if (step === null) return invalidCode();
  const { codes, hashes } = newRecoveryCodes();
  const saved = await getStorage().users.setSecondFactor(user.id, { totpSecret: secret, recoveryCodeHashes: hashes, totpLastStep: step }, auditActor(user));
  return ok({ user: saved, recoveryCodes: codes });
}

/** New recovery codes (the old ones stop working), after the password is confirmed. */
export async function regenerateRecoveryCodes(user: User, password: string): Promise<Result<{ recoveryCodes: string[] }>> {
  if (!canEnrolSecondFactor(user)) return forbidden();
  if (!user.totpSecret) return fail("invalid", "secondFactor:errors.notEnrolled");
  const confirmed = await confirmPassword(user, password, wrongPassword());
  if (!confirmed.ok) return confirmed;
  const { codes, hashes } = newRecoveryCodes();
  await getStorage().users.setSecondFactor(user.id, { totpSecret: user.totpSecret, recoveryCodeHashes: hashes }, auditActor(user));
  return ok({ recoveryCodes: codes });
}

/** Turns the second factor off, after the password is confirmed; refused while it is required. */
export async function disableSecondFactor(user: User, password: string): Promise<Result<User>> {
  if (!canEnrolSecondFactor(user)) return forbidden();
  if (!user.totpSecret) return fail("invalid", "secondFactor:errors.notEnrolled");
  if (!canDisableSecondFactor(user, await getAccessSettings())) return fail("forbidden", "secondFactor:errors.required");
  const confirmed = await confirmPassword(user, password, wrongPassword());
  if (!confirmed.ok) return confirmed;
  return ok(await getStorage().users.setSecondFactor(user.id, null, auditActor(user)));
}

/**
 * An operator removes another user's second factor (lost phone): every session of that user ends
 * (a phone lost with an open session is not left signed in), and they enrol again at their next
 * sign-in. Audited.
 */
export async function resetSecondFactor(actor: User, target: User): Promise<Result<User>> {
  if (!canResetSecondFactor(actor, target)) return forbidden();
  const reset = await getStorage().users.setSecondFactor(target.id, null, auditActor(actor));
  await getStorage().sessions.deleteForUser(target.id);
  return ok(reset);
}

/** How the sign-in's second step was passed. */
export type SecondFactorMethod = "totp" | "recovery";

/**
 * The code of a pending sign-in: a six-digit code of the user's app (its time step accepted
 * once) or one of their recovery codes (each once). Wrong codes are throttled like passwords
 * (ADR 14): per account and address, and per account; a locked attempt is not even checked.
 */
export async function checkSecondFactorCode(
  user: User,
  input: string,
  address: string,
  now = new Date(),
): Promise<Result<SecondFactorMethod>> {
  const throttle = getStorage().loginThrottle;
  const keys = codeThrottleKeys(user.id, address);
  const [pair, account] = await Promise.all([throttle.get(keys.pair), throttle.get(keys.account)]);
  const wait = Math.max(lockMinutesLeft(pair, now), lockMinutesLeft(account, now));
  if (wait > 0) return fail("too-many", "auth.tooManyAttempts", { values: { minutes: wait } });

  const method = await acceptCode(user, input, now);
  if (method) {
    await throttle.clear(keys.pair);
    return ok(method);
  }
  const [pairState, accountState] = await Promise.all([
    throttle.recordFailure(keys.pair, now, MAX_CODE_FAILURES_PER_PAIR),
    throttle.recordFailure(keys.account, now, MAX_CODE_FAILURES_PER_ACCOUNT),
  ]);
  const minutes = Math.max(lockMinutesLeft(pairState, now), lockMinutesLeft(accountState, now));
  if (minutes > 0) return fail("too-many", "auth.tooManyAttempts", { values: { minutes } });
  return invalidCode();
}

async function acceptCode(user: User, input: string, now: Date): Promise<SecondFactorMethod | null> {
  if (!user.totpSecret) return null;
  const code = normaliseTotpCode(input);
  if (code) {
    const step = matchingStep(user.totpSecret, code, now);
    return step !== null && (await getStorage().users.useTotpStep(user.id, step)) ? "totp" : null;
  }
  const recovery = normaliseRecoveryCode(input);
  if (recovery) return (await getStorage().users.useRecoveryCode(user.id, hashRecoveryCode(recovery))) ? "recovery" : null;
  return null;
}
