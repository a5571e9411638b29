/** The operators' second factor (issue 12): who needs it, and the codes as typed. */
import { describe, expect, it } from "vitest";
import { formatRecoveryCode, needsSecondFactor, normaliseRecoveryCode, normaliseTotpCode } from "~/domain/second-factor";

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
