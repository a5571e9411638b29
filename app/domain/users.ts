/**
 * Rules for managing users, team members and invitations (spec sections 4 and 6, and the rights
 * table in app/domain/permissions.ts): nobody grants a right above their own, nobody changes themselves, a retailer admin never
 * sees or touches operators. Pure: no I/O, no clock.
 */
import { canGrant, effectiveTeamRole, isTeamManager, rightsAccountType, roleRank, teamRoleOn, type Subject } from "~/domain/permissions";
import { ACCOUNT_TYPES, ROLES, type AccountType, type Claims, type Role } from "~/domain/types";

/** How long an e-mailed invitation link stays valid. */
export const INVITATION_TTL_DAYS = 7;
export const USERS_PAGE_SIZE = 25;

export interface Actor extends Subject {
  id: string;
}

export interface Member {
  id: string;
  claims: Claims;
  roleByTeam: Record<string, Role>;
}

/** Why a change is refused: a stable code that is also the i18n key of the message. */
export type UserChangeRefusal =
  | "users:refused.self"
  | "users:refused.targetAbove"
  | "users:refused.roleAbove"
  | "users:refused.notMember"
  | "users:refused.notManager";

export type Check = { ok: true } | { ok: false; reason: UserChangeRefusal };
const ok: Check = { ok: true };
const refuse = (reason: UserChangeRefusal): Check => ({ ok: false, reason });

/** operator > retailer > supplier. */
export function accountRank(type: AccountType): number {
  return { supplier: 0, retailer: 1, operator: 2 }[type];
}

/** The account types a user manager sees on /users (a retailer admin, or an operator stepped down, never sees operators). */
export function visibleAccountTypes(claims: Claims): AccountType[] {
  const type = rightsAccountType(claims);
  if (type === "operator") return [...ACCOUNT_TYPES];
  if (type === "retailer") return ["retailer", "supplier"];
  return [];
}

export function canSeeUser(viewer: Claims, target: { claims: Claims }): boolean {
  return visibleAccountTypes(viewer).includes(target.claims.type);
}

/** Roles one may grant: never above one's own. */
export function grantableRoles(role: Role | null): Role[] {
  if (!role) return [];
  return ROLES.filter((r) => roleRank(r) <= roleRank(role));
}

/** Account types a user manager may give (a retailer admin cannot make operators). */
export function grantableAccountTypes(claims: Claims): AccountType[] {
  if (!isTeamManager(claims)) return [];
  return rightsAccountType(claims) === "operator" ? [...ACCOUNT_TYPES] : ["retailer", "supplier"];
}

/**
 * /users: may `actor` change `target` at all (claims, team roles, disabled)? Never oneself, and
 * never someone whose rights are above one's own (canGrant on the target's current claims).
 */
export function checkUserEdit(actor: Actor, target: Member): Check {
  if (!isTeamManager(actor.claims)) return refuse("users:refused.notManager");
  if (actor.id === target.id) return refuse("users:refused.self");
  if (!canGrant(actor.claims, target.claims)) return refuse("users:refused.targetAbove");
  return ok;
}

/** /users: a change of claims, checked on both the current and the new claims. */
export function checkClaimsChange(actor: Actor, target: Member, next: Claims): Check {
  const edit = checkUserEdit(actor, target);
  if (!edit.ok) return edit;
  if (!canGrant(actor.claims, next)) return refuse("users:refused.roleAbove");
  return ok;
}

/**
 * The role an actor holds on a team, the ceiling of what they grant there: an operator's or a
 * retailer's claim role; a supplier's effective team role (null outside the team).
 */
export function actorTeamRole(actor: Subject, teamId: string): Role | null {
  return effectiveTeamRole(actor, teamId);
}

/**
 * A change of a member's role on a team (`next` null: their rights on the team are removed).
 * Never oneself, never a member above the actor (by account type or team role), never a role
 * above the actor's own on the team.
 */
export function checkMemberChange(actor: Actor, member: Member, teamId: string, next: Role | null): Check {
  if (actor.id === member.id) return refuse("users:refused.self");
  const current = teamRoleOn(member.roleByTeam, teamId);
  if (!current) return refuse("users:refused.notMember");
  const ceiling = actorTeamRole(actor, teamId);
  if (!ceiling) return refuse("users:refused.notManager");
  if (accountRank(member.claims.type) > accountRank(rightsAccountType(actor.claims))) return refuse("users:refused.targetAbove");
  if (roleRank(current) > roleRank(ceiling)) return refuse("users:refused.targetAbove");
  if (next && roleRank(next) > roleRank(ceiling)) return refuse("users:refused.roleAbove");
  return ok;
}

/** An invitation to a team with a role: never above the inviter's own role there. */
export function checkInvite(actor: Subject, teamId: string, role: Role): Check {
  const ceiling = actorTeamRole(actor, teamId);
  if (!ceiling) return refuse("users:refused.notManager");
  if (roleRank(role) > roleRank(ceiling)) return refuse("users:refused.roleAbove");
  return ok;
}

/** Where a user lands after signing in with no destination: their team when they have exactly one. */
export function signInLanding(claims: Claims, visibleTeamIds: readonly string[]): string {
  // Retailers and operators work across every team: the dashboard is their home.
  if (claims.type === "supplier" && visibleTeamIds.length === 1) return `/teams/${encodeURIComponent(visibleTeamIds[0])}`;
  return "/";
}

export type InvitationState = "pending" | "expired" | "accepted" | "revoked";

/** A pending invitation past its expiry shows as expired (it can still be resent or revoked). */
export function invitationState(invitation: { status: "pending" | "accepted" | "revoked"; expiresAt: string }, now: Date): InvitationState {
  if (invitation.status === "pending" && Date.parse(invitation.expiresAt) <= now.getTime()) return "expired";
  return invitation.status;
}

export function invitationExpiry(now: Date, days = INVITATION_TTL_DAYS): Date {
  return new Date(now.getTime() + days * 24 * 60 * 60 * 1000);
}
