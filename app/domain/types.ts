/** Entity types shared by every layer. Pure data: no I/O, no framework. */
import type { Cents } from "~/domain/money";
import type { FloorPrices, RetailerSettings } from "~/domain/retailer-settings";
import type { SsoSettings } from "~/domain/sso";

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
  /** Word prefixes of the name and e-mail, for search. */
  searchTokens: string[];
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
  /** The operator's second factor (issue 12): the TOTP secret (base32) once enrolled. */
  totpSecret?: string | null;
  /** sha256 of the unused recovery codes; each is removed when used. */
  recoveryCodeHashes?: string[];
  /** The time step of the last code accepted: a code is never accepted twice (ADR 30). */
  totpLastStep?: number | null;
  /** The embedded demo operator signs in without a second factor (demo data only). */
  secondFactorExempt?: boolean;
  // The user document fields of spec section 3.
  disconnected: boolean;
  last_auth: string | null;
  last_auth_method: string | null;
  auth_providers: string[];
  last_refresh_token: string | null;
  created: string;
  updated: string;
}
/** What the session adds to the signed-in user for one request: never stored. */
export interface SessionFacts {
  /** The operator logged as this user ('Log as'). */
  loggedAsBy?: { id: string; email: string; displayName: string; claims: Claims };
  /** The user's own role while stepped down for the session (claims.role is then the lower one). */
  ownRole?: Role;
}
export type User = UserData & DocMeta & SessionFacts;

export const TEAM_STATUSES = ["active", "suspended", "archived"] as const;
export type TeamStatus = (typeof TEAM_STATUSES)[number];
/** Account types of the spec; this configuration allows brand and marketplace seller. */
export const ALL_TEAM_ACCOUNT_TYPES = ["brand", "marketplace_seller", "agency", "mixed_seller"] as const;
export type TeamAccountType = (typeof ALL_TEAM_ACCOUNT_TYPES)[number];
export const ALLOWED_TEAM_ACCOUNT_TYPES = ["brand", "marketplace_seller"] as const satisfies readonly TeamAccountType[];
export const INTERNAL_BILLING_TAG = "internal billing";

/** Money per currency code (see TeamData.totals). */
export type TeamTotals = Record<string, { balance: Cents; credit: Cents }>;

export interface TeamData {
  name: string;
  /** Lower-cased, accent-folded name: the uniqueness key and the sort key. */
  nameLower: string;
  /** Word prefixes of the name, for search (an array-contains query). */
  searchTokens: string[];
  status: TeamStatus;
  account_type: TeamAccountType;
  contact: string;
  address: string;
  zip_code: string;
  city: string;
  state: string;
  country: string;
  /** Path of the logo in the files store, or null. */
  logo: string | null;
  tags: string[];
  associated_brands: string[];
  marketplace_seller_id: string;
  external_id: string;
  pending_review_campaigns: string[];
  /** Derived copies kept by the ledger, so the teams list is a single query. */
  walletCount: number;
  /**
   * The team's balance and credit per currency (each wallet has one; amounts of two currencies
   * are never added up): { EUR: { balance, credit }, PLN: {…} }, only currencies that had entries.
   */
  totals: TeamTotals;
  /** The sort key of "by balance": the largest of the per-currency balances (0 without any). */
  balance: Cents;
  liveCampaigns: number;
  created: string;
  updated: string;
  /** The record version the last edit of its editable fields produced (money totals and counters also raise the version, and must not make an edit stale). */
  settingsSavedAtVersion?: number;
}
export type Team = TeamData & DocMeta;

export const WALLET_STATUSES = ["active", "test", "disabled", "archived"] as const;
export type WalletStatus = (typeof WALLET_STATUSES)[number];

