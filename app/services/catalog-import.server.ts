/**
 * The catalog import (issue 10 §4, ADR 28 and ADR 34): a retailer's CSV or JSON feed
 * (app/domain/catalog-feed.ts) written into the catalog through the storage port in batches.
 *
 * Two steps, one use case for every caller (the import form, `npm run catalog:import`):
 * - `importCatalogFeed` checks the right, keeps the feed in the files store, records the import
 *   (queued) and schedules a job of the scheduler (ADR 21) to process it: the request returns at
 *   once, whatever the size of the feed.
 * - the job (`runCatalogImport`) reads the stored feed, records its bad rows, then writes the
 *   good ones in batches of FEED_BATCH, each one numbered catalog upsert in one transaction
 *   (CatalogRepo.upsertMany), recording after each batch how far it got. A run taken over after
 *   a restart starts again at the first batch not recorded (a batch written twice is the same
 *   upsert again). The search index follows the catalog (ADR 20) and is brought up to date at
 *   the end. When the feed cannot be processed (unreadable, refused, a batch that fails), the
 *   import is failed and 'catalog processing failed' is raised to those who may read the catalog.
 *
 * The import's start and outcome are audited (Activity: who, when, which file, what came of it).
 * No HTTP here.
 */
import { randomUUID } from "node:crypto";
import { feedFormatOf, FEED_MAX_BYTES, FEED_REASONS, MAX_REPORTED_BAD_ROWS, parseCatalogFeed, type FeedParse } from "~/domain/catalog-feed";
import { decodeTextFile } from "~/domain/text-file";
import { isImportUnderWay, type CatalogImport } from "~/domain/catalog-import";
import type { MessageValues } from "~/domain/message";
import { auditActor } from "~/domain/operators";
import { can } from "~/domain/permissions";
import { fail, forbidden, notFound, ok, type Result } from "~/domain/result";
import type { User } from "~/domain/types";
import { getFileStore } from "~/services/files.server";
import { raise } from "~/services/notifications.server";
import { saveJob, type JobKind } from "~/services/scheduler.server";
import { syncSearchIndex } from "~/services/search.server";
import { getStorage } from "~/services/storage.server";

/** Products per batch: one transaction of the storage port (under Firestore's 500 writes). */
export const FEED_BATCH = 400;

export const CATALOG_IMPORT_JOB_KIND = "catalogImport";
export const catalogImportJobId = (importId: string) => `catalog-import-${importId}`;

export interface CatalogImportInput {
  fileName: string;
  /** The file's content: UTF-8 text or its bytes. */
  content: string | Uint8Array;
}

export const IMPORT_FAILED = "catalog:import.errors.failed";
/** A feed whose bytes are not UTF-8 text (ADR 47). */
export const FEED_NOT_UTF8 = FEED_REASONS.notUtf8;
export const IMPORT_FILE_MISSING = "catalogImport:errors.fileMissing";
export const IMPORT_INTERRUPTED = "catalogImport:errors.interrupted";
/** The audit trail's record of imports (Activity). */
export const CATALOG_IMPORT_ENTITY = "catalogImport";

function log(level: "info" | "error", msg: string, extra: Record<string, unknown>) {
  (level === "error" ? console.error : console.log)(JSON.stringify({ level, msg, ...extra }));
}

const importLink = (id: string) => `/catalog/import/${id}`;

/**
 * Starts an import for `actor` (who needs the right to update the catalog), or for the system
 * (`actor` null: a script): the feed is stored and a job is scheduled to process it now. The
 * answer is the import's id; its progress and report are read with `getCatalogImport`.
 */
