/**
 * The storage contract: the same cases run against every DocumentStore adapter, at the adapter
 * level and through the repositories (createStorage). An adapter passes only if it behaves
 * exactly like the others.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AuditEntryData } from "~/domain/types";
import {
  AlreadyExistsError,
  COLLECTIONS,
  ConflictError,
  fieldOps,
  NotFoundError,
  type DocumentStore,
  type QuerySpec,
  type Storage,
  type Stored,
} from "~/storage/port";
import { createStorage } from "~/storage/repos/index.server";
import { makeTeamData, makeUserData } from "../factories";

interface Campaign {
  name: string;
  status: "draft" | "live" | "paused" | "archived";
  budgetCents: number;
  tags: string[];
  sponsored: boolean;
  priority?: number;
  settings?: { bidCents: number; placements: string[] };
  note?: string;
  lastEdit?: string;
}

interface Wallet {
  teamId: string;
  balanceCents: number;
}

const CAMPAIGNS = "campaign";
const WALLETS = "wallet";
const SYSTEM = { by: "system" };
const ADMIN = { by: "admin@retailer.example" };

function campaign(overrides: Partial<Campaign> = {}): Campaign {
  return {
    name: "Spring sale — coffee",
    status: "live",
    budgetCents: 150_000,
    tags: ["coffee", "spring"],
    sponsored: true,
    settings: { bidCents: 45, placements: ["search", "home"] },
    ...overrides,
  };
}

/** Every page of a query, following `next` until it is null. */
async function allPages<T>(store: DocumentStore, collection: string, spec: QuerySpec): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let after: string | null = null;
  let pages = 0;
  do {
    const page: { items: Stored<T>[]; next: string | null } = await store.query<T>(collection, { ...spec, after });
    ids.push(...page.items.map((item) => item.id));
    after = page.next;
    pages += 1;
    if (pages > 100) throw new Error("pagination does not end");
  } while (after);
  return { ids, pages };
}

function expectIsoNear(value: unknown, before: number, after: number, slackMs = 5_000): void {
  expect(typeof value).toBe("string");
  expect(value).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
  const at = Date.parse(value as string);
  expect(at).toBeGreaterThanOrEqual(before - slackMs);
  expect(at).toBeLessThanOrEqual(after + slackMs);
}

