/**
 * The ledger as a spreadsheet: a bank-statement layout (credit and debit in their own columns,
 * so every amount is a positive number), amounts in currency units with two decimals, and text
 * that a spreadsheet would run as a formula neutralised. Pure.
 */
import { TZDate } from "@date-fns/tz";
import type { Cents } from "~/domain/money";
import type { EntryType, LedgerEntryData } from "~/domain/types";

/** Cents as a decimal number of currency units, exactly: 10050 → "100.50", -5 → "-0.05". */
export function minorToDecimal(minor: Cents): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`Money must be integer cents, got ${minor}`);
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/**
 * Cells papaparse neutralises (prefixes with ') because a spreadsheet would read them as a
 * formula: those starting with = + - @ tab or carriage return, except plain decimal numbers,
 * which stay numbers ("-5.00" is a number, "-5+cmd" is not).
 */
export const CSV_FORMULA_PATTERN = /^(?!-?\d+(?:\.\d+)?$)[=+\-@\t\r]/;

export interface CsvEntry {
  seq: number;
  at: string;
  type: EntryType;
  amount: Cents;
  balanceAfter: Cents;
  reference: string;
  comment: string;
  by: string;
  /** The sequence number of the entry this one reverses, or null. */
  reversalOfSeq: number | null;
  reversed: boolean;
}

export interface CsvHeaders {
  seq: string;
  date: string;
  type: string;
  credit: string;
  debit: string;
  balanceAfter: string;
  reference: string;
  comment: string;
  by: string;
  reversalOf: string;
  reversed: string;
}

/** "yyyy-mm-dd hh:mm:ss" of an instant in a time zone: what spreadsheets read as a date. */
export function csvDateTime(iso: string, timeZone: string): string {
  const d = new TZDate(Date.parse(iso), timeZone);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/**
 * The header row and one row per entry, oldest first as a statement reads. Comments are
 * sensitive: the column exists only when the reader may see them.
 */
export function ledgerCsvRows(
  entries: readonly CsvEntry[],
  options: { headers: CsvHeaders; timeZone: string; includeComment: boolean; typeLabel: (type: EntryType) => string; yes: string },
): (string | number)[][] {
  const h = options.headers;
  const header = [h.seq, h.date, h.type, h.credit, h.debit, h.balanceAfter, h.reference, ...(options.includeComment ? [h.comment] : []), h.by, h.reversalOf, h.reversed];
  const rows = [...entries]
    .sort((a, b) => a.seq - b.seq)
    .map((e) => [
      e.seq,
      csvDateTime(e.at, options.timeZone),
      options.typeLabel(e.type),
      e.type === "credit" ? minorToDecimal(e.amount) : "",
      e.type === "debit" ? minorToDecimal(e.amount) : "",
      minorToDecimal(e.balanceAfter),
      e.reference,
      ...(options.includeComment ? [e.comment] : []),
      e.by,
      e.reversalOfSeq ?? "",
      e.reversed ? options.yes : "",
    ]);
  return [header, ...rows];
}

/** A file name from the wallet's label and the period: wallet-acme-main-2026-03-01-2026-03-31.csv. */
export function csvFileName(label: string, period: { from?: string; to?: string }, today: string): string {
  const slug =
    label
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "wallet";
  const from = period.from ?? "start";
  const to = period.to ?? today;
  return `wallet-${slug}-${from}-${to}.csv`;
}

/**
 * Spend of a set of entries (e.g. today's): debits, less the credits that reverse a debit. A
 * debit that reverses a credit corrects a funding mistake; it is not spend.
 */
export function spendOf(entries: readonly Pick<LedgerEntryData, "type" | "amount" | "reversalOf">[]): Cents {
  let spend = 0;
  for (const e of entries) {
    if (e.type === "debit" && !e.reversalOf) spend += e.amount;
    if (e.type === "credit" && e.reversalOf) spend -= e.amount;
  }
  return Math.max(0, spend);
}
