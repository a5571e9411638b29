/**
 * A campaign's keyword, category and product-category targets (ADR 27), stored for Firestore's
 * 1 MiB document limit: each kind's targets are spread over `n` chunk documents
 * (`campaign_target/{campaign}_{kind}_{i}`, n a power of two kept on the campaign as
 * targetBuckets), a target in chunk hash(key) mod n. A change to a few targets reads and writes
 * only their chunks; a chunk over its share (BUCKET_TARGETS targets or MAX_BUCKET_BYTES) doubles
 * n and spreads the kind again. Every change runs in one transaction with the campaign's counts,
 * its version check, its audit entry and its publication: the cache copy of the campaign (its
 * counts, negative keywords and chunk counts) and the published chunks
 * (`cache_campaign_target/{same id}`: the switched-on targets, bid, offers and placement), so
 * nothing is ever half-applied and the ad server reads what the console shows.
 */
import type { Campaign, CampaignData } from "~/domain/campaigns/campaign";
import { TARGET_AUDIT_FIELD, TARGET_AUDIT_LIMIT, type CampaignHistoryAction, type TargetAuditValue } from "~/domain/campaigns/history-fields";
import { NO_TARGET_COUNTS, targetCountsOf, type CampaignTarget, type TargetCounts, type TargetKind, type Targets } from "~/domain/campaigns/targets";
import { applyPatch } from "~/storage/document-helpers";
import {
  COLLECTIONS,
  ConflictError,
  NotFoundError,
  type Actor,
  type DocumentStore,
  type Patch,
  type PublishedCampaign,
  type TargetChange,
  type TargetsRepo,
  type TransactionContext,
  type WriteOptions,
} from "~/storage/port";
import { appendAuditInTransaction, auditBy } from "~/storage/repos/audit.server";
import { editVersion, toCampaign, type StoredCampaignData } from "~/storage/repos/campaigns.server";
import { preparePublication } from "~/storage/repos/publication.server";
import { buildView, dropView, prepareViewChange, readInSteps, readViewPage, viewId, viewPageId, type TargetViewData, type TargetViewPageData } from "~/storage/repos/target-view.server";
import { stepClock } from "~/utils/cooperative";

/** Targets a chunk is sized for: a kind is spread so that chunks hold about this many. */
export const BUCKET_TARGETS = 1_000;
/** A chunk past this many targets, or bytes of JSON, doubles its kind's chunks (well under 1 MiB). */
const BUCKET_MAX_TARGETS = 2 * BUCKET_TARGETS;
const MAX_BUCKET_BYTES = 600 * 1024;

interface TargetChunkData {
  campaign: string;
  kind: TargetKind;
  bucket: number;
  targets: Targets;
  /** The chunk's generation (ADR 50), part of its id; `staged`: when a large change wrote it, before its switch. */
  gen?: string;
  staged?: string;
}

/** What the ad server reads of a chunk: switched-on targets only. */
export interface PublishedTarget {
  bid: number | null;
  offers: string[] | null;
  placement: CampaignTarget["placement"];
}
interface PublishedChunkData {
  campaign: string;
  kind: TargetKind;
  bucket: number;
  targets: Record<string, PublishedTarget>;
  gen?: string;
}

/**
 * A target's share of its chunk's size as stored, from above: its key, name, url and offers, and
 * the fixed fields (on, bid, placement, auto, two ISO dates) with JSON's punctuation, without
 * serialising it. A chunk's size: 2 (its braces) and the sum of its targets'.
 */
function targetBytes(key: string, t: CampaignTarget): number {
  let bytes = 2 * key.length + 2 * t.name.length + 2 * (t.url?.length ?? 4) + 170;
  if (t.offers) for (const id of t.offers) bytes += 2 * id.length + 3;
  return bytes;
}

/** The chunks of a change as they are placed: their targets, and each one's count and estimated size (targetBytes). */
class PlacedChunks {
  readonly chunks = new Map<number, Targets>();
  private readonly sizes = new Map<number, { count: number; bytes: number }>();

  constructor(buckets: Iterable<number>) {
    for (const b of buckets) {
      this.chunks.set(b, {});
      this.sizes.set(b, { count: 0, bytes: 2 });
    }
  }

  place(bucket: number, key: string, target: CampaignTarget): void {
    this.chunks.get(bucket)![key] = target;
    const size = this.sizes.get(bucket)!;
    size.count++;
    size.bytes += targetBytes(key, target);
  }

  /** Whether a chunk is past its share: too many targets, or too many bytes. */
  oversized(maxTargets: number, maxBytes: number): boolean {
    for (const size of this.sizes.values()) if (size.count > maxTargets || size.bytes > maxBytes) return true;
    return false;
  }
}

/**
 * A target by its key, of the map's own entries only: a keyword such as "constructor" is a key
 * like any other, never a property every object inherits.
 */
