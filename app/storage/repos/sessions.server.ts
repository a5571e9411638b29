/** Server-side sessions: the cookie carries only a random id; ending a session deletes it here. */
import { createHash } from "node:crypto";
import { SESSION_COLLECTION, type DocumentStore, type SessionRecordData, type SessionsRepo } from "~/storage/port";

/** Document ids are the hash of the session id: a copy of the database opens no session. */
function documentId(id: string): string {
  return createHash("sha256").update(id).digest("hex");
}

const PAGE = 200;

export function createSessionsRepo(store: DocumentStore): SessionsRepo {
  const C = SESSION_COLLECTION;
  const userIdOf = (data: Record<string, unknown>) => (typeof data.userId === "string" ? data.userId : null);

  return {
    async create(id, data, expiresAt, now) {
      await store.create<SessionRecordData>(C, documentId(id), {
        userId: userIdOf(data),
        data,
        expiresAt: expiresAt.toISOString(),
        created: now.toISOString(),
      });
    },
    async get(id, now) {
      const record = await store.get<SessionRecordData>(C, documentId(id));
      if (!record) return null;
      if (Date.parse(record.expiresAt) <= now.getTime()) {
        await store.delete(C, documentId(id));
        return null;
      }
      return record;
    },
    async update(id, data, expiresAt) {
      const docId = documentId(id);
      return store.transaction(async (tx) => {
        const current = await tx.get<SessionRecordData>(C, docId);
        if (!current) return false;
        tx.update<SessionRecordData>(C, docId, { userId: userIdOf(data), data, expiresAt: expiresAt.toISOString() });
        return true;
      });
    },
    async delete(id) {
      await store.delete(C, documentId(id));
    },
    async deleteForUser(userId) {
      let deleted = 0;
      for (;;) {
        const page = await store.query<SessionRecordData>(C, { where: [["userId", "==", userId]], limit: PAGE });
        for (const session of page.items) await store.delete(C, session.id);
        deleted += page.items.length;
        if (page.items.length < PAGE) return deleted;
      }
    },
    async deleteExpired(now, limit = PAGE) {
      const page = await store.query<SessionRecordData>(C, {
        where: [["expiresAt", "<=", now.toISOString()]],
        orderBy: { field: "expiresAt" },
        limit,
      });
      for (const session of page.items) await store.delete(C, session.id);
      return page.items.length;
    },
  };
}
