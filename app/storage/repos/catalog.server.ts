import { productData, type CampaignViewData, type ProductData, type ProductInput } from "~/domain/catalog";
import { foldText, matchesSearch } from "~/domain/search";
import {
  AlreadyExistsError,
  CATALOG_OPEN_TIMEOUT_MS,
  COLLECTIONS,
  type CatalogState,
  NotFoundError,
  type CampaignViewsRepo,
  type CatalogRepo,
  type DocumentStore,
  type Where,
} from "~/storage/port";
import { randomUUID } from "node:crypto";
import { fillPage, isDocumentId, selectiveSearchKey } from "~/storage/repos/paging.server";

/** Writes per transaction: under Firestore's 500. */
const BATCH = 400;

/** Only the product's own fields: derived ones are recomputed, anything else is left out. */
function pickProductInput(input: ProductInput): ProductInput {
  return {
    title: input.title,
    image_link: input.image_link,
    link: input.link,
    availability: input.availability,
    party: input.party,
    brand: input.brand,
    price: input.price,
    stroke_price: input.stroke_price ?? null,
    categories: [...(input.categories ?? [])],
    // Kept only where the feed gives a seller.
    ...(typeof input.seller_id === "string" && input.seller_id.trim() ? { seller_id: input.seller_id.trim() } : {}),
  };
}

const STATE_ID = "catalog";

/** Upserts still running, less those left open too long (their process died). */
function liveOpen(state: Pick<CatalogState, "open">, now: number): CatalogState["open"] {
  return state.open.filter((o) => now - Date.parse(o.since) < CATALOG_OPEN_TIMEOUT_MS);
}

export function createCatalogRepo(store: DocumentStore): CatalogRepo {
  const C = COLLECTIONS.product;
  const S = COLLECTIONS.catalogState;

  /** Numbers a new upsert and marks it open, atomically; returns its number. */
  async function beginChange(): Promise<number> {
    return store.transaction(async (tx) => {
      const now = new Date();
      const state = await tx.get<CatalogState>(S, STATE_ID);
      const seq = (state?.seq ?? 0) + 1;
      tx.set<CatalogState>(S, STATE_ID, {
        catalogId: state?.catalogId ?? randomUUID(),
        seq,
        open: [...liveOpen(state ?? { open: [] }, now.getTime()), { seq, since: now.toISOString() }],
        updated: now.toISOString(),
      });
      return seq;
    });
  }

  /** Marks an upsert finished (whatever it managed to write is there to read). */
  async function endChange(seq: number): Promise<void> {
    await store.transaction(async (tx) => {
      const now = new Date();
      const state = await tx.get<CatalogState>(S, STATE_ID);
      if (!state) return;
      tx.set<CatalogState>(S, STATE_ID, {
        catalogId: state.catalogId,
        seq: state.seq,
        open: liveOpen(state, now.getTime()).filter((o) => o.seq !== seq),
        updated: now.toISOString(),
      });
    });
  }

  return {
    async getOne(id) {
      // An id no document can have (pasted "a/b") is simply not in the catalog, on both adapters.
      return isDocumentId(id) ? store.get<ProductData>(C, id) : null;
    },
    async getMany(ids) {
      return store.getMany<ProductData>(C, ids.filter(isDocumentId));
    },
    async list(spec) {
      const where: Where[] = [];
      if (spec.party) where.push(["party", "==", spec.party]);
      if (spec.availability) where.push(["availability", "==", spec.availability]);
      if (spec.brand) where.push(["brandLower", "==", foldText(spec.brand)]);
      const key = spec.search ? selectiveSearchKey(spec.search) : null;
      if (key) where.push(["searchTokens", "array-contains", key]);
      const search = key ? spec.search! : null;
      return fillPage(
        (limit, after) => store.query<ProductData>(C, { where, orderBy: { field: "titleLower", direction: "asc" }, limit, after }),
        search ? (p) => matchesSearch(`${p.title} ${p.brand} ${p.id}`, search) : null,
        spec.limit,
        spec.after,
      );
    },
    async upsertMany(products) {
      const invalid = products.filter((p) => !isDocumentId(p.id)).map((p) => p.id);
      if (invalid.length) throw new RangeError(`Invalid product ids: ${invalid.slice(0, 5).join(", ")}`);
      // The last of several rows with one id wins, and each id is written once (a transaction may
      // not write one document twice on every adapter alike).
      const byId = new Map(products.map((p) => [p.id, p] as const));
      const unique = [...byId.values()];
      if (!unique.length) return 0;
      const seq = await beginChange();
      try {
        for (let i = 0; i < unique.length; i += BATCH) {
          const chunk = unique.slice(i, i + BATCH);
          await store.transaction(async (tx) => {
            for (const { id, ...input } of chunk) tx.set<ProductData>(C, id, { ...productData(id, pickProductInput(input)), catalogSeq: seq });
          });
        }
      } finally {
        await endChange(seq);
      }
      return unique.length;
    },
    async count() {
      return store.count(C);
    },
    async state() {
      const found = await store.get<CatalogState>(S, STATE_ID);
      if (found) return found;
      // Made once; two instances reading at once agree on the one created first.
      return store.transaction(async (tx) => {
        const again = await tx.get<CatalogState>(S, STATE_ID);
        if (again) return again;
        const fresh: CatalogState = { catalogId: randomUUID(), seq: 0, open: [], updated: new Date().toISOString() };
        tx.create<CatalogState>(S, STATE_ID, fresh);
        return { ...fresh, id: STATE_ID, version: 1 };
      });
    },
    async listChanged(spec) {
      if (spec.sinceSeq === null) return store.query<ProductData>(C, { limit: spec.limit, after: spec.after });
      return store.query<ProductData>(C, {
        where: [["catalogSeq", ">=", spec.sinceSeq]],
        orderBy: { field: "catalogSeq", direction: "asc" },
        limit: spec.limit,
        after: spec.after,
      });
    },
  };
}

