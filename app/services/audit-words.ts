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
  },
  team: { status: "teams:status", account_type: "teams:accountTypes" },
  wallet: { status: "wallets:status" },
  user: { role: "common:roles", type: "common:accountTypes", locale: "common:languages" },
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

/** What had no label of its own and was shown from its code (tests/unit/campaign-history-labels.test.ts). */
export type MissingLabel = { kind: "field" | "nested" | "action"; entity: string; name: string };

export function auditWords(t: TFunction, onMissing?: (missing: MissingLabel) => void): AuditWords {
  const has = (key: string) => t(key, { defaultValue: "\u0000" }) !== "\u0000";
  const placement = (code: string) => t(placementLabelKey(code), labelDefault(code));
  return {
    field(entity, field) {
      const pacedPlacement = entity === "campaign" ? PACING_PLACEMENT_OF.get(field) : undefined;
      if (pacedPlacement) return t("campaignProducts:history.fields.pacingPlacement", { placement: placement(pacedPlacement) });
      for (const key of [`common:activity.fields.${entity}.${field}`, `common:activity.fields.any.${field}`, ...(FIELD_NAMESPACES[entity] ?? []).map((ns) => `${ns}.${field}`)]) {
        if (has(key)) return t(key, { currency: "" }).replace(/\s*\(\s*\)$/, "");
      }
      onMissing?.({ kind: "field", entity, name: field });
      return humanise(field);
    },
    nested(field, key) {
      if (field === "pacingDevices" && has(`campaignEditor:budget.devices.${key}`)) return t(`campaignEditor:budget.devices.${key}`);
      for (const name of [`common:activity.fields.nested.${field}_${key}`, `campaignProducts:history.nested.${field}.${key}`]) if (has(name)) return t(name);
      return null;
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
      return ns && has(`${ns}.${value}`) ? t(`${ns}.${value}`) : null;
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

