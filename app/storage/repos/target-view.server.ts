/**
 * The sorted view of a campaign's targets (ADR 43): beside the chunks of ADR 27 (spread by hash,
 * which the ad server reads), each kind's targets are kept a second time in the lists' order
 * (compareTargets), cut into view pages of about VIEW_PAGE_TARGETS, with a header document that
 * lists the pages (their counts and first target) and counts the targets' bids by band. Both are
 * written in the change's own transaction, so the view is always what the chunks hold.
 *
 * - A page of the section reads the header and the one or two view pages holding it, whatever
 *   the number of targets; a search reads the view a few pages at a time, in steps.
 * - A change reads the header and the view pages its targets leave or join (found from the
 *   header's first targets), merges, and cuts a page past VIEW_PAGE_MAX in two or more; an empty
 *   page goes. When pages get too many for the targets (removals), the view is cut again.
 * - A kind without a header but with targets (saved before the view existed) gets its view built
 *   whole, in the change that needs it or on its first read.
 *
 * Documents live in the chunks' collection (campaign_target, ids `{campaign}_{kind}_view` and
 * `{campaign}_{kind}_view_{n}`), carrying `campaign`: the orphan sweep of ADR 33 covers them.
 */
import { bidCountKey, compareSortable, compareTargets, listedTarget, matchesQuery, targetSearchText, type ListedTarget, type TargetKind } from "~/domain/campaigns/targets";
import { isFoldedAscii } from "~/domain/search";
import type { CampaignTarget, Targets } from "~/domain/campaigns/targets";
import { COLLECTIONS, type DocumentStore, type TargetPage, type TransactionContext } from "~/storage/port";
import { forEachInSteps, sortInSteps, stepClock } from "~/utils/cooperative";

/** Targets a view page is cut to. */
export const VIEW_PAGE_TARGETS = 500;
/** A view page past this many targets is cut again (a view page stays well under 1 MiB). */
export const VIEW_PAGE_MAX = 2 * VIEW_PAGE_TARGETS;
/** View pages a search reads at once before letting the event loop through. */
const SCAN_BATCH = 4;

interface ViewPageRef {
  id: number;
  count: number;
  /** The page's first target (name and key): where a target goes is found from these. */
  first: string;
  firstKey: string;
}

export interface TargetViewData {
  campaign: string;
  kind: TargetKind;
  view: "header";
  count: number;
  pages: ViewPageRef[];
  /** Every target with its own bid, counted by bidCountKey. */
  bids: Record<string, number>;
  /** The pages' generation (ADR 50), part of their ids; absent: the first ids. */
  gen?: string;
}

export interface TargetViewPageData {
  campaign: string;
  kind: TargetKind;
  view: "page";
  page: number;
  /** The keys, in order. */
  order: string[];
  /** The targets without their dates (the lists do not show them): the view stays small. */
  targets: Record<string, ListedTarget>;
  /** Each target's search text besides its key (targetSearchText), when it has one. */
  search: Record<string, string>;
  /** The page's generation (ADR 50); `staged`: when a large change wrote it, before its switch. */
  gen?: string;
  staged?: string;
}

export function viewId(campaignId: string, kind: TargetKind): string {
  return `${campaignId}_${kind}_view`;
}

export function viewPageId(campaignId: string, kind: TargetKind, page: number, gen?: string | null): string {
  return gen ? `${campaignId}_${kind}_view_${gen}_${page}` : `${campaignId}_${kind}_view_${page}`;
}

interface Entry {
  key: string;
  name: string;
  /** Its name's kind, for compareSortable. */
  plain: boolean;
  /** As stored (a view page's copy made when the page is written: not every one held at once). */
  target: ListedTarget | CampaignTarget;
}

const T = COLLECTIONS.campaignTarget;

function entryOf(key: string, target: ListedTarget | CampaignTarget): Entry {
  return { key, name: target.name, plain: isFoldedAscii(target.name), target };
}

/** A target as a view page keeps it: without its dates. */
function listed(target: ListedTarget | CampaignTarget): ListedTarget {
  return "created" in target ? listedTarget(target) : target;
}

