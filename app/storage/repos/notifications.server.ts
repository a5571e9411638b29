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
      return { items: page.items.map((n) => asRead(n, inbox)), next: page.next };
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
    async markAllRead(userId) {
      return store.transaction(async (tx) => {
        const inbox = await tx.get<NotificationInboxData>(INBOX, userId);
        if (!inbox || (inbox.unread === 0 && inbox.readThroughSeq === inbox.seq)) return 0;
        tx.set<NotificationInboxData>(INBOX, userId, { userId, seq: inbox.seq, unread: 0, readThroughSeq: inbox.seq });
        return inbox.unread;
      });
    },
    async countUnread(userId) {
      return (await store.get<NotificationInboxData>(INBOX, userId))?.unread ?? 0;
    },
  };
}
