/**
 * `npm run catalog:import -- path/to/feed.csv`: a catalog feed imported from the command line, by
 * the same use case as the import form (app/services/catalog-import.server.ts), against the
 * storage the environment configures (STORAGE, DATABASE_URL, DATA_DIR… as for the server). The
 * feed is stored and its job queued as the form does; this process then runs the job itself
 * through a scheduler of its own (leased like any worker's, so a console instance never runs it
 * at the same time) and prints the report. Exit code 0 when imported, 1 when it failed, 2 on a
 * usage error.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { splitMessage, withValues } from "~/domain/message";
import { failureMessage } from "~/domain/result";
import { isImportUnderWay, type CatalogImport } from "~/domain/catalog-import";
import { CATALOG_IMPORT_JOB, getCatalogImport, importCatalogFeed } from "~/services/catalog-import.server";
import { getFixedT } from "~/services/i18n.server";
import { createScheduler } from "~/services/scheduler.server";
import { initStorage } from "~/services/storage.server";

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

const consoleIo: CliIo = { out: (line) => console.log(line), err: (line) => console.error(line) };

export const USAGE = "Usage: npm run catalog:import -- <feed.csv | feed.json>";

/** Runs the command with its arguments; answers the exit code. */
export async function catalogImportCli(args: readonly string[], io: CliIo = consoleIo, options: { pollMs?: number } = {}): Promise<number> {
  const files = args.filter((a) => !a.startsWith("-"));
  if (args.includes("--help") || args.includes("-h") || files.length !== 1) {
    io.err(USAGE);
    return 2;
  }
  const file = files[0]!;
  let content: Uint8Array;
  try {
    content = new Uint8Array(await fs.readFile(file));
  } catch (error) {
    io.err(`Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  const t = await getFixedT("en-GB");
  const say = (message: string) => {
    const { key, values } = splitMessage(message);
    return t(key, values ?? {});
  };
  await initStorage();
  const started = await importCatalogFeed(null, { fileName: path.basename(file), content });
  if (!started.ok) {
    io.err(`${t("catalog:import.failedTitle")}: ${say(failureMessage(started))}`);
    return 1;
  }
  io.out(`Import ${started.value.id} of ${path.basename(file)} queued (${content.byteLength} bytes).`);
  const scheduler = createScheduler({ concurrency: 1 });
  scheduler.register(CATALOG_IMPORT_JOB);
  let imp: CatalogImport;
  for (;;) {
    await scheduler.tick();
    const read = await getCatalogImport(null, started.value.id);
    if (!read.ok) {
      io.err(`The import ${started.value.id} is gone.`);
      return 1;
    }
    imp = read.value;
    if (!isImportUnderWay(imp.status)) break;
    // Another worker (a console instance) holds the job: wait for it.
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 1_000));
  }
  return printReport(imp, io, say);
}

function printReport(imp: CatalogImport, io: CliIo, say: (message: string) => string): number {
  const number = new Intl.NumberFormat("en-GB");
  if (imp.rows !== null) {
    io.out(`Rows read: ${number.format(imp.rows)}. New products: ${number.format(imp.imported)}. Products updated: ${number.format(imp.updated)}. Bad rows: ${number.format(imp.badCount)}.`);
  }
  if (imp.ignoredColumns.length) io.out(`Columns ignored: ${imp.ignoredColumns.join(", ")}`);
  const where = imp.format === "json" ? "item" : "line";
  for (const row of imp.bad) io.out(`  ${where} ${row.line}${row.id ? ` (${row.id})` : ""}: ${row.reasons.map((r) => say(r)).join(" ")}`);
  if (imp.badCount > imp.bad.length) io.out(`  … and ${number.format(imp.badCount - imp.bad.length)} more bad rows.`);
  if (imp.status === "failed") {
    io.err(`${say("catalog:import.failedTitle")}: ${say(imp.values ? withValues(imp.reason ?? "", imp.values) : (imp.reason ?? ""))}`);
    return 1;
  }
  io.out("Imported.");
  return 0;
}
