/**
 * What a change of a campaign's products did, product by product (added, removed, switched on or
 * off, moved), for the History screen. The entries themselves (labels, money, instants, names)
 * are presented by app/domain/audit-view.ts, which Activity shares.
 *
 * `historyValueText` and `formatInstant` below are the earlier screen formatting, now without a
 * caller in the app (audit-view.ts formats every value); they stay only while
 * tests/unit/campaign-products.test.ts still covers them.
 */
import { CENT_FIELDS, CENT_RECORD_FIELDS } from "~/domain/campaigns/history-csv";
import { formatMoney } from "~/domain/money";
import { dateTimeFormat, labelled, numberFormat } from "~/domain/intl";

/** Top-level fields holding an ISO instant. */
export const INSTANT_FIELDS: ReadonlySet<string> = new Set(["startDate", "endDate", "created", "updated"]);

export interface HistoryFormat {
  locale: string;
  currency: string;
  timeZone: string;
  yes: string;
  no: string;
}

function money(value: unknown, f: HistoryFormat): string | null {
  return typeof value === "number" && Number.isSafeInteger(value) ? formatMoney(value, f.currency, f.locale) : null;
}

export function formatInstant(iso: string, f: Pick<HistoryFormat, "locale" | "timeZone">): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  return dateTimeFormat(f.locale, { dateStyle: "medium", timeStyle: "medium", timeZone: f.timeZone }).format(new Date(ms));
}

/** One value as text; empty for nothing (null, missing, empty text). */
export function historyValueText(field: string, value: unknown, f: HistoryFormat): string {
  if (value === null || value === undefined) return "";
  if (CENT_FIELDS.has(field)) {
    const shown = money(value, f);
    if (shown !== null) return shown;
  }
  if (CENT_RECORD_FIELDS.has(field) && typeof value === "object" && !Array.isArray(value)) {
    return Object.entries(value as Record<string, unknown>)
      .map(([key, cents]) => labelled(f.locale, key, money(cents, f) ?? (cents === null || cents === undefined ? "—" : JSON.stringify(cents))))
      .join(", ");
  }
  if (INSTANT_FIELDS.has(field) && typeof value === "string") return formatInstant(value, f);
  if (typeof value === "boolean") return value ? f.yes : f.no;
  if (typeof value === "number") return Number.isFinite(value) ? numberFormat(f.locale).format(value) : String(value);
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((v) => typeof v === "string" || typeof v === "number")) return value.join(", ");
  return JSON.stringify(value);
}

type OfferLike = { on?: unknown; pos?: unknown };

function asOffers(value: unknown): Record<string, OfferLike> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, OfferLike>) : {};
}

export interface OffersChangeSummary {
  added: string[];
  removed: string[];
  switchedOn: string[];
  switchedOff: string[];
  /** Products whose position changed: id, before, after (null = none). */
  moved: { id: string; before: number | null; after: number | null }[];
}

/** What a change of the campaign's products did, product by product. */
export function summariseOffersChange(before: unknown, after: unknown): OffersChangeSummary {
  const a = asOffers(before);
  const b = asOffers(after);
  const summary: OffersChangeSummary = { added: [], removed: [], switchedOn: [], switchedOff: [], moved: [] };
  const pos = (o: OfferLike | undefined) => (typeof o?.pos === "number" ? o.pos : null);
  for (const id of Object.keys(b)) {
    if (!(id in a)) {
      summary.added.push(id);
      continue;
    }
    if (!!a[id]!.on !== !!b[id]!.on) (b[id]!.on ? summary.switchedOn : summary.switchedOff).push(id);
    if (pos(a[id]) !== pos(b[id])) summary.moved.push({ id, before: pos(a[id]), after: pos(b[id]) });
  }
  for (const id of Object.keys(a)) if (!(id in b)) summary.removed.push(id);
  return summary;
}