export function runStorageContract(name: string, makeStore: () => Promise<DocumentStore>): void {
  describe(`storage contract: ${name}`, () => {
    let store: DocumentStore;

    beforeAll(async () => {
      store = await makeStore();
    });

    afterAll(async () => {
      await store?.close();
    });

    beforeEach(async () => {
      await store.clear();
    });

    describe("DocumentStore", () => {
      it("creates documents with version 1 and reads them back, one or many", async () => {
        const created = await store.create<Campaign>(CAMPAIGNS, "c-coffee", campaign());
        expect(created).toEqual({ ...campaign(), id: "c-coffee", version: 1 });
        await store.create<Campaign>(CAMPAIGNS, "c-tea", campaign({ name: "Tea week", tags: ["tea"] }));

        expect(await store.get<Campaign>(CAMPAIGNS, "c-coffee")).toEqual(created);
        expect(await store.get(CAMPAIGNS, "c-missing")).toBeNull();
        const many = await store.getMany<Campaign>(CAMPAIGNS, ["c-tea", "c-missing", "c-coffee"]);
        expect(many.map((d) => d.id)).toEqual(["c-tea", "c-coffee"]);
        expect(many[0]).toMatchObject({ name: "Tea week", version: 1 });
        expect(await store.getMany(CAMPAIGNS, [])).toEqual([]);
        expect((await store.getMany(CAMPAIGNS, ["c-tea", "c-tea"])).map((d) => d.id)).toEqual(["c-tea", "c-tea"]);
      });

      it("stores instants as UTC ISO strings, nested ones too, and keeps nulls", async () => {
        const at = new Date("2025-02-03T04:05:06.789Z");
        await store.create(CAMPAIGNS, "c-1", {
          name: "Dated",
          startsAt: at,
          schedule: { endsAt: at, slots: [at, { from: at }] },
          paused: null,
        });
        expect(await store.get(CAMPAIGNS, "c-1")).toEqual({
          id: "c-1",
          version: 1,
          name: "Dated",
          startsAt: at.toISOString(),
          schedule: { endsAt: at.toISOString(), slots: [at.toISOString(), { from: at.toISOString() }] },
          paused: null,
        });
      });

      it("does not store id and version as data", async () => {
        const created = await store.create(CAMPAIGNS, "c-1", { ...campaign(), id: "spoofed", version: 99 });
        expect(created).toMatchObject({ id: "c-1", version: 1 });
        expect(await store.get(CAMPAIGNS, "c-1")).toMatchObject({ id: "c-1", version: 1 });
      });

      it("refuses to create a document whose id is taken, leaving it unchanged", async () => {
        await store.create<Campaign>(CAMPAIGNS, "c-1", campaign());
        await expect(store.create<Campaign>(CAMPAIGNS, "c-1", campaign({ name: "Impostor" }))).rejects.toBeInstanceOf(
          AlreadyExistsError,
        );
        expect(await store.get<Campaign>(CAMPAIGNS, "c-1")).toMatchObject({ name: "Spring sale — coffee", version: 1 });
      });

      it("set creates with version 1, then replaces the whole document with version + 1", async () => {
        const first = await store.set<Campaign>(CAMPAIGNS, "c-1", campaign({ note: "first" }));
        expect(first.version).toBe(1);
        const second = await store.set<Campaign>(CAMPAIGNS, "c-1", campaign({ name: "Replaced", tags: [] }));
        expect(second).toMatchObject({ id: "c-1", version: 2, name: "Replaced", tags: [] });
        const stored = await store.get<Campaign>(CAMPAIGNS, "c-1");
        expect(stored).toEqual(second);
        expect(stored).not.toHaveProperty("note");
      });

      it("update applies a shallow patch with increment, serverTime and delete, version + 1", async () => {
        await store.create<Campaign>(CAMPAIGNS, "c-1", campaign({ note: "to remove", priority: 3 }));
        const before = Date.now();
        const updated = await store.update<Campaign & { clicks?: number }>(CAMPAIGNS, "c-1", {
          budgetCents: fieldOps.increment(2_500),
          clicks: fieldOps.increment(7),
          lastEdit: fieldOps.serverTime(),
          note: fieldOps.delete(),
          settings: { bidCents: 60, placements: ["search"] },
          status: "paused",
        });
        const after = Date.now();
        expect(updated).toMatchObject({
          id: "c-1",
          version: 2,
          name: "Spring sale — coffee",
          budgetCents: 152_500,
          clicks: 7,
          priority: 3,
          status: "paused",
          settings: { bidCents: 60, placements: ["search"] },
        });
        expect(updated).not.toHaveProperty("note");
        expectIsoNear(updated.lastEdit, before, after);
        const stored = await store.get<Campaign>(CAMPAIGNS, "c-1");
        expect(stored).toEqual(updated);
        expect(stored).not.toHaveProperty("note");
      });

      it("update fails with NotFoundError on a missing document and creates nothing", async () => {
        await expect(store.update<Campaign>(CAMPAIGNS, "c-ghost", { status: "paused" })).rejects.toBeInstanceOf(
          NotFoundError,
        );
        expect(await store.get(CAMPAIGNS, "c-ghost")).toBeNull();
      });

      it("refuses an update with a stale expectVersion and keeps the stored document", async () => {
        await store.create<Campaign>(CAMPAIGNS, "c-1", campaign());
        const v2 = await store.update<Campaign>(CAMPAIGNS, "c-1", { status: "paused" }, { expectVersion: 1 });
        expect(v2.version).toBe(2);
        await expect(
          store.update<Campaign>(CAMPAIGNS, "c-1", { status: "archived" }, { expectVersion: 1 }),
        ).rejects.toBeInstanceOf(ConflictError);
        expect(await store.get<Campaign>(CAMPAIGNS, "c-1")).toMatchObject({ status: "paused", version: 2 });
        const v3 = await store.update<Campaign>(CAMPAIGNS, "c-1", { status: "live" }, { expectVersion: 2 });
        expect(v3).toMatchObject({ status: "live", version: 3 });
      });

      it("deletes, checking expectVersion when given", async () => {
        await store.create<Campaign>(CAMPAIGNS, "c-1", campaign());
        await store.create<Campaign>(CAMPAIGNS, "c-2", campaign());
        await store.delete(CAMPAIGNS, "c-1");
        expect(await store.get(CAMPAIGNS, "c-1")).toBeNull();
        await store.delete(CAMPAIGNS, "c-1"); // deleting a missing document is a no-op

        await expect(store.delete(CAMPAIGNS, "c-2", { expectVersion: 5 })).rejects.toBeInstanceOf(ConflictError);
        expect(await store.get(CAMPAIGNS, "c-2")).not.toBeNull();
        await store.delete(CAMPAIGNS, "c-2", { expectVersion: 1 });
        expect(await store.get(CAMPAIGNS, "c-2")).toBeNull();
      });

      describe("queries", () => {
        beforeEach(async () => {
          await store.create<Campaign>(CAMPAIGNS, "c-a", campaign({ name: "Coffee", status: "live", budgetCents: 5_000, tags: ["coffee", "spring"], sponsored: true }));
          await store.create<Campaign>(CAMPAIGNS, "c-b", campaign({ name: "Tea", status: "paused", budgetCents: 12_000, tags: ["tea"], sponsored: false }));
          await store.create<Campaign>(CAMPAIGNS, "c-c", campaign({ name: "Cocoa", status: "live", budgetCents: 20_000, tags: ["cocoa", "spring"], sponsored: false }));
          await store.create<Campaign>(CAMPAIGNS, "c-d", campaign({ name: "Juice", status: "draft", budgetCents: 800, tags: [], sponsored: true }));
          await store.create<Campaign>(CAMPAIGNS, "c-e", campaign({ name: "Water", status: "archived", budgetCents: 12_000, tags: ["spring"], sponsored: true }));
          await store.create(WALLETS, "w-1", { teamId: "team-1", balanceCents: 1 }); // another collection
        });

        const ids = async (spec: QuerySpec) => (await store.query(CAMPAIGNS, spec)).items.map((d) => d.id);

        it("filters with ==, without orderBy returning documents by id", async () => {
          expect(await ids({ where: [["status", "==", "live"]] })).toEqual(["c-a", "c-c"]);
          expect(await ids({ where: [["status", "==", "nope"]] })).toEqual([]);
          expect(await ids({})).toEqual(["c-a", "c-b", "c-c", "c-d", "c-e"]);
          expect(await ids({ where: [["settings.bidCents", "==", 45]] })).toHaveLength(5);
        });

        it("filters on booleans", async () => {
          expect(await ids({ where: [["sponsored", "==", true]] })).toEqual(["c-a", "c-d", "c-e"]);
          expect(await ids({ where: [["sponsored", "==", false]] })).toEqual(["c-b", "c-c"]);
        });

        it("filters with array-contains", async () => {
          expect(await ids({ where: [["tags", "array-contains", "spring"]] })).toEqual(["c-a", "c-c", "c-e"]);
          expect(await ids({ where: [["tags", "array-contains", "tea"]] })).toEqual(["c-b"]);
          expect(
            await ids({ where: [["tags", "array-contains", "spring"], ["sponsored", "==", true]] }),
          ).toEqual(["c-a", "c-e"]);
        });

        it("filters with in, an empty list matching nothing", async () => {
          expect(await ids({ where: [["status", "in", ["paused", "draft"]]] })).toEqual(["c-b", "c-d"]);
          expect(await ids({ where: [["status", "in", []]] })).toEqual([]);
          expect(await store.count(CAMPAIGNS, [["status", "in", []]])).toBe(0);
        });

        it("filters with ranges, ordered by the range field", async () => {
          // Without orderBy a range filter's field is the order (Firestore's rule), ties by id.
          expect(await ids({ where: [["budgetCents", ">=", 12_000]] })).toEqual(["c-b", "c-e", "c-c"]);
          expect(await ids({ where: [["budgetCents", ">", 12_000]] })).toEqual(["c-c"]);
          expect(await ids({ where: [["budgetCents", "<", 5_000]] })).toEqual(["c-d"]);
          expect(
            await ids({
              where: [["budgetCents", ">=", 5_000], ["budgetCents", "<=", 12_000], ["sponsored", "==", true]],
              orderBy: { field: "budgetCents", direction: "desc" },
            }),
          ).toEqual(["c-e", "c-a"]);
          const { ids: paged } = await allPages(store, CAMPAIGNS, { where: [["budgetCents", ">", 1_000]], limit: 1 });
          expect(paged).toEqual(["c-a", "c-b", "c-e", "c-c"]);
          expect(await store.count(CAMPAIGNS, [["budgetCents", ">=", 5_000], ["budgetCents", "<", 20_000]])).toBe(3);
        });

        it("refuses a range filter on another field than the order, on both adapters alike", async () => {
          await expect(
            store.query(CAMPAIGNS, { where: [["budgetCents", ">", 0]], orderBy: { field: "name" } }),
          ).rejects.toBeInstanceOf(RangeError);
          await expect(
            store.query(CAMPAIGNS, { where: [["budgetCents", ">", 0], ["priority", "<", 3]] }),
          ).rejects.toBeInstanceOf(RangeError);
        });

        it("counts, with and without filters", async () => {
          expect(await store.count(CAMPAIGNS)).toBe(5);
          expect(await store.count(CAMPAIGNS, [["status", "==", "live"]])).toBe(2);
          expect(await store.count(CAMPAIGNS, [["tags", "array-contains", "spring"], ["sponsored", "==", true]])).toBe(2);
          expect(await store.count(WALLETS)).toBe(1);
          expect(await store.count("empty_collection")).toBe(0);
        });
      });

      describe("ordering and cursor pagination", () => {
        // 23 documents, priorities 0..4 with many ties, inserted in shuffled order; 2 lack the field.
        const docs = Array.from({ length: 23 }, (_, i) => ({
          id: `p-${String((i * 7) % 23).padStart(2, "0")}`,
          priority: ((i * 7) % 23) % 5,
        }));

        beforeEach(async () => {
          for (const d of docs) {
            await store.create<Campaign>(CAMPAIGNS, d.id, campaign({ name: `Campaign ${d.id}`, priority: d.priority, sponsored: d.priority % 2 === 0 }));
          }
          await store.create<Campaign>(CAMPAIGNS, "p-none-1", campaign({ name: "Unranked 1" }));
          await store.create<Campaign>(CAMPAIGNS, "p-none-2", campaign({ name: "Unranked 2" }));
        });

        const expected = (direction: "asc" | "desc", filter: (d: (typeof docs)[number]) => boolean = () => true) => {
          const sorted = docs
            .filter(filter)
            .slice()
            .sort((a, b) => a.priority - b.priority || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
            .map((d) => d.id);
          return direction === "asc" ? sorted : sorted.reverse();
        };

        it("orders ascending with ties broken by id, across several pages, leaving out documents lacking the field", async () => {
          const { ids, pages } = await allPages<Campaign>(store, CAMPAIGNS, { orderBy: { field: "priority" }, limit: 4 });
          expect(ids).toEqual(expected("asc"));
          expect(pages).toBe(6);
        });

        it("orders descending with ties broken by id, across several pages", async () => {
          const { ids, pages } = await allPages<Campaign>(store, CAMPAIGNS, {
            orderBy: { field: "priority", direction: "desc" },
            limit: 5,
          });
          expect(ids).toEqual(expected("desc"));
          expect(pages).toBe(5);
        });

        it("paginates a filtered, ordered query", async () => {
          const { ids } = await allPages<Campaign>(store, CAMPAIGNS, {
            where: [["sponsored", "==", true]],
            orderBy: { field: "priority", direction: "desc" },
            limit: 3,
          });
          expect(ids).toEqual(expected("desc", (d) => d.priority % 2 === 0));
        });

        it("returns next only when another page exists", async () => {
          const first = await store.query<Campaign>(CAMPAIGNS, { orderBy: { field: "priority" }, limit: 23 });
          expect(first.items).toHaveLength(23);
          expect(first.next).toBeNull();
          const short = await store.query<Campaign>(CAMPAIGNS, { orderBy: { field: "priority" }, limit: 22 });
          expect(short.next).not.toBeNull();
          const rest = await store.query<Campaign>(CAMPAIGNS, { orderBy: { field: "priority" }, limit: 22, after: short.next });
          expect(rest.items.map((d) => d.id)).toEqual([expected("asc")[22]]);
          expect(rest.next).toBeNull();
        });

        it("paginates by id without orderBy", async () => {
          const { ids } = await allPages<Campaign>(store, CAMPAIGNS, { limit: 6 });
          const all = [...docs.map((d) => d.id), "p-none-1", "p-none-2"].sort();
          expect(ids).toEqual(all);
        });

        it("rejects a malformed cursor", async () => {
          await expect(store.query(CAMPAIGNS, { orderBy: { field: "priority" }, after: "not-a-cursor" })).rejects.toThrow();
        });
      });

      describe("transactions", () => {
        it("reads, then writes atomically and returns fn's result", async () => {
          await store.create<Wallet>(WALLETS, "w-1", { teamId: "team-1", balanceCents: 10_000 });
          const result = await store.transaction(async (tx) => {
            const wallet = await tx.get<Wallet>(WALLETS, "w-1");
            tx.update<Wallet>(WALLETS, "w-1", { balanceCents: wallet!.balanceCents - 2_500 }, { expectVersion: wallet!.version });
            tx.create(CAMPAIGNS, "c-1", campaign({ budgetCents: 2_500 }));
            tx.set(CAMPAIGNS, "c-2", campaign({ name: "Set inside" }));
            return "done";
          });
          expect(result).toBe("done");
          expect(await store.get<Wallet>(WALLETS, "w-1")).toMatchObject({ balanceCents: 7_500, version: 2 });
          expect(await store.get(CAMPAIGNS, "c-1")).toMatchObject({ budgetCents: 2_500, version: 1 });
          expect(await store.get(CAMPAIGNS, "c-2")).toMatchObject({ name: "Set inside", version: 1 });
        });

        it("writes nothing when fn throws", async () => {
          await store.create<Wallet>(WALLETS, "w-1", { teamId: "team-1", balanceCents: 10_000 });
          const boom = new Error("card declined");
          await expect(
            store.transaction(async (tx) => {
              const wallet = await tx.get<Wallet>(WALLETS, "w-1");
              tx.update<Wallet>(WALLETS, "w-1", { balanceCents: wallet!.balanceCents - 2_500 });
              tx.create(CAMPAIGNS, "c-1", campaign());
              throw boom;
            }),
          ).rejects.toBe(boom);
          expect(await store.get<Wallet>(WALLETS, "w-1")).toMatchObject({ balanceCents: 10_000, version: 1 });
          expect(await store.get(CAMPAIGNS, "c-1")).toBeNull();
        });

        it("writes nothing when one of its writes fails, and does not retry our errors", async () => {
          await store.create<Wallet>(WALLETS, "w-1", { teamId: "team-1", balanceCents: 10_000 });
          await store.create(CAMPAIGNS, "c-taken", campaign());
          let calls = 0;
          await expect(
            store.transaction(async (tx) => {
              calls += 1;
              tx.update<Wallet>(WALLETS, "w-1", { balanceCents: 0 });
              tx.create(CAMPAIGNS, "c-taken", campaign({ name: "Duplicate" }));
            }),
          ).rejects.toBeInstanceOf(AlreadyExistsError);
          expect(calls).toBe(1);
          expect(await store.get<Wallet>(WALLETS, "w-1")).toMatchObject({ balanceCents: 10_000, version: 1 });

          calls = 0;
          await expect(
            store.transaction(async (tx) => {
              calls += 1;
              tx.create(CAMPAIGNS, "c-new", campaign());
              tx.update<Wallet>(WALLETS, "w-1", { balanceCents: 0 }, { expectVersion: 7 });
            }),
          ).rejects.toBeInstanceOf(ConflictError);
          expect(calls).toBe(1);
          expect(await store.get(CAMPAIGNS, "c-new")).toBeNull();

          await expect(
            store.transaction(async (tx) => {
              tx.update<Wallet>(WALLETS, "w-missing", { balanceCents: 0 });
            }),
          ).rejects.toBeInstanceOf(NotFoundError);
          expect(await store.get(WALLETS, "w-missing")).toBeNull();
        });

        it("applies several writes to one document in order", async () => {
          await store.transaction(async (tx) => {
            tx.create<Wallet>(WALLETS, "w-1", { teamId: "team-1", balanceCents: 100 });
            tx.update<Wallet>(WALLETS, "w-1", { balanceCents: fieldOps.increment(50) });
          });
          expect(await store.get<Wallet>(WALLETS, "w-1")).toMatchObject({ balanceCents: 150, version: 2 });
          await store.transaction(async (tx) => {
            tx.delete(WALLETS, "w-1");
          });
          expect(await store.get(WALLETS, "w-1")).toBeNull();
        });

        it("refuses a read after a write", async () => {
          await expect(
            store.transaction(async (tx) => {
              tx.create(CAMPAIGNS, "c-1", campaign());
              await tx.get(CAMPAIGNS, "c-2");
            }),
          ).rejects.toThrow(/read before/);
          expect(await store.get(CAMPAIGNS, "c-1")).toBeNull();
        });

        it("loses no update under 50 concurrent read-then-update transactions", async () => {
          await store.create<Wallet>(WALLETS, "w-hot", { teamId: "team-1", balanceCents: 0 });
          const results = await Promise.allSettled(
            Array.from({ length: 50 }, () =>
              store.transaction(async (tx) => {
                const wallet = (await tx.get<Wallet>(WALLETS, "w-hot"))!;
                tx.update<Wallet>(WALLETS, "w-hot", { balanceCents: wallet.balanceCents + 1 });
                return wallet.balanceCents + 1;
              }),
            ),
          );
          const failures = results.filter((r) => r.status === "rejected");
          expect(failures.map((f) => String((f as PromiseRejectedResult).reason))).toEqual([]);
          const values = results.map((r) => (r as PromiseFulfilledResult<number>).value).sort((a, b) => a - b);
          expect(values).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
          expect(await store.get<Wallet>(WALLETS, "w-hot")).toMatchObject({ balanceCents: 50, version: 51 });
        }, 120_000);

        it("retries a transaction whose read was changed by a concurrent commit of another instance", async () => {
          // A second store on the same database stands for another server process.
          const other = await makeStore();
          try {
            await store.create<Wallet>(WALLETS, "w-1", { teamId: "team-1", balanceCents: 0 });
            let calls = 0;
            let firstReads = 0;
            let releaseBarrier!: () => void;
            const barrier = new Promise<void>((resolve) => (releaseBarrier = resolve));
            const add = (on: DocumentStore, cents: number) =>
              on.transaction(async (tx) => {
                calls += 1;
                const wallet = (await tx.get<Wallet>(WALLETS, "w-1"))!;
                firstReads += 1;
                // Both first attempts read version 1 before either writes: one must be retried.
                if (firstReads === 2) releaseBarrier();
                if (firstReads <= 2) await barrier;
                tx.update<Wallet>(WALLETS, "w-1", { balanceCents: wallet.balanceCents + cents });
                return wallet.version;
              });
            const versions = await Promise.all([add(store, 100), add(other, 10)]);
            expect(calls).toBeGreaterThanOrEqual(3);
            expect(versions.sort()).toEqual([1, 2]);
            expect(await store.get<Wallet>(WALLETS, "w-1")).toMatchObject({ balanceCents: 110, version: 3 });
            expect(await other.get<Wallet>(WALLETS, "w-1")).toMatchObject({ balanceCents: 110, version: 3 });
          } finally {
            await other.close();
          }
        }, 120_000);
      });
    });

    describe("Storage (repositories)", () => {
      let storage: Storage;

      beforeAll(() => {
        storage = createStorage(store);
      });

      const auditOf = async (entityId: string) =>
        (await storage.audit.list({ limit: 100 })).items.filter((e) => e.entityId === entityId);

      describe("users", () => {
        it("creates a user with derived fields and an audit entry without secrets", async () => {
          const data = makeUserData({ email: "Jeanne.Martin@Retailer.Example", roleByTeam: { "team-b": "VIEWER", "team-a": "ADMIN" } });
          const user = await storage.users.create(data, ADMIN, "u-jeanne");
          expect(user).toMatchObject({
            id: "u-jeanne",
            version: 1,
            email: "Jeanne.Martin@Retailer.Example",
            emailLower: "jeanne.martin@retailer.example",
            teamIds: ["team-a", "team-b"],
          });
          expect(Date.parse(user.created)).not.toBeNaN();
          expect(await storage.users.getOne("u-jeanne")).toEqual(user);

          const [entry] = await auditOf("u-jeanne");
          expect(entry).toMatchObject({ by: ADMIN.by, action: "create", entity: "user", teamId: null });
          const hash = entry.changes.find((c) => c.field === "passwordHash");
          expect(hash).toEqual({ field: "passwordHash", before: null, after: "[redacted]" });
          expect(JSON.stringify(entry)).not.toContain(data.passwordHash!);
        });

        it("refuses a second user with the same e-mail in another case", async () => {
          await storage.users.create(makeUserData({ email: "ops@retailer.example" }), ADMIN, "u-1");
          await expect(
            storage.users.create(makeUserData({ email: "  OPS@Retailer.EXAMPLE " }), ADMIN, "u-2"),
          ).rejects.toBeInstanceOf(AlreadyExistsError);
          expect(await storage.users.getOne("u-2")).toBeNull();
          expect(await store.count(COLLECTIONS.user)).toBe(1);
        });

        it("finds a user by e-mail whatever the case", async () => {
          await storage.users.create(makeUserData({ email: "Lea.Petit@retailer.example" }), ADMIN, "u-lea");
          await storage.users.create(makeUserData(), ADMIN, "u-other");
          expect((await storage.users.getByEmail(" LEA.PETIT@RETAILER.EXAMPLE "))?.id).toBe("u-lea");
          expect(await storage.users.getByEmail("nobody@retailer.example")).toBeNull();
        });

        it("audits an update with before and after, secrets redacted", async () => {
          await storage.users.create(makeUserData({ firstname: "Hugo", displayName: "Hugo B" }), ADMIN, "u-1");
          const updated = await storage.users.update(
            "u-1",
            { displayName: "Hugo Bernard", passwordHash: "$scrypt$new-secret-hash", roleByTeam: { "team-z": "ADMIN" } },
            ADMIN,
            { expectVersion: 1 },
          );
          expect(updated).toMatchObject({ version: 2, displayName: "Hugo Bernard", teamIds: ["team-z"] });
          expect(await storage.users.getOne("u-1")).toMatchObject({ version: 2, displayName: "Hugo Bernard", teamIds: ["team-z"] });

          const entry = (await auditOf("u-1")).find((e) => e.action === "update")!;
          expect(entry.by).toBe(ADMIN.by);
          expect(entry.changes).toEqual(
            expect.arrayContaining([
              { field: "displayName", before: "Hugo B", after: "Hugo Bernard" },
              { field: "passwordHash", before: "[redacted]", after: "[redacted]" },
              { field: "roleByTeam", before: { "team-brand-acme": "EDITOR" }, after: { "team-z": "ADMIN" } },
            ]),
          );
          expect(JSON.stringify(entry)).not.toContain("new-secret-hash");
        });

        it("refuses a stale update and changes nothing", async () => {
          await storage.users.create(makeUserData({ displayName: "Original" }), ADMIN, "u-1");
          await storage.users.update("u-1", { displayName: "First edit" }, ADMIN, { expectVersion: 1 });
          const auditBefore = (await auditOf("u-1")).length;
          await expect(
            storage.users.update("u-1", { displayName: "Stale edit" }, ADMIN, { expectVersion: 1 }),
          ).rejects.toBeInstanceOf(ConflictError);
          expect(await storage.users.getOne("u-1")).toMatchObject({ displayName: "First edit", version: 2 });
          expect(await auditOf("u-1")).toHaveLength(auditBefore);
          await expect(storage.users.update("u-ghost", { displayName: "x" }, ADMIN)).rejects.toBeInstanceOf(NotFoundError);
        });

        it("records a sign-in", async () => {
          await storage.users.create(makeUserData({ auth_providers: ["saml"] }), SYSTEM, "u-1");
          const now = new Date("2025-03-14T09:26:53.000Z");
          const user = await storage.users.recordSignIn("u-1", "password", now);
          expect(user).toMatchObject({
            version: 2,
            lastSignIn: now.toISOString(),
            last_auth: now.toISOString(),
            last_auth_method: "password",
            auth_providers: ["saml", "password"],
            disconnected: false,
          });
          const again = await storage.users.recordSignIn("u-1", "saml", now);
          expect(again.auth_providers).toEqual(["saml", "password"]);
          expect(await storage.users.getOne("u-1")).toEqual(again);
        });

        it("writes last_refresh_token as a server instant", async () => {
          await storage.users.create(makeUserData(), SYSTEM, "u-1");
          const before = Date.now();
          const user = await storage.users.touchRefreshToken("u-1");
          const after = Date.now();
          expectIsoNear(user.last_refresh_token, before, after);
          expect(user.version).toBe(2);
          expect((await storage.users.getOne("u-1"))?.last_refresh_token).toBe(user.last_refresh_token);
        });

        it("sets a password, keeping history and ending other sessions", async () => {
          await storage.users.create(makeUserData({ passwordHash: "hash-1" }), SYSTEM, "u-1");
          const once = await storage.users.setPassword("u-1", "hash-2", 2, { by: "u1@retailer.example" });
          expect(once).toMatchObject({ passwordHash: "hash-2", passwordHistory: ["hash-1"], sessionEpoch: 1, version: 2 });
          await storage.users.setPassword("u-1", "hash-3", 2, SYSTEM);
          const thrice = await storage.users.setPassword("u-1", "hash-4", 2, SYSTEM);
          expect(thrice).toMatchObject({ passwordHash: "hash-4", passwordHistory: ["hash-3", "hash-2"], sessionEpoch: 3 });
          expect(await storage.users.getOne("u-1")).toMatchObject({ passwordHistory: ["hash-3", "hash-2"], sessionEpoch: 3, version: 4 });
          const entries = (await auditOf("u-1")).filter((e) => e.action === "update");
          expect(entries).toHaveLength(3);
          expect(JSON.stringify(entries)).not.toMatch(/hash-[1-4]/);
        });
      });

      describe("live config", () => {
        it("is created with defaults on first read", async () => {
          const config = await storage.config.get();
          expect(config).toMatchObject({ id: "live", version: 1, appVersion: 622, maintenance: false, reloadLog: [] });
          expect(await storage.config.get()).toEqual(config);
        });

        it("audits an update and refuses a stale one", async () => {
          await storage.config.get();
          const updated = await storage.config.update({ maintenance: true }, ADMIN, { expectVersion: 1 });
          expect(updated).toMatchObject({ maintenance: true, version: 2, updatedBy: ADMIN.by });
          expect(await storage.config.get()).toMatchObject({ maintenance: true, version: 2, updatedBy: ADMIN.by });
          const [entry] = await auditOf("live");
          expect(entry).toMatchObject({ entity: "config", action: "update", by: ADMIN.by });
          expect(entry.changes).toContainEqual({ field: "maintenance", before: false, after: true });

          await expect(
            storage.config.update({ appVersion: 623 }, ADMIN, { expectVersion: 1 }),
          ).rejects.toBeInstanceOf(ConflictError);
          expect(await storage.config.get()).toMatchObject({ appVersion: 622, version: 2 });
          expect(await auditOf("live")).toHaveLength(1);
        });

        it("keeps the newest reload failures, capped", async () => {
          for (let i = 0; i < 53; i++) {
            await storage.config.logReloadFailure({ at: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(), from: 621, to: 622, userId: `u-${i}` });
          }
          const config = await storage.config.get();
          expect(config.reloadLog).toHaveLength(50);
          expect(config.reloadLog[0].userId).toBe("u-52");
          expect(config.reloadLog[49].userId).toBe("u-3");
        }, 60_000);
      });

      describe("password reset tokens", () => {
        const now = new Date("2025-06-01T10:00:00.000Z");
        const inOneHour = new Date("2025-06-01T11:00:00.000Z");

        it("are consumed once", async () => {
          const token = await storage.passwordResets.create("hash-abc", "u-1", inOneHour, now);
          expect(token).toMatchObject({ id: "hash-abc", userId: "u-1", usedAt: null, version: 1 });
          expect(await storage.passwordResets.peek("hash-abc", now)).toEqual({ ok: true, userId: "u-1" });
          expect(await storage.passwordResets.consume("hash-abc", now)).toEqual({ ok: true, userId: "u-1" });
          expect(await storage.passwordResets.consume("hash-abc", now)).toEqual({ ok: false, reason: "token.used" });
          expect(await storage.passwordResets.peek("hash-abc", now)).toEqual({ ok: false, reason: "token.used" });
        });

        it("expire, and unknown ones are invalid", async () => {
          await storage.passwordResets.create("hash-old", "u-1", inOneHour, now);
          expect(await storage.passwordResets.consume("hash-old", inOneHour)).toEqual({ ok: false, reason: "token.expired" });
          expect(await storage.passwordResets.consume("hash-unknown", now)).toEqual({ ok: false, reason: "token.invalid" });
          expect(await storage.passwordResets.peek("hash-unknown", now)).toEqual({ ok: false, reason: "token.invalid" });
        });

        it("succeed exactly once under concurrent consumes", async () => {
          await storage.passwordResets.create("hash-race", "u-1", inOneHour, now);
          const results = await Promise.all(Array.from({ length: 8 }, () => storage.passwordResets.consume("hash-race", now)));
          expect(results.filter((r) => r.ok)).toHaveLength(1);
          expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === "token.used")).toBe(true);
        }, 60_000);
      });

      describe("login throttle", () => {
        it("accumulates failures, locks at the limit and clears", async () => {
          const key = "email:ops@retailer.example";
          const start = Date.parse("2025-06-01T10:00:00.000Z");
          for (let i = 1; i <= 4; i++) {
            const state = await storage.loginThrottle.recordFailure(key, new Date(start + i * 1_000), 5);
            expect(state.failures).toHaveLength(i);
            expect(state.lockedUntil).toBeNull();
          }
          const fifth = new Date(start + 5_000);
          const locked = await storage.loginThrottle.recordFailure(key, fifth, 5);
          expect(locked.lockedUntil).toBe(new Date(fifth.getTime() + 15 * 60_000).toISOString());
          expect(await storage.loginThrottle.get(key)).toMatchObject({ lockedUntil: locked.lockedUntil, version: 5 });
          expect(await storage.loginThrottle.get("email:other@retailer.example")).toBeNull();
          await storage.loginThrottle.clear(key);
          expect(await storage.loginThrottle.get(key)).toBeNull();
        });
      });

      describe("audit log", () => {
        it("lists newest first, filtered and paginated", async () => {
          const base = Date.parse("2025-05-01T08:00:00.000Z");
          const entry = (i: number, entity: string, teamId: string | null): Omit<AuditEntryData, "at"> => ({
            by: "editor@brand.example",
            action: "update",
            entity,
            entityId: `${entity}-${i}`,
            teamId,
            changes: [{ field: "status", before: "live", after: "paused" }],
          });
          for (let i = 0; i < 9; i++) {
            await storage.audit.append(entry(i, i % 3 === 0 ? "team" : "campaign", i % 2 === 0 ? "team-a" : "team-b"), new Date(base + i * 60_000));
          }
          // Two entries in the same instant: ties are broken by id, none lost across pages.
          await storage.audit.append(entry(9, "campaign", "team-a"), new Date(base + 8 * 60_000));

          const all = await allPages<AuditEntryData>(store, COLLECTIONS.audit, { orderBy: { field: "at", direction: "desc" }, limit: 3 });
          expect(all.ids).toHaveLength(10);

          const seen: string[] = [];
          let after: string | null = null;
          let at = Infinity;
          do {
            const page: Awaited<ReturnType<typeof storage.audit.list>> = await storage.audit.list({ entity: "campaign", limit: 2, after });
            for (const item of page.items) {
              expect(item.entity).toBe("campaign");
              expect(Date.parse(item.at)).toBeLessThanOrEqual(at);
              at = Date.parse(item.at);
              seen.push(item.entityId);
            }
            after = page.next;
          } while (after);
          expect(seen.slice(2)).toEqual(["campaign-7", "campaign-5", "campaign-4", "campaign-2", "campaign-1"]);
          expect(seen.slice(0, 2).sort()).toEqual(["campaign-8", "campaign-9"]);

          const teamA = await storage.audit.list({ teamId: "team-a", limit: 50 });
          expect(teamA.items.map((e) => e.entityId)).toEqual(
            expect.arrayContaining(["team-0", "campaign-2", "campaign-4", "team-6", "campaign-8", "campaign-9"]),
          );
          expect(teamA.items).toHaveLength(6);
          expect(teamA.next).toBeNull();

          const both = await storage.audit.list({ entity: "team", teamId: "team-b", limit: 50 });
          expect(both.items.map((e) => e.entityId)).toEqual(["team-3"]);
        });
      });

      describe("teams", () => {
        it("creates a team, audited, and reads it back", async () => {
          const team = await storage.teams.create(makeTeamData({ name: "  Maison Café  " }), ADMIN, "team-cafe");
          expect(team).toMatchObject({ id: "team-cafe", version: 1, name: "  Maison Café  ", nameLower: "maison café", status: "active" });
          expect(await storage.teams.getOne("team-cafe")).toEqual(team);
          expect(await storage.teams.getOne("team-missing")).toBeNull();
          const [entry] = await auditOf("team-cafe");
          expect(entry).toMatchObject({ entity: "team", action: "create", teamId: "team-cafe", by: ADMIN.by });
          await expect(storage.teams.create(makeTeamData(), ADMIN, "team-cafe")).rejects.toBeInstanceOf(AlreadyExistsError);
        });
      });
    });
  });
}
