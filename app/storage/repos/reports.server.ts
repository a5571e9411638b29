/**
 * Reports and their runs (issue 11 §2, ADR 29) over any DocumentStore: a `report` document per
 * saved definition, a `report_run` document per run (its status, rows, file and expiry).
 */
import { randomUUID } from "node:crypto";
import type { ReportData, ReportRunData } from "~/domain/reports";
import { fieldOps, REPORT_COLLECTION as R, REPORT_RUN_COLLECTION as RUN, type DocumentStore, type ReportsRepo } from "~/storage/port";

export function createReportsRepo(store: DocumentStore): ReportsRepo {
  return {
    getOne: (id) => store.get<ReportData>(R, id),
    async list({ ownerId, limit = 50, after }) {
      return store.query<ReportData>(R, { where: ownerId ? [["ownerId", "==", ownerId]] : [], orderBy: { field: "nameLower", direction: "asc" }, limit, after });
    },
    async create(data, now) {
      const iso = now.toISOString();
      return store.create<ReportData>(R, randomUUID(), { ...data, nameLower: data.name.toLocaleLowerCase("en"), lastRun: null, created: iso, updated: iso });
    },
    async update(id, changes, version, now) {
      const patch: Partial<ReportData> = { ...changes, updated: now.toISOString() };
      if (changes.name !== undefined) patch.nameLower = changes.name.toLocaleLowerCase("en");
      return store.update<ReportData>(R, id, patch, { expectVersion: version });
    },
    remove: (id) => store.delete(R, id),
    async setLastRun(id, lastRun) {
      if (await store.get(R, id)) await store.update<ReportData>(R, id, { lastRun });
    },
    getRun: (id) => store.get<ReportRunData>(RUN, id),
    startRun: (id, data) => store.set<ReportRunData>(RUN, id, data),
    async finishRun(id, patch) {
      return store.update<ReportRunData>(RUN, id, patch);
    },
    async listRuns(reportId, { limit = 20, after }) {
      return store.query<ReportRunData>(RUN, { where: [["reportId", "==", reportId]], orderBy: { field: "started", direction: "desc" }, limit, after });
    },
    async listExpiring(now, limit) {
      return (await store.query<ReportRunData>(RUN, { where: [["removeAt", "<=", now.toISOString()]], orderBy: { field: "removeAt", direction: "asc" }, limit })).items;
    },
    async markExpired(id) {
      await store.update<ReportRunData>(RUN, id, { fileKey: null, removeAt: fieldOps.delete(), expired: true });
    },
  };
}
