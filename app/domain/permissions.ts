/**
 * Spec section 6's rights as one table (account type x role x resource x action, with scope): data plus one pure function.
 */
import { ROLES, type AccountType, type Claims, type Role } from "~/domain/types";

export const RESOURCES = [
  "Home",
  "Campaign",
  "User",
  "Team",
  "TeamPage",
  "Wallet",
  "Report",
  "Catalog",
  "Inventory",
  "Health",
  "Notification",
  "RetailerSettings",
] as const;
export type Resource = (typeof RESOURCES)[number];

export const ACTIONS = [
  "read",
  "create",
  "update",
  "delete",
  /** enable, pause, archive, delete a draft, re-draft. */
  "lifecycle",
  /** test mode, suspend, disable, re-draft from suspended or disabled. */
  "restricted-lifecycle",
  "approve",
  "reject",
  /** Team ADMIN: members of a team. */
  "manage-members",
  /** Reports of other users (own reports need only create/update). */
  "manage-all",
] as const;
export type Action = (typeof ACTIONS)[number];

type Grant = readonly Action[];
const ALL: Grant = ACTIONS;
const READ: Grant = ["read"];
const OWN_REPORTS: Grant = ["read", "create", "update"];
const NOTIFICATIONS: Grant = ["read", "update"];
const CAMPAIGN_EDITOR: Grant = ["read", "create", "update", "lifecycle"];

type RightsTable = Record<Role, Partial<Record<Resource, Grant>>>;

const retailerBase: Partial<Record<Resource, Grant>> = {
  Home: READ,
  Campaign: READ,
  TeamPage: READ,
  Wallet: READ,
  Report: OWN_REPORTS,
  Catalog: READ,
  Inventory: READ,
  Notification: NOTIFICATIONS,
};

const RETAILER: RightsTable = {
  ADMIN: {
    Home: READ,
    Campaign: ALL,
    Team: ALL,
    TeamPage: ALL,
    Wallet: ALL,
    User: ALL,
    Report: ALL,
    Catalog: READ,
    Inventory: READ,
    Notification: NOTIFICATIONS,
    RetailerSettings: READ,
  },
  EDITOR: { ...retailerBase, Campaign: CAMPAIGN_EDITOR },
  REVIEWER: { ...retailerBase, Campaign: ["read", "approve", "reject"] },
  VIEWER: retailerBase,
};

/** Supplier rights are per effective team role (the lower of claim and team role). */
const supplierBase: Partial<Record<Resource, Grant>> = {
  Home: READ,
  Campaign: READ,
  TeamPage: READ,
  Wallet: READ,
  Report: OWN_REPORTS,
  Notification: NOTIFICATIONS,
};
const SUPPLIER: RightsTable = {
  ADMIN: { ...supplierBase, Campaign: CAMPAIGN_EDITOR, TeamPage: ["read", "manage-members"] },
  EDITOR: { ...supplierBase, Campaign: CAMPAIGN_EDITOR },
  REVIEWER: supplierBase,
  VIEWER: supplierBase,
};

/**
 * An operator is a super-admin at their ADMIN role; stepped down for the session, their rights are
 * exactly a retailer's of that role (ADR 40): nothing of the operator's stays, not even reading.
 */
const OPERATOR: RightsTable = {
  // Notifications are "own" for everybody, operators included (a user only ever reads their own).
  ADMIN: { ...(Object.fromEntries(RESOURCES.map((r) => [r, ALL])) as Record<Resource, Grant>), Notification: NOTIFICATIONS },
  EDITOR: RETAILER.EDITOR,
  REVIEWER: RETAILER.REVIEWER,
  VIEWER: RETAILER.VIEWER,
};

export const RIGHTS: Record<AccountType, RightsTable> = {
  operator: OPERATOR,
  retailer: RETAILER,
  supplier: SUPPLIER,
};

/** Resources whose rights depend on the team for a supplier. */
const TEAM_SCOPED: ReadonlySet<Resource> = new Set(["Campaign", "TeamPage", "Wallet", "Report"]);

