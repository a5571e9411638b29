/**
 * The Firestore DocumentStore (firebase-admin). Same semantics as the SQLite adapter: every
 * document carries a numeric `version`, updates are read-modify-write inside a Firestore
 * transaction, queries use one order plus a document-id tie-break with cursor pagination.
 *
 * Credentials come from the environment: FIRESTORE_EMULATOR_HOST (tests, local) or Google
 * application default credentials (production).
 */
import { randomUUID } from "node:crypto";
import type { App } from "firebase-admin/app";
import type {
  DocumentData,
  DocumentReference,
  DocumentSnapshot,
  Firestore,
  Query,
  Transaction,
} from "firebase-admin/firestore";
import {
  AlreadyExistsError,
  ConflictError,
  NotFoundError,
  type DocumentStore,
  type Page,
  type Patch,
  type QuerySpec,
  type Stored,
  type TransactionContext,
  type Where,
  type WriteOptions,
} from "~/storage/port";
import { applyPatch, decodeCursor, effectiveOrder, encodeCursor, pageSize, toStoredData } from "~/storage/document-helpers";

/**
 * firebase-admin is loaded on demand: it costs about a second and 30 MB at start-up, which the
 * embedded (SQLite) default should not pay.
 */
type Sdk = typeof import("firebase-admin/app") & typeof import("firebase-admin/firestore");
let sdk: Sdk | undefined;

export async function loadFirestoreSdk(): Promise<void> {
  if (sdk) return;
  const [app, firestore] = await Promise.all([import("firebase-admin/app"), import("firebase-admin/firestore")]);
  sdk = { ...app, ...firestore };
}

function fb(): Sdk {
  if (!sdk) throw new Error("Call loadFirestoreSdk() (or openFirestoreDocumentStore) before using Firestore");
  return sdk;
}

export interface FirestoreDocumentStoreOptions {
  projectId: string;
  /** A named database; "(default)" when omitted. */
  databaseId?: string;
  /** Name of the firebase-admin app; unique per instance when omitted, so instances coexist. */
  appName?: string;
}

/** Contention costs retries, not failures (50 concurrent writers on one document pass). */
const MAX_TRANSACTION_ATTEMPTS = 25;
const DEFAULT_DATABASE = "(default)";
/** gRPC status ALREADY_EXISTS. */
const GRPC_ALREADY_EXISTS = 6;
/**
 * How long a transaction waits for another transaction of this process holding a document it
 * reads before going ahead anyway (the lock is advisory: Firestore's own transaction keeps the
 * data right; the lock only spares it a pile-up of conflicting transactions).
 */
const LOCAL_LOCK_WAIT_MS = 5_000;
/** Marks a cursor value that was a Firestore Timestamp, so the next page compares like with like. */
const TIMESTAMP_CURSOR = "$timestamp";

type Write =
  | { kind: "create" | "set"; collection: string; id: string; data: object }
  | { kind: "update"; collection: string; id: string; patch: Patch<object>; options?: WriteOptions }
  | { kind: "delete"; collection: string; id: string; options?: WriteOptions };

/** A document as held during a transaction: raw Firestore data (may hold sentinels) and version. */
interface DocState {
  data: Record<string, unknown>;
  version: number;
}

const key = (collection: string, id: string) => `${collection}\u0000${id}`;

/**
 * In-process FIFO locks per document. Transactions of one store on one document queue here
 * instead of all reading it at once: the emulator, which resolves such conflicts only by lock
 * timeouts, then serves 50 concurrent increments in about a second instead of half a minute,
 * and production Firestore aborts fewer transactions. Other processes still meet in Firestore.
 */
class LocalLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async acquire(name: string): Promise<() => void> {
    const previous = this.tails.get(name) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(name, tail);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([previous, new Promise<void>((resolve) => (timer = setTimeout(resolve, LOCAL_LOCK_WAIT_MS)))]);
    clearTimeout(timer);
    return () => {
      release();
      if (this.tails.get(name) === tail) this.tails.delete(name);
    };
  }
}

/** The documents one transaction run (all its attempts) holds local locks on. */
class LocalLockSet {
  private readonly held = new Map<string, () => void>();
  constructor(private readonly locks: LocalLocks) {}

  /** Sorted, so that runs locking several documents at once do not wait on each other in a cycle. */
  async lock(keys: Iterable<string>): Promise<void> {
    for (const k of [...new Set(keys)].sort()) {
      if (!this.held.has(k)) this.held.set(k, await this.locks.acquire(k));
    }
  }

  releaseAll(): void {
    for (const release of this.held.values()) release();
    this.held.clear();
  }
}

