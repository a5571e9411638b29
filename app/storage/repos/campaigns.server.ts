import { randomUUID } from "node:crypto";
import type { CampaignData, DeletedCampaignData } from "~/domain/campaigns/campaign";
import { nameKeys } from "~/domain/campaigns/campaign";
import { matchesSearch } from "~/domain/search";
import type { AuditEntry, AuditEntryData } from "~/domain/types";
import { applyPatch } from "~/storage/document-helpers";
import {
  COLLECTIONS,
  ConflictError,
  NotFoundError,
  type Campaign,
  type CampaignListSpec,
  type CampaignSort,
  type CampaignsRepo,
  type DeletedCampaign,
  type DocumentStore,
  type Page,
  type Patch,
  type Stored,
  type Where,
} from "~/storage/port";
import { appendAuditInTransaction, auditBy, diffFields } from "~/storage/repos/audit.server";
import { UNAUDITED_CAMPAIGN_FIELDS } from "~/domain/campaigns/history-fields";
import { fillPage, selectiveSearchKey } from "~/storage/repos/paging.server";
import { preparePublication } from "~/storage/repos/publication.server";
import { prepareTargetsCopy, prepareTargetsRemoval, removeStaged, stageTargetsCopy } from "~/storage/repos/targets.server";

/**
 * The stored sort key of the end date. A campaign without end date runs for ever: it sorts after
 * every dated one (last ascending, first descending), and the key is never null, so no campaign
 * drops out of an order by end date on either adapter.
 */
export const OPEN_END_SORT_KEY = "9999-12-31T23:59:59.999Z";

export function endSortKey(endDate: string | null | undefined): string {
  return endDate ? String(utcInstant(endDate)) : OPEN_END_SORT_KEY;
}

/** The instant fields of a campaign, stored as UTC ISO strings (Z) so that they sort and compare. */
const INSTANT_FIELDS = ["startDate", "endDate", "created", "updated"] as const;

/**
 * An instant in UTC ISO form. An offset form ("2025-06-02T00:00:00.000+02:00", which TZDate's
 * toISOString gives) would neither sort nor compare with the others as text.
 */
export function utcInstant<T>(value: T): T | string {
  if (typeof value !== "string" || value === "") return value;
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : new Date(time).toISOString();
}

function withUtcInstants<T extends object>(data: T): T {
  const out = { ...data } as Record<string, unknown>;
  for (const field of INSTANT_FIELDS) if (field in out) out[field] = utcInstant(out[field]);
  return out as T;
}

/** Derived fields kept on the stored document only: never returned, never audited. */
export interface StoredCampaignData extends CampaignData {
  endSort: string;
  /** How many writes of the settlement the document has had (see editVersion). */
  spendRevision?: number;
}

/**
 * A campaign's version as the port gives it counts its edits, not the settlement's writes: the
 * settlement changes spend, today's spend and the daily cap every few seconds while a campaign
 * serves, fields no form or edit holds, and an open form must not turn stale for that. The store's
 * own version still moves with every write (transactions see every change).
 */
export function editVersion(doc: { version: number; spendRevision?: number }): number {
  return doc.version - (doc.spendRevision ?? 0);
}

/** The settlement's write to a campaign (not an edit: not audited, its version unchanged). */
export function spendWrite(
  current: Pick<StoredCampaignData, "spendRevision">,
  fields: Partial<Pick<CampaignData, "spend" | "todaySpend" | "dailyCapReached" | "todaySpendMicros" | "capsReached">>,
): Patch<StoredCampaignData> {
  return { ...fields, spendRevision: (current.spendRevision ?? 0) + 1 };
}

const SORT_FIELDS: Record<CampaignSort, string> = {
  updated: "updated",
  name: "nameLower",
  startDate: "startDate",
  endDate: "endSort",
  created: "created",
  spend: "spend",
};

/** Newest, biggest first; names and dates in calendar order. */
const DEFAULT_DIRECTION: Record<CampaignSort, "asc" | "desc"> = {
  updated: "desc",
  created: "desc",
  spend: "desc",
  name: "asc",
  startDate: "asc",
  endDate: "asc",
};