export async function importCatalogFeed(actor: User | null, input: CatalogImportInput, options: { now?: Date } = {}): Promise<Result<{ id: string }>> {
  if (actor && !can(actor, "Catalog", "update")) return forbidden();
  const now = options.now ?? new Date();
  const fileName = input.fileName.trim().slice(0, 200) || "feed";
  const bytes = typeof input.content === "string" ? new TextEncoder().encode(input.content) : input.content;
  if (bytes.byteLength > FEED_MAX_BYTES) return fail("too-large", "catalog:import.errors.tooLarge", { values: { max: FEED_MAX_BYTES / (1024 * 1024) } });
  // A feed that is not UTF-8 (or UTF-16 with its mark) would be stored with U+FFFD for its accents: refused at once (ADR 47).
  const decoded = decodeTextFile(bytes);
  if (!decoded.ok) return fail("invalid", FEED_NOT_UTF8);
  const id = randomUUID();
  const fileKey = `catalog-imports/${id}/feed.${feedFormatOf(fileName, decoded.text.slice(0, 64))}`;
  const storage = getStorage();
  await getFileStore().put(fileKey, bytes);
  const by = actor ? auditActor(actor) : { by: "system" };
  await storage.catalogImports.create(id, { fileName, fileKey, byteLength: bytes.byteLength, by: by.by }, now);
  await storage.audit.append({ ...by, action: "import", entity: CATALOG_IMPORT_ENTITY, entityId: id, teamId: null, changes: [{ field: "file", before: null, after: fileName }] }, now);
  const job = await saveJob(storage, catalogImportJobId(id), { kind: CATALOG_IMPORT_JOB_KIND, title: fileName, params: { importId: id }, schedule: { type: "once", at: now.toISOString() } }, now);
  if (!job.ok) return job;
  await forgetOldImportJobs();
  log("info", "Catalog import queued", { importId: id, fileName, bytes: bytes.byteLength, by: by.by });
  return ok({ id });
}

/** The scheduled work keeps the jobs of the latest imports only; older imports keep their record and audit entries. */
export const IMPORT_JOBS_KEPT = 20;

/** Removes the jobs of finished imports just past the latest IMPORT_JOBS_KEPT (each import removes those it pushes out). */
async function forgetOldImportJobs(): Promise<void> {
  const storage = getStorage();
  try {
    const { items } = await storage.catalogImports.list({ limit: IMPORT_JOBS_KEPT + 5 });
    for (const old of items.slice(IMPORT_JOBS_KEPT)) if (!isImportUnderWay(old.status)) await storage.jobs.remove(catalogImportJobId(old.id));
  } catch (error) {
    log("error", "Old catalog import jobs not removed", { error: error instanceof Error ? error.message : String(error) });
  }
}

/** An import with its report and the name of who started it (null: the system), for who may import (the status page; a script reads it as the system). */
export async function getCatalogImport(actor: User | null, id: string): Promise<Result<CatalogImport & { byName: string | null }>> {
  if (actor && !can(actor, "Catalog", "update")) return forbidden();
  const found = id.length <= 100 ? await getStorage().catalogImports.getOne(id) : null;
  if (!found) return notFound();
  const starter = found.by === "system" ? null : await getStorage().users.getByEmail(found.by);
  return ok({ ...found, byName: found.by === "system" ? null : starter?.displayName || found.by });
}

/** The latest imports, newest first, with the names of who started them (null: the system), for the import screen. */
export async function recentCatalogImports(actor: User, limit = 10): Promise<Result<(CatalogImport & { byName: string | null })[]>> {
  if (!can(actor, "Catalog", "update")) return forbidden();
  const storage = getStorage();
  const items = (await storage.catalogImports.list({ limit })).items;
  const names = new Map<string, string>();
  for (const email of new Set(items.map((i) => i.by).filter((by) => by !== "system"))) {
    const user = await storage.users.getByEmail(email);
    names.set(email, user?.displayName || email);
  }
  return ok(items.map((i) => ({ ...i, byName: i.by === "system" ? null : (names.get(i.by) ?? i.by) })));
}

/** The outcome as the audit trail keeps it: the file and the counts. */
function outcomeChanges(i: CatalogImport) {
  return [
    { field: "file", before: null, after: i.fileName },
    { field: "rows", before: null, after: i.rows },
    { field: "imported", before: null, after: i.imported },
    { field: "updated", before: null, after: i.updated },
    { field: "badRows", before: null, after: i.badCount },
  ];
}

async function finish(imp: CatalogImport, outcome: { reason: string; values?: MessageValues } | null, now: Date): Promise<CatalogImport> {
  const storage = getStorage();
  const finished = await storage.catalogImports.update(imp.id, {
    status: outcome ? "failed" : "done",
    reason: outcome?.reason ?? null,
    values: outcome?.values ?? null,
    finished: now.toISOString(),
    fileKey: null,
  });
  if (imp.fileKey) await getFileStore().delete(imp.fileKey);
  await storage.audit.append({ by: imp.by, action: outcome ? "importFailed" : "importDone", entity: CATALOG_IMPORT_ENTITY, entityId: imp.id, teamId: null, changes: outcomeChanges(finished) }, now);
  if (outcome) {
    // Everybody who may read the catalog, the one who ran the import included: nobody may be
    // watching the job, and the notification is the record of the failure. Those who may not open
    // imports (retailer staff read the catalog only) are sent to the catalog.
    const link = (reader: User) => (can(reader, "Catalog", "update") ? importLink(imp.id) : "/catalog");
    await raise("catalogProcessingFailed", {}, { file: imp.fileName, imported: finished.imported + finished.updated }, link, { now, key: `catalog-import:${imp.id}` });
  }
  return finished;
}

