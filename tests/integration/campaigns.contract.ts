/**
 * The campaign half of the storage contract (issue 4): campaigns, deleted campaigns, both
 * publication caches, the catalog and saved views, through the repositories, on every adapter.
 * Wired into storage-sqlite.test.ts and storage-firestore.test.ts beside runStorageContract.
 *
 * The repositories here run over a store that records every query they make; the last case
 * checks each one against firestore.indexes.json, as production Firestore would.
 */
import fs from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dayEdge, type CampaignData } from "~/domain/campaigns/campaign";
import { effectiveOrder } from "~/storage/document-helpers";
import {
  AlreadyExistsError,
  COLLECTIONS,
  ConflictError,
  NotFoundError,
  type Campaign,
  type CampaignListSpec,
  type CampaignSort,
  type DocumentStore,
  type QuerySpec,
  type Storage,
} from "~/storage/port";
import { OPEN_END_SORT_KEY } from "~/storage/repos/campaigns.server";
import { MAX_CAMPAIGN_VIEWS, newViewRefusal } from "~/domain/campaigns/views";
import { createStorage } from "~/storage/repos/index.server";
import { DEMO_CATALOG_SIZE, demoCatalog, seedDemoCatalog } from "~/services/catalog-seed.server";
import { CAMPAIGN_NOW, makeCampaignData, makeProductInput, makePublishedCampaign, RETAILER_TIME_ZONE } from "../factories";

const EDITOR = { by: "editor@brand.example" };
const REVIEWER = { by: "reviewer@retailer.example" };

interface RecordedQuery {
  collection: string;
  spec: QuerySpec;
}