/** Timestamps become ISO strings, recursively; everything else is kept. */
function fromFirestore(value: unknown): unknown {
  if (value instanceof fb().Timestamp) return value.toDate().toISOString();
  if (Array.isArray(value)) return value.map(fromFirestore);
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = fromFirestore(v);
    return out;
  }
  return value;
}

function splitSnapshot(snapshot: DocumentSnapshot): DocState | null {
  if (!snapshot.exists) return null;
  const { version, ...data } = snapshot.data() as DocumentData;
  return { data, version: typeof version === "number" ? version : 0 };
}

function toDoc<T>(id: string, state: DocState): Stored<T> {
  return { ...(fromFirestore(state.data) as T), id, version: state.version };
}

function isAlreadyExists(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === GRPC_ALREADY_EXISTS;
}

function hasSentinel(data: Record<string, unknown>): boolean {
  return Object.values(data).some((v) => v instanceof fb().FieldValue);
}

export class FirestoreDocumentStore implements DocumentStore {
  readonly kind = "firestore" as const;
  /**
   * Firestore refuses a request over 10 MiB (the emulator over 4 MiB, its gRPC message limit); a
   * commit's protobuf is about as large as its documents' JSON (ADR 50): 2 MiB leaves room.
   */
  readonly commitBudgetBytes = 2 * 1024 * 1024;
  readonly projectId: string;
  readonly databaseId: string;
  private readonly app: App;
  private readonly db: Firestore;
  private readonly locks = new LocalLocks();

  constructor(options: FirestoreDocumentStoreOptions) {
    this.projectId = options.projectId;
    this.databaseId = options.databaseId ?? DEFAULT_DATABASE;
    const appName = options.appName ?? `ads-console-firestore-${randomUUID()}`;
    this.app = fb().getApps().find((a) => a.name === appName) ?? fb().initializeApp({ projectId: options.projectId }, appName);
    this.db = fb().getFirestore(this.app, this.databaseId);
    try {
      // Nested undefined values are dropped, as JSON does on SQLite. Only possible before first use.
      this.db.settings({ ignoreUndefinedProperties: true });
    } catch {
      // An existing app whose Firestore was already configured or used.
    }
  }

  private ref(collection: string, id: string): DocumentReference {
    return this.db.collection(collection).doc(id);
  }

  async get<T>(collection: string, id: string): Promise<Stored<T> | null> {
    const state = splitSnapshot(await this.ref(collection, id).get());
    return state ? toDoc<T>(id, state) : null;
  }

  async getMany<T>(collection: string, ids: readonly string[]): Promise<Stored<T>[]> {
    if (ids.length === 0) return [];
    const snapshots = await this.db.getAll(...ids.map((id) => this.ref(collection, id)));
    const out: Stored<T>[] = [];
    for (const snapshot of snapshots) {
      const state = splitSnapshot(snapshot);
      if (state) out.push(toDoc<T>(snapshot.id, state));
    }
    return out;
  }

  /** Null when a filter can match nothing (Firestore refuses an empty `in` list). */
  private filtered(collection: string, where: readonly Where[] = []): Query | null {
    let query: Query = this.db.collection(collection);
    for (const [field, op, value] of where) {
      if (op === "in" && Array.isArray(value) && value.length === 0) return null;
      query = query.where(field, op, value);
    }
    return query;
  }

  async query<T>(collection: string, spec: QuerySpec): Promise<Page<Stored<T>>> {
    const limit = pageSize(spec.limit);
    const orderBy = effectiveOrder(spec);
    let query = this.filtered(collection, spec.where);
    if (!query) return { items: [], next: null };
    const direction = orderBy?.direction === "desc" ? "desc" : "asc";
    const cursor = spec.after ? decodeCursor(spec.after) : null;
    if (orderBy) {
      // Ordering on a field leaves out documents lacking it, as the SQLite adapter does.
      query = query.orderBy(orderBy.field, direction).orderBy(fb().FieldPath.documentId(), direction);
      if (cursor) query = query.startAfter(this.cursorValue(cursor.v), cursor.id);
    } else {
      query = query.orderBy(fb().FieldPath.documentId(), direction);
      if (cursor) query = query.startAfter(cursor.id);
    }
    const snapshot = await query.limit(limit + 1).get();
    const docs = snapshot.docs.slice(0, limit);
    const items = docs.map((d) => toDoc<T>(d.id, splitSnapshot(d)!));
    const last = docs[docs.length - 1];
    const next =
      snapshot.docs.length > limit && last
        ? encodeCursor({ v: orderBy ? this.cursorEncode(last.get(orderBy.field)) : null, id: last.id })
        : null;
    return { items, next };
  }

