/**
 * The storage port. Two levels, both document-shaped so Firestore can serve them:
 *
 * - DocumentStore: what an adapter implements (sqlite/, firestore/). Documents in named
 *   collections, equality/array-contains filters, one order with cursor pagination, count
 *   aggregations, optimistic versions and atomic transactions.
 * - Storage: the repositories the services use (users, config, audit...), written once in
 *   repos/ on top of any DocumentStore, so both adapters behave the same by construction.
 *
 * The contract suite (tests/integration/storage.contract.ts) runs both levels on every adapter.
 */
import type {
  EntryType,
  Invitation,
  InvitationData,
  LedgerEntry,
  Role,
  TeamAccountType,
  TeamStatus,
  Wallet,
  WalletData,
  AuditEntry,
  AuditEntryData,
  DocMeta,
  LiveConfig,
  LiveConfigData,
  LoginThrottle,
  PasswordResetToken,
  Team,
  TeamData,
  User,
  UserData,
} from "~/domain/types";
import type { Campaign, CampaignData, DeletedCampaignData, SelectedWallet } from "~/domain/campaigns/campaign";
import type { CampaignHistoryAction } from "~/domain/campaigns/history-fields";
import type { CampaignStatus } from "~/domain/campaigns/status";
import type { CampaignType } from "~/domain/retailer-settings";
import type { Party } from "~/domain/availability";
import type { CampaignView, CampaignViewData, Product, ProductInput } from "~/domain/catalog";
import type { PublishedCampaign } from "~/domain/campaigns/publication";
import type { CampaignTarget, ListedTarget, TargetKind, Targets } from "~/domain/campaigns/targets";
import { CAMPAIGN_SORTS, type CampaignSort } from "~/domain/campaigns/list";
import type { EventRefusal, WalletCost } from "~/domain/metrics/events";
import type { Micros } from "~/domain/metrics/metrics";
import type { Cents } from "~/domain/money";
import type { CampaignDimensions } from "~/domain/wallets/settlement";
import type { MessageValues } from "~/domain/message";
import type { RunPlan, Schedule } from "~/domain/schedule";
import type { Notification, NotificationData } from "~/domain/notifications";
import type { Report, ReportData, ReportLastRun, ReportRun, ReportRunData } from "~/domain/reports";
import type { CatalogImport, CatalogImportData } from "~/domain/catalog-import";

export type DeletedCampaign = DeletedCampaignData & DocMeta;
export type { Campaign };

/** Collection names keep the spec's where it names them (spec section 7). */
export const COLLECTIONS = {
  user: "user",
  /** One document per lower-cased e-mail: makes e-mails unique atomically on both adapters. */
  userEmail: "user_email",
  team: "team",
  /** One document per team name key: makes names unique (case- and accent-insensitive). */
  teamName: "team_name",
  wallet: "wallet",
  /** Ledger entries of every wallet. */
  walletTransaction: "wallet_transaction",
  invitation: "invitation",
  config: "config",
  audit: "audit_log",
  passwordReset: "password_reset",
  loginThrottle: "login_throttle",
  /** Campaigns (spec section 7 names). */
  campaign: "campaign",
  deletedCampaign: "deleted_campaign",
  /** What the ad server reads: the published copy of each campaign, and each product's campaigns. */
  cacheCampaign: "cache_campaign",
  cacheProduct: "cache_product",
  /** Saved list views of a user (custom views). */
  campaignView: "campaign_view",
  /** One document per user holding the names of their views: the limit and uniqueness, atomically. */
  campaignViewOwner: "campaign_view_owner",
  /** The retailer's product catalog. */
  product: "product",
  /** One document: the catalog's change counter, for the indexes built from it (ADR 20). */
  catalogState: "catalog_state",
  /** Batches of ad events received (what each counted), for idempotency (ADR 18). */
  eventBatch: "event_batch",
  /** One document per wallet: its ad spend not yet settled into the ledger, in micros. */
  spendAccrual: "spend_accrual",
  /** Scheduled work: one document per job, leased by the worker running it (ADR 21). */
  job: "job",
  /** A campaign's keyword and category targets, in chunks (ADR 27). */
  campaignTarget: "campaign_target",
  /** The published chunks of those targets, which the ad server reads (ADR 27). */
  cacheCampaignTarget: "cache_campaign_target",
} as const;
export type CollectionName = (typeof COLLECTIONS)[keyof typeof COLLECTIONS];

export type Operator = "==" | "array-contains" | "in" | "<" | "<=" | ">" | ">=";
export type Where = readonly [field: string, op: Operator, value: unknown];

export interface QuerySpec {
  where?: readonly Where[];
  /**
   * One order; ties are broken by id. Documents lacking the field are not returned. Range
   * filters bear on this field; without orderBy, a range filter's field is the order, else the id.
   */
  orderBy?: { field: string; direction?: "asc" | "desc" };
  limit?: number;
  /** Opaque cursor returned as `next` by the previous page. */
  after?: string | null;
}

export interface Page<T> {
  items: T[];
  next: string | null;
}

/** Special values in a patch. */
export type FieldOp =
  | { $op: "increment"; by: number }
  | { $op: "serverTime" }
  | { $op: "delete" };

export const fieldOps = {
  increment: (by: number): FieldOp => ({ $op: "increment", by }),
  serverTime: (): FieldOp => ({ $op: "serverTime" }),
  delete: (): FieldOp => ({ $op: "delete" }),
};

export function isFieldOp(value: unknown): value is FieldOp {
  return typeof value === "object" && value !== null && "$op" in value;
}

/** A shallow patch: top-level fields are replaced (nested objects whole) or changed by a FieldOp. */
export type Patch<T> = { [K in keyof T]?: T[K] | FieldOp };

export interface WriteOptions {
  /** Refuse with ConflictError unless the stored version equals this one. */
  expectVersion?: number;
}

export type Stored<T> = T & DocMeta;

export interface TransactionContext {
  /** Reads must come before writes, as on Firestore. */
  get<T>(collection: string, id: string): Promise<Stored<T> | null>;
  create<T extends object>(collection: string, id: string, data: T): void;
  /** Creates or replaces the whole document. */
  set<T extends object>(collection: string, id: string, data: T): void;
  /** Patches a document read earlier in this transaction (its version is checked at commit). */
  update<T extends object>(collection: string, id: string, patch: Patch<T>, options?: WriteOptions): void;
  delete(collection: string, id: string): void;
}

