/** The operators' tools (issue 12): 'Log as', the session's role step-down, the staff e-mail domain. */
import { describe, expect, it } from "vitest";
import {
  auditActor,
  canCreateStaffUser,
  checkLogAs,
  checkStepDown,
  claimsForInvitedUser,
  effectiveClaims,
  isStaffEmail,
  stepDownChoices,
} from "~/domain/operators";
import { can } from "~/domain/permissions";
import type { Claims } from "~/domain/types";

const operator: Claims = { type: "operator", role: "ADMIN" };
const retailerAdmin: Claims = { type: "retailer", role: "ADMIN" };
const supplierAdmin: Claims = { type: "supplier", role: "ADMIN" };
const retailerViewer: Claims = { type: "retailer", role: "VIEWER" };

describe("Log as", () => {
  const asker = { id: "op", claims: operator, loggedAs: false };
  const supplier = { id: "s", claims: supplierAdmin, disabled: false };

  it("lets an operator log as a retailer or supplier user", () => {
    expect(checkLogAs(asker, supplier)).toEqual({ ok: true });
    expect(checkLogAs(asker, { id: "r", claims: retailerAdmin, disabled: false })).toEqual({ ok: true });
  });

  it("refuses anyone but an operator, even a retailer ADMIN", () => {
    expect(checkLogAs({ id: "r", claims: retailerAdmin, loggedAs: false }, supplier)).toEqual({ ok: false, reason: "operators:refused.notOperator" });
    expect(checkLogAs({ id: "x", claims: supplierAdmin, loggedAs: false }, supplier)).toMatchObject({ ok: false });
  });

  it("never logs into another operator, nor twice, nor as oneself, nor as a disabled user", () => {
    expect(checkLogAs(asker, { id: "op2", claims: operator, disabled: false })).toEqual({ ok: false, reason: "operators:refused.targetOperator" });
    expect(checkLogAs({ ...asker, loggedAs: true }, supplier)).toEqual({ ok: false, reason: "operators:refused.alreadyLoggedAs" });
    expect(checkLogAs(asker, { id: "op", claims: operator, disabled: false })).toEqual({ ok: false, reason: "operators:refused.self" });
    expect(checkLogAs(asker, { ...supplier, disabled: true })).toEqual({ ok: false, reason: "operators:refused.targetDisabled" });
  });

  it("records both identities on a change made while logged as", () => {
    expect(auditActor({ email: "sam@brand.example" })).toEqual({ by: "sam@brand.example" });
    expect(auditActor({ email: "sam@brand.example", loggedAsBy: { email: "olivia@ops.example" } })).toEqual({ by: "sam@brand.example", realBy: "olivia@ops.example" });
  });
});

