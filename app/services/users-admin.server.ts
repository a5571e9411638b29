/**
 * Managing users (/users) and team members (team settings → Members): claims, team roles,
 * disabling, and the pending → active step once a user's teams load. Every rule is in
 * app/domain/users.ts; this file reads, checks and writes.
 */
import { auditActor } from "~/domain/operators";
import { canSeeSensitive, roleRank, teamRoleOn } from "~/domain/permissions";
import { conflict, fail, notFound, ok, type Failure, type Result } from "~/domain/result";
import { canSeeTeam, listableTeamStatuses } from "~/domain/teams";
import type { AccountType, Role, Team, User, UserStatus } from "~/domain/types";
import {
  actorTeamRole,
  canSeeUser,
  checkClaimsChange,
  checkMemberChange,
  checkUserEdit,
  grantableRoles,
  signInLanding,
  USERS_PAGE_SIZE,
  visibleAccountTypes,
  type UserChangeRefusal,
} from "~/domain/users";
import type { UsersFilter } from "~/forms/users";
import { ConflictError, NotFoundError } from "~/storage/port";
import { getStorage } from "~/services/storage.server";

/** What a refused change is: out of scope (a team the user is not on) or beyond the actor's rights. */
export function userChangeFailure(reason: UserChangeRefusal): Failure {
  return fail(reason === "users:refused.notMember" ? "not-found" : "forbidden", reason);
}

/** A change of a user: the saved user, or why not (the reason is the i18n key). */
export type ChangeOutcome = Result<User>;

const userNotFound = () => fail("not-found", "users:errors.notFound");

