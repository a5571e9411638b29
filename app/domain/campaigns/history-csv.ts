/**
 * A campaign's history as a spreadsheet (issue 4 section 6): one row per changed field of each
 * recorded change (when, who, what action, field, before, after), oldest first as a log reads.
 * Pure; the route writes it with Papa.unparse(rows, { escapeFormulae: CSV_FORMULA_PATTERN }).
 *
 * Readings:
 * - Entries come as the history gives them, newest first; entries of the same instant keep that
 *   order reversed, so the CSV reads oldest first throughout.
 * - Dates are "yyyy-mm-dd hh:mm:ss" in the reader's time zone (an instant shown in the reader's zone; days are cut in the retailer's).
 * - Money fields stored in cents (bid, spend, every pacing field) are written as exact decimals of
 *   the currency ("1.50"), as the ledger's CSV does; the cents inside placementBids and
 *   pacingDevices too.
 * - Other objects and arrays are JSON text; null or missing is an empty cell; numbers stay
 *   numbers, booleans are "true"/"false".
 */
import { csvDateTime, minorToDecimal } from "~/domain/wallets/ledger-csv";
import type { AuditEntryData } from "~/domain/types";

export interface HistoryCsvHeaders {
  at: string;
  by: string;
  action: string;
  field: string;
  before: string;
  after: string;
}

/** Top-level fields holding cents. */
export const CENT_FIELDS: ReadonlySet<string> = new Set([
  "bid",
  "spend",
  "pacingTotal",
  "pacingDaily",
  "pacingSearch",
  "pacingPlp",
  "pacingHub",
  "pacingPdp",
  "pacingHome",
]);
/** Fields holding a record with cents: every key (null), or only the listed ones (a wallet snapshot's amounts). */
export const CENT_RECORD_FIELDS: ReadonlyMap<string, ReadonlySet<string> | null> = new Map([
  ["placementBids", null],
  ["pacingDevices", null],
  ["selectedWallet", new Set(["credit", "balance", "debit"])],
]);

/** Whether `key` of the record stored under `field` holds cents. */
export function isCentsInRecord(field: string, key: string): boolean {
  if (!CENT_RECORD_FIELDS.has(field)) return false;
  const keys = CENT_RECORD_FIELDS.get(field);
  return !keys || keys.has(key);
}

function centsText(value: unknown): unknown {
  return typeof value === "number" && Number.isSafeInteger(value) ? minorToDecimal(value) : value;
}

/** One value as a cell: see the readings above. */
export function historyCell(field: string, value: unknown): string | number {
  if (value === null || value === undefined) return "";
  if (CENT_FIELDS.has(field)) {
    const text = centsText(value);
    if (typeof text === "string") return text;
  }
  if (CENT_RECORD_FIELDS.has(field) && typeof value === "object" && !Array.isArray(value)) {
    return JSON.stringify(Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, isCentsInRecord(field, k) ? centsText(v) : v])));
  }
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  return JSON.stringify(value);
}

export type HistoryCsvEntry = Pick<AuditEntryData, "at" | "by" | "action" | "changes">;

/** The header row and one row per changed field, oldest entry first. */
export function campaignHistoryCsvRows(
  entries: readonly HistoryCsvEntry[],
  options: {
    headers: HistoryCsvHeaders;
    timeZone: string;
    actionLabel?: (action: string) => string;
    fieldLabel?: (field: string) => string;
  },
): (string | number)[][] {
  const h = options.headers;
  const actionLabel = options.actionLabel ?? ((a: string) => a);
  const fieldLabel = options.fieldLabel ?? ((f: string) => f);
  const ordered = entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => Date.parse(a.entry.at) - Date.parse(b.entry.at) || b.index - a.index)
    .map((x) => x.entry);
  const rows = ordered.flatMap((e) =>
    e.changes.map((c) => [
      csvDateTime(e.at, options.timeZone),
      e.by || "system",
      actionLabel(e.action),
      fieldLabel(c.field),
      historyCell(c.field, c.before),
      historyCell(c.field, c.after),
    ]),
  );
  return [[h.at, h.by, h.action, h.field, h.before, h.after], ...rows];
}

/** campaign-<id>-history-<today>.csv, the id reduced to safe characters. */
export function campaignHistoryFileName(campaignId: string, today: string): string {
  const safe = campaignId.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "campaign";
  return `campaign-${safe}-history-${today}.csv`;
}
