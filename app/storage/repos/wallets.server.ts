import { createHash, randomUUID } from "node:crypto";
import { applyEntry, checkPosting, reversalOf, spendFiguresAfter, spendFiguresOf } from "~/domain/wallets/ledger";
import { isSettlementEntry } from "~/domain/wallets/settlement";
import { addToTeamTotals, balanceSortKey, teamTotalsOf } from "~/domain/wallets/team-totals";
import type { EntryType, LedgerEntryData, TeamData, WalletData } from "~/domain/types";
import { applyPatch } from "~/storage/document-helpers";
import {
  COLLECTIONS,
  ConflictError,
  NotFoundError,
  type DocumentStore,
  type LedgerRepo,
  type Patch,
  type PostEntryResult,
  type TransactionContext,
  type WalletInput,
  type WalletsRepo,
  type Where,
} from "~/storage/port";
import { appendAuditInTransaction, auditBy, diffFields } from "~/storage/repos/audit.server";
import type { Cents } from "~/domain/money";

/**
 * A wallet as read: one stored before ADR 41 and not yet completed (completeOldRecords runs at
 * boot) reads its spend figures as debits and credits, as they were shown until then.
 */
function withFigures<W extends WalletData>(wallet: W): W {
  if (wallet.spend !== undefined) return wallet;
  return { ...wallet, spend: wallet.debit, funded: wallet.credit, firstSpendAt: wallet.firstDebitAt };
}

export function createWalletsRepo(store: DocumentStore): WalletsRepo {
  const C = COLLECTIONS.wallet;
  return {
    async getOne(id) {
      const wallet = await store.get<WalletData>(C, id);
      return wallet && withFigures(wallet);
    },
    async getMany(ids) {
      return (await store.getMany<WalletData>(C, ids)).map(withFigures);
    },
    async listForTeam(teamId) {
      const { items } = await store.query<WalletData>(C, { where: [["teamId", "==", teamId]], limit: 500 });
      return items.map(withFigures).sort((a, b) => a.label.localeCompare(b.label) || a.id.localeCompare(b.id));
    },
    async create(teamId, input, actor, id = randomUUID()) {
      const now = new Date();
      const doc: WalletData = {
        ...input,
        teamId,
        debit: 0,
        credit: 0,
        balance: 0,
        created: now.toISOString(),
        updated: now.toISOString(),
        balanceUpdated: null,
        firstDebitAt: null,
        spend: 0,
        funded: 0,
        firstSpendAt: null,
        todaySpend: { day: "", amount: 0 },
        entryCount: 0,
      };
      await store.transaction(async (tx) => {
        const team = await tx.get<TeamData>(COLLECTIONS.team, teamId);
        if (!team) throw new NotFoundError(COLLECTIONS.team, teamId);
        tx.create<WalletData>(C, id, doc);
        tx.update<TeamData>(COLLECTIONS.team, teamId, { walletCount: team.walletCount + 1 });
        appendAuditInTransaction(
          tx,
          { ...auditBy(actor), action: "create", entity: "wallet", entityId: id, teamId, changes: diffFields(null, doc as unknown as Record<string, unknown>) },
          now,
        );
      });
      return { ...doc, id, version: 1 };
    },
    async update(id, patch, actor, options) {
      const now = new Date();
      const allowed: Partial<WalletInput> = {};
      for (const key of ["label", "currency", "status", "dailyBudget", "budgetEditing", "external_id", "tags"] as const) {
        if (patch[key] !== undefined) (allowed as Record<string, unknown>)[key] = patch[key];
      }
      return store.transaction(async (tx) => {
        const current = await tx.get<WalletData>(C, id);
        if (!current) throw new NotFoundError(C, id);
        if (options?.expectVersion !== undefined && options.expectVersion !== current.version) throw new ConflictError(C, id);
        // An edit of the editable fields: marked, so that money postings (which raise the version too) never make the next edit look stale.
        const full: Patch<WalletData> = { ...allowed, updated: now.toISOString(), settingsSavedAtVersion: current.version + 1 };
        const { id: _id, version, ...before } = current;
        const after = applyPatch(before, full, now.toISOString()) as unknown as WalletData;
        tx.update<WalletData>(C, id, full);
        const changes = diffFields(before as Record<string, unknown>, after as unknown as Record<string, unknown>);
        if (changes.length) {
          appendAuditInTransaction(tx, { ...auditBy(actor), action: "update", entity: "wallet", entityId: id, teamId: current.teamId, changes }, now);
        }
        return { ...after, id, version: version + 1 };
      });
    },
    async completeOldRecords() {
      let wallets = 0;
      let teams = 0;
      for (let after: string | null = null, first = true; first || after; first = false) {
        const page: Awaited<ReturnType<typeof store.query<WalletData>>> = await store.query<WalletData>(C, { limit: 200, after });
        for (const w of page.items) if (w.spend === undefined && (await completeWalletFigures(store, w.id))) wallets += 1;
        after = page.next;
      }
      for (let after: string | null = null, first = true; first || after; first = false) {
        const page: Awaited<ReturnType<typeof store.query<TeamData>>> = await store.query<TeamData>(COLLECTIONS.team, { limit: 200, after });
        for (const t of page.items) if (t.totals === undefined && (await completeTeamTotals(store, t.id))) teams += 1;
        after = page.next;
      }
      return { wallets, teams };
    },
  };
}

