/**
 * The catalog import (issue 10 §4): a retailer's CSV or JSON feed (app/domain/catalog-feed.ts)
 * written into the catalog through the storage port in batches, each batch one numbered catalog
 * upsert of at most FEED_BATCH products in one transaction (CatalogRepo.upsertMany), so a batch
 * is written whole or not at all. The search index follows the catalog (ADR 20) and is brought up
 * to date at the end. When the feed cannot be processed (unreadable, refused, or a batch that
 * fails to be written), 'catalog processing failed' is raised to those who may read the catalog.
 *
 * No HTTP: a route, a scheduled job or a script calls it alike (ADR 28).
 */
import { MAX_REPORTED_BAD_ROWS, parseCatalogFeed, type BadRow, type FeedFormat } from "~/domain/catalog-feed";
import { can } from "~/domain/permissions";
import { fail, forbidden, ok, type Result } from "~/domain/result";
import type { User } from "~/domain/types";
import { raise } from "~/services/notifications.server";
import { syncSearchIndex } from "~/services/search.server";
import { getStorage } from "~/services/storage.server";

/** Products per batch: one transaction of the storage port (under Firestore's 500 writes). */
export const FEED_BATCH = 400;

export interface CatalogImportInput {
  fileName: string;
  /** The file's content, as text (UTF-8). */
  content: string;
}

export interface CatalogImportReport {
  fileName: string;
  format: FeedFormat;
  /** Rows the feed holds (good and bad). */
  rows: number;
  /** Products created or updated. */
  imported: number;
  /** Batches written. */
  batches: number;
  /** All bad rows counted; the first MAX_REPORTED_BAD_ROWS listed. */
  badCount: number;
  bad: BadRow[];
  ignoredColumns: string[];
}

export const IMPORT_FAILED = "catalog:import.errors.failed";

function log(level: "info" | "error", msg: string, extra: Record<string, unknown>) {
  (level === "error" ? console.error : console.log)(JSON.stringify({ level, msg, ...extra }));
}

async function notifyFailure(fileName: string, imported: number, now: Date): Promise<void> {
  // Everybody who may read the catalog, the one who ran the import included: a job's import has
  // nobody watching, and the notification is the record of the failure.
  await raise("catalogProcessingFailed", {}, { file: fileName, imported }, "/catalog/import", { now });
}

/**
 * Imports a feed for `actor` (who needs the right to update the catalog), or for the system
 * (`actor` null: a job or a script). Bad rows are left out and reported; a feed that cannot be
 * read is refused whole; a batch that fails stops the import (the batches before it stay written).
 */
export async function importCatalogFeed(actor: User | null, input: CatalogImportInput, options: { now?: Date } = {}): Promise<Result<CatalogImportReport>> {
  if (actor && !can(actor, "Catalog", "update")) return forbidden();
  const now = options.now ?? new Date();
  const fileName = input.fileName.trim().slice(0, 200) || "feed";
  const parsed = parseCatalogFeed(fileName, input.content);
  if (!parsed.ok) {
    await notifyFailure(fileName, 0, now);
    log("info", "Catalog feed refused", { fileName, reason: parsed.reason, by: actor?.email ?? "system" });
    return fail(parsed.reason === "catalog:import.errors.tooLarge" ? "too-large" : "invalid", parsed.reason, { values: parsed.values });
  }
  const feed = parsed.value;
  let imported = 0;
  let batches = 0;
  for (let i = 0; i < feed.products.length; i += FEED_BATCH) {
    const batch = feed.products.slice(i, i + FEED_BATCH);
    try {
      await getStorage().catalog.upsertMany(batch);
    } catch (error) {
      log("error", "Catalog import failed", { fileName, batch: batches + 1, imported, error: error instanceof Error ? error.message : String(error) });
      await notifyFailure(fileName, imported, now);
      // The index follows what was written.
      await syncSearchIndex({ force: true }).catch(() => undefined);
      return fail("unavailable", IMPORT_FAILED, { values: { imported, batch: batches + 1 } });
    }
    imported += batch.length;
    batches++;
  }
  try {
    await syncSearchIndex({ force: true });
  } catch (error) {
    // The index catches up on its next check; the catalog is written.
    log("error", "Search index not brought up to date after an import", { error: error instanceof Error ? error.message : String(error) });
  }
  log("info", "Catalog feed imported", { fileName, rows: feed.rows, imported, bad: feed.bad.length, by: actor?.email ?? "system" });
  return ok({
    fileName,
    format: feed.format,
    rows: feed.rows,
    imported,
    batches,
    badCount: feed.bad.length,
    bad: feed.bad.slice(0, MAX_REPORTED_BAD_ROWS),
    ignoredColumns: feed.ignoredColumns,
  });
}
