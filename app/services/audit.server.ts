/**
 * The audit trail as people read it: Activity (/health, every change, filtered by kind of record,
 * campaign or wallet) and a campaign's History share one presenter (app/domain/audit-view.ts);
 * this module fetches the entries and the names they refer to, and supplies the reader's words.
 */
import {
  auditReferences,
  presentAuditEntry,
  productTitlesIn,
  type AuditEntryView,
  type AuditFormat,
  type ActivityFilter,
  type AuditNames,
} from "~/domain/audit-view";
import { auditFieldLabelled, auditWords } from "~/services/audit-words";
import type { AuditEntry } from "~/domain/types";
import { getFixedT } from "~/services/i18n.server";
import { getStorage } from "~/services/storage.server";
import { dateTimeFormat } from "~/domain/intl";

export { auditFieldLabelled, auditWords };

export const ACTIVITY_PAGE_SIZE = 50;

/** The names of the records these entries refer to (one read per kind, users one by one). */
export async function auditNames(entries: readonly AuditEntry[]): Promise<AuditNames> {
  const refs = auditReferences(entries);
  const storage = getStorage();
  // Products by the titles the entries hold, else as the catalog names them now.
  const products = productTitlesIn(entries);
  const unnamed = [...refs.products].filter((id) => !products.has(id));
  const [teams, campaigns, wallets, catalog] = await Promise.all([
    refs.teams.size ? storage.teams.getMany([...refs.teams]) : [],
    refs.campaigns.size ? storage.campaigns.getMany([...refs.campaigns]) : [],
    refs.wallets.size ? storage.wallets.getMany([...refs.wallets]) : [],
    unnamed.length ? storage.catalog.getMany(unnamed) : [],
  ]);
  for (const p of catalog) if (p.title) products.set(p.id, p.title);
  const users = new Map<string, string>();
  await Promise.all(
    [...refs.users].map(async (key) => {
      const user = key.includes("@") ? await storage.users.getByEmail(key) : await storage.users.getOne(key);
      if (user) users.set(key, user.displayName || user.email);
    }),
  );
  return {
    teams: new Map(teams.map((t) => [t.id, t.name])),
    campaigns: new Map(campaigns.map((c) => [c.id, c.name])),
    wallets: new Map(wallets.map((w) => [w.id, w.label])),
    users,
    products,
  };
}

/** Entries presented for one reader. */
export async function presentAuditEntries(entries: readonly AuditEntry[], format: AuditFormat): Promise<AuditEntryView[]> {
  const [names, t] = await Promise.all([auditNames(entries), getFixedT(format.locale)]);
  const words = auditWords(t);
  return entries.map((e) => presentAuditEntry(e, format, names, words));
}

export interface ActivityPage {
  entries: AuditEntryView[];
  next: string | null;
  /** The name of the campaign or wallet filtered on, for the filter's label. */
  subject: string | null;
}

/** One page of the audit trail, newest first (operators: the route checks the right). */
export async function activityPage(filter: ActivityFilter, format: AuditFormat): Promise<ActivityPage> {
  const spec = filter.campaign
    ? { entity: "campaign", entityId: filter.campaign }
    : filter.wallet
      ? { entity: "wallet", entityId: filter.wallet }
      : { entity: filter.entity };
  const audit = getStorage().audit;
  // A cursor from another query (edited by hand) shows the first page.
  const page = await audit.list({ ...spec, limit: ACTIVITY_PAGE_SIZE, after: filter.after ?? null }).catch((error) => {
    if (filter.after && error instanceof RangeError) return audit.list({ ...spec, limit: ACTIVITY_PAGE_SIZE });
    throw error;
  });
  const entries = await presentAuditEntries(page.items, format);
  let subject: string | null = null;
  if (filter.campaign) subject = (await getStorage().campaigns.getOne(filter.campaign))?.name ?? entries[0]?.subject ?? filter.campaign;
  if (filter.wallet) subject = (await getStorage().wallets.getOne(filter.wallet))?.label ?? entries[0]?.subject ?? filter.wallet;
  return { entries, next: page.next, subject };
}

/** The version-reload failures of the live config (newest ten). */
export async function reloadFailures(format: AuditFormat) {
  const config = await getStorage().config.get();
  return config.reloadLog.slice(0, 10).map((r) => ({ ...r, atText: dateTimeFormat(format.locale, { dateStyle: "medium", timeStyle: "medium", timeZone: format.timeZone }).format(new Date(r.at)) }));
}