describe("role step-down for the session", () => {
  it("offers an operator or an ADMIN their own role and EDITOR, REVIEWER, VIEWER; nobody else anything", () => {
    expect(stepDownChoices(operator)).toEqual(["ADMIN", "EDITOR", "REVIEWER", "VIEWER"]);
    expect(stepDownChoices(retailerAdmin)).toEqual(["ADMIN", "EDITOR", "REVIEWER", "VIEWER"]);
    expect(stepDownChoices(supplierAdmin)).toEqual(["ADMIN", "EDITOR", "REVIEWER", "VIEWER"]);
    expect(stepDownChoices({ type: "operator", role: "REVIEWER" })).toEqual(["REVIEWER", "VIEWER"]);
    expect(stepDownChoices(retailerViewer)).toEqual([]);
    expect(stepDownChoices({ type: "retailer", role: "EDITOR" })).toEqual([]);
  });

  it("steps down and back, never up, never SUPER_ADMIN", () => {
    expect(checkStepDown(operator, "VIEWER")).toEqual({ ok: true, role: "VIEWER" });
    expect(checkStepDown(operator, "ADMIN")).toEqual({ ok: true, role: null });
    expect(checkStepDown(operator, "SUPER_ADMIN")).toEqual({ ok: false, reason: "operators:refused.stepUp" });
    expect(checkStepDown({ type: "operator", role: "REVIEWER" }, "EDITOR")).toEqual({ ok: false, reason: "operators:refused.stepUp" });
    expect(checkStepDown(retailerViewer, "ADMIN")).toEqual({ ok: false, reason: "operators:refused.stepUp" });
  });

  it("makes every right follow the stepped-down role (the guard reads the effective claims)", () => {
    const stepped = effectiveClaims(operator, "VIEWER");
    expect(stepped).toEqual({ type: "operator", role: "VIEWER" });
    expect(can({ claims: operator, roleByTeam: {} }, "User", "read")).toBe(true);
    expect(can({ claims: stepped, roleByTeam: {} }, "User", "read")).toBe(false);
    expect(can({ claims: stepped, roleByTeam: {} }, "Campaign", "update")).toBe(false);
    expect(can({ claims: effectiveClaims(operator, "EDITOR"), roleByTeam: {} }, "Campaign", "update")).toBe(true);
    // A stored step-up is ignored: the account's own claims stay in force.
    expect(effectiveClaims(retailerViewer, "ADMIN")).toEqual(retailerViewer);
  });
});

describe("retailer staff e-mail domain", () => {
  it("recognises the domain and its subdomains, case aside", () => {
    expect(isStaffEmail("Anna@Retailer.Example", "retailer.example")).toBe(true);
    expect(isStaffEmail("anna@stores.retailer.example", "@retailer.example")).toBe(true);
    expect(isStaffEmail("anna@notretailer.example", "retailer.example")).toBe(false);
    expect(isStaffEmail("anna@retailer.example", "")).toBe(false);
  });

  it("makes retailer staff only when an operator or a retailer ADMIN created the account", () => {
    expect(canCreateStaffUser(operator)).toBe(true);
    expect(canCreateStaffUser(retailerAdmin)).toBe(true);
    expect(canCreateStaffUser(supplierAdmin)).toBe(false);
    expect(claimsForInvitedUser("anna@retailer.example", "EDITOR", retailerAdmin, "retailer.example")).toEqual({ type: "retailer", role: "EDITOR" });
    expect(claimsForInvitedUser("anna@retailer.example", "EDITOR", supplierAdmin, "retailer.example")).toEqual({ type: "supplier", role: "EDITOR" });
    expect(claimsForInvitedUser("anna@brand.example", "EDITOR", operator, "retailer.example")).toEqual({ type: "supplier", role: "EDITOR" });
  });
});

describe("an operator stepped down for the session: identity facts stay, rights follow the role (ADR 40)", () => {
  const stepped = effectiveClaims(operator, "VIEWER");

  it("may still switch back to ADMIN and 'Log as' (being an operator), judged on their own claims", () => {
    expect(stepped).toEqual({ type: "operator", role: "VIEWER" });
    expect(checkStepDown(operator, "ADMIN")).toEqual({ ok: true, role: null });
    expect(stepDownChoices(operator)).toContain("ADMIN");
    expect(checkLogAs({ id: "op", claims: operator, loggedAs: false }, { id: "s", claims: supplierAdmin, disabled: false })).toEqual({ ok: true });
  });

  it("holds no operator right meanwhile: no staff-domain user, no retailer settings, no Activity", () => {
    for (const role of ["EDITOR", "REVIEWER", "VIEWER"] as const) {
      const claims = effectiveClaims(operator, role);
      expect(canCreateStaffUser(claims), role).toBe(false);
      expect(can({ claims, roleByTeam: {} }, "RetailerSettings", "read"), role).toBe(false);
      expect(can({ claims, roleByTeam: {} }, "Health", "read"), role).toBe(false);
    }
    expect(canCreateStaffUser(effectiveClaims(operator, "ADMIN"))).toBe(true);
  });
});
