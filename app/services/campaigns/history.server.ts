/**
 * A campaign's history (issue 4 section 6): every recorded change (who, when, each field before
 * and after), a page at a time for the screen and whole for the CSV download. The route checks
 * the rights and scope (requireCampaign) first.
 */
import Papa from "papaparse";
import { campaignHistoryCsvRows, campaignHistoryFileName } from "~/domain/campaigns/history-csv";
import type { AuditChangeView, AuditEntryView, AuditValueView } from "~/domain/audit-view";
import { dayOfInstant, type Campaign } from "~/domain/campaigns/campaign";
import { CSV_FORMULA_PATTERN } from "~/domain/wallets/ledger-csv";
import { foldText } from "~/domain/search";
import type { AuditEntry } from "~/domain/types";
import { presentAuditEntries } from "~/services/audit.server";
import { getFixedT } from "~/services/i18n.server";
import { getStorage } from "~/services/storage.server";

/** The largest page the storage serves. */
const MAX_PAGE_SIZE = 500;

export const HISTORY_PAGE_SIZE = 20;

export interface HistoryContext {
  locale: string;
  /** The reader's time zone: instants are shown in it. */
  timeZone: string;
  currency: string;
}

/** One entry as the History shows it (the same presenter as Activity's). */
export type HistoryEntryView = AuditEntryView;
export type HistoryChange = AuditChangeView;
export type HistoryValue = AuditValueView;

/** One page of the history, newest first; `next` is the cursor of the following (older) page. */
export async function historyPage(campaign: Campaign, after: string | null, ctx: HistoryContext, limit = HISTORY_PAGE_SIZE) {
  const page = await getStorage().campaigns.history(campaign.id, { limit, after }).catch((error) => {
    // A cursor from another query (edited by hand) is a bad request, not a failure of the page.
    if (after) return null;
    throw error;
  });
  if (!page) return null;
  return { entries: await presentAuditEntries(page.items, ctx), next: page.next };
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

/**
 * The whole history as a CSV file (one row per changed field, oldest first), in the words the
 * History screen shows: the same presenter writes both.
 */
export async function exportHistoryCsv(campaign: Campaign, ctx: HistoryContext, now = new Date()): Promise<{ fileName: string; body: string }> {
  const [t, entries] = await Promise.all([getFixedT(ctx.locale), allEntries(campaign.id)]);
  const rows = campaignHistoryCsvRows(await presentAuditEntries(entries, ctx), {
    headers: {
      at: t("campaignProducts:csv.at", { timeZone: ctx.timeZone }),
      by: t("campaignProducts:csv.by"),
      action: t("campaignProducts:csv.action"),
      field: t("campaignProducts:csv.field"),
      before: t("campaignProducts:csv.before"),
      after: t("campaignProducts:csv.after"),
    },
    none: t("campaignProducts:history.none"),
    noFields: t("campaignProducts:history.noFields"),
  });
  const body = "\uFEFF" + Papa.unparse(rows, { escapeFormulae: CSV_FORMULA_PATTERN, newline: "\r\n" });
  // The file is named after the campaign (folded to plain letters) and today's date.
  const fileName = campaignHistoryFileName(foldText(campaign.name) || campaign.id, dayOfInstant(now.toISOString(), ctx.timeZone));
  return { fileName, body };
}
