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

describe("sqlite large transactions (ADR 43 addendum)", () => {
  it("commits a transaction past workerCommitBytes on the worker from its spilled JSON: every document stored as the same JSON text, a document set then updated in it, an indexed collection's tokens", async () => {
    const file = path.join(dir, "spill.db");
    const store = new SqliteDocumentStore(file, { workerCommitBytes: 64 * 1024 });
    try {
      await store.create("campaign", "c-1", { name: "Old", searchTokens: ["old"] });
      // Two-byte, four-byte (a surrogate pair), a lone surrogate and line separators: the JSON's UTF-8 bytes and back.
      const text = "Crème brûlée 😀 \ud800 \u2028 ".repeat(3_000);
      await store.transaction(async (tx) => {
        await tx.get("campaign", "c-1");
        tx.set("campaign_target", "t-1", { text, n: 1 });
        for (let i = 0; i < 20; i++) tx.set("campaign_target", `t-${i + 2}`, { text: text.slice(i), i });
        tx.update("campaign_target", "t-1", { n: 2 });
        tx.update("campaign", "c-1", { name: "New", searchTokens: ["new"] });
        tx.delete("campaign_target", "t-21");
      });
      expect(await store.get("campaign_target", "t-1")).toEqual({ text, n: 2, id: "t-1", version: 2 });
      expect(await store.get("campaign_target", "t-7")).toEqual({ text: text.slice(5), i: 5, id: "t-7", version: 1 });
      expect(await store.get("campaign_target", "t-21")).toBeNull();
      expect(await store.get("campaign", "c-1")).toMatchObject({ name: "New", version: 2 });
      const db = new Database(file, { readonly: true });
      try {
        const rows = db.prepare("SELECT id, typeof(data) AS type, data FROM documents WHERE collection = 'campaign_target' ORDER BY id").all() as { id: string; type: string; data: string }[];
        expect(rows).toHaveLength(20);
        expect(new Set(rows.map((r) => r.type))).toEqual(new Set(["text"]));
        expect(rows.find((r) => r.id === "t-1")!.data).toBe(JSON.stringify({ text, n: 2 }));
        expect(rows.find((r) => r.id === "t-3")!.data).toBe(JSON.stringify({ text: text.slice(1), i: 1 }));
        expect(db.prepare("SELECT token FROM document_tokens WHERE collection = 'campaign' AND id = 'c-1'").all()).toEqual([{ token: "new" }]);
      } finally {
        db.close();
      }
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
