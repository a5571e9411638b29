/**
 * The operators' tools of spec section 6: 'Log as' another user, the session's role step-down,
 * and the retailer staff e-mail domain. Pure: no I/O, no clock.
 */
import { isTeamManager, roleRank } from "~/domain/permissions";
import { ROLES, type Claims, type Role } from "~/domain/types";

/** Why 'Log as' is refused: a stable code that is also the i18n key of the message. */
export type LogAsRefusal =
  | "operators:refused.notOperator"
  | "operators:refused.targetOperator"
  | "operators:refused.alreadyLoggedAs"
  | "operators:refused.self"
  | "operators:refused.targetDisabled";

export type LogAsCheck = { ok: true } | { ok: false; reason: LogAsRefusal };

/** Who is asking: the real signed-in account (never the user being acted as). */
export interface LogAsRequester {
  id: string;
  claims: Claims;
  /** Already logged as someone: one level only. */
  loggedAs: boolean;
}

/** Only an operator logs as another user; never into another operator, never twice. */
export function checkLogAs(requester: LogAsRequester, target: { id: string; claims: Claims; disabled: boolean }): LogAsCheck {
  if (requester.claims.type !== "operator") return { ok: false, reason: "operators:refused.notOperator" };
  if (requester.loggedAs) return { ok: false, reason: "operators:refused.alreadyLoggedAs" };
  if (requester.id === target.id) return { ok: false, reason: "operators:refused.self" };
  if (target.claims.type === "operator") return { ok: false, reason: "operators:refused.targetOperator" };
  if (target.disabled) return { ok: false, reason: "operators:refused.targetDisabled" };
  return { ok: true };
}

/** The roles one may step down to for the session: below one's own, never SUPER_ADMIN (not a role). */
export const STEP_DOWN_ROLES = ["EDITOR", "REVIEWER", "VIEWER"] as const satisfies readonly Role[];

/**
 * The roles an account may take for the session: an operator or an ADMIN steps down to EDITOR,
 * REVIEWER or VIEWER below their own role, and back to their own. Empty: no step-down.
 */
export function stepDownChoices(own: Claims): Role[] {
  if (own.type !== "operator" && own.role !== "ADMIN") return [];
  const below = STEP_DOWN_ROLES.filter((role) => roleRank(role) < roleRank(own.role));
  return below.length ? [...ROLES.filter((role) => role === own.role || (below as Role[]).includes(role))].reverse() : [];
}

export type StepDownCheck = { ok: true; role: Role | null } | { ok: false; reason: "operators:refused.stepUp" };

/**
 * A requested session role: one's own role ends the step-down (null), a lower one of the choices
 * is kept; anything else (above one's own, SUPER_ADMIN, unknown) is refused.
 */
export function checkStepDown(own: Claims, requested: string): StepDownCheck {
  const choices = stepDownChoices(own);
  if (!choices.includes(requested as Role)) return { ok: false, reason: "operators:refused.stepUp" };
  return { ok: true, role: requested === own.role ? null : (requested as Role) };
}

/** The claims in force for a session stepped down to `stepped` (null: one's own). */
export function effectiveClaims(own: Claims, stepped: Role | null | undefined): Claims {
  if (!stepped || checkStepDown(own, stepped).ok === false || stepped === own.role) return own;
  return { ...own, role: stepped };
}

/** A retailer staff e-mail domain as stored: lower case, without '@' (empty: none). */
export function normaliseStaffDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/^@+/, "");
}

/** An e-mail address of the retailer's staff domain (the domain itself or one of its subdomains). */
export function isStaffEmail(email: string, staffDomain: string | null | undefined): boolean {
  const domain = normaliseStaffDomain(staffDomain ?? "");
  if (!domain) return false;
  const at = email.lastIndexOf("@");
  if (at < 0) return false;
  const host = email.slice(at + 1).trim().toLowerCase();
  return host === domain || host.endsWith(`.${domain}`);
}

/** Only an operator (at ADMIN) or a retailer ADMIN creates a user of the staff domain (spec section 6): the team managers. */
export function canCreateStaffUser(creator: Claims): boolean {
  return isTeamManager(creator);
}

/**
 * The claims a new account of an accepted invitation gets: a staff-domain address invited by an
 * operator or a retailer ADMIN is retailer staff with the invited role; any other invitation (a
 * supplier's above all) makes a supplier, never a retailer.
 */
export function claimsForInvitedUser(email: string, role: Role, invitedBy: Claims | null, staffDomain: string | null | undefined): Claims {
  if (invitedBy && isStaffEmail(email, staffDomain) && canCreateStaffUser(invitedBy)) return { type: "retailer", role };
  return { type: "supplier", role };
}

/** Who an audit entry names for a change: the user and, while logged as them, the operator. */
export function auditActor(user: { email: string; loggedAsBy?: { email: string } }): { by: string; realBy?: string } {
  return user.loggedAsBy ? { by: user.email, realBy: user.loggedAsBy.email } : { by: user.email };
}