export interface DocumentStore {
  readonly kind: "sqlite" | "firestore";
  /**
   * Estimated bytes (documents as JSON) one transaction may write: a change of targets larger
   * than this is staged and switched to (ADR 50). Absent: no limit (SQLite).
   */
  readonly commitBudgetBytes?: number;
  get<T>(collection: string, id: string): Promise<Stored<T> | null>;
  getMany<T>(collection: string, ids: readonly string[]): Promise<Stored<T>[]>;
  query<T>(collection: string, spec: QuerySpec): Promise<Page<Stored<T>>>;
  /** The documents the filters select; with `upTo`, counting stops there (the answer is at most `upTo`). */
  count(collection: string, where?: readonly Where[], upTo?: number): Promise<number>;
  /**
   * The ids of every document the filters select, in id order, without reading their data (an
   * index on SQLite, an empty field mask on Firestore). For selections of ids a caller holds
   * whole (a status's teams); pages of documents are `query`'s.
   */
  ids(collection: string, where?: readonly Where[]): Promise<string[]>;
  /** Fails with AlreadyExistsError when the id is taken. */
  create<T extends object>(collection: string, id: string, data: T): Promise<Stored<T>>;
  /** Creates or replaces; the version goes up by one. */
  set<T extends object>(collection: string, id: string, data: T): Promise<Stored<T>>;
  /** Fails with NotFoundError, or ConflictError on a stale expectVersion. */
  update<T extends object>(collection: string, id: string, patch: Patch<T>, options?: WriteOptions): Promise<Stored<T>>;
  delete(collection: string, id: string, options?: WriteOptions): Promise<void>;
  /** Runs fn atomically; retried on contention, so fn must have no side effects of its own. */
  transaction<R>(fn: (tx: TransactionContext) => Promise<R>): Promise<R>;
  /** Deletes every document (tests only). */
  clear(): Promise<void>;
  close(): Promise<void>;
}

export class StorageError extends Error {}
export class NotFoundError extends StorageError {
  constructor(collection: string, id: string) {
    super(`${collection}/${id} not found`);
  }
}
export class ConflictError extends StorageError {
  constructor(collection: string, id: string) {
    super(`${collection}/${id} was changed by someone else`);
  }
}
export class AlreadyExistsError extends StorageError {
  constructor(collection: string, id: string) {
    super(`${collection}/${id} already exists`);
  }
}

// ---------------------------------------------------------------------------------------------
// Repositories (implemented once, in repos/, over any DocumentStore)
// ---------------------------------------------------------------------------------------------

export interface Actor {
  /** E-mail of the acting user, else 'system'. */
  by: string;
  /** E-mail of the operator who made the change while logged as `by` ('Log as'). */
  realBy?: string;
}

export type NewUser = Omit<UserData, "emailLower" | "searchTokens" | "teamIds" | "created" | "updated">;

export interface UserListSpec {
  search?: string;
  type?: User["claims"]["type"];
  /** Account types to include (a retailer admin sees retailer and supplier users only). */
  types?: readonly User["claims"]["type"][];
  status?: User["status"];
  limit?: number;
  after?: string | null;
}

export interface UsersRepo {
  getOne(id: string): Promise<User | null>;
  getByEmail(email: string): Promise<User | null>;
  /** Fails with AlreadyExistsError when the e-mail is taken. */
  create(data: NewUser, actor: Actor, id?: string): Promise<User>;
  /** Audited update; ConflictError on a stale version. */
  update(id: string, patch: Patch<UserData>, actor: Actor, options?: WriteOptions): Promise<User>;
  /** Records a sign-in (not audited as a change). */
  recordSignIn(id: string, method: "password" | "saml", now: Date): Promise<User>;
  /** Marks the user document disconnected (sign-out; not audited as a change). */
  recordSignOut(id: string): Promise<void>;
  /** Writes last_refresh_token as a server timestamp. */
  touchRefreshToken(id: string): Promise<User>;
  /** Members of a team (users whose roleByTeam names it), by e-mail. */
  listByTeam(teamId: string): Promise<User[]>;
  /** One page of users by e-mail; search by a word prefix of name or e-mail. */
  list(spec: UserListSpec): Promise<Page<User>>;
  /** Sets a new password hash, keeps the old one in history and ends every other session. */
  setPassword(id: string, passwordHash: string, historySize: number, actor: Actor): Promise<User>;
  /**
   * Sets a new password through a reset link, in one transaction: the link is used, unexpired and
   * of this user, the account enabled, and the user's password epoch still the one the link was
   * sent at (`expectEpoch` for a link stored without one); the link is marked used and the epoch
   * goes up with the password. Of two links of one user used at the same instant, exactly one
   * succeeds; the other answers `token.superseded` (nothing written).
   */
  resetPassword(id: string, passwordHash: string, historySize: number, actor: Actor, link: { tokenHash: string; now: Date; expectEpoch: number }): Promise<ResetPasswordResult>;
  /** Enrols (or, with null, removes) the second factor: the TOTP secret and the recovery codes' hashes; audited, redacted. */
  setSecondFactor(
    id: string,
    value: { totpSecret: string; recoveryCodeHashes: string[]; totpLastStep?: number } | null,
    actor: Actor,
  ): Promise<User>;
  /**
   * Accepts a TOTP code's time step once: true when it is later than the last step accepted
   * (it is then the last), false for the same or an earlier step (a replayed code). Atomic.
   */
  useTotpStep(id: string, step: number): Promise<boolean>;
  /** Uses one recovery code (by its hash) once: true when it was unused, and it is then gone. */
  useRecoveryCode(id: string, codeHash: string): Promise<boolean>;
}

/** What a form gives for a team; derived fields are kept by the repository. */
export type TeamInput = Omit<
  TeamData,
  "nameLower" | "searchTokens" | "walletCount" | "totals" | "balance" | "liveCampaigns" | "pending_review_campaigns" | "created" | "updated"
>;

export const TEAM_SORTS = ["name", "created", "balance"] as const;
export type TeamSort = (typeof TEAM_SORTS)[number];

export interface TeamListSpec {
  statuses?: readonly TeamStatus[];
  accountType?: TeamAccountType;
  tag?: string;
  search?: string;
  sort?: TeamSort;
  direction?: "asc" | "desc";
  limit?: number;
  after?: string | null;
}

