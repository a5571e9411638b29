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
  const current = await tx.get<PublishedCampaign>(COLLECTIONS.cacheCampaign, campaignId);
  // An id no document can have is no catalog product (CatalogRepo refuses it): nothing to link.
  const before = new Set((current?.productIds ?? []).filter(isDocumentId));
  const after = new Set((payload?.productIds ?? []).filter(isDocumentId));
  const touched = [...new Set([...before, ...after])];
  const products = await Promise.all(touched.map((id) => tx.get<CacheProductData>(COLLECTIONS.cacheProduct, id)));
  const now = new Date().toISOString();
  return () => {
    if (payload) tx.set<PublishedCampaign>(COLLECTIONS.cacheCampaign, campaignId, payload);
    else if (current) tx.delete(COLLECTIONS.cacheCampaign, campaignId);
    touched.forEach((productId, i) => {
      const doc = products[i];
      const list = doc?.campaigns ?? [];
      const has = list.includes(campaignId);
      const want = after.has(productId);
      if (has === want) return;
      const campaigns = want ? [...list, campaignId].sort() : list.filter((c) => c !== campaignId);
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
  };
}
