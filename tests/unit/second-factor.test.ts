/** The operators' second factor (issue 12): who needs it, and the codes as typed. */
import { describe, expect, it } from "vitest";
import {
  canDisableSecondFactor,
  canEnrolSecondFactor,
  canResetSecondFactor,
  codeThrottleKeys,
  formatRecoveryCode,
  isFreshStep,
  isPendingOpen,
  MAX_CODE_FAILURES_PER_ACCOUNT,
  MAX_CODE_FAILURES_PER_PAIR,
  needsSecondFactor,
  normaliseRecoveryCode,
  normaliseTotpCode,
  PENDING_SECOND_FACTOR_MS,
  secondFactorStep,
  totpStepAt,
} from "~/domain/second-factor";

const required = { staffEmailDomain: "", operatorTotpRequired: true };

describe("second factor", () => {
  it("is needed by operators when the setting requires it, not by the exempt demo operator nor by others", () => {
    expect(needsSecondFactor({ claims: { type: "operator", role: "ADMIN" } }, required)).toBe(true);
    expect(needsSecondFactor({ claims: { type: "operator", role: "ADMIN" } }, { ...required, operatorTotpRequired: false })).toBe(false);
    expect(needsSecondFactor({ claims: { type: "operator", role: "ADMIN" }, secondFactorExempt: true }, required)).toBe(false);
    expect(needsSecondFactor({ claims: { type: "retailer", role: "ADMIN" } }, required)).toBe(false);
  });

  it("reads codes as people type them", () => {
    expect(normaliseTotpCode(" 123 456 ")).toBe("123456");
    expect(normaliseTotpCode("12345")).toBeNull();
    expect(normaliseRecoveryCode("ABCDE-FGHJK")).toBe("abcdefghjk");
    expect(normaliseRecoveryCode("abcde-fghj0")).toBeNull();
    expect(formatRecoveryCode("abcdefghjk")).toBe("abcde-fghjk");
  });
});

describe("the sign-in's second step (ADR 30)", () => {
  const operator = { claims: { type: "operator" as const, role: "ADMIN" as const } };
  it("asks whoever has a second factor for a code, an operator without one to enrol while required, else nothing", () => {
    expect(secondFactorStep({ ...operator, totpSecret: "S" }, required)).toBe("verify");
    expect(secondFactorStep({ ...operator, totpSecret: "S" }, { ...required, operatorTotpRequired: false })).toBe("verify");
    expect(secondFactorStep({ ...operator, totpSecret: "S", secondFactorExempt: true }, required)).toBe("verify");
    expect(secondFactorStep(operator, required)).toBe("enrol");
    expect(secondFactorStep(operator, { ...required, operatorTotpRequired: false })).toBeNull();
    expect(secondFactorStep({ ...operator, secondFactorExempt: true }, required)).toBeNull();
    expect(secondFactorStep({ claims: { type: "supplier", role: "ADMIN" } }, required)).toBeNull();
    // A session that passed it owes nothing.
    expect(secondFactorStep({ ...operator, totpSecret: "S" }, required, true)).toBeNull();
    expect(secondFactorStep(operator, required, true)).toBeNull();
  });

  it("lets operators enrol on their own account only, and turn it off only where nothing requires it", () => {
    expect(canEnrolSecondFactor(operator)).toBe(true);
    expect(canEnrolSecondFactor({ claims: { type: "retailer", role: "ADMIN" } })).toBe(false);
    expect(canEnrolSecondFactor({ ...operator, loggedAsBy: { id: "o" } })).toBe(false);
    expect(canDisableSecondFactor(operator, required)).toBe(false);
    expect(canDisableSecondFactor(operator, { ...required, operatorTotpRequired: false })).toBe(true);
    expect(canDisableSecondFactor({ ...operator, secondFactorExempt: true }, required)).toBe(true);
  });

  it("lets an operator remove someone else's second factor, never their own, never while logged as", () => {
    const me = { id: "o-1", ...operator };
    expect(canResetSecondFactor(me, { id: "o-2", totpSecret: "S" })).toBe(true);
    expect(canResetSecondFactor(me, { id: "o-2", totpSecret: null })).toBe(false);
    expect(canResetSecondFactor(me, { id: "o-1", totpSecret: "S" })).toBe(false);
    expect(canResetSecondFactor({ ...me, loggedAsBy: { id: "x" } }, { id: "o-2", totpSecret: "S" })).toBe(false);
    expect(canResetSecondFactor({ id: "r", claims: { type: "retailer", role: "ADMIN" } }, { id: "o-2", totpSecret: "S" })).toBe(false);
    // Stepped down for the session: a right, so none; enrolling one's own stays (ADR 40).
    const steppedDown = { id: "o-1", claims: { type: "operator" as const, role: "EDITOR" as const } };
    expect(canResetSecondFactor(steppedDown, { id: "o-2", totpSecret: "S" })).toBe(false);
    expect(canEnrolSecondFactor(steppedDown)).toBe(true);
  });

  it("keeps a pending sign-in open for five minutes", () => {
    const since = "2026-11-26T10:00:00.000Z";
    expect(PENDING_SECOND_FACTOR_MS).toBe(5 * 60_000);
    expect(isPendingOpen(since, new Date("2026-11-26T10:04:59.000Z"))).toBe(true);
    expect(isPendingOpen(since, new Date("2026-11-26T10:05:00.000Z"))).toBe(false);
    expect(isPendingOpen(since, new Date("2026-11-26T09:59:00.000Z"))).toBe(false);
    expect(isPendingOpen(undefined, new Date(since))).toBe(false);
    expect(isPendingOpen("not a date", new Date(since))).toBe(false);
  });

  it("accepts a code's time step once, never an earlier one", () => {
    expect(totpStepAt(new Date(0))).toBe(0);
    expect(totpStepAt(new Date(59_999))).toBe(1);
    expect(isFreshStep(10, null)).toBe(true);
    expect(isFreshStep(10, undefined)).toBe(true);
    expect(isFreshStep(11, 10)).toBe(true);
    expect(isFreshStep(10, 10)).toBe(false);
    expect(isFreshStep(9, 10)).toBe(false);
  });

  it("throttles codes per account and address, and per account", () => {
    expect(codeThrottleKeys("u-1", "10.0.0.1")).toEqual({ pair: "2fa-pair:u-1|10.0.0.1", account: "2fa-account:u-1" });
    expect(MAX_CODE_FAILURES_PER_PAIR).toBeLessThan(MAX_CODE_FAILURES_PER_ACCOUNT);
  });
});
