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

/** An operator is a super-admin; stepped down for a session, it keeps Health and settings reading. */
const OPERATOR: RightsTable = {
  // Notifications are "own" for everybody, operators included (a user only ever reads their own).
  ADMIN: { ...(Object.fromEntries(RESOURCES.map((r) => [r, ALL])) as Record<Resource, Grant>), Notification: NOTIFICATIONS },
  EDITOR: { ...RETAILER.EDITOR, Health: READ, RetailerSettings: READ },
  REVIEWER: { ...RETAILER.REVIEWER, Health: READ, RetailerSettings: READ },
  VIEWER: { ...RETAILER.VIEWER, Health: READ, RetailerSettings: READ },
};

export const RIGHTS: Record<AccountType, RightsTable> = {
  operator: OPERATOR,
  retailer: RETAILER,
  supplier: SUPPLIER,
};

/** Resources whose rights depend on the team for a supplier. */
const TEAM_SCOPED: ReadonlySet<Resource> = new Set(["Campaign", "TeamPage", "Wallet", "Report"]);

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
  const { type } = subject.claims;
  let role: Role | null = subject.claims.role;
  if (type === "supplier" && scope.teamId !== undefined && TEAM_SCOPED.has(resource)) {
    role = effectiveTeamRole(subject, scope.teamId);
  }
  if (!role) return false;
  return RIGHTS[type][role][resource]?.includes(action) ?? false;
}

/** Retailer REVIEWER or operator: approve or reject when moderation applies. */
export function isReviewer(claims: Claims): boolean {
  return claims.type === "operator" || (claims.type === "retailer" && claims.role === "REVIEWER");
}

/** Retailer ADMIN or operator. */
export function isTeamManager(claims: Claims): boolean {
  return claims.type === "operator" || (claims.type === "retailer" && claims.role === "ADMIN");
}

/** Operator, or a user whose (effective) role in the team is ADMIN. */
export function isTeamAdmin(subject: Subject, teamId: string): boolean {
  if (subject.claims.type === "operator") return true;
  return effectiveTeamRole(subject, teamId) === "ADMIN";
}

/** Read-only: the user's role is VIEWER. */
export function isViewer(claims: Claims): boolean {
  return claims.role === "VIEWER";
}

/** Only operators and retailers see sensitive data (external ids, tags, comments, claims). */
export function canSeeSensitive(claims: Claims): boolean {
  return claims.type === "operator" || claims.type === "retailer";
}

/** Nobody grants a right above their own. */
export function canGrant(granter: Claims, target: Claims): boolean {
  if (!isTeamManager(granter)) return false;
  if (granter.type === "retailer" && target.type === "operator") return false;
  return roleRank(target.role) <= roleRank(granter.role);
}