/**
 * Processes a queued (or interrupted) import: the job's work. An import already finished is left
 * as it is (a run repeated). Answers the finished import, or the failure that stopped it.
 */
export async function runCatalogImport(importId: string, options: { now?: Date; signal?: AbortSignal } = {}): Promise<Result<CatalogImport>> {
  const clock = () => options.now ?? new Date();
  const storage = getStorage();
  let imp = await storage.catalogImports.getOne(importId);
  if (!imp) return notFound();
  if (!isImportUnderWay(imp.status)) return ok(imp);
  const file = imp.fileKey ? await getFileStore().get(imp.fileKey) : null;
  if (!file) {
    await finish(imp, { reason: IMPORT_FILE_MISSING }, clock());
    return fail("not-found", IMPORT_FILE_MISSING);
  }
  const decoded = decodeTextFile(file.bytes);
  const parsed: FeedParse = decoded.ok ? parseCatalogFeed(imp.fileName, decoded.text) : { ok: false, reason: FEED_NOT_UTF8 };
  if (!parsed.ok) {
    await finish(imp, { reason: parsed.reason, values: parsed.values }, clock());
    log("info", "Catalog feed refused", { importId, fileName: imp.fileName, reason: parsed.reason, by: imp.by });
    return fail("invalid", parsed.reason, { values: parsed.values });
  }
  const feed = parsed.value;
  if (imp.status === "queued") {
    imp = await storage.catalogImports.update(importId, {
      status: "running",
      started: clock().toISOString(),
      format: feed.format,
      rows: feed.rows,
      toWrite: feed.products.length,
      badCount: feed.bad.length,
      bad: feed.bad.slice(0, MAX_REPORTED_BAD_ROWS),
      ignoredColumns: feed.ignoredColumns,
    });
  }
  let { imported, updated } = imp;
  for (let batchNo = imp.batchesDone; batchNo * FEED_BATCH < feed.products.length; batchNo++) {
    // The lease was taken over (this worker stalled): the other run goes on from the record.
    if (options.signal?.aborted) return fail("unavailable", IMPORT_INTERRUPTED);
    const batch = feed.products.slice(batchNo * FEED_BATCH, (batchNo + 1) * FEED_BATCH);
    let existing: number;
    try {
      existing = (await storage.catalog.getMany(batch.map((p) => p.id))).length;
      await storage.catalog.upsertMany(batch);
    } catch (error) {
      log("error", "Catalog import failed", { importId, fileName: imp.fileName, batch: batchNo + 1, written: imported + updated, error: error instanceof Error ? error.message : String(error) });
      const values = { imported: imported + updated, batch: batchNo + 1 };
      await finish({ ...imp, imported, updated }, { reason: IMPORT_FAILED, values }, clock());
      // The index follows what was written.
      await syncSearchIndex({ force: true }).catch(() => undefined);
      return fail("unavailable", IMPORT_FAILED, { values });
    }
    imported += batch.length - existing;
    updated += existing;
    imp = await storage.catalogImports.update(importId, { batchesDone: batchNo + 1, imported, updated });
  }
  try {
    await syncSearchIndex({ force: true });
  } catch (error) {
    // The index catches up on its next check; the catalog is written.
    log("error", "Search index not brought up to date after an import", { error: error instanceof Error ? error.message : String(error) });
  }
  const done = await finish(imp, null, clock());
  log("info", "Catalog feed imported", { importId, fileName: imp.fileName, rows: done.rows, imported, updated, bad: done.badCount, by: imp.by });
  return ok(done);
}

/** The scheduler's kind: one job per import, run once now; a run cut short is taken over after its lease. */
export const CATALOG_IMPORT_JOB: JobKind = {
  name: CATALOG_IMPORT_JOB_KIND,
  catchUp: "merge",
  leaseMs: 2 * 60_000,
  run: ({ params, now, signal }) => runCatalogImport(String(params.importId ?? ""), { now, signal }),
};
