/** The embedded DocumentStore: one SQLite file (better-sqlite3, WAL), documents as JSON. */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import {
  AlreadyExistsError,
  ConflictError,
  NotFoundError,
  type DocumentStore,
  type Patch,
  type QuerySpec,
  type Stored,
  type TransactionContext,
  type Where,
  type WriteOptions,
} from "~/storage/port";
import { applyPatch, decodeCursor, effectiveOrder, encodeCursor, pageSize, readPath, toStoredData } from "~/storage/document-helpers";
import { MIGRATIONS } from "~/storage/sqlite/migrations";
import { commitOnWorker, JsonSpill, type SpillRef, type WorkerWrite } from "~/storage/sqlite/commit-worker.server";

interface Row {
  id: string;
  version: number;
  data: string;
}

type Write =
  | { kind: "create" | "set"; collection: string; id: string; data: object; /** Serialised when the transaction wrote it (as Firestore does), not in the commit. */ json?: string }
  | { kind: "update"; collection: string; id: string; patch: Patch<object>; options?: WriteOptions }
  | { kind: "delete"; collection: string; id: string };

/** A document of a large transaction whose JSON went to the transaction's spill (data and string let go): committed on the worker. */
type SpilledWrite = { kind: "create" | "set"; collection: string; id: string; at: SpillRef };

function isSpilled(write: Write | SpilledWrite): write is SpilledWrite {
  return "at" in write;
}

class RetryTransaction extends Error {}

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

function jsonPath(field: string): string {
  if (!FIELD.test(field)) throw new RangeError(`Invalid field name: ${field}`);
  return `json_extract(data, '$.${field}')`;
}

function bindValue(value: unknown): unknown {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value === undefined) return null;
  return value;
}

export function migrate(db: Database.Database): number[] {
  db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
  );
  const applied = new Set(
    (db.prepare("SELECT version FROM schema_migrations").all() as { version: number }[]).map((r) => r.version),
  );
  const done: number[] = [];
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
    }).immediate();
    done.push(migration.version);
  }
  return done;
}

/**
 * Array fields whose values the store keeps in document_tokens, by collection (migration 7 filled
 * it for these): an array-contains on them reads that table's index, not every document's JSON.
 * Products are left out: their search has its own index (ADR 20), and a catalog import would
 * write tens of tokens per product here.
 */
const INDEXED_ARRAYS: Readonly<Record<string, readonly string[]>> = {
  campaign: ["searchTokens"],
  team: ["searchTokens"],
  user: ["searchTokens"],
};

function isIndexedArray(collection: string, field: string): boolean {
  return Object.hasOwn(INDEXED_ARRAYS, collection) && INDEXED_ARRAYS[collection]!.includes(field);
}

/** Ids per read of getMany (SQLite binds at most 32,766 values a statement; fewer keep the statement cache small). */
const GET_MANY_CHUNK = 200;

export class SqliteDocumentStore implements DocumentStore {
  readonly kind = "sqlite" as const;
  private readonly db: Database.Database;

  /**
   * A transaction writing this many bytes of JSON or more commits on a worker thread (ADR 43), so
   * that the server's thread is not held while SQLite writes them. Not for an in-memory database.
   */
  private readonly workerCommitBytes: number;