/** Firestore's `in` takes at most 30 values, and a query at most 30 disjunctions (team x status). */
export const MAX_IN_VALUES = 30;
const MAX_DISJUNCTIONS = 30;

/** Derived keys are not history; nor is what the settlement keeps. */
const UNAUDITED: ReadonlySet<string> = new Set(UNAUDITED_CAMPAIGN_FIELDS);

function auditChanges(before: Record<string, unknown> | null, after: Record<string, unknown>) {
  return diffFields(before, after)
    .filter((c) => !UNAUDITED.has(c.field))
    .map((c) => (c.field === "offers" ? changedOffersOnly(c) : c));
}

const isMap = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A change of the campaign's products records the products added, removed or changed only, not
 * the whole map twice: switching one product of a campaign of 3,000 wrote an entry of ~1 MB
 * (Firestore refuses a document over 1 MiB, so the change failed there), and the History read it
 * back on every page. What History says of it is unchanged: it summarises what differs.
 */
function changedOffersOnly(change: { field: string; before: unknown; after: unknown }) {
  if (!isMap(change.before) || !isMap(change.after)) return change;
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const id of new Set([...Object.keys(change.before), ...Object.keys(change.after)])) {
    const was = Object.hasOwn(change.before, id) ? change.before[id] : undefined;
    const is = Object.hasOwn(change.after, id) ? change.after[id] : undefined;
    if (JSON.stringify(was) === JSON.stringify(is)) continue;
    if (isMap(was) && isMap(is)) {
      // A product kept: only what changed (and its title once), so that switching every product
      // of a large campaign (ADR 48) records less than the campaign itself, not twice its products.
      const [b, a] = changedKeys(was, is);
      before[id] = b;
      after[id] = "title" in a || typeof is.title !== "string" ? a : { ...a, title: is.title };
      continue;
    }
    if (was !== undefined) before[id] = was;
    if (is !== undefined) after[id] = is;
  }
  return { ...change, before, after };
}

function changedKeys(was: Record<string, unknown>, is: Record<string, unknown>): [Record<string, unknown>, Record<string, unknown>] {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(was), ...Object.keys(is)])) {
    if (JSON.stringify(was[key]) === JSON.stringify(is[key])) continue;
    if (key in was) before[key] = was[key];
    if (key in is) after[key] = is[key];
  }
  return [before, after];
}

/** The campaign as the port gives it: without the stored-only keys, its version counting edits. */
export function toCampaign<T extends { endSort?: unknown; spendRevision?: number; version: number }>(doc: T): Omit<T, "endSort" | "spendRevision"> {
  const { endSort: _endSort, spendRevision: _spendRevision, ...campaign } = doc;
  return { ...campaign, version: editVersion(doc) };
}

