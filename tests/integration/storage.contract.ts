/**
 * The storage contract: the same cases run against every DocumentStore adapter, at the adapter
 * level and through the repositories (createStorage). An adapter passes only if it behaves
 * exactly like the others.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AuditEntryData, EntryType, LedgerEntry, TeamData, WalletData } from "~/domain/types";
import type { Campaign as StoredCampaign, CampaignData } from "~/domain/campaigns/campaign";
import type { WalletCost } from "~/domain/metrics/events";
import {
  AlreadyExistsError,
  CATALOG_OPEN_TIMEOUT_MS,
  COLLECTIONS,
  ConflictError,
  fieldOps,
  NotFoundError,
  type DocumentStore,
  type EventBatchData,
  type LedgerListSpec,
  type PostEntryInput,
  type PostEntryResult,
  type QuerySpec,
  type Storage,
  type Stored,
  type TeamListSpec,
  type UserListSpec,
  type WalletInput,
} from "~/storage/port";
import { createStorage } from "~/storage/repos/index.server";
import {
  makeCampaignData,
  makeInvitationInput,
  makePosting,
  makeProductInput,
  makePublishedCampaign,
  makeTeamData,
  makeUserData,
  makeWalletInput,
  tokenHashOf,
} from "../factories";
import { runJobsContract } from "./jobs.contract";
import { runNotificationsContract } from "./notifications.contract";
import { runSamlContract } from "./saml.contract";
import { runReportsContract } from "./reports.contract";
import { runCatalogImportsContract } from "./catalog-imports.contract";

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
/** Pinned instants for ledger postings. */
const T0 = new Date("2025-06-02T09:00:00.000Z");
const T1 = new Date("2025-06-02T11:00:00.000Z");
const T2 = new Date("2025-06-02T14:00:00.000Z");
const T3 = new Date("2025-06-03T09:00:00.000Z");

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
        // Hundreds of ids (read in several round trips by an adapter) keep the order asked.
        const lots = [...Array.from({ length: 250 }, (_, i) => `c-none-${i}`), "c-coffee", ...Array.from({ length: 250 }, (_, i) => `c-gone-${i}`), "c-tea"];
        expect((await store.getMany(CAMPAIGNS, ["c-tea", ...lots])).map((d) => d.id)).toEqual(["c-tea", "c-coffee", "c-tea"]);
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
          // Counting up to a bound stops there.
          expect(await store.count(CAMPAIGNS, [], 3)).toBe(3);
          expect(await store.count(CAMPAIGNS, [["status", "==", "live"]], 10)).toBe(2);
          expect(await store.count(CAMPAIGNS, [], 0)).toBe(0);
        });

        it("lists the ids of the documents the filters select, in id order, with or without filters", async () => {
          expect(await store.ids(CAMPAIGNS, [["status", "==", "live"]])).toEqual(["c-a", "c-c"]);
          expect(await store.ids(CAMPAIGNS, [["tags", "array-contains", "spring"], ["sponsored", "==", true]])).toEqual(["c-a", "c-e"]);
          expect(await store.ids(CAMPAIGNS, [["status", "in", ["draft", "paused"]]])).toEqual(["c-b", "c-d"]);
          expect(await store.ids(CAMPAIGNS, [["status", "in", []]])).toEqual([]);
          expect(await store.ids(CAMPAIGNS, [["status", "==", "nope"]])).toEqual([]);
          expect(await store.ids(CAMPAIGNS)).toEqual(["c-a", "c-b", "c-c", "c-d", "c-e"]);
          expect(await store.ids("empty_collection")).toEqual([]);
          // More than query()'s default page (50): every id, as of the last write.
          await store.transaction(async (tx) => {
            for (let i = 0; i < 60; i++) tx.create(WALLETS, `w-many-${String(i).padStart(2, "0")}`, { teamId: "team-2", balanceCents: i });
          });
          const many = await store.ids(WALLETS, [["teamId", "==", "team-2"]]);
          expect(many).toEqual(Array.from({ length: 60 }, (_, i) => `w-many-${String(i).padStart(2, "0")}`));
          await store.update(WALLETS, "w-many-07", { teamId: "team-3" });
          expect(await store.ids(WALLETS, [["teamId", "==", "team-3"]])).toEqual(["w-many-07"]);
          expect(await store.ids(WALLETS, [["teamId", "==", "team-2"]])).toHaveLength(59);
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

      describe("jobs (scheduled work, ADR 21)", () => runJobsContract(() => storage, () => store, makeStore));

      describe("notifications (issue 11)", () => runNotificationsContract(() => storage));

      describe("single sign-on (issue 12, ADR 31)", () => runSamlContract(() => storage));
      describe("reports (issue 11)", () => runReportsContract(() => storage));
      describe("catalog imports (ADR 34)", () => runCatalogImportsContract(() => storage));

      describe("signing keys", () => {
        const HOUR = 3_600_000;
        const key = (kid: string, created: Date) => ({ kid, alg: "ES256" as const, privateJwk: { d: kid }, publicJwk: { kid }, created: created.toISOString() });

        it("adds the first key, keeps it while it is young, rotates when it is old, and drops keys past keeping", async () => {
          const t0 = new Date("2026-01-01T00:00:00Z");
          expect(await storage.signingKeys.list()).toEqual([]);
          expect((await storage.signingKeys.rotate(key("k1", t0), t0, 10 * HOUR, 30 * HOUR)).map((k) => k.kid)).toEqual(["k1"]);
          const young = new Date(t0.getTime() + 5 * HOUR);
          expect((await storage.signingKeys.rotate(key("k2", young), young, 10 * HOUR, 30 * HOUR)).map((k) => k.kid)).toEqual(["k1"]);
          const old = new Date(t0.getTime() + 11 * HOUR);
          expect((await storage.signingKeys.rotate(key("k3", old), old, 10 * HOUR, 30 * HOUR)).map((k) => k.kid)).toEqual(["k3", "k1"]);
          const past = new Date(t0.getTime() + 31 * HOUR);
          expect((await storage.signingKeys.rotate(key("k4", past), past, 10 * HOUR, 30 * HOUR)).map((k) => k.kid)).toEqual(["k4", "k3"]);
          expect((await storage.signingKeys.list())[0]).toEqual(key("k4", past));
        });

        it("lets one of two racing rotations win", async () => {
          const t0 = new Date("2027-01-01T00:00:00Z");
          const results = await Promise.all(["ra", "rb", "rc"].map((kid) => storage.signingKeys.rotate(key(kid, t0), t0, 10 * HOUR, 1000 * 24 * HOUR)));
          const winners = new Set(results.map((keys) => keys[0].kid));
          expect(winners.size).toBe(1);
          expect((await storage.signingKeys.list())[0].kid).toBe([...winners][0]);
        });
      });

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

        it("keeps an operator's second factor, redacted in the audit, and uses each recovery code once (issue 12)", async () => {
          await storage.users.create(makeUserData({ displayName: "Otto Two" }), ADMIN, "u-2fa");
          const enrolled = await storage.users.setSecondFactor("u-2fa", { totpSecret: "JBSWY3DPEHPK3PXP", recoveryCodeHashes: ["h1", "h2"] }, ADMIN);
          expect(enrolled).toMatchObject({ totpSecret: "JBSWY3DPEHPK3PXP", recoveryCodeHashes: ["h1", "h2"] });
          const entry = (await auditOf("u-2fa")).find((e) => e.action === "update")!;
          expect(entry.changes).toEqual(
            expect.arrayContaining([
              { field: "totpSecret", before: null, after: "[redacted]" },
              { field: "recoveryCodeHashes", before: null, after: "[redacted]" },
            ]),
          );
          expect(await storage.users.useRecoveryCode("u-2fa", "h1")).toBe(true);
          expect(await storage.users.useRecoveryCode("u-2fa", "h1")).toBe(false);
          expect(await storage.users.useRecoveryCode("u-2fa", "unknown")).toBe(false);
          expect(await storage.users.useRecoveryCode("u-missing", "h2")).toBe(false);
          expect((await storage.users.getOne("u-2fa"))!.recoveryCodeHashes).toEqual(["h2"]);
          const removed = await storage.users.setSecondFactor("u-2fa", null, ADMIN);
          expect(removed).toMatchObject({ totpSecret: null, recoveryCodeHashes: [] });
        });

        it("accepts a code's time step once, never an earlier one, and starts again with a new secret (ADR 30)", async () => {
          await storage.users.create(makeUserData({ displayName: "Otto Steps" }), ADMIN, "u-steps");
          await storage.users.setSecondFactor("u-steps", { totpSecret: "JBSWY3DPEHPK3PXP", recoveryCodeHashes: [], totpLastStep: 100 }, ADMIN);
          expect(await storage.users.useTotpStep("u-steps", 100)).toBe(false);
          expect(await storage.users.useTotpStep("u-steps", 99)).toBe(false);
          // Two sign-ins racing with the same code: one wins.
          const raced = await Promise.all([storage.users.useTotpStep("u-steps", 101), storage.users.useTotpStep("u-steps", 101)]);
          expect(raced.filter(Boolean)).toHaveLength(1);
          expect((await storage.users.getOne("u-steps"))!.totpLastStep).toBe(101);
          expect(await storage.users.useTotpStep("u-missing", 5)).toBe(false);
          // New recovery codes keep the last step; removing the factor forgets it.
          await storage.users.setSecondFactor("u-steps", { totpSecret: "JBSWY3DPEHPK3PXP", recoveryCodeHashes: ["h3"] }, ADMIN);
          expect((await storage.users.getOne("u-steps"))!.totpLastStep).toBe(101);
          await storage.users.setSecondFactor("u-steps", null, ADMIN);
          expect((await storage.users.getOne("u-steps"))!.totpLastStep).toBeNull();
        });

        it("names both identities on a change an operator made while logged as the user (issue 12)", async () => {
          await storage.users.create(makeUserData({ displayName: "Ida Logged" }), ADMIN, "u-as");
          await storage.users.update("u-as", { displayName: "Ida L." }, { by: "sam@brand.example", realBy: "olivia@ops.example" });
          const entry = (await auditOf("u-as")).find((e) => e.action === "update")!;
          expect(entry).toMatchObject({ by: "sam@brand.example", realBy: "olivia@ops.example" });
          // Without an operator behind it, an entry has no realBy at all.
          expect((await auditOf("u-as")).find((e) => e.action === "create")!.realBy).toBeUndefined();
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
          // Signing out marks the user document disconnected; an unknown user is ignored.
          await storage.users.recordSignOut("u-1");
          expect(await storage.users.getOne("u-1")).toMatchObject({ disconnected: true, last_auth_method: "saml", version: 4 });
          await storage.users.recordSignOut("u-missing");
          expect(await storage.users.getOne("u-missing")).toBeNull();
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

        it("lists users by e-mail, searching word prefixes of name and e-mail, filtered by type and status, in cursor pages", async () => {
          const people = [
            ["u-1", "Jeanne Martin", "jeanne.martin@retailer.example", "retailer", "active"],
            ["u-2", "Hugo Bernard", "hugo@brand.example", "supplier", "active"],
            ["u-3", "Zoé Lefèvre", "zoe.lefevre@brand.example", "supplier", "pending"],
            ["u-4", "Olivia Operator", "ops@platform.example", "operator", "active"],
            ["u-5", "Martin Dubois", "M.Dubois@retailer.example", "retailer", "pending"],
            ["u-6", "Léa Martinez", "lea@agency.example", "supplier", "active"],
          ] as const;
          for (const [id, displayName, email, type, status] of people) {
            await storage.users.create(makeUserData({ displayName, email, status, claims: { type, role: "VIEWER" } }), ADMIN, id);
          }
          const emails = async (spec: UserListSpec) => {
            const page = await storage.users.list({ limit: 50, ...spec });
            expect(page.next).toBeNull();
            return page.items.map((u) => u.emailLower);
          };
          async function pages(spec: UserListSpec): Promise<string[][]> {
            const out: string[][] = [];
            let after: string | null = null;
            do {
              const page: Awaited<ReturnType<typeof storage.users.list>> = await storage.users.list({ ...spec, after });
              out.push(page.items.map((u) => u.id));
              after = page.next;
              if (out.length > 20) throw new Error("pagination does not end");
            } while (after);
            return out;
          }

          expect(await emails({})).toEqual([
            "hugo@brand.example",
            "jeanne.martin@retailer.example",
            "lea@agency.example",
            "m.dubois@retailer.example",
            "ops@platform.example",
            "zoe.lefevre@brand.example",
          ]);
          const martins = ["jeanne.martin@retailer.example", "lea@agency.example", "m.dubois@retailer.example"];
          expect(await emails({ search: "martin" })).toEqual(martins);
          expect(await emails({ search: " MARTÍN " })).toEqual(martins);
          expect(await emails({ search: "martin jea" })).toEqual(["jeanne.martin@retailer.example"]);
          expect(await emails({ search: "lefe" })).toEqual(["zoe.lefevre@brand.example"]);
          expect(await emails({ search: "zoé lef" })).toEqual(["zoe.lefevre@brand.example"]);
          expect(await emails({ search: "hugo@brand" })).toEqual(["hugo@brand.example"]);
          expect(await emails({ search: "retailer" })).toEqual(["jeanne.martin@retailer.example", "m.dubois@retailer.example"]);
          expect(await emails({ search: "artin" })).toEqual([]);
          expect(await emails({ type: "supplier" })).toEqual(["hugo@brand.example", "lea@agency.example", "zoe.lefevre@brand.example"]);
          expect(await emails({ types: ["retailer", "supplier"] })).not.toContain("ops@platform.example");
          expect(await emails({ types: ["retailer", "supplier"] })).toHaveLength(5);
          expect(await emails({ types: ["operator"] })).toEqual(["ops@platform.example"]);
          expect(await emails({ status: "pending" })).toEqual(["m.dubois@retailer.example", "zoe.lefevre@brand.example"]);
          expect(await emails({ search: "martin", types: ["supplier"], status: "active" })).toEqual(["lea@agency.example"]);
          expect(await emails({ search: "martin", type: "retailer" })).toEqual(["jeanne.martin@retailer.example", "m.dubois@retailer.example"]);

          expect(await pages({ limit: 2 })).toEqual([["u-2", "u-1"], ["u-6", "u-5"], ["u-4", "u-3"]]);
          expect(await pages({ search: "martin", limit: 1 })).toEqual([["u-1"], ["u-6"], ["u-5"]]);
          expect(await pages({ types: ["retailer", "supplier"], status: "active", limit: 2 })).toEqual([["u-2", "u-1"], ["u-6"]]);
        });

        it("lists a team's members by e-mail, following role changes", async () => {
          await storage.users.create(makeUserData({ email: "b.member@brand.example", roleByTeam: { "team-a": "VIEWER" } }), ADMIN, "u-b");
          await storage.users.create(makeUserData({ email: "a.member@brand.example", roleByTeam: { "team-a": "ADMIN", "team-b": "EDITOR" } }), ADMIN, "u-a");
          await storage.users.create(makeUserData({ email: "c.member@brand.example", roleByTeam: { "team-b": "VIEWER" } }), ADMIN, "u-c");
          const members = async (teamId: string) => (await storage.users.listByTeam(teamId)).map((u) => u.id);
          expect(await members("team-a")).toEqual(["u-a", "u-b"]);
          expect(await members("team-b")).toEqual(["u-a", "u-c"]);
          expect(await members("team-z")).toEqual([]);
          await storage.users.update("u-a", { roleByTeam: { "team-b": "EDITOR" } }, ADMIN);
          expect(await members("team-a")).toEqual(["u-b"]);
          expect(await members("team-b")).toEqual(["u-a", "u-c"]);
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

        it("are told apart by peek: usable (with the epoch they were made at), expired, unknown", async () => {
          const token = await storage.passwordResets.create("hash-abc", "u-1", inOneHour, now);
          expect(token).toMatchObject({ id: "hash-abc", userId: "u-1", usedAt: null, version: 1 });
          expect(await storage.passwordResets.peek("hash-abc", now)).toEqual({ ok: true, userId: "u-1" });
          await storage.passwordResets.create("hash-epoch", "u-1", inOneHour, now, 3);
          expect(await storage.passwordResets.peek("hash-epoch", now)).toEqual({ ok: true, userId: "u-1", passwordEpoch: 3 });
          expect(await storage.passwordResets.peek("hash-abc", inOneHour)).toEqual({ ok: false, reason: "token.expired" });
          expect(await storage.passwordResets.peek("hash-unknown", now)).toEqual({ ok: false, reason: "token.invalid" });
        });
      });

      describe("password set through a reset link (one transaction with the link and the password epoch)", () => {
        const now = new Date("2025-06-01T10:00:00.000Z");
        const inOneHour = new Date("2025-06-01T11:00:00.000Z");
        const link = (tokenHash: string, expectEpoch = 0) => ({ tokenHash, now, expectEpoch });

        it("sets the password, uses the link and moves the epoch; a used, expired, unknown or disabled user's link writes nothing", async () => {
          await storage.users.create(makeUserData({ email: "reset@retailer.example", passwordHash: "hash-old" }), ADMIN, "u-reset");
          await storage.passwordResets.create("hash-link", "u-reset", inOneHour, now, 0);
          const set = await storage.users.resetPassword("u-reset", "hash-new", 2, SYSTEM, link("hash-link"));
          expect(set.ok && set.user).toMatchObject({ passwordHash: "hash-new", passwordHistory: ["hash-old"], sessionEpoch: 1 });
          expect(await storage.passwordResets.peek("hash-link", now)).toEqual({ ok: false, reason: "token.used" });
          expect(await storage.users.resetPassword("u-reset", "hash-x", 2, SYSTEM, link("hash-link", 1))).toEqual({ ok: false, reason: "token.used" });
          expect(await storage.users.resetPassword("u-reset", "hash-x", 2, SYSTEM, link("hash-none", 1))).toEqual({ ok: false, reason: "token.invalid" });
          await storage.passwordResets.create("hash-late", "u-reset", now, now, 1);
          expect(await storage.users.resetPassword("u-reset", "hash-x", 2, SYSTEM, link("hash-late", 1))).toEqual({ ok: false, reason: "token.expired" });
          // Another user's link does not set this user's password.
          await storage.passwordResets.create("hash-other", "u-other", inOneHour, now, 1);
          expect(await storage.users.resetPassword("u-reset", "hash-x", 2, SYSTEM, link("hash-other", 1))).toEqual({ ok: false, reason: "token.invalid" });
          await storage.passwordResets.create("hash-off", "u-reset", inOneHour, now, 1);
          await storage.users.update("u-reset", { disabled: true }, ADMIN);
          expect(await storage.users.resetPassword("u-reset", "hash-x", 2, SYSTEM, link("hash-off", 1))).toEqual({ ok: false, reason: "token.invalid" });
          expect(await storage.passwordResets.peek("hash-off", now)).toMatchObject({ ok: true });
          expect((await storage.users.getOne("u-reset"))!.passwordHash).toBe("hash-new");
        });

        it("refuses a link sent at another epoch (or, without one, checked at another) as superseded", async () => {
          await storage.users.create(makeUserData({ email: "epoch@retailer.example", passwordHash: "hash-old" }), ADMIN, "u-epoch");
          await storage.users.setPassword("u-epoch", "hash-profile", 2, SYSTEM);
          await storage.passwordResets.create("hash-before", "u-epoch", inOneHour, now, 0);
          expect(await storage.users.resetPassword("u-epoch", "hash-x", 2, SYSTEM, link("hash-before", 1))).toEqual({ ok: false, reason: "token.superseded" });
          await storage.passwordResets.create("hash-legacy", "u-epoch", inOneHour, now);
          expect(await storage.users.resetPassword("u-epoch", "hash-x", 2, SYSTEM, link("hash-legacy", 0))).toEqual({ ok: false, reason: "token.superseded" });
          expect(await storage.passwordResets.peek("hash-legacy", now)).toEqual({ ok: true, userId: "u-epoch" });
          expect((await storage.users.getOne("u-epoch"))!.passwordHash).toBe("hash-profile");
        });

        it("of links of one user used at the same instant, exactly one sets the password", async () => {
          await storage.users.create(makeUserData({ email: "race@retailer.example", passwordHash: "hash-old" }), ADMIN, "u-race");
          const hashes = Array.from({ length: 6 }, (_, i) => `hash-race-${i}`);
          for (const h of hashes) await storage.passwordResets.create(h, "u-race", inOneHour, now, 0);
          const results = await Promise.all(hashes.map((h, i) => storage.users.resetPassword("u-race", `hash-new-${i}`, 2, SYSTEM, link(h))));
          const won = results.flatMap((r, i) => (r.ok ? [i] : []));
          expect(won).toHaveLength(1);
          expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === "token.superseded")).toBe(true);
          const user = (await storage.users.getOne("u-race"))!;
          expect(user).toMatchObject({ passwordHash: `hash-new-${won[0]}`, sessionEpoch: 1, passwordHistory: ["hash-old"] });
        }, 60_000);
      });

      describe("sessions", () => {
        const now = new Date("2025-06-01T10:00:00.000Z");
        const later = (minutes: number) => new Date(now.getTime() + minutes * 60_000);

        it("are stored, read, updated and deleted by id; an expired one reads as none", async () => {
          await storage.sessions.create("sid-1", { userId: "u-1", epoch: 0 }, later(60), now);
          expect(await storage.sessions.get("sid-1", now)).toMatchObject({ userId: "u-1", data: { userId: "u-1", epoch: 0 } });
          expect(await storage.sessions.get("sid-unknown", now)).toBeNull();
          expect(await storage.sessions.update("sid-1", { userId: "u-1", epoch: 1 }, later(120))).toBe(true);
          expect((await storage.sessions.get("sid-1", later(90)))?.data).toEqual({ userId: "u-1", epoch: 1 });
          expect(await storage.sessions.get("sid-1", later(120))).toBeNull();
          // Reading it expired removed it: an update does not bring it back.
          expect(await storage.sessions.update("sid-1", { userId: "u-1" }, later(240))).toBe(false);
          expect(await storage.sessions.get("sid-1", now)).toBeNull();

          await storage.sessions.create("sid-2", { userId: "u-1" }, later(60), now);
          await storage.sessions.delete("sid-2");
          await storage.sessions.delete("sid-2");
          expect(await storage.sessions.get("sid-2", now)).toBeNull();
        });

        it("keep the operators' session facts ('Log as', step-down) as written (issue 12)", async () => {
          const data = { userId: "u-op", epoch: 0, loggedAs: "u-1", loggedAsType: "supplier", loggedAsRole: "ADMIN", loggedAsEpoch: 2 };
          await storage.sessions.create("sid-as", data, later(60), now);
          expect((await storage.sessions.get("sid-as", now))?.data).toEqual(data);
          expect(await storage.sessions.update("sid-as", { userId: "u-op", epoch: 0, steppedDown: "VIEWER" }, later(60))).toBe(true);
          expect((await storage.sessions.get("sid-as", now))?.data).toEqual({ userId: "u-op", epoch: 0, steppedDown: "VIEWER" });
        });

        it("end all of a user's sessions at once, and expired ones are swept", async () => {
          for (const id of ["a", "b", "c"]) await storage.sessions.create(`sid-${id}`, { userId: "u-1" }, later(60), now);
          await storage.sessions.create("sid-other", { userId: "u-2" }, later(60), now);
          await storage.sessions.create("sid-old", { userId: "u-3" }, later(-1), later(-60));
          expect(await storage.sessions.deleteForUser("u-1")).toBe(3);
          expect(await storage.sessions.get("sid-a", now)).toBeNull();
          expect(await storage.sessions.get("sid-other", now)).not.toBeNull();
          expect(await storage.sessions.deleteExpired(now)).toBe(1);
          expect(await storage.sessions.deleteExpired(now)).toBe(0);
          expect(await storage.sessions.get("sid-other", now)).not.toBeNull();
        });
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
          expect(team).toMatchObject({ id: "team-cafe", version: 1, name: "  Maison Café  ", nameLower: "maison cafe", status: "active" });
          expect(await storage.teams.getOne("team-cafe")).toEqual(team);
          expect(await storage.teams.getOne("team-missing")).toBeNull();
          const [entry] = await auditOf("team-cafe");
          expect(entry).toMatchObject({ entity: "team", action: "create", teamId: "team-cafe", by: ADMIN.by });
          await expect(storage.teams.create(makeTeamData(), ADMIN, "team-cafe")).rejects.toBeInstanceOf(AlreadyExistsError);
        });

        it("refuses a name taken in another case, accents or spacing, and lets one of five racing creates through", async () => {
          await storage.teams.create(makeTeamData({ name: "Maison Café" }), ADMIN, "team-1");
          for (const name of ["MAISON CAFÉ", "maison cafe", "  Maison   Cafe "]) {
            await expect(storage.teams.create(makeTeamData({ name }), ADMIN)).rejects.toBeInstanceOf(AlreadyExistsError);
          }
          expect((await storage.teams.getOne("team-1"))?.version).toBe(1);

          const names = ["Nordic Coffee", "NORDIC COFFEE", "nordic coffee", "Nordic  Coffee", "Nordic Coffée"];
          const raced = await Promise.allSettled(
            names.map((name, i) => storage.teams.create(makeTeamData({ name }), ADMIN, `team-race-${i}`)),
          );
          expect(raced.filter((r) => r.status === "fulfilled")).toHaveLength(1);
          const refused = raced.filter((r): r is PromiseRejectedResult => r.status === "rejected");
          expect(refused).toHaveLength(4);
          for (const r of refused) expect(r.reason).toBeInstanceOf(AlreadyExistsError);

          expect(await store.count(COLLECTIONS.team)).toBe(2);
          expect(await store.count(COLLECTIONS.teamName)).toBe(2);
          expect((await storage.audit.list({ entity: "team", limit: 50 })).items).toHaveLength(2);
        }, 60_000);

        it("renames keeping names unique, audited, freeing the old name; refuses stale and missing teams", async () => {
          await storage.teams.create(makeTeamData({ name: "Alpha Foods" }), ADMIN, "team-a");
          await storage.teams.create(makeTeamData({ name: "Beta Drinks" }), ADMIN, "team-b");
          await expect(storage.teams.update("team-b", { name: "ALPHA  foods" }, ADMIN)).rejects.toBeInstanceOf(AlreadyExistsError);
          expect(await storage.teams.getOne("team-b")).toMatchObject({ name: "Beta Drinks", version: 1 });

          const renamed = await storage.teams.update("team-a", { name: "Alpha Foods Europe", city: "Lyon" }, ADMIN, { expectVersion: 1 });
          expect(renamed).toMatchObject({ id: "team-a", version: 2, name: "Alpha Foods Europe", nameLower: "alpha foods europe", city: "Lyon" });
          expect(renamed.searchTokens).toContain("europe");
          expect(await storage.teams.getOne("team-a")).toEqual(renamed);
          const update = (await auditOf("team-a")).find((e) => e.action === "update")!;
          expect(update).toMatchObject({ entity: "team", teamId: "team-a", by: ADMIN.by });
          expect(update.changes).toEqual(
            expect.arrayContaining([
              { field: "name", before: "Alpha Foods", after: "Alpha Foods Europe" },
              { field: "city", before: "", after: "Lyon" },
            ]),
          );
          expect(update.changes.map((c) => c.field)).not.toEqual(expect.arrayContaining(["nameLower"]));
          expect(update.changes.map((c) => c.field)).not.toEqual(expect.arrayContaining(["searchTokens"]));

          // The old name is free again; the new one is taken.
          await storage.teams.create(makeTeamData({ name: "alpha foods" }), ADMIN, "team-c");
          await expect(storage.teams.create(makeTeamData({ name: "Alpha Foods EUROPE" }), ADMIN)).rejects.toBeInstanceOf(AlreadyExistsError);
          // A change of case keeps the team's own name.
          expect(await storage.teams.update("team-a", { name: "ALPHA FOODS EUROPE" }, ADMIN)).toMatchObject({ name: "ALPHA FOODS EUROPE", version: 3 });
          expect(await store.count(COLLECTIONS.teamName)).toBe(3);

          await expect(storage.teams.update("team-a", { city: "Paris" }, ADMIN, { expectVersion: 2 })).rejects.toBeInstanceOf(ConflictError);
          await expect(storage.teams.update("team-ghost", { city: "Paris" }, ADMIN)).rejects.toBeInstanceOf(NotFoundError);
          expect(await storage.teams.getOne("team-a")).toMatchObject({ city: "Lyon", version: 3 });
          expect(await storage.teams.getOne("team-ghost")).toBeNull();
        });

        it("keeps the campaign counters: live count and pending-review list, unaudited, nothing for a missing team", async () => {
          const team = await storage.teams.create(makeTeamData({ name: "Counter Foods" }), ADMIN, "team-counters");
          await storage.teams.updateCampaignCounters(team.id, { liveCampaigns: 3, pendingReview: { add: "c-1" } });
          await storage.teams.updateCampaignCounters(team.id, { pendingReview: { add: "c-2" } });
          await storage.teams.updateCampaignCounters(team.id, { pendingReview: { add: "c-1" } });
          expect(await storage.teams.getOne(team.id)).toMatchObject({ liveCampaigns: 3, pending_review_campaigns: ["c-1", "c-2"] });
          await storage.teams.updateCampaignCounters(team.id, { liveCampaigns: 2, pendingReview: { remove: "c-1" } });
          const after = await storage.teams.getOne(team.id);
          expect(after).toMatchObject({ liveCampaigns: 2, pending_review_campaigns: ["c-2"], version: 4 });
          // Nothing to change: no write.
          await storage.teams.updateCampaignCounters(team.id, { liveCampaigns: 2, pendingReview: { remove: "c-9" } });
          expect((await storage.teams.getOne(team.id))?.version).toBe(4);
          expect((await auditOf(team.id)).map((e) => e.action)).toEqual(["create"]);
          await expect(storage.teams.updateCampaignCounters("team-ghost", { liveCampaigns: 1 })).resolves.toBeUndefined();
          expect(await storage.teams.getOne("team-ghost")).toBeNull();
        });

        describe("list", () => {
          // Created in id order, so that name order, creation order and balance order all differ.
          const FIXTURE = [
            { id: "t-1", name: "Beta Shop", status: "active", account_type: "marketplace_seller", tags: [], balance: 12_000 },
            { id: "t-2", name: "Old Acme", status: "archived", account_type: "brand", tags: ["food"], balance: -300 },
            { id: "t-3", name: "Café Crème", status: "active", account_type: "brand", tags: ["drinks"], balance: 5_000 },
            { id: "t-4", name: "Acme Brand", status: "active", account_type: "brand", tags: ["food"], balance: 5_000 },
            { id: "t-5", name: "Zeta Market", status: "archived", account_type: "marketplace_seller", tags: [], balance: 0 },
            { id: "t-6", name: "Acme Outlet", status: "suspended", account_type: "marketplace_seller", tags: ["food", "outlet"], balance: 0 },
          ] as const;

          beforeEach(async () => {
            for (const { id, balance, tags, ...input } of FIXTURE) {
              await storage.teams.create(makeTeamData({ ...input, tags: [...tags] }), ADMIN, id);
              // The ledger keeps this derived copy; set here directly to sort on it.
              if (balance !== 0) await store.update(COLLECTIONS.team, id, { balance });
            }
          });

          const names = async (spec: TeamListSpec) => {
            const page = await storage.teams.list({ limit: 50, ...spec });
            expect(page.next).toBeNull();
            return page.items.map((t) => t.name);
          };

          async function pages(spec: TeamListSpec): Promise<{ ids: string[]; pages: number }> {
            const ids: string[] = [];
            let after: string | null = null;
            let count = 0;
            do {
              const page: Awaited<ReturnType<typeof storage.teams.list>> = await storage.teams.list({ ...spec, after });
              ids.push(...page.items.map((t) => t.id));
              after = page.next;
              count += 1;
              if (count > 20) throw new Error("pagination does not end");
            } while (after);
            return { ids, pages: count };
          }

          it("filters by status (a retailer's view, an operator's archive), account type and tag, by name", async () => {
            expect(await names({})).toEqual(["Acme Brand", "Acme Outlet", "Beta Shop", "Café Crème", "Old Acme", "Zeta Market"]);
            expect(await names({ statuses: ["active", "suspended"] })).toEqual(["Acme Brand", "Acme Outlet", "Beta Shop", "Café Crème"]);
            expect(await names({ statuses: ["archived"] })).toEqual(["Old Acme", "Zeta Market"]);
            expect(await names({ statuses: ["active"] })).toEqual(["Acme Brand", "Beta Shop", "Café Crème"]);
            expect(await names({ accountType: "marketplace_seller" })).toEqual(["Acme Outlet", "Beta Shop", "Zeta Market"]);
            expect(await names({ accountType: "brand", statuses: ["active", "suspended"] })).toEqual(["Acme Brand", "Café Crème"]);
            expect(await names({ tag: "food" })).toEqual(["Acme Brand", "Acme Outlet", "Old Acme"]);
            expect(await names({ tag: "food", statuses: ["active", "suspended"] })).toEqual(["Acme Brand", "Acme Outlet"]);
            expect(await names({ tag: "no-such-tag" })).toEqual([]);
          });

          it("lists the ids of a status's teams, changed by the next archive or unarchive", async () => {
            expect(await storage.teams.idsWithStatus("archived")).toEqual(["t-2", "t-5"]);
            expect(await storage.teams.idsWithStatus("suspended")).toEqual(["t-6"]);
            await storage.teams.update("t-3", { status: "archived" }, ADMIN);
            await storage.teams.update("t-5", { status: "active" }, ADMIN);
            expect(await storage.teams.idsWithStatus("archived")).toEqual(["t-2", "t-3"]);
            expect(await storage.teams.idsWithStatus("active")).toEqual(["t-1", "t-4", "t-5"]);
          });

          it("searches word prefixes of the name, whatever the case and accents, with the other filters", async () => {
            expect(await names({ search: "acme" })).toEqual(["Acme Brand", "Acme Outlet", "Old Acme"]);
            expect(await names({ search: "AC" })).toEqual(["Acme Brand", "Acme Outlet", "Old Acme"]);
            expect(await names({ search: "acme out" })).toEqual(["Acme Outlet"]);
            expect(await names({ search: "outlet acme" })).toEqual(["Acme Outlet"]);
            expect(await names({ search: "creme" })).toEqual(["Café Crème"]);
            expect(await names({ search: "CAFÉ cr" })).toEqual(["Café Crème"]);
            expect(await names({ search: "cme" })).toEqual([]);
            expect(await names({ search: "acme", tag: "outlet" })).toEqual(["Acme Outlet"]);
            expect(await names({ search: "acme", tag: "food", statuses: ["active", "suspended"] })).toEqual(["Acme Brand", "Acme Outlet"]);
            expect(await names({ search: "acme", accountType: "brand" })).toEqual(["Acme Brand", "Old Acme"]);
            expect(await names({ search: "acme", direction: "desc" })).toEqual(["Old Acme", "Acme Outlet", "Acme Brand"]);
          });

          it("sorts by name, creation and balance both ways, ties by id, in cursor pages with none lost or repeated", async () => {
            const byName = ["t-4", "t-6", "t-1", "t-3", "t-2", "t-5"];
            expect(await pages({ limit: 2 })).toEqual({ ids: byName, pages: 3 });
            expect(await pages({ sort: "name", direction: "desc", limit: 4 })).toEqual({ ids: [...byName].reverse(), pages: 2 });
            expect((await pages({ sort: "created", limit: 5 })).ids).toEqual(["t-1", "t-2", "t-3", "t-4", "t-5", "t-6"]);
            expect((await pages({ sort: "created", direction: "desc", limit: 5 })).ids).toEqual(["t-6", "t-5", "t-4", "t-3", "t-2", "t-1"]);
            const byBalanceDesc = ["t-1", "t-4", "t-3", "t-6", "t-5", "t-2"];
            expect(await pages({ sort: "balance", direction: "desc", limit: 2 })).toEqual({ ids: byBalanceDesc, pages: 3 });
            expect((await pages({ sort: "balance", limit: 1 })).ids).toEqual([...byBalanceDesc].reverse());
            expect(await pages({ search: "acme", limit: 2 })).toEqual({ ids: ["t-4", "t-6", "t-2"], pages: 2 });
            expect(await pages({ statuses: ["active", "suspended"], sort: "balance", direction: "desc", limit: 3 })).toEqual({
              ids: ["t-1", "t-4", "t-3", "t-6"],
              pages: 2,
            });
          });
        });
      });

      describe("wallets", () => {
        it("creates wallets with no money yet, each counted on its team in the same transaction, audited", async () => {
          await storage.teams.create(makeTeamData(), ADMIN, "team-w");
          const wallet = await storage.wallets.create(
            "team-w",
            makeWalletInput({ label: "Search ads", dailyBudget: 5_000, tags: ["search"] }),
            ADMIN,
            "w-search",
          );
          expect(wallet).toMatchObject({
            id: "w-search",
            version: 1,
            teamId: "team-w",
            label: "Search ads",
            currency: "EUR",
            status: "active",
            dailyBudget: 5_000,
            tags: ["search"],
            debit: 0,
            credit: 0,
            balance: 0,
            balanceUpdated: null,
            firstDebitAt: null,
            entryCount: 0,
          });
          expect(await storage.wallets.getOne("w-search")).toEqual(wallet);
          await storage.wallets.create("team-w", makeWalletInput({ label: "Banners" }), ADMIN, "w-banners");
          expect(await storage.teams.getOne("team-w")).toMatchObject({ walletCount: 2, version: 3 });
          expect((await storage.wallets.listForTeam("team-w")).map((w) => w.id)).toEqual(["w-banners", "w-search"]);
          expect(await storage.wallets.listForTeam("team-other")).toEqual([]);

          const [entry] = await auditOf("w-search");
          expect(entry).toMatchObject({ action: "create", entity: "wallet", teamId: "team-w", by: ADMIN.by });
          expect(entry.changes).toContainEqual({ field: "label", before: null, after: "Search ads" });

          // Racing creations are all counted.
          await Promise.all(
            Array.from({ length: 5 }, (_, i) => storage.wallets.create("team-w", makeWalletInput({ label: `Race ${i}` }), ADMIN)),
          );
          expect((await storage.teams.getOne("team-w"))?.walletCount).toBe(7);

          // No team: no wallet, nothing counted.
          await expect(storage.wallets.create("team-ghost", makeWalletInput(), ADMIN, "w-orphan")).rejects.toBeInstanceOf(NotFoundError);
          expect(await storage.wallets.getOne("w-orphan")).toBeNull();
          expect(await store.count(COLLECTIONS.wallet)).toBe(7);
          expect(await storage.wallets.getOne("w-missing")).toBeNull();
        }, 60_000);

        it("updates form fields only, never the money, audited, and refuses a stale version", async () => {
          await storage.teams.create(makeTeamData(), ADMIN, "team-w");
          await storage.wallets.create("team-w", makeWalletInput({ label: "Search ads" }), ADMIN, "w-1");
          okOf(await storage.ledger.post(makePosting("w-1", { amount: 7_000 }), T0));
          const patch = { label: "Search ads 2025", dailyBudget: 2_000, balance: 1, credit: 999_999 } as Partial<WalletInput>;
          const updated = await storage.wallets.update("w-1", patch, ADMIN, { expectVersion: 2 });
          expect(updated).toMatchObject({ label: "Search ads 2025", dailyBudget: 2_000, credit: 7_000, debit: 0, balance: 7_000, version: 3 });
          expect(await storage.wallets.getOne("w-1")).toEqual(updated);
          const entry = (await auditOf("w-1")).find((e) => e.action === "update")!;
          expect(entry).toMatchObject({ entity: "wallet", teamId: "team-w", by: ADMIN.by });
          expect(entry.changes.map((c) => c.field).sort()).toEqual(["dailyBudget", "label"]);

          await expect(storage.wallets.update("w-1", { label: "Stale" }, ADMIN, { expectVersion: 2 })).rejects.toBeInstanceOf(ConflictError);
          await expect(storage.wallets.update("w-ghost", { label: "Ghost" }, ADMIN)).rejects.toBeInstanceOf(NotFoundError);
          expect(await storage.wallets.getOne("w-1")).toMatchObject({ label: "Search ads 2025", version: 3 });
          expect((await auditOf("w-1")).filter((e) => e.action === "update")).toHaveLength(1);
        });

        it("marks the version an edit produced; a posting raises the wallet's and team's versions but keeps their marks", async () => {
          await storage.teams.create(makeTeamData(), ADMIN, "team-m");
          await storage.wallets.create("team-m", makeWalletInput(), ADMIN, "w-m");
          const team = await storage.teams.update("team-m", { contact: "Edited" }, ADMIN);
          expect(team.settingsSavedAtVersion).toBe(team.version);
          const wallet = await storage.wallets.update("w-m", { label: "Edited" }, ADMIN, { expectVersion: 1 });
          expect(wallet).toMatchObject({ version: 2, settingsSavedAtVersion: 2 });
          okOf(await storage.ledger.post(makePosting("w-m", { amount: 500 }), T0));
          expect(await storage.wallets.getOne("w-m")).toMatchObject({ version: 3, settingsSavedAtVersion: 2, balance: 500 });
          const teamAfter = (await storage.teams.getOne("team-m"))!;
          expect(teamAfter.version).toBeGreaterThan(team.version);
          expect(teamAfter.settingsSavedAtVersion).toBe(team.version);
          expect((await auditOf("w-m")).flatMap((e) => e.changes.map((c) => c.field))).not.toContain("settingsSavedAtVersion");
        });
      });

      describe("ledger", () => {
        const FINANCE = "finance@retailer.example";

        async function teamWithWallets(teamId: string, ...walletIds: string[]): Promise<void> {
          await storage.teams.create(makeTeamData(), ADMIN, teamId);
          for (const id of walletIds) await storage.wallets.create(teamId, makeWalletInput(), ADMIN, id);
        }

        const post = (walletId: string, overrides: Partial<PostEntryInput> = {}, now = T0) =>
          storage.ledger.post(makePosting(walletId, overrides), now);

        /** Every entry of a wallet, newest first, following the cursor. */
        async function allEntries(walletId: string, spec: LedgerListSpec = {}): Promise<LedgerEntry[][]> {
          const pages: LedgerEntry[][] = [];
          let after: string | null = null;
          do {
            const page: Awaited<ReturnType<typeof storage.ledger.list>> = await storage.ledger.list(walletId, { ...spec, after });
            pages.push(page.items);
            after = page.next;
            if (pages.length > 100) throw new Error("pagination does not end");
          } while (after);
          return pages;
        }

        it("posts an entry and moves the wallet's and the team's totals with it: balance = credit - debit", async () => {
          await teamWithWallets("team-l", "w-1", "w-2");
          const t1 = new Date("2025-06-02T09:00:00.000Z");
          const t2 = new Date("2025-06-02T10:30:00.000Z");
          const t3 = new Date("2025-06-03T08:00:00.000Z");

          const credit = okOf(await post("w-1", { amount: 10_000, reference: "PO-1001", comment: "Q3 budget", by: FINANCE }, t1));
          expect(credit.duplicate).toBe(false);
          expect(credit.entry).toMatchObject({
            walletId: "w-1",
            teamId: "team-l",
            seq: 1,
            type: "credit",
            amount: 10_000,
            balanceAfter: 10_000,
            reference: "PO-1001",
            comment: "Q3 budget",
            by: FINANCE,
            at: t1.toISOString(),
            reversalOf: null,
            version: 1,
          });
          expect(credit.wallet).toMatchObject({
            credit: 10_000,
            debit: 0,
            balance: 10_000,
            balanceUpdated: t1.toISOString(),
            firstDebitAt: null,
            entryCount: 1,
            version: 2,
          });
          expect(await storage.wallets.getOne("w-1")).toEqual(credit.wallet);
          expect(await storage.ledger.getOne("w-1", credit.entry.id)).toEqual(credit.entry);
          expect(await storage.ledger.getOne("w-2", credit.entry.id)).toBeNull();
          expect(await storage.ledger.getOne("w-1", "no-such-entry")).toBeNull();

          const debit = okOf(await post("w-1", { type: "debit", amount: 2_500 }, t2));
          expect(debit.entry).toMatchObject({ seq: 2, type: "debit", amount: 2_500, balanceAfter: 7_500, at: t2.toISOString() });
          expect(debit.wallet).toMatchObject({ credit: 10_000, debit: 2_500, balance: 7_500, balanceUpdated: t2.toISOString(), firstDebitAt: t2.toISOString(), entryCount: 2, version: 3 });
          const later = okOf(await post("w-1", { type: "debit", amount: 500 }, t3));
          expect(later.wallet).toMatchObject({ credit: 10_000, debit: 3_000, balance: 7_000, balanceUpdated: t3.toISOString(), firstDebitAt: t2.toISOString(), entryCount: 3 });
          expect(await storage.wallets.getOne("w-1")).toEqual(later.wallet);

          okOf(await post("w-2", { amount: 4_000 }, t3));
          expect(await storage.teams.getOne("team-l")).toMatchObject({ walletCount: 2, balance: 11_000, totals: { EUR: { balance: 11_000, credit: 14_000 } } });
          expect(await store.count(COLLECTIONS.walletTransaction)).toBe(4);
        });

        it("refuses a debit above the balance, a non-positive amount, an unknown or archived wallet, changing nothing", async () => {
          await teamWithWallets("team-l", "w-1");
          const funded = okOf(await post("w-1", { amount: 3_000 }));
          const unchanged = async () => {
            expect(await storage.wallets.getOne("w-1")).toEqual(funded.wallet);
            expect(await storage.teams.getOne("team-l")).toMatchObject({ balance: 3_000, totals: { EUR: { balance: 3_000, credit: 3_000 } } });
            expect(await store.count(COLLECTIONS.walletTransaction)).toBe(1);
          };

          expect(await post("w-1", { type: "debit", amount: 3_001 })).toEqual({ ok: false, reason: "ledger.insufficientBalance" });
          for (const amount of [0, -100, 12.5, Number.NaN]) {
            expect(await post("w-1", { type: "credit", amount })).toEqual({ ok: false, reason: "ledger.notPositive" });
            expect(await post("w-1", { type: "debit", amount })).toEqual({ ok: false, reason: "ledger.notPositive" });
          }
          expect(await post("w-ghost", { amount: 100 })).toEqual({ ok: false, reason: "ledger.walletNotFound" });
          await unchanged();

          // The whole balance can be spent, down to zero and no further.
          const all = okOf(await post("w-1", { type: "debit", amount: 3_000 }));
          expect(all.wallet).toMatchObject({ balance: 0, debit: 3_000, credit: 3_000 });
          expect(await post("w-1", { type: "debit", amount: 1 })).toEqual({ ok: false, reason: "ledger.insufficientBalance" });

          // An archived wallet takes nothing: no credit, no debit, no reversal.
          const archived = await storage.wallets.update("w-1", { status: "archived" }, ADMIN);
          expect(await post("w-1", { amount: 500 })).toEqual({ ok: false, reason: "ledger.walletArchived" });
          expect(await post("w-1", { type: "debit", amount: 1 })).toEqual({ ok: false, reason: "ledger.walletArchived" });
          expect(await storage.ledger.reverse("w-1", all.entry.id, FINANCE, "Undo", T1)).toEqual({ ok: false, reason: "ledger.walletArchived" });
          expect(await storage.wallets.getOne("w-1")).toEqual(archived);
          expect(await store.count(COLLECTIONS.walletTransaction)).toBe(2);
          expect(await storage.teams.getOne("team-l")).toMatchObject({ balance: 0, totals: { EUR: { balance: 0, credit: 3_000 } } });
        });

        it("records both identities on an entry posted or reversed while logged as someone, only the user otherwise (ADR 30)", async () => {
          await teamWithWallets("team-as", "w-as");
          const plain = okOf(await post("w-as", { amount: 1_000, by: "sam@brand.example" }));
          expect(plain.entry.by).toBe("sam@brand.example");
          expect(plain.entry.realBy).toBeUndefined();
          const logged = okOf(await post("w-as", { amount: 500, by: "sam@brand.example", realBy: "olivia@ops.example" }));
          expect(logged.entry).toMatchObject({ by: "sam@brand.example", realBy: "olivia@ops.example" });
          const reversed = okOf(await storage.ledger.reverse("w-as", logged.entry.id, "sam@brand.example", "typo", T1, "olivia@ops.example"));
          expect(reversed.entry).toMatchObject({ by: "sam@brand.example", realBy: "olivia@ops.example", reversalOf: logged.entry.id });
          const stored = (await allEntries("w-as")).flat();
          expect(stored.find((e) => e.id === logged.entry.id)).toMatchObject({ realBy: "olivia@ops.example" });
          expect(stored.find((e) => e.id === plain.entry.id)!.realBy).toBeUndefined();
        });

        it("records one entry for a double-submitted form, also when five submissions race", async () => {
          await teamWithWallets("team-l", "w-1", "w-2");
          const form = makePosting("w-1", { amount: 2_000 });
          const first = okOf(await storage.ledger.post(form, T0));
          const again = okOf(await storage.ledger.post({ ...form }, T1));
          expect(again.duplicate).toBe(true);
          expect(again.entry).toEqual(first.entry);
          expect(again.wallet).toMatchObject({ credit: 2_000, balance: 2_000, entryCount: 1 });

          const raced = makePosting("w-1", { type: "credit", amount: 300 });
          const results = (await Promise.all(Array.from({ length: 5 }, () => storage.ledger.post({ ...raced }, T1)))).map(okOf);
          expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
          expect(new Set(results.map((r) => r.entry.id)).size).toBe(1);
          for (const r of results) expect(r.entry).toMatchObject({ seq: 2, amount: 300, balanceAfter: 2_300 });

          // The same key on another wallet is another form.
          expect(okOf(await storage.ledger.post({ ...raced, walletId: "w-2" }, T1)).duplicate).toBe(false);

          expect(await storage.wallets.getOne("w-1")).toMatchObject({ credit: 2_300, debit: 0, balance: 2_300, entryCount: 2 });
          expect(await store.count(COLLECTIONS.walletTransaction, [["walletId", "==", "w-1"]])).toBe(2);
          expect(await storage.teams.getOne("team-l")).toMatchObject({ balance: 2_600, totals: { EUR: { balance: 2_600, credit: 2_600 } } });
        }, 60_000);

        it("keeps exact totals under 50 concurrent postings to one wallet, none lost or doubled, and the team's with them", async () => {
          await teamWithWallets("team-hot", "w-hot", "w-side");
          // Funded first, so that every debit below is affordable in any order.
          okOf(await post("w-hot", { amount: 100_000 }, T0));
          const postings = Array.from({ length: 50 }, (_, i) =>
            makePosting("w-hot", i % 5 === 4 ? { type: "debit", amount: 1_000 + i } : { type: "credit", amount: 500 + i * 7 }),
          );
          // Another wallet of the same team at the same time: the team's totals see both.
          const side = Array.from({ length: 10 }, (_, i) => makePosting("w-side", { amount: 100 + i }));
          const results = await Promise.all([...postings, ...side].map((p) => storage.ledger.post(p, T1)));
          expect(results.filter((r) => !r.ok)).toEqual([]);
          expect(results.filter((r) => r.ok && r.duplicate)).toEqual([]);

          const sum = (list: PostEntryInput[], type: EntryType) => list.filter((p) => p.type === type).reduce((n, p) => n + p.amount, 0);
          const credit = 100_000 + sum(postings, "credit");
          const debit = sum(postings, "debit");
          expect(debit).toBeGreaterThan(0);
          const wallet = await storage.wallets.getOne("w-hot");
          // Created (1), funded (2), then one version per posting.
          expect(wallet).toMatchObject({ credit, debit, balance: credit - debit, entryCount: 51, version: 52 });

          // Every posting once, in one unbroken chain of running balances.
          const pages = await allEntries("w-hot", { limit: 20 });
          expect(pages.map((p) => p.length)).toEqual([20, 20, 11]);
          const entries = pages.flat();
          expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: 51 }, (_, i) => 51 - i));
          const posted = results.slice(0, 50).map((r) => (r.ok ? r.entry.id : ""));
          expect(new Set(entries.map((e) => e.id))).toEqual(new Set([...posted, entries[50].id]));
          let running = 0;
          for (const e of [...entries].reverse()) {
            running += e.type === "credit" ? e.amount : -e.amount;
            expect(e.balanceAfter).toBe(running);
          }
          expect(running).toBe(credit - debit);

          const sideTotal = sum(side, "credit");
          expect(await storage.wallets.getOne("w-side")).toMatchObject({ credit: sideTotal, balance: sideTotal, entryCount: 10 });
          expect(await storage.teams.getOne("team-hot")).toMatchObject({ balance: credit - debit + sideTotal, totals: { EUR: { balance: credit - debit + sideTotal, credit: credit + sideTotal } } });
        }, 120_000);

        it("lets through exactly the racing debits the balance covers and refuses the rest", async () => {
          await teamWithWallets("team-l", "w-1");
          okOf(await post("w-1", { amount: 10_000 }, T0));
          const results = await Promise.all(
            Array.from({ length: 50 }, () => storage.ledger.post(makePosting("w-1", { type: "debit", amount: 300 }), T1)),
          );
          expect(results.filter((r) => r.ok)).toHaveLength(33);
          expect(results.filter((r) => !r.ok)).toEqual(Array.from({ length: 17 }, () => ({ ok: false, reason: "ledger.insufficientBalance" })));
          expect(await storage.wallets.getOne("w-1")).toMatchObject({ credit: 10_000, debit: 9_900, balance: 100, entryCount: 34 });
          const entries = (await allEntries("w-1", { limit: 50 })).flat();
          expect(entries).toHaveLength(34);
          expect(entries.map((e) => e.balanceAfter)).toEqual(Array.from({ length: 34 }, (_, i) => 100 + i * 300));
          expect(await storage.teams.getOne("team-l")).toMatchObject({ balance: 100, totals: { EUR: { balance: 100, credit: 10_000 } } });
        }, 120_000);

        it("corrects an entry with a reversing entry pointing to it, once; a reversal is not reversed", async () => {
          await teamWithWallets("team-l", "w-1", "w-2");
          const credit = okOf(await post("w-1", { amount: 5_000, reference: "PO-7" }, T0));
          const debit = okOf(await post("w-1", { type: "debit", amount: 1_200, reference: "INV-42" }, T1));
          const original = await storage.ledger.getOne("w-1", debit.entry.id);

          const reversal = okOf(await storage.ledger.reverse("w-1", debit.entry.id, FINANCE, "Charged to the wrong wallet", T2));
          expect(reversal.duplicate).toBe(false);
          expect(reversal.entry).toMatchObject({
            type: "credit",
            amount: 1_200,
            reversalOf: debit.entry.id,
            seq: 3,
            balanceAfter: 5_000,
            reference: "INV-42",
            comment: "Charged to the wrong wallet",
            by: FINANCE,
            at: T2.toISOString(),
          });
          expect(reversal.wallet).toMatchObject({ credit: 6_200, debit: 1_200, balance: 5_000, entryCount: 3 });
          expect(await storage.ledger.getOne("w-1", debit.entry.id)).toEqual(original);

          const again = () => storage.ledger.reverse("w-1", debit.entry.id, FINANCE, "Again", T2);
          expect(await again()).toEqual({ ok: false, reason: "ledger.alreadyReversed" });
          expect(await storage.ledger.reverse("w-1", reversal.entry.id, FINANCE, "Undo the undo", T2)).toEqual({ ok: false, reason: "ledger.notReversible" });
          expect(await storage.ledger.reverse("w-1", "no-such-entry", FINANCE, "?", T2)).toEqual({ ok: false, reason: "ledger.entryNotFound" });
          expect(await storage.ledger.reverse("w-2", credit.entry.id, FINANCE, "Other wallet", T2)).toEqual({ ok: false, reason: "ledger.entryNotFound" });
          expect(await storage.ledger.reversedIds("w-1", [credit.entry.id, debit.entry.id, reversal.entry.id])).toEqual(new Set([debit.entry.id]));
          expect(await storage.ledger.reversedIds("w-1", [])).toEqual(new Set());

          // Five racing reversals of the credit: one goes through.
          const raced = await Promise.all(Array.from({ length: 5 }, () => storage.ledger.reverse("w-1", credit.entry.id, FINANCE, "Race", T3)));
          expect(raced.filter((r) => r.ok)).toHaveLength(1);
          expect(raced.filter((r) => !r.ok)).toEqual(Array.from({ length: 4 }, () => ({ ok: false, reason: "ledger.alreadyReversed" })));
          expect(await storage.ledger.reversedIds("w-1", [credit.entry.id, debit.entry.id])).toEqual(new Set([credit.entry.id, debit.entry.id]));

          expect(await storage.wallets.getOne("w-1")).toMatchObject({ credit: 6_200, debit: 6_200, balance: 0, entryCount: 4 });
          expect(await storage.teams.getOne("team-l")).toMatchObject({ balance: 0, totals: { EUR: { balance: 0, credit: 6_200 } } });
          expect(await store.count(COLLECTIONS.walletTransaction)).toBe(4);
        }, 60_000);

        it("keeps ad spend apart from funding (ADR 41): a reversed credit lowers funding, a manual debit is neither, balance = credit - debit", async () => {
          await teamWithWallets("team-r", "w-r");
          const funded = okOf(await post("w-r", { amount: 40_000 }, T0));
          const reversed = okOf(await storage.ledger.reverse("w-r", funded.entry.id, FINANCE, "typo", T1));
          expect(reversed.wallet).toMatchObject({ credit: 40_000, debit: 40_000, balance: 0, spend: 0, funded: 0, firstSpendAt: null });
          const again = okOf(await post("w-r", { amount: 4_000 }, T2));
          expect(again.wallet).toMatchObject({ credit: 44_000, debit: 40_000, balance: 4_000, spend: 0, funded: 4_000, firstSpendAt: null });
          const manual = okOf(await post("w-r", { type: "debit", amount: 1_000 }, T3));
          expect(manual.wallet).toMatchObject({ debit: 41_000, balance: 3_000, spend: 0, funded: 4_000, firstSpendAt: null });
          // The reversal of the manual debit gives the money back, still neither spend nor funding.
          const undone = okOf(await storage.ledger.reverse("w-r", manual.entry.id, FINANCE, "fee waived", T3));
          expect(undone.wallet).toMatchObject({ credit: 45_000, debit: 41_000, balance: 4_000, spend: 0, funded: 4_000 });
          expect(await storage.wallets.getOne("w-r")).toEqual(undone.wallet);
        });

        it("keeps a team's totals per currency: euros and zlotys are never added up", async () => {
          await storage.teams.create(makeTeamData(), ADMIN, "team-cur");
          await storage.wallets.create("team-cur", makeWalletInput({ label: "Euros", currency: "EUR" }), ADMIN, "w-eur");
          await storage.wallets.create("team-cur", makeWalletInput({ label: "Zlotys", currency: "PLN" }), ADMIN, "w-pln");
          okOf(await post("w-eur", { amount: 10_000 }, T0));
          okOf(await post("w-pln", { amount: 40_000 }, T0));
          okOf(await post("w-pln", { type: "debit", amount: 5_000 }, T1));
          const team = await storage.teams.getOne("team-cur");
          expect(team!.totals).toEqual({ EUR: { balance: 10_000, credit: 10_000 }, PLN: { balance: 35_000, credit: 40_000 } });
          // Sorted by its largest balance in one currency, never by a sum.
          expect(team!.balance).toBe(35_000);
        });

        it("completes wallets and teams stored before ADR 41 from their ledger and wallets, once", async () => {
          await storage.teams.create(makeTeamData(), ADMIN, "team-old");
          await storage.wallets.create("team-old", makeWalletInput({ currency: "EUR" }), ADMIN, "w-old-eur");
          await storage.wallets.create("team-old", makeWalletInput({ currency: "PLN" }), ADMIN, "w-old-pln");
          const credit = okOf(await post("w-old-pln", { amount: 40_000 }, T0));
          okOf(await storage.ledger.reverse("w-old-pln", credit.entry.id, FINANCE, "typo", T1));
          okOf(await post("w-old-pln", { amount: 4_000 }, T2));
          okOf(await post("w-old-eur", { amount: 10_000 }, T2));
          // As stored before: no spend figures on the wallets, one summed balance and credit on the team.
          for (const id of ["w-old-eur", "w-old-pln"]) {
            const { id: _id, version: _v, spend: _s, funded: _f, firstSpendAt: _t, ...old } = (await store.get<WalletData>(COLLECTIONS.wallet, id))!;
            await store.set(COLLECTIONS.wallet, id, old);
          }
          const { id: _id, version: _v, totals: _totals, ...oldTeam } = (await store.get<TeamData>(COLLECTIONS.team, "team-old"))!;
          await store.set(COLLECTIONS.team, "team-old", { ...oldTeam, balance: 14_000, credit: 54_000 });
          // Read before completion: the old figures (debit and credit), as shown until then.
          expect(await storage.wallets.getOne("w-old-pln")).toMatchObject({ spend: 40_000, funded: 44_000 });

          expect(await storage.wallets.completeOldRecords()).toEqual({ wallets: 2, teams: 1 });
          expect(await storage.wallets.getOne("w-old-pln")).toMatchObject({ balance: 4_000, spend: 0, funded: 4_000, firstSpendAt: null });
          expect(await storage.wallets.getOne("w-old-eur")).toMatchObject({ balance: 10_000, spend: 0, funded: 10_000 });
          expect(await storage.teams.getOne("team-old")).toMatchObject({
            balance: 10_000,
            totals: { EUR: { balance: 10_000, credit: 10_000 }, PLN: { balance: 4_000, credit: 44_000 } },
          });
          // Completed records are left alone, and postings carry on from them.
          expect(await storage.wallets.completeOldRecords()).toEqual({ wallets: 0, teams: 0 });
          okOf(await post("w-old-pln", { amount: 1_000 }, T3));
          expect(await storage.teams.getOne("team-old")).toMatchObject({ totals: { PLN: { balance: 5_000, credit: 45_000 } } });
          expect(await storage.wallets.getOne("w-old-pln")).toMatchObject({ funded: 5_000, spend: 0 });
        });

        it("lists the running balance newest first, in pages, between two instants", async () => {
          await teamWithWallets("team-l", "w-1", "w-2");
          const times = [
            "2025-06-01T10:00:00.000Z",
            "2025-06-01T15:00:00.000Z",
            "2025-06-02T09:00:00.000Z",
            "2025-06-03T12:00:00.000Z",
            "2025-06-03T18:00:00.000Z",
          ];
          const plan: Partial<PostEntryInput>[] = [
            { type: "credit", amount: 10_000 },
            { type: "debit", amount: 1_000 },
            { type: "debit", amount: 2_000 },
            { type: "credit", amount: 500 },
            { type: "debit", amount: 1_500 },
          ];
          for (const [i, overrides] of plan.entries()) {
            okOf(await post("w-1", overrides, new Date(times[i])));
            okOf(await post("w-2", { amount: 1 }, new Date(times[i]))); // not listed with w-1
          }
          const balances = async (spec: LedgerListSpec) => (await allEntries("w-1", spec)).map((page) => page.map((e) => e.balanceAfter));

          expect(await balances({ limit: 2 })).toEqual([[6_000, 7_500], [7_000, 9_000], [10_000]]);
          // From inclusive, to exclusive.
          expect(await balances({ from: "2025-06-02T00:00:00.000Z", to: times[4] })).toEqual([[7_500, 7_000]]);
          expect(await balances({ from: times[0], to: times[1] })).toEqual([[10_000]]);
          expect(await balances({ to: times[1] })).toEqual([[10_000]]);
          expect(await balances({ from: times[4] })).toEqual([[6_000]]);
          expect(await balances({ from: "2025-06-03T18:00:00.001Z" })).toEqual([[]]);
          expect(await balances({ from: "2025-06-01T12:00:00.000Z", limit: 1 })).toEqual([[6_000], [7_500], [7_000], [9_000]]);

          // Time does not go back within a wallet: a posting stamped earlier comes newest.
          const late = okOf(await post("w-1", { amount: 100 }, new Date("2025-06-02T08:00:00.000Z")));
          expect(late.entry).toMatchObject({ seq: 6, at: times[4], balanceAfter: 6_100 });
          expect((await storage.ledger.list("w-1", { limit: 1 })).items.map((e) => e.id)).toEqual([late.entry.id]);
          expect((await storage.wallets.getOne("w-1"))?.balanceUpdated).toBe(times[4]);
        });
      });

      describe("spend (events counted once, settled into the ledger)", () => {
        const PARIS = "Europe/Paris";
        /** 11:00 in Paris on Monday 2 June 2025. */
        const NOW = new Date("2025-06-02T09:00:00.000Z");
        const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
        const TOMORROW = new Date("2025-06-03T09:00:00.000Z");

        const batch = (batchId: string, cost: Record<string, WalletCost>, overrides: Partial<EventBatchData> = {}) => ({
          batchId,
          eventsHash: `hash-of-${batchId}`,
          accepted: Object.keys(cost).length,
          refused: [],
          cost,
          newestEvent: NOW.toISOString(),
          received: NOW.toISOString(),
          ...overrides,
        });

        async function fundedWallet(teamId: string, walletId: string, cents: number, walletOverrides: Partial<WalletInput> = {}) {
          await storage.teams.create(makeTeamData(), ADMIN, teamId);
          await storage.wallets.create(teamId, makeWalletInput(walletOverrides), ADMIN, walletId);
          if (cents > 0) okOf(await storage.ledger.post(makePosting(walletId, { amount: cents }), T0));
        }

        async function activeCampaign(id: string, teamId: string, walletId: string, overrides: Partial<CampaignData> = {}) {
          return storage.campaigns.create(makeCampaignData({ team: teamId, wallet: walletId, status: "active", ...overrides }), ADMIN, id);
        }

        async function record(batchId: string, cost: Record<string, WalletCost>, now = NOW) {
          await storage.spend.openBatch(batch(batchId, cost));
          return storage.spend.recordBatch(batchId, now);
        }

        it("opens a batch once and records its cost into its wallets' accruals once, atomically", async () => {
          const refused = [
            { index: 1, reason: "badCost", field: "cost" },
            { index: 3, reason: "notAnObject" },
            { index: 9_999, reason: "campaignMismatch", field: "campaignType" },
          ] as const;
          const first = await storage.spend.openBatch(
            batch("srv-1:0001", { "w-a": { total: 25_000, campaigns: { "c-1": 15_000, "c-2": 10_000 } } }, { refused: [...refused] }),
          );
          expect(first.created).toBe(true);
          expect(first.batch).toMatchObject({ batchId: "srv-1:0001", state: "pending", recorded: null, eventsHash: "hash-of-srv-1:0001", refused });
          // Opened again (a retry, or a racing request): the first record stands.
          const again = await storage.spend.openBatch(batch("srv-1:0001", {}, { eventsHash: "other", accepted: 99 }));
          expect(again).toEqual({ batch: first.batch, created: false });
          expect(await storage.spend.getBatch("srv-1:0001")).toEqual(first.batch);
          expect(await storage.spend.getBatch("never-sent")).toBeNull();
          expect(await storage.spend.getAccrual("w-a")).toBeNull();

          const recorded = await storage.spend.recordBatch("srv-1:0001", NOW);
          expect(recorded.recorded).toBe(true);
          expect(recorded.batch).toMatchObject({ state: "recorded", recorded: NOW.toISOString() });
          expect(await storage.spend.getBatch("srv-1:0001")).toEqual(recorded.batch);
          const accrual = await storage.spend.getAccrual("w-a");
          expect(accrual).toMatchObject({ walletId: "w-a", unsettledMicros: 25_000, campaigns: { "c-1": 15_000, "c-2": 10_000 }, due: true, settlements: 0, followUp: null, followUpPending: false });

          // Recorded again: nothing moves.
          expect(await storage.spend.recordBatch("srv-1:0001", at(1))).toEqual({ recorded: false, batch: recorded.batch });
          expect(await storage.spend.getAccrual("w-a")).toEqual(accrual);
          await expect(storage.spend.recordBatch("never-opened", NOW)).rejects.toBeInstanceOf(NotFoundError);

          // Under 1 cent in total and per campaign: nothing is due yet.
          await record("srv-1:0002", { "w-b": { total: 9_999, campaigns: { "c-3": 9_999 } } });
          expect(await storage.spend.getAccrual("w-b")).toMatchObject({ unsettledMicros: 9_999, due: false });
          expect((await storage.spend.listDue({})).items.map((a) => a.walletId)).toEqual(["w-a"]);
        });

        it("adds up racing batches on one wallet exactly, and a batch recorded by racing retries once", async () => {
          const batches = Array.from({ length: 8 }, (_, i) => batch(`race-${i}`, { "w-race": { total: 1_001 + i, campaigns: { [`c-${i % 3}`]: 1_001 + i } } }));
          for (const b of batches) await storage.spend.openBatch(b);
          const results = await Promise.all([...batches, batches[0]!, batches[1]!].map((b) => storage.spend.recordBatch(b.batchId, NOW)));
          expect(results.filter((r) => r.recorded)).toHaveLength(8);
          const total = batches.reduce((sum, b) => sum + b.cost["w-race"]!.total, 0);
          const accrual = (await storage.spend.getAccrual("w-race"))!;
          expect(accrual.unsettledMicros).toBe(total);
          expect(Object.values(accrual.campaigns).reduce((a, b) => a + b, 0)).toBe(total);
          expect(accrual.due).toBe(false);
        }, 60_000);

        it("counts the settlement's debit as ad spend and its reversal as spend taken back (ADR 41)", async () => {
          await fundedWallet("team-sr", "w-sr", 10_000);
          await activeCampaign("c-sr", "team-sr", "w-sr");
          await record("b-sr", { "w-sr": { total: 1_230_000, campaigns: { "c-sr": 1_230_000 } } });
          const settlement = (await storage.spend.settle("w-sr", { now: NOW, timeZone: PARIS }))!;
          expect(settlement.wallet).toMatchObject({ debit: 123, balance: 9_877, spend: 123, funded: 10_000, firstSpendAt: NOW.toISOString() });
          const refunded = okOf(await storage.ledger.reverse("w-sr", settlement.entry!.id, "finance@retailer.example", "Refund", NOW));
          expect(refunded.wallet).toMatchObject({ credit: 10_123, debit: 123, balance: 10_000, spend: 0, funded: 10_000, firstSpendAt: NOW.toISOString() });
        });

        it("settles whole cents in one debit per wallet, carries the rest, may go below zero, and moves the campaigns' spend", async () => {
          await fundedWallet("team-s", "w-s", 100, { dailyBudget: 5_000 });
          const campaign = await activeCampaign("c-s1", "team-s", "w-s");
          await activeCampaign("c-s2", "team-s", "w-s");
          await record("b-1", { "w-s": { total: 1_234_567, campaigns: { "c-s1": 1_000_000, "c-s2": 234_567 } } });

          const settlement = (await storage.spend.settle("w-s", { now: NOW, timeZone: PARIS }))!;
          expect(settlement).toMatchObject({ seq: 1, walletId: "w-s", debitCents: 123, campaignCents: { "c-s1": 100, "c-s2": 23 } });
          expect(settlement.entry).toMatchObject({ type: "debit", amount: 123, balanceAfter: -23, by: "system", reference: "SPEND-000001", reversalOf: null, at: NOW.toISOString() });
          // The balance goes below zero: spend already served is owed.
          expect(settlement.wallet).toMatchObject({ credit: 100, debit: 123, balance: -23, firstDebitAt: NOW.toISOString(), todaySpend: { day: "2025-06-02", amount: 123 } });
          // The settlement's debit is ad spend (ADR 41): spend and its first time move with it.
          expect(settlement.wallet).toMatchObject({ spend: 123, funded: 100, firstSpendAt: NOW.toISOString() });
          expect(await storage.wallets.getOne("w-s")).toEqual(settlement.wallet);
          expect(await storage.teams.getOne("team-s")).toMatchObject({ balance: -23, totals: { EUR: { balance: -23, credit: 100 } } });
          expect((await storage.ledger.list("w-s", {})).items.map((e) => [e.type, e.amount])).toEqual([["debit", 123], ["credit", 100]]);
          // Its funds ran out: the follow-up says so.
          expect(settlement.followUp).toEqual({ seq: 1, campaigns: [], walletFunds: true, walletCapDay: null });
          expect(await storage.spend.getAccrual("w-s")).toMatchObject({
            unsettledMicros: 4_567,
            campaigns: { "c-s2": 4_567 },
            due: false,
            settlements: 1,
            followUp: settlement.followUp,
            followUpPending: true,
          });
          expect((await storage.spend.listFollowUps({})).items.map((a) => a.walletId)).toEqual(["w-s"]);

          // The campaigns' spend moved, unaudited, and their version (what a form holds) did not.
          const c1 = (await storage.campaigns.getOne("c-s1"))!;
          expect(c1).toMatchObject({ spend: 100, todaySpend: { day: "2025-06-02", amount: 100 }, version: campaign.version });
          expect(await storage.campaigns.getOne("c-s2")).toMatchObject({ spend: 23 });
          expect((await auditOf("c-s1")).map((e) => e.action)).toEqual(["create"]);
          const edited = await storage.campaigns.update("c-s1", { name: "Edited while it spends" }, ADMIN, { expectVersion: campaign.version });
          expect(edited).toMatchObject({ name: "Edited while it spends", spend: 100, version: campaign.version + 1 });

          // Nothing due: no settlement, no entry.
          expect(await storage.spend.settle("w-s", { now: at(1), timeZone: PARIS })).toBeNull();
          expect(await storage.spend.settle("w-none", { now: at(1), timeZone: PARIS })).toBeNull();

          // The carry completes a cent with the next batch; racing settlements settle it once.
          await record("b-2", { "w-s": { total: 5_433, campaigns: { "c-s2": 5_433 } } });
          const racing = await Promise.all([1, 2, 3].map(() => storage.spend.settle("w-s", { now: at(2), timeZone: PARIS })));
          const done = racing.filter((s) => s !== null);
          expect(done).toHaveLength(1);
          expect(done[0]).toMatchObject({ seq: 2, debitCents: 1, campaignCents: { "c-s2": 1 } });
          expect(await storage.wallets.getOne("w-s")).toMatchObject({ debit: 124, balance: -24, todaySpend: { day: "2025-06-02", amount: 124 }, entryCount: 3 });
          expect(await storage.spend.getAccrual("w-s")).toMatchObject({ unsettledMicros: 0, campaigns: {}, due: false, settlements: 2 });
          // 1,240,000 micros received, 124 cents debited: exact.
          expect(await storage.campaigns.getOne("c-s2")).toMatchObject({ spend: 24 });

          // A settlement of a later day starts the day's spend again.
          await record("b-3", { "w-s": { total: 20_000, campaigns: { "c-s1": 20_000 } } });
          expect((await storage.spend.settle("w-s", { now: TOMORROW, timeZone: PARIS }))!.wallet.todaySpend).toEqual({ day: "2025-06-03", amount: 2 });
          expect(await storage.campaigns.getOne("c-s1")).toMatchObject({ spend: 102, todaySpend: { day: "2025-06-03", amount: 2 } });

          // Manual debits still may not go below zero.
          expect(await storage.ledger.post(makePosting("w-s", { type: "debit", amount: 1 }), TOMORROW)).toEqual({ ok: false, reason: "ledger.insufficientBalance" });
        }, 60_000);

        it("records a follow-up for campaigns that stop serving and for the wallet's daily budget, done once per settlement", async () => {
          await fundedWallet("team-d", "w-d", 1_000_000, { dailyBudget: 300 });
          await activeCampaign("c-daily", "team-d", "w-d", { pacingDaily: 100 });
          await activeCampaign("c-total", "team-d", "w-d", { pacingTotal: 150 });
          await record("d-1", { "w-d": { total: 2_000_000, campaigns: { "c-daily": 1_000_000, "c-total": 1_000_000 } } });
          const first = (await storage.spend.settle("w-d", { now: NOW, timeZone: PARIS }))!;
          // c-daily reached its daily pacing (100 cents); c-total is at 100 of 150.
          expect(first.followUp).toEqual({ seq: 1, campaigns: ["c-daily"], walletFunds: false, walletCapDay: null });
          expect(await storage.campaigns.getOne("c-daily")).toMatchObject({ spend: 100, dailyCapReached: "2025-06-02" });
          const total = (await storage.campaigns.getOne("c-total"))!;
          expect([total.spend, total.dailyCapReached ?? null]).toEqual([100, null]);

          await record("d-2", { "w-d": { total: 1_500_000, campaigns: { "c-total": 1_500_000 } } });
          const second = (await storage.spend.settle("w-d", { now: at(1), timeZone: PARIS }))!;
          // c-total reached its total budget; the wallet its daily budget (350 of 300); the
          // follow-up still pending from the first settlement is merged into this one.
          expect(second.followUp).toEqual({ seq: 2, campaigns: ["c-daily", "c-total"], walletFunds: false, walletCapDay: "2025-06-02" });

          // The first settlement's follow-up, done late, does not clear the second's.
          await storage.spend.completeFollowUp("w-d", 1);
          expect(await storage.spend.getAccrual("w-d")).toMatchObject({ followUp: second.followUp, followUpPending: true });
          await storage.spend.completeFollowUp("w-d", 2);
          expect(await storage.spend.getAccrual("w-d")).toMatchObject({ followUp: null, followUpPending: false });
          expect((await storage.spend.listFollowUps({})).items).toEqual([]);
        }, 60_000);

        it("stops a campaign for the day (withdrawn) and reopens it the next day (published again), atomically", async () => {
          await fundedWallet("team-p", "w-p", 1_000);
          const campaign = await activeCampaign("c-p", "team-p", "w-p");
          const published = makePublishedCampaign("c-p", ["SKU-P1", "SKU-P2"], { team: "team-p", wallet: "w-p" });
          await storage.publication.apply("c-p", published);
          expect(await storage.publication.campaignsForProduct("SKU-P1")).toEqual(["c-p"]);

          expect(await storage.spend.stopForToday("c-p", "2025-06-02")).toBe(true);
          expect(await storage.campaigns.getOne("c-p")).toMatchObject({ dailyCapReached: "2025-06-02", version: campaign.version });
          expect(await storage.publication.getCampaign("c-p")).toBeNull();
          expect(await storage.publication.campaignsForProduct("SKU-P1")).toEqual([]);
          expect(await storage.spend.stopForToday("c-p", "2025-06-02")).toBe(false);
          expect(await storage.spend.stopForToday("c-ghost", "2025-06-02")).toBe(false);

          expect((await storage.spend.listStoppedBefore("2025-06-02", {})).items).toEqual([]);
          const stopped = await storage.spend.listStoppedBefore("2025-06-03", {});
          expect(stopped.items.map((c) => [c.id, c.dailyCapReached, c.version])).toEqual([["c-p", "2025-06-02", campaign.version]]);

          // Not on the same day; the next day, published as `publish` says from its state.
          expect(await storage.spend.reopen("c-p", "2025-06-02", () => published)).toBe(false);
          const seen: (string | null | undefined)[] = [];
          const reopened = await storage.spend.reopen("c-p", "2025-06-03", (c) => {
            seen.push(c.dailyCapReached);
            return { ...published, published: TOMORROW.toISOString() };
          });
          expect(reopened).toBe(true);
          expect(seen).toEqual([null]);
          expect(await storage.campaigns.getOne("c-p")).toMatchObject({ dailyCapReached: null, version: campaign.version });
          expect(await storage.publication.getCampaign("c-p")).toMatchObject({ campaignId: "c-p", published: TOMORROW.toISOString() });
          expect(await storage.publication.campaignsForProduct("SKU-P2")).toEqual(["c-p"]);
          expect(await storage.spend.reopen("c-p", "2025-06-03", () => published)).toBe(false);
          expect((await storage.spend.listStoppedBefore("2025-06-04", {})).items).toEqual([]);

          // Republished from its current state: withdrawn when the callback says so.
          expect(await storage.spend.republish("c-p", (c) => (c.id === "c-p" ? null : published))).toBe(true);
          expect(await storage.publication.getCampaign("c-p")).toBeNull();
          expect(await storage.spend.republish("c-ghost", () => published)).toBe(false);
          expect(await storage.publication.getCampaign("c-ghost")).toBeNull();
        }, 60_000);

        it("counts spend per placement and device, stops a capped one in the settlement's transaction, and reopens it the next day", async () => {
          await fundedWallet("team-c", "w-c", 1_000_000);
          const campaign = await activeCampaign("c-cap", "team-c", "w-c", {
            pacingSearch: 100,
            pacingDevices: { mobile: 300, tablet: null, app: null, unknown: null },
          });
          await activeCampaign("c-small", "team-c", "w-c");
          const published = makePublishedCampaign("c-cap", ["SKU-C1"], { team: "team-c", wallet: "w-c" });
          await storage.publication.apply("c-cap", published);
          const calls: [StoredCampaign["capsReached"], string | null][] = [];
          const publish = (c: StoredCampaign, teamStatus: string | null) => {
            calls.push([c.capsReached, teamStatus]);
            return { ...published, placements: published.placements.filter((p) => !c.capsReached?.placements.includes(p)), published: `${calls.length}` };
          };

          await record("cap-1", {
            "w-c": {
              total: 1_509_000,
              campaigns: { "c-cap": 1_500_000, "c-small": 9_000 },
              dimensions: {
                "c-cap": { placements: { search: 1_000_000, plp: 500_000 }, devices: { mobile: 1_500_000 } },
                "c-small": { placements: { home: 9_000 }, devices: { desktop: 9_000 } },
              },
            },
          });
          expect(await storage.spend.getAccrual("w-c")).toMatchObject({
            dimensions: { "c-cap": { placements: { search: 1_000_000, plp: 500_000 } }, "c-small": { devices: { desktop: 9_000 } } },
          });
          const first = (await storage.spend.settle("w-c", { now: NOW, timeZone: PARIS, publish }))!;
          // The wallet and the campaigns are settled as before, to the cent.
          expect(first).toMatchObject({ debitCents: 150, campaignCents: { "c-cap": 150 }, followUp: null });
          // Search reached its 1 € cap (exactly 1,000,000 micros); mobile is at 150 of 300 cents.
          const stored = (await storage.campaigns.getOne("c-cap"))!;
          expect(stored).toMatchObject({
            spend: 150,
            todaySpendMicros: { day: "2025-06-02", placements: { search: 1_000_000, plp: 500_000 }, devices: { mobile: 1_500_000 } },
            capsReached: { day: "2025-06-02", placements: ["search"], devices: [] },
            version: campaign.version,
          });
          expect((await auditOf("c-cap")).map((e) => e.action)).toEqual(["create"]);
          // Republished in the same transaction, from the campaign as written, with its team's status.
          expect(calls).toEqual([[{ day: "2025-06-02", placements: ["search"], devices: [] }, "active"]]);
          expect(await storage.publication.getCampaign("c-cap")).toMatchObject({ published: "1", placements: published.placements.filter((p) => p !== "search") });
          // The campaign under a cent keeps its micros per placement and device in the accrual.
          expect((await storage.spend.getAccrual("w-c"))!.dimensions).toEqual({ "c-small": { placements: { home: 9_000 }, devices: { desktop: 9_000 } } });

          // More mobile spend: mobile reaches its cap too; spend that changes no cap republishes nothing.
          await record("cap-2", { "w-c": { total: 1_500_000, campaigns: { "c-cap": 1_500_000 }, dimensions: { "c-cap": { placements: { plp: 1_500_000 }, devices: { mobile: 1_500_000 } } } } });
          await storage.spend.settle("w-c", { now: at(1), timeZone: PARIS, publish });
          expect((await storage.campaigns.getOne("c-cap"))!.capsReached).toEqual({ day: "2025-06-02", placements: ["search"], devices: ["mobile"] });
          expect(calls).toHaveLength(2);
          await record("cap-3", { "w-c": { total: 10_000, campaigns: { "c-cap": 10_000 }, dimensions: { "c-cap": { placements: { plp: 10_000 }, devices: { tablet: 10_000 } } } } });
          await storage.spend.settle("w-c", { now: at(2), timeZone: PARIS, publish });
          expect(calls).toHaveLength(2);
          expect((await storage.campaigns.getOne("c-cap"))!.todaySpendMicros).toMatchObject({ placements: { plp: 2_010_000 }, devices: { mobile: 3_000_000, tablet: 10_000 } });

          // Without a publisher, the follow-up republishes the campaign.
          await storage.campaigns.update("c-cap", { pacingPlp: 200 }, ADMIN, { expectVersion: campaign.version });
          await record("cap-4", { "w-c": { total: 10_000, campaigns: { "c-cap": 10_000 }, dimensions: { "c-cap": { placements: { home: 10_000 }, devices: { desktop: 10_000 } } } } });
          const unpublished = (await storage.spend.settle("w-c", { now: at(3), timeZone: PARIS }))!;
          expect(unpublished.followUp).toMatchObject({ campaigns: ["c-cap"] });
          expect((await storage.campaigns.getOne("c-cap"))!.capsReached).toEqual({ day: "2025-06-02", placements: ["search", "plp"], devices: ["mobile"] });

          // The next day: listed, reopened (caps cleared, published as `publish` says), once.
          expect((await storage.spend.listCapsReachedBefore("2025-06-02", {})).items).toEqual([]);
          const listed = await storage.spend.listCapsReachedBefore("2025-06-03", {});
          expect(listed.items.map((c) => c.id)).toEqual(["c-cap"]);
          expect(await storage.spend.reopen("c-cap", "2025-06-02", () => published)).toBe(false);
          const seen: StoredCampaign["capsReached"][] = [];
          expect(await storage.spend.reopen("c-cap", "2025-06-03", (c) => (seen.push(c.capsReached), { ...published, published: "next day" }))).toBe(true);
          expect(seen).toEqual([null]);
          expect(await storage.campaigns.getOne("c-cap")).toMatchObject({ capsReached: null, version: campaign.version + 1 });
          expect(await storage.publication.getCampaign("c-cap")).toMatchObject({ placements: published.placements, published: "next day" });
          expect(await storage.spend.reopen("c-cap", "2025-06-03", () => published)).toBe(false);
          expect((await storage.spend.listCapsReachedBefore("2025-06-04", {})).items).toEqual([]);

          // The next day's spend counts from zero.
          await record("cap-5", { "w-c": { total: 10_000, campaigns: { "c-cap": 10_000 }, dimensions: { "c-cap": { placements: { search: 10_000 }, devices: { mobile: 10_000 } } } } });
          await storage.spend.settle("w-c", { now: TOMORROW, timeZone: PARIS, publish });
          expect(await storage.campaigns.getOne("c-cap")).toMatchObject({
            todaySpendMicros: { day: "2025-06-03", placements: { search: 10_000 }, devices: { mobile: 10_000 } },
            capsReached: null,
          });
        }, 60_000);

        it("republishes several capped campaigns sharing a product in one settlement without losing a link", async () => {
          await fundedWallet("team-x", "w-x", 1_000_000);
          for (const id of ["c-x", "c-y"]) {
            await activeCampaign(id, "team-x", "w-x", { pacingSearch: 1 });
            await storage.publication.apply(id, makePublishedCampaign(id, ["SKU-SHARED", `SKU-${id}`], { team: "team-x", wallet: "w-x" }));
          }
          await storage.publication.apply("c-z", makePublishedCampaign("c-z", ["SKU-SHARED"], { team: "team-x", wallet: "w-x" }));
          expect(await storage.publication.campaignsForProduct("SKU-SHARED")).toEqual(["c-x", "c-y", "c-z"]);
          // Capped on search, each is withdrawn (as a campaign serving only on search would be).
          const withdraw = (c: StoredCampaign) => (c.capsReached?.placements.includes("search") ? null : makePublishedCampaign(c.id, ["SKU-SHARED"]));
          const search = { placements: { search: 10_000 }, devices: { mobile: 10_000 } };
          await record("shared-1", { "w-x": { total: 20_000, campaigns: { "c-x": 10_000, "c-y": 10_000 }, dimensions: { "c-x": search, "c-y": search } } });
          await storage.spend.settle("w-x", { now: NOW, timeZone: PARIS, publish: withdraw });
          expect(await storage.publication.getCampaign("c-x")).toBeNull();
          expect(await storage.publication.getCampaign("c-y")).toBeNull();
          expect(await storage.publication.campaignsForProduct("SKU-SHARED")).toEqual(["c-z"]);
          expect(await storage.publication.campaignsForProduct("SKU-c-x")).toEqual([]);
          // The next day both are linked again, beside the third.
          for (const id of ["c-x", "c-y"]) expect(await storage.spend.reopen(id, "2025-06-03", withdraw)).toBe(true);
          expect(await storage.publication.campaignsForProduct("SKU-SHARED")).toEqual(["c-x", "c-y", "c-z"]);
        }, 60_000);

        it("purges batches received before a time", async () => {
          await storage.spend.openBatch(batch("old-1", {}, { received: "2025-05-01T00:00:00.000Z" }));
          await storage.spend.openBatch(batch("old-2", {}, { received: "2025-05-20T00:00:00.000Z" }));
          await storage.spend.openBatch(batch("new-1", {}, { received: "2025-06-02T00:00:00.000Z" }));
          expect(await storage.spend.purgeBatches(new Date("2025-05-25T00:00:00.000Z"), 1)).toBe(1);
          expect(await storage.spend.purgeBatches(new Date("2025-05-25T00:00:00.000Z"), 10)).toBe(1);
          expect(await storage.spend.purgeBatches(new Date("2025-05-25T00:00:00.000Z"), 10)).toBe(0);
          expect(await storage.spend.getBatch("old-1")).toBeNull();
          expect(await storage.spend.getBatch("old-2")).toBeNull();
          expect(await storage.spend.getBatch("new-1")).not.toBeNull();
        });
      });

      describe("catalog changes (what the search index follows, ADR 20)", () => {
        const product = (id: string, title = `Product ${id}`) => makeProductInput({ id, title });
        const ids = (page: { items: { id: string }[] }) => page.items.map((p) => p.id);

        it("keeps one state, made on first read: a catalog id, no change yet", async () => {
          const first = await storage.catalog.state();
          expect(first).toMatchObject({ seq: 0, open: [] });
          expect(first.catalogId).toMatch(/^[0-9a-f-]{36}$/);
          const again = await storage.catalog.state();
          expect(again).toEqual(first);
          // Two readers at once agree on the one state.
          await store.clear();
          const [a, b] = await Promise.all([storage.catalog.state(), storage.catalog.state()]);
          expect(a.catalogId).toBe(b.catalogId);
        });

        it("numbers each upsert, stamps its products with the number, and lists the products changed since one", async () => {
          await storage.catalog.upsertMany([product("SKU-C3"), product("SKU-C1"), product("SKU-C2")]);
          const afterFirst = await storage.catalog.state();
          expect(afterFirst).toMatchObject({ seq: 1, open: [] });
          await storage.catalog.upsertMany([product("SKU-C4"), product("SKU-C1", "Renamed")]);
          const afterSecond = await storage.catalog.state();
          expect(afterSecond).toMatchObject({ seq: 2, open: [], catalogId: afterFirst.catalogId });
          expect(afterSecond.version).toBeGreaterThan(afterFirst.version);
          expect(await storage.catalog.getOne("SKU-C1")).toMatchObject({ title: "Renamed", catalogSeq: 2 });
          expect(await storage.catalog.getOne("SKU-C2")).toMatchObject({ catalogSeq: 1 });

          // Since the second: only what it wrote (a product rewritten moves to its number), by number then id.
          expect(ids(await storage.catalog.listChanged({ sinceSeq: 2 }))).toEqual(["SKU-C1", "SKU-C4"]);
          expect(ids(await storage.catalog.listChanged({ sinceSeq: 1 }))).toEqual(["SKU-C2", "SKU-C3", "SKU-C1", "SKU-C4"]);
          expect(ids(await storage.catalog.listChanged({ sinceSeq: 3 }))).toEqual([]);
          // Every product, by id, a page at a time.
          const first = await storage.catalog.listChanged({ sinceSeq: null, limit: 3 });
          expect(ids(first)).toEqual(["SKU-C1", "SKU-C2", "SKU-C3"]);
          const second = await storage.catalog.listChanged({ sinceSeq: null, limit: 3, after: first.next });
          expect(ids(second)).toEqual(["SKU-C4"]);
          expect(second.next).toBeNull();
          // The same with a number, across pages.
          const since1 = await storage.catalog.listChanged({ sinceSeq: 1, limit: 2 });
          expect(ids(since1)).toEqual(["SKU-C2", "SKU-C3"]);
          expect(ids(await storage.catalog.listChanged({ sinceSeq: 1, limit: 2, after: since1.next }))).toEqual(["SKU-C1", "SKU-C4"]);
        });

        it("changes nothing for an empty upsert, and keeps the seller id where the feed gives one", async () => {
          const before = await storage.catalog.state();
          expect(await storage.catalog.upsertMany([])).toBe(0);
          expect(await storage.catalog.state()).toEqual(before);
          await storage.catalog.upsertMany([makeProductInput({ id: "SKU-S1", seller_id: " seller-42 " }), makeProductInput({ id: "SKU-S2", seller_id: "" })]);
          expect(await storage.catalog.getOne("SKU-S1")).toMatchObject({ seller_id: "seller-42" });
          expect(await storage.catalog.getOne("SKU-S2")).not.toHaveProperty("seller_id");
        });

        it("holds an upsert open while it writes, and lets go of one left open by a process that died", async () => {
          const now = Date.now();
          const stale = new Date(now - CATALOG_OPEN_TIMEOUT_MS - 60_000).toISOString();
          const running = new Date(now - 60_000).toISOString();
          await store.set(COLLECTIONS.catalogState, "catalog", { catalogId: "c-1", seq: 7, open: [{ seq: 6, since: stale }, { seq: 7, since: running }], updated: running });
          expect(await storage.catalog.state()).toMatchObject({ seq: 7, open: [{ seq: 6 }, { seq: 7 }] });
          // While an upsert writes, its number is open (seen here from inside its first write).
          const seen: unknown[] = [];
          const watching = createStorage(
            new Proxy(store, {
              get(target, prop) {
                if (prop === "transaction") {
                  return async (fn: Parameters<DocumentStore["transaction"]>[0]) => {
                    const result = await target.transaction(fn);
                    seen.push((await target.get<{ open: { seq: number }[] }>(COLLECTIONS.catalogState, "catalog"))?.open.map((o) => o.seq));
                    return result;
                  };
                }
                const value = Reflect.get(target, prop, target);
                return typeof value === "function" ? value.bind(target) : value;
              },
            }),
          );
          await watching.catalog.upsertMany([product("SKU-O1")]);
          // Begun (8 open beside the running 7, the stale 6 dropped), written, finished.
          expect(seen).toEqual([[7, 8], [7, 8], [7]]);
          expect(await storage.catalog.state()).toMatchObject({ catalogId: "c-1", seq: 8, open: [{ seq: 7 }] });
        });

        it("lets an index follow it: rebuilt once, then only what changed", async () => {
          const { SearchIndex } = await import("~/search/fts-index.server");
          const { followCatalog, nextFromSeq } = await import("~/search/follow.server");
          const index = new SearchIndex(":memory:");
          try {
            await storage.catalog.upsertMany(Array.from({ length: 12 }, (_, i) => product(`SKU-F${String(i).padStart(2, "0")}`, `Espresso cup ${i}`)));
            expect(await followCatalog(index, storage.catalog)).toEqual({ outcome: "rebuilt", read: 12 });
            expect(index.productCount()).toBe(12);
            expect(await followCatalog(index, storage.catalog)).toEqual({ outcome: "unchanged", read: 0 });
            await storage.catalog.upsertMany([product("SKU-F03", "Café crème bowl"), product("SKU-F99", "Tea pot")]);
            expect(await followCatalog(index, storage.catalog)).toEqual({ outcome: "updated", read: 2 });
            expect(index.productCount()).toBe(13);
            expect(index.searchProducts({ words: ["creme"], scope: null, limit: 5 }).map((h) => h.id)).toEqual(["SKU-F03"]);
            expect(index.searchProducts({ words: ["espresso"], scope: null, limit: 20 })).toHaveLength(11);
            // Another catalog (a new database): rebuilt from scratch.
            await store.clear();
            await storage.catalog.upsertMany([product("SKU-N1", "Green tea")]);
            expect(await followCatalog(index, storage.catalog)).toEqual({ outcome: "rebuilt", read: 1 });
            expect(index.productCount()).toBe(1);
            // An upsert still open is read again next time.
            expect(nextFromSeq({ seq: 9, open: [{ seq: 8, since: new Date().toISOString() }] }, Date.now())).toBe(8);
            expect(nextFromSeq({ seq: 9, open: [] }, Date.now())).toBe(10);
          } finally {
            index.close();
          }
        });
      });

      describe("sponsored products (the publication cache)", () => {
        it("lists the products at least one published campaign sponsors, a page at a time", async () => {
          expect(await storage.publication.listSponsoredProducts({})).toEqual({ items: [], next: null });
          await storage.publication.apply("c-s1", makePublishedCampaign("c-s1", ["SKU-B", "SKU-A"]));
          await storage.publication.apply("c-s2", makePublishedCampaign("c-s2", ["SKU-A", "SKU-C"]));
          const first = await storage.publication.listSponsoredProducts({ limit: 2 });
          expect(first.items).toEqual(["SKU-A", "SKU-B"]);
          const second = await storage.publication.listSponsoredProducts({ limit: 2, after: first.next });
          expect(second.items).toEqual(["SKU-C"]);
          await storage.publication.apply("c-s2", null);
          expect((await storage.publication.listSponsoredProducts({})).items).toEqual(["SKU-A", "SKU-B"]);
          await storage.publication.apply("c-s1", null);
          expect((await storage.publication.listSponsoredProducts({})).items).toEqual([]);
        });
      });

      describe("invitations", () => {
        const NOW = new Date("2025-06-10T08:00:00.000Z");
        const later = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

        it("creates a pending invitation, audited, revoking earlier pending ones for the same e-mail and team", async () => {
          const first = await storage.invitations.create(
            makeInvitationInput("team-a", NOW, { email: "Nina.Roux@Brand.example", role: "VIEWER" }),
            ADMIN,
            NOW,
          );
          expect(first).toMatchObject({
            teamId: "team-a",
            email: "Nina.Roux@Brand.example",
            emailLower: "nina.roux@brand.example",
            role: "VIEWER",
            status: "pending",
            sentCount: 1,
            invitedBy: ADMIN.by,
            created: NOW.toISOString(),
            expiresAt: later(7 * 24 * 60).toISOString(),
            acceptedAt: null,
            acceptedBy: null,
            version: 1,
          });
          expect(await storage.invitations.getOne(first.id)).toEqual(first);
          expect(await storage.invitations.getByTokenHash(first.tokenHash)).toEqual(first);
          const otherTeam = await storage.invitations.create(makeInvitationInput("team-b", NOW, { email: "nina.roux@brand.example" }), ADMIN, later(1));

          // A second pending one for the same e-mail and team (as two racing creates can leave).
          const { id: _id, version: _version, ...data } = first;
          await store.create(COLLECTIONS.invitation, "inv-stray", { ...data, tokenHash: tokenHashOf("stray"), created: later(2).toISOString() });

          const second = await storage.invitations.create(
            makeInvitationInput("team-a", NOW, { email: " NINA.ROUX@brand.example ", role: "ADMIN" }),
            ADMIN,
            later(3),
          );
          expect(second).toMatchObject({ status: "pending", email: "NINA.ROUX@brand.example", role: "ADMIN" });
          expect((await storage.invitations.getOne(first.id))?.status).toBe("revoked");
          expect((await storage.invitations.getOne("inv-stray"))?.status).toBe("revoked");
          expect((await storage.invitations.getOne(otherTeam.id))?.status).toBe("pending");
          expect((await storage.invitations.listForTeam("team-a")).map((i) => i.id)).toEqual([second.id, "inv-stray", first.id]);
          expect((await storage.invitations.listForTeam("team-a", "pending")).map((i) => i.id)).toEqual([second.id]);
          expect((await storage.invitations.listForTeam("team-a", "revoked")).map((i) => i.id)).toEqual(["inv-stray", first.id]);
          expect(await storage.invitations.listForTeam("team-z")).toEqual([]);

          const [created] = await auditOf(second.id);
          expect(created).toMatchObject({ action: "create", entity: "invitation", teamId: "team-a", by: ADMIN.by });
          expect(created.changes).toEqual([
            { field: "email", before: null, after: "NINA.ROUX@brand.example" },
            { field: "role", before: null, after: "ADMIN" },
          ]);
        });

        it("resends with a new token and expiry, counting every send, and revokes, audited", async () => {
          const invitation = await storage.invitations.create(makeInvitationInput("team-a", NOW), ADMIN, NOW);
          const newHash = tokenHashOf("second link");
          const resent = await storage.invitations.resend(invitation.id, newHash, later(8 * 24 * 60), ADMIN, later(60));
          expect(resent).toMatchObject({
            tokenHash: newHash,
            expiresAt: later(8 * 24 * 60).toISOString(),
            sentCount: 2,
            status: "pending",
            updated: later(60).toISOString(),
            version: 2,
          });
          expect(await storage.invitations.getOne(invitation.id)).toEqual(resent);
          expect(await storage.invitations.getByTokenHash(invitation.tokenHash)).toBeNull();
          expect((await storage.invitations.getByTokenHash(newHash))?.id).toBe(invitation.id);

          // Racing resends are all counted.
          await Promise.all(
            [1, 2, 3].map((i) => storage.invitations.resend(invitation.id, tokenHashOf(`race ${i}`), later(9 * 24 * 60), ADMIN, later(61))),
          );
          expect(await storage.invitations.getOne(invitation.id)).toMatchObject({ sentCount: 5, version: 5 });

          const revoked = await storage.invitations.revoke(invitation.id, ADMIN, later(120));
          expect(revoked).toMatchObject({ status: "revoked", sentCount: 5, version: 6, updated: later(120).toISOString() });
          expect(await storage.invitations.getOne(invitation.id)).toEqual(revoked);
          const audit = await auditOf(invitation.id);
          expect(audit.map((e) => e.action).sort()).toEqual(["create", "resend", "resend", "resend", "resend", "revoke"]);
          expect(audit.find((e) => e.action === "revoke")).toMatchObject({
            by: ADMIN.by,
            teamId: "team-a",
            changes: [{ field: "status", before: "pending", after: "revoked" }],
          });

          await expect(storage.invitations.resend("inv-ghost", newHash, later(1), ADMIN, NOW)).rejects.toBeInstanceOf(NotFoundError);
          await expect(storage.invitations.revoke("inv-ghost", ADMIN, NOW)).rejects.toBeInstanceOf(NotFoundError);
          expect(await storage.invitations.getOne("inv-ghost")).toBeNull();
        }, 60_000);

        it("accepts atomically: the invitation is accepted and the user gets the role on the team, once", async () => {
          await storage.users.create(makeUserData({ email: "nina.roux@brand.example", roleByTeam: { "team-b": "VIEWER" } }), ADMIN, "u-nina");
          const invitation = await storage.invitations.create(
            makeInvitationInput("team-a", NOW, { email: "Nina.Roux@Brand.example", role: "EDITOR" }),
            ADMIN,
            NOW,
          );
          const result = await storage.invitations.accept(invitation.tokenHash, "u-nina", later(5));
          expect(result).toMatchObject({
            ok: true,
            invitation: { id: invitation.id, status: "accepted", acceptedAt: later(5).toISOString(), acceptedBy: "u-nina", version: 2 },
          });
          expect(await storage.invitations.getOne(invitation.id)).toMatchObject({ status: "accepted", acceptedAt: later(5).toISOString(), acceptedBy: "u-nina", version: 2 });
          expect(await storage.users.getOne("u-nina")).toMatchObject({
            roleByTeam: { "team-a": "EDITOR", "team-b": "VIEWER" },
            teamIds: ["team-a", "team-b"],
            version: 2,
          });
          expect((await storage.users.listByTeam("team-a")).map((u) => u.id)).toEqual(["u-nina"]);
          const accepted = (await auditOf(invitation.id)).find((e) => e.action === "accept")!;
          expect(accepted).toMatchObject({ by: "nina.roux@brand.example", entity: "invitation", teamId: "team-a" });
          expect(accepted.changes).toEqual([
            { field: "status", before: "pending", after: "accepted" },
            { field: "roleByTeam.team-a", before: null, after: "EDITOR" },
          ]);
          expect(await storage.invitations.accept(invitation.tokenHash, "u-nina", later(6))).toEqual({ ok: false, reason: "invitation.accepted" });
          // An accepted invitation is history: it can be neither revoked nor resent.
          await expect(storage.invitations.revoke(invitation.id, ADMIN, later(7))).rejects.toBeInstanceOf(ConflictError);
          await expect(storage.invitations.resend(invitation.id, "f".repeat(64), later(60 * 24), ADMIN, later(7))).rejects.toBeInstanceOf(ConflictError);
          expect(await storage.invitations.getOne(invitation.id)).toMatchObject({ status: "accepted", version: 2 });

          // Racing accepts of one link: one wins, the user changes once.
          const next = await storage.invitations.create(makeInvitationInput("team-c", NOW, { email: "nina.roux@brand.example", role: "ADMIN" }), ADMIN, later(10));
          const raced = await Promise.all(Array.from({ length: 4 }, () => storage.invitations.accept(next.tokenHash, "u-nina", later(11))));
          expect(raced.filter((r) => r.ok)).toHaveLength(1);
          expect(raced.filter((r) => !r.ok)).toEqual(Array.from({ length: 3 }, () => ({ ok: false, reason: "invitation.accepted" })));
          expect(await storage.users.getOne("u-nina")).toMatchObject({ teamIds: ["team-a", "team-b", "team-c"], version: 3 });
        }, 60_000);

        it("refuses another user, an expired, revoked or unknown link, changing nothing", async () => {
          await storage.users.create(makeUserData({ email: "nina.roux@brand.example", roleByTeam: {} }), ADMIN, "u-nina");
          await storage.users.create(makeUserData({ email: "someone.else@brand.example", roleByTeam: {} }), ADMIN, "u-else");
          const invitation = await storage.invitations.create(
            makeInvitationInput("team-a", NOW, { email: "nina.roux@brand.example", expiresAt: later(60) }),
            ADMIN,
            NOW,
          );
          const accept = (userId: string, now: Date, hash = invitation.tokenHash) => storage.invitations.accept(hash, userId, now);
          expect(await accept("u-else", later(1))).toEqual({ ok: false, reason: "invitation.wrongUser" });
          expect(await accept("u-nina", later(60))).toEqual({ ok: false, reason: "invitation.expired" });
          expect(await accept("u-ghost", later(1))).toEqual({ ok: false, reason: "invitation.invalid" });
          expect(await accept("u-nina", later(1), tokenHashOf("never sent"))).toEqual({ ok: false, reason: "invitation.invalid" });
          expect(await storage.invitations.getOne(invitation.id)).toEqual(invitation);
          await storage.invitations.revoke(invitation.id, ADMIN, later(2));
          expect(await accept("u-nina", later(3))).toEqual({ ok: false, reason: "invitation.revoked" });

          expect(await storage.users.getOne("u-nina")).toMatchObject({ roleByTeam: {}, teamIds: [], version: 1 });
          expect(await storage.users.getOne("u-else")).toMatchObject({ roleByTeam: {}, version: 1 });
          expect(await storage.invitations.getOne(invitation.id)).toMatchObject({ status: "revoked", acceptedAt: null, acceptedBy: null });
          expect((await auditOf(invitation.id)).map((e) => e.action).sort()).toEqual(["create", "revoke"]);
        });
      });
    });
  });
}

/** The accepted result of a posting, or a failure naming the refusal. */
function okOf(result: PostEntryResult): Extract<PostEntryResult, { ok: true }> {
  if (!result.ok) throw new Error(`posting refused: ${result.reason}`);
  return result;
}
