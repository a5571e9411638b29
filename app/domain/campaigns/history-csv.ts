/**
 * A campaign's history as a spreadsheet (issue 4 section 6): one row per changed field of each
 * recorded change (when, who, what action, field, before, after), oldest first as a log reads.
 * Pure; the route writes it with Papa.unparse(rows, { escapeFormulae: CSV_FORMULA_PATTERN }).
 *
 * The cells hold the words the History screen shows, from the same presenter
 * (app/domain/audit-view.ts): the time in the reader's zone and language, the actor's name, the
 * action's and the field's labels, names not ids, translated statuses, types and yes/no, money in
 * the retailer's currency, records described in words. Under a field's label the screen lists
 * what a change of products did; the field's cell carries the same lines after the label. An
 * empty value is the screen's "(none)"; an entry with no visible change gets one row saying so.
 */
import type { AuditEntryView } from "~/domain/audit-view";

export interface HistoryCsvHeaders {
  at: string;
  by: string;
  action: string;
  field: string;
  before: string;
  after: string;
}

export interface HistoryCsvWords {
  headers: HistoryCsvHeaders;
  /** A value that is nothing: the screen's "(none)". */
  none: string;
  /** An entry whose changes show nothing: the screen's "No field changed." */
  noFields: string;
}

export type HistoryCsvEntry = Pick<AuditEntryView, "at" | "atText" | "byName" | "actionLabel" | "changes">;

/** The header row and one row per changed field, oldest entry first (entries come newest first, as the history gives them). */
export function campaignHistoryCsvRows(entries: readonly HistoryCsvEntry[], words: HistoryCsvWords): string[][] {
  const h = words.headers;
  const ordered = entries
    .map((entry, index) => ({ entry, index }))
    // Entries of the same instant keep their order reversed, so the file reads oldest first throughout.
    .sort((a, b) => Date.parse(a.entry.at) - Date.parse(b.entry.at) || b.index - a.index)
    .map((x) => x.entry);
  const rows = ordered.flatMap((e) => {
    const head = [e.atText, e.byName, e.actionLabel];
    if (!e.changes.length) return [[...head, words.noFields, "", ""]];
    return e.changes.map((c) => [...head, [c.label, ...c.lines].join("\n"), c.before.text || words.none, c.after.text || words.none]);
  });
  return [[h.at, h.by, h.action, h.field, h.before, h.after], ...rows];
}

/** campaign-<id>-history-<today>.csv, the id reduced to safe characters. */
export function campaignHistoryFileName(campaignId: string, today: string): string {
  const safe = campaignId.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "campaign";
  return `campaign-${safe}-history-${today}.csv`;
}