/** The index of the page an entry belongs in: the last whose first target is not after it (else the first). */
function pageIndexOf(pages: readonly ViewPageRef[], entry: { key: string; name: string }): number {
  let lo = 0;
  let hi = pages.length - 1;
  let found = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const p = pages[mid]!;
    if (compareTargets({ key: p.firstKey, name: p.first }, entry) <= 0) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Where a page's generation goes: its gen, and when it was staged (ADR 50). */
interface PageGen {
  gen?: string | null;
  staged?: string | null;
}

function pageData(campaignId: string, kind: TargetKind, page: number, entries: readonly Entry[], g: PageGen = {}): TargetViewPageData {
  const order: string[] = [];
  const targets: Record<string, ListedTarget> = {};
  const search: Record<string, string> = {};
  for (const e of entries) {
    order.push(e.key);
    targets[e.key] = listed(e.target);
    const text = targetSearchText(e.key, e.target);
    if (text !== null) search[e.key] = text;
  }
  return { campaign: campaignId, kind, view: "page", page, order, targets, search, ...(g.gen ? { gen: g.gen } : {}), ...(g.staged ? { staged: g.staged } : {}) };
}

function refOf(id: number, entries: readonly Entry[]): ViewPageRef {
  return { id, count: entries.length, first: entries[0]!.name, firstKey: entries[0]!.key };
}

function cut(entries: readonly Entry[], size = VIEW_PAGE_TARGETS): Entry[][] {
  const out: Entry[][] = [];
  for (let i = 0; i < entries.length; i += size) out.push(entries.slice(i, i + size));
  return out;
}

function countBid(bids: Record<string, number>, target: ListedTarget | undefined, by: number): void {
  if (!target || target.bid === null) return;
  const band = bidCountKey(target.bid);
  const next = (bids[band] ?? 0) + by;
  if (next > 0) bids[band] = next;
  else delete bids[band];
}

/** Two sorted lists merged into one. */
function mergeSorted(a: readonly Entry[], b: readonly Entry[]): Entry[] {
  const out: Entry[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(compareSortable(b[j]!, a[i]!) < 0 ? b[j++]! : a[i++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

/** One write of a transaction, run when the writes come (a large change runs them in steps). */
export type ViewWrite = (tx: TransactionContext) => void;

/**
 * The writes of a whole view of `all` (nothing when empty), and the deletes of the old pages it
 * does not reuse; `g`: the generation of its pages (every old page of another generation goes).
 */
export async function buildView(campaignId: string, kind: TargetKind, all: Targets, old: TargetViewData | null, g: PageGen = {}): Promise<ViewWrite[]> {
  const entries: Entry[] = [];
  const bids: Record<string, number> = {};
  await forEachInSteps(Object.keys(all), (key) => {
    const t = all[key]!;
    entries.push(entryOf(key, t));
    countBid(bids, t, 1);
  });
  const sorted = await sortInSteps(entries, compareSortable);
  const pieces = cut(sorted);
  const gen = g.gen ?? null;
  const header: TargetViewData = { campaign: campaignId, kind, view: "header", count: sorted.length, pages: pieces.map((p, i) => refOf(i, p)), bids, ...(gen ? { gen } : {}) };
  const out: ViewWrite[] = [];
  const sameGen = (old?.gen ?? null) === gen;
  for (const ref of old?.pages ?? []) if (!sameGen || ref.id >= pieces.length) out.push((tx) => tx.delete(T, viewPageId(campaignId, kind, ref.id, old?.gen)));
  if (!sorted.length) {
    if (old) out.push((tx) => tx.delete(T, viewId(campaignId, kind)));
    return out;
  }
  out.push((tx) => tx.set<TargetViewData>(T, viewId(campaignId, kind), header));
  // Each page made when it is written (the writes run in steps), and let go once serialised.
  pieces.forEach((piece, i) => out.push((tx) => tx.set<TargetViewPageData>(T, viewPageId(campaignId, kind, i, gen), pageData(campaignId, kind, i, piece, g))));
  return out;
}

/** Documents a change reads at once before letting the event loop through (each up to a few hundred KB). */
const READ_BATCH = 8;

/** Documents by id, read a few at a time in the transaction, the event loop let through between. */
export async function readInSteps<D>(tx: TransactionContext, ids: readonly string[]): Promise<(D | null)[]> {
  const out: (D | null)[] = [];
  const clock = stepClock();
  for (let i = 0; i < ids.length; i += READ_BATCH) {
    out.push(...(await Promise.all(ids.slice(i, i + READ_BATCH).map((id) => tx.get<D>(T, id)))));
    if (clock.due()) await clock.pause();
  }
  return out;
}

/** The deletes of a kind's whole view (the header read before). */
export function dropView(tx: TransactionContext, campaignId: string, kind: TargetKind, header: TargetViewData): void {
  for (const ref of header.pages) tx.delete(T, viewPageId(campaignId, kind, ref.id, header.gen));
  tx.delete(T, viewId(campaignId, kind));
}

/**
 * The view brought up to date with a change (each changed target as it was and as it is; absent:
 * none), inside the change's transaction: reads the view pages concerned now (reads come first)
 * and returns the writes. When the pages get too many for the targets, every page is read and the
 * view cut again, in order (nothing re-sorted).
 */
export async function prepareViewChange(
  tx: TransactionContext,
  campaignId: string,
  kind: TargetKind,
  header: TargetViewData,
  changes: readonly { key: string; before: CampaignTarget | undefined; after: CampaignTarget | undefined }[],
): Promise<ViewWrite[]> {
  const pages = header.pages;
  const g: PageGen = { gen: header.gen };
  const pageId = (id: number) => viewPageId(campaignId, kind, id, header.gen);
  const touched = new Map<number, { remove: Set<string>; insert: Entry[] }>();
  const at = (index: number) => {
    let t = touched.get(index);
    if (!t) touched.set(index, (t = { remove: new Set(), insert: [] }));
    return t;
  };
  const bids = { ...header.bids };
  let count = header.count;
  const clock = stepClock();
  for (const { key, before, after } of changes) {
    if (before) {
      at(pageIndexOf(pages, { key, name: before.name })).remove.add(key);
      countBid(bids, before, -1);
      count--;
    }
    if (after) {
      at(pageIndexOf(pages, { key, name: after.name })).insert.push(entryOf(key, after));
      countBid(bids, after, 1);
      count++;
    }
    if (clock.due()) await clock.pause();
  }
  const indexes = [...touched.keys()].sort((a, b) => a - b);
  const docs = await readInSteps<TargetViewPageData>(tx, indexes.map((i) => pageId(pages[i]!.id)));
  const merged = new Map<number, Entry[]>();
  for (let n = 0; n < indexes.length; n++) {
    const i = indexes[n]!;
    const doc = docs[n];
    const { remove, insert } = touched.get(i)!;
    const kept: Entry[] = [];
    for (const key of doc?.order ?? []) if (!remove.has(key)) kept.push(entryOf(key, doc!.targets[key]!));
    merged.set(i, mergeSorted(kept, await sortInSteps(insert, compareSortable)));
  }

  // The pages after the change, in order: those not touched as they are.
  const refs: ViewPageRef[] = [];
  const writes: TargetViewPageData[] = [];
  const deletes: number[] = [];
  let nextId = pages.reduce((max, p) => Math.max(max, p.id + 1), 0);
  for (let i = 0; i < pages.length; i++) {
    const entries = merged.get(i);
    if (!entries) {
      refs.push(pages[i]!);
      continue;
    }
    if (!entries.length) {
      deletes.push(pages[i]!.id);
      continue;
    }
    const pieces = entries.length > VIEW_PAGE_MAX ? cut(entries) : [entries];
    pieces.forEach((piece, p) => {
      const id = p === 0 ? pages[i]!.id : nextId++;
      refs.push(refOf(id, piece));
      writes.push(pageData(campaignId, kind, id, piece, g));
    });
  }

  const header2: TargetViewData = { campaign: campaignId, kind, view: "header", count, pages: refs, bids, ...(header.gen ? { gen: header.gen } : {}) };
  if (count > 0 && refs.length > 2 * Math.ceil(count / VIEW_PAGE_TARGETS) + 4) {
    // Too many small pages (after removals): every page read, the view cut again in order.
    const untouched = refs.filter((r) => !writes.some((w) => w.page === r.id));
    const rest = await readInSteps<TargetViewPageData>(tx, untouched.map((r) => pageId(r.id)));
    const byId = new Map<number, TargetViewPageData>();
    untouched.forEach((r, n) => rest[n] && byId.set(r.id, rest[n]!));
    for (const w of writes) byId.set(w.page, w);
    const all: Entry[] = [];
    for (const r of refs) {
      const doc = byId.get(r.id)!;
      for (const key of doc.order) all.push(entryOf(key, doc.targets[key]!));
    }
    const pieces = cut(all);
    const oldIds = new Set([...pages.map((p) => p.id), ...refs.map((r) => r.id)]);
    const out: ViewWrite[] = [];
    for (const id of oldIds) if (id >= pieces.length) out.push((w) => w.delete(T, pageId(id)));
    out.push((w) => w.set<TargetViewData>(T, viewId(campaignId, kind), { ...header2, pages: pieces.map((p, i) => refOf(i, p)) }));
    pieces.forEach((piece, i) => out.push((w) => w.set<TargetViewPageData>(T, pageId(i), pageData(campaignId, kind, i, piece, g))));
    return out;
  }
  const out: ViewWrite[] = [];
  for (const id of deletes) out.push((w) => w.delete(T, pageId(id)));
  if (count === 0) {
    for (const r of refs) out.push((w) => w.delete(T, pageId(r.id)));
    out.push((w) => w.delete(T, viewId(campaignId, kind)));
    return out;
  }
  out.push((w) => w.set<TargetViewData>(T, viewId(campaignId, kind), header2));
  for (const page of writes) out.push((w) => w.set<TargetViewPageData>(T, pageId(page.page), page));
  return out;
}

/** A page of the view (its header given): the pages holding it read, or, with a query, the view scanned in steps. */
export async function readViewPage(store: DocumentStore, campaignId: string, kind: TargetKind, header: TargetViewData, spec: { query?: string; offset: number; limit: number }): Promise<TargetPage> {
  const bidCounts = { ...header.bids };
  const from = Math.max(0, spec.offset);
  const to = from + Math.max(0, spec.limit);
  const items: TargetPage["items"] = [];
  if (!spec.query) {
    const wanted: { ref: ViewPageRef; start: number }[] = [];
    let start = 0;
    for (const ref of header.pages) {
      if (start + ref.count > from && start < to) wanted.push({ ref, start });
      start += ref.count;
    }
    const docs = await store.getMany<TargetViewPageData>(T, wanted.map((w) => viewPageId(campaignId, kind, w.ref.id, header.gen)));
    const byId = new Map(docs.map((d) => [d.page, d]));
    for (const { ref, start: s } of wanted) {
      const doc = byId.get(ref.id);
      if (!doc) continue;
      doc.order.forEach((key, i) => {
        const at = s + i;
        if (at >= from && at < to) items.push({ key, target: doc.targets[key]! });
      });
    }
    return { items, total: header.count, bidCounts };
  }
  const query = spec.query;
  let total = 0;
  const clock = stepClock();
  for (let i = 0; i < header.pages.length; i += SCAN_BATCH) {
    const refs = header.pages.slice(i, i + SCAN_BATCH);
    const docs = await store.getMany<TargetViewPageData>(T, refs.map((r) => viewPageId(campaignId, kind, r.id, header.gen)));
    const byId = new Map(docs.map((d) => [d.page, d]));
    for (const ref of refs) {
      const doc = byId.get(ref.id);
      if (!doc) continue;
      for (const key of doc.order) {
        if (!matchesQuery(query, key, doc.search?.[key] ?? null)) continue;
        if (total >= from && total < to) items.push({ key, target: doc.targets[key]! });
        total++;
      }
    }
    if (clock.due()) await clock.pause();
  }
  return { items, total, bidCounts };
}
