/**
 * A catalog import as it is recorded (issue 10 §4, ADR 34): the feed a user (or the system) gave,
 * stored in the files store, processed by a scheduled job in batches, and its report. The job
 * moves it from `queued` to `running` to `done` or `failed`; `batchesDone` is where a run taken
 * over after a restart starts again (a batch is an upsert, so one written twice is harmless).
 */
import type { BadRow, FeedFormat } from "~/domain/catalog-feed";
import type { MessageValues } from "~/domain/message";
import type { DocMeta } from "~/domain/types";

export const CATALOG_IMPORT_STATUSES = ["queued", "running", "done", "failed"] as const;
export type CatalogImportStatus = (typeof CATALOG_IMPORT_STATUSES)[number];

export interface CatalogImportData {
  fileName: string;
  /** The stored feed (files store) until the import is over; then null. */
  fileKey: string | null;
  byteLength: number;
  /** E-mail of who started it, else 'system' (a script, a job). */
  by: string;
  status: CatalogImportStatus;
  /** Known once the feed was read. */
  format: FeedFormat | null;
  /** Rows the feed holds (good and bad); null until read. */
  rows: number | null;
  /** Good rows to write (the products of the feed). */
  toWrite: number | null;
  /** Batches written so far, and the products in them. */
  batchesDone: number;
  /** Products new to the catalog (not in it before their batch was written). */
  imported: number;
  /** Products already in the catalog, replaced by the feed's. */
  updated: number;
  /** All bad rows counted; the first MAX_REPORTED_BAD_ROWS listed. */
  badCount: number;
  bad: BadRow[];
  ignoredColumns: string[];
  /** Why it failed (an i18n key) and its values; null otherwise. */
  reason: string | null;
  values: MessageValues | null;
  created: string;
  started: string | null;
  finished: string | null;
}
export type CatalogImport = CatalogImportData & DocMeta;

/** Still to be worked on (the status page keeps refreshing). */
export function isImportUnderWay(status: CatalogImportStatus): boolean {
  return status === "queued" || status === "running";
}

/** Products written so far out of those to write, 0 to 100 (null while the feed is not read). */
export function importProgress(i: Pick<CatalogImportData, "toWrite" | "imported" | "updated" | "status">): number | null {
  if (i.status === "done") return 100;
  if (i.toWrite === null) return null;
  if (i.toWrite === 0) return 100;
  return Math.min(100, Math.floor(((i.imported + i.updated) * 100) / i.toWrite));
}
