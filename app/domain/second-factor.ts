/**
 * The operators' second factor (issue 12): who needs it, and the shape of recovery codes. Pure.
 */
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
