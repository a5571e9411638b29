/**
 * A CSV file of product identifiers (SKUs) for a campaign (issue 10 section 2, spec section 5:
 * "CSV for keywords or SKUs must contain a named column; lines without value counted as bad").
 * Pure: the file's text in, the identifiers and the bad lines out; the service looks them up in
 * the catalog and adds them in one save.
 *
 * Readings:
 * - The first non-empty line is the header; the identifiers are in the column named sku, id,
 *   product_id, product id, product-id or reference (any case; the first such column when there
 *   are several). Other columns are ignored. No such column: the file is refused whole.
 * - The delimiter is the one of comma, semicolon, tab or pipe found most in the header line, so
 *   spreadsheet exports in either convention are read; quoted values may hold delimiters.
 * - A line after the header whose identifier cell is empty (or only spaces) is bad, and so is a
 *   blank line between two lines with values; empty lines at the very end are not lines (a line
 *   of delimiters only is a line without a value).
 * - Line numbers are the file's, counting the header as line 1 (what a spreadsheet shows).
 * - An identifier given twice counts once.
 */
import Papa from "papaparse";

/** The largest file accepted (a few tens of thousands of identifiers). */
export const SKU_CSV_MAX_BYTES = 512 * 1024;
/** Lines read at most after the header. */
export const SKU_CSV_MAX_LINES = 10_000;
/** The column names accepted for the identifiers, as compared (lower case, spaces and dashes as _). */
export const SKU_COLUMNS = ["sku", "id", "product_id", "reference"] as const;

export type SkuCsv =
  | {
      ok: true;
      /** The header of the column read, as written. */
      column: string;
      /** The identifiers, in file order, each once. */
      ids: string[];
      /** Line numbers (header = 1) of the lines without a value. */
      bad: number[];
      /** Lines read after the header (with a value or not). */
      lines: number;
    }
  | { ok: false; reason: "empty" | "noColumn" | "tooManyLines" | "unreadable" };

const DELIMITERS = [",", ";", "\t", "|"] as const;

/**
 * The delimiter of the header line: the candidate found most often in it (comma when none).
 * Guessed from the header alone, so blank or one-value lines below do not mislead it.
 */
function guessDelimiter(source: string): string {
  const header = source.split(/\r\n|\r|\n/).find((line) => line.trim()) ?? "";
  let best: string = ",";
  let most = 0;
  for (const d of DELIMITERS) {
    const n = header.split(d).length - 1;
    if (n > most) {
      most = n;
      best = d;
    }
  }
  return best;
}

function columnKey(header: string): string {
  return header
    .replace(/^\uFEFF/, "")
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

/** The index of the identifiers' column in a header row, or -1. */
export function skuColumnIndex(header: readonly string[]): number {
  const keys = header.map(columnKey);
  return keys.findIndex((k) => (SKU_COLUMNS as readonly string[]).includes(k));
}

export function parseSkuCsv(text: string): SkuCsv {
  const source = text.replace(/^\uFEFF/, "");
  if (!source.trim()) return { ok: false, reason: "empty" };
  const parsed = Papa.parse<string[]>(source, { skipEmptyLines: false, delimiter: guessDelimiter(source) });
  const rows = parsed.data;
  if (!Array.isArray(rows)) return { ok: false, reason: "unreadable" };
  // Papa gives each row's starting line implicitly: one row per line, except quoted line breaks.
  // Line numbers are counted from the rows' own line breaks.
  const isBlank = (row: readonly string[]) => row.every((cell) => !String(cell ?? "").trim());
  let line = 0;
  let headerAt = -1;
  const lineOf: number[] = [];
  for (let i = 0; i < rows.length; i += 1) {
    lineOf.push(line + 1);
    line += 1 + rows[i]!.reduce((n, cell) => n + (String(cell ?? "").match(/\r\n|\r|\n/g)?.length ?? 0), 0);
    if (headerAt < 0 && !isBlank(rows[i]!)) headerAt = i;
  }
  if (headerAt < 0) return { ok: false, reason: "empty" };
  const column = skuColumnIndex(rows[headerAt]!);
  if (column < 0) return { ok: false, reason: "noColumn" };
  let last = rows.length - 1;
  // Empty lines at the very end (no character but spaces) are not lines; ";" or "," are.
  const isEmptyLine = (row: readonly string[]) => row.length <= 1 && !String(row[0] ?? "").trim();
  while (last > headerAt && isEmptyLine(rows[last]!)) last -= 1;
  if (last - headerAt > SKU_CSV_MAX_LINES) return { ok: false, reason: "tooManyLines" };
  const ids: string[] = [];
  const seen = new Set<string>();
  const bad: number[] = [];
  for (let i = headerAt + 1; i <= last; i += 1) {
    const value = String(rows[i]![column] ?? "").trim();
    if (!value) {
      bad.push(lineOf[i]!);
      continue;
    }
    if (!seen.has(value)) {
      seen.add(value);
      ids.push(value);
    }
  }
  return { ok: true, column: String(rows[headerAt]![column]).replace(/^\uFEFF/, "").trim(), ids, bad, lines: last - headerAt };
}