/**
 * A wallet stored before ADR 41: its spend, funding and first spend time from its whole ledger,
 * written when no entry came in meanwhile (else left for the next run). True when written.
 */
async function completeWalletFigures(store: DocumentStore, walletId: string): Promise<boolean> {
  const entries: (StoredEntry & { id: string })[] = [];
  for (let after: string | null = null, first = true; first || after; first = false) {
    const page: Awaited<ReturnType<typeof store.query<StoredEntry>>> = await store.query<StoredEntry>(COLLECTIONS.walletTransaction, {
      where: [["walletId", "==", walletId]],
      orderBy: { field: "sortKey", direction: "asc" },
      limit: 500,
      after,
    });
    entries.push(...page.items);
    after = page.next;
  }
  const figures = spendFiguresOf(entries, isSettlementEntry);
  return store.transaction(async (tx) => {
    const wallet = await tx.get<WalletData>(COLLECTIONS.wallet, walletId);
    if (!wallet || wallet.spend !== undefined || wallet.entryCount !== entries.length) return false;
    tx.update<WalletData>(COLLECTIONS.wallet, walletId, figures);
    return true;
  });
}

/** A team stored with its money added up across currencies: its totals per currency from its wallets. True when written. */
async function completeTeamTotals(store: DocumentStore, teamId: string): Promise<boolean> {
  const { items } = await store.query<WalletData>(COLLECTIONS.wallet, { where: [["teamId", "==", teamId]], limit: 500 });
  return store.transaction(async (tx) => {
    const team = await tx.get<TeamData>(COLLECTIONS.team, teamId);
    if (!team || team.totals !== undefined) return false;
    const wallets = (await Promise.all(items.map((w) => tx.get<WalletData>(COLLECTIONS.wallet, w.id)))).filter((w): w is WalletData & { id: string; version: number } => !!w && w.teamId === teamId);
    const totals = teamTotalsOf(wallets);
    tx.update<TeamData>(COLLECTIONS.team, teamId, { totals, balance: balanceSortKey(totals) });
    return true;
  });
}

/** Entry ids derive from the idempotency key, so a second submission finds the first entry. */
export function entryId(walletId: string, idempotencyKey: string): string {
  return `${walletId}-${createHash("sha256").update(idempotencyKey).digest("hex").slice(0, 32)}`;
}

/** Orders entries by time, then sequence; time never goes back within a wallet. */
function sortKey(at: string, seq: number): string {
  return `${at}#${String(seq).padStart(12, "0")}`;
}

type StoredEntry = LedgerEntryData & { sortKey: string };

export interface EntryToPost {
  walletId: string;
  type: EntryType;
  amount: Cents;
  reference: string;
  comment: string;
  by: string;
  /** The operator posting while logged as `by`. */
  realBy?: string;
  /** The entry's id, derived from its idempotency key. */
  id: string;
  reversalOf: string | null;
  /**
   * A settlement of ad spend already served: it is owed whatever the balance or the wallet's
   * status, so it may take the balance below zero (manual entries never may).
   */
  settlement?: boolean;
  /** Further wallet fields written with the entry (the settlement's today's spend). */
  walletPatch?: Patch<WalletData>;
  /** The entry a reversal cancels (with reversalOf): whether it was a credit or a settlement (ADR 41). */
  reverses?: Pick<LedgerEntryData, "type" | "by" | "reference">;
}

/**
 * Posts one entry inside the caller's transaction (reads first, then writes): the entry, the
 * wallet's totals, balanceUpdated, firstDebitAt and entry count, its spend figures (ADR 41), and
 * its team's totals in the wallet's currency.
 */
