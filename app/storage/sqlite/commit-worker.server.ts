/**
 * A large transaction's commit on a thread of its own (ADR 43): a change of 100,000 keywords
 * writes some 40 MB of documents, which better-sqlite3 would write on the server's one thread for
 * about a second. Here a worker thread opens its own connection to the same file and runs the
 * commit (the version checks, the writes and their tokens) in one immediate transaction, while
 * the server goes on answering. Readers see the data before the commit until it is done (WAL);
 * a write of another request meanwhile waits for the lock as it would for another process.
 *
 * The writes come serialised (and updates resolved against the document the transaction read),
 * so the worker needs no code of the app: its script is below, run with `eval`.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** One write as the worker applies it: a document's JSON (none: deleted), and its tokens for an indexed collection. */
export interface WorkerWrite {
  kind: "create" | "set" | "delete";
  collection: string;
  id: string;
  /** The document's JSON; null: deleted, or kept in the spill (`at`). */
  json: string | null;
  /** Where the document's JSON sits in the transaction's spill, as UTF-8 bytes. */
  at?: SpillRef;
  /** [field, token] pairs; undefined: the collection keeps no tokens. */
  tokens?: [string, string][];
}

/** A document's JSON in a spill: its slab, and the byte range in it. */
export type SpillRef = [slab: number, start: number, end: number];

/** Bytes of one slab of a spill (more for a document that needs more). */
const SLAB_BYTES = 8 * 1024 * 1024;

/**
 * The JSON of a large transaction's documents as UTF-8 bytes in a few large buffers, kept from the
 * moment the transaction writes them (ADR 43 addendum): the strings go to the garbage collector at
 * once, and the buffers are handed to the commit worker as they are (transferred, not copied; a
 * copy of 40 MB of JSON for the worker, and the worker's own copy, were a third of the memory a
 * 100,000-keyword import added).
 */
export class JsonSpill {
  private readonly slabs: Buffer[] = [];
  private used = 0;

  add(json: string): SpillRef {
    // A UTF-16 code unit is at most 3 bytes of UTF-8 (a surrogate pair: 4 bytes for 2 units).
    const most = json.length * 3;
    let slab = this.slabs[this.slabs.length - 1];
    if (!slab || slab.length - this.used < most) {
      // Not from Buffer's shared pool: each slab has an ArrayBuffer of its own, which can be transferred.
      slab = Buffer.allocUnsafeSlow(Math.max(SLAB_BYTES, most));
      this.slabs.push(slab);
      this.used = 0;
    }
    const start = this.used;
    this.used += slab.write(json, start, "utf8");
    return [this.slabs.length - 1, start, this.used];
  }

  read([slab, start, end]: SpillRef): string {
    return this.slabs[slab]!.toString("utf8", start, end);
  }

  /** The slabs' memory, to transfer to the worker (they are unusable here after). */
  buffers(): ArrayBuffer[] {
    return this.slabs.map((slab) => slab.buffer as ArrayBuffer);
  }
}

export type WorkerCommitResult = { result: "ok" | "retry" } | { error: { message: string; code?: string; collection?: string; id?: string } };

const SCRIPT = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.filename);
db.pragma("busy_timeout = 5000");
try {
  const version = db.prepare("SELECT version FROM documents WHERE collection = ? AND id = ?");
  const upsert = db.prepare("INSERT INTO documents (collection, id, version, data) VALUES (?, ?, ?, ?) ON CONFLICT (collection, id) DO UPDATE SET version = excluded.version, data = excluded.data");
  const remove = db.prepare("DELETE FROM documents WHERE collection = ? AND id = ?");
  const dropTokens = db.prepare("DELETE FROM document_tokens WHERE collection = ? AND id = ?");
  const addToken = db.prepare("INSERT OR IGNORE INTO document_tokens (collection, field, token, id) VALUES (?, ?, ?, ?)");
  const slabs = workerData.slabs.map((buffer) => Buffer.from(buffer));
  const result = db.transaction(() => {
    for (const [collection, id, seen] of workerData.seen) {
      const row = version.get(collection, id);
      if ((row ? row.version : null) !== seen) return "retry";
    }
    for (const w of workerData.writes) {
      const row = version.get(w.collection, w.id);
      if (w.kind === "create" && row) throw Object.assign(new Error("exists"), { code: "exists", collection: w.collection, id: w.id });
      if (w.kind === "delete") remove.run(w.collection, w.id);
      else upsert.run(w.collection, w.id, (row ? row.version : 0) + 1, w.at ? slabs[w.at[0]].toString("utf8", w.at[1], w.at[2]) : w.json);
      if (w.tokens) {
        dropTokens.run(w.collection, w.id);
        if (w.kind !== "delete") for (const [field, token] of w.tokens) addToken.run(w.collection, field, token, w.id);
      }
    }
    return "ok";
  }).immediate();
  parentPort.postMessage({ result });
} catch (error) {
  parentPort.postMessage({ error: { message: String(error && error.message), code: error && error.code, collection: error && error.collection, id: error && error.id } });
} finally {
  db.close();
}
`;

let driver: string | null = null;

/** Runs the commit on a worker thread; resolves with its outcome. The spill's slabs are moved to the worker, not copied. */
export function commitOnWorker(filename: string, seen: [string, string, number | null][], writes: WorkerWrite[], slabs: ArrayBuffer[] = []): Promise<WorkerCommitResult> {
  driver ??= createRequire(import.meta.url).resolve("better-sqlite3");
  return new Promise((resolve, reject) => {
    const worker = new Worker(SCRIPT, { eval: true, workerData: { filename, driver, seen, writes, slabs }, transferList: slabs });
    let settled = false;
    worker.once("message", (message: WorkerCommitResult) => {
      settled = true;
      resolve(message);
    });
    worker.once("error", (error) => {
      settled = true;
      reject(error);
    });
    worker.once("exit", (code) => {
      if (!settled) reject(new Error(`Commit worker exited with code ${code}`));
    });
  });
}