export interface TeamsRepo {
  getOne(id: string): Promise<Team | null>;
  getMany(ids: readonly string[]): Promise<Team[]>;
  /** One page of teams; a search and a tag together: the tag is checked on the page (ADR 7). */
  list(spec: TeamListSpec): Promise<Page<Team>>;
  /**
   * The ids of every team of this status, in id order, no team read whole: read on each call of
   * /api/metrics, whose retailers' and suppliers' figures leave the archived teams out (ADR 51).
   */
  idsWithStatus(status: TeamStatus): Promise<string[]>;
  /** Fails with AlreadyExistsError when the name is taken (case- and accent-insensitive). */
  create(data: TeamInput, actor: Actor, id?: string): Promise<Team>;
  /** Audited; a rename keeps names unique; ConflictError on a stale version. */
  update(id: string, patch: Partial<TeamInput>, actor: Actor, options?: WriteOptions): Promise<Team>;
  /**
   * Keeps the team's derived campaign fields (not audited, derived data): its count of live
   * (active) campaigns and its list of campaigns pending review (one campaign added or removed),
   * in one transaction; nothing is written when nothing changes, nor when the team is gone.
   */
  updateCampaignCounters(teamId: string, change: TeamCampaignCountersChange): Promise<void>;
}

export interface TeamCampaignCountersChange {
  /** The team's count of active campaigns, recounted by the caller. */
  liveCampaigns?: number;
  /** A campaign entering or leaving the team's pending-review list. */
  pendingReview?: { add: string } | { remove: string };
}

export type WalletInput = Pick<WalletData, "label" | "currency" | "status" | "dailyBudget" | "budgetEditing" | "external_id" | "tags">;

export interface WalletsRepo {
  getOne(id: string): Promise<Wallet | null>;
  getMany(ids: readonly string[]): Promise<Wallet[]>;
  /** All wallets of a team, by label. */
  listForTeam(teamId: string): Promise<Wallet[]>;
  /** Creates the wallet and counts it on its team, atomically. */
  create(teamId: string, data: WalletInput, actor: Actor, id?: string): Promise<Wallet>;
  /** Audited; money fields are the ledger's and cannot be patched here. */
  update(id: string, patch: Partial<WalletInput>, actor: Actor, options?: WriteOptions): Promise<Wallet>;
  /**
   * Completes records stored before ADR 41 (run at boot, idempotent): each wallet without spend
   * figures gets them from its ledger, each team without per-currency totals gets them from its
   * wallets. Returns how many of each were completed.
   */
  completeOldRecords(): Promise<{ wallets: number; teams: number }>;
}

export interface PostEntryInput {
  walletId: string;
  type: EntryType;
  /** Cents, above zero. */
  amount: Cents;
  reference: string;
  comment: string;
  by: string;
  /** The operator posting while logged as `by` ('Log as'), recorded beside it. */
  realBy?: string;
  /** A double-submitted form (same key) records one entry. */
  idempotencyKey: string;
}

export type PostEntryResult =
  | { ok: true; entry: LedgerEntry; wallet: Wallet; duplicate: boolean }
  | { ok: false; reason: "ledger.walletNotFound" | "ledger.notReversible" | "ledger.walletArchived" | "ledger.insufficientBalance" | "ledger.alreadyReversed" | "ledger.entryNotFound" | "ledger.notPositive" };

export interface LedgerListSpec {
  /** Inclusive lower and exclusive upper instants (ISO). */
  from?: string;
  to?: string;
  limit?: number;
  after?: string | null;
}

export interface LedgerRepo {
  /**
   * Posts an entry: the entry and the wallet's credit, debit, balance and balanceUpdated (and the
   * team's totals) change together in one transaction.
   */
  post(input: PostEntryInput, now: Date): Promise<PostEntryResult>;
  /** Posts the opposite entry of `entryId`, pointing to it; once only. */
  reverse(walletId: string, entryId: string, by: string, comment: string, now: Date, realBy?: string): Promise<PostEntryResult>;
  getOne(walletId: string, entryId: string): Promise<LedgerEntry | null>;
  /** Newest first. */
  list(walletId: string, spec: LedgerListSpec): Promise<Page<LedgerEntry>>;
  /** Which of these entries have been reversed. */
  reversedIds(walletId: string, entryIds: readonly string[]): Promise<Set<string>>;
}

export type AcceptInvitationResult =
  | { ok: true; invitation: Invitation }
  | { ok: false; reason: "invitation.invalid" | "invitation.expired" | "invitation.revoked" | "invitation.accepted" | "invitation.wrongUser" };

export interface InvitationsRepo {
  getOne(id: string): Promise<Invitation | null>;
  getByTokenHash(tokenHash: string): Promise<Invitation | null>;
  listForTeam(teamId: string, status?: InvitationData["status"]): Promise<Invitation[]>;
  /** A new pending invitation (an earlier pending one for the same e-mail and team is revoked). */
  create(input: { teamId: string; email: string; role: Role; tokenHash: string; expiresAt: Date }, actor: Actor, now: Date): Promise<Invitation>;
  /** A fresh link: a new token and expiry. ConflictError unless pending. */
  resend(id: string, tokenHash: string, expiresAt: Date, actor: Actor, now: Date): Promise<Invitation>;
  /** ConflictError unless pending. */
  revoke(id: string, actor: Actor, now: Date): Promise<Invitation>;
  /** Marks the invitation accepted and gives the user the invited role on the team, atomically. */
  accept(tokenHash: string, userId: string, now: Date): Promise<AcceptInvitationResult>;
}

export interface ConfigRepo {
  /** The live config document, created with defaults when missing. */
  get(): Promise<LiveConfig>;
  update(patch: Patch<LiveConfigData>, actor: Actor, options?: WriteOptions): Promise<LiveConfig>;
  logReloadFailure(entry: LiveConfigData["reloadLog"][number]): Promise<void>;
}

export interface AuditRepo {
  list(spec: { entity?: string; entityId?: string; teamId?: string; limit?: number; after?: string | null }): Promise<Page<AuditEntry>>;
  append(entry: Omit<AuditEntryData, "at">, now?: Date): Promise<AuditEntry>;
}

export type ConsumeTokenResult =
  | { ok: true; userId: string; passwordEpoch?: number }
  | { ok: false; reason: "token.invalid" | "token.used" | "token.expired" };

export type ResetPasswordResult = { ok: true; user: User } | { ok: false; reason: "token.invalid" | "token.used" | "token.expired" | "token.superseded" };