  async ids(collection: string, where: readonly Where[] = []): Promise<string[]> {
    const query = this.filtered(collection, where);
    if (!query) return [];
    // An empty field mask: the answer holds each document's name only, not its fields.
    const snapshot = await query.select().orderBy(fb().FieldPath.documentId()).get();
    return snapshot.docs.map((d) => d.id);
  }

  private cursorEncode(value: unknown): unknown {
    return value instanceof fb().Timestamp ? { [TIMESTAMP_CURSOR]: value.toDate().toISOString() } : value;
  }

  private cursorValue(value: unknown): unknown {
    if (value !== null && typeof value === "object" && TIMESTAMP_CURSOR in value) {
      return fb().Timestamp.fromDate(new Date(String((value as Record<string, unknown>)[TIMESTAMP_CURSOR])));
    }
    return value;
  }

  async count(collection: string, where: readonly Where[] = [], upTo?: number): Promise<number> {
    const query = this.filtered(collection, where);
    // Firestore reads a limit of 0 as no limit.
    if (!query || (upTo !== undefined && upTo < 1)) return 0;
    const snapshot = await (upTo === undefined ? query : query.limit(Math.max(0, Math.floor(upTo)))).count().get();
    return snapshot.data().count;
  }

  /**
   * Applies buffered writes inside a Firestore transaction: reads what is still unread (every
   * read before any write, as Firestore demands), applies the version rules in memory in order,
   * then writes each touched document once. Returns the state after each write.
   */
  private async commitWrites(
    t: Transaction,
    locks: LocalLockSet,
    writes: readonly Write[],
    seen: Map<string, DocState | null>,
  ): Promise<(DocState | null)[]> {
    const missing = new Map<string, DocumentReference>();
    for (const w of writes) {
      const k = key(w.collection, w.id);
      if (!seen.has(k) && !missing.has(k)) missing.set(k, this.ref(w.collection, w.id));
    }
    if (missing.size) {
      await locks.lock(missing.keys());
      const snapshots = await t.getAll(...missing.values());
      [...missing.keys()].forEach((k, i) => seen.set(k, splitSnapshot(snapshots[i])));
    }
    const initial = new Map(seen);
    const current = new Map(seen);
    const touched = new Map<string, { collection: string; id: string }>();
    /** Documents a create() write brought into being: the commit itself refuses them if they exist. */
    const created = new Set<string>();
    const results: (DocState | null)[] = [];
    const serverTime = fb().FieldValue.serverTimestamp();
    for (const w of writes) {
      const k = key(w.collection, w.id);
      const before = current.get(k) ?? null;
      let after: DocState | null;
      switch (w.kind) {
        case "create":
          if (before) throw new AlreadyExistsError(w.collection, w.id);
          after = { data: toStoredData(w.data), version: 1 };
          if (!initial.get(k)) created.add(k);
          break;
        case "set":
          after = { data: toStoredData(w.data), version: (before?.version ?? 0) + 1 };
          break;
        case "update": {
          if (!before) throw new NotFoundError(w.collection, w.id);
          const expect = w.options?.expectVersion;
          if (expect !== undefined && expect !== before.version) throw new ConflictError(w.collection, w.id);
          after = { data: applyPatch(before.data, w.patch, serverTime), version: before.version + 1 };
          break;
        }
        case "delete": {
          const expect = w.options?.expectVersion;
          if (before && expect !== undefined && expect !== before.version) throw new ConflictError(w.collection, w.id);
          after = null;
          break;
        }
      }
      current.set(k, after);
      touched.set(k, { collection: w.collection, id: w.id });
      results.push(after);
    }
    for (const [k, { collection, id }] of touched) {
      const ref = this.ref(collection, id);
      const was = initial.get(k) ?? null;
      const now = current.get(k) ?? null;
      if (now) {
        const data = { ...now.data, version: now.version };
        if (!was && created.has(k)) t.create(ref, data);
        else t.set(ref, data);
      } else if (was) {
        t.delete(ref);
      }
    }
    return results;
  }

  /**
   * A Firestore transaction, retried on contention up to MAX_TRANSACTION_ATTEMPTS times; local
   * locks taken by any attempt are kept until the last one ends (a retry keeps its place).
   */
  private async run<R>(fn: (t: Transaction, locks: LocalLockSet) => Promise<R>): Promise<R> {
    const locks = new LocalLockSet(this.locks);
    try {
      return await this.db.runTransaction((t) => fn(t, locks), { maxAttempts: MAX_TRANSACTION_ATTEMPTS });
    } finally {
      locks.releaseAll();
    }
  }