/** Runs a versioned user update, turning a stale version into a conflict. */
async function guarded(run: () => Promise<User>): Promise<ChangeOutcome> {
  try {
    return ok(await run());
  } catch (error) {
    if (error instanceof ConflictError) return conflict();
    if (error instanceof NotFoundError) return userNotFound();
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// /users

export interface UserRow {
  id: string;
  displayName: string;
  email: string;
  status: UserStatus;
  disabled: boolean;
  lastSignIn: string | null;
  claims: { type: AccountType; role: Role };
  teams: { id: string; name: string; role: Role }[];
}

/** Names of the teams of these users that the viewer may see. */
async function teamNames(viewer: User, users: readonly User[]): Promise<Map<string, Team>> {
  const ids = [...new Set(users.flatMap((u) => Object.keys(u.roleByTeam)))];
  if (!ids.length) return new Map();
  const teams = await getStorage().teams.getMany(ids);
  return new Map(teams.filter((t) => canSeeTeam(viewer, t)).map((t) => [t.id, t]));
}

function toRow(user: User, teams: Map<string, Team>): UserRow {
  return {
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    status: user.status,
    disabled: user.disabled,
    lastSignIn: user.lastSignIn,
    claims: user.claims,
    teams: Object.entries(user.roleByTeam)
      .filter(([id]) => teams.has(id))
      .map(([id, role]) => ({ id, name: teams.get(id)!.name, role }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

export type UsersPage = { ok: true; users: UserRow[]; next: string | null } | { ok: false; users: []; next: null };

/** One page of the users the viewer may see (a retailer admin: retailer and supplier users only). */
export async function listUsersForAdmin(viewer: User, filter: UsersFilter): Promise<UsersPage> {
  const types = visibleAccountTypes(viewer.claims);
  const type = filter.type && types.includes(filter.type) ? filter.type : undefined;
  try {
    const page = await getStorage().users.list({
      search: filter.q || undefined,
      type,
      types: type ? undefined : types,
      status: filter.status,
      limit: USERS_PAGE_SIZE,
      after: filter.after || null,
    });
    const visible = page.items.filter((u) => canSeeUser(viewer.claims, u));
    const teams = await teamNames(viewer, visible);
    return { ok: true, users: visible.map((u) => toRow(u, teams)), next: page.next };
  } catch (error) {
    // A tampered cursor or a storage failure: the page says 'User fetch failed'.
    console.error("User fetch failed", error);
    return { ok: false, users: [], next: null };
  }
}

/** A user the viewer may see; not-found outside the scope (whether they exist is not revealed). */
export async function getUserForAdmin(viewer: User, userId: string): Promise<Result<User>> {
  const user = userId ? await getStorage().users.getOne(userId) : null;
  return user && canSeeUser(viewer.claims, user) ? ok(user) : userNotFound();
}

export async function userRowForAdmin(viewer: User, user: User): Promise<UserRow> {
  return toRow(user, await teamNames(viewer, [user]));
}

/** Teams the user could be given a role on: the first 100 by name that the viewer sees. */
export async function teamChoicesFor(viewer: User, target: User): Promise<{ id: string; name: string }[]> {
  const page = await getStorage().teams.list({ statuses: listableTeamStatuses(viewer.claims), sort: "name", direction: "asc", limit: 100 });
  return page.items.filter((team) => canSeeTeam(viewer, team) && !teamRoleOn(target.roleByTeam, team.id)).map((team) => ({ id: team.id, name: team.name }));
}

/** Claims change: never oneself, never above one's own rights; the user's sessions end with it. */
export async function updateUserClaims(actor: User, target: User, input: { type: AccountType; role: Role; version: number }): Promise<ChangeOutcome> {
  if (!canSeeUser(actor.claims, target)) return userNotFound();
  const check = checkClaimsChange(actor, target, { type: input.type, role: input.role });
  if (!check.ok) return userChangeFailure(check.reason);
  if (target.claims.type === input.type && target.claims.role === input.role) return ok(target);
  return guarded(() =>
    getStorage().users.update(target.id, { claims: { type: input.type, role: input.role } }, auditActor(actor), { expectVersion: input.version }),
  );
}

/** /users: gives a user a role on a team (or changes it); `role` null removes their rights on it. */
export async function setUserTeamRole(
  actor: User,
  target: User,
  input: { teamId: string; role: Role | null; version: number },
): Promise<ChangeOutcome> {
  if (!canSeeUser(actor.claims, target)) return userNotFound();
  const check = checkUserEdit(actor, target);
  if (!check.ok) return userChangeFailure(check.reason);
  const ceiling = actorTeamRole(actor, input.teamId);
  if (input.role && (!ceiling || roleRank(input.role) > roleRank(ceiling))) return userChangeFailure("users:refused.roleAbove");
  const team = await getStorage().teams.getOne(input.teamId);
  if (!team || !canSeeTeam(actor, team)) return notFound();
  const roleByTeam = { ...target.roleByTeam };
  if (input.role) roleByTeam[input.teamId] = input.role;
  else if (roleByTeam[input.teamId]) delete roleByTeam[input.teamId];
  else return userChangeFailure("users:refused.notMember");
  return guarded(() => getStorage().users.update(target.id, { roleByTeam }, auditActor(actor), { expectVersion: input.version }));
}

/** Disables or enables an account; a disabled user is signed out on their next request. */
export async function setUserDisabled(actor: User, target: User, input: { disabled: boolean; version: number }): Promise<ChangeOutcome> {
  if (!canSeeUser(actor.claims, target)) return userNotFound();
  const check = checkUserEdit(actor, target);
  if (!check.ok) return userChangeFailure(check.reason);
  if (target.disabled === input.disabled) return ok(target);
  const outcome = await guarded(() => getStorage().users.update(target.id, { disabled: input.disabled }, auditActor(actor), { expectVersion: input.version }));
  // A disabled user's sessions end on the server at once, on every instance: enabling them
  // again later never revives a session opened before.
  if (outcome.ok && input.disabled) await getStorage().sessions.deleteForUser(target.id);
  return outcome;
}

// ---------------------------------------------------------------------------------------------
// Team members

export interface MemberRow {
  id: string;
  displayName: string;
  email: string;
  status: UserStatus;
  disabled: boolean;
  /** Claims data: sent only to those who may see other users' claims (operators, retailers), and for the viewer's own row. */
  accountType?: AccountType;
  teamRole: Role;
  /** The role that governs what they do on the team (a supplier's claim role may cap it); claims data, as accountType. */
  effectiveRole?: Role;
  /** What the viewer may do: change the role (to these roles) and remove. */
  grantable: Role[];
  editable: boolean;
  self: boolean;
}

export async function listTeamMembers(actor: User, teamId: string): Promise<MemberRow[]> {
  const members = await getStorage().users.listByTeam(teamId);
  const ceiling = actorTeamRole(actor, teamId);
  return members.map((m) => {
    const teamRole = teamRoleOn(m.roleByTeam, teamId)!;
    const editable = checkMemberChange(actor, m, teamId, null).ok;
    const effectiveRole = m.claims.type === "supplier" && roleRank(m.claims.role) < roleRank(teamRole) ? m.claims.role : teamRole;
    // Other users' claims are sensitive (NOTES): a supplier admin sees only the team role.
    const claimsShown = canSeeSensitive(actor.claims) || m.id === actor.id;
    return {
      id: m.id,
      displayName: m.displayName,
      email: m.email,
      status: m.status,
      disabled: m.disabled,
      ...(claimsShown ? { accountType: m.claims.type, effectiveRole } : {}),
      teamRole,
      grantable: editable ? grantableRoles(ceiling) : [],
      editable,
      self: m.id === actor.id,
    };
  });
}

async function memberChange(actor: User, teamId: string, userId: string, next: Role | null): Promise<ChangeOutcome> {
  const storage = getStorage();
  const member = await storage.users.getOne(userId);
  if (!member || !teamRoleOn(member.roleByTeam, teamId)) return userChangeFailure("users:refused.notMember");
  const check = checkMemberChange(actor, member, teamId, next);
  if (!check.ok) return userChangeFailure(check.reason);
  const roleByTeam = { ...member.roleByTeam };
  if (next) roleByTeam[teamId] = next;
  else delete roleByTeam[teamId];
  return guarded(() => storage.users.update(member.id, { roleByTeam }, auditActor(actor), { expectVersion: member.version }));
}

export function changeMemberRole(actor: User, teamId: string, userId: string, role: Role): Promise<ChangeOutcome> {
  return memberChange(actor, teamId, userId, role);
}

/** Removes a member's rights on the team (after the page's confirmation). */
export function removeMember(actor: User, teamId: string, userId: string): Promise<ChangeOutcome> {
  return memberChange(actor, teamId, userId, null);
}

// ---------------------------------------------------------------------------------------------
// Pending → active, and where a user lands after signing in

/** Spec section 4: a pending user becomes active once their teams load. Idempotent. */
export async function activatePendingUser(user: User): Promise<User> {
  if (user.status !== "pending") return user;
  try {
    // Only the status changes (a shallow patch), so no version is needed: racing calls agree.
    return await getStorage().users.update(user.id, { status: "active" }, auditActor(user));
  } catch (error) {
    if (error instanceof NotFoundError) return user;
    throw error;
  }
}

/** Loads the teams of a signing-in user (activating a pending one) and picks where they land. */
export async function loadTeamsOnSignIn(user: User): Promise<{ user: User; teams: Team[]; landing: string }> {
  const ids = Object.keys(user.roleByTeam);
  const teams = ids.length ? (await getStorage().teams.getMany(ids)).filter((t) => canSeeTeam(user, t)) : [];
  const active = await activatePendingUser(user);
  return { user: active, teams, landing: signInLanding(user.claims, teams.map((t) => t.id)) };
}
