/**
 * The process's one Storage: the adapter is chosen by STORAGE ("sqlite", the default, or
 * "firestore"), the repositories are the same over either.
 */
import { FirestoreDocumentStore, loadFirestoreSdk } from "~/storage/firestore/document-store.server";
import type { DocumentStore, Storage } from "~/storage/port";
import { createStorage } from "~/storage/repos/index.server";
import { SqliteDocumentStore } from "~/storage/sqlite/document-store.server";

export type StorageEnv = Readonly<Record<string, string | undefined>>;

export const DEFAULT_DATABASE_URL = "./data/console.db";
export const DEFAULT_FIRESTORE_PROJECT_ID = "ads-console";

/**
 * STORAGE=sqlite (default): DATABASE_URL, a file path (default ./data/console.db; a `file:`
 * prefix is accepted). STORAGE=firestore: FIRESTORE_PROJECT_ID (default ads-console), optional
 * FIRESTORE_DATABASE_ID, credentials from FIRESTORE_EMULATOR_HOST or Google's defaults.
 */
export function createDocumentStore(env: StorageEnv = process.env): DocumentStore {
  const kind = (env.STORAGE || "sqlite").trim().toLowerCase();
  switch (kind) {
    case "sqlite": {
      const url = env.DATABASE_URL || DEFAULT_DATABASE_URL;
      return new SqliteDocumentStore(url.startsWith("file:") ? url.slice("file:".length) : url);
    }
    case "firestore":
      return new FirestoreDocumentStore({
        projectId: env.FIRESTORE_PROJECT_ID || DEFAULT_FIRESTORE_PROJECT_ID,
        databaseId: env.FIRESTORE_DATABASE_ID || undefined,
        appName: "ads-console",
      });
    default:
      throw new Error(`Unknown STORAGE "${env.STORAGE}": use "sqlite" or "firestore"`);
  }
}

// Kept on globalThis so that a dev rebuild, which re-evaluates this module, reuses the open store.
const holder = globalThis as typeof globalThis & { __adsConsoleStorage?: Storage; __adsConsoleDocuments?: DocumentStore };

/**
 * Opens the process's storage; with STORAGE=firestore it first loads firebase-admin, which the
 * embedded default never loads. The server calls it at boot.
 */
export async function initStorage(env: StorageEnv = process.env): Promise<Storage> {
  if ((env.STORAGE || "sqlite").trim().toLowerCase() === "firestore") await loadFirestoreSdk();
  return getStorage();
}

export function getStorage(): Storage {
  if (!holder.__adsConsoleStorage) {
    holder.__adsConsoleDocuments = createDocumentStore(process.env);
    holder.__adsConsoleStorage = createStorage(holder.__adsConsoleDocuments);
  }
  return holder.__adsConsoleStorage;
}

/**
 * The raw document store under the process's Storage, for tests and maintenance tools only:
 * application code writes through the repositories (`getStorage()`), never here.
 */
export function getDocumentStoreForTests(): DocumentStore {
  getStorage();
  return holder.__adsConsoleDocuments!;
}

/** Closes the process's storage (shutdown, tests); the next getStorage() opens a new one. */
export async function closeStorage(): Promise<void> {
  const storage = holder.__adsConsoleStorage;
  holder.__adsConsoleStorage = undefined;
  holder.__adsConsoleDocuments = undefined;
  if (storage) await storage.close();
}