function own<T>(map: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

/** A chunk's id (the console's and the published one alike); with a generation (ADR 50), it is part of it. */
export function chunkId(campaignId: string, kind: TargetKind, bucket: number, gen?: string | null): string {
  return gen ? `${campaignId}_${kind}_${gen}_${bucket}` : `${campaignId}_${kind}_${bucket}`;
}

/** FNV-1a, 32 bits: the same chunk for a key on every instance. */
export function bucketOf(key: string, buckets: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % buckets;
}

/** The chunks (a power of two) for this many targets. */
export function bucketsFor(count: number): number {
  let n = 1;
  while (n * BUCKET_TARGETS < count) n *= 2;
  return n;
}

function published(targets: Targets): Record<string, PublishedTarget> {
  const out: Record<string, PublishedTarget> = {};
  for (const key in targets) {
    const t = targets[key]!;
    if (t.on) out[key] = { bid: t.bid, offers: t.offers, placement: t.placement };
  }
  return out;
}

/**
 * Whether two stored targets are the same, field by field (arrays of ids element by element):
 * what comparing their JSON said, without serialising a thousand targets on every save.
 */
export function sameTarget(a: CampaignTarget, b: CampaignTarget): boolean {
  if (a === b) return true;
  const ak = Object.keys(a) as (keyof CampaignTarget)[];
  const bk = Object.keys(b);
  if (ak.length !== bk.length) return JSON.stringify(a) === JSON.stringify(b);
  for (let i = 0; i < ak.length; i++) {
    const k = ak[i]!;
    // The same fields in the same order (as JSON would compare them), the same values.
    if (k !== bk[i]) return JSON.stringify(a) === JSON.stringify(b);
    const x = a[k];
    const y = b[k];
    if (x === y) continue;
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) return false;
      for (let j = 0; j < x.length; j++) if (x[j] !== y[j]) return false;
      continue;
    }
    if (typeof x === "object" && x !== null && typeof y === "object" && y !== null) {
      if (JSON.stringify(x) !== JSON.stringify(y)) return false;
      continue;
    }
    return false;
  }
  return true;
}

function countField(kind: TargetKind): (keyof TargetCounts)[] {
  return kind === "keyword" ? ["keywords"] : kind === "productCategory" ? ["productCategories"] : ["categories", "hubs"];
}

/**
 * The targets changed as they stand on one side of the change, for the history (at most
 * TARGET_AUDIT_LIMIT named): only those that exist on that side, so a target just added has
 * nothing before (null) and one removed nothing after. Its offers are kept, so a change of the
 * products a target advertises is a visible change.
 */
export function describeTargets(keys: readonly string[], targets: Targets): TargetAuditValue | null {
  const present = keys.filter((k) => own(targets, k));
  if (!present.length) return null;
  return {
    targets: present.slice(0, TARGET_AUDIT_LIMIT).map((key) => {
      const t = own(targets, key)!;
      return { key, name: t.name, on: t.on, bid: t.bid, offers: t.offers };
    }),
    more: Math.max(0, present.length - TARGET_AUDIT_LIMIT),
  };
}

const TARGET_KINDS: readonly TargetKind[] = ["keyword", "category", "productCategory"];

type TargetGens = Partial<Record<TargetKind, string>>;

/** Every chunk id of a campaign, by its chunk counts and generations (the console's chunks and the published ones share ids). */
function chunkIdsOf(campaignId: string, targetBuckets: Partial<Record<TargetKind, number>> | undefined, gens: TargetGens | undefined): { kind: TargetKind; bucket: number; id: string }[] {
  const out: { kind: TargetKind; bucket: number; id: string }[] = [];
  for (const kind of TARGET_KINDS) {
    const n = targetBuckets?.[kind] ?? 0;
    for (let b = 0; b < n; b++) out.push({ kind, bucket: b, id: chunkId(campaignId, kind, b, gens?.[kind]) });
  }
  return out;
}

/**
 * A copy of a campaign's targets for a new campaign (a duplicate), inside the caller's
 * transaction: reads the source's chunks now (reads come first) and returns the counts and chunk
 * counts the new campaign starts with, and the writes of its chunks. The chunks keep their
 * spread (same count, same hash), so each is copied whole under the new id, nothing re-sorted.
 * The copy is a draft: nothing is published.
 */
export async function prepareTargetsCopy(
  tx: TransactionContext,
  source: Pick<StoredCampaignData, "counts" | "targetBuckets" | "targetGens"> & { id: string },
  toId: string,
  stage?: { gen: string; at: string },
): Promise<{ counts: TargetCounts; targetBuckets: Partial<Record<TargetKind, number>>; targetGens: TargetGens; write: () => void }> {
  const gens = source.targetGens ?? {};
  const ids = chunkIdsOf(source.id, source.targetBuckets, gens);
  const docs = await Promise.all(ids.map(({ id }) => tx.get<TargetChunkData>(COLLECTIONS.campaignTarget, id)));
  // The sorted views (ADR 43), copied as they are; a kind without one gets it on its first read.
  const views = await Promise.all(TARGET_KINDS.map((kind) => (source.targetBuckets?.[kind] ? tx.get<TargetViewData>(COLLECTIONS.campaignTarget, viewId(source.id, kind)) : null)));
  const viewPages = await Promise.all(
    views.map((view, k) => (view ? Promise.all(view.pages.map((ref) => tx.get<TargetViewPageData>(COLLECTIONS.campaignTarget, viewPageId(source.id, TARGET_KINDS[k]!, ref.id, view.gen)))) : [])),
  );
  const targetBuckets: Partial<Record<TargetKind, number>> = {};
  const targetGens: TargetGens = {};
  for (const kind of TARGET_KINDS) {
    if (!source.targetBuckets?.[kind]) continue;
    targetBuckets[kind] = source.targetBuckets[kind];
    // The copy keeps the generation of the chunks it copies (their ids follow it), or, staged, has its own (ADR 50).
    if (stage) targetGens[kind] = stage.gen;
    else if (gens[kind]) targetGens[kind] = gens[kind];
  }
  const staged = stage ? { staged: stage.at } : {};
  return {
    counts: { ...NO_TARGET_COUNTS, ...source.counts },
    targetBuckets,
    targetGens,
    write: () => {
      ids.forEach(({ kind, bucket }, i) => {
        const doc = docs[i];
        if (!doc || !Object.keys(doc.targets).length) return;
        const gen = targetGens[kind];
        tx.set<TargetChunkData>(COLLECTIONS.campaignTarget, chunkId(toId, kind, bucket, gen), { campaign: toId, kind, bucket, targets: doc.targets, ...(gen ? { gen } : {}), ...staged });
      });
      views.forEach((view, k) => {
        const kind = TARGET_KINDS[k]!;
        // A view with a page missing is not copied: the copy builds its own on first read.
        if (!view || viewPages[k]!.some((p) => !p)) return;
        const gen = stage ? stage.gen : view.gen;
        const { id: _id, version: _version, gen: _gen, ...header } = view;
        tx.set<TargetViewData>(COLLECTIONS.campaignTarget, viewId(toId, kind), { ...header, campaign: toId, ...(gen ? { gen } : {}) });
        for (const page of viewPages[k]!) {
          const { id: _pid, version: _pversion, staged: _staged, gen: _pgen, ...data } = page!;
          tx.set<TargetViewPageData>(COLLECTIONS.campaignTarget, viewPageId(toId, kind, data.page, gen), { ...data, campaign: toId, ...(gen ? { gen } : {}), ...staged });
        }
      });
    },
  };
}

