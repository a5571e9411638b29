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
  type UsersRepo,
  type Where,
} from "~/storage/port";
import { appendAuditInTransaction, auditBy, diffFields } from "~/storage/repos/audit.server";

function userSearchTokens(user: Pick<UserData, "displayName" | "email">): string[] {
  return searchTokens(user.displayName, user.email.split("@")[0] ?? "", user.email);
}

function teamIdsOf(roleByTeam: Record<string, Role>): string[] {
  return Object.keys(roleByTeam).sort();
}

export function createUsersRepo(store: DocumentStore): UsersRepo {
  const C = COLLECTIONS.user;

  async function update(id: string, patch: Patch<UserData>, actor: Actor, expectVersion?: number, audit = true) {
    const now = new Date();
    return store.transaction(async (tx) => {
      const current = await tx.get<UserData>(C, id);
      if (!current) throw new NotFoundError(C, id);
      if (expectVersion !== undefined && expectVersion !== current.version) throw new ConflictError(C, id);
      const full: Patch<UserData> = { ...patch, updated: now.toISOString() };
      if (patch.roleByTeam && typeof patch.roleByTeam === "object" && !("$op" in patch.roleByTeam)) {
        full.teamIds = teamIdsOf(patch.roleByTeam as Record<string, Role>);
      }
      const { id: _id, version, ...before } = current;
      if (typeof patch.displayName === "string" || typeof patch.email === "string") {
        full.searchTokens = userSearchTokens({
          displayName: typeof patch.displayName === "string" ? patch.displayName : current.displayName,
          email: typeof patch.email === "string" ? patch.email : current.email,
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
  };
}
