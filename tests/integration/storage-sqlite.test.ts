import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { loadFirestoreSdk } from "~/storage/firestore/document-store.server";
import { afterAll, describe, expect, it } from "vitest";
import { closeStorage, createDocumentStore, getStorage } from "~/storage/index.server";
import { migrate, SqliteDocumentStore } from "~/storage/sqlite/document-store.server";
import { MIGRATIONS } from "~/storage/sqlite/migrations";
import { runCampaignsContract } from "./campaigns.contract";
import { runStorageContract } from "./storage.contract";
import { runTargetsContract } from "./targets.contract";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ads-console-sqlite-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// Every store of the contract opens the same file, as several server processes would.
const contractFile = path.join(dir, "contract.db");
runStorageContract("sqlite", async () => new SqliteDocumentStore(contractFile));
runCampaignsContract("sqlite", async () => new SqliteDocumentStore(contractFile));
runTargetsContract("sqlite", async () => new SqliteDocumentStore(contractFile));
// The targets contract again with every transaction committed on a worker thread (what a
// transaction of 4 MB or more does: ADR 43).
const workerFile = path.join(dir, "worker.db");
runTargetsContract("sqlite, commits on a worker thread", async () => new SqliteDocumentStore(workerFile, { workerCommitBytes: 0 }));

describe("sqlite migrations", () => {
  it("records every migration in schema_migrations once, and re-running migrate() is a no-op", async () => {
    const file = path.join(dir, "migrations.db");
    const store = new SqliteDocumentStore(file);
    await store.create("campaign", "c-1", { name: "Kept across migrate()" });
    await store.close();

    const db = new Database(file);
    try {
      const rows = db.prepare("SELECT version, name, applied_at FROM schema_migrations ORDER BY version").all() as {
        version: number;
        name: string;
        applied_at: string;
      }[];
      expect(rows.map((r) => [r.version, r.name])).toEqual(MIGRATIONS.map((m) => [m.version, m.name]));
      for (const row of rows) expect(Number.isNaN(Date.parse(row.applied_at))).toBe(false);

      expect(migrate(db)).toEqual([]);
      expect(db.prepare("SELECT COUNT(*) AS n FROM schema_migrations").get()).toEqual({ n: MIGRATIONS.length });
    } finally {
      db.close();
    }

    // Opening the file again migrates nothing and keeps the data.
    const reopened = new SqliteDocumentStore(file);
    try {
      expect(await reopened.get("campaign", "c-1")).toMatchObject({ name: "Kept across migrate()", version: 1 });
    } finally {
      await reopened.close();
    }
  });

  it("applies all migrations to a fresh database", () => {
    const db = new Database(":memory:");
    try {
      expect(migrate(db)).toEqual(MIGRATIONS.map((m) => m.version));
      expect(migrate(db)).toEqual([]);
    } finally {
      db.close();
    }
  });
});

describe("sqlite search tokens", () => {
  it("indexes the search tokens of campaigns written before migration 7, and keeps them in step with writes", async () => {
    const file = path.join(dir, "tokens.db");
    // A database of the release before: migrations 1 to 6, a campaign written as JSON.
    const db = new Database(file);
    db.exec("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
    for (const m of MIGRATIONS.filter((m) => m.version < 7)) {
      db.exec(m.sql);
      db.prepare("INSERT INTO schema_migrations VALUES (?, ?, ?)").run(m.version, m.name, new Date().toISOString());
    }
    db.prepare("INSERT INTO documents (collection, id, version, data) VALUES ('campaign', 'old', 1, ?)").run(JSON.stringify({ name: "Winter coffee", searchTokens: ["c", "co", "coffee", "w", "winter"] }));
    db.close();

    const store = new SqliteDocumentStore(file);
    try {
      const search = async (token: string) => (await store.query("campaign", { where: [["searchTokens", "array-contains", token]] })).items.map((d) => d.id);
      expect(await search("winter")).toEqual(["old"]);
      await store.create("campaign", "new", { name: "Spring tea", searchTokens: ["s", "spring", "t", "tea"] });
      expect(await search("tea")).toEqual(["new"]);
      // A rename moves its tokens; an update that leaves them alone keeps them; a delete drops them.
      await store.update("campaign", "old", { name: "Summer coffee", searchTokens: ["c", "coffee", "s", "summer"] });
      expect(await search("winter")).toEqual([]);
      expect(await search("s")).toEqual(["new", "old"]);
      await store.update("campaign", "new", { spend: 10 });
      expect(await search("spring")).toEqual(["new"]);
      await store.delete("campaign", "new");
      expect(await search("spring")).toEqual([]);
      expect(await store.count("campaign", [["searchTokens", "array-contains", "coffee"]])).toBe(1);
    } finally {
      await store.close();
    }
  });
});

describe("storage selection", () => {
  it("chooses the adapter from STORAGE", async () => {
    const sqlite = createDocumentStore({ DATABASE_URL: path.join(dir, "selected.db") });
    expect(sqlite.kind).toBe("sqlite");
    await sqlite.close();
    // firebase-admin is loaded only on demand: before that, Firestore cannot be chosen.
    expect(() => createDocumentStore({ STORAGE: "firestore" })).toThrow(/loadFirestoreSdk/);
    await loadFirestoreSdk();
    const firestore = createDocumentStore({ STORAGE: "firestore", FIRESTORE_PROJECT_ID: "ads-console-selection" });
    expect(firestore.kind).toBe("firestore");
    await firestore.close();
    expect(() => createDocumentStore({ STORAGE: "postgres" })).toThrow(/Unknown STORAGE/);
  });

  it("keeps one Storage per process until closed", async () => {
    const saved = { STORAGE: process.env.STORAGE, DATABASE_URL: process.env.DATABASE_URL };
    process.env.STORAGE = "sqlite";
    process.env.DATABASE_URL = path.join(dir, "process.db");
    try {
      const storage = getStorage();
      expect(getStorage()).toBe(storage);
      expect(storage.kind).toBe("sqlite");
      expect((await storage.config.get()).appVersion).toBe(622);
      await closeStorage();
      const reopened = getStorage();
      expect(reopened).not.toBe(storage);
      expect((await reopened.config.get()).version).toBe(1);
    } finally {
      await closeStorage();
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});
