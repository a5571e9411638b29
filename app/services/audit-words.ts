/**
 * The reader's words for the audit presenter (app/domain/audit-view.ts): labels of fields, keys,
 * actions and kinds of record, stored words in the reader's language, and the phrases a change of
 * products or targets is told with. Activity, a campaign's History and its CSV all use these.
 */
import type { TFunction } from "i18next";
import type { AuditWords } from "~/domain/audit-view";
import { PACING_FIELD } from "~/domain/campaigns/campaign";
import { labelDefault, placementLabelKey, slotLabelKey } from "~/domain/placement-labels";

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
  report: { frequency: "reports:frequencies", format: "reports:formats", state: "reports:states" },
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
  return [`common:activity.fields.nested.${field}_${key}`, `campaignProducts:history.nested.${field}.${key}`].find((name) => hasKey(t, name)) ?? null;
}

/** Whether a field (or a key inside it) has a translated label: what the locale tests check. */
export function auditFieldLabelled(t: TFunction, entity: string, field: string, key?: string): boolean {
  if (key === undefined) return (entity === "campaign" && PACING_PLACEMENT_OF.has(field)) || fieldLabelKey(t, entity, field) !== null;
  return nestedLabelKey(t, field, key) !== null || fieldLabelKey(t, entity, key) !== null;
}

/** What had no label of its own and was shown from its code (tests/unit/campaign-history-labels.test.ts). */
export type MissingLabel = { kind: "field" | "nested" | "action"; entity: string; name: string };

export function auditWords(t: TFunction, onMissing?: (missing: MissingLabel) => void): AuditWords {
  const has = (key: string) => hasKey(t, key);
  const placement = (code: string) => t(placementLabelKey(code), labelDefault(code));
  return {
    field(entity, field) {
      const pacedPlacement = entity === "campaign" ? PACING_PLACEMENT_OF.get(field) : undefined;
      if (pacedPlacement) return t("campaignProducts:history.fields.pacingPlacement", { placement: placement(pacedPlacement) });
      const key = fieldLabelKey(t, entity, field);
      if (key) return t(key, { currency: "" }).replace(/\s*\(\s*\)$/, "");
      onMissing?.({ kind: "field", entity, name: field });
      return humanise(field);
    },
    nested(field, key) {
      const name = nestedLabelKey(t, field, key);
      return name ? t(name) : null;
    },
    placement,
    slot: (code) => t(slotLabelKey(code), labelDefault(code)),
    action(entity, action) {
      if (entity === "campaign" && has(`campaignProducts:history.actions.${action}`)) return t(`campaignProducts:history.actions.${action}`);
      if (has(`common:activity.actions.${action}`)) return t(`common:activity.actions.${action}`);
      onMissing?.({ kind: "action", entity, name: action });
      return humanise(action);
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
    on: t("campaignProducts:history.on"),
    off: t("campaignProducts:history.off"),
    more: (count) => t("campaignProducts:history.more", { count }),
    position: (pos) => t("campaignProducts:history.position", { pos }),
    allProducts: t("campaignProducts:history.allProducts"),
    offers: (kind, titles) => t(`campaignProducts:history.offers.${kind}`, { titles }),
    moved: (title, before, after) => t("campaignProducts:history.offers.moved", { title, before, after }),
    targetOffers: (kind, target, titles) => t(`campaignProducts:history.targetOffers.${kind}`, { target, titles }),
    system: t("common:activity.system"),
    loggedAs: (operator, user) => t("common:activity.loggedAs", { operator, user }),
  };
}

