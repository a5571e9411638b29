import { SIGNING_KEY_COLLECTION, type DocumentStore, type SigningKey, type SigningKeysRepo } from "~/storage/port";

/** One document holds the ring of keys, so a rotation is one atomic write on both adapters. */
const RING_ID = "ring";

interface Ring {
  keys: SigningKey[];
}

function newestFirst(keys: readonly SigningKey[]): SigningKey[] {
  return [...keys].sort((a, b) => Date.parse(b.created) - Date.parse(a.created));
}

export function createSigningKeysRepo(store: DocumentStore): SigningKeysRepo {
  return {
    async list() {
      const ring = await store.get<Ring>(SIGNING_KEY_COLLECTION, RING_ID);
      return newestFirst(ring?.keys ?? []);
    },
    async rotate(candidate, now, rotateAfterMs, keepMs) {
      return store.transaction(async (tx) => {
        const ring = await tx.get<Ring>(SIGNING_KEY_COLLECTION, RING_ID);
        const keys = newestFirst(ring?.keys ?? []);
        const newest = keys[0];
        if (newest && now.getTime() - Date.parse(newest.created) < rotateAfterMs) return keys;
        const kept = keys.filter((k) => now.getTime() - Date.parse(k.created) < keepMs);
        const next = newestFirst([candidate, ...kept]);
        tx.set<Ring>(SIGNING_KEY_COLLECTION, RING_ID, { keys: next });
        return next;
      });
    },
  };
}