/**
 * The deletes of every chunk of a campaign (its own and the published ones) and of its sorted
 * views, in the caller's transaction: the views' headers are read now (reads come first).
 */
export async function prepareTargetsRemoval(tx: TransactionContext, campaignId: string, targetBuckets: Partial<Record<TargetKind, number>> | undefined, targetGens?: TargetGens): Promise<() => void> {
  const kinds = TARGET_KINDS.filter((kind) => targetBuckets?.[kind]);
  const views = await Promise.all(kinds.map((kind) => tx.get<TargetViewData>(COLLECTIONS.campaignTarget, viewId(campaignId, kind))));
  return () => {
    for (const { id } of chunkIdsOf(campaignId, targetBuckets, targetGens)) {
      tx.delete(COLLECTIONS.campaignTarget, id);
      tx.delete(COLLECTIONS.cacheCampaignTarget, id);
    }
    views.forEach((view, k) => view && dropView(tx, campaignId, kinds[k]!, view));
  };
}

/** Chunk documents the orphan sweep reads a page at a time (each at most about 600 KB). */
const SWEEP_PAGE = 25;
/** A staged generation not switched to is left alone this long (its change may still be writing it). */
const STAGED_GRACE_MS = 60 * 60 * 1000;

/** A kind's change of this many targets or more is staged at once on a store with a commit budget (ADR 50). */
const STAGE_TARGETS = 2_000;
/** Staged changes computed again when a concurrent change came first, before giving up (ConflictError). */
const STAGE_ATTEMPTS = 5;
/** Documents deleted in one transaction after a switch. */
const DELETE_BATCH = 200;
/** Documents written in one transaction of a staged generation, at most. */
const STAGE_BATCH = 200;

/** The change's writes are past the store's commit budget: it is staged instead. */
class StageNeeded extends Error {}
/** Something a staged change read changed before its switch: computed again. */
class StageOutdated extends Error {}

/** A generation id: time-ordered, unique, without the separator of ids (_). */
function newGeneration(): string {
  return `g${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 4).toString(36).padStart(4, "0")}`;
}

interface RecordedWrite {
  op: "create" | "set" | "update" | "delete";
  collection: string;
  id: string;
  data?: object;
  patch?: Patch<object>;
  options?: WriteOptions;
}

/**
 * A transaction whose reads go through (each one's version noted) and whose writes are held, to be
 * replayed on it or split over several (ADR 50).
 */
function recorder(tx: TransactionContext) {
  const reads = new Map<string, { collection: string; id: string; version: number | null }>();
  const writes: RecordedWrite[] = [];
  const wrapped: TransactionContext = {
    get: async <D>(collection: string, id: string) => {
      const doc = await tx.get<D>(collection, id);
      reads.set(`${collection}\u0000${id}`, { collection, id, version: doc?.version ?? null });
      return doc;
    },
    create: (collection, id, data) => void writes.push({ op: "create", collection, id, data }),
    set: (collection, id, data) => void writes.push({ op: "set", collection, id, data }),
    update: (collection, id, patch, options) => void writes.push({ op: "update", collection, id, patch: patch as Patch<object>, options }),
    delete: (collection, id) => void writes.push({ op: "delete", collection, id }),
  };
  return { tx: wrapped, reads, writes };
}

/** Held writes applied to a transaction, in order, in steps (each serialises its document). */
async function replay(tx: TransactionContext, writes: readonly RecordedWrite[]): Promise<void> {
  const clock = stepClock();
  for (const w of writes) {
    if (w.op === "create") tx.create(w.collection, w.id, w.data!);
    else if (w.op === "set") tx.set(w.collection, w.id, w.data!);
    else if (w.op === "update") tx.update(w.collection, w.id, w.patch!, w.options);
    else tx.delete(w.collection, w.id);
    if (clock.due()) await clock.pause();
  }
}

/** A write's size as sent: its document's JSON and its id. */
function writeBytes(w: RecordedWrite): number {
  return w.id.length + w.collection.length + 16 + (w.data ? JSON.stringify(w.data).length : w.patch ? JSON.stringify(w.patch).length : 0);
}

