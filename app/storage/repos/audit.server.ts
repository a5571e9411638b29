import { randomUUID } from "node:crypto";
import type { AuditEntry, AuditEntryData } from "~/domain/types";
import { COLLECTIONS, type AuditRepo, type DocumentStore, type TransactionContext, type Where } from "~/storage/port";

const SECRET_FIELDS = new Set(["passwordHash", "passwordHistory", "totpSecret", "recoveryCodeHashes", "totpLastStep"]);

/** Field-by-field differences between two versions of a document, secrets redacted. */
export function diffFields(
  before: Record<string, unknown> | null,
  after: Record<string, unknown>,
): AuditEntryData["changes"] {
  const changes: AuditEntryData["changes"] = [];
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after)]);
  for (const field of keys) {
    if (field === "version" || field === "updated" || field === "settingsSavedAtVersion") continue;
    const a = before?.[field];
    const b = after[field];
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    changes.push(
      SECRET_FIELDS.has(field)
        ? { field, before: a === undefined ? null : "[redacted]", after: "[redacted]" }
        : { field, before: a ?? null, after: b ?? null },
    );
  }
  return changes;
}

let lastStamp = 0n;

/**
 * An audit entry id that sorts by time: lists order by `at` and break ties by id, so two changes
 * in the same millisecond keep the order they were made in (within a process, by a monotonic
 * clock); the random tail keeps ids unique across processes.
 */
export function auditEntryId(): string {
  let stamp = process.hrtime.bigint();
  if (stamp <= lastStamp) stamp = lastStamp + 1n;
  lastStamp = stamp;
  return `${stamp.toString(36).padStart(14, "0")}-${randomUUID().slice(0, 8)}`;
}

/** Adds an audit entry to a running transaction, so the change and its record land together. */
/** Who an audit entry names: the acting user and, while an operator is logged as them, the operator. */
export function auditBy(actor: { by: string; realBy?: string }): Pick<AuditEntryData, "by" | "realBy"> {
  return actor.realBy ? { by: actor.by, realBy: actor.realBy } : { by: actor.by };
}

export function appendAuditInTransaction(tx: TransactionContext, entry: Omit<AuditEntryData, "at">, now: Date): void {
  tx.create<AuditEntryData>(COLLECTIONS.audit, auditEntryId(), { ...entry, at: now.toISOString() });
}

export function createAuditRepo(store: DocumentStore): AuditRepo {
  return {
    async list({ entity, entityId, teamId, limit, after }) {
      const where: Where[] = [];
      if (entity) where.push(["entity", "==", entity]);
      if (entityId) where.push(["entityId", "==", entityId]);
      if (teamId) where.push(["teamId", "==", teamId]);
      return store.query<AuditEntryData>(COLLECTIONS.audit, {
        where,
        orderBy: { field: "at", direction: "desc" },
        limit,
        after,
      }) as Promise<{ items: AuditEntry[]; next: string | null }>;
    },
    async append(entry, now = new Date()) {
      return store.create<AuditEntryData>(COLLECTIONS.audit, auditEntryId(), { ...entry, at: now.toISOString() });
    },
  };
}