/** The store, with every query() recorded. */
function recording(store: DocumentStore, log: RecordedQuery[]): DocumentStore {
  return new Proxy(store, {
    get(target, prop) {
      if (prop === "query") {
        return (collection: string, spec: QuerySpec) => {
          log.push({ collection, spec });
          return target.query(collection, spec);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

interface IndexField {
  fieldPath: string;
  order?: "ASCENDING" | "DESCENDING";
  arrayConfig?: "CONTAINS";
}
interface CompositeIndex {
  collectionGroup: string;
  queryScope: string;
  fields: IndexField[];
}

/**
 * Whether production Firestore can serve the query with the declared composite indexes:
 * equality filters alone, or one order alone, need none (single-field indexes, merged for
 * several equalities); filters with an order need indexes ending with that order whose other
 * fields are filters of the query and which together cover every filter (index merging).
 */
export function servedByIndexes(collection: string, spec: QuerySpec, indexes: readonly CompositeIndex[]): boolean {
  const order = effectiveOrder(spec);
  const equal = new Set<string>();
  const contains = new Set<string>();
  for (const [field, op] of spec.where ?? []) {
    if (op === "==" || op === "in") equal.add(field);
    else if (op === "array-contains") contains.add(field);
  }
  if (!order || equal.size + contains.size === 0) return true;
  const direction = order.direction === "desc" ? "DESCENDING" : "ASCENDING";
  const covered = new Set<string>();
  for (const index of indexes) {
    if (index.collectionGroup !== collection || index.queryScope !== "COLLECTION") continue;
    const fields = index.fields.filter((f) => f.fieldPath !== "__name__");
    const last = fields[fields.length - 1];
    if (!last || last.fieldPath !== order.field || last.order !== direction) continue;
    const prefix = fields.slice(0, -1);
    const usable = prefix.every((f) => (f.arrayConfig === "CONTAINS" ? contains.has(f.fieldPath) : equal.has(f.fieldPath)));
    if (!usable) continue;
    for (const f of prefix) covered.add(`${f.arrayConfig ? "contains" : "equal"}:${f.fieldPath}`);
  }
  return [...equal].every((f) => covered.has(`equal:${f}`)) && [...contains].every((f) => covered.has(`contains:${f}`));
}

/** Pinned instants. */
const day = (d: string, edge: "start" | "end") => new Date(dayEdge(d, RETAILER_TIME_ZONE, edge)).toISOString();
const at = (iso: string) => new Date(iso);
/** Audit entries order by their instant (ms): consecutive writes in a test are kept apart. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 3));

/**
 * Seven campaigns of three teams. Created in id order, so that names, dates, spend and update
 * times all order them differently; c-1 and c-6 spend the same (ties go by id).
 */
const FIXTURE = [
  { id: "c-1", name: "Summer Coffee Week", team: "t-a", status: "active", type: "sponsored-products", wallet: "w-a1", start: "2025-06-01", end: "2025-06-30", spend: 12_000, created: "2025-05-01T08:00:00.000Z", updated: "2025-05-05T08:00:00.000Z" },
  { id: "c-2", name: "Café Crème Launch", team: "t-a", status: "draft", type: "banner-ads", wallet: null, start: "2025-07-01", end: null, spend: 0, created: "2025-05-02T08:00:00.000Z", updated: "2025-05-03T08:00:00.000Z" },
  { id: "c-3", name: "Back to School", team: "t-b", status: "paused", type: "sponsored-products", wallet: "w-b1", start: "2025-08-15", end: "2025-09-15", spend: 5_000, created: "2025-05-03T08:00:00.000Z", updated: "2025-05-08T08:00:00.000Z" },
  { id: "c-4", name: "Coffee Capsules Promo", team: "t-b", status: "active", type: "banner-ads", wallet: "w-b1", start: "2025-06-10", end: null, spend: 30_000, created: "2025-05-04T08:00:00.000Z", updated: "2025-05-01T08:00:00.000Z" },
  { id: "c-5", name: "Winter Tea", team: "t-c", status: "archived", type: "sponsored-products", wallet: "w-c1", start: "2025-01-05", end: "2025-02-28", spend: 8_000, created: "2025-05-05T08:00:00.000Z", updated: "2025-05-07T08:00:00.000Z" },
  { id: "c-6", name: "Acme Coffee Always On", team: "t-c", status: "active", type: "sponsored-products", wallet: "w-c1", start: "2025-06-01", end: null, spend: 12_000, created: "2025-05-06T08:00:00.000Z", updated: "2025-05-02T08:00:00.000Z" },
  { id: "c-7", name: "Tea Draft Without Dates", team: "t-a", status: "draft", type: "sponsored-products", wallet: null, start: null, end: null, spend: 0, created: "2025-05-07T08:00:00.000Z", updated: "2025-05-04T08:00:00.000Z" },
] as const;
type FixtureRow = (typeof FIXTURE)[number];

function fixtureData(row: FixtureRow): CampaignData {
  return makeCampaignData({
    input: { name: row.name, startDay: row.start ?? undefined, endDay: row.end, campaignType: row.type },
    team: row.team,
    status: row.status,
    wallet: row.wallet,
    spend: row.spend,
    created: row.created,
    updated: row.updated,
    ...(row.start ? {} : { startDate: null }),
  });
}

/** The order a sort must give, computed here independently of the stores. */
function expectedOrder(sort: CampaignSort, direction: "asc" | "desc", rows: readonly FixtureRow[] = FIXTURE): string[] {
  const key = (r: FixtureRow): string | number | null => {
    switch (sort) {
      case "name":
        return r.name.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase();
      case "startDate":
        return r.start ? day(r.start, "start") : null;
      case "endDate":
        return r.end ? day(r.end, "end") : OPEN_END_SORT_KEY;
      case "spend":
        return r.spend;
      default:
        return r[sort];
    }
  };
  const cmp = (a: FixtureRow, b: FixtureRow) => {
    const ka = key(a);
    const kb = key(b);
    if (ka !== kb) {
      if (ka === null) return -1;
      if (kb === null) return 1;
      return ka < kb ? -1 : 1;
    }
    return a.id < b.id ? -1 : 1;
  };
  const sorted = [...rows].sort(cmp).map((r) => r.id);
  return direction === "asc" ? sorted : sorted.reverse();
}

export function runCampaignsContract(name: string, makeStore: () => Promise<DocumentStore>): void {
  describe(`campaign storage contract: ${name}`, () => {
    let store: DocumentStore;
    let storage: Storage;
    const queries: RecordedQuery[] = [];

    beforeAll(async () => {
      store = await makeStore();
      storage = createStorage(recording(store, queries));
    });

    afterAll(async () => {
      await store?.close();
    });

    beforeEach(async () => {
      await store.clear();
    });

    async function allPages(spec: CampaignListSpec): Promise<{ ids: string[]; pages: number; sizes: number[] }> {
      const ids: string[] = [];
      const sizes: number[] = [];
      let after: string | null = null;
      let pages = 0;
      do {
        const page: Awaited<ReturnType<Storage["campaigns"]["list"]>> = await storage.campaigns.list({ ...spec, after });
        ids.push(...page.items.map((c) => c.id));
        sizes.push(page.items.length);
        after = page.next;
        pages += 1;
        if (pages > 50) throw new Error("pagination does not end");
      } while (after);
      return { ids, pages, sizes };
    }

    describe("DocumentStore: null values in an order", () => {
      it("come first ascending and last descending, and cursor pages cross them with none lost", async () => {
        const rows: [string, string | null][] = [
          ["a", null],
          ["b", "2025-03-01"],
          ["c", null],
          ["d", "2025-01-01"],
          ["e", "2025-03-01"],
          ["f", null],
        ];
        for (const [id, end] of rows) await store.create("sortable", id, { end });
        await store.create("sortable", "g", { other: 1 });
        const pagesOf = async (direction: "asc" | "desc", limit: number) => {
          const ids: string[] = [];
          let after: string | null = null;
          do {
            const page: Awaited<ReturnType<DocumentStore["query"]>> = await store.query("sortable", { orderBy: { field: "end", direction }, limit, after });
            ids.push(...page.items.map((d) => d.id));
            after = page.next;
          } while (after);
          return ids;
        };
        const asc = ["a", "c", "f", "d", "b", "e"];
        for (const limit of [1, 2, 4, 10]) {
          expect(await pagesOf("asc", limit)).toEqual(asc);
          expect(await pagesOf("desc", limit)).toEqual([...asc].reverse());
        }
      });
    });

    describe("campaigns", () => {
      it("creates a draft with derived keys, version 1, audited, and reads it back one or many", async () => {
        // Instants in an offset form are stored in UTC, so that they sort and compare as text.
        const data = makeCampaignData({ input: { name: "  Été Café Promo " }, startDate: "2025-06-02T00:00:00.000+02:00", created: "2025-06-02T09:30:00.000+02:00" });
        const created = await storage.campaigns.create(data, EDITOR, "camp-1");
        expect(created).toMatchObject({
          id: "camp-1",
          version: 1,
          name: "Été Café Promo",
          nameLower: "ete cafe promo",
          status: "draft",
          team: "team-brand-acme",
          startDate: "2025-06-01T22:00:00.000Z",
          endDate: null,
          created: "2025-06-02T07:30:00.000Z",
          by: "editor@brand.example",
        });
        expect(created.searchTokens).toEqual(expect.arrayContaining(["e", "et", "ete", "c", "caf", "cafe", "p", "promo"]));
        // The stored sort key stays inside the repository.
        expect(created).not.toHaveProperty("endSort");
        const read = await storage.campaigns.getOne("camp-1");
        expect(read).toEqual(created);
        expect(await storage.campaigns.getOne("missing")).toBeNull();
        await storage.campaigns.create(makeCampaignData({ input: { name: "Second" } }), EDITOR, "camp-2");
        expect((await storage.campaigns.getMany(["camp-2", "missing", "camp-1"])).map((c) => c.id)).toEqual(["camp-2", "camp-1"]);

        const history = await storage.campaigns.history("camp-1", {});
        expect(history.items).toHaveLength(1);
        expect(history.items[0]).toMatchObject({ action: "create", entity: "campaign", entityId: "camp-1", teamId: "team-brand-acme", by: "editor@brand.example" });
        const fields = history.items[0]!.changes.map((c) => c.field);
        expect(fields).toEqual(expect.arrayContaining(["name", "status", "bid", "startDate"]));
        expect(fields).not.toContain("endSort");
        expect(fields).not.toContain("searchTokens");
      });

      it("refuses an id that is taken, leaving the campaign unchanged", async () => {
        await storage.campaigns.create(makeCampaignData({ input: { name: "First" } }), EDITOR, "camp-1");
        await expect(storage.campaigns.create(makeCampaignData({ input: { name: "Other" } }), EDITOR, "camp-1")).rejects.toBeInstanceOf(AlreadyExistsError);
        expect((await storage.campaigns.getOne("camp-1"))?.name).toBe("First");
      });

      describe("list", () => {
        beforeEach(async () => {
          for (const row of FIXTURE) await storage.campaigns.create(fixtureData(row), EDITOR, row.id);
        });

        const ids = async (spec: CampaignListSpec) => {
          const page = await storage.campaigns.list({ limit: 50, sort: "name", ...spec });
          expect(page.next).toBeNull();
          return page.items.map((c) => c.id);
        };

        it("scopes to the teams given: one, several with `in`, none at all; every team when not given", async () => {
          expect(await ids({})).toEqual(["c-6", "c-3", "c-2", "c-4", "c-1", "c-7", "c-5"]);
          expect(await ids({ teamIds: ["t-a"] })).toEqual(["c-2", "c-1", "c-7"]);
          expect(await ids({ teamIds: ["t-a", "t-c"] })).toEqual(["c-6", "c-2", "c-1", "c-7", "c-5"]);
          expect(await ids({ teamIds: ["t-b", "t-b"] })).toEqual(["c-3", "c-4"]);
          expect(await ids({ teamIds: ["t-unknown"] })).toEqual([]);
          expect(await ids({ teamIds: [] })).toEqual([]);
          const tooMany = Array.from({ length: 31 }, (_, i) => `t-${i}`);
          await expect(storage.campaigns.list({ teamIds: tooMany })).rejects.toThrow(/At most 30 teams/);
        });

        it("filters by stored status (one or several), type and wallet, with the team scope", async () => {
          expect(await ids({ statuses: ["active"] })).toEqual(["c-6", "c-4", "c-1"]);
          expect(await ids({ statuses: ["active", "paused"] })).toEqual(["c-6", "c-3", "c-4", "c-1"]);
          expect(await ids({ statuses: ["draft", "archived"], teamIds: ["t-a", "t-c"] })).toEqual(["c-2", "c-7", "c-5"]);
          expect(await ids({ type: "banner-ads" })).toEqual(["c-2", "c-4"]);
          expect(await ids({ type: "sponsored-products", statuses: ["active"] })).toEqual(["c-6", "c-1"]);
          expect(await ids({ walletId: "w-b1" })).toEqual(["c-3", "c-4"]);
          expect(await ids({ walletId: "w-b1", teamIds: ["t-a"] })).toEqual([]);
          expect(await ids({ walletId: "w-c1", statuses: ["active"], type: "sponsored-products", teamIds: ["t-c", "t-a"] })).toEqual(["c-6"]);
        });

        it("counts what a list selects, up to a bound", async () => {
          const specs: CampaignListSpec[] = [{}, { teamIds: ["t-a"] }, { statuses: ["active", "paused"] }, { type: "banner-ads" }, { walletId: "w-b1" }, { teamIds: [] }];
          for (const spec of specs) {
            expect(await storage.campaigns.count(spec, 100), JSON.stringify(spec)).toBe((await ids(spec)).length);
          }
          expect(await storage.campaigns.count({}, 3)).toBe(3);
          // A search counts the campaigns holding its most selective word: at least those the list shows.
          expect(await storage.campaigns.count({ search: "coffee" }, 100)).toBeGreaterThanOrEqual((await ids({ search: "coffee" })).length);
        });

        it("keeps the 30-disjunction limit: 30 teams and several statuses still filter exactly, in full pages", async () => {
          const teams = ["t-a", "t-b", "t-c", ...Array.from({ length: 27 }, (_, i) => `t-x${i}`)];
          expect(await ids({ teamIds: teams, statuses: ["active", "paused"] })).toEqual(["c-6", "c-3", "c-4", "c-1"]);
          const paged = await allPages({ teamIds: teams, statuses: ["active", "paused"], sort: "name", limit: 2 });
          expect(paged.ids).toEqual(["c-6", "c-3", "c-4", "c-1"]);
          expect(paged.sizes.slice(0, 2)).toEqual([2, 2]);
          expect(await ids({ teamIds: teams.slice(0, 15), statuses: ["draft", "archived"] })).toEqual(["c-2", "c-7", "c-5"]);
        });

        it("searches word prefixes of the name whatever the case and accents, with the other filters", async () => {
          expect(await ids({ search: "coffee" })).toEqual(["c-6", "c-4", "c-1"]);
          expect(await ids({ search: "CO" })).toEqual(["c-6", "c-4", "c-1"]);
          expect(await ids({ search: "creme" })).toEqual(["c-2"]);
          expect(await ids({ search: "CAFÉ cr" })).toEqual(["c-2"]);
          expect(await ids({ search: "capsules coffee" })).toEqual(["c-4"]);
          expect(await ids({ search: "offee" })).toEqual([]);
          expect(await ids({ search: "coffee", teamIds: ["t-a", "t-b"] })).toEqual(["c-4", "c-1"]);
          expect(await ids({ search: "coffee", teamIds: ["t-a", "t-b", "t-c"], statuses: ["active", "paused"], type: "sponsored-products" })).toEqual(["c-6", "c-1"]);
          expect(await ids({ search: "tea", sort: "updated" })).toEqual(["c-5", "c-7"]);
          // A word checked on the page: the page is topped up to the limit.
          const one = await storage.campaigns.list({ search: "coffee always", sort: "name", direction: "desc", limit: 1 });
          expect(one.items.map((c) => c.id)).toEqual(["c-6"]);
        });

        it("filters start dates in [from, to), ordered by start date", async () => {
          const june = { startFrom: day("2025-06-01", "start"), startTo: day("2025-07-01", "start") };
          expect(await ids({ ...june, sort: "startDate" })).toEqual(["c-1", "c-6", "c-4"]);
          expect(await ids({ ...june, sort: "startDate", direction: "desc" })).toEqual(["c-4", "c-6", "c-1"]);
          // Another sort gives way to the start date with a range (one range per query).
          expect(await ids({ ...june, sort: "name" })).toEqual(["c-1", "c-6", "c-4"]);
          expect(await ids({ startFrom: day("2025-07-01", "start"), sort: "startDate" })).toEqual(["c-2", "c-3"]);
          expect(await ids({ startTo: day("2025-06-01", "start"), sort: "startDate" })).toEqual(["c-5"]);
          // Bounds in an offset form (as TZDate's toISOString gives) are the same instants.
          const raw = { startFrom: "2025-06-01T00:00:00.000+02:00", startTo: "2025-07-01T00:00:00.000+02:00" };
          expect(await ids({ ...raw, sort: "startDate" })).toEqual(["c-1", "c-6", "c-4"]);
          expect(await ids({ ...june, teamIds: ["t-b", "t-c"], statuses: ["active"], search: "coffee", sort: "startDate" })).toEqual(["c-6", "c-4"]);
        });

        it("sorts by every column both ways, ties by id, in cursor pages with none lost or repeated", async () => {
          const sorts: CampaignSort[] = ["updated", "name", "startDate", "endDate", "created", "spend"];
          for (const sort of sorts) {
            for (const direction of ["asc", "desc"] as const) {
              const paged = await allPages({ sort, direction, limit: 3 });
              expect({ sort, direction, ids: paged.ids }).toEqual({ sort, direction, ids: expectedOrder(sort, direction) });
              expect(paged.pages).toBe(3);
            }
          }
          // Defaults: newest update first; names A to Z.
          expect((await allPages({ limit: 4 })).ids).toEqual(expectedOrder("updated", "desc"));
          expect((await allPages({ sort: "name", limit: 4 })).ids).toEqual(expectedOrder("name", "asc"));
        });

        it("keeps campaigns without end date in an end-date order: last ascending, first descending", async () => {
          const asc = (await allPages({ sort: "endDate", direction: "asc", limit: 2 })).ids;
          expect(asc).toEqual(["c-5", "c-1", "c-3", "c-2", "c-4", "c-6", "c-7"]);
          const desc = (await allPages({ sort: "endDate", direction: "desc", limit: 2, teamIds: ["t-a"] })).ids;
          expect(desc).toEqual(["c-7", "c-2", "c-1"]);
          // Giving an end date moves the campaign; removing it moves it back.
          const updated = await storage.campaigns.update("c-7", { endDate: "2025-01-31T23:59:59.999+01:00" }, EDITOR);
          // Stored as a UTC instant, whatever form it came in.
          expect(updated.endDate).toBe("2025-01-31T22:59:59.999Z");
          expect((await storage.campaigns.getOne("c-7"))?.endDate).toBe("2025-01-31T22:59:59.999Z");
          expect((await allPages({ sort: "endDate", limit: 3 })).ids).toEqual(["c-7", "c-5", "c-1", "c-3", "c-2", "c-4", "c-6"]);
          await storage.campaigns.update("c-7", { endDate: null }, EDITOR);
          expect((await allPages({ sort: "endDate", limit: 3 })).ids).toEqual(["c-5", "c-1", "c-3", "c-2", "c-4", "c-6", "c-7"]);
        });

        it("lists every campaign of a team, across store pages", async () => {
          expect((await storage.campaigns.listForTeam("t-a")).map((c) => c.id).sort()).toEqual(["c-1", "c-2", "c-7"]);
          expect(await storage.campaigns.listForTeam("t-none")).toEqual([]);
          for (const c of await storage.campaigns.listForTeam("t-b")) expect(c).not.toHaveProperty("endSort");
        });

        it("follows a rename in search and name order", async () => {
          const before = await storage.campaigns.getOne("c-5");
          await storage.campaigns.update("c-5", { name: "Autumn Chai" }, EDITOR, { expectVersion: before!.version });
          expect(await ids({ search: "winter" })).toEqual([]);
          expect(await ids({ search: "chai" })).toEqual(["c-5"]);
          expect((await ids({}))[0]).toBe("c-6");
          expect((await ids({}))[1]).toBe("c-5");
        });
      });

      it("updates audited field by field, by the actor, under the given action; a stale version is refused and changes nothing", async () => {
        const created = await storage.campaigns.create(makeCampaignData({ input: { name: "Pasta week" } }), EDITOR, "camp-1");
        const t0 = Date.now();
        await tick();
        const updated = await storage.campaigns.update("camp-1", { bid: 60, placementBids: { search: 80 }, name: "Pasta fortnight" }, REVIEWER, {
          expectVersion: created.version,
        });
        expect(updated).toMatchObject({ id: "camp-1", version: 2, bid: 60, placementBids: { search: 80 }, name: "Pasta fortnight", nameLower: "pasta fortnight", by: "reviewer@retailer.example" });
        expect(Date.parse(updated.updated)).toBeGreaterThanOrEqual(t0 - 5_000);
        expect(updated).not.toHaveProperty("endSort");
        expect(await storage.campaigns.getOne("camp-1")).toEqual(updated);

        await expect(storage.campaigns.update("camp-1", { bid: 99 }, EDITOR, { expectVersion: created.version })).rejects.toBeInstanceOf(ConflictError);
        expect(await storage.campaigns.getOne("camp-1")).toEqual(updated);
        await expect(storage.campaigns.update("missing", { bid: 99 }, EDITOR)).rejects.toBeInstanceOf(NotFoundError);

        await tick();
        await storage.campaigns.update("camp-1", { status: "active" }, EDITOR, { expectVersion: 2, action: "enable" });

        const { items } = await storage.campaigns.history("camp-1", {});
        expect(items.map((e) => e.action)).toEqual(["enable", "update", "create"]);
        expect(items[0]).toMatchObject({ by: "editor@brand.example", entity: "campaign", entityId: "camp-1", changes: [{ field: "status", before: "draft", after: "active" }] });
        expect(items[1]!.by).toBe("reviewer@retailer.example");
        expect(items[1]!.changes).toEqual(
          expect.arrayContaining([
            { field: "bid", before: 0, after: 60 },
            { field: "placementBids", before: {}, after: { search: 80 } },
            { field: "name", before: "Pasta week", after: "Pasta fortnight" },
          ]),
        );
        expect(items[1]!.changes.map((c) => c.field).sort()).toEqual(["bid", "name", "placementBids"]);
        for (const entry of items) expect(entry.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      });

      it("audits the wallet details' Before as the caller says the wallet was, when it says so (the stored copy may lag)", async () => {
        const stale = { label: "Main", credit: 10_000, balance: 10_000, status: "active" as const };
        const created = await storage.campaigns.create(makeCampaignData({ wallet: "w-1", selectedWallet: stale }), EDITOR, "camp-1");
        const now = { label: "Main", credit: 15_000, balance: 12_500, status: "active" as const };
        await tick();
        await storage.campaigns.update("camp-1", { selectedWallet: now }, EDITOR, {
          expectVersion: created.version,
          action: "wallet",
          walletBefore: { ...now, credit: 10_000, balance: 7_500 },
        });
        // Without it, the stored value before is the Before.
        await tick();
        await storage.campaigns.update("camp-1", { selectedWallet: { ...now, balance: 12_000 } }, EDITOR, { expectVersion: created.version + 1 });
        // Given as the value after, the details are no change: only the other fields are history.
        await tick();
        await storage.campaigns.update("camp-1", { selectedWallet: { ...now, balance: 11_000 }, insufficient_funds: true }, EDITOR, {
          walletBefore: { ...now, balance: 11_000 },
        });
        expect(await storage.campaigns.getOne("camp-1")).toMatchObject({ selectedWallet: { balance: 11_000 }, insufficient_funds: true, version: created.version + 3 });
        const { items } = await storage.campaigns.history("camp-1", {});
        expect(items.map((e) => e.action)).toEqual(["update", "update", "wallet", "create"]);
        expect(items[0]!.changes).toEqual([{ field: "insufficient_funds", before: false, after: true }]);
        expect(items[1]!.changes).toEqual([{ field: "selectedWallet", before: now, after: { ...now, balance: 12_000 } }]);
        expect(items[2]!.changes).toEqual([{ field: "selectedWallet", before: { ...now, credit: 10_000, balance: 7_500 }, after: now }]);
      });

      it("gives the history newest first in cursor pages, only the campaign's own entries", async () => {
        await storage.campaigns.create(makeCampaignData(), EDITOR, "camp-1");
        await storage.campaigns.create(makeCampaignData(), EDITOR, "camp-2");
        for (let bid = 1; bid <= 4; bid++) {
          await tick();
          await storage.campaigns.update("camp-1", { bid: bid * 10 }, EDITOR);
          await storage.campaigns.update("camp-2", { bid: bid * 10 }, EDITOR);
        }
        // An update that changes nothing of the campaign's own fields is not history.
        await storage.campaigns.update("camp-1", { bid: 40 }, EDITOR);
        const seen: number[] = [];
        let after: string | null = null;
        let pages = 0;
        do {
          const page: Awaited<ReturnType<Storage["campaigns"]["history"]>> = await storage.campaigns.history("camp-1", { limit: 2, after });
          for (const entry of page.items) {
            expect(entry.entityId).toBe("camp-1");
            seen.push(entry.action === "create" ? 0 : (entry.changes[0]!.after as number));
          }
          after = page.next;
          pages += 1;
        } while (after);
        expect(seen).toEqual([40, 30, 20, 10, 0]);
        expect(pages).toBe(3);
      });

      it("deletes: a copy in deleted_campaign with deleted_by and deleted, the cache links gone, the campaign gone", async () => {
        const p1 = "SKU-DEL-1";
        const p2 = "SKU-DEL-2";
        const doomed = await storage.campaigns.create(makeCampaignData({ input: { name: "Doomed draft" } }), EDITOR, "camp-del");
        await storage.campaigns.create(makeCampaignData({ input: { name: "Neighbour" } }), EDITOR, "camp-keep");
        await storage.publication.apply("camp-del", makePublishedCampaign("camp-del", [p1, p2]));
        await storage.publication.apply("camp-keep", makePublishedCampaign("camp-keep", [p2]));

        await expect(storage.campaigns.delete("camp-del", EDITOR, CAMPAIGN_NOW, { expectVersion: doomed.version + 1 })).rejects.toBeInstanceOf(ConflictError);
        expect(await storage.campaigns.getOne("camp-del")).not.toBeNull();
        expect(await storage.publication.campaignsForProduct(p1)).toEqual(["camp-del"]);

        await tick();
        const now = new Date();
        const deleted = await storage.campaigns.delete("camp-del", REVIEWER, now, { expectVersion: doomed.version });
        expect(deleted).toMatchObject({ id: "camp-del", name: "Doomed draft", team: "team-brand-acme", status: "deleted", deleted_by: "reviewer@retailer.example", deleted: now.toISOString() });
        expect(deleted).not.toHaveProperty("endSort");
        expect(await storage.campaigns.getDeleted("camp-del")).toMatchObject({
          id: "camp-del",
          name: "Doomed draft",
          status: "deleted",
          deleted_by: "reviewer@retailer.example",
          deleted: now.toISOString(),
          startDate: doomed.startDate,
          created: doomed.created,
        });
        expect(await storage.campaigns.getOne("camp-del")).toBeNull();
        expect((await storage.campaigns.list({})).items.map((c) => c.id)).toEqual(["camp-keep"]);
        expect(await storage.publication.getCampaign("camp-del")).toBeNull();
        expect(await storage.publication.campaignsForProduct(p1)).toEqual([]);
        expect(await storage.publication.campaignsForProduct(p2)).toEqual(["camp-keep"]);
        expect(await store.get(COLLECTIONS.cacheProduct, p1)).toBeNull();

        const { items } = await storage.campaigns.history("camp-del", {});
        expect(items[0]).toMatchObject({ action: "delete", by: "reviewer@retailer.example", changes: [{ field: "status", before: "draft", after: "deleted" }] });

        await expect(storage.campaigns.delete("camp-del", EDITOR, now)).rejects.toBeInstanceOf(NotFoundError);
        expect(await storage.campaigns.getDeleted("camp-keep")).toBeNull();
      });
    });

    describe("publication", () => {
      it("publishes idempotently, follows product changes, and withdraws", async () => {
        const payload = makePublishedCampaign("camp-1", ["SKU-1", "SKU-2"]);
        await storage.publication.apply("camp-1", payload);
        const first = await storage.publication.getCampaign("camp-1");
        expect(first).toEqual(payload);
        await storage.publication.apply("camp-1", payload);
        expect(await storage.publication.getCampaign("camp-1")).toEqual(first);
        expect(await storage.publication.campaignsForProduct("SKU-1")).toEqual(["camp-1"]);
        expect(await storage.publication.campaignsForProduct("SKU-2")).toEqual(["camp-1"]);

        await storage.publication.apply("camp-2", makePublishedCampaign("camp-2", ["SKU-2", "SKU-3"]));
        expect(await storage.publication.campaignsForProduct("SKU-2")).toEqual(["camp-1", "camp-2"]);
        await storage.publication.apply("camp-2", makePublishedCampaign("camp-2", ["SKU-2", "SKU-3"]));
        expect(await storage.publication.campaignsForProduct("SKU-2")).toEqual(["camp-1", "camp-2"]);

        // camp-1 drops SKU-1, keeps SKU-2, adds SKU-3.
        await storage.publication.apply("camp-1", makePublishedCampaign("camp-1", ["SKU-2", "SKU-3"], { bid: 70 }));
        expect(await storage.publication.campaignsForProduct("SKU-1")).toEqual([]);
        expect(await storage.publication.campaignsForProduct("SKU-2")).toEqual(["camp-1", "camp-2"]);
        expect(await storage.publication.campaignsForProduct("SKU-3")).toEqual(["camp-1", "camp-2"]);
        expect((await storage.publication.getCampaign("camp-1"))?.bid).toBe(70);

        await storage.publication.apply("camp-1", null);
        expect(await storage.publication.getCampaign("camp-1")).toBeNull();
        expect(await storage.publication.campaignsForProduct("SKU-2")).toEqual(["camp-2"]);
        expect(await storage.publication.campaignsForProduct("SKU-3")).toEqual(["camp-2"]);
        // Withdrawing what is not published changes nothing.
        await storage.publication.apply("camp-1", null);
        expect(await storage.publication.campaignsForProduct("SKU-2")).toEqual(["camp-2"]);
        await storage.publication.apply("camp-2", null);
        expect(await store.count(COLLECTIONS.cacheProduct)).toBe(0);
        expect(await store.count(COLLECTIONS.cacheCampaign)).toBe(0);
        // An id no document can have is never linked, on either adapter.
        await storage.publication.apply("camp-3", makePublishedCampaign("camp-3", ["a/b", "SKU-9"]));
        expect(await storage.publication.campaignsForProduct("SKU-9")).toEqual(["camp-3"]);
        expect(await storage.publication.campaignsForProduct("a/b")).toEqual([]);
      });

      it("publishes with the update in one transaction: the campaign and its cache change together or not at all", async () => {
        const created = await storage.campaigns.create(makeCampaignData({ input: { name: "Published" } }), EDITOR, "camp-1");
        const publish = (c: Campaign) => (c.status === "active" && c.wallet ? makePublishedCampaign(c.id, c.productIds, { wallet: c.wallet, bid: c.bid }) : null);
        let seen: Campaign | null = null;
        await tick();
        const active = await storage.campaigns.update("camp-1", { status: "active", wallet: "w-1", productIds: ["SKU-1", "SKU-2"], bid: 45 }, EDITOR, {
          expectVersion: created.version,
          action: "enable",
          publish: (c) => {
            seen = c;
            return publish(c);
          },
        });
        // The publication is computed from the campaign as it will be stored.
        expect(seen).toEqual(active);
        expect(active.version).toBe(2);
        expect(await storage.publication.getCampaign("camp-1")).toMatchObject({ campaignId: "camp-1", wallet: "w-1", bid: 45, productIds: ["SKU-1", "SKU-2"] });
        expect(await storage.publication.campaignsForProduct("SKU-1")).toEqual(["camp-1"]);

        // A failure in the publication leaves both unchanged.
        await expect(
          storage.campaigns.update("camp-1", { bid: 90 }, EDITOR, {
            expectVersion: 2,
            publish: () => {
              throw new Error("publication failed");
            },
          }),
        ).rejects.toThrow("publication failed");
        expect((await storage.campaigns.getOne("camp-1"))?.bid).toBe(45);
        expect((await storage.publication.getCampaign("camp-1"))?.bid).toBe(45);

        // A stale version leaves both unchanged.
        await expect(storage.campaigns.update("camp-1", { productIds: ["SKU-3"] }, EDITOR, { expectVersion: 1, publish })).rejects.toBeInstanceOf(ConflictError);
        expect(await storage.publication.campaignsForProduct("SKU-3")).toEqual([]);

        await tick();
        await storage.campaigns.update("camp-1", { productIds: ["SKU-2", "SKU-3"], bid: 50 }, EDITOR, { expectVersion: 2, publish });
        expect(await storage.publication.campaignsForProduct("SKU-1")).toEqual([]);
        expect(await storage.publication.campaignsForProduct("SKU-3")).toEqual(["camp-1"]);
        expect((await storage.publication.getCampaign("camp-1"))?.bid).toBe(50);

        await tick();
        await storage.campaigns.update("camp-1", { status: "paused" }, EDITOR, { expectVersion: 3, action: "pause", publish });
        expect(await storage.publication.getCampaign("camp-1")).toBeNull();
        expect(await storage.publication.campaignsForProduct("SKU-2")).toEqual([]);
        expect((await storage.campaigns.history("camp-1", {})).items.map((e) => e.action)).toEqual(["pause", "update", "enable", "create"]);
      });
    });

    describe("catalog", () => {
      it("upserts more products than one transaction holds, counts them, replaces on a second upsert", async () => {
        const products = Array.from({ length: 450 }, (_, i) =>
          makeProductInput({ id: `SKU-${String(i + 1).padStart(6, "0")}`, title: `Product ${String(i + 1).padStart(3, "0")}` }),
        );
        expect(await storage.catalog.upsertMany(products)).toBe(450);
        expect(await storage.catalog.count()).toBe(450);
        expect(await storage.catalog.getOne("SKU-000450")).toMatchObject({ id: "SKU-000450", title: "Product 450", titleLower: "product 450", brandLower: "acme", version: 1 });

        await storage.catalog.upsertMany([{ ...products[449]!, title: "Renamed", price: 1299, stroke_price: 1599 }]);
        expect(await storage.catalog.count()).toBe(450);
        const renamed = await storage.catalog.getOne("SKU-000450");
        expect(renamed).toMatchObject({ title: "Renamed", titleLower: "renamed", price: 1299, stroke_price: 1599, version: 2 });
        expect(renamed?.searchTokens).toContain("renamed");
        expect(renamed?.searchTokens).not.toContain("product");

        // By title, 200 at a time, none lost or repeated.
        const seen: string[] = [];
        let after: string | null = null;
        let pages = 0;
        do {
          const page: Awaited<ReturnType<Storage["catalog"]["list"]>> = await storage.catalog.list({ limit: 200, after });
          seen.push(...page.items.map((p) => p.id));
          after = page.next;
          pages += 1;
        } while (after);
        expect(pages).toBe(3);
        expect(seen).toHaveLength(450);
        expect(new Set(seen).size).toBe(450);
        expect(seen[0]).toBe("SKU-000001");
        expect(seen[449]).toBe("SKU-000450");
      });

      it("is seeded with the demo catalog once, only when empty", async () => {
        // The whole demo catalog on the embedded store (what a first start does); a part of it,
        // still several transactions, on the emulator.
        const size = store.kind === "sqlite" ? DEMO_CATALOG_SIZE : 850;
        const started = Date.now();
        expect(await seedDemoCatalog(storage, size)).toBe(size);
        const elapsed = Date.now() - started;
        if (store.kind === "sqlite") expect(elapsed).toBeLessThan(5_000);
        expect(await storage.catalog.count()).toBe(size);
        expect(await storage.catalog.getOne("SKU-000123")).toMatchObject(demoCatalog(123)[122]!);
        expect(await seedDemoCatalog(storage, size)).toBe(0);
        expect(await storage.catalog.count()).toBe(size);
        const acme = await storage.catalog.list({ brand: "Acme", search: "coffee", limit: 5 });
        expect(acme.items.length).toBeGreaterThan(0);
        for (const p of acme.items) expect(p).toMatchObject({ brand: "Acme" });
      });

      it("refuses ids no document can have and treats them as unknown", async () => {
        await expect(storage.catalog.upsertMany([makeProductInput({ id: "a/b" })])).rejects.toThrow(/Invalid product ids: a\/b/);
        expect(await storage.catalog.count()).toBe(0);
        await storage.catalog.upsertMany([makeProductInput({ id: "SKU-1" })]);
        expect(await storage.catalog.getOne("a/b")).toBeNull();
        expect(await storage.catalog.getOne("..")).toBeNull();
        expect((await storage.catalog.getMany(["a/b", "SKU-1", "__x__"])).map((p) => p.id)).toEqual(["SKU-1"]);
      });

      describe("list", () => {
        beforeEach(async () => {
          await storage.catalog.upsertMany([
            makeProductInput({ id: "SKU-000101", title: "Acme Espresso Beans 1 kg", brand: "Acme", party: "1P", availability: "in stock" }),
            makeProductInput({ id: "SKU-000102", title: "Acme Decaf Coffee 250 g", brand: "Acme", party: "1P", availability: "out of stock" }),
            makeProductInput({ id: "SKU-000103", title: "Barista Espresso Machine", brand: "Brewmaster", party: "3P", availability: "in stock" }),
            makeProductInput({ id: "SKU-000104", title: "Crème Hydratante Visage", brand: "Belle Peau", party: "1P_3P", availability: "preorder", categories: ["Beauty > Skin care"] }),
            makeProductInput({ id: "SKU-000105", title: "Ceramic Espresso Cups x4", brand: "Maison Home", party: "3P", availability: "in store" }),
            makeProductInput({ id: "SKU-000106", title: "Acme Filter Papers", brand: "Acme", party: "1P", availability: "in stock" }),
          ]);
        });

        const ids = async (spec: Parameters<Storage["catalog"]["list"]>[0]) => {
          const page = await storage.catalog.list({ limit: 50, ...spec });
          expect(page.next).toBeNull();
          return page.items.map((p) => p.id);
        };

        it("filters by party, availability and brand, by title", async () => {
          expect(await ids({})).toEqual(["SKU-000102", "SKU-000101", "SKU-000106", "SKU-000103", "SKU-000105", "SKU-000104"]);
          expect(await ids({ party: "3P" })).toEqual(["SKU-000103", "SKU-000105"]);
          expect(await ids({ party: "1P_3P" })).toEqual(["SKU-000104"]);
          expect(await ids({ availability: "in stock" })).toEqual(["SKU-000101", "SKU-000106", "SKU-000103"]);
          expect(await ids({ availability: "in stock", party: "1P" })).toEqual(["SKU-000101", "SKU-000106"]);
          expect(await ids({ brand: "ACME" })).toEqual(["SKU-000102", "SKU-000101", "SKU-000106"]);
          expect(await ids({ brand: "belle peau" })).toEqual(["SKU-000104"]);
        });

        it("combines the catalog screen's filters: party, availability and brand together, in pages", async () => {
          expect(await ids({ party: "1P", availability: "in stock", brand: "acme" })).toEqual(["SKU-000101", "SKU-000106"]);
          expect(await ids({ party: "1P", brand: "Acme" })).toEqual(["SKU-000102", "SKU-000101", "SKU-000106"]);
          expect(await ids({ availability: "in stock", brand: "Brewmaster" })).toEqual(["SKU-000103"]);
          expect(await ids({ party: "3P", availability: "out of stock", brand: "Acme" })).toEqual([]);
          const first = await storage.catalog.list({ party: "1P", availability: "in stock", brand: "Acme", limit: 1 });
          expect(first.items.map((p) => p.id)).toEqual(["SKU-000101"]);
          const second = await storage.catalog.list({ party: "1P", availability: "in stock", brand: "Acme", limit: 1, after: first.next });
          expect(second.items.map((p) => p.id)).toEqual(["SKU-000106"]);
        });

        it("searches word prefixes of title, brand and id, with the filters, in topped-up pages", async () => {
          expect(await ids({ search: "espresso" })).toEqual(["SKU-000101", "SKU-000103", "SKU-000105"]);
          expect(await ids({ search: "ESP", party: "3P" })).toEqual(["SKU-000103", "SKU-000105"]);
          expect(await ids({ search: "espresso", availability: "in stock" })).toEqual(["SKU-000101", "SKU-000103"]);
          expect(await ids({ search: "creme" })).toEqual(["SKU-000104"]);
          expect(await ids({ search: "brewmaster" })).toEqual(["SKU-000103"]);
          expect(await ids({ search: "SKU-000105" })).toEqual(["SKU-000105"]);
          expect(await ids({ search: "000106" })).toEqual(["SKU-000106"]);
          expect(await ids({ search: "acme espresso" })).toEqual(["SKU-000101"]);
          expect(await ids({ search: "tea" })).toEqual([]);
          const page = await storage.catalog.list({ search: "espresso machine", limit: 1 });
          expect(page.items.map((p) => p.id)).toEqual(["SKU-000103"]);
        });

        it("pages with a cursor, filters kept", async () => {
          const first = await storage.catalog.list({ party: "1P", limit: 2 });
          expect(first.items.map((p) => p.id)).toEqual(["SKU-000102", "SKU-000101"]);
          expect(first.next).not.toBeNull();
          const second = await storage.catalog.list({ party: "1P", limit: 2, after: first.next });
          expect(second.items.map((p) => p.id)).toEqual(["SKU-000106"]);
          expect(second.next).toBeNull();
        });
      });
    });

    describe("custom views", () => {
      const NOW = at("2025-06-02T09:00:00.000Z");
      // The domain's rule, as the service passes it.
      const createView = (userId: string, name: string) => storage.campaignViews.create(userId, view(name), NOW, (names) => newViewRefusal(names, name));
      const view = (name: string) => ({ name, query: `status=active&sort=name&q=${encodeURIComponent(name)}`, columns: ["name", "team", "liveStatus"] });

      it(`keeps ${MAX_CAMPAIGN_VIEWS} views per user, by name; the next is refused, another user is not affected`, async () => {
        for (let i = 1; i <= MAX_CAMPAIGN_VIEWS; i++) {
          const result = await createView("user-1", `View ${String(i).padStart(2, "0")}`);
          expect(result.ok).toBe(true);
        }
        expect(await createView("user-1", "Eleventh")).toEqual({ ok: false, reason: "campaignList:views.limit" });
        const list = await storage.campaignViews.listForUser("user-1");
        expect(list.map((v) => v.name)).toEqual(Array.from({ length: 10 }, (_, i) => `View ${String(i + 1).padStart(2, "0")}`));
        expect(list[0]).toMatchObject({ userId: "user-1", query: "status=active&sort=name&q=View%2001", columns: ["name", "team", "liveStatus"], created: NOW.toISOString() });
        const other = await createView("user-2", "Eleventh");
        expect(other.ok).toBe(true);
        expect(await storage.campaignViews.listForUser("user-2")).toHaveLength(1);
      });

      it("refuses a second view of the same name whatever the case and accents; renames; a delete frees a slot and the name", async () => {
        const created = await createView("user-1", "  Été actif ");
        if (!created.ok) throw new Error("not created");
        expect(created.view).toMatchObject({ name: "Été actif", nameLower: "ete actif", version: 1 });
        expect(await storage.campaignViews.getOne(created.view.id)).toEqual(created.view);
        expect(await createView("user-1", "ETE ACTIF")).toEqual({ ok: false, reason: "campaignList:views.nameTaken" });

        const later = at("2025-06-02T10:00:00.000Z");
        const renamed = await storage.campaignViews.rename(created.view.id, "Running summer", later);
        expect(renamed).toMatchObject({ id: created.view.id, name: "Running summer", nameLower: "running summer", updated: later.toISOString(), version: 2 });
        expect(await storage.campaignViews.getOne(created.view.id)).toEqual(renamed);
        // The old name is free again; a taken one is refused.
        const again = await createView("user-1", "Été actif");
        expect(again.ok).toBe(true);
        await expect(storage.campaignViews.rename(created.view.id, "été ACTIF", later)).rejects.toBeInstanceOf(AlreadyExistsError);
        await expect(storage.campaignViews.rename("missing", "x", later)).rejects.toBeInstanceOf(NotFoundError);
        // Same name in another case: allowed for the view itself.
        expect((await storage.campaignViews.rename(created.view.id, "RUNNING summer", later)).name).toBe("RUNNING summer");

        for (let i = 3; i <= MAX_CAMPAIGN_VIEWS; i++) expect((await createView("user-1", `V${i}`)).ok).toBe(true);
        expect(await createView("user-1", "One more")).toEqual({ ok: false, reason: "campaignList:views.limit" });
        await storage.campaignViews.delete(created.view.id);
        expect(await storage.campaignViews.getOne(created.view.id)).toBeNull();
        await storage.campaignViews.delete(created.view.id);
        expect((await createView("user-1", "Running summer")).ok).toBe(true);
        expect(await storage.campaignViews.listForUser("user-1")).toHaveLength(MAX_CAMPAIGN_VIEWS);
      });

      it(`never exceeds ${MAX_CAMPAIGN_VIEWS} under concurrent creates`, async () => {
        await createView("user-1", "Existing");
        const results = await Promise.all(Array.from({ length: 14 }, (_, i) => createView("user-1", `Racing ${i}`)));
        expect(results.filter((r) => r.ok)).toHaveLength(MAX_CAMPAIGN_VIEWS - 1);
        expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === "campaignList:views.limit")).toBe(true);
        expect(await storage.campaignViews.listForUser("user-1")).toHaveLength(MAX_CAMPAIGN_VIEWS);
        // Same name raced five times: one wins.
        const same = await Promise.all(Array.from({ length: 5 }, () => createView("user-2", "Twin")));
        expect(same.filter((r) => r.ok)).toHaveLength(1);
        expect(await storage.campaignViews.listForUser("user-2")).toHaveLength(1);
      });
    });

    describe("firestore.indexes.json", () => {
      it("serves every query the campaign, catalog and view repositories made in this suite", () => {
        const indexes = (JSON.parse(fs.readFileSync(new URL("../../firestore.indexes.json", import.meta.url), "utf8")) as { indexes: CompositeIndex[] }).indexes;
        const missing = queries
          .filter((q) => !servedByIndexes(q.collection, q.spec, indexes))
          .map((q) => `${q.collection}: ${JSON.stringify(q.spec.where)} order ${JSON.stringify(effectiveOrder(q.spec))}`);
        expect([...new Set(missing)]).toEqual([]);
        // The check itself fails on a query without index.
        expect(servedByIndexes("campaign", { where: [["team", "==", "t"]], orderBy: { field: "bid" } }, indexes)).toBe(false);
        expect(servedByIndexes("campaign", { where: [["team", "in", ["a", "b"]], ["searchTokens", "array-contains", "x"]], orderBy: { field: "spend", direction: "desc" } }, indexes)).toBe(true);
      });
    });
  });
}