  /** One write in its own transaction; returns the document as stored. */
  private async writeOne<T>(write: Write): Promise<Stored<T> | null> {
    let state: DocState | null;
    try {
      state = await this.run(async (t, locks) => (await this.commitWrites(t, locks, [write], new Map()))[0]);
    } catch (error) {
      if (isAlreadyExists(error)) throw new AlreadyExistsError(write.collection, write.id);
      throw error;
    }
    if (!state) return null;
    if (hasSentinel(state.data)) {
      // A serverTime op: the server chose the instant, read it back.
      const stored = await this.get<T>(write.collection, write.id);
      if (stored && stored.version === state.version) return stored;
      // Changed again meanwhile: the sentinel instant is close enough to now.
      const data = Object.fromEntries(
        Object.entries(state.data).map(([k, v]) => [k, v instanceof fb().FieldValue ? new Date().toISOString() : v]),
      );
      return toDoc<T>(write.id, { data, version: state.version });
    }
    return toDoc<T>(write.id, state);
  }

  async create<T extends object>(collection: string, id: string, data: T): Promise<Stored<T>> {
    const stored = { ...toStoredData(data), version: 1 };
    try {
      await this.ref(collection, id).create(stored);
    } catch (error) {
      if (isAlreadyExists(error)) throw new AlreadyExistsError(collection, id);
      throw error;
    }
    return toDoc<T>(id, { data: toStoredData(data), version: 1 });
  }

  async set<T extends object>(collection: string, id: string, data: T): Promise<Stored<T>> {
    return (await this.writeOne<T>({ kind: "set", collection, id, data }))!;
  }

  async update<T extends object>(
    collection: string,
    id: string,
    patch: Patch<T>,
    options?: WriteOptions,
  ): Promise<Stored<T>> {
    const stored = await this.writeOne<T>({ kind: "update", collection, id, patch: patch as Patch<object>, options });
    if (!stored) throw new NotFoundError(collection, id);
    return stored;
  }

  async delete(collection: string, id: string, options?: WriteOptions): Promise<void> {
    if (options?.expectVersion === undefined) {
      await this.ref(collection, id).delete();
      return;
    }
    await this.writeOne({ kind: "delete", collection, id, options });
  }

  /**
   * Runs fn in a Firestore transaction (retried by Firestore on contention). Reads go through the
   * transaction; writes are buffered and applied once fn resolves. Our own errors (conflict,
   * not found, already exists) and fn's errors are not retried.
   */
  async transaction<R>(fn: (tx: TransactionContext) => Promise<R>): Promise<R> {
    let creates: Write[] = [];
    try {
      return await this.run(async (t, locks) => {
        const seen = new Map<string, DocState | null>();
        const writes: Write[] = [];
        creates = [];
        const tx: TransactionContext = {
          get: async <T>(collection: string, id: string) => {
            if (writes.length) throw new Error("Transactions must read before they write");
            const k = key(collection, id);
            await locks.lock([k]);
            const state = splitSnapshot(await t.get(this.ref(collection, id)));
            seen.set(k, state);
            return state ? toDoc<T>(id, state) : null;
          },
          create: (collection, id, data) => {
            const w: Write = { kind: "create", collection, id, data };
            writes.push(w);
            creates.push(w);
          },
          set: (collection, id, data) => void writes.push({ kind: "set", collection, id, data }),
          update: (collection, id, patch, options) =>
            void writes.push({ kind: "update", collection, id, patch: patch as Patch<object>, options }),
          delete: (collection, id) => void writes.push({ kind: "delete", collection, id }),
        };
        const result = await fn(tx);
        await this.commitWrites(t, locks, writes, seen);
        return result;
      });
    } catch (error) {
      if (isAlreadyExists(error)) {
        const first = creates[0];
        throw new AlreadyExistsError(first?.collection ?? "transaction", first?.id ?? "commit");
      }
      throw error;
    }
  }

  /** Empties the emulator's database (tests only; refused against a real project). */
  async clear(): Promise<void> {
    const host = process.env.FIRESTORE_EMULATOR_HOST;
    if (!host) throw new Error("FirestoreDocumentStore.clear() only runs against the emulator (FIRESTORE_EMULATOR_HOST)");
    const url = `http://${host}/emulator/v1/projects/${encodeURIComponent(this.projectId)}/databases/${encodeURIComponent(this.databaseId)}/documents`;
    const response = await fetch(url, { method: "DELETE" });
    if (!response.ok) throw new Error(`Emulator reset failed: ${response.status} ${await response.text()}`);
  }

  async close(): Promise<void> {
    await fb().deleteApp(this.app);
  }
}

/** Loads firebase-admin, then opens a store. */
export async function openFirestoreDocumentStore(options: FirestoreDocumentStoreOptions): Promise<FirestoreDocumentStore> {
  await loadFirestoreSdk();
  return new FirestoreDocumentStore(options);
}
