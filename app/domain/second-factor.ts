/**
 * The operators' second factor (issue 12, ADR 30): who needs it, what a sign-in must still do,
 * the shape of codes and recovery codes, the code throttle's keys. Pure.
 */
import { hasOperatorRights } from "~/domain/permissions";
import type { AccessSettings, Claims } from "~/domain/types";

/** An operator signs in with a second factor when the retailer requires it (on by default). */
export function needsSecondFactor(user: { claims: Claims; secondFactorExempt?: boolean }, access: AccessSettings): boolean {
  return user.claims.type === "operator" && access.operatorTotpRequired && !user.secondFactorExempt;
}

export const RECOVERY_CODE_COUNT = 10;
/** Ten characters without look-alikes (no 0/O, 1/I/L), shown as 'xxxxx-xxxxx'. */
export const RECOVERY_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";

/** A recovery code as typed (any case, spaces or dashes) → its canonical form, or null. */
export function normaliseRecoveryCode(input: string): string | null {
  const code = input.toLowerCase().replace(/[\s-]/g, "");
  if (code.length !== 10 || [...code].some((c) => !RECOVERY_ALPHABET.includes(c))) return null;
  return code;
}

/** A six-digit code of an authenticator app, as typed (spaces allowed) → the digits, or null. */
export function normaliseTotpCode(input: string): string | null {
  const code = input.replace(/\s/g, "");
  return /^\d{6}$/.test(code) ? code : null;
}

/** The canonical recovery code shown to the user, in two groups. */
export function formatRecoveryCode(code: string): string {
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

// ---------------------------------------------------------------------------------------------
// The sign-in step, enforcement and the code throttle (ADR 30)
// ---------------------------------------------------------------------------------------------

/** The code form of a pending sign-in. */
export const SECOND_FACTOR_PATH = "/login/second-factor";
/** The enrolment screen, the only one open to a user who must enrol first. */
export const ENROL_PATH = "/profile/second-factor";

/** How long a password-checked sign-in waits for its code before it must start again. */
export const PENDING_SECOND_FACTOR_MS = 5 * 60 * 1000;

/** Whether a pending sign-in (started at `since`, ISO) is still open at `now`. */
export function isPendingOpen(since: string | undefined, now: Date): boolean {
  const at = Date.parse(since ?? "");
  return Number.isFinite(at) && now.getTime() - at >= 0 && now.getTime() - at < PENDING_SECOND_FACTOR_MS;
}

/**
 * What stands between a user whose identity is known (password or SSO) and the console:
 * 'verify' a code (the user has a second factor: whoever enrolled is asked for it, required or
 * not), 'enrol' first (required by the setting and not enrolled yet), or null (nothing).
 * `passed`: this session already gave a code, or enrolled.
 */
export type SecondFactorStep = "verify" | "enrol" | null;

export function secondFactorStep(
  user: { claims: Claims; secondFactorExempt?: boolean; totpSecret?: string | null },
  access: AccessSettings,
  passed = false,
): SecondFactorStep {
  if (passed) return null;
  if (user.totpSecret) return "verify";
  return needsSecondFactor(user, access) ? "enrol" : null;
}

/** Who may enrol: an operator, on their own account (never while acting as someone else). */
export function canEnrolSecondFactor(user: { claims: Claims; loggedAsBy?: unknown }): boolean {
  return user.claims.type === "operator" && !user.loggedAsBy;
}

/**
 * Who may remove another user's second factor (a lost phone, no recovery code left): an operator,
 * acting as themself, on someone else who has one. The user then enrols again at their next step.
 */
export function canResetSecondFactor(
  actor: { id: string; claims: Claims; loggedAsBy?: unknown },
  target: { id: string; totpSecret?: string | null },
): boolean {
  // A right, not an identity fact: an operator stepped down for the session has none (ADR 40).
  return hasOperatorRights(actor.claims) && !actor.loggedAsBy && actor.id !== target.id && Boolean(target.totpSecret);
}

/** Whether the second factor may be turned off: only when nothing requires it. */
export function canDisableSecondFactor(user: { claims: Claims; secondFactorExempt?: boolean }, access: AccessSettings): boolean {
  return !needsSecondFactor(user, access);
}

/** TOTP parameters: the authenticator apps' defaults (RFC 6238). */
export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;
/** Codes one step before or after the server's clock are accepted (clock drift). */
export const TOTP_WINDOW = 1;

/** The time step of an instant (what a code is computed for). */
export function totpStepAt(now: Date): number {
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_S);
}

/**
 * Whether a code of `step` may be accepted after `lastStep` was: never the same step twice, nor
 * an earlier one (a code seen over a shoulder, or replayed, is refused).
 */
export function isFreshStep(step: number, lastStep: number | null | undefined): boolean {
  return lastStep === null || lastStep === undefined || step > lastStep;
}

/** Wrong codes per (account, address) and per account in the sign-in throttle's window (ADR 14). */
export const MAX_CODE_FAILURES_PER_PAIR = 5;
export const MAX_CODE_FAILURES_PER_ACCOUNT = 10;

export const codeThrottleKeys = (userId: string, address: string) => ({
  pair: `2fa-pair:${userId}|${address}`,
  account: `2fa-account:${userId}`,
});
