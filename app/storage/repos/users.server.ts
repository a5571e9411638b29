import { randomUUID } from "node:crypto";
import { matchesSearch, searchKey, searchTokens } from "~/domain/search";
import type { Role, User, UserData } from "~/domain/types";
import { isFreshStep } from "~/domain/second-factor";
import { applyPatch } from "~/storage/document-helpers";
import {
  AlreadyExistsError,
  ConflictError,
  COLLECTIONS,
  fieldOps,
  NotFoundError,
  type DocumentStore,
  type Actor,
  type Patch,
  type ResetPasswordResult,
  type TransactionContext,
  type UsersRepo,
  type Where,
} from "~/storage/port";
import { appendAuditInTransaction, auditBy, diffFields } from "~/storage/repos/audit.server";
import { judgeResetToken } from "~/storage/repos/auth.server";
import type { PasswordResetTokenData } from "~/domain/types";

/** A reset link refused inside the password's transaction (nothing written). */
class ResetRefused extends Error {
  constructor(readonly reason: Extract<ResetPasswordResult, { ok: false }>["reason"]) {
    super(reason);
  }
}

function userSearchTokens(user: Pick<UserData, "displayName" | "email">): string[] {
  return searchTokens(user.displayName, user.email.split("@")[0] ?? "", user.email);
}

function teamIdsOf(roleByTeam: Record<string, Role>): string[] {
  return Object.keys(roleByTeam).sort();
}

