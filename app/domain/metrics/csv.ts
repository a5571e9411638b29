/**
 * Statistics tables as spreadsheets: one row per line of the table, figures as plain numbers
 * (money in currency units with two decimals, CTR in percent, ROAS as a ratio), text a spreadsheet
 * would run as a formula neutralised by the writer (CSV_FORMULA_PATTERN). Pure.
 */
import { minorToDecimal } from "~/domain/wallets/ledger-csv";
import { METRICS, type Derived } from "~/domain/metrics/metrics";

/** Above this many rows an export warns that it is large (spec section 9). */
export const EXPORT_WARNING_ROWS = 10_000;
/** The most rows an export writes (the /metrics contract's largest group). */
export { MAX_GROUP_ROWS as EXPORT_MAX_ROWS } from "~/domain/metrics/contract";

export interface FiguresCsvRow {
  name: string;
  team?: string;
  figures: Derived;
  /** The row's currency (written with a currency header); null: several, its money left empty. */
  currency?: string | null;
}

const MONEY = new Set(["cost", "sales", "roas"]);

export function figureCell(metric: (typeof METRICS)[number], figures: Derived): string {
  switch (metric) {
    case "ctr":
      return figures.ctr === null ? "" : (figures.ctr * 100).toFixed(2);
    case "roas":
      return figures.roas === null ? "" : figures.roas.toFixed(2);
    case "cost":
      return minorToDecimal(figures.cost);
    case "sales":
      return minorToDecimal(figures.sales);
    default:
      return String(figures[metric]);
  }
}

/** The header line and the data lines of a figures table. */
export function figuresCsvRows(
  headers: { name: string; team?: string; currency?: string; metrics: Record<string, string> },
  rows: readonly FiguresCsvRow[],
): string[][] {
  const head = [headers.name, ...(headers.team ? [headers.team] : []), ...(headers.currency ? [headers.currency] : []), ...METRICS.map((m) => headers.metrics[m])];
  return [
    head,
    ...rows.map((row) => [
      row.name,
      ...(headers.team ? [row.team ?? ""] : []),
      ...(headers.currency ? [row.currency ?? ""] : []),
      // Money of several currencies is never added up: such a row leaves it empty.
      ...METRICS.map((m) => (row.currency === null && MONEY.has(m) ? "" : figureCell(m, row.figures))),
    ]),
  ];
}

/** A safe file name: letters, digits and dashes, then the period. */
export function statisticsFileName(subject: string, from: string, to: string): string {
  const base = subject.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^A-Za-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "statistics";
  return `${base}-${from}${to !== from ? `_${to}` : ""}.csv`;
}
