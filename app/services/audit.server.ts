/**
 * The audit trail as people read it: Activity (/health, every change, filtered by kind of record,
 * campaign or wallet) and a campaign's History share one presenter (app/domain/audit-view.ts);
 * this module fetches the entries and the names they refer to, and supplies the reader's words.
 */
import type { TFunction } from "i18next";
import {
  auditReferences,
  presentAuditEntry,
  type AuditEntryView,
  type AuditFormat,
  type ActivityFilter,
  type AuditNames,
  type AuditWords,
} from "~/domain/audit-view";
import type { AuditEntry } from "~/domain/types";
import { getFixedT } from "~/services/i18n.server";
import { getStorage } from "~/services/storage.server";
import { dateTimeFormat } from "~/domain/intl";
import { PACING_FIELD } from "~/domain/campaigns/campaign";
import { labelDefault, placementLabelKey, slotLabelKey } from "~/domain/placement-labels";

export const ACTIVITY_PAGE_SIZE = 50;

/** Labels of other namespaces, per entity (the Activity's own labels come first). */
const FIELD_NAMESPACES: Record<string, string[]> = {
  campaign: ["campaignProducts:history.fields"],
  wallet: ["wallets:fields"],
  team: ["teams:fields"],
  report: ["reports:fields"],
};

/** Stored words shown in the reader's language, per entity and field (inside a record: 'field.key'). */
const VALUE_KEYS: Record<string, Record<string, string>> = {
  campaign: {
    status: "campaigns:liveStatus",
    campaignType: "campaigns:types",
    bidStrategy: "campaigns:strategies",
    devices: "campaignTargeting:devices",
    "capping.type": "campaignTargeting:capping.types",
    "teamInfo.account_type": "teams:accountTypes",
    availability: "catalog:availability",
    party: "catalog:party",
    "selectedWallet.status": "wallets:status",
  },
  team: { status: "teams:status", account_type: "teams:accountTypes" },
  wallet: { status: "wallets:status" },
  user: { status: "users:statuses", "preferences.theme": "common:themes", role: "common:roles", type: "common:accountTypes", locale: "common:languages" },
  invitation: { role: "common:roles" },
  report: { frequency: "reports:frequencies", format: "reports:formats" },
};

/** A campaign's daily budget per placement, field by field ('pacingPlp' → 'plp'). */
const PACING_PLACEMENT_OF: ReadonlyMap<string, string> = new Map(Object.entries(PACING_FIELD).map(([placement, field]) => [field, placement]));

/** 'dailyBudget' → 'Daily budget', 'external_id' → 'External id': a last resort, never an id. */
function humanise(field: string): string {
  const words = field.replace(/_/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const hasKey = (t: TFunction, key: string) => t(key, { defaultValue: "\u0000" }) !== "\u0000";

/** The translation key of a field's label, or null when it has none (then it is made readable). */
function fieldLabelKey(t: TFunction, entity: string, field: string): string | null {
  const keys = [`common:activity.fields.${entity}.${field}`, `common:activity.fields.any.${field}`, ...(FIELD_NAMESPACES[entity] ?? []).map((ns) => `${ns}.${field}`)];
  return keys.find((key) => hasKey(t, key)) ?? null;
}

/** The translation key of a key's label inside a record field, where it differs from the key's own. */
function nestedLabelKey(t: TFunction, field: string, key: string): string | null {
  if (field === "pacingDevices" && hasKey(t, `campaignEditor:budget.devices.${key}`)) return `campaignEditor:budget.devices.${key}`;
  const name = `common:activity.fields.nested.${field}_${key}`;
  return hasKey(t, name) ? name : null;
}

/** Whether a field (or a key inside it) has a translated label: what the locale tests check. */
export function auditFieldLabelled(t: TFunction, entity: string, field: string, key?: string): boolean {
  if (key === undefined) return (entity === "campaign" && PACING_PLACEMENT_OF.has(field)) || fieldLabelKey(t, entity, field) !== null;
  return nestedLabelKey(t, field, key) !== null || fieldLabelKey(t, entity, key) !== null;
}

export function auditWords(t: TFunction): AuditWords {
  const has = (key: string) => hasKey(t, key);
  const placement = (code: string) => t(placementLabelKey(code), labelDefault(code));
  return {
    field(entity, field) {
      const pacedPlacement = entity === "campaign" ? PACING_PLACEMENT_OF.get(field) : undefined;
      if (pacedPlacement) return t("campaignProducts:history.fields.pacingPlacement", { placement: placement(pacedPlacement) });
      const key = fieldLabelKey(t, entity, field);
      return key ? t(key, { currency: "" }).replace(/\s*\(\s*\)$/, "") : humanise(field);
    },
    nested(field, key) {
      const name = nestedLabelKey(t, field, key);
      return name ? t(name) : null;
    },
    placement,
    slot: (code) => t(slotLabelKey(code), labelDefault(code)),
    action(entity, action) {
      if (entity === "campaign" && has(`campaignProducts:history.actions.${action}`)) return t(`campaignProducts:history.actions.${action}`);
      return has(`common:activity.actions.${action}`) ? t(`common:activity.actions.${action}`) : humanise(action);
    },
    entity(entity) {
      return has(`common:activity.entities.${entity}`) ? t(`common:activity.entities.${entity}`) : humanise(entity);
    },
    value(entity, field, value) {
      const ns = VALUE_KEYS[entity]?.[field];
      if (!ns) return null;
      // Stored as the feed had it ('in stock'), keyed as the catalog keys it ('in_stock').
      const key = [value, value.trim().toLowerCase().replace(/[\s-]+/g, "_")].find((k) => has(`${ns}.${k}`));
      return key ? t(`${ns}.${key}`) : null;
    },
    yes: t("common:common.yes"),
    no: t("common:common.no"),
    system: t("common:activity.system"),
    loggedAs: (operator, user) => t("common:activity.loggedAs", { operator, user }),
  };
}

/** The names of the records these entries refer to (one read per kind, users one by one). */
export async function auditNames(entries: readonly AuditEntry[]): Promise<AuditNames> {
  const refs = auditReferences(entries);
  const storage = getStorage();
  const [teams, campaigns, wallets] = await Promise.all([
    refs.teams.size ? storage.teams.getMany([...refs.teams]) : [],
    refs.campaigns.size ? storage.campaigns.getMany([...refs.campaigns]) : [],
    refs.wallets.size ? storage.wallets.getMany([...refs.wallets]) : [],
  ]);
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
