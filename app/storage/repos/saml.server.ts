/** Single sign-on's shared state (ADR 31): issued request ids, used assertion ids, fetched metadata. */
import { createHash } from "node:crypto";
import {
  AlreadyExistsError,
  SAML_ASSERTION_COLLECTION,
  SAML_METADATA_COLLECTION,
  SAML_REQUEST_COLLECTION,
  type DocumentStore,
  type SamlMetadataCacheData,
  type SamlRepo,
} from "~/storage/port";

interface ExpiringData {
  /** ISO instant after which the record means nothing (and may be purged). */
  expiresAt: string;
}
interface RequestData extends ExpiringData {
  issuedAt: string;
}
interface AssertionData extends ExpiringData {
  issuer: string;
  created: string;
}

/** Ids come from outside (an IdP's assertion ids, URLs): document ids are their hashes. */
const hashId = (...parts: string[]) => createHash("sha256").update(parts.join("\n")).digest("hex");

export function createSamlRepo(store: DocumentStore): SamlRepo {
  const live = (record: ExpiringData | null, now: Date) => !!record && Date.parse(record.expiresAt) > now.getTime();
  return {
    async saveRequest(id, issuedAt, expiresAt) {
      await store.set<RequestData>(SAML_REQUEST_COLLECTION, hashId(id), { issuedAt: issuedAt.toISOString(), expiresAt: expiresAt.toISOString() });
    },
    async getRequest(id, now) {
      const record = await store.get<RequestData>(SAML_REQUEST_COLLECTION, hashId(id));
      return record && live(record, now) ? record.issuedAt : null;
    },
    async removeRequest(id) {
      await store.delete(SAML_REQUEST_COLLECTION, hashId(id));
    },
    async rememberAssertion(issuer, assertionId, expiresAt, now) {
      const id = hashId(issuer, assertionId);
      const data: AssertionData = { issuer, expiresAt: expiresAt.toISOString(), created: now.toISOString() };
      try {
        await store.create<AssertionData>(SAML_ASSERTION_COLLECTION, id, data);
        return true;
      } catch (error) {
        if (!(error instanceof AlreadyExistsError)) throw error;
      }
      // Known: a replay, unless the record outlived its window (not purged yet): then it is replaced, atomically.
      return store.transaction(async (tx) => {
        const current = await tx.get<AssertionData>(SAML_ASSERTION_COLLECTION, id);
        if (current && live(current, now)) return false;
        tx.set<AssertionData>(SAML_ASSERTION_COLLECTION, id, data);
        return true;
      });
    },
    async purgeExpired(now, limit) {
      let removed = 0;
      for (const collection of [SAML_REQUEST_COLLECTION, SAML_ASSERTION_COLLECTION]) {
        if (removed >= limit) break;
        const page = await store.query<ExpiringData>(collection, { where: [["expiresAt", "<", now.toISOString()]], limit: limit - removed });
        for (const record of page.items) {
          await store.delete(collection, record.id);
          removed += 1;
        }
      }
      return removed;
    },
    async getMetadata(url) {
      const record = await store.get<SamlMetadataCacheData>(SAML_METADATA_COLLECTION, hashId(url));
      if (!record) return null;
      return { url: record.url, xml: record.xml, fetchedAt: record.fetchedAt };
    },
    async saveMetadata(data) {
      await store.set<SamlMetadataCacheData>(SAML_METADATA_COLLECTION, hashId(data.url), { url: data.url, xml: data.xml, fetchedAt: data.fetchedAt });
    },
  };
}
