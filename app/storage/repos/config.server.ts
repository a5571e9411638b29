import { APP_VERSION } from "~/domain/version";
import type { LiveConfigData } from "~/domain/types";
import { applyPatch } from "~/storage/document-helpers";
import { AlreadyExistsError, COLLECTIONS, ConflictError, type ConfigRepo, type DocumentStore } from "~/storage/port";
import { appendAuditInTransaction, auditBy, diffFields } from "~/storage/repos/audit.server";

export const LIVE_CONFIG_ID = "live";
const RELOAD_LOG_SIZE = 50;

export function defaultLiveConfig(now: Date): LiveConfigData {
  return { appVersion: APP_VERSION, maintenance: false, reloadLog: [], updated: now.toISOString(), updatedBy: "system" };
}

export function createConfigRepo(store: DocumentStore): ConfigRepo {
  const C = COLLECTIONS.config;
  async function get() {
    const existing = await store.get<LiveConfigData>(C, LIVE_CONFIG_ID);
    if (existing) return existing;
    try {
      return await store.create<LiveConfigData>(C, LIVE_CONFIG_ID, defaultLiveConfig(new Date()));
    } catch (error) {
      if (!(error instanceof AlreadyExistsError)) throw error;
      return (await store.get<LiveConfigData>(C, LIVE_CONFIG_ID))!;
    }
  }
  return {
    get,
    async update(patch, actor, options) {
      await get();
      const now = new Date();
      return store.transaction(async (tx) => {
        const current = (await tx.get<LiveConfigData>(C, LIVE_CONFIG_ID))!;
        if (options?.expectVersion !== undefined && options.expectVersion !== current.version) {
          throw new ConflictError(C, LIVE_CONFIG_ID);
        }
        const full = { ...patch, updated: now.toISOString(), updatedBy: actor.by };
        const { id, version, ...before } = current;
        const after = applyPatch(before, full, now.toISOString()) as unknown as LiveConfigData;
        tx.update<LiveConfigData>(C, LIVE_CONFIG_ID, full);
        appendAuditInTransaction(
          tx,
          {
            ...auditBy(actor),
            action: "update",
            entity: "config",
            entityId: LIVE_CONFIG_ID,
            teamId: null,
            changes: diffFields(before as Record<string, unknown>, after as unknown as Record<string, unknown>).filter(
              (c) => c.field !== "updatedBy",
            ),
          },
          now,
        );
        return { ...after, id, version: version + 1 };
      });
    },
    async logReloadFailure(entry) {
      await get();
      await store.transaction(async (tx) => {
        const current = (await tx.get<LiveConfigData>(C, LIVE_CONFIG_ID))!;
        tx.update<LiveConfigData>(C, LIVE_CONFIG_ID, { reloadLog: [entry, ...current.reloadLog].slice(0, RELOAD_LOG_SIZE) });
      });
    },
  };
}