export async function postInTransaction(tx: TransactionContext, input: EntryToPost, now: Date): Promise<PostEntryResult> {
  const E = COLLECTIONS.walletTransaction;
  const wallet = await tx.get<WalletData>(COLLECTIONS.wallet, input.walletId);
  if (!wallet) return { ok: false, reason: "ledger.walletNotFound" };
  const existing = await tx.get<StoredEntry>(E, input.id);
  const team = await tx.get<TeamData>(COLLECTIONS.team, wallet.teamId);
  if (existing) {
    if (input.reversalOf) return { ok: false, reason: "ledger.alreadyReversed" };
    return { ok: true, entry: existing, wallet, duplicate: true };
  }
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) return { ok: false, reason: "ledger.notPositive" };
  const problem = input.settlement ? null : checkPosting(wallet, input.type, input.amount);
  if (problem === "ledger.walletArchived" || problem === "ledger.insufficientBalance") return { ok: false, reason: problem };
  const totals = applyEntry(wallet, input.type, input.amount);
  const seq = wallet.entryCount + 1;
  const nowIso = now.toISOString();
  // Time never goes back within a wallet, so the newest-first order is the sequence order.
  const at = wallet.balanceUpdated && wallet.balanceUpdated > nowIso ? wallet.balanceUpdated : nowIso;
  const entry: StoredEntry = {
    walletId: wallet.id,
    teamId: wallet.teamId,
    seq,
    type: input.type,
    amount: input.amount,
    balanceAfter: totals.balance,
    reference: input.reference,
    comment: input.comment,
    by: input.by,
    ...(input.realBy ? { realBy: input.realBy } : {}),
    at,
    reversalOf: input.reversalOf,
    sortKey: sortKey(at, seq),
  };
  tx.create<StoredEntry>(E, input.id, entry);
  // A wallet stored before ADR 41 gets its spend figures from its whole ledger (completeOldRecords).
  const figures =
    wallet.spend === undefined
      ? {}
      : spendFiguresAfter(
          wallet,
          {
            type: input.type,
            amount: input.amount,
            // The settlement's own postings, and the system's settlement entries posted otherwise (the demo's history).
            settlement: !!input.settlement || isSettlementEntry(input),
            reverses: input.reversalOf && input.reverses ? { type: input.reverses.type, settlement: isSettlementEntry(input.reverses) } : null,
          },
          at,
        );
  const walletPatch: Patch<WalletData> = { ...input.walletPatch, ...totals, ...figures, balanceUpdated: at, entryCount: seq, updated: at };
  if (input.type === "debit" && !wallet.firstDebitAt) walletPatch.firstDebitAt = at;
  tx.update<WalletData>(COLLECTIONS.wallet, wallet.id, walletPatch);
  // A team stored before per-currency totals gets them from its wallets (completeOldRecords).
  if (team && team.totals !== undefined) {
    const teamTotals = addToTeamTotals(team.totals, wallet.currency, { balance: totals.balance - wallet.balance, credit: totals.credit - wallet.credit });
    tx.update<TeamData>(COLLECTIONS.team, team.id, { totals: teamTotals, balance: balanceSortKey(teamTotals) });
  }
  const updatedWallet = { ...wallet, ...(input.walletPatch as Partial<WalletData>), ...totals, ...figures, balanceUpdated: at, entryCount: seq, updated: at, version: wallet.version + 1 };
  if (walletPatch.firstDebitAt) updatedWallet.firstDebitAt = at;
  return { ok: true, entry: { ...entry, id: input.id, version: 1 }, wallet: updatedWallet, duplicate: false };
}

export function createLedgerRepo(store: DocumentStore): LedgerRepo {
  const E = COLLECTIONS.walletTransaction;

  return {
    async post(input, now) {
      return store.transaction((tx) =>
        postInTransaction(tx, { ...input, id: entryId(input.walletId, `post:${input.idempotencyKey}`), reversalOf: null }, now),
      );
    },
    async reverse(walletId, originalId, by, comment, now, realBy) {
      return store.transaction(async (tx) => {
        const original = await tx.get<StoredEntry>(E, originalId);
        if (!original || original.walletId !== walletId) return { ok: false, reason: "ledger.entryNotFound" } as const;
        if (original.reversalOf) return { ok: false, reason: "ledger.notReversible" } as const;
        const opposite = reversalOf(original);
        return postInTransaction(
          tx,
          {
            walletId,
            ...opposite,
            reference: original.reference,
            comment,
            by,
            realBy,
            id: entryId(walletId, `reversal:${originalId}`),
            reversalOf: originalId,
            reverses: original,
          },
          now,
        );
      });
    },
    async getOne(walletId, id) {
      const entry = await store.get<StoredEntry>(E, id);
      return entry && entry.walletId === walletId ? entry : null;
    },
    async list(walletId, spec) {
      const where: Where[] = [["walletId", "==", walletId]];
      if (spec.from) where.push(["sortKey", ">=", spec.from]);
      if (spec.to) where.push(["sortKey", "<", spec.to]);
      return store.query<StoredEntry>(E, { where, orderBy: { field: "sortKey", direction: "desc" }, limit: spec.limit, after: spec.after });
    },
    async reversedIds(walletId, ids) {
      const reversals = await store.getMany<StoredEntry>(E, ids.map((id) => entryId(walletId, `reversal:${id}`)));
      return new Set(reversals.map((r) => r.reversalOf!).filter(Boolean));
    },
  };
}