export interface PasswordResetRepo {
  /** Stores a token under the hash of its secret (with the user's password epoch, when given); returns the stored record. */
  create(tokenHash: string, userId: string, expiresAt: Date, now: Date, passwordEpoch?: number): Promise<PasswordResetToken>;
  /** Looks a token up without using it. */
  peek(tokenHash: string, now: Date): Promise<ConsumeTokenResult>;
  // A link is used in the transaction that sets the password (UsersRepo.resetPassword, ADR 49).
}

export interface LoginThrottleRepo {
  get(key: string): Promise<LoginThrottle | null>;
  /** Adds a failure inside a transaction and returns the new state. */
  recordFailure(key: string, now: Date, limit: number): Promise<LoginThrottle>;
  clear(key: string): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Campaigns, catalog, custom views, publication

/** The sortable columns, defined with the list's URL state in the domain. */
export { CAMPAIGN_SORTS };
export type { CampaignSort };

export interface CampaignListSpec {
  /** Teams the user may see; undefined = every team (retailers, operators). At most 30. */
  teamIds?: readonly string[];
  statuses?: readonly CampaignStatus[];
  type?: CampaignType;
  walletId?: string;
  search?: string;
  /** Start dates inside [startFrom, startTo) (ISO instants); a range forces the startDate order. */
  startFrom?: string;
  startTo?: string;
  sort?: CampaignSort;
  direction?: "asc" | "desc";
  limit?: number;
  after?: string | null;
}

export interface CampaignsRepo {
  getOne(id: string): Promise<Campaign | null>;
  getMany(ids: readonly string[]): Promise<Campaign[]>;
  list(spec: CampaignListSpec): Promise<Page<Campaign>>;
  /**
   * How many campaigns the spec's stored fields select, up to `upTo`: an upper bound of what
   * `list` pages through (its search and some status choices are refined on each page).
   */
  count(spec: CampaignListSpec, upTo: number): Promise<number>;
  /** Every campaign of a team (team status changes, publication). */
  listForTeam(teamId: string): Promise<Campaign[]>;
  /**
   * Creates a campaign; with `targetsOf`, a copy of that campaign's targets (every kind, their
   * counts and chunk counts) in the same transaction (NotFoundError when it is gone).
   */
  create(data: CampaignData, actor: Actor, id?: string, options?: { targetsOf?: string }): Promise<Campaign>;
  /**
   * Audited update (each changed field, before and after, under entity 'campaign'); ConflictError
   * on a stale expectVersion. `publish` is the publication to write in the same transaction.
   * `walletBefore`, when given, is what the audit records as the wallet details (selectedWallet)
   * before the change: the wallet as it was just before, since the stored copy lags behind it
   * (the settlement moves the balance without refreshing every campaign's copy).
   */
  update(
    id: string,
    patch: Patch<CampaignData>,
    actor: Actor,
    options?: WriteOptions & { action?: CampaignHistoryAction; publish?: (campaign: Campaign) => PublishedCampaign | null; walletBefore?: SelectedWallet | null },
  ): Promise<Campaign>;
  /**
   * Moves a draft to deleted_campaign (deleted_by, deleted), removes its cache links and its target
   * chunks (TargetsRepo); ConflictError
   * on a stale version, NotFoundError when gone. The caller checks it is a draft.
   */
  delete(id: string, actor: Actor, now: Date, options?: WriteOptions): Promise<DeletedCampaign>;
  getDeleted(id: string): Promise<DeletedCampaign | null>;
  /** The campaign's history: its audit entries, newest first. */
  history(id: string, spec: { limit?: number; after?: string | null }): Promise<Page<AuditEntry>>;
}

/** What the ad server reads for one campaign: defined with its rules in the domain. */
export type { PublishedCampaign };

export interface PublicationRepo {
  /**
   * Publishes (payload) or withdraws (null) a campaign: the cache copy and each product's campaign
   * list change together, in one transaction; idempotent.
   */
  apply(campaignId: string, payload: PublishedCampaign | null): Promise<void>;
  getCampaign(campaignId: string): Promise<PublishedCampaign | null>;
  /** The campaign ids the ad server serves for a product. */
  campaignsForProduct(productId: string): Promise<string[]>;
  /** The products at least one published campaign sponsors, by id, a page at a time. */
  listSponsoredProducts(spec: { limit?: number; after?: string | null }): Promise<Page<string>>;
}

export interface CatalogListSpec {
  search?: string;
  party?: Party;
  availability?: string;
  brand?: string;
  limit?: number;
  after?: string | null;
}

/**
 * Where the catalog's changes stand, for an index built from the catalog (the search index of
 * ADR 20). Each upsertMany is numbered (`seq`) and stamps the products it writes with its
 * number (`catalogSeq`); while it writes, its number is `open`.
 */
export interface CatalogState {
  /** Made once with the state: another id means another catalog (a new database): rebuild. */
  catalogId: string;
  /** The number of the latest upsertMany begun. */
  seq: number;
  /** The upserts begun and not finished (their products may be partly written), with their start. */
  open: { seq: number; since: string }[];
  updated: string;
}

export interface CatalogChangesSpec {
  /**
   * Products written by upsert number `sinceSeq` or later, by that number (then id); null: every
   * product, by id (products written before numbering began included).
   */
  sinceSeq: number | null;
  limit?: number;
  after?: string | null;
}

/** An upsert left open longer than this (its process died) no longer holds readers back. */
export const CATALOG_OPEN_TIMEOUT_MS = 60 * 60 * 1000;

export interface CatalogRepo {
  getOne(id: string): Promise<Product | null>;
  getMany(ids: readonly string[]): Promise<Product[]>;
  /** By title; search by a word prefix of title, brand or id. */
  list(spec: CatalogListSpec): Promise<Page<Product>>;
  /**
   * Creates or replaces products (batched under each adapter's transaction size), as one
   * numbered change of the catalog state.
   */
  upsertMany(products: readonly (ProductInput & { id: string })[]): Promise<number>;
  count(): Promise<number>;
  /** The catalog's change state (made on first read; its `version` changes with every change). */
  state(): Promise<CatalogState & DocMeta>;
  /** One page of the products changed since an upsert (see CatalogChangesSpec). */
  listChanged(spec: CatalogChangesSpec): Promise<Page<Product>>;
}

/** A view created, or the refusal the caller's rule gave (checked in the same transaction). */
export type CreateViewResult<R extends string = string> = { ok: true; view: CampaignView } | { ok: false; reason: R };

export interface CampaignViewsRepo {
  /** The user's views, by name. */
  listForUser(userId: string): Promise<CampaignView[]>;
  getOne(id: string): Promise<CampaignView | null>;
  /**
   * Creates the view unless `refuse` (the domain's rule, given the user's folded view names) says
   * why not; the names are read and written in one transaction.
   */
  create<R extends string>(
    userId: string,
    input: Pick<CampaignViewData, "name" | "query" | "columns">,
    now: Date,
    refuse: (foldedNames: readonly string[]) => R | null,
  ): Promise<CreateViewResult<R>>;
  rename(id: string, name: string, now: Date): Promise<CampaignView>;
  delete(id: string): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Ad spend: batches of events received, unsettled spend per wallet, settlement (ADR 18)

export interface EventBatchData {
  batchId: string;
  /** pending: counted in the metrics store maybe, not yet in the accruals; recorded: counted everywhere. */
  state: "pending" | "recorded";
  /** sha256 of the batch's events as received: a retry must send the same events. */
  eventsHash: string;
  /** How many events were accepted, and why each refused one was. */
  accepted: number;
  refused: EventRefusal[];
  /** Micros of cost of the accepted events, per wallet (in total and per campaign). */
  cost: Record<string, WalletCost>;
  /** Time of the newest accepted event (ISO), or null. */
  newestEvent: string | null;
  received: string;
  recorded: string | null;
}
export type EventBatch = EventBatchData & DocMeta;

/** What a settlement leaves for after its transaction (each step idempotent; ADR 18). */
export interface SpendFollowUp {
  /** The settlement that asked (a later one replaces it). */
  seq: number;
  /** Campaigns that stopped serving (out of budget, daily cap): their cache copy is withdrawn. */
  campaigns: string[];
  /** The wallet's balance fell to 0 or below: its campaigns get the insufficient_funds flag. */
  walletFunds: boolean;
  /** The wallet's daily budget was reached on this day: its campaigns stop until the next. */
  walletCapDay: string | null;
}

export interface SpendAccrualData {
  walletId: string;
  /** The wallet's unsettled micros (the carry under a cent once settled). */
  unsettledMicros: Micros;
  /** Each campaign's unsettled micros. */
  campaigns: Record<string, Micros>;
  /**
   * Each campaign's unsettled micros per placement and per device, moved to the campaign's
   * today's spend per placement and device when its cents are settled (absent: none yet).
   */
  dimensions?: CampaignDimensions;
  /** At least a whole cent to settle, on the wallet or a campaign (what settlement looks for). */
  due: boolean;
  /** Settlements so far: the next one's number, and its idempotency key. */
  settlements: number;
  followUp: SpendFollowUp | null;
  /** followUp is not null (queryable). */
  followUpPending: boolean;
  updated: string;
}
export type SpendAccrual = SpendAccrualData & DocMeta;

export interface SettlementContext {
  now: Date;
  /** The retailer's time zone: today's spend and daily caps are of its day. */
  timeZone: string;
  /**
   * The cache copy of a campaign whose placement or device caps changed, written in the
   * settlement's transaction (null: withdrawn). Absent, the campaign is left to the follow-up,
   * which republishes it.
   */
  publish?: (campaign: Campaign, teamStatus: TeamStatus | null) => PublishedCampaign | null;
}

export interface Settlement {
  /** The settlement's number in the wallet's accrual. */
  seq: number;
  walletId: string;
  /** Cents debited (0: no ledger entry, only campaigns' spend moved). */
  debitCents: Cents;
  entry: LedgerEntry | null;
  wallet: Wallet;
  /** Cents of spend added to each campaign. */
  campaignCents: Record<string, Cents>;
  /** What is left to do after the transaction, or null. */
  followUp: SpendFollowUp | null;
}

export interface SpendRepo {
  getBatch(batchId: string): Promise<EventBatch | null>;
  /** Stores a pending batch unless one with this id exists; returns the stored one either way. */
  openBatch(data: Omit<EventBatchData, "state" | "recorded">): Promise<{ batch: EventBatch; created: boolean }>;
  /**
   * Adds a pending batch's cost to its wallets' accruals and marks it recorded, in one
   * transaction, once: `recorded` is false when it already was. NotFoundError when never opened.
   */
  recordBatch(batchId: string, now: Date): Promise<{ recorded: boolean; batch: EventBatch }>;
  /** Deletes up to `limit` batches received before `before`; returns how many. */
  purgeBatches(before: Date, limit: number): Promise<number>;
  getAccrual(walletId: string): Promise<SpendAccrual | null>;
  /** Accruals with at least a cent to settle, by wallet id. */
  listDue(spec: { limit?: number; after?: string | null }): Promise<Page<SpendAccrual>>;
  /** Accruals whose follow-up is not done, by wallet id. */
  listFollowUps(spec: { limit?: number; after?: string | null }): Promise<Page<SpendAccrual>>;
  /**
   * Settles a wallet's accrual in one transaction: one ledger debit of its whole cents (which may
   * take the balance below zero; idempotency key `settlement:<n>`), the carries kept, each
   * campaign's spend and today's spend, the wallet's today's spend, a campaign's daily cap
   * reached, each settled campaign's spend of the day per placement and device and the caps they
   * reach (its cache copy republished without them), and the follow-up. Null when nothing is due
   * (or no such wallet).
   */
  settle(walletId: string, ctx: SettlementContext): Promise<Settlement | null>;
  /** Marks the follow-up of settlement `seq` done (a later settlement's stays). */
  completeFollowUp(walletId: string, seq: number): Promise<void>;
  /**
   * A daily cap (its wallet's) reached on `day`: the campaign stops until the next day (its
   * dailyCapReached set, its cache copy withdrawn), atomically. False when already stopped that
   * day, or gone.
   */
  stopForToday(campaignId: string, day: string): Promise<boolean>;
  /** Campaigns stopped by a daily cap on a day before `day`, by that day. */
  listStoppedBefore(day: string, spec: { limit?: number; after?: string | null }): Promise<Page<Campaign>>;
  /** Campaigns with placement or device caps reached on a day before `day`, by that day. */
  listCapsReachedBefore(day: string, spec: { limit?: number; after?: string | null }): Promise<Page<Campaign>>;
  /**
   * The next day: clears a daily cap, and placement and device caps, reached before `day` and
   * publishes the campaign again as `publish` says, atomically. False when nothing was reached
   * before that day, or gone.
   */
  reopen(campaignId: string, day: string, publish: (campaign: Campaign) => PublishedCampaign | null): Promise<boolean>;
  /**
   * Writes the campaign's cache copy as `publish` says from its current state (read in the same
   * transaction, so a concurrent edit is never overwritten by an older copy). False when gone.
   */
  republish(campaignId: string, publish: (campaign: Campaign) => PublishedCampaign | null): Promise<boolean>;
}

/**
 * The repositories over one document store. The raw store is not part of this surface: every
 * write goes through a repository, which keeps derived fields, uniqueness and audit together.
 */
export interface Storage {
  /** Which adapter serves the repositories. */
  readonly kind: DocumentStore["kind"];
  /** Closes the underlying store (shutdown, tests). */
  close(): Promise<void>;
  readonly users: UsersRepo;
  readonly teams: TeamsRepo;
  readonly wallets: WalletsRepo;
  readonly ledger: LedgerRepo;
  readonly invitations: InvitationsRepo;
  readonly config: ConfigRepo;
  readonly audit: AuditRepo;
  readonly passwordResets: PasswordResetRepo;
  readonly loginThrottle: LoginThrottleRepo;
  readonly campaigns: CampaignsRepo;
  readonly publication: PublicationRepo;
  readonly catalog: CatalogRepo;
  readonly campaignViews: CampaignViewsRepo;
  readonly spend: SpendRepo;
}

// ---------------------------------------------------------------------------------------------
// Sessions (server-side, so ending one holds on every server instance)

export const SESSION_COLLECTION = "session";

export interface SessionRecordData {
  /** The signed-in user, for ending all of a user's sessions. */
  userId: string | null;
  /** What the HTTP adapter keeps in the session. */
  data: Record<string, unknown>;
  /** ISO instant after which the session no longer opens anything. */
  expiresAt: string;
  created: string;
}
export type SessionRecord = SessionRecordData & DocMeta;

export interface SessionsRepo {
  /** Stores a new session under its id (the id is hashed, so stored ids open nothing). */
  create(id: string, data: Record<string, unknown>, expiresAt: Date, now: Date): Promise<void>;
  /** The live session, or null when unknown or expired (an expired one is deleted). */
  get(id: string, now: Date): Promise<SessionRecord | null>;
  /** Changes a session that still exists; a deleted session stays deleted. */
  update(id: string, data: Record<string, unknown>, expiresAt: Date): Promise<boolean>;
  delete(id: string): Promise<void>;
  /** Ends every session of a user (sign-out everywhere, password change, disabled account). */
  deleteForUser(userId: string): Promise<number>;
  /** Removes up to `limit` sessions expired before `now`. */
  deleteExpired(now: Date, limit?: number): Promise<number>;
}

export interface Storage {
  readonly sessions: SessionsRepo;
}

// ---------------------------------------------------------------------------------------------
// Signing keys of the identity tokens (the JWTs the /metrics contract is called with): kept in
// storage so every instance signs with the same key and publishes the same JWKS; rotated.

export const SIGNING_KEY_COLLECTION = "signing_key";

export interface SigningKey {
  /** Key id, in each token's header and the published JWKS. */
  kid: string;
  alg: "ES256";
  /** JWKs (JSON Web Keys). The private one never leaves the server. */
  privateJwk: Record<string, unknown>;
  publicJwk: Record<string, unknown>;
  /** ISO instant the key was made. */
  created: string;
}

export interface SigningKeysRepo {
  /** Every key still published, newest first (the first signs). */
  list(): Promise<SigningKey[]>;
  /**
   * In one transaction: adds `candidate` as the signing key unless a key younger than
   * `rotateAfterMs` exists (another instance rotated first: its key wins), and drops keys older
   * than `keepMs`. Returns the keys after, newest first.
   */
  rotate(candidate: SigningKey, now: Date, rotateAfterMs: number, keepMs: number): Promise<SigningKey[]>;
}

export interface Storage {
  readonly signingKeys: SigningKeysRepo;
}

// ---------------------------------------------------------------------------------------------
// Scheduled work (ADR 21): durable jobs, leased by the worker that runs them, so that several
// console instances on one store never run one job twice, and a crashed run is retried once its
// lease has expired.

/** How a run ended: done, failed (with its reason) or aborted (it stopped itself, with its reason). */
export const JOB_OUTCOMES = ["done", "failed", "aborted"] as const;
export type JobOutcome = (typeof JOB_OUTCOMES)[number];

/** The lease of the run under way. */
export interface JobLease {
  /** The worker (console instance) running it. */
  owner: string;
  /** Unique per claim: a completion or renewal must bring it (a takeover changes it). */
  token: string;
  /** ISO instant the lease ends unless renewed; past it, another worker may take the run over. */
  until: string;
  /** The run this is (ISO), and how many scheduled runs it stands for (missed runs merged). */
  scheduledFor: string;
  runs: number;
  /** 1 for the first try of this run, then one more per takeover after a lease expired. */
  attempt: number;
  started: string;
}

/** A finished run. */
export interface JobRunRecord {
  scheduledFor: string;
  runs: number;
  attempt: number;
  owner: string;
  started: string;
  finished: string;
  durationMs: number;
  outcome: JobOutcome;
  /** Why it failed or aborted: an i18n key (with its values), else null. */
  reason: string | null;
  values: MessageValues | null;
}

export interface JobData {
  /** The kind of work, by the name its handler is registered under. */
  kind: string;
  /** A name people gave what the job is for (a report's name), shown beside its kind; else null. */
  title: string | null;
  /** What the handler needs (plain JSON). */
  params: Record<string, unknown>;
  schedule: Schedule;
  /** The next run not yet started (ISO), or null when none is left (a once job that ran). */
  nextRunAt: string | null;
  lease: JobLease | null;
  /**
   * When a worker may claim the job (ISO): its next run while idle, its lease's end while leased;
   * absent when nothing is left to run. The one field the due query ranges over.
   */
  claimableAt?: string;
  lastRun: JobRunRecord | null;
  /** The latest runs, newest first (at most JOB_HISTORY_SIZE). */
  history: JobRunRecord[];
  /**
   * Set while the job is stopped (a report whose owner lost their rights, ADR 54): it keeps its
   * schedule but has no next run and no worker claims it; a run under way finishes and is
   * recorded, and none follows. Absent or null while it runs.
   */
  stopped?: JobStop | null;
  created: string;
  updated: string;
}
export type Job = JobData & DocMeta;

/** Why and since when a job is stopped. */
export interface JobStop {
  /** ISO instant. */
  at: string;
  /** An i18n key. */
  reason: string;
}

export const JOB_HISTORY_SIZE = 20;

export interface JobDefinition {
  kind: string;
  title?: string | null;
  params?: Record<string, unknown>;
  schedule: Schedule;
  /** Saved stopped (no next run), or, when absent or null, running: a stopped job saved without it resumes. */
  stopped?: JobStop | null;
}

export interface JobClaim {
  /** The claiming worker and the token of its lease. */
  owner: string;
  token: string;
  now: Date;
  leaseMs: number;
  /** The run to start for a job whose next run has come (the job's catch-up policy; pure). */
  plan: (job: Job) => RunPlan;
}

export interface JobsRepo {
  getOne(id: string): Promise<Job | null>;
  /** Every job, by id. */
  list(spec: { limit?: number; after?: string | null }): Promise<Page<Job>>;
  /**
   * Creates the job, or changes its definition. Its next run is `firstRun` when it is new, its
   * schedule changed or it resumes (a run under way keeps its lease); none while the definition
   * says it is stopped. Nothing is written when nothing changed.
   */
  save(id: string, definition: JobDefinition, firstRun: Date | null, now: Date): Promise<Job>;
  /** Deletes the job (a run under way can no longer complete). */
  remove(id: string): Promise<void>;
  /** Jobs of these kinds that a worker may claim at `now` (their run has come or their lease expired), the oldest first. Not a claim. */
  listClaimable(now: Date, kinds: readonly string[], limit: number): Promise<Job[]>;
  /**
   * Leases the job to the claimer, in one transaction that re-reads it: null when it is not
   * claimable any more (another worker claimed it first, or its run is not due). A job whose
   * lease expired is taken over: the same run, its attempt counted up.
   */
  claim(id: string, claim: JobClaim): Promise<Job | null>;
  /** Extends the lease of the holder of `token` to `until`; false once the lease was taken over. */
  renew(id: string, token: string, until: Date): Promise<boolean>;
  /**
   * Records the run of the holder of `token` and frees the job, its next run given by `next`
   * (read from the job as it stands, in the transaction; none once the job is stopped); false, recording nothing, when the lease
   * was taken over (or the job removed).
   */
  complete(id: string, token: string, run: Omit<JobRunRecord, "scheduledFor" | "runs" | "attempt" | "owner" | "started">, next: (job: Job) => Date | null): Promise<boolean>;
}

export interface Storage {
  readonly jobs: JobsRepo;
}

// ---------------------------------------------------------------------------------------------
// Notifications (issue 11 §3): each user's own, newest first, with an inbox document per user
// holding the unread count and the seq up to which "mark all read" marked everything, so that
// creating, marking one and marking all are each one transaction on that document.

export const NOTIFICATION_COLLECTION = "notification";
export const NOTIFICATION_INBOX_COLLECTION = "notification_inbox";

export type NewNotification = Omit<NotificationData, "seq" | "read" | "created">;

export interface NotificationsRepo {
  /**
   * Adds a notification to its user's inbox (unread). With an id, it is created once: a second
   * call with the same id (a job run again) returns null and counts nothing.
   */
  create(data: NewNotification, now: Date, id?: string): Promise<Notification | null>;
  /**
   * One page of the user's notifications, newest first; `read` says the reader's state; `latestSeq`
   * the newest notification's seq when read (what "mark all read" from this page covers).
   */
  list(userId: string, spec: { limit?: number; after?: string | null }): Promise<Page<Notification> & { latestSeq: number }>;
  /** The notification, only if it is this user's (another user's id answers null). */
  getOwn(userId: string, id: string): Promise<Notification | null>;
  /** Marks one of the user's notifications read; null when it is not theirs (or does not exist). */
  markRead(userId: string, id: string): Promise<Notification | null>;
  /**
   * Marks every notification of the user read up to `throughSeq` (the newest the reader was shown;
   * all when absent), in one write: one that arrived since stays unread. Returns how many were marked.
   */
  markAllRead(userId: string, throughSeq?: number): Promise<number>;
  countUnread(userId: string): Promise<number>;
}

export interface Storage {
  readonly notifications: NotificationsRepo;
}

// ---------------------------------------------------------------------------------------------
// Single sign-on (SAML, issue 12 §1, ADR 31): what several console instances must share to check
// a response: the requests the console issued (InResponseTo), the assertions already used
// (replays), and the identity provider's metadata last fetched.

export const SAML_REQUEST_COLLECTION = "saml_request";
export const SAML_ASSERTION_COLLECTION = "saml_assertion";
export const SAML_METADATA_COLLECTION = "saml_metadata";

/** Metadata fetched from a URL, as last fetched. */
export interface SamlMetadataCacheData {
  url: string;
  xml: string;
  /** ISO instant of the fetch. */
  fetchedAt: string;
}

export interface SamlRepo {
  /** Records an AuthnRequest id the console sent, until `expiresAt`. */
  saveRequest(id: string, issuedAt: Date, expiresAt: Date): Promise<void>;
  /** The instant the request was issued (ISO), or null when it was never issued, was used or has expired. */
  getRequest(id: string, now: Date): Promise<string | null>;
  /** Forgets a request id (it was answered). */
  removeRequest(id: string): Promise<void>;
  /**
   * Remembers an assertion (by its issuer and id) until `expiresAt`, atomically: false when it
   * was already remembered and has not expired, i.e. the response is a replay.
   */
  rememberAssertion(issuer: string, assertionId: string, expiresAt: Date, now: Date): Promise<boolean>;
  /** Deletes up to `limit` request and assertion records expired before `now`; returns how many. */
  purgeExpired(now: Date, limit: number): Promise<number>;
  getMetadata(url: string): Promise<SamlMetadataCacheData | null>;
  saveMetadata(data: SamlMetadataCacheData): Promise<void>;
}

export interface Storage {
  readonly saml: SamlRepo;
}

// ---------------------------------------------------------------------------------------------
// Reports (issue 11 §2): saved definitions of statistics exports and their runs (ADR 29).

export const REPORT_COLLECTION = "report";
export const REPORT_RUN_COLLECTION = "report_run";

export type NewReport = Omit<ReportData, "nameLower" | "lastRun" | "created" | "updated">;
export type ReportChanges = Partial<Omit<NewReport, "ownerId" | "ownerEmail">>;

export interface ReportsRepo {
  getOne(id: string): Promise<Report | null>;
  /** By name; with `ownerId`, that user's reports only. */
  list(spec: { ownerId?: string; limit?: number; after?: string | null }): Promise<Page<Report>>;
  create(data: NewReport, now: Date): Promise<Report>;
  /** ConflictError on a stale version. */
  update(id: string, changes: ReportChanges, version: number, now: Date): Promise<Report>;
  /** Deletes the report (its runs stay until their files expire). */
  remove(id: string): Promise<void>;
  /** Records the latest run on the report (no version check: runs and edits never collide). */
  setLastRun(id: string, lastRun: ReportLastRun): Promise<void>;
  getRun(id: string): Promise<ReportRun | null>;
  /** Creates or restarts a run (a run taken over after a lost lease starts again under its id). */
  startRun(id: string, data: ReportRunData): Promise<ReportRun>;
  finishRun(id: string, patch: Pick<ReportRunData, "status" | "reason" | "rows" | "finished" | "fileKey" | "fileName" | "expiresAt"> & { removeAt?: string }): Promise<ReportRun>;
  /** A report's runs, the newest first. */
  listRuns(reportId: string, spec: { limit?: number; after?: string | null }): Promise<Page<ReportRun>>;
  /** Runs whose file is due for removal at `now`, the oldest first. */
  listExpiring(now: Date, limit: number): Promise<ReportRun[]>;
  /** The file is gone: no key, no pending removal. */
  markExpired(id: string): Promise<void>;
}

export interface Storage {
  readonly reports: ReportsRepo;
}

// ---------------------------------------------------------------------------------------------
// Keyword, category and product-category targets (ADR 27): chunk documents beside the campaign.

/** One kind's change: targets set or removed by key, the whole list replaced, or rewritten by a rule. */
export interface TargetKindChange {
  kind: TargetKind;
  upsert?: Targets;
  remove?: readonly string[];
  /** `upsert` is the whole new list: every other target of the kind goes. */
  replace?: boolean;
  /** Reads every target of the kind and says what to set and remove (auto targeting). */
  rewrite?: (all: Targets) => { upsert: Targets; remove: string[] };
  /**
   * Each `upsert` entry with the target as stored in the transaction (undefined: a new one) gives
   * the target to store: a list's save keeps what it does not set, without reading the targets
   * before the transaction reads them again. Called again when the transaction is retried.
   */
  merge?: (key: string, proposed: CampaignTarget, current: CampaignTarget | undefined) => CampaignTarget;
}
export interface TargetChange {
  kinds: TargetKindChange[];
}

/** One page of a kind's targets in the lists' order (compareTargets), and what the section counts (ADR 43). */
export interface TargetPage {
  /** The targets of the page, in order (without their dates). */
  items: { key: string; target: ListedTarget }[];
  /** Targets of the kind the query finds (every target without one). */
  total: number;
  /** Every target of the kind with its own bid, counted by bid band (bidCountKey). */
  bidCounts: Record<string, number>;
}

export interface TargetsRepo {
  /** Every target of a kind, by key. */
  list(campaignId: string, kind: TargetKind): Promise<Targets>;
  /** The targets of a kind with these keys (those stored), reading only the chunks that hold them. */
  get(campaignId: string, kind: TargetKind, keys: readonly string[]): Promise<Targets>;
  /**
   * A page of a kind's targets in the lists' order, from the kind's sorted view (ADR 43): without
   * a query, the one or two view pages holding it are read; with one (folded with keywordKey,
   * matched by matchesQuery), the view is scanned a few pages at a time, the event loop let
   * through between them. A view missing (targets saved before it existed) is built first.
   */
  page(campaignId: string, kind: TargetKind, spec: { query?: string; offset: number; limit: number }): Promise<TargetPage>;
  /** What the ad server reads of a kind (switched-on targets), by key; empty while unpublished. */
  getPublished(campaignId: string, kind: TargetKind): Promise<Record<string, { bid: number | null; offers: string[] | null; placement: string }>>;
  /**
   * Applies the change in one transaction with the campaign's counts and chunk counts, `patch`
   * (other fields of the campaign, e.g. negative keywords), its audit entry and its publication;
   * ConflictError on a stale expectVersion, NotFoundError when the campaign is gone. Nothing
   * changed: nothing written (`changed` 0, the campaign as it was).
   */
  change(
    campaignId: string,
    change: TargetChange,
    actor: Actor,
    options?: WriteOptions & { action?: CampaignHistoryAction; publish?: (campaign: Campaign) => PublishedCampaign | null; patch?: Patch<CampaignData> },
  ): Promise<{ campaign: Campaign; changed: number }>;
  /**
   * One page of the orphan sweep: the chunk documents (and their published twins) of campaigns
   * that no longer exist are deleted. `next` is the cursor of the following page (null: done).
   */
  /**
   * Also removes a living campaign's chunks and view pages of a generation it no longer points at
   * (ADR 50), once staged more than an hour before `now` (default: the present).
   */
  sweepOrphans(spec: { limit?: number; after?: string | null; now?: Date }): Promise<{ scanned: number; removed: number; next: string | null }>;
}

export interface Storage {
  readonly targets: TargetsRepo;
}

// ---------------------------------------------------------------------------------------------
// Catalog imports (issue 10 §4, ADR 34): one document per feed imported, its progress and report.

export const CATALOG_IMPORT_COLLECTION = "catalog_import";

export type NewCatalogImport = Pick<CatalogImportData, "fileName" | "fileKey" | "byteLength" | "by">;

export interface CatalogImportsRepo {
  getOne(id: string): Promise<CatalogImport | null>;
  /** The newest first. */
  list(spec: { limit?: number; after?: string | null }): Promise<Page<CatalogImport>>;
  /** Creates it queued, nothing written yet. */
  create(id: string, data: NewCatalogImport, now: Date): Promise<CatalogImport>;
  /** Records progress or the outcome (no version check: only the job holding the lease writes). */
  update(id: string, patch: Partial<Omit<CatalogImportData, "fileName" | "by" | "created">>): Promise<CatalogImport>;
}

export interface Storage {
  readonly catalogImports: CatalogImportsRepo;
}