export function createCampaignViewsRepo(store: DocumentStore): CampaignViewsRepo {
  const C = COLLECTIONS.campaignView;
  return {
    async listForUser(userId) {
      const page = await store.query<CampaignViewData>(C, { where: [["userId", "==", userId]], orderBy: { field: "nameLower", direction: "asc" }, limit: 100 });
      return page.items;
    },
    async getOne(id) {
      return store.get<CampaignViewData>(C, id);
    },
    async create(userId, input, now, refuse) {
      // The user's view names sit on a per-user counter document, read and written in the same
      // transaction as the caller's rule (the limit, the name), so two tabs saving at once cannot
      // pass it.
      const counterId = `count-${userId}`;
      const id = randomUUID();
      const name = input.name.trim();
      return store.transaction(async (tx) => {
        const counter = await tx.get<{ names: string[] }>(COLLECTIONS.campaignViewOwner, counterId);
        const names = counter?.names ?? [];
        const refusal = refuse(names);
        if (refusal !== null) return { ok: false as const, reason: refusal };
        const data: CampaignViewData = { userId, name, nameLower: foldText(name), query: input.query, columns: input.columns, created: now.toISOString(), updated: now.toISOString() };
        tx.set(COLLECTIONS.campaignViewOwner, counterId, { names: [...names, foldText(name)] });
        tx.create<CampaignViewData>(C, id, data);
        return { ok: true as const, view: { ...data, id, version: 1 } };
      });
    },
    async rename(id, name, now) {
      return store.transaction(async (tx) => {
        const view = await tx.get<CampaignViewData>(C, id);
        if (!view) throw new NotFoundError(C, id);
        const counterId = `count-${view.userId}`;
        const counter = await tx.get<{ names: string[] }>(COLLECTIONS.campaignViewOwner, counterId);
        const names = (counter?.names ?? []).filter((n) => n !== view.nameLower);
        const lower = foldText(name);
        if (names.includes(lower)) throw new AlreadyExistsError(C, name);
        tx.set(COLLECTIONS.campaignViewOwner, counterId, { names: [...names, lower] });
        tx.update<CampaignViewData>(C, id, { name: name.trim(), nameLower: lower, updated: now.toISOString() });
        return { ...view, name: name.trim(), nameLower: lower, updated: now.toISOString(), version: view.version + 1 };
      });
    },
    async delete(id) {
      await store.transaction(async (tx) => {
        const view = await tx.get<CampaignViewData>(C, id);
        if (!view) return;
        const counterId = `count-${view.userId}`;
        const counter = await tx.get<{ names: string[] }>(COLLECTIONS.campaignViewOwner, counterId);
        tx.set(COLLECTIONS.campaignViewOwner, counterId, { names: (counter?.names ?? []).filter((n) => n !== view.nameLower) });
        tx.delete(C, id);
      });
    },
  };
}
