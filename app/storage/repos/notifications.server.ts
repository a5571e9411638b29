/**
 * Notifications (issue 11 §3) over any DocumentStore. Each user has an inbox document (unread
 * count, last seq, the seq "mark all read" reached); creating a notification, marking one read
 * and marking all read are each one transaction on it, so the count never drifts and "mark all
 * read" is one atomic write however many notifications it covers.
 */
import { randomUUID } from "node:crypto";
import { isRead, type Notification, type NotificationData, type NotificationInboxData } from "~/domain/notifications";
import {
  NOTIFICATION_COLLECTION as C,
  NOTIFICATION_INBOX_COLLECTION as INBOX,
  type DocumentStore,
  type NotificationsRepo,
  type Stored,
} from "~/storage/port";

/** Notifications newer than those shown that "mark all read" looks at (beyond: all are marked). */
const MARK_ALL_NEWER_MAX = 500;

function emptyInbox(userId: string): NotificationInboxData {
  return { userId, seq: 0, unread: 0, readThroughSeq: 0 };
}

/** The stored notification with `read` as its reader sees it. */
function asRead(notification: Stored<NotificationData>, inbox: NotificationInboxData | null): Notification {
  return { ...notification, read: isRead(notification, inbox?.readThroughSeq ?? 0) };
}

export function createNotificationsRepo(store: DocumentStore): NotificationsRepo {
  async function getOwn(userId: string, id: string) {
    const found = await store.get<NotificationData>(C, id);
    if (!found || found.userId !== userId) return null;
    return asRead(found, await store.get<NotificationInboxData>(INBOX, userId));
  }

  return {
    async create(data, now, id) {
      const docId = id ?? randomUUID();
      return store.transaction(async (tx) => {
        const existing = await tx.get<NotificationData>(C, docId);
        if (existing) return null;
        const inbox = (await tx.get<NotificationInboxData>(INBOX, data.userId)) ?? emptyInbox(data.userId);
        const seq = inbox.seq + 1;
        const created: NotificationData = { ...data, seq, read: false, created: now.toISOString() };
        tx.create<NotificationData>(C, docId, created);
        tx.set<NotificationInboxData>(INBOX, data.userId, { userId: data.userId, seq, unread: inbox.unread + 1, readThroughSeq: inbox.readThroughSeq });
        return { ...created, id: docId, version: 1 };
      });
    },
    async list(userId, { limit, after }) {
      const [page, inbox] = await Promise.all([
        store.query<NotificationData>(C, { where: [["userId", "==", userId]], orderBy: { field: "seq", direction: "desc" }, limit, after }),
        store.get<NotificationInboxData>(INBOX, userId),
      ]);
      return { items: page.items.map((n) => asRead(n, inbox)), next: page.next, latestSeq: inbox?.seq ?? 0 };
    },
    getOwn,
    async markRead(userId, id) {
      return store.transaction(async (tx) => {
        const found = await tx.get<NotificationData>(C, id);
        if (!found || found.userId !== userId) return null;
        const inbox = (await tx.get<NotificationInboxData>(INBOX, userId)) ?? emptyInbox(userId);
        if (isRead(found, inbox.readThroughSeq)) return asRead(found, inbox);
        tx.update<NotificationData>(C, id, { read: true });
        tx.set<NotificationInboxData>(INBOX, userId, { ...inbox, userId, unread: Math.max(0, inbox.unread - 1) });
        return { ...found, read: true, version: found.version + 1 };
      });
    },
    async markAllRead(userId, throughSeq) {
      for (let attempt = 0; attempt < 5; attempt++) {
        const current = await store.get<NotificationInboxData>(INBOX, userId);
        if (!current) return 0;
        // Up to the newest shown; when very many arrived since, all of them.
        let through = Math.min(throughSeq ?? current.seq, current.seq);
        if (current.seq - through > MARK_ALL_NEWER_MAX) through = current.seq;
        // The ones that arrived after those shown (a few at most) stay as they are.
        const newer =
          through < current.seq
            ? (await store.query<NotificationData>(C, { where: [["userId", "==", userId], ["seq", ">", through]], orderBy: { field: "seq", direction: "desc" }, limit: MARK_ALL_NEWER_MAX })).items
            : [];
        const marked = await store.transaction(async (tx) => {
          const inbox = await tx.get<NotificationInboxData>(INBOX, userId);
          if (!inbox) return 0;
          // Another one arrived since they were listed: list them again.
          if (newer.length !== inbox.seq - through) return null;
          const docs: (Stored<NotificationData> | null)[] = [];
          for (const n of newer) docs.push(await tx.get<NotificationData>(C, n.id));
          const readThroughSeq = Math.max(inbox.readThroughSeq, through);
          const unread = docs.filter((n) => n && !isRead(n, readThroughSeq)).length;
          if (readThroughSeq === inbox.readThroughSeq && unread === inbox.unread) return 0;
          tx.set<NotificationInboxData>(INBOX, userId, { userId, seq: inbox.seq, unread, readThroughSeq });
          return Math.max(0, inbox.unread - unread);
        });
        if (marked !== null) return marked;
      }
      return 0;
    },
    async countUnread(userId) {
      return (await store.get<NotificationInboxData>(INBOX, userId))?.unread ?? 0;
    },
  };
}