export interface WalletData {
  teamId: string;
  label: string;
  currency: string;
  status: WalletStatus;
  /** balance = credit - debit, always. */
  debit: Cents;
  credit: Cents;
  balance: Cents;
  /** Null when no daily budget is set. */
  dailyBudget: Cents | null;
  budgetEditing: boolean;
  external_id: string;
  tags: string[];
  created: string;
  updated: string;
  /** The record version the last edit of its editable fields produced (money totals and counters also raise the version, and must not make an edit stale). */
  settingsSavedAtVersion?: number;
  balanceUpdated: string | null;
  /** The first debit of any kind (a ledger fact; the runway starts at firstSpendAt, ADR 41). */
  firstDebitAt: string | null;
  /**
   * Ad spend (ADR 41): the settlement's debits less their reversals. Manual debits and the
   * reversals of credits are no spend. Kept by the ledger with credit and debit.
   */
  spend: Cents;
  /** Funding (ADR 41): credits less their reversals (a reversed credit was never funded). */
  funded: Cents;
  /** The first ad spend (the runway's "first event", ADR 41). */
  firstSpendAt: string | null;
  /** Spend of the retailer's current day. */
  todaySpend: { day: string; amount: Cents };
  /** Number of ledger entries, the sequence of the next one. */
  entryCount: number;
}
export type Wallet = WalletData & DocMeta;

export type EntryType = "credit" | "debit";

export interface LedgerEntryData {
  walletId: string;
  teamId: string;
  /** 1, 2, 3… in the wallet: the order of the running balance. */
  seq: number;
  type: EntryType;
  /** Above zero. */
  amount: Cents;
  /** The wallet's balance right after this entry. */
  balanceAfter: Cents;
  reference: string;
  comment: string;
  /** E-mail of who posted it, else 'system'. */
  by: string;
  /** E-mail of the operator who posted it while logged as `by` ('Log as'; absent otherwise). */
  realBy?: string;
  at: string;
  /** The entry this one reverses, or null. */
  reversalOf: string | null;
}
export type LedgerEntry = LedgerEntryData & DocMeta;

export type InvitationStatus = "pending" | "accepted" | "revoked";
export interface InvitationData {
  teamId: string;
  email: string;
  emailLower: string;
  role: Role;
  status: InvitationStatus;
  /** sha256 of the secret in the e-mailed link. */
  tokenHash: string;
  expiresAt: string;
  invitedBy: string;
  created: string;
  updated: string;
  sentCount: number;
  acceptedAt: string | null;
  acceptedBy: string | null;
}
export type Invitation = InvitationData & DocMeta;

export interface LiveConfigData {
  /** The live application version; a client with a lower one reloads once. */
  appVersion: number;
  maintenance: boolean;
  /** Reload failures reported by clients, newest first, capped. */
  reloadLog: { at: string; from: number; to: number; userId: string | null }[];
  /** The retailer settings edited by operators; missing = the spec's defaults. */
  retailerSettings?: RetailerSettings;
  /** Who signs in how (issue 12): the staff e-mail domain, the operators' second factor; missing = defaults. */
  access?: AccessSettings;
  /** Floor prices per keyword and category, edited by operators; missing = none. */
  floorPrices?: FloorPrices;
  /** The identity provider of single sign-on (issue 12 §1), edited by operators; missing = none. */
  sso?: SsoSettings;
  /** Hosts of product images (https origins) the pages may load, edited by operators; missing = none (ADR 34). */
  productImageHosts?: string[];
  updated: string;
  updatedBy: string;
}
export type LiveConfig = LiveConfigData & DocMeta;

/** Retailer settings of access (spec section 6, issue 12). */
export interface AccessSettings {
  /** The retailer's staff e-mail domain ('' for none): such users are retailer staff by their claims. */
  staffEmailDomain: string;
  /** Operators sign in with a second factor (TOTP or a recovery code). */
  operatorTotpRequired: boolean;
}
export const DEFAULT_ACCESS_SETTINGS: AccessSettings = { staffEmailDomain: "", operatorTotpRequired: true };

export interface AuditEntryData {
  at: string;
  /** E-mail of the acting user, else 'system'. */
  by: string;
  /** E-mail of the operator who made the change while logged as `by` ('Log as'); absent otherwise. */
  realBy?: string;
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
  /** The user's sessionEpoch when the link was sent: a password set since (by any link, or on the profile) kills it. */
  passwordEpoch?: number;
}
export type PasswordResetToken = PasswordResetTokenData & DocMeta;

export interface LoginThrottleData {
  /** Failure instants (ISO) inside the current window. */
  failures: string[];
  lockedUntil: string | null;
}
export type LoginThrottle = LoginThrottleData & DocMeta;