/**
 * Whether the claims carry an operator's rights: an operator at the ADMIN role. Every right of an
 * operator (and every "operators see/do more") asks this, never `claims.type === "operator"`,
 * since `claims` is the session's effective claims and a stepped-down operator keeps the type
 * (ADR 40). Being an operator as such (may 'Log as', may switch the session role back, signs in
 * with a second factor, passes maintenance) is an identity fact and reads the account's own claims.
 */
export function hasOperatorRights(claims: Claims): boolean {
  return claims.type === "operator" && claims.role === "ADMIN";
}

/**
 * The account type whose rights the claims carry: an operator's own at ADMIN; an operator
 * stepped down for the session is judged as a retailer of the session role (ADR 40).
 */
export function rightsAccountType(claims: Claims): AccountType {
  return claims.type === "operator" && !hasOperatorRights(claims) ? "retailer" : claims.type;
}

export interface Subject {
  claims: Claims;
  roleByTeam: Record<string, Role>;
}

export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}

export function lowerRole(a: Role, b: Role): Role {
  return roleRank(a) <= roleRank(b) ? a : b;
}

/**
 * A user's role on one team as their entries record it (undefined: no part in it). Own entries
 * only: a team id typed as "__proto__" or "constructor" is no team of the user's.
 */
export function teamRoleOn(roleByTeam: Readonly<Record<string, Role>>, teamId: string): Role | undefined {
  return Object.hasOwn(roleByTeam, teamId) ? roleByTeam[teamId] : undefined;
}

/** The role that governs what a user may do on one team; null when the user has no part in it. */
export function effectiveTeamRole(subject: Subject, teamId: string): Role | null {
  const { type, role } = subject.claims;
  if (type !== "supplier") return role;
  const teamRole = teamRoleOn(subject.roleByTeam, teamId);
  return teamRole ? lowerRole(role, teamRole) : null;
}

/**
 * The one permission check. Without a team, a supplier is judged on their claim role (what the
 * route needs to open); with a team, on their effective role in it, and not at all outside it.
 */
export function can(
  subject: Subject,
  resource: Resource,
  action: Action = "read",
  scope: { teamId?: string } = {},
): boolean {
  const type = rightsAccountType(subject.claims);
  let role: Role | null = subject.claims.role;
  if (type === "supplier" && scope.teamId !== undefined && TEAM_SCOPED.has(resource)) {
    role = effectiveTeamRole(subject, scope.teamId);
  }
  if (!role) return false;
  return RIGHTS[type][role][resource]?.includes(action) ?? false;
}

/** Retailer REVIEWER or operator (at ADMIN; stepped down to REVIEWER, as a retailer REVIEWER): approve or reject when moderation applies. */
export function isReviewer(claims: Claims): boolean {
  return hasOperatorRights(claims) || (rightsAccountType(claims) === "retailer" && claims.role === "REVIEWER");
}

/** Retailer ADMIN or operator (at ADMIN: a stepped-down operator is no team manager). */
export function isTeamManager(claims: Claims): boolean {
  return hasOperatorRights(claims) || (rightsAccountType(claims) === "retailer" && claims.role === "ADMIN");
}

/** Operator (at ADMIN), or a user whose (effective) role in the team is ADMIN. */
export function isTeamAdmin(subject: Subject, teamId: string): boolean {
  if (hasOperatorRights(subject.claims)) return true;
  return effectiveTeamRole(subject, teamId) === "ADMIN";
}

/** Read-only: the user's role is VIEWER. */
export function isViewer(claims: Claims): boolean {
  return claims.role === "VIEWER";
}

/** Only operators and retailers see sensitive data (external ids, tags, comments, claims). */
export function canSeeSensitive(claims: Claims): boolean {
  const type = rightsAccountType(claims);
  return type === "operator" || type === "retailer";
}

/** Nobody grants a right above their own. */
export function canGrant(granter: Claims, target: Claims): boolean {
  if (!isTeamManager(granter)) return false;
  if (rightsAccountType(granter) === "retailer" && target.type === "operator") return false;
  return roleRank(target.role) <= roleRank(granter.role);
}

