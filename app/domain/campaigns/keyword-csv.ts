/**
 * A CSV of keywords (spec section 9: a CSV for keywords must contain a named column; lines without
 * a value are counted as bad). Parsed with papaparse (quotes, separators, line breaks inside
 * quotes); the column is found by its name, case and surrounding spaces aside. Pure.
 */
import Papa from "papaparse";
import { findColumn, parseKeywordLinesFrom, type KeywordParse } from "~/domain/campaigns/targets";

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