export function createCampaignsRepo(store: DocumentStore): CampaignsRepo {
  const C = COLLECTIONS.campaign;
  return {
    async getOne(id) {
      const doc = await store.get<StoredCampaignData>(C, id);
      return doc ? toCampaign(doc) : null;
    },
    async getMany(ids) {
      return (await store.getMany<StoredCampaignData>(C, ids)).map(toCampaign);
    },
    async list(spec) {
      const selection = listSelection(spec);
      if (!selection) return { items: [], next: null };
      const { where, orderBy, keep } = selection;
      const page = await fillPage(
        (limit, after) => store.query<StoredCampaignData>(C, { where, orderBy, limit, after }),
        keep,
        spec.limit,
        spec.after,
      );
      return { items: page.items.map(toCampaign), next: page.next };
    },
    async count(spec, upTo) {
      const selection = listSelection(spec);
      return selection ? store.count(C, selection.where, upTo) : 0;
    },
    async listForTeam(teamId) {
      const all: Campaign[] = [];
      let after: string | null = null;
      do {
        const page: Page<Stored<StoredCampaignData>> = await store.query<StoredCampaignData>(C, {
          where: [["team", "==", teamId]],
          limit: 500,
          after,
        });
        all.push(...page.items.map(toCampaign));
        after = page.next;
      } while (after);
      return all;
    },
    async create(data, actor, id = randomUUID(), options) {
      const now = new Date();
      const { id: _id, version: _version, endSort: _endSort, ...input } = withUtcInstants(data as CampaignData & { id?: string; version?: number; endSort?: string });
      const doc: StoredCampaignData = { ...input, ...nameKeys(input.name), endSort: endSortKey(input.endDate) };
      // Too large for the create's one commit (Firestore, ADR 50): the copy staged first, named by the create.
      const staged = options?.targetsOf ? await stageTargetsCopy(store, options.targetsOf, id) : null;
      const createWith = async () => {
        await store.transaction(async (tx) => {
          // A duplicate's targets: the source's chunks copied with the campaign, its counts with them.
          let copyTargets: (() => void) | null = null;
          if (options?.targetsOf && staged) {
            const source = await tx.get<StoredCampaignData>(C, options.targetsOf);
            if (!source) throw new NotFoundError(C, options.targetsOf);
            // Changed since its targets were copied: the duplicate is refused as any stale edit.
            if (source.version !== staged.sourceVersion) throw new ConflictError(C, options.targetsOf);
            doc.counts = staged.counts;
            doc.targetBuckets = staged.targetBuckets;
            doc.targetGens = staged.targetGens;
            copyTargets = () => staged.write(tx);
          } else if (options?.targetsOf) {
            const source = await tx.get<StoredCampaignData>(C, options.targetsOf);
            if (!source) throw new NotFoundError(C, options.targetsOf);
            const copy = await prepareTargetsCopy(tx, source, id);
            doc.counts = copy.counts;
            doc.targetBuckets = copy.targetBuckets;
            if (Object.keys(copy.targetGens).length) doc.targetGens = copy.targetGens;
            copyTargets = copy.write;
          }
          tx.create<StoredCampaignData>(C, id, doc);
          copyTargets?.();
          appendAuditInTransaction(
            tx,
            { ...auditBy(actor), action: "create", entity: "campaign", entityId: id, teamId: doc.team, changes: auditChanges(null, doc as unknown as Record<string, unknown>) },
            now,
          );
        });
      };
      try {
        await createWith();
      } catch (error) {
        if (staged) await removeStaged(store, staged.staged);
        throw error;
      }
      return toCampaign({ ...doc, id, version: 1 });
    },
    async update(id, patch, actor, options) {
      const now = new Date();
      return store.transaction(async (tx) => {
        const current = await tx.get<StoredCampaignData>(C, id);
        if (!current) throw new NotFoundError(C, id);
        if (options?.expectVersion !== undefined && options.expectVersion !== editVersion(current)) throw new ConflictError(C, id);
        const full: Patch<StoredCampaignData> = { ...withUtcInstants(patch), updated: now.toISOString(), by: actor.by };
        delete (full as Record<string, unknown>).endSort;
        delete (full as Record<string, unknown>).spendRevision;
        if (typeof patch.name === "string") Object.assign(full, nameKeys(patch.name));
        const { id: _id, version, ...before } = current;
        const after = applyPatch(before, full, now.toISOString()) as unknown as StoredCampaignData;
        // The sort key follows the end date, whatever the patch did to it.
        full.endSort = after.endSort = endSortKey(after.endDate);
        const next = toCampaign({ ...after, id, version: version + 1 }) as Campaign;
        // Reads (the cache documents) come before the writes.
        const write = options?.publish ? await preparePublication(tx, id, options.publish(next)) : null;
        tx.update<StoredCampaignData>(C, id, full);
        write?.();
        // The wallet details before: the wallet as it was, when the caller knows it (the stored copy may lag).
        const audited = options?.walletBefore !== undefined ? { ...before, selectedWallet: options.walletBefore } : before;
        const changes = auditChanges(audited as unknown as Record<string, unknown>, after as unknown as Record<string, unknown>);
        if (changes.length) {
          appendAuditInTransaction(tx, { ...auditBy(actor), action: options?.action ?? "update", entity: "campaign", entityId: id, teamId: after.team, changes }, now);
        }
        return next;
      });
    },
    async delete(id, actor, now, options) {
      return store.transaction(async (tx) => {
        const current = await tx.get<StoredCampaignData>(C, id);
        if (!current) throw new NotFoundError(C, id);
        if (options?.expectVersion !== undefined && options.expectVersion !== editVersion(current)) throw new ConflictError(C, id);
        const write = await preparePublication(tx, id, null);
        // Its targets go with it (the deleted copy keeps their counts).
        const removeTargets = await prepareTargetsRemoval(tx, id, current.targetBuckets, current.targetGens);
        const { id: _id, version: _version, endSort: _endSort, spendRevision: _spendRevision, ...data } = current;
        const copy: DeletedCampaignData = { ...data, status: "deleted", deleted_by: actor.by, deleted: now.toISOString() };
        tx.set<DeletedCampaignData>(COLLECTIONS.deletedCampaign, id, copy);
        tx.delete(C, id);
        removeTargets();
        write();
        appendAuditInTransaction(
          tx,
          { ...auditBy(actor), action: "delete", entity: "campaign", entityId: id, teamId: data.team, changes: [{ field: "status", before: data.status, after: "deleted" }] },
          now,
        );
        return { ...copy, id, version: 1 } as DeletedCampaign;
      });
    },
    async getDeleted(id) {
      return store.get<DeletedCampaignData>(COLLECTIONS.deletedCampaign, id);
    },
    async history(id, spec) {
      return store.query<AuditEntryData>(COLLECTIONS.audit, {
        where: [["entity", "==", "campaign"], ["entityId", "==", id]],
        orderBy: { field: "at", direction: "desc" },
        limit: spec.limit,
        after: spec.after,
      }) as Promise<{ items: AuditEntry[]; next: string | null }>;
    },
  };
}

