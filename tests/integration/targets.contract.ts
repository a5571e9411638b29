/**
 * The targets half of the storage contract (issue 10 section 2, ADR 27): a campaign's keyword,
 * category and product-category targets in chunk documents, changed in one transaction with the
 * campaign's counts, version, audit and publication, on every adapter. Wired into
 * storage-sqlite.test.ts and storage-firestore.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { publishedTargets } from "~/domain/campaigns/publication";
import { bidCountKey, compareTargets, listedTarget, newTarget, pruneRemovedProducts, type Targets } from "~/domain/campaigns/targets";
import { COLLECTIONS, ConflictError, NotFoundError, type Campaign, type DocumentStore, type Storage } from "~/storage/port";
import { createStorage } from "~/storage/repos/index.server";
import { BUCKET_TARGETS, chunkId, createTargetsRepo } from "~/storage/repos/targets.server";
import { VIEW_PAGE_MAX, VIEW_PAGE_TARGETS } from "~/storage/repos/target-view.server";
import { makeCampaignData, makePublishedCampaign } from "../factories";

const EDITOR = { by: "editor@brand.example" };
const NOW = new Date("2026-11-26T10:00:00.000Z");

const publish = (c: Campaign) => ({ ...makePublishedCampaign(c.id, c.productIds), targets: publishedTargets(c), negativeKeywords: c.negativeKeywords ?? [] });

function keywords(names: string[], extra: Partial<Parameters<typeof newTarget>[0]> = {}): Targets {
  return Object.fromEntries(names.map((n) => [n, newTarget({ name: n, ...extra }, NOW)]));
}

export function runTargetsContract(name: string, makeStore: () => Promise<DocumentStore>): void {
  describe(`targets storage contract: ${name}`, () => {
    let store: DocumentStore;
    let storage: Storage;

    beforeAll(async () => {
      store = await makeStore();
      storage = createStorage(store);
    });
    afterAll(async () => {
      await store?.close();
    });
    beforeEach(async () => {
      await store.clear();
    });

    const newCampaign = () => storage.campaigns.create(makeCampaignData({ status: "draft" }), EDITOR);

    it("adds keywords with the campaign's counts, version, audit entry and publication, in one change", async () => {
      const c = await newCampaign();
      const { campaign, changed } = await storage.targets.change(
        c.id,
        { kinds: [{ kind: "keyword", upsert: { ...keywords(["shoes", "boots"]), socks: { ...newTarget({ name: "Socks", bid: 55 }, NOW), on: false } } }] },
        EDITOR,
        { expectVersion: c.version, publish, patch: { negativeKeywords: ["free"] } },
      );
      expect(changed).toBe(3);
      expect(campaign.version).toBe(c.version + 1);
      expect(campaign.counts).toEqual({ keywords: 3, categories: 0, hubs: 0, productCategories: 0 });
      expect(campaign.negativeKeywords).toEqual(["free"]);
      const stored = (await storage.campaigns.getOne(c.id))!;
      expect(stored.counts?.keywords).toBe(3);
      expect(stored.targetBuckets).toEqual({ keyword: 1 });
      const listed = await storage.targets.list(c.id, "keyword");
      expect(Object.keys(listed).sort()).toEqual(["boots", "shoes", "socks"]);
      expect(listed.socks).toMatchObject({ name: "Socks", bid: 55, on: false, offers: null, placement: "plp" });
      // The ad server's copy: the counts and negative keywords, and the switched-on targets only.
      const cache = await storage.publication.getCampaign(c.id);
      expect(cache?.targets?.keyword).toEqual({ count: 3, buckets: 1 });
      expect(cache?.negativeKeywords).toEqual(["free"]);
      const live = await storage.targets.getPublished(c.id, "keyword");
      expect(Object.keys(live).sort()).toEqual(["boots", "shoes"]);
      const history = await storage.campaigns.history(c.id, {});
      expect(history.items[0]?.changes.map((ch) => ch.field).sort()).toEqual(["negativeKeywords", "tKeywords"]);
      // The keywords did not exist before: nothing before; after, each as it now is.
      const recorded = history.items[0]!.changes.find((ch) => ch.field === "tKeywords")!;
      expect(recorded.before).toBeNull();
      expect(recorded.after).toMatchObject({ more: 0, targets: expect.arrayContaining([{ key: "socks", name: "Socks", on: false, bid: 55, offers: null }]) });
    });

    it("refuses a stale version and writes nothing; a missing campaign is not found", async () => {
      const c = await newCampaign();
      await storage.targets.change(c.id, { kinds: [{ kind: "keyword", upsert: keywords(["a"]) }] }, EDITOR, { expectVersion: c.version });
      await expect(storage.targets.change(c.id, { kinds: [{ kind: "keyword", upsert: keywords(["b"]) }] }, EDITOR, { expectVersion: c.version })).rejects.toBeInstanceOf(ConflictError);
      expect(Object.keys(await storage.targets.list(c.id, "keyword"))).toEqual(["a"]);
      await expect(storage.targets.change("nope", { kinds: [{ kind: "keyword", upsert: keywords(["b"]) }] }, EDITOR)).rejects.toBeInstanceOf(NotFoundError);
    });

    it("changes nothing (no version, no audit) when the targets are already so", async () => {
      const c = await newCampaign();
      const first = await storage.targets.change(c.id, { kinds: [{ kind: "keyword", upsert: keywords(["a"]) }] }, EDITOR);
      const again = await storage.targets.change(c.id, { kinds: [{ kind: "keyword", upsert: keywords(["a"]) }] }, EDITOR);
      expect(again.changed).toBe(0);
      expect(again.campaign.version).toBe(first.campaign.version);
    });

    it("counts categories and hubs apart, and product categories; removing updates the counts", async () => {
      const c = await newCampaign();
      await storage.targets.change(
        c.id,
        {
          kinds: [
            { kind: "category", upsert: { grocery: newTarget({ name: "Grocery", placement: "hub" }, NOW), "grocery--coffee": newTarget({ name: "Grocery > Coffee" }, NOW) } },
            { kind: "productCategory", upsert: { "grocery--tea": newTarget({ name: "Grocery > Tea", placement: "pdp" }, NOW) } },
          ],
        },
        EDITOR,
      );
      expect((await storage.campaigns.getOne(c.id))!.counts).toEqual({ keywords: 0, categories: 1, hubs: 1, productCategories: 1 });
      const { campaign } = await storage.targets.change(c.id, { kinds: [{ kind: "category", remove: ["grocery"] }] }, EDITOR);
      expect(campaign.counts).toEqual({ keywords: 0, categories: 1, hubs: 0, productCategories: 1 });
      expect(Object.keys(await storage.targets.list(c.id, "category"))).toEqual(["grocery--coffee"]);
    });

    it("spreads thousands of keywords over chunks well under 1 MiB, changes one chunk for one keyword, and replaces the whole list", async () => {
      const c = await newCampaign();
      const many = Array.from({ length: 2 * BUCKET_TARGETS + 500 }, (_, i) => `keyword number ${i}`);
      const { campaign } = await storage.targets.change(c.id, { kinds: [{ kind: "keyword", upsert: keywords(many), replace: true }] }, EDITOR);
      const buckets = campaign.targetBuckets!.keyword!;
      expect(buckets).toBe(4);
      expect(campaign.counts?.keywords).toBe(many.length);
      // A store with a commit budget stages so large a change under a generation of its own (ADR 50).
      const gen = campaign.targetGens?.keyword;
      for (let b = 0; b < buckets; b++) {
        const doc = await store.get<{ targets: Targets }>(COLLECTIONS.campaignTarget, chunkId(c.id, "keyword", b, gen));
        expect(doc).not.toBeNull();
        expect(JSON.stringify(doc).length).toBeLessThan(1024 * 1024);
      }
      const before = await Promise.all(Array.from({ length: buckets }, (_, b) => store.get(COLLECTIONS.campaignTarget, chunkId(c.id, "keyword", b, gen))));
      await storage.targets.change(c.id, { kinds: [{ kind: "keyword", upsert: { "keyword number 7": { ...newTarget({ name: "keyword number 7", bid: 99 }, NOW) } } }] }, EDITOR);
      const after = await Promise.all(Array.from({ length: buckets }, (_, b) => store.get(COLLECTIONS.campaignTarget, chunkId(c.id, "keyword", b, gen))));
      expect(after.filter((doc, b) => doc!.version !== before[b]!.version)).toHaveLength(1);
      expect((await storage.targets.list(c.id, "keyword"))["keyword number 7"]?.bid).toBe(99);
      // Replaced by three: the other chunks are gone, the counts follow.
      const replaced = await storage.targets.change(c.id, { kinds: [{ kind: "keyword", upsert: keywords(["x", "y", "z"]), replace: true }] }, EDITOR);
      expect(replaced.campaign.counts?.keywords).toBe(3);
      expect(Object.keys(await storage.targets.list(c.id, "keyword")).sort()).toEqual(["x", "y", "z"]);
    });

    it("grows the chunks when single additions pass their share", async () => {
      const c = await newCampaign();
      await storage.targets.change(c.id, { kinds: [{ kind: "keyword", upsert: keywords(Array.from({ length: BUCKET_TARGETS }, (_, i) => `k${i}`)) }] }, EDITOR);
      const { campaign } = await storage.targets.change(c.id, { kinds: [{ kind: "keyword", upsert: keywords(Array.from({ length: 50 }, (_, i) => `extra ${i}`)) }] }, EDITOR);
      expect(campaign.targetBuckets?.keyword).toBe(2);
      expect(Object.keys(await storage.targets.list(c.id, "keyword"))).toHaveLength(BUCKET_TARGETS + 50);
    });

    it("rewrites every target by a rule (auto targeting): offers shortened, emptied ones off, auto ones deleted", async () => {
      const c = await newCampaign();
      await storage.targets.change(
        c.id,
        {
          kinds: [
            {
              kind: "keyword",
              upsert: {
                shoes: newTarget({ name: "shoes", offers: ["P1", "P2"] }, NOW),
                boots: newTarget({ name: "boots", offers: ["P1"] }, NOW),
                all: newTarget({ name: "all" }, NOW),
              },
            },
            { kind: "productCategory", upsert: { tea: newTarget({ name: "Tea", offers: ["P1"], auto: true, placement: "pdp" }, NOW) } },
          ],
        },
        EDITOR,
        { publish },
      );
      const rule = (all: Targets) => {
        const r = pruneRemovedProducts(all, ["P1"], 1, NOW);
        return { upsert: r.changed, remove: r.deleted };
      };
      const { campaign } = await storage.targets.change(c.id, { kinds: [{ kind: "keyword", rewrite: rule }, { kind: "productCategory", rewrite: rule }] }, EDITOR, { publish });
      const kw = await storage.targets.list(c.id, "keyword");
      expect(kw.shoes).toMatchObject({ offers: ["P2"], on: true });
      expect(kw.boots).toMatchObject({ offers: [], on: false });
      expect(kw.all).toMatchObject({ offers: null, on: true });
      expect(await storage.targets.list(c.id, "productCategory")).toEqual({});
      expect(campaign.counts).toMatchObject({ keywords: 3, productCategories: 0 });
      expect(Object.keys(await storage.targets.getPublished(c.id, "keyword")).sort()).toEqual(["all", "shoes"]);
    });

    // The sorted view (ADR 43): what a page of the section reads.
    const sortedKeys = (all: Targets) => Object.keys(all).sort((a, b) => compareTargets({ key: a, name: all[a]!.name }, { key: b, name: all[b]!.name }));
    const bidCountsOf = (all: Targets) => {
      const out: Record<string, number> = {};
      for (const t of Object.values(all)) if (t.bid !== null) out[bidCountKey(t.bid)] = (out[bidCountKey(t.bid)] ?? 0) + 1;
      return out;
    };
    /** Every page of the view, read as the section reads them, against the chunks sorted here. */
    const expectViewAsChunks = async (campaignId: string, kind: "keyword" | "category" = "keyword", size = 97) => {
      const all = await storage.targets.list(campaignId, kind);
      const want = sortedKeys(all);
      const got: string[] = [];
      for (let offset = 0; offset < want.length + size; offset += size) {
        const page = await storage.targets.page(campaignId, kind, { offset, limit: size });
        expect(page.total).toBe(want.length);
        expect(page.bidCounts).toEqual(bidCountsOf(all));
        for (const item of page.items) {
          expect(item.target).toEqual(listedTarget(all[item.key]!));
          got.push(item.key);
        }
      }
      expect(got).toEqual(want);
    };

    it("serves a page of the targets in name order from the sorted view, kept up to date by every change (additions, bids, removals, a new list)", async () => {
      const c = await newCampaign();
      // Names whose order is the locale's, not the keys' (case, accents, numbers).
      const names = Array.from({ length: VIEW_PAGE_MAX + 300 }, (_, i) => `${["Zèbre", "apple", "École", "eclair", "Banana"][i % 5]} ${i}`);
      const upsert = Object.fromEntries(names.map((n, i) => [`key ${i}`, newTarget({ name: n, bid: i % 3 ? 40 + (i % 4) : null }, NOW)]));
      await storage.targets.change(c.id, { kinds: [{ kind: "keyword", upsert }] }, EDITOR);
      await expectViewAsChunks(c.id);
      const first = await storage.targets.page(c.id, "keyword", { offset: 0, limit: 3 });
      // The locale's order: "apple" before "Banana" (by code point, capitals would come first), "École" beside "eclair".
      expect(first.items.map((i) => i.target.name)).toEqual(["apple 1", "apple 1001", "apple 1006"]);
      const names2 = (await storage.targets.page(c.id, "keyword", { offset: 0, limit: 5000 })).items.map((i) => i.target.name.split(" ")[0]);
      expect([...new Set(names2)]).toEqual(["apple", "Banana", "eclair", "École", "Zèbre"]);
      // Added in the middle of a full page (it is cut in two), a bid changed, some removed.
      const more = Object.fromEntries(Array.from({ length: VIEW_PAGE_MAX }, (_, i) => [`more ${i}`, newTarget({ name: `apple ${i}b`, bid: 90 }, NOW)]));
      await storage.targets.change(c.id, { kinds: [{ kind: "keyword", upsert: more }] }, EDITOR);
      await storage.targets.change(c.id, { kinds: [{ kind: "keyword", upsert: { "key 3": newTarget({ name: "Banana 3", bid: 7 }, NOW) }, remove: ["key 0", "key 4", "more 5"] }] }, EDITOR);
      await expectViewAsChunks(c.id);
      // Most removed one by one in big steps: the view is cut again, not left in tiny pages.
      for (let step = 0; step < 3; step++) {
        const keys = Object.keys(await storage.targets.list(c.id, "keyword")).filter((_, i) => i % 4 !== 0);
        await storage.targets.change(c.id, { kinds: [{ kind: "keyword", remove: keys.slice(0, Math.ceil(keys.length * 0.7)) }] }, EDITOR);
        await expectViewAsChunks(c.id);
      }
      const header = await store.get<{ pages: unknown[]; count: number }>(COLLECTIONS.campaignTarget, `${c.id}_keyword_view`);
      expect(header!.pages.length).toBeLessThanOrEqual(2 * Math.ceil(header!.count / VIEW_PAGE_TARGETS) + 4);
      // A new list, then none: the view follows.
      await storage.targets.change(c.id, { kinds: [{ kind: "keyword", upsert: keywords(["b", "a", "C"]), replace: true }] }, EDITOR);
      expect((await storage.targets.page(c.id, "keyword", { offset: 0, limit: 10 })).items.map((i) => i.key)).toEqual(["a", "b", "C"]);
      await storage.targets.change(c.id, { kinds: [{ kind: "keyword", upsert: {}, replace: true }] }, EDITOR);
      expect(await storage.targets.page(c.id, "keyword", { offset: 0, limit: 10 })).toEqual({ items: [], total: 0, bidCounts: {} });
      expect(await store.get(COLLECTIONS.campaignTarget, `${c.id}_keyword_view`)).toBeNull();
    });

    it("finds targets by the words typed in their key or (categories) their name, a page of the matches at a time", async () => {
      const c = await newCampaign();
      const upsert = Object.fromEntries(Array.from({ length: 1_200 }, (_, i) => [`shoe ${i}`, newTarget({ name: `Shoe ${i}`, bid: 50 }, NOW)]));
      await storage.targets.change(
        c.id,
        { kinds: [{ kind: "keyword", upsert: { ...upsert, boots: newTarget({ name: "Boots", bid: 50 }, NOW) } }, { kind: "category", upsert: { "c-1": newTarget({ name: "Grocery > Café" }, NOW), "c-2": newTarget({ name: "Home" }, NOW) } }] },
        EDITOR,
      );
      const all = await storage.targets.list(c.id, "keyword");
      const matching = sortedKeys(all).filter((k) => k.includes("1"));
      const page2 = await storage.targets.page(c.id, "keyword", { query: "1", offset: 100, limit: 100 });
      expect(page2.total).toBe(matching.length);
      expect(page2.items.map((i) => i.key)).toEqual(matching.slice(100, 200));
      expect(page2.bidCounts).toEqual({ "50": 1_201 });
      expect((await storage.targets.page(c.id, "keyword", { query: "zzz", offset: 0, limit: 100 })).total).toBe(0);
      // A category is found by its name folded as keys are (accents, case).
      const found = await storage.targets.page(c.id, "category", { query: "cafe", offset: 0, limit: 100 });
      expect(found.items.map((i) => i.key)).toEqual(["c-1"]);
      await expectViewAsChunks(c.id, "category");
    });

    it("builds the view of targets saved before views existed, on the first page read or the next change", async () => {
      const c = await newCampaign();
      await storage.targets.change(c.id, { kinds: [{ kind: "keyword", upsert: keywords(Array.from({ length: 1_100 }, (_, i) => `k${i}`)) }] }, EDITOR);
      const dropViews = async () => {
        const docs = (await store.query<{ campaign: string; view?: string }>(COLLECTIONS.campaignTarget, { limit: 500 })).items.filter((d) => d.campaign === c.id && d.view);
        for (const d of docs) await store.delete(COLLECTIONS.campaignTarget, d.id);
      };
      await dropViews();
      await expectViewAsChunks(c.id);
      await dropViews();
      // A change of one keyword reads the other chunks to build the whole view.
      await storage.targets.change(c.id, { kinds: [{ kind: "keyword", upsert: keywords(["k5"], { bid: 12 }) }] }, EDITOR);
      expect(await store.get(COLLECTIONS.campaignTarget, `${c.id}_keyword_view`)).not.toBeNull();
      await expectViewAsChunks(c.id);
    });

    it("reads targets by key from their chunks only", async () => {
      const c = await newCampaign();
      await storage.targets.change(c.id, { kinds: [{ kind: "keyword", upsert: keywords(Array.from({ length: 2 * BUCKET_TARGETS + 10 }, (_, i) => `k${i}`)) }] }, EDITOR);
      const got = await storage.targets.get(c.id, "keyword", ["k1", "k2000", "nope", "constructor"]);
      expect(Object.keys(got).sort()).toEqual(["k1", "k2000"]);
      expect(got.k1).toEqual((await storage.targets.list(c.id, "keyword")).k1);
      expect(await storage.targets.get(c.id, "category", ["k1"])).toEqual({});
    });

    it("copies every kind's targets into a duplicate with the counts and chunk counts, in its create; the source keeps its own", async () => {
      const c = await newCampaign();
      const many = Array.from({ length: BUCKET_TARGETS + 200 }, (_, i) => `keyword ${i}`);
      await storage.targets.change(
        c.id,
        {
          kinds: [
            { kind: "keyword", upsert: { ...keywords(many), off: { ...newTarget({ name: "Off", bid: 70, offers: ["P1"] }, NOW), on: false } } },
            { kind: "category", upsert: { grocery: newTarget({ name: "Grocery", placement: "hub", bid: 30 }, NOW) } },
            { kind: "productCategory", upsert: { tea: newTarget({ name: "Tea", placement: "pdp", auto: true, offers: ["P1"] }, NOW) } },
          ],
        },
        EDITOR,
        { publish, patch: { negativeKeywords: ["free"] } },
      );
      const source = (await storage.campaigns.getOne(c.id))!;
      const { id: _id, version: _version, counts: _counts, targetBuckets: _buckets, ...data } = source;
      const copy = await storage.campaigns.create({ ...data, name: "Copy", status: "draft" }, EDITOR, undefined, { targetsOf: c.id });
      expect(copy.counts).toEqual({ keywords: many.length + 1, categories: 0, hubs: 1, productCategories: 1 });
      expect(copy.targetBuckets).toEqual(source.targetBuckets);
      expect((await storage.campaigns.getOne(copy.id))!.counts).toEqual(copy.counts);
      for (const kind of ["keyword", "category", "productCategory"] as const) {
        expect(await storage.targets.list(copy.id, kind)).toEqual(await storage.targets.list(c.id, kind));
        // Its sorted view too, copied with it.
        expect(await store.get(COLLECTIONS.campaignTarget, `${copy.id}_${kind}_view`)).not.toBeNull();
        expect(await storage.targets.page(copy.id, kind, { offset: 0, limit: 5000 })).toEqual(await storage.targets.page(c.id, kind, { offset: 0, limit: 5000 }));
      }
      expect((await storage.targets.list(copy.id, "keyword")).off).toMatchObject({ on: false, bid: 70, offers: ["P1"] });
      // A draft: nothing of it is published.
      expect(await storage.targets.getPublished(copy.id, "keyword")).toEqual({});
      // The copy's targets are its own: changing them leaves the source's as they were.
      await storage.targets.change(copy.id, { kinds: [{ kind: "keyword", remove: ["off"] }] }, EDITOR);
      expect((await storage.targets.list(c.id, "keyword")).off).toBeDefined();
      expect((await storage.campaigns.getOne(c.id))!.counts?.keywords).toBe(many.length + 1);
      await expect(storage.campaigns.create({ ...data, name: "Gone" }, EDITOR, undefined, { targetsOf: "no-such-campaign" })).rejects.toBeInstanceOf(NotFoundError);
    });

    it("deletes a campaign's chunks (its own and the published ones) and its sorted views with it; the sweep removes those whose campaign is gone, and only those", async () => {
      // The chunks of ADR 27, apart from the sorted views of ADR 43 kept in the same collection.
      const docsOf = async (id: string, collection: string, views: boolean) => {
        const page = await store.query<{ campaign: string; view?: string }>(collection, { limit: 500 });
        return page.items.filter((doc) => doc.campaign === id && !!doc.view === views).length;
      };
      const chunksOf = (id: string, collection: string) => docsOf(id, collection, false);
      const viewsOf = (id: string) => docsOf(id, COLLECTIONS.campaignTarget, true);
      const kept = await newCampaign();
      await storage.targets.change(kept.id, { kinds: [{ kind: "keyword", upsert: keywords(["kept"]) }] }, EDITOR, { publish });
      const deleted = await newCampaign();
      await storage.targets.change(
        deleted.id,
        { kinds: [{ kind: "keyword", upsert: keywords(Array.from({ length: BUCKET_TARGETS + 10 }, (_, i) => `k${i}`)) }, { kind: "category", upsert: { grocery: newTarget({ name: "Grocery" }, NOW) } }] },
        EDITOR,
        { publish },
      );
      expect(await chunksOf(deleted.id, COLLECTIONS.campaignTarget)).toBe(3);
      expect(await chunksOf(deleted.id, COLLECTIONS.cacheCampaignTarget)).toBe(3);
      // Keywords: a header and ceil(1,010 / 500) pages; the category: a header and one page.
      expect(await viewsOf(deleted.id)).toBe(1 + Math.ceil((BUCKET_TARGETS + 10) / VIEW_PAGE_TARGETS) + 2);
      await storage.campaigns.delete(deleted.id, EDITOR, NOW);
      expect(await chunksOf(deleted.id, COLLECTIONS.campaignTarget)).toBe(0);
      expect(await viewsOf(deleted.id)).toBe(0);
      expect(await chunksOf(deleted.id, COLLECTIONS.cacheCampaignTarget)).toBe(0);
      expect((await storage.campaigns.getDeleted(deleted.id))?.counts?.keywords).toBe(BUCKET_TARGETS + 10);

      // A campaign gone without its chunks (deleted before deletions removed them): the sweep's work.
      const orphan = await newCampaign();
      await storage.targets.change(orphan.id, { kinds: [{ kind: "keyword", upsert: keywords(Array.from({ length: BUCKET_TARGETS + 10 }, (_, i) => `o${i}`)) }] }, EDITOR, { publish });
      const orphanDocs = (await chunksOf(orphan.id, COLLECTIONS.campaignTarget)) + (await viewsOf(orphan.id));
      const allDocs = (await store.query(COLLECTIONS.campaignTarget, { limit: 500 })).items.length;
      await store.delete(COLLECTIONS.campaign, orphan.id);
      let after: string | null = null;
      let removed = 0;
      let pages = 0;
      do {
        const page = await storage.targets.sweepOrphans({ after, limit: 1 });
        removed += page.removed;
        after = page.next;
        pages++;
      } while (after && pages < 40);
      expect(removed).toBe(orphanDocs);
      expect(pages).toBe(allDocs);
      expect(await chunksOf(orphan.id, COLLECTIONS.campaignTarget)).toBe(0);
      expect(await viewsOf(orphan.id)).toBe(0);
      expect(await chunksOf(orphan.id, COLLECTIONS.cacheCampaignTarget)).toBe(0);
      expect(Object.keys(await storage.targets.list(kept.id, "keyword"))).toEqual(["kept"]);
      expect(Object.keys(await storage.targets.getPublished(kept.id, "keyword"))).toEqual(["kept"]);
    });
    describe("a change past the store's commit budget (ADR 50): staged under a new generation, then switched to", () => {
      /** The targets repo of a store whose commits may hold about 20 KB: a few hundred keywords are past it. */
      const BUDGET = 20_000;
      const staging = () => createTargetsRepo(store, { commitBudgetBytes: BUDGET });
      const docsOf = async (id: string) => {
        const out: { collection: string; id: string; gen?: string; view?: string; staged?: string }[] = [];
        for (const collection of [COLLECTIONS.campaignTarget, COLLECTIONS.cacheCampaignTarget]) {
          let after: string | null = null;
          do {
            const page: { items: { id: string; campaign: string; gen?: string; view?: string; staged?: string }[]; next: string | null } = await store.query(collection, { limit: 200, after });
            out.push(...page.items.filter((d) => d.campaign === id).map((d) => ({ collection, id: d.id, gen: d.gen, view: d.view, staged: d.staged })));
            after = page.next;
          } while (after);
        }
        return out;
      };
      const sweepAll = async (now?: Date) => {
        let after: string | null = null;
        let removed = 0;
        do {
          const page = await storage.targets.sweepOrphans({ after, now });
          removed += page.removed;
          after = page.next;
        } while (after);
        return removed;
      };

      it("writes a large list as a new generation the campaign, its publication and its view switch to at once; the old one is deleted", async () => {
        const targets = staging();
        const c = await newCampaign();
        await targets.change(c.id, { kinds: [{ kind: "keyword", upsert: keywords(["old one", "old two"]) }] }, EDITOR, { publish });
        const many = Array.from({ length: 600 }, (_, i) => `keyword ${i}`);
        const { campaign, changed } = await targets.change(c.id, { kinds: [{ kind: "keyword", upsert: keywords(many), replace: true }] }, EDITOR, { expectVersion: c.version + 1, publish });
        expect(changed).toBe(602);
        expect(campaign.version).toBe(c.version + 2);
        const gen = campaign.targetGens?.keyword;
        expect(gen).toMatch(/^g[0-9a-z]+$/);
        const stored = (await storage.campaigns.getOne(c.id))!;
        expect(stored.targetGens).toEqual({ keyword: gen });
        expect(stored.counts?.keywords).toBe(600);
        // Every reader follows the pointer: the list, a key, a page of the view, the ad server's copy.
        expect(Object.keys(await targets.list(c.id, "keyword")).sort()).toEqual([...many].sort());
        expect(Object.keys(await targets.get(c.id, "keyword", ["keyword 5", "old one"]))).toEqual(["keyword 5"]);
        const page = await targets.page(c.id, "keyword", { offset: 0, limit: 3 });
        expect(page.total).toBe(600);
        expect(page.items.map((i) => i.key)).toEqual(many.map((k) => ({ key: k, name: k })).sort(compareTargets).slice(0, 3).map((e) => e.key));
        expect((await storage.publication.getCampaign(c.id))?.targets?.keyword).toEqual({ count: 600, buckets: 1, gen });
        expect(Object.keys(await targets.getPublished(c.id, "keyword"))).toHaveLength(600);
        // One change in the history, as before.
        const history = await storage.campaigns.history(c.id, {});
        expect(history.items[0]?.changes.find((ch) => ch.field === "tKeywords")?.after).toMatchObject({ more: 600 - 20 });
        // Nothing of the old generation is left: the chunks and view pages are all of the new one.
        const docs = await docsOf(c.id);
        expect(docs.filter((d) => d.view !== "header" && d.gen !== gen)).toEqual([]);
        expect(docs.filter((d) => d.view === "page").length).toBe(2);
        // A change within the budget then writes the current generation in one transaction.
        await storage.targets.change(c.id, { kinds: [{ kind: "keyword", upsert: { "keyword 7": newTarget({ name: "keyword 7", bid: 99 }, NOW) }, remove: ["keyword 8"] }] }, EDITOR, { publish });
        expect((await targets.get(c.id, "keyword", ["keyword 7"]))["keyword 7"]?.bid).toBe(99);
        expect((await targets.page(c.id, "keyword", { offset: 0, limit: 1000 })).total).toBe(599);
        expect((await storage.campaigns.getOne(c.id))!.targetGens).toEqual({ keyword: gen });
        expect(await sweepAll(new Date(Date.now() + 3 * 60 * 60 * 1000))).toBe(0);
        // A duplicate keeps the generation of what it copied; deleting a campaign removes its generation.
        const { id: _id, version: _version, counts: _counts, targetBuckets: _buckets, targetGens: _gens, ...data } = (await storage.campaigns.getOne(c.id))!;
        const copy = await storage.campaigns.create({ ...data, name: "Copy", status: "draft" }, EDITOR, undefined, { targetsOf: c.id });
        expect(await targets.list(copy.id, "keyword")).toEqual(await targets.list(c.id, "keyword"));
        expect(await targets.page(copy.id, "keyword", { offset: 0, limit: 5 })).toEqual(await targets.page(c.id, "keyword", { offset: 0, limit: 5 }));
        await storage.campaigns.delete(c.id, EDITOR, NOW);
        expect(await docsOf(c.id)).toEqual([]);
      });

      it("leaves the previous targets as they were when the writes fail part way, and the sweep removes the staged generation later", async () => {
        const c = await newCampaign();
        await storage.targets.change(c.id, { kinds: [{ kind: "keyword", upsert: keywords(["shoes", "boots"]) }] }, EDITOR, { publish });
        const before = (await storage.campaigns.getOne(c.id))!;
        // Transactions fail from the fourth on (the first finds the change past the budget, the
        // second computes it, the third writes a first batch of the new generation): the store is
        // gone mid-write.
        let calls = 0;
        let failFrom = Infinity;
        const failing: DocumentStore = Object.assign(Object.create(store) as DocumentStore, {
          transaction: <R>(fn: Parameters<DocumentStore["transaction"]>[0]) => (++calls >= failFrom ? Promise.reject(new Error("simulated outage")) : (store.transaction(fn) as Promise<R>)),
        });
        const targets = createTargetsRepo(failing, { commitBudgetBytes: BUDGET });
        failFrom = 4;
        const many = Array.from({ length: 600 }, (_, i) => `keyword ${i}`);
        await expect(targets.change(c.id, { kinds: [{ kind: "keyword", upsert: keywords(many), replace: true }] }, EDITOR, { publish })).rejects.toThrow("simulated outage");
        failFrom = Infinity;
        const expectPrevious = async () => {
          const now = (await storage.campaigns.getOne(c.id))!;
          expect(now.version).toBe(before.version);
          expect(now.counts?.keywords).toBe(2);
          expect(now.targetGens).toBeUndefined();
          expect(Object.keys(await storage.targets.list(c.id, "keyword")).sort()).toEqual(["boots", "shoes"]);
          expect((await storage.targets.page(c.id, "keyword", { offset: 0, limit: 10 })).items.map((i) => i.key)).toEqual(["boots", "shoes"]);
          expect(Object.keys(await storage.targets.getPublished(c.id, "keyword")).sort()).toEqual(["boots", "shoes"]);
          expect((await storage.publication.getCampaign(c.id))?.targets?.keyword).toEqual({ count: 2, buckets: 1 });
        };
        await expectPrevious();
        // What was staged is named by nothing; the sweep leaves it alone for an hour (a change may
        // still be writing it), then removes it, and only it.
        const staged = (await docsOf(c.id)).filter((d) => d.gen);
        expect(staged.length).toBeGreaterThan(0);
        expect(staged.filter((d) => d.collection === COLLECTIONS.campaignTarget).every((d) => d.staged)).toBe(true);
        expect(await sweepAll()).toBe(0);
        expect(await sweepAll(new Date(Date.now() + 2 * 60 * 60 * 1000))).toBe(staged.filter((d) => d.collection === COLLECTIONS.campaignTarget).length);
        expect((await docsOf(c.id)).filter((d) => d.gen)).toEqual([]);
        await expectPrevious();

        // The switch itself failing: the same.
        calls = 0;
        failFrom = Infinity;
        const probe = createTargetsRepo(Object.assign(Object.create(store) as DocumentStore, { transaction: <R>(fn: Parameters<DocumentStore["transaction"]>[0]) => (++calls, store.transaction(fn) as Promise<R>) }), { commitBudgetBytes: BUDGET });
        const other = await newCampaign();
        await probe.change(other.id, { kinds: [{ kind: "keyword", upsert: keywords(many), replace: true }] }, EDITOR);
        // Past the budget, computed, the batches, the switch (the last: no old generation to delete).
        const switchAt = calls;
        calls = 0;
        failFrom = switchAt;
        await expect(targets.change(c.id, { kinds: [{ kind: "keyword", upsert: keywords(many), replace: true }] }, EDITOR, { publish })).rejects.toThrow("simulated outage");
        failFrom = Infinity;
        await expectPrevious();
      });

      it("duplicates a campaign whose targets are past the budget: the copy staged under a generation of its own, named by the create", async () => {
        const budgeted: DocumentStore = Object.assign(Object.create(store) as DocumentStore, { commitBudgetBytes: BUDGET });
        const small = createStorage(budgeted);
        const c = await newCampaign();
        const many = Array.from({ length: 600 }, (_, i) => `keyword ${i}`);
        await small.targets.change(c.id, { kinds: [{ kind: "keyword", upsert: keywords(many) }] }, EDITOR);
        const source = (await storage.campaigns.getOne(c.id))!;
        const { id: _id, version: _version, counts: _counts, targetBuckets: _buckets, targetGens: _gens, ...data } = source;
        const copy = await small.campaigns.create({ ...data, name: "Copy", status: "draft" }, EDITOR, undefined, { targetsOf: c.id });
        const gen = copy.targetGens?.keyword;
        expect(gen).toMatch(/^g[0-9a-z]+$/);
        expect(gen).not.toBe(source.targetGens?.keyword);
        expect((await storage.campaigns.getOne(copy.id))!.targetGens).toEqual({ keyword: gen });
        expect(copy.counts?.keywords).toBe(600);
        expect(await storage.targets.list(copy.id, "keyword")).toEqual(await storage.targets.list(c.id, "keyword"));
        expect(await storage.targets.page(copy.id, "keyword", { offset: 0, limit: 1000 })).toEqual(await storage.targets.page(c.id, "keyword", { offset: 0, limit: 1000 }));
        expect((await docsOf(copy.id)).filter((d) => d.view !== "header" && d.gen !== gen)).toEqual([]);
        expect(await sweepAll(new Date(Date.now() + 3 * 60 * 60 * 1000))).toBe(0);
        await storage.targets.change(copy.id, { kinds: [{ kind: "keyword", remove: ["keyword 1"] }] }, EDITOR);
        expect(Object.keys(await storage.targets.get(c.id, "keyword", ["keyword 1"]))).toEqual(["keyword 1"]);

        // The create failing after the copy was staged: no duplicate; what was staged is swept an hour later.
        let calls = 0;
        let failFrom = Infinity;
        const failing = createStorage(Object.assign(Object.create(budgeted) as DocumentStore, { transaction: <R>(fn: Parameters<DocumentStore["transaction"]>[0]) => (++calls >= failFrom ? Promise.reject(new Error("simulated outage")) : (store.transaction(fn) as Promise<R>)) }));
        await failing.campaigns.create({ ...data, name: "Probe", status: "draft" }, EDITOR, "probe-copy", { targetsOf: c.id });
        failFrom = calls; // the create is the last transaction
        calls = 0;
        await expect(failing.campaigns.create({ ...data, name: "Failed", status: "draft" }, EDITOR, "failed-copy", { targetsOf: c.id })).rejects.toThrow("simulated outage");
        failFrom = Infinity;
        expect(await storage.campaigns.getOne("failed-copy")).toBeNull();
        expect((await docsOf("failed-copy")).length).toBeGreaterThan(0);
        expect(await sweepAll()).toBe(0);
        await sweepAll(new Date(Date.now() + 2 * 60 * 60 * 1000));
        expect((await docsOf("failed-copy")).filter((d) => d.collection === COLLECTIONS.campaignTarget)).toEqual([]);
        expect(Object.keys(await storage.targets.list("probe-copy", "keyword"))).toHaveLength(600);
      });

      it("computes the change again when another change came between its computing and its switch", async () => {
        const c = await newCampaign();
        await storage.targets.change(c.id, { kinds: [{ kind: "keyword", upsert: keywords(["shoes"]) }] }, EDITOR);
        let calls = 0;
        const racing: DocumentStore = Object.assign(Object.create(store) as DocumentStore, {
          transaction: async <R>(fn: Parameters<DocumentStore["transaction"]>[0]) => {
            // After the first computing, before the first batch: another editor adds a keyword.
            if (++calls === 2) await storage.targets.change(c.id, { kinds: [{ kind: "keyword", upsert: keywords(["boots"]) }] }, EDITOR);
            return store.transaction(fn) as Promise<R>;
          },
        });
        const targets = createTargetsRepo(racing, { commitBudgetBytes: BUDGET });
        const many = Array.from({ length: 600 }, (_, i) => `keyword ${i}`);
        const { campaign } = await targets.change(c.id, { kinds: [{ kind: "keyword", upsert: keywords(many) }] }, EDITOR);
        // Both kept: the added list and the keyword added meanwhile.
        expect(campaign.counts?.keywords).toBe(602);
        expect(Object.keys(await storage.targets.list(c.id, "keyword"))).toHaveLength(602);
        expect((await storage.targets.page(c.id, "keyword", { offset: 0, limit: 1 })).total).toBe(602);
        // The generation of the first computing, never switched to, is gone.
        expect((await docsOf(c.id)).filter((d) => d.view !== "header" && d.gen !== campaign.targetGens?.keyword)).toEqual([]);
      });
    });
  });
}
