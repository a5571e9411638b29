import { randomUUID } from "node:crypto";
import type { TeamData } from "~/domain/types";
import { COLLECTIONS, type DocumentStore, type TeamsRepo } from "../port";
import { appendAuditInTransaction, diffFields } from "./audit.server";

export function createTeamsRepo(store: DocumentStore): TeamsRepo {
  const C = COLLECTIONS.team;
  return {
    async getOne(id) {
      return store.get<TeamData>(C, id);
    },
    async create(data, actor, id = randomUUID()) {
      const now = new Date();
      const doc: TeamData = {
        ...data,
        nameLower: data.name.trim().toLowerCase(),
        created: now.toISOString(),
        updated: now.toISOString(),
      };
      await store.transaction(async (tx) => {
        tx.create<TeamData>(C, id, doc);
        appendAuditInTransaction(
          tx,
          { by: actor.by, action: "create", entity: "team", entityId: id, teamId: id, changes: diffFields(null, doc as unknown as Record<string, unknown>) },
          now,
        );
      });
      return { ...doc, id, version: 1 };
    },
  };
}
