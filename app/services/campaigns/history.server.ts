/**
 * A campaign's history (issue 4 section 6): every recorded change (who, when, each field before
 * and after), a page at a time for the screen and whole for the CSV download. The route checks
 * the rights and scope (requireCampaign) first.
 */
import Papa from "papaparse";
import { campaignHistoryCsvRows, campaignHistoryFileName } from "~/domain/campaigns/history-csv";
import { formatInstant, historyValueText, summariseOffersChange, type HistoryFormat, type OffersChangeSummary } from "~/domain/campaigns/history-view";
import { dayOfInstant, type Campaign } from "~/domain/campaigns/campaign";
import { CSV_FORMULA_PATTERN } from "~/domain/wallets/ledger-csv";
import { foldText } from "~/domain/search";
import type { AuditEntry } from "~/domain/types";
/** The largest page the storage serves. */
const MAX_PAGE_SIZE = 500;
import { getFixedT } from "~/services/i18n.server";
import { getStorage } from "~/services/storage.server";

export const HISTORY_PAGE_SIZE = 20;
/** Values longer than this are shortened on screen, the whole text one click away. */
export const SHORT_VALUE_LENGTH = 160;

export interface HistoryContext {
  locale: string;
  /** The reader's time zone: instants are shown in it. */
  timeZone: string;
  currency: string;
}

export interface HistoryValue {
  text: string;
  /** The beginning of a long text, else null. */
  short: string | null;
}

export interface HistoryChange {
  field: string;
  label: string;
  before: HistoryValue;
  after: HistoryValue;
  /** For the products: what changed, product by product. */
  offers: OffersChangeSummary | null;
}

export interface HistoryEntryView {
  id: string;
  at: string;
  atText: string;
  by: string;
  action: string;
  actionLabel: string;
  changes: HistoryChange[];
}

type T = Awaited<ReturnType<typeof getFixedT>>;

/** The label of a field: this namespace's, else the raw name. */
function fieldLabel(t: T, field: string): string {
  return t(`campaignProducts:history.fields.${field}`, { defaultValue: field });
}

function actionLabel(t: T, action: string): string {
  return t(`campaignProducts:history.actions.${action}`, { defaultValue: t(`campaigns:actions.${action}`, { defaultValue: action }) });
}

/** Fields whose values are words of the campaigns namespace. */
const WORD_FIELDS: Record<string, string> = { status: "campaigns:liveStatus", campaignType: "campaigns:types", bidStrategy: "campaigns:strategies" };

function value(field: string, raw: unknown, format: HistoryFormat, t: T): HistoryValue {
  const words = WORD_FIELDS[field];
  const text = words && typeof raw === "string" ? t(`${words}.${raw}`, { defaultValue: raw }) : historyValueText(field, raw, format);
  return { text, short: text.length > SHORT_VALUE_LENGTH ? `${text.slice(0, SHORT_VALUE_LENGTH)}…` : null };
}

function present(entry: AuditEntry, t: T, ctx: HistoryContext): HistoryEntryView {
  const format: HistoryFormat = { locale: ctx.locale, currency: ctx.currency, timeZone: ctx.timeZone, yes: t("campaignProducts:history.yes"), no: t("campaignProducts:history.no") };
  return {
    id: entry.id,
    at: entry.at,
    atText: formatInstant(entry.at, { locale: ctx.locale, timeZone: ctx.timeZone }),
    by: entry.by || "system",
    action: entry.action,
    actionLabel: actionLabel(t, entry.action),
    changes: entry.changes.map((c) => ({
      field: c.field,
      label: fieldLabel(t, c.field),
      before: value(c.field, c.before, format, t),
      after: value(c.field, c.after, format, t),
      offers: c.field === "offers" ? summariseOffersChange(c.before, c.after) : null,
    })),
  };
}

/** One page of the history, newest first; `next` is the cursor of the following (older) page. */
export async function historyPage(campaign: Campaign, after: string | null, ctx: HistoryContext, limit = HISTORY_PAGE_SIZE) {
  const page = await getStorage().campaigns.history(campaign.id, { limit, after }).catch((error) => {
    // A cursor from another query (edited by hand) is a bad request, not a failure of the page.
    if (after) return null;
    throw error;
  });
  if (!page) return null;
  const t = await getFixedT(ctx.locale);
  return { entries: page.items.map((e) => present(e, t, ctx)), next: page.next };
}

/** Every entry of the campaign's history, newest first. */
async function allEntries(campaignId: string): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  let after: string | null = null;
  do {
    const page = await getStorage().campaigns.history(campaignId, { limit: MAX_PAGE_SIZE, after });
    entries.push(...page.items);
    after = page.next;
  } while (after);
  return entries;
}

/** The whole history as a CSV file (one row per changed field, oldest first). */
export async function exportHistoryCsv(campaign: Campaign, ctx: HistoryContext, now = new Date()): Promise<{ fileName: string; body: string }> {
  const t = await getFixedT(ctx.locale);
  const rows = campaignHistoryCsvRows(await allEntries(campaign.id), {
    headers: {
      at: t("campaignProducts:csv.at", { timeZone: ctx.timeZone }),
      by: t("campaignProducts:csv.by"),
      action: t("campaignProducts:csv.action"),
      field: t("campaignProducts:csv.field"),
      before: t("campaignProducts:csv.before"),
      after: t("campaignProducts:csv.after"),
    },
    timeZone: ctx.timeZone,
    actionLabel: (action) => actionLabel(t, action),
    fieldLabel: (field) => fieldLabel(t, field),
  });
  const body = "\uFEFF" + Papa.unparse(rows, { escapeFormulae: CSV_FORMULA_PATTERN, newline: "\r\n" });
  // The file is named after the campaign (folded to plain letters) and today's date.
  const fileName = campaignHistoryFileName(foldText(campaign.name) || campaign.id, dayOfInstant(now.toISOString(), ctx.timeZone));
  return { fileName, body };
}