/** The writes' estimated size, counted until past `stopAbove`. */
async function estimatedWriteBytes(writes: readonly RecordedWrite[], stopAbove: number): Promise<number> {
  const clock = stepClock();
  let bytes = 0;
  for (const w of writes) {
    bytes += writeBytes(w);
    if (bytes > stopAbove) break;
    if (clock.due()) await clock.pause();
  }
  return bytes;
}

/** Writes cut into batches within the budget; consecutive writes of one id (a chunk and its published copy) stay together. */
async function batches(writes: readonly RecordedWrite[], budget: number): Promise<RecordedWrite[][]> {
  const out: RecordedWrite[][] = [];
  let current: RecordedWrite[] = [];
  let bytes = 0;
  const clock = stepClock();
  for (let i = 0; i < writes.length; ) {
    const unit = [writes[i]!];
    while (i + unit.length < writes.length && writes[i + unit.length]!.id === unit[0]!.id) unit.push(writes[i + unit.length]!);
    i += unit.length;
    const size = unit.reduce((s, w) => s + writeBytes(w), 0);
    if (current.length && (bytes + size > budget || current.length + unit.length > STAGE_BATCH)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(...unit);
    bytes += size;
    if (clock.due()) await clock.pause();
  }
  if (current.length) out.push(current);
  return out;
}

type ChangeOptions = {
  action?: CampaignHistoryAction;
  publish?: (campaign: Campaign) => PublishedCampaign | null;
  patch?: Patch<CampaignData>;
  /** Write every changed kind whole under this new generation (ADR 50). */
  stage?: { gen: string; at: string };
};

/** Documents deleted a batch at a time; a failure is left to the orphan sweep (ADR 50). */
export async function removeStaged(store: DocumentStore, writes: readonly { collection: string; id: string }[]): Promise<void> {
  const ids = [...new Set(writes.map((w) => `${w.collection}\u0000${w.id}`))];
  try {
    for (let i = 0; i < ids.length; i += DELETE_BATCH) {
      await store.transaction(async (tx) => {
        for (const k of ids.slice(i, i + DELETE_BATCH)) {
          const [collection, id] = k.split("\u0000") as [string, string];
          tx.delete(collection, id);
        }
      });
    }
  } catch (error) {
    console.warn(JSON.stringify({ level: "warn", msg: "Targets generation left for the orphan sweep", error: String((error as Error)?.message ?? error) }));
  }
}

/** A duplicate's targets, staged under a generation of the copy's own before its create (ADR 50). */
export interface StagedTargetsCopy {
  /** The source's version when copied: the create checks it is still so. */
  sourceVersion: number;
  counts: TargetCounts;
  targetBuckets: Partial<Record<TargetKind, number>>;
  targetGens: TargetGens;
  /** The view headers, written by the create (the copy's pointer to its pages). */
  write: (tx: TransactionContext) => void;
  /** The staged documents, to remove if the create fails. */
  staged: readonly { collection: string; id: string }[];
}

/**
 * A duplicate's copy of the source's targets on a store with a commit budget, when it is past it
 * (a campaign of tens of thousands of keywords): the chunks and view pages written under a new
 * generation of the copy's id in transactions of their own; the create then names the generation
 * (ADR 50). null: no budget, no source, or the copy fits the create's own transaction.
 */
export async function stageTargetsCopy(store: DocumentStore, sourceId: string, toId: string): Promise<StagedTargetsCopy | null> {
  const budget = store.commitBudgetBytes;
  if (budget === undefined) return null;
  const gen = newGeneration();
  let rec!: ReturnType<typeof recorder>;
  const copied = await store.transaction(async (tx) => {
    rec = recorder(tx);
    const source = await rec.tx.get<StoredCampaignData>(COLLECTIONS.campaign, sourceId);
    if (!source) return null;
    const copy = await prepareTargetsCopy(rec.tx, source, toId, { gen, at: new Date().toISOString() });
    copy.write();
    return { copy, sourceVersion: source.version };
  });
  if (!copied || (await estimatedWriteBytes(rec.writes, budget)) <= budget) return null;
  const marker = `_${gen}_`;
  const bulk = rec.writes.filter((w) => w.id.includes(marker));
  const headers = rec.writes.filter((w) => !w.id.includes(marker));
  try {
    for (const batch of await batches(bulk, budget)) await store.transaction(async (tx) => void (await replay(tx, batch)));
  } catch (error) {
    await removeStaged(store, bulk);
    throw error;
  }
  const { counts, targetBuckets, targetGens } = copied.copy;
  return {
    sourceVersion: copied.sourceVersion,
    counts,
    targetBuckets,
    targetGens,
    write: (tx) => {
      for (const w of headers) tx.set(w.collection, w.id, w.data!);
    },
    staged: bulk,
  };
}

export function createTargetsRepo(store: DocumentStore, settings: { commitBudgetBytes?: number } = {}): TargetsRepo {
  const budget = settings.commitBudgetBytes ?? store.commitBudgetBytes;
  const C = COLLECTIONS.campaign;
  const T = COLLECTIONS.campaignTarget;
  const P = COLLECTIONS.cacheCampaignTarget;

  /** Chunk documents read a few at a time, the event loop let through between (ADR 43). */
  async function getManyInSteps<D>(ids: readonly string[]) {
    const out: Awaited<ReturnType<typeof store.getMany<D>>> = [];
    const clock = stepClock();
    for (let i = 0; i < ids.length; i += 8) {
      out.push(...(await store.getMany<D>(T, ids.slice(i, i + 8))));
      if (clock.due()) await clock.pause();
    }
    return out;
  }

  /**
   * The view of a kind whose targets were saved before views existed, built whole from its
   * chunks in a transaction of its own (a concurrent change or build makes it run again and find
   * the view). null: the kind has no target.
   */
  async function buildMissingView(campaignId: string, kind: TargetKind): Promise<TargetViewData | null> {
    await store.transaction(async (tx) => {
      const campaign = await tx.get<StoredCampaignData>(C, campaignId);
      const n = campaign?.targetBuckets?.[kind] ?? 0;
      if (!n) return;
      const header = await tx.get<TargetViewData>(T, viewId(campaignId, kind));
      if (header) return;
      const gen = campaign?.targetGens?.[kind] ?? null;
      const chunks = await readChunks(tx, campaignId, kind, Array.from({ length: n }, (_, b) => b), gen);
      const all: Targets = {};
      for (const targets of chunks.values()) Object.assign(all, targets);
      for (const write of await buildView(campaignId, kind, all, null, { gen })) write(tx);
    });
    const header = await store.get<TargetViewData>(T, viewId(campaignId, kind));
    return header;
  }

  /** Chunks read in the transaction a few at a time, the event loop let through between (ADR 43). */
  async function readChunks(tx: TransactionContext, campaignId: string, kind: TargetKind, buckets: Iterable<number>, gen: string | null) {
    const list = [...buckets];
    const docs = await readInSteps<TargetChunkData>(tx, list.map((b) => chunkId(campaignId, kind, b, gen)));
    return new Map(list.map((b, i) => [b, docs[i]?.targets ?? {}]));
  }

  return {
    async list(campaignId, kind) {
      const campaign = await store.get<StoredCampaignData>(C, campaignId);
      const n = campaign?.targetBuckets?.[kind] ?? 0;
      if (!n) return {};
      const gen = campaign?.targetGens?.[kind];
      const docs = await getManyInSteps<TargetChunkData>(Array.from({ length: n }, (_, b) => chunkId(campaignId, kind, b, gen)));
      const out: Targets = {};
      for (const doc of docs) Object.assign(out, doc.targets);
      return out;
    },

    async get(campaignId, kind, keys) {
      const campaign = await store.get<StoredCampaignData>(C, campaignId);
      const n = campaign?.targetBuckets?.[kind] ?? 0;
      if (!n || !keys.length) return {};
      // The keys by chunk: each chunk read once and looked into for its own keys only.
      const byChunk = new Map<string, string[]>();
      for (const key of keys) {
        const id = chunkId(campaignId, kind, bucketOf(key, n), campaign?.targetGens?.[kind]);
        const list = byChunk.get(id);
        if (list) list.push(key);
        else byChunk.set(id, [key]);
      }
      const docs = await getManyInSteps<TargetChunkData>([...byChunk.keys()]);
      const out: Targets = {};
      const clock = stepClock();
      for (const doc of docs) {
        for (const key of byChunk.get(doc.id) ?? []) if (Object.hasOwn(doc.targets, key)) out[key] = doc.targets[key]!;
        if (clock.due()) await clock.pause();
      }
      return out;
    },

    async page(campaignId, kind, spec) {
      let header: TargetViewData | null = await store.get<TargetViewData>(T, viewId(campaignId, kind));
      if (!header) header = await buildMissingView(campaignId, kind);
      if (!header) return { items: [], total: 0, bidCounts: {} };
      return readViewPage(store, campaignId, kind, header, spec);
    },

    async getPublished(campaignId, kind) {
      const campaign = await store.get<PublishedCampaign>(COLLECTIONS.cacheCampaign, campaignId);
      const n = campaign?.targets?.[kind]?.buckets ?? 0;
      if (!n) return {};
      const gen = campaign?.targets?.[kind]?.gen;
      const docs = await store.getMany<PublishedChunkData>(P, Array.from({ length: n }, (_, b) => chunkId(campaignId, kind, b, gen)));
      const out: Record<string, PublishedTarget> = {};
      for (const doc of docs) Object.assign(out, doc.targets);
      return out;
    },

    async sweepOrphans(spec) {
      // Chunk ids start with their campaign's id, so a page by id holds few campaigns.
      const page = await store.query<TargetChunkData>(T, { limit: Math.min(spec.limit ?? SWEEP_PAGE, SWEEP_PAGE), after: spec.after ?? null });
      const campaignIds = [...new Set(page.items.map((doc) => doc.campaign))];
      const alive = new Map((await store.getMany<StoredCampaignData>(C, campaignIds)).map((c) => [c.id, c.targetGens ?? {}]));
      const now = (spec.now ?? new Date()).getTime();
      const stale = (doc: TargetChunkData & { view?: string }) => {
        const gens = alive.get(doc.campaign);
        // Staged for a duplicate not created yet (ADR 50): its create may still come.
        if (!gens) return !doc.staged || now - Date.parse(doc.staged) > STAGED_GRACE_MS;
        // A chunk or view page of a generation the campaign does not point at (ADR 50): one a switch
        // left behind, or one a large change staged and never switched to, once it is old enough
        // that no change can still be writing it (a change in progress has its staged documents).
        if ((doc as { view?: string }).view === "header") return false;
        if ((doc.gen ?? null) === (gens[doc.kind] ?? null)) return false;
        return !doc.staged || now - Date.parse(doc.staged) > STAGED_GRACE_MS;
      };
      const orphans = page.items.filter(stale).map((doc) => doc.id);
      // A campaign's id is never reused, and a chunk is only ever written in the same transaction
      // as its campaign's document, or staged before a switch to its generation: a chunk whose
      // campaign is gone stays an orphan, and so does a generation the campaign no longer names.
      if (orphans.length) {
        await store.transaction(async (tx) => {
          for (const id of orphans) {
            tx.delete(T, id);
            tx.delete(P, id);
          }
        });
      }
      return { scanned: page.items.length, removed: orphans.length, next: page.next };
    },

    async change(campaignId, change, actor, options) {
      const now = new Date();
      const opened = async (tx: TransactionContext) => {
        const current = await tx.get<StoredCampaignData>(C, campaignId);
        if (!current) throw new NotFoundError(C, campaignId);
        if (options?.expectVersion !== undefined && options.expectVersion !== editVersion(current)) throw new ConflictError(C, campaignId);
        return current;
      };
      // No limit on a commit (SQLite): one transaction, whatever its size.
      if (budget === undefined) return store.transaction(async (tx) => applyChanges(tx, await opened(tx), change, actor, now, options ?? {}));
      if (change.kinds.some((k) => Object.keys(k.upsert ?? {}).length + (k.remove?.length ?? 0) >= STAGE_TARGETS)) {
        return staged(campaignId, opened, change, actor, now, options ?? {});
      }
      try {
        // One transaction, its writes held until their size is known: over the budget, staged.
        return await store.transaction(async (tx) => {
          const rec = recorder(tx);
          const result = await applyChanges(rec.tx, await opened(rec.tx), change, actor, now, options ?? {});
          if ((await estimatedWriteBytes(rec.writes, budget)) > budget) throw new StageNeeded();
          await replay(tx, rec.writes);
          return result;
        });
      } catch (error) {
        if (error instanceof StageNeeded) return staged(campaignId, opened, change, actor, now, options ?? {});
        throw error;
      }
    },
  };

  /**
   * A change too large for one commit (ADR 50): computed in a transaction that writes nothing
   * (its writes recorded), every chunk and view page of the kinds it changes written under a new
   * generation in transactions of their own (nothing reads them yet), then one small transaction
   * checks that nothing it read has changed since and switches the campaign to the generation,
   * with its counts, view header, publication and audit entry. Readers follow the campaign's
   * pointer (the published copy's, the view header's), so they see the old targets or the new,
   * never a mix. Then the old generation is deleted; whatever a failure leaves (a staged
   * generation never switched to, an old one not deleted) is named by no pointer, and the
   * orphan sweep removes it.
   */
  async function staged(
    campaignId: string,
    opened: (tx: TransactionContext) => Promise<StoredCampaignData & { id: string; version: number }>,
    change: TargetChange,
    actor: Actor,
    now: Date,
    options: ChangeOptions,
  ): Promise<{ campaign: Campaign; changed: number }> {
    for (let attempt = 0; attempt < STAGE_ATTEMPTS; attempt++) {
      const gen = newGeneration();
      let rec!: ReturnType<typeof recorder>;
      const result = await store.transaction(async (tx) => {
        rec = recorder(tx);
        return applyChanges(rec.tx, await opened(rec.tx), change, actor, now, { ...options, stage: { gen, at: now.toISOString() } });
      });
      if (!rec.writes.length) return result;
      // The new generation's documents (a chunk and its published copy share an id: written together).
      const marker = `_${gen}_`;
      const bulk: RecordedWrite[] = [];
      const flip: RecordedWrite[] = [];
      const old: RecordedWrite[] = [];
      for (const w of rec.writes) {
        const targetDoc = (w.collection === T || w.collection === P) && !w.id.endsWith("_view");
        if (targetDoc && w.op === "delete") old.push(w);
        else if (targetDoc && w.id.includes(marker)) bulk.push(w);
        else flip.push(w);
      }
      try {
        for (const batch of await batches(bulk, budget!)) await store.transaction(async (tx) => void (await replay(tx, batch)));
        await store.transaction(async (tx) => {
          // What the change read, as it was read: else it was computed from a state now gone.
          // (Chunks and view pages not: every change of them changes the campaign's version too.)
          const checked = [...rec.reads.values()].filter((read) => read.collection !== T || read.id.endsWith("_view"));
          const docs = await Promise.all(checked.map((read) => tx.get(read.collection, read.id)));
          if (docs.some((doc, i) => (doc?.version ?? null) !== checked[i]!.version)) throw new StageOutdated();
          await replay(tx, flip);
        });
      } catch (error) {
        await removeQuietly(bulk);
        if (error instanceof StageOutdated) continue;
        throw error;
      }
      await removeQuietly(old);
      return result;
    }
    throw new ConflictError(C, campaignId);
  }

  function removeQuietly(writes: readonly RecordedWrite[]) {
    return removeStaged(store, writes);
  }

  async function applyChanges(
    tx: TransactionContext,
    current: StoredCampaignData & { id: string; version: number },
    change: TargetChange,
    actor: Actor,
    now: Date,
    options: ChangeOptions,
  ): Promise<{ campaign: Campaign; changed: number }> {
    const campaignId = current.id;
    const clock = stepClock();
    const counts: TargetCounts = { ...NO_TARGET_COUNTS, ...current.counts };
    const bucketsOf: Partial<Record<TargetKind, number>> = { ...current.targetBuckets };
    const gensOf: TargetGens = { ...current.targetGens };
    const stage = options.stage ?? null;
    const writes: (() => void)[] = [];
    const auditChanges: { field: string; before: unknown; after: unknown }[] = [];
    let changedTotal = 0;

    // Each kind the change bears on: its chunks read (all of them for a whole-list change).
    for (const kindChange of change.kinds) {
      const { kind } = kindChange;
      const n = bucketsOf[kind] ?? 0;
      const proposed = kindChange.upsert ?? {};
      const remove = kindChange.remove ?? [];
      const whole = kindChange.replace === true || !!kindChange.rewrite;
      // Staged (ADR 50): every chunk read, and written whole under the new generation.
      const full = whole || !!stage;
      const oldGen = current.targetGens?.[kind] ?? null;
      const gen = stage?.gen ?? oldGen;
      const chunksOfKeys = () => {
        const of = new Set<number>();
        for (const key in proposed) of.add(bucketOf(key, n));
        for (const key of remove) of.add(bucketOf(key, n));
        return of;
      };
      let chunks = n ? await readChunks(tx, campaignId, kind, full ? Array.from({ length: n }, (_, b) => b) : chunksOfKeys(), oldGen) : new Map<number, Targets>();
      // The targets before, of the chunks read.
      const before: Targets = {};
      for (const targets of chunks.values()) Object.assign(before, targets);
      // What is set: as given, or merged with the targets as stored.
      let upsert = proposed;
      if (kindChange.merge) {
        const merge = kindChange.merge;
        // The merged targets are gathered in a new map only once one differs from the target
        // given (a first import of 100,000 keywords merges each with nothing: the map given is
        // the list, not built a second time).
        let merged: Targets | null = null;
        let i = 0;
        for (const key in proposed) {
          const given = proposed[key]!;
          const target = merge(key, given, own(before, key));
          if (merged) merged[key] = target;
          else if (target !== given) {
            merged = {};
            for (const k in proposed) {
              if (k === key) break;
              merged[k] = proposed[k]!;
            }
            merged[key] = target;
          }
          if ((++i & 1023) === 0 && clock.due()) await clock.pause();
        }
        // A rule rewrites `after` in place: never the caller's map.
        upsert = merged ?? (kindChange.rewrite ? { ...proposed } : proposed);
      }
      // The targets after, of the same chunks.
      let after: Targets;
      if (kindChange.replace) after = upsert;
      else if (kindChange.merge && !remove.length && chunks.size === 0) {
        // Nothing stored yet (a first list or import): the merged targets, built for this attempt, are the list.
        after = upsert;
      } else {
        after = { ...before };
        for (const key of remove) delete after[key];
        Object.assign(after, upsert);
      }
      if (kindChange.rewrite) {
        const rewritten = kindChange.rewrite(after);
        for (const key of rewritten.remove) delete after[key];
        Object.assign(after, rewritten.upsert);
      }
      // What changed, for the counts and the history: the targets after, then those only before.
      const changedKeys: string[] = [];
      const counted = { before: 0, beforeHubs: 0, after: 0, afterHubs: 0 };
      const compare = (k: string, a: CampaignTarget | undefined, b: CampaignTarget | undefined) => {
        if (a === b || (a && b && sameTarget(a, b))) return;
        changedKeys.push(k);
        if (a) {
          counted.before++;
          if (a.placement === "hub") counted.beforeHubs++;
        }
        if (b) {
          counted.after++;
          if (b.placement === "hub") counted.afterHubs++;
        }
      };
      let compared = 0;
      for (const k in after) {
        compare(k, own(before, k), after[k]);
        if ((++compared & 1023) === 0 && clock.due()) await clock.pause();
      }
      for (const k in before) {
        if (!Object.hasOwn(after, k)) compare(k, before[k], undefined);
        if ((++compared & 1023) === 0 && clock.due()) await clock.pause();
      }
      if (!changedKeys.length) continue;
      changedTotal += changedKeys.length;
      const oldCounts = targetCountsOf(kind, counted.before, counted.beforeHubs);
      const newCounts = targetCountsOf(kind, counted.after, counted.afterHubs);
      for (const f of countField(kind)) counts[f] = Math.max(0, (counts[f] ?? 0) - (oldCounts[f] ?? 0) + (newCounts[f] ?? 0));
      const total = countField(kind).reduce((sum, f) => sum + counts[f], 0);

      // The chunks: as they are, unless one grows past its share (then all of them, doubled).
      let buckets = n || bucketsFor(total);
      // Each target placed in its chunk, the chunks' sizes counted as they fill (one pass).
      const spread = async (all: Targets, into: number, buckets: Iterable<number>) => {
        const out = new PlacedChunks(buckets);
        let i = 0;
        for (const key in all) {
          out.place(bucketOf(key, into), key, all[key]!);
          if ((++i & 4095) === 0 && clock.due()) await clock.pause();
        }
        return out;
      };
      // Spread again (a new chunk count): every chunk is written.
      let respread = buckets !== n;
      // Without a new spread, the targets of the chunks read go back into them.
      let placed = n && n === buckets && !full ? await spread(after, n, chunks.keys()) : await spread(after, buckets, Array.from({ length: buckets }, (_, b) => b));
      const oversized = () => placed.oversized(BUCKET_MAX_TARGETS, MAX_BUCKET_BYTES);
      if (oversized() || (!whole && n && bucketsFor(total) > n)) {
        // Every chunk is read (reads still come before the writes) and the kind spread again.
        if (!full && n) {
          const rest = await readChunks(tx, campaignId, kind, Array.from({ length: n }, (_, b) => b).filter((b) => !chunks.has(b)), oldGen);
          chunks = new Map([...chunks, ...rest]);
          if (after === proposed) after = { ...after };
          for (const targets of rest.values()) for (const [k, t] of Object.entries(targets)) if (!Object.hasOwn(after, k)) after[k] = t;
        }
        buckets = Math.max(bucketsFor(total), n || 1);
        respread = true;
        do {
          placed = await spread(after, buckets, Array.from({ length: buckets }, (_, b) => b));
          if (!oversized()) break;
          buckets *= 2;
        } while (buckets < 1 << 16);
      }
      const next = placed.chunks;
      const oldBuckets = n;
      bucketsOf[kind] = total === 0 && buckets === 1 && whole ? 0 : buckets;
      const finalBuckets = bucketsOf[kind]!;
      // Without a new spread, only the chunks holding a changed target are written: the others
      // are as stored (a target's chunk follows from its key), not serialised again.
      if (stage && finalBuckets) gensOf[kind] = stage.gen;
      else if (!finalBuckets) delete gensOf[kind];
      const dirty = stage || respread || buckets !== n ? null : new Set(changedKeys.map((k) => bucketOf(k, buckets)));
      const genFields = { ...(gen ? { gen } : {}), ...(stage ? { staged: stage.at } : {}) };
      for (const [b, targets] of next) {
        if (dirty && !dirty.has(b)) continue;
        const id = chunkId(campaignId, kind, b, gen);
        writes.push(() => {
          if (finalBuckets === 0 || Object.keys(targets).length === 0) {
            // An empty chunk is no document (one that existed is deleted; staged: with the old generation below).
            if (b < oldBuckets && !stage) {
              tx.delete(T, id);
              tx.delete(P, id);
            }
            return;
          }
          tx.set<TargetChunkData>(T, id, { campaign: campaignId, kind, bucket: b, targets, ...genFields });
          tx.set<PublishedChunkData>(P, id, { campaign: campaignId, kind, bucket: b, targets: published(targets), ...(gen ? { gen } : {}) });
        });
      }
      writes.push(() => {
        // Chunks beyond a smaller spread are gone; staged, every chunk of the old generation.
        for (let b = stage ? 0 : Math.max(finalBuckets, 0); b < oldBuckets; b++) {
          if (!stage && next.has(b)) continue;
          tx.delete(T, chunkId(campaignId, kind, b, oldGen));
          tx.delete(P, chunkId(campaignId, kind, b, oldGen));
        }
      });
      // The sorted view (ADR 43): the changed targets moved in it, or the view built whole (none
      // yet, or most of the list changed) from every target of the kind.
      const header = await tx.get<TargetViewData>(T, viewId(campaignId, kind));
      let complete = full || chunks.size === n;
      const afterCount = Object.keys(after).length;
      if (total === 0) {
        if (header) writes.push(() => dropView(tx, campaignId, kind, header));
      } else if (!stage && header && header.pages.length && (header.gen ?? null) === gen && !(complete && changedKeys.length * 2 >= Math.max(afterCount, header.count))) {
        const viewChanges = changedKeys.map((key) => ({ key, before: own(before, key), after: own(after, key) }));
        for (const write of await prepareViewChange(tx, campaignId, kind, header, viewChanges)) writes.push(() => write(tx));
      } else {
        let all = after;
        if (!complete) {
          // The chunks not read hold targets the change left as they were: read for the view.
          const rest = await readChunks(tx, campaignId, kind, Array.from({ length: n }, (_, b) => b).filter((b) => !chunks.has(b)), oldGen);
          all = { ...after };
          for (const targets of rest.values()) for (const [k, t] of Object.entries(targets)) if (!Object.hasOwn(all, k)) all[k] = t;
          complete = true;
        }
        for (const write of await buildView(campaignId, kind, all, header, { gen, staged: stage?.at })) writes.push(() => write(tx));
      }
      auditChanges.push({ field: TARGET_AUDIT_FIELD[kind], before: describeTargets(changedKeys, before), after: describeTargets(changedKeys, after) });
    }

    const patch: Patch<StoredCampaignData> = {
      ...(options.patch ?? {}),
      counts,
      targetBuckets: bucketsOf,
      // Only on campaigns with a generation (ADR 50): the others are stored as before.
      ...(Object.keys(gensOf).length || current.targetGens ? { targetGens: gensOf } : {}),
      updated: now.toISOString(),
      by: actor.by,
    };
    const { id: _id, version, ...data } = current;
    const afterDoc = applyPatch(data, patch, now.toISOString()) as unknown as StoredCampaignData;
    for (const field of Object.keys(options.patch ?? {})) {
      const a = (data as unknown as Record<string, unknown>)[field];
      const b = (afterDoc as unknown as Record<string, unknown>)[field];
      if (JSON.stringify(a) !== JSON.stringify(b)) auditChanges.push({ field, before: a ?? null, after: b ?? null });
    }
    const next = toCampaign({ ...afterDoc, id: campaignId, version: version + 1 }) as Campaign;
    if (!auditChanges.length) return { campaign: toCampaign(current) as Campaign, changed: 0 };
    const publication = options.publish ? await preparePublication(tx, campaignId, options.publish(next)) : null;
    tx.update<StoredCampaignData>(C, campaignId, patch);
    // The writes in steps: each serialises its document (an import of 100,000 keywords writes
    // hundreds of them), and the event loop runs between (ADR 43).
    for (const write of writes) {
      write();
      if (clock.due()) await clock.pause();
    }
    publication?.();
    appendAuditInTransaction(
      tx,
      { ...auditBy(actor), action: options.action ?? "update", entity: "campaign", entityId: campaignId, teamId: afterDoc.team, changes: auditChanges },
      now,
    );
    return { campaign: next, changed: changedTotal };
  }
}