  constructor(
    private readonly filename: string,
    options: { workerCommitBytes?: number } = {},
  ) {
    this.workerCommitBytes = options.workerCommitBytes ?? 4 * 1024 * 1024;
    if (filename !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(filename)), { recursive: true });
    this.db = new Database(filename);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("busy_timeout = 5000");
    this.db.pragma("synchronous = NORMAL");
    this.db.pragma("foreign_keys = ON");
    migrate(this.db);
  }

  /** Prepared statements by their SQL: compiling one costs more than running it. */
  private readonly statements = new Map<string, Database.Statement>();

  /** The prepared statement of `sql` (the SQL text is built from fixed parts only, so the cache stays small). */
  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      if (this.statements.size < 500) this.statements.set(sql, statement);
    }
    return statement;
  }

  private toDoc<T>(row: Row | undefined): Stored<T> | null {
    if (!row) return null;
    return { ...(JSON.parse(row.data) as T), id: row.id, version: row.version };
  }

  private readRow(collection: string, id: string): Row | undefined {
    return this.statement("SELECT id, version, data FROM documents WHERE collection = ? AND id = ?").get(collection, id) as Row | undefined;
  }

  /** A document's version alone (null: none): what writes and commit checks need, without its data. */
  private readVersion(collection: string, id: string): number | null {
    const row = this.statement("SELECT version FROM documents WHERE collection = ? AND id = ?").get(collection, id) as { version: number } | undefined;
    return row?.version ?? null;
  }

  async get<T>(collection: string, id: string): Promise<Stored<T> | null> {
    return this.toDoc<T>(this.readRow(collection, id));
  }

  async getMany<T>(collection: string, ids: readonly string[]): Promise<Stored<T>[]> {
    // One read per chunk of ids (not one per id), then the documents in the order asked.
    const rows = new Map<string, Row>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += GET_MANY_CHUNK) {
      const chunk = unique.slice(i, i + GET_MANY_CHUNK);
      const found = this.statement(`SELECT id, version, data FROM documents WHERE collection = ? AND id IN (${chunk.map(() => "?").join(", ")})`).all(
        collection,
        ...chunk,
      ) as Row[];
      for (const row of found) rows.set(row.id, row);
    }
    const out: Stored<T>[] = [];
    for (const id of ids) {
      const doc = this.toDoc<T>(rows.get(id));
      if (doc) out.push(doc);
    }
    return out;
  }

  private whereSql(collection: string, where: readonly Where[] = []): { sql: string[]; params: unknown[] } {
    const sql: string[] = [];
    const params: unknown[] = [];
    for (const [field, op, value] of where) {
      const expr = jsonPath(field);
      if (op === "array-contains" && typeof value === "string" && isIndexedArray(collection, field)) {
        sql.push(`id IN (SELECT id FROM document_tokens WHERE collection = ? AND field = ? AND token = ?)`);
        params.push(collection, field, value);
      } else if (op === "array-contains") {
        if (!FIELD.test(field)) throw new RangeError(`Invalid field name: ${field}`);
        sql.push(`EXISTS (SELECT 1 FROM json_each(documents.data, '$.${field}') WHERE json_each.value = ?)`);
        params.push(bindValue(value));
      } else if (op === "in") {
        const list = value as unknown[];
        if (list.length === 0) sql.push("0");
        else {
          sql.push(`${expr} IN (${list.map(() => "?").join(", ")})`);
          params.push(...list.map(bindValue));
        }
      } else if (value === null && op === "==") {
        sql.push(`json_type(data, '$.${field}') = 'null'`);
      } else {
        sql.push(`${expr} ${op === "==" ? "=" : op} ?`);
        params.push(bindValue(value));
      }
    }
    return { sql, params };
  }

  async query<T>(collection: string, spec: QuerySpec): Promise<{ items: Stored<T>[]; next: string | null }> {
    const limit = pageSize(spec.limit);
    const orderBy = effectiveOrder(spec);
    const { sql, params } = this.whereSql(collection, spec.where);
    const conditions = ["collection = ?", ...sql];
    const all: unknown[] = [collection, ...params];
    const direction = orderBy?.direction === "desc" ? "DESC" : "ASC";
    const cmp = direction === "DESC" ? "<" : ">";
    let order = `id ${direction}`;
    if (orderBy) {
      const expr = jsonPath(orderBy.field);
      conditions.push(`json_type(data, '$.${orderBy.field}') IS NOT NULL`);
      order = `${expr} ${direction}, id ${direction}`;
      if (spec.after) {
        // Null values come first ascending and last descending, as on Firestore; SQL comparisons
        // with NULL are never true, so they get their own terms.
        const cursor = decodeCursor(spec.after);
        if (cursor.v === null || cursor.v === undefined) {
          conditions.push(
            direction === "ASC" ? `((${expr} IS NULL AND id > ?) OR ${expr} IS NOT NULL)` : `(${expr} IS NULL AND id < ?)`,
          );
          all.push(cursor.id);
        } else {
          const nullsAfter = direction === "DESC" ? ` OR ${expr} IS NULL` : "";
          conditions.push(`(${expr} ${cmp} ? OR (${expr} = ? AND id ${cmp} ?)${nullsAfter})`);
          all.push(bindValue(cursor.v), bindValue(cursor.v), cursor.id);
        }
      }
    } else if (spec.after) {
      conditions.push(`id ${cmp} ?`);
      all.push(decodeCursor(spec.after).id);
    }
    const rows = this.statement(`SELECT id, version, data FROM documents WHERE ${conditions.join(" AND ")} ORDER BY ${order} LIMIT ?`).all(...all, limit + 1) as Row[];
    const items = rows.slice(0, limit).map((row) => this.toDoc<T>(row)!);
    const last = items[items.length - 1];
    const next =
      rows.length > limit && last
        ? encodeCursor({
            v: orderBy ? readPath(last as Record<string, unknown>, orderBy.field) : null,
            id: last.id,
          })
        : null;
    return { items, next };
  }

  async count(collection: string, where: readonly Where[] = [], upTo?: number): Promise<number> {
    const { sql, params } = this.whereSql(collection, where);
    const selected = `SELECT 1 FROM documents WHERE ${["collection = ?", ...sql].join(" AND ")}`;
    const row = (
      upTo === undefined
        ? this.statement(`SELECT COUNT(*) AS n FROM (${selected})`).get(collection, ...params)
        : this.statement(`SELECT COUNT(*) AS n FROM (${selected} LIMIT ?)`).get(collection, ...params, Math.max(0, Math.floor(upTo)))
    ) as { n: number };
    return row.n;
  }

  async ids(collection: string, where: readonly Where[] = []): Promise<string[]> {
    // The filters' expressions are those of the indexes (e.g. documents_status_updated leads with
    // the collection and the status), so the ids come from an index without parsing any JSON.
    // `+id`: sorted after the read; ordered by the primary key itself, the planner (without
    // statistics) walks every document of the collection to spare that sort (1.4 ms against
    // 0.01 ms for 10 archived teams of 2,000).
    const { sql, params } = this.whereSql(collection, where);
    const rows = this.statement(`SELECT id FROM documents WHERE ${["collection = ?", ...sql].join(" AND ")} ORDER BY +id`).all(collection, ...params) as { id: string }[];
    return rows.map((row) => row.id);
  }

  /** Keeps document_tokens in step with a document written (null: deleted) of a collection with indexed arrays. */
  private writeTokens(collection: string, id: string, data: Record<string, unknown> | null): void {
    const fields = Object.hasOwn(INDEXED_ARRAYS, collection) ? INDEXED_ARRAYS[collection]! : null;
    if (!fields) return;
    this.statement("DELETE FROM document_tokens WHERE collection = ? AND id = ?").run(collection, id);
    if (!data) return;
    const insert = this.statement("INSERT OR IGNORE INTO document_tokens (collection, field, token, id) VALUES (?, ?, ?, ?)");
    for (const field of fields) {
      const values = data[field];
      if (!Array.isArray(values)) continue;
      for (const value of values) if (typeof value === "string") insert.run(collection, field, value, id);
    }
  }

  /** Applies one write inside an open SQLite transaction. */
  private applyWrite(write: Write, now: string): Stored<object> | null {
    const stored = this.applyDocumentWrite(write, now);
    // An update leaves the tokens alone unless it writes an indexed field (the settlement's
    // frequent spend writes do not).
    const touches = write.kind !== "update" || (Object.hasOwn(INDEXED_ARRAYS, write.collection) ? INDEXED_ARRAYS[write.collection]! : []).some((field) => Object.hasOwn(write.patch, field));
    if (touches) this.writeTokens(write.collection, write.id, stored as Record<string, unknown> | null);
    return stored;
  }

  private applyDocumentWrite(write: Write, now: string): Stored<object> | null {
    // Only an update needs the stored data; the others need the version at most.
    const row = write.kind === "update" ? this.readRow(write.collection, write.id) : null;
    switch (write.kind) {
      case "create": {
        if (this.readVersion(write.collection, write.id) !== null) throw new AlreadyExistsError(write.collection, write.id);
        const data = toStoredData(write.data);
        this.statement("INSERT INTO documents (collection, id, version, data) VALUES (?, ?, 1, ?)").run(write.collection, write.id, write.json ?? JSON.stringify(data));
        return { ...data, id: write.id, version: 1 };
      }
      case "set": {
        const data = toStoredData(write.data);
        const version = (this.readVersion(write.collection, write.id) ?? 0) + 1;
        this.statement(
          "INSERT INTO documents (collection, id, version, data) VALUES (?, ?, ?, ?) ON CONFLICT (collection, id) DO UPDATE SET version = excluded.version, data = excluded.data",
        ).run(write.collection, write.id, version, write.json ?? JSON.stringify(data));
        return { ...data, id: write.id, version };
      }
      case "update": {
        if (!row) throw new NotFoundError(write.collection, write.id);
        const expect = write.options?.expectVersion;
        if (expect !== undefined && expect !== row.version) throw new ConflictError(write.collection, write.id);
        const data = applyPatch(JSON.parse(row.data), write.patch, now);
        const version = row.version + 1;
        this.statement("UPDATE documents SET version = ?, data = ? WHERE collection = ? AND id = ?").run(version, JSON.stringify(data), write.collection, write.id);
        return { ...data, id: write.id, version };
      }
      case "delete":
        this.statement("DELETE FROM documents WHERE collection = ? AND id = ?").run(write.collection, write.id);
        return null;
    }
  }

  private commit(writes: Write[]): (Stored<object> | null)[] {
    const now = new Date().toISOString();
    return this.db.transaction(() => writes.map((w) => this.applyWrite(w, now))).immediate();
  }

  async create<T extends object>(collection: string, id: string, data: T): Promise<Stored<T>> {
    return this.commit([{ kind: "create", collection, id, data }])[0] as Stored<T>;
  }

  async set<T extends object>(collection: string, id: string, data: T): Promise<Stored<T>> {
    return this.commit([{ kind: "set", collection, id, data }])[0] as Stored<T>;
  }

  async update<T extends object>(
    collection: string,
    id: string,
    patch: Patch<T>,
    options?: WriteOptions,
  ): Promise<Stored<T>> {
    return this.commit([{ kind: "update", collection, id, patch: patch as Patch<object>, options }])[0] as Stored<T>;
  }

  async delete(collection: string, id: string, options?: WriteOptions): Promise<void> {
    this.db
      .transaction(() => {
        const row = this.readRow(collection, id);
        if (!row) return;
        if (options?.expectVersion !== undefined && options.expectVersion !== row.version) {
          throw new ConflictError(collection, id);
        }
        this.applyWrite({ kind: "delete", collection, id }, "");
      })
      .immediate();
  }

  /**
   * Optimistic, like Firestore: reads record the versions they saw; the commit re-checks them
   * under an immediate (write-locked) SQLite transaction and retries fn when one moved. This
   * stays correct with several processes on one file.
   */
  async transaction<R>(fn: (tx: TransactionContext) => Promise<R>): Promise<R> {
    for (let attempt = 0; attempt < 50; attempt++) {
      // Jittered backoff, so that retries of concurrent transactions spread out instead of
      // colliding again in lockstep (only one of them could win each round).
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(100, 2 ** attempt)));
      const seen = new Map<string, number | null>();
      const writes: (Write | SpilledWrite)[] = [];
      const key = (c: string, id: string) => `${c}\u0000${id}`;
      // The JSON written so far; from workerCommitBytes on, the commit is the worker's and the
      // documents' JSON goes to the spill as it comes (ADR 43 addendum).
      let bytes = 0;
      const spill = this.filename !== ":memory:" ? new JsonSpill() : null;
      let unspilled = 0;
      const put = (kind: "create" | "set", collection: string, id: string, data: object) => {
        // Serialised now, as Firestore's transactions do: a large change (a keyword import) can
        // spread this work between its steps, and the commit below only writes (ADR 43).
        const json = JSON.stringify(toStoredData(data));
        bytes += json.length;
        writes.push({ kind, collection, id, data, json });
        if (!spill || bytes < this.workerCommitBytes) return;
        // Documents of collections with indexed arrays keep their data (their tokens are listed from it).
        for (; unspilled < writes.length; unspilled++) {
          const w = writes[unspilled]!;
          if ((w.kind === "create" || w.kind === "set") && !isSpilled(w) && !Object.hasOwn(INDEXED_ARRAYS, w.collection)) {
            writes[unspilled] = { kind: w.kind, collection: w.collection, id: w.id, at: spill.add(w.json!) };
          }
        }
      };
      const tx: TransactionContext = {
        get: async <T>(collection: string, id: string) => {
          if (writes.length) throw new Error("Transactions must read before they write");
          const row = this.readRow(collection, id);
          seen.set(key(collection, id), row?.version ?? null);
          return this.toDoc<T>(row);
        },
        create: (collection, id, data) => put("create", collection, id, data),
        set: (collection, id, data) => put("set", collection, id, data),
        update: (collection, id, patch, options) =>
          void writes.push({ kind: "update", collection, id, patch: patch as Patch<object>, options }),
        delete: (collection, id) => void writes.push({ kind: "delete", collection, id }),
      };
      const result = await fn(tx);
      const now = new Date().toISOString();
      const onWorker = spill && bytes >= this.workerCommitBytes ? this.workerWrites(writes, seen, now, spill) : null;
      if (onWorker === "retry") continue;
      if (onWorker) {
        const outcome = await commitOnWorker(
          this.filename,
          [...seen].map(([k, version]) => {
            const [collection, id] = k.split("\u0000");
            return [collection!, id!, version];
          }),
          onWorker,
          spill!.buffers(),
        );
        if ("error" in outcome) {
          if (outcome.error.code === "exists") throw new AlreadyExistsError(outcome.error.collection!, outcome.error.id!);
          throw new Error(outcome.error.message);
        }
        if (outcome.result === "retry") continue;
        return result;
      }
      try {
        this.db
          .transaction(() => {
            for (const [k, version] of seen) {
              const [collection, id] = k.split("\u0000");
              if (this.readVersion(collection, id) !== version) throw new RetryTransaction();
            }
            for (const write of writes) {
              // Spilled only past workerCommitBytes, which commits on the worker.
              if (isSpilled(write)) throw new Error("A spilled write outside a worker commit");
              this.applyWrite(write, now);
            }
          })
          .immediate();
        return result;
      } catch (error) {
        if (error instanceof RetryTransaction) continue;
        throw error;
      }
    }
    throw new ConflictError("transaction", "retries exhausted");
  }

  /**
   * A transaction's writes as the commit worker applies them: documents serialised, each update
   * applied to the document as stored now (its version added to those the worker checks, so the
   * commit fails if it moves meanwhile), tokens listed for indexed collections. "retry": a
   * document read by the transaction has already moved.
   */
  private workerWrites(writes: (Write | SpilledWrite)[], seen: Map<string, number | null>, now: string, spill: JsonSpill): WorkerWrite[] | "retry" {
    const key = (c: string, id: string) => `${c}\u0000${id}`;
    // Each document's JSON as this transaction leaves it (a spilled one: where it sits).
    const current = new Map<string, string | SpillRef | null>();
    const out: WorkerWrite[] = [];
    for (const write of writes) {
      const k = key(write.collection, write.id);
      if (isSpilled(write)) {
        current.set(k, write.at);
        out.push({ kind: write.kind, collection: write.collection, id: write.id, json: null, at: write.at });
        continue;
      }
      const indexed = Object.hasOwn(INDEXED_ARRAYS, write.collection) ? INDEXED_ARRAYS[write.collection]! : null;
      let data: Record<string, unknown> | null = null;
      let json: string | null = null;
      if (write.kind === "update") {
        let stored = current.get(k);
        let version: number | null | undefined = seen.get(k);
        if (!current.has(k)) {
          const row = this.readRow(write.collection, write.id);
          if (seen.has(k) && (row?.version ?? null) !== seen.get(k)) return "retry";
          if (!seen.has(k)) seen.set(k, row?.version ?? null);
          stored = row?.data ?? null;
          version = row?.version ?? null;
        }
        if (stored == null) throw new NotFoundError(write.collection, write.id);
        const expect = write.options?.expectVersion;
        if (expect !== undefined && expect !== version) throw new ConflictError(write.collection, write.id);
        data = applyPatch(JSON.parse(typeof stored === "string" ? stored : spill.read(stored)), write.patch, now);
        json = JSON.stringify(data);
      } else if (write.kind !== "delete") {
        data = toStoredData(write.data);
        json = write.json ?? JSON.stringify(data);
      }
      current.set(k, json);
      const tokens: [string, string][] | undefined = indexed ? [] : undefined;
      if (indexed && data) {
        for (const field of indexed) {
          const values = data[field];
          if (Array.isArray(values)) for (const value of values) if (typeof value === "string") tokens!.push([field, value]);
        }
      }
      out.push({ kind: write.kind === "update" ? "set" : write.kind, collection: write.collection, id: write.id, json, tokens });
    }
    return out;
  }

  async clear(): Promise<void> {
    this.db.exec("DELETE FROM documents; DELETE FROM document_tokens;");
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
