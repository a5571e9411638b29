import { describe, expect, it } from "vitest";
import type { AccountType, Role } from "~/domain/types";
import {
  checkClaimsChange,
  checkInvite,
  checkMemberChange,
  checkUserEdit,
  grantableAccountTypes,
  grantableRoles,
  invitationState,
  signInLanding,
  visibleAccountTypes,
} from "~/domain/users";

function person(id: string, type: AccountType, role: Role, roleByTeam: Record<string, Role> = {}) {
  return { id, claims: { type, role }, roleByTeam };
}

describe("who manages users", () => {
  const operator = person("op", "operator", "ADMIN");
  const retailerAdmin = person("ra", "retailer", "ADMIN");
  const retailerEditor = person("re", "retailer", "EDITOR");

  it("a retailer admin sees and grants retailer and supplier accounts only", () => {
    expect(visibleAccountTypes(retailerAdmin.claims)).toEqual(["retailer", "supplier"]);
    expect(visibleAccountTypes(operator.claims)).toEqual(["operator", "retailer", "supplier"]);
    // Stepped down for the session, an operator sees and grants what a retailer of that role does.
    expect(visibleAccountTypes({ type: "operator", role: "EDITOR" })).toEqual(["retailer", "supplier"]);
    expect(grantableAccountTypes({ type: "operator", role: "EDITOR" })).toEqual([]);
    expect(grantableAccountTypes(retailerAdmin.claims)).toEqual(["retailer", "supplier"]);
    expect(grantableAccountTypes(retailerEditor.claims)).toEqual([]);
  });

  it("never oneself, never someone above, never a right above one's own", () => {
    expect(checkUserEdit(retailerAdmin, retailerAdmin)).toEqual({ ok: false, reason: "users:refused.self" });
    expect(checkUserEdit(retailerAdmin, operator)).toEqual({ ok: false, reason: "users:refused.targetAbove" });
    expect(checkUserEdit(retailerEditor, person("s", "supplier", "VIEWER"))).toEqual({ ok: false, reason: "users:refused.notManager" });
    expect(checkUserEdit(operator, retailerAdmin)).toEqual({ ok: true });
    const supplier = person("s", "supplier", "VIEWER");
    expect(checkClaimsChange(retailerAdmin, supplier, { type: "operator", role: "VIEWER" })).toEqual({ ok: false, reason: "users:refused.roleAbove" });
    expect(checkClaimsChange(retailerAdmin, supplier, { type: "retailer", role: "ADMIN" })).toEqual({ ok: true });
    expect(checkClaimsChange(operator, supplier, { type: "operator", role: "ADMIN" })).toEqual({ ok: true });
    // An operator stepped down to EDITOR manages nobody, like a retailer EDITOR (ADR 40).
    const stepped = person("op2", "operator", "EDITOR");
    expect(checkClaimsChange(stepped, supplier, { type: "supplier", role: "ADMIN" })).toEqual({ ok: false, reason: "users:refused.notManager" });
    expect(checkClaimsChange(stepped, supplier, { type: "supplier", role: "EDITOR" })).toEqual({ ok: false, reason: "users:refused.notManager" });
    expect(checkUserEdit(stepped, supplier)).toEqual({ ok: false, reason: "users:refused.notManager" });
  });

  it("grantable roles stop at one's own", () => {
    expect(grantableRoles("EDITOR")).toEqual(["VIEWER", "REVIEWER", "EDITOR"]);
    expect(grantableRoles(null)).toEqual([]);
  });
});

describe("team members", () => {
  const teamAdmin = person("a", "supplier", "ADMIN", { t1: "ADMIN" });
  it("a supplier's ceiling on a team is their effective role there", () => {
    const capped = person("c", "supplier", "EDITOR", { t1: "ADMIN" });
    expect(checkInvite(capped, "t1", "ADMIN")).toEqual({ ok: false, reason: "users:refused.roleAbove" });
    expect(checkInvite(capped, "t1", "EDITOR")).toEqual({ ok: true });
    expect(checkInvite(capped, "t2", "VIEWER")).toEqual({ ok: false, reason: "users:refused.notManager" });
  });

  it("refuses oneself, non-members, members above and roles above", () => {
    expect(checkMemberChange(teamAdmin, teamAdmin, "t1", "VIEWER").ok).toBe(false);
    expect(checkMemberChange(teamAdmin, person("x", "supplier", "VIEWER", { t2: "VIEWER" }), "t1", "VIEWER")).toEqual({ ok: false, reason: "users:refused.notMember" });
    expect(checkMemberChange(teamAdmin, person("r", "retailer", "VIEWER", { t1: "VIEWER" }), "t1", null)).toEqual({ ok: false, reason: "users:refused.targetAbove" });
    const editorLead = person("e", "supplier", "ADMIN", { t1: "EDITOR" });
    expect(checkMemberChange(editorLead, person("v", "supplier", "VIEWER", { t1: "VIEWER" }), "t1", "ADMIN")).toEqual({ ok: false, reason: "users:refused.roleAbove" });
    expect(checkMemberChange(editorLead, person("b", "supplier", "ADMIN", { t1: "ADMIN" }), "t1", "VIEWER")).toEqual({ ok: false, reason: "users:refused.targetAbove" });
    expect(checkMemberChange(teamAdmin, person("v", "supplier", "VIEWER", { t1: "VIEWER" }), "t1", "ADMIN")).toEqual({ ok: true });
  });
});

describe("sign-in landing and invitation state", () => {
  it("a supplier with exactly one team lands on it; everyone else on the dashboard", () => {
    expect(signInLanding({ type: "supplier", role: "VIEWER" }, ["acme-brand"])).toBe("/teams/acme-brand");
    expect(signInLanding({ type: "supplier", role: "VIEWER" }, ["a", "b"])).toBe("/");
    expect(signInLanding({ type: "supplier", role: "VIEWER" }, [])).toBe("/");
    expect(signInLanding({ type: "retailer", role: "ADMIN" }, ["a"])).toBe("/");
  });

  it("a pending invitation past its expiry is expired", () => {
    const now = new Date("2026-05-01T10:00:00Z");
    expect(invitationState({ status: "pending", expiresAt: "2026-05-01T10:00:00Z" }, now)).toBe("expired");
    expect(invitationState({ status: "pending", expiresAt: "2026-05-01T10:00:01Z" }, now)).toBe("pending");
    expect(invitationState({ status: "accepted", expiresAt: "2026-04-01T00:00:00Z" }, now)).toBe("accepted");
  });
});