/**
 * What a campaign list selects in storage: its filters and order, and the check each page's
 * campaigns pass on top (a search's words, statuses beyond the store's disjunctions); null when
 * nothing can match.
 */
function listSelection(spec: CampaignListSpec): { where: Where[]; orderBy: { field: string; direction: "asc" | "desc" }; keep: ((c: StoredCampaignData) => boolean) | null } | null {
  const where: Where[] = [];
  const teams = spec.teamIds ? [...new Set(spec.teamIds)] : null;
  if (teams) {
    if (teams.length === 0) return null;
    if (teams.length > MAX_IN_VALUES) throw new RangeError(`At most ${MAX_IN_VALUES} teams per campaign list, not ${teams.length}`);
    where.push(teams.length === 1 ? ["team", "==", teams[0]] : ["team", "in", teams]);
  }
  // Both `in` filters go to the store while their product stays within Firestore's 30
  // disjunctions; past that, the statuses are checked on the page (topped up, see fillPage).
  const statuses = spec.statuses?.length ? [...new Set(spec.statuses)] : null;
  let statusesOnPage: Set<string> | null = null;
  if (statuses) {
    if (statuses.length === 1) where.push(["status", "==", statuses[0]]);
    else if ((teams?.length ?? 1) * statuses.length <= MAX_DISJUNCTIONS) where.push(["status", "in", statuses]);
    else statusesOnPage = new Set(statuses);
  }
  if (spec.type) where.push(["campaignType", "==", spec.type]);
  if (spec.walletId) where.push(["wallet", "==", spec.walletId]);
  const key = spec.search ? selectiveSearchKey(spec.search) : null;
  if (key) where.push(["searchTokens", "array-contains", key]);
  const sort = spec.sort ?? "updated";
  let orderBy = { field: SORT_FIELDS[sort], direction: spec.direction ?? DEFAULT_DIRECTION[sort] };
  if (spec.startFrom || spec.startTo) {
    if (spec.startFrom) where.push(["startDate", ">=", utcInstant(spec.startFrom)]);
    if (spec.startTo) where.push(["startDate", "<", utcInstant(spec.startTo)]);
    // One range per query (Firestore): a date range orders by start date.
    if (orderBy.field !== "startDate") orderBy = { field: "startDate", direction: "asc" };
  }
  const search = key ? spec.search! : null;
  const keep =
    search || statusesOnPage
      ? (c: StoredCampaignData) => (!search || matchesSearch(c.name, search)) && (!statusesOnPage || statusesOnPage.has(c.status))
      : null;
  return { where, orderBy, keep };
}
