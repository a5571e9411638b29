/**
 * The operators' tools of spec section 6 as use cases: 'Log as' another user and the session's
 * role step-down. The rules are app/domain/operators.ts; the HTTP adapter keeps the outcome in
 * the session (app/http/auth.server.ts).
 */
import { checkLogAs, checkStepDown, stepDownChoices } from "~/domain/operators";
import { fail, ok, type Result } from "~/domain/result";
import type { Claims, Role, User } from "~/domain/types";
import { getStorage } from "~/services/storage.server";

/** The account really signed in (the operator while logged as someone), with its own claims. */
function ownClaims(user: User): Claims {
  if (user.loggedAsBy) return user.loggedAsBy.claims;
  return user.ownRole ? { ...user.claims, role: user.ownRole } : user.claims;
}

/**
 * 'Log as': only an operator, never into another operator, never while already logged as
 * someone. A user outside reach is not found (its existence is not revealed to non-operators).
 */
export async function startLogAs(user: User, targetId: string): Promise<Result<User>> {
  const target = await getStorage().users.getOne(targetId);
  if (!target) return fail("not-found", "errors.notFound");
  const requester = { id: user.loggedAsBy?.id ?? user.id, claims: ownClaims(user), loggedAs: !!user.loggedAsBy };
  const check = checkLogAs(requester, target);
  if (!check.ok) return fail("forbidden", check.reason);
  return ok(target);
}

/** Whether this user may be offered 'Log as' into the target (the page's button). */
export function offersLogAs(user: User, target: User): boolean {
  return checkLogAs({ id: user.id, claims: ownClaims(user), loggedAs: !!user.loggedAsBy }, target).ok;
}

/** Ends 'Log as'; refused when the session is not logged as anyone. */
export function endLogAs(user: User): Result<void> {
  return user.loggedAsBy ? ok() : fail("invalid", "operators:refused.notLoggedAs");
}

/** The roles the user menu offers for the session (empty: none), and the one in force. */
export function sessionRoles(user: User): { choices: Role[]; current: Role; own: Role } | null {
  if (user.loggedAsBy) return null;
  const own = ownClaims(user);
  const choices = stepDownChoices(own);
  return choices.length ? { choices, current: user.claims.role, own: own.role } : null;
}

/**
 * Steps the session's role down (EDITOR, REVIEWER, VIEWER below one's own) or back to one's own
 * (null); a role above one's own, SUPER_ADMIN or anything else is refused, and so is a step-down
 * while logged as someone (the rights are then the other user's).
 */
export function changeSessionRole(user: User, requested: string): Result<Role | null> {
  if (user.loggedAsBy) return fail("forbidden", "operators:refused.stepDownLoggedAs");
  const check = checkStepDown(ownClaims(user), requested);
  if (!check.ok) return fail("forbidden", check.reason);
  return ok(check.role);
}
