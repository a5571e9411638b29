import { createHash, randomUUID } from "node:crypto";
import { foldText, matchesSearch, searchKey, searchTokens } from "~/domain/search";
import type { TeamData } from "~/domain/types";
import { applyPatch } from "~/storage/document-helpers";
import {
  AlreadyExistsError,
  COLLECTIONS,
  ConflictError,
  NotFoundError,
  type DocumentStore,
  type Patch,
  type TeamInput,
  type TeamsRepo,
  type Where,
} from "~/storage/port";
import { appendAuditInTransaction, auditBy, diffFields } from "~/storage/repos/audit.server";

/** The uniqueness key of a team name: folded, then hashed (document ids may not hold every character). */
export function teamNameKey(name: string): string {
  return createHash("sha256").update(foldText(name)).digest("hex");
}

function derived(input: Pick<TeamData, "name">) {
  return { nameLower: foldText(input.name), searchTokens: searchTokens(input.name) };
}

const SORT_FIELDS = { name: "nameLower", created: "created", balance: "balance" } as const;

export function createTeamsRepo(store: DocumentStore): TeamsRepo {
  const C = COLLECTIONS.team;
  return {
    async getOne(id) {
      return store.get<TeamData>(C, id);
    },
    async getMany(ids) {
      return store.getMany<TeamData>(C, ids);
    },
    async list(spec) {
      const where: Where[] = [];
      if (spec.statuses?.length === 1) where.push(["status", "==", spec.statuses[0]]);
      else if (spec.statuses?.length) where.push(["status", "in", [...spec.statuses]]);
      if (spec.accountType) where.push(["account_type", "==", spec.accountType]);
      const key = spec.search ? searchKey(spec.search) : null;
      // Firestore allows one array-contains per query: the search token goes to the store, and a
      // tag given with a search is checked on the page.
      if (key) where.push(["searchTokens", "array-contains", key]);
      else if (spec.tag) where.push(["tags", "array-contains", spec.tag]);
      const page = await store.query<TeamData>(C, {
        where,
        orderBy: { field: SORT_FIELDS[spec.sort ?? "name"], direction: spec.direction ?? "asc" },
        limit: spec.limit,
        after: spec.after,
      });
      const items = page.items.filter(
        (t) => (!spec.search || matchesSearch(t.name, spec.search)) && (!key || !spec.tag || t.tags.includes(spec.tag)),
      );
      return { items, next: page.next };
    },
    async idsWithStatus(status) {
      return store.ids(C, [["status", "==", status]]);
    },
    async create(input, actor, id = randomUUID()) {
      const now = new Date();
      const doc: TeamData = {
        ...input,
        ...derived(input),
        walletCount: 0,
        totals: {},
        balance: 0,
        liveCampaigns: 0,
        pending_review_campaigns: [],
        created: now.toISOString(),
        updated: now.toISOString(),
      };
      const nameKey = teamNameKey(input.name);
      await store.transaction(async (tx) => {
        if (await tx.get(COLLECTIONS.teamName, nameKey)) throw new AlreadyExistsError(COLLECTIONS.teamName, input.name);
        tx.create(COLLECTIONS.teamName, nameKey, { teamId: id });
        tx.create<TeamData>(C, id, doc);
        appendAuditInTransaction(
          tx,
          { ...auditBy(actor), action: "create", entity: "team", entityId: id, teamId: id, changes: diffFields(null, doc as unknown as Record<string, unknown>) },
          now,
        );
      });
      return { ...doc, id, version: 1 };
    },
    async update(id, patch: Partial<TeamInput>, actor, options) {
      const now = new Date();
      return store.transaction(async (tx) => {
        const current = await tx.get<TeamData>(C, id);
        if (!current) throw new NotFoundError(C, id);
        if (options?.expectVersion !== undefined && options.expectVersion !== current.version) throw new ConflictError(C, id);
        // An edit of the editable fields: marked, so that balance totals and campaign counters (which raise the version too) never make the next edit look stale.
        const full: Patch<TeamData> = { ...patch, updated: now.toISOString(), settingsSavedAtVersion: current.version + 1 };
        if (patch.name !== undefined && foldText(patch.name) !== current.nameLower) {
          const newKey = teamNameKey(patch.name);
          if (await tx.get(COLLECTIONS.teamName, newKey)) throw new AlreadyExistsError(COLLECTIONS.teamName, patch.name);
          tx.create(COLLECTIONS.teamName, newKey, { teamId: id });
          tx.delete(COLLECTIONS.teamName, teamNameKey(current.name));
          Object.assign(full, derived({ name: patch.name }));
        } else if (patch.name !== undefined) {
          Object.assign(full, derived({ name: patch.name }));
        }
        const { id: _id, version, ...before } = current;
        const after = applyPatch(before, full, now.toISOString()) as unknown as TeamData;
        tx.update<TeamData>(C, id, full);
        const changes = diffFields(before as Record<string, unknown>, after as unknown as Record<string, unknown>).filter(
          (c) => c.field !== "searchTokens" && c.field !== "nameLower",
        );
        if (changes.length) {
          appendAuditInTransaction(tx, { ...auditBy(actor), action: "update", entity: "team", entityId: id, teamId: id, changes }, now);
        }
        return { ...after, id, version: version + 1 };
      });
    },
    async updateCampaignCounters(teamId, change) {
      await store.transaction(async (tx) => {
        const team = await tx.get<TeamData>(C, teamId);
        if (!team) return;
        const list = team.pending_review_campaigns ?? [];
        const pending = change.pendingReview;
        const next = !pending ? list : "add" in pending ? [...new Set([...list, pending.add])] : list.filter((id) => id !== pending.remove);
        const patch: Patch<TeamData> = {};
        if (next.length !== list.length) patch.pending_review_campaigns = next;
        if (change.liveCampaigns !== undefined && team.liveCampaigns !== change.liveCampaigns) patch.liveCampaigns = change.liveCampaigns;
        if (Object.keys(patch).length) tx.update<TeamData>(C, teamId, patch);
      });
    },
  };
}
