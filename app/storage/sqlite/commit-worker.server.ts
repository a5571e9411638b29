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
  json: string | null;
  /** [field, token] pairs; undefined: the collection keeps no tokens. */
  tokens?: [string, string][];
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
  const result = db.transaction(() => {
    for (const [collection, id, seen] of workerData.seen) {
      const row = version.get(collection, id);
      if ((row ? row.version : null) !== seen) return "retry";
    }
    for (const w of workerData.writes) {
      const row = version.get(w.collection, w.id);
      if (w.kind === "create" && row) throw Object.assign(new Error("exists"), { code: "exists", collection: w.collection, id: w.id });
      if (w.kind === "delete") remove.run(w.collection, w.id);
      else upsert.run(w.collection, w.id, (row ? row.version : 0) + 1, w.json);
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

/** Runs the commit on a worker thread; resolves with its outcome. */
export function commitOnWorker(filename: string, seen: [string, string, number | null][], writes: WorkerWrite[]): Promise<WorkerCommitResult> {
  driver ??= createRequire(import.meta.url).resolve("better-sqlite3");
  return new Promise((resolve, reject) => {
    const worker = new Worker(SCRIPT, { eval: true, workerData: { filename, driver, seen, writes } });
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
