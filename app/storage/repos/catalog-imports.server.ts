/**
 * Catalog imports (ADR 34) over any DocumentStore: a `catalog_import` document per feed, listed
 * newest first (one order on `created`, which Firestore's single-field index serves).
 */
import type { CatalogImportData } from "~/domain/catalog-import";
import { CATALOG_IMPORT_COLLECTION as C, type CatalogImportsRepo, type DocumentStore } from "~/storage/port";

export function createCatalogImportsRepo(store: DocumentStore): CatalogImportsRepo {
  return {
    getOne: (id) => store.get<CatalogImportData>(C, id),
    list: ({ limit = 20, after }) => store.query<CatalogImportData>(C, { orderBy: { field: "created", direction: "desc" }, limit, after }),
    create(id, data, now) {
      return store.create<CatalogImportData>(C, id, {
        ...data,
        status: "queued",
        format: null,
        rows: null,
        toWrite: null,
        batchesDone: 0,
        imported: 0,
        updated: 0,
        badCount: 0,
        bad: [],
        ignoredColumns: [],
        reason: null,
        values: null,
        created: now.toISOString(),
        started: null,
        finished: null,
      });
    },
    update: (id, patch) => store.update<CatalogImportData>(C, id, patch),
  };
}
