/** Entity types shared by every layer. Pure data: no I/O, no framework. */

export const ACCOUNT_TYPES = ["operator", "retailer", "supplier"] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/** Role order, lowest first: VIEWER < REVIEWER < EDITOR < ADMIN. */
export const ROLES = ["VIEWER", "REVIEWER", "EDITOR", "ADMIN"] as const;
export type Role = (typeof ROLES)[number];

export interface Claims {
  type: AccountType;
  role: Role;
}

export type UserStatus = "pending" | "active";
export type ThemeChoice = "system" | "light" | "dark";

export interface NotificationPreferences {
  campaignStarts: boolean;
  campaignArchived: boolean;
  reportGenerated: boolean;
  walletsDepleting: boolean;
}

export interface DisplayPreferences {
  theme: ThemeChoice;
  menuCollapsed: boolean;
  rtl: boolean;
}

/** Every stored document carries its id and an optimistic-concurrency version. */
export interface DocMeta {
  id: string;
  version: number;
}

export interface UserData {
  email: string;
  /** Lower-cased e-mail, the lookup key. */
  emailLower: string;
  displayName: string;
  firstname: string;
  lastname: string;
  photoURL: string | null;
  locale: string;
  timezone: string;
  status: UserStatus;
  disabled: boolean;
  lastSignIn: string | null;
  claims: Claims;
  roleByTeam: Record<string, Role>;
  /** Derived from roleByTeam so that "teams listing this user" is an equality query. */
  teamIds: string[];
  notificationPrefs: NotificationPreferences;
  preferences: DisplayPreferences;
  passwordHash: string | null;
  /** Earlier password hashes, newest first: a new password must differ from all of them. */
  passwordHistory: string[];
  /** Incremented when every other session of the user must end (password reset or change). */
  sessionEpoch: number;
  // The user document fields of spec section 3.
  disconnected: boolean;
  last_auth: string | null;
  last_auth_method: string | null;
  auth_providers: string[];
  last_refresh_token: string | null;
  created: string;
  updated: string;
}
export type User = UserData & DocMeta;

export type TeamStatus = "active" | "suspended" | "archived";
export interface TeamData {
  name: string;
  nameLower: string;
  status: TeamStatus;
  account_type: "brand" | "marketplace_seller";
  created: string;
  updated: string;
}
export type Team = TeamData & DocMeta;

export interface LiveConfigData {
  /** The live application version; a client with a lower one reloads once. */
  appVersion: number;
  maintenance: boolean;
  /** Reload failures reported by clients, newest first, capped. */
  reloadLog: { at: string; from: number; to: number; userId: string | null }[];
  updated: string;
  updatedBy: string;
}
export type LiveConfig = LiveConfigData & DocMeta;

export interface AuditEntryData {
  at: string;
  /** E-mail of the acting user, else 'system'. */
  by: string;
  action: string;
  entity: string;
  entityId: string;
  teamId: string | null;
  changes: { field: string; before: unknown; after: unknown }[];
}
export type AuditEntry = AuditEntryData & DocMeta;

export interface PasswordResetTokenData {
  userId: string;
  expiresAt: string;
  usedAt: string | null;
  created: string;
}
export type PasswordResetToken = PasswordResetTokenData & DocMeta;

export interface LoginThrottleData {
  /** Failure instants (ISO) inside the current window. */
  failures: string[];
  lockedUntil: string | null;
}
export type LoginThrottle = LoginThrottleData & DocMeta;
