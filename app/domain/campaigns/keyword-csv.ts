/**
 * A CSV of keywords (spec section 9: a CSV for keywords must contain a named column; lines without
 * a value are counted as bad). Parsed with papaparse (quotes, separators, line breaks inside
 * quotes); the column is found by its name, case and surrounding spaces aside. Pure.
 */
import Papa from "papaparse";
import { findColumn, keywordCollector, parseKeywordLinesFrom, type KeywordParse } from "~/domain/campaigns/targets";

export const DEFAULT_KEYWORD_COLUMN = "keyword";

export type KeywordCsvResult =
  | ({ ok: true; column: string; rows: number } & KeywordParse)
  | { ok: false; reason: "noColumn" | "empty"; columns: string[] };

export function parseKeywordCsv(text: string, column = DEFAULT_KEYWORD_COLUMN): KeywordCsvResult {
  const body = text.replace(/^\uFEFF/, "");
  const parsed = Papa.parse<string[]>(body, { skipEmptyLines: "greedy" });
  const rows = parsed.data;
  const header = rows[0];
  if (!header || header.length === 0) return { ok: false, reason: "empty", columns: [] };
  const found = findColumn(header, column);
  if (!found) return { ok: false, reason: "noColumn", columns: header.map((h) => h.trim()).filter(Boolean).slice(0, 20) };
  const at = header.indexOf(found);
  // Line numbers as a spreadsheet shows them: the header is line 1.
  const values = rows.slice(1).map((row, i) => ({ value: row[at], line: i + 2 }));
  return { ok: true, column: found.trim(), rows: values.length, ...parseKeywordLinesFrom(values) };
}

/** Text a step of parseKeywordCsvInSteps reads (a few milliseconds of work). */
const STEP_CHARS = 64 * 1024;

/**
 * parseKeywordCsv's result, read STEP_CHARS at a time with `pause` awaited between steps (the
 * server lets other requests through there: ADR 43). The same rows, columns and counts.
 */
export function parseKeywordCsvInSteps(text: string, column: string, pause: () => Promise<void>): Promise<KeywordCsvResult> {
  const body = text.replace(/^\uFEFF/, "");
  return new Promise((resolve, reject) => {
    let at = -1;
    let rows = 0;
    let found: string | null = null;
    let failed: KeywordCsvResult | null = null;
    const collect = keywordCollector();
    Papa.parse<string[]>(body, {
      skipEmptyLines: "greedy",
      chunkSize: STEP_CHARS,
      chunk(results: Papa.ParseResult<string[]>, parser: Papa.Parser) {
        let data = results.data;
        if (at < 0) {
          const header = data[0];
          if (!header || header.length === 0) {
            failed = { ok: false, reason: "empty", columns: [] };
            return parser.abort();
          }
          found = findColumn(header, column);
          if (!found) {
            failed = { ok: false, reason: "noColumn", columns: header.map((h) => h.trim()).filter(Boolean).slice(0, 20) };
            return parser.abort();
          }
          at = header.indexOf(found);
          data = data.slice(1);
        }
        // Line numbers as a spreadsheet shows them: the header is line 1.
        for (const row of data) collect.add(row[at], ++rows + 1);
        parser.pause();
        pause().then(() => parser.resume(), reject);
      },
      complete: () => {
        if (failed) return resolve(failed);
        if (at < 0) return resolve({ ok: false, reason: "empty", columns: [] });
        resolve({ ok: true, column: found!.trim(), rows, ...collect.result() });
      },
      error: (error: Error) => reject(error),
    });
  });
}
