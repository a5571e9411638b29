/**
 * Publication to the ad server's cache (spec section 4): the cache copy of a campaign and each
 * product's campaign list change together, inside the caller's transaction or in one of their own.
 */
import { COLLECTIONS, type DocumentStore, type PublicationRepo, type PublishedCampaign, type TransactionContext } from "~/storage/port";
import { isDocumentId } from "~/storage/repos/paging.server";

interface CacheProductData {
  campaigns: string[];
  updated: string;
}

/**
 * Reads what a publication changes (reads come before writes in a transaction) and returns the
 * writes to run: the cache copy set or deleted, the campaign added to or removed from each
 * product's list. Nothing is written for a product whose list already says the right thing.
 */
export async function preparePublication(
  tx: TransactionContext,
  campaignId: string,
  payload: PublishedCampaign | null,
): Promise<() => void> {
  return preparePublications(tx, [{ campaignId, payload }]);
}

/**
 * Several campaigns' publications in one transaction: each product touched is read once and
 * written once with every campaign's change, so two campaigns sharing a product never write
 * over each other's link.
 */
export async function preparePublications(
  tx: TransactionContext,
  publications: readonly { campaignId: string; payload: PublishedCampaign | null }[],
): Promise<() => void> {
  const currents = await Promise.all(publications.map((p) => tx.get<PublishedCampaign>(COLLECTIONS.cacheCampaign, p.campaignId)));
  // Product -> campaign -> linked after the publication (true) or not (false).
  const wanted = new Map<string, Map<string, boolean>>();
  publications.forEach(({ campaignId, payload }, i) => {
    // An id no document can have is no catalog product (CatalogRepo refuses it): nothing to link.
    const before = (currents[i]?.productIds ?? []).filter(isDocumentId);
    const after = new Set((payload?.productIds ?? []).filter(isDocumentId));
    // A product linked before and after keeps its link (the cache copy and the product's list
    // are always written together): only the products that join or leave are read and written.
    const was = new Set(before);
    for (const productId of new Set([...before, ...after])) {
      if (was.has(productId) && after.has(productId)) continue;
      const byCampaign = wanted.get(productId) ?? new Map<string, boolean>();
      byCampaign.set(campaignId, after.has(productId));
      wanted.set(productId, byCampaign);
    }
  });
  const touched = [...wanted.keys()];
  const products = await Promise.all(touched.map((id) => tx.get<CacheProductData>(COLLECTIONS.cacheProduct, id)));
  const now = new Date().toISOString();
  return () => {
    publications.forEach(({ campaignId, payload }, i) => {
      if (payload) tx.set<PublishedCampaign>(COLLECTIONS.cacheCampaign, campaignId, payload);
      else if (currents[i]) tx.delete(COLLECTIONS.cacheCampaign, campaignId);
    });
    touched.forEach((productId, i) => {
      const doc = products[i];
      const list = new Set(doc?.campaigns ?? []);
      let changed = false;
      for (const [campaignId, want] of wanted.get(productId)!) {
        if (list.has(campaignId) === want) continue;
        changed = true;
        if (want) list.add(campaignId);
        else list.delete(campaignId);
      }
      if (!changed) return;
      const campaigns = [...list].sort();
      if (campaigns.length === 0) {
        if (doc) tx.delete(COLLECTIONS.cacheProduct, productId);
      } else {
        tx.set<CacheProductData>(COLLECTIONS.cacheProduct, productId, { campaigns, updated: now });
      }
    });
  };
}

export function createPublicationRepo(store: DocumentStore): PublicationRepo {
  return {
    async apply(campaignId, payload) {
      await store.transaction(async (tx) => {
        const write = await preparePublication(tx, campaignId, payload);
        write();
      });
    },
    async getCampaign(campaignId) {
      if (!isDocumentId(campaignId)) return null;
      const doc = await store.get<PublishedCampaign>(COLLECTIONS.cacheCampaign, campaignId);
      if (!doc) return null;
      const { id, version, ...rest } = doc;
      return rest as PublishedCampaign;
    },
    async campaignsForProduct(productId) {
      if (!isDocumentId(productId)) return [];
      const doc = await store.get<CacheProductData>(COLLECTIONS.cacheProduct, productId);
      return doc?.campaigns ?? [];
    },
    async listSponsoredProducts(spec) {
      // A product's document exists while at least one campaign is published on it (it is
      // deleted with its last campaign), so its id is the answer.
      const page = await store.query<CacheProductData>(COLLECTIONS.cacheProduct, { limit: spec.limit, after: spec.after });
      return { items: page.items.filter((doc) => doc.campaigns.length > 0).map((doc) => doc.id), next: page.next };
    },
  };
}