export function createUsersRepo(store: DocumentStore): UsersRepo {
  const C = COLLECTIONS.user;

  /**
   * `guard` runs in the transaction once the user is read (its reads first, then its own writes):
   * it may refuse by throwing, or write a document that must change with the user.
   */
  async function update(id: string, patch: Patch<UserData> | ((current: UserData) => Patch<UserData>), actor: Actor, expectVersion?: number, audit = true, guard?: (tx: TransactionContext, current: UserData) => Promise<void>) {
    const now = new Date();
    return store.transaction(async (tx) => {
      const current = await tx.get<UserData>(C, id);
      if (!current) throw new NotFoundError(C, id);
      if (expectVersion !== undefined && expectVersion !== current.version) throw new ConflictError(C, id);
      if (guard) await guard(tx, current);
      const changes = typeof patch === "function" ? patch(current) : patch;
      const full: Patch<UserData> = { ...changes, updated: now.toISOString() };
      if (changes.roleByTeam && typeof changes.roleByTeam === "object" && !("$op" in changes.roleByTeam)) {
        full.teamIds = teamIdsOf(changes.roleByTeam as Record<string, Role>);
      }
      const { id: _id, version, ...before } = current;
      if (typeof changes.displayName === "string" || typeof changes.email === "string") {
        full.searchTokens = userSearchTokens({
          displayName: typeof changes.displayName === "string" ? changes.displayName : current.displayName,
          email: typeof changes.email === "string" ? changes.email : current.email,
        });
      }
      const after = applyPatch(before, full, now.toISOString()) as unknown as UserData;
      tx.update<UserData>(C, id, full);
      if (audit) {
        const changes = diffFields(before as Record<string, unknown>, after as unknown as Record<string, unknown>).filter(
          (c) => c.field !== "searchTokens" && c.field !== "teamIds",
        );
        if (changes.length) {
          appendAuditInTransaction(tx, { ...auditBy(actor), action: "update", entity: "user", entityId: id, teamId: null, changes }, now);
        }
      }
      return { ...after, id, version: version + 1 } as User;
    });
  }

  return {
    async getOne(id) {
      return store.get<UserData>(C, id);
    },
    async getByEmail(email) {
      const { items } = await store.query<UserData>(C, {
        where: [["emailLower", "==", email.trim().toLowerCase()]],
        limit: 1,
      });
      return items[0] ?? null;
    },
    async create(data, actor, id = randomUUID()) {
      const now = new Date();
      const emailLower = data.email.trim().toLowerCase();
      const doc: UserData = {
        ...data,
        emailLower,
        searchTokens: userSearchTokens(data),
        teamIds: teamIdsOf(data.roleByTeam),
        created: now.toISOString(),
        updated: now.toISOString(),
      };
      await store.transaction(async (tx) => {
        const taken = await tx.get(COLLECTIONS.userEmail, emailLower);
        if (taken) throw new AlreadyExistsError(COLLECTIONS.userEmail, emailLower);
        tx.create(COLLECTIONS.userEmail, emailLower, { userId: id });
        tx.create<UserData>(C, id, doc);
        appendAuditInTransaction(
          tx,
          { ...auditBy(actor), action: "create", entity: "user", entityId: id, teamId: null, changes: diffFields(null, doc as unknown as Record<string, unknown>) },
          now,
        );
      });
      return { ...doc, id, version: 1 };
    },
    async update(id, patch, actor, options) {
      return update(id, patch, actor, options?.expectVersion);
    },
    async listByTeam(teamId) {
      const { items } = await store.query<UserData>(C, {
        where: [["teamIds", "array-contains", teamId]],
        orderBy: { field: "emailLower", direction: "asc" },
        limit: 500,
      });
      return items;
    },
    async list(spec) {
      const where: Where[] = [];
      const key = spec.search ? searchKey(spec.search) : null;
      if (key) where.push(["searchTokens", "array-contains", key]);
      if (spec.type) where.push(["claims.type", "==", spec.type]);
      else if (spec.types?.length) where.push(["claims.type", "in", [...spec.types]]);
      if (spec.status) where.push(["status", "==", spec.status]);
      const page = await store.query<UserData>(C, {
        where,
        orderBy: { field: "emailLower", direction: "asc" },
        limit: spec.limit,
        after: spec.after,
      });
      const items = spec.search ? page.items.filter((u) => matchesSearch(`${u.displayName} ${u.email}`, spec.search!)) : page.items;
      return { items, next: page.next };
    },
    async recordSignIn(id, method, now) {
      const user = await store.get<UserData>(C, id);
      if (!user) throw new NotFoundError(C, id);
      const providers = user.auth_providers.includes(method) ? user.auth_providers : [...user.auth_providers, method];
      return store.update<UserData>(C, id, {
        lastSignIn: now.toISOString(),
        last_auth: now.toISOString(),
        last_auth_method: method,
        auth_providers: providers,
        disconnected: false,
      });
    },
    async recordSignOut(id) {
      if (await store.get<UserData>(C, id)) await store.update<UserData>(C, id, { disconnected: true });
    },
    async touchRefreshToken(id) {
      return store.update<UserData>(C, id, { last_refresh_token: fieldOps.serverTime() });
    },
    async setSecondFactor(id, value, actor) {
      const patch: Patch<UserData> = { totpSecret: value?.totpSecret ?? null, recoveryCodeHashes: value?.recoveryCodeHashes ?? [] };
      if (!value) patch.totpLastStep = null;
      else if (value.totpLastStep !== undefined) patch.totpLastStep = value.totpLastStep;
      return update(id, patch, actor);
    },
    async useTotpStep(id, step) {
      return store.transaction(async (tx) => {
        const user = await tx.get<UserData>(C, id);
        if (!user || !isFreshStep(step, user.totpLastStep)) return false;
        tx.update<UserData>(C, id, { totpLastStep: step });
        return true;
      });
    },
    async useRecoveryCode(id, codeHash) {
      return store.transaction(async (tx) => {
        const user = await tx.get<UserData>(C, id);
        const hashes = user?.recoveryCodeHashes ?? [];
        if (!user || !hashes.includes(codeHash)) return false;
        tx.update<UserData>(C, id, { recoveryCodeHashes: hashes.filter((h) => h !== codeHash) });
        return true;
      });
    },
    async setPassword(id, passwordHash, historySize, actor) {
      const user = await store.get<UserData>(C, id);
      if (!user) throw new NotFoundError(C, id);
      const history = [user.passwordHash, ...user.passwordHistory].filter((h): h is string => !!h).slice(0, historySize);
      return update(
        id,
        { passwordHash, passwordHistory: history, sessionEpoch: fieldOps.increment(1) },
        actor,
        user.version,
      );
    },
    async resetPassword(id, passwordHash, historySize, actor, link) {
      const historyOf = (user: UserData) => [user.passwordHash, ...user.passwordHistory].filter((h): h is string => !!h).slice(0, historySize);
      try {
        const user = await update(
          id,
          (current) => ({ passwordHash, passwordHistory: historyOf(current), sessionEpoch: fieldOps.increment(1) }),
          actor,
          undefined,
          true,
          async (tx, current) => {
            const R = COLLECTIONS.passwordReset;
            const token = await tx.get<PasswordResetTokenData>(R, link.tokenHash);
            const verdict = judgeResetToken(token, link.now);
            if (!verdict.ok) throw new ResetRefused(verdict.reason);
            if (token!.userId !== id || current.disabled) throw new ResetRefused("token.invalid");
            // The epoch the link was sent at (or, for a link without one, the epoch its check saw):
            // a password set since, by another link at the same instant or on the profile, kills it.
            if ((verdict.passwordEpoch ?? link.expectEpoch) !== current.sessionEpoch) throw new ResetRefused("token.superseded");
            tx.update<PasswordResetTokenData>(R, link.tokenHash, { usedAt: link.now.toISOString() });
          },
        );
        return { ok: true, user };
      } catch (error) {
        if (error instanceof ResetRefused) return { ok: false, reason: error.reason };
        if (error instanceof NotFoundError) return { ok: false, reason: "token.invalid" };
        throw error;
      }
    },
  };
}
