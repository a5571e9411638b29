/**
 * Every field (and key of a record field) and every action a campaign's history can record has a
 * label of its own in each language: none reaches a reader as its code ("T keywords",
 * "Apply-min-bid"). The lists come from app/domain/campaigns/history-fields.ts, which the types
 * keep complete; French is checked without falling back to English.
 */
import { createInstance, type TFunction } from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { CAMPAIGN_HISTORY_ACTIONS, CAMPAIGN_HISTORY_FIELDS, CAMPAIGN_HISTORY_NESTED } from "~/domain/campaigns/history-fields";
import { i18nConfig } from "~/i18n";
import { auditWords, type MissingLabel } from "~/services/audit-words";
import { resources } from "~/services/i18n.server";

const LOCALES = ["en-GB", "fr"] as const;
const ts: Record<string, TFunction> = {};

beforeAll(async () => {
  for (const lng of LOCALES) {
    const instance = createInstance();
    await instance.init({ ...i18nConfig, lng, fallbackLng: false, resources });
    ts[lng] = instance.t;
  }
});

describe.each(LOCALES)("campaign history labels in %s", (lng) => {
  function labels() {
    const missing: MissingLabel[] = [];
    return { words: auditWords(ts[lng]!, (m) => missing.push(m)), missing };
  }

  it("has one for every field a change may name", () => {
    const { words, missing } = labels();
    for (const field of CAMPAIGN_HISTORY_FIELDS) words.field("campaign", field);
    expect(missing.map((m) => m.name)).toEqual([]);
  });

  it("has one for every key of a record field", () => {
    const { words } = labels();
    const unlabelled = [...CAMPAIGN_HISTORY_NESTED].flatMap(([field, keys]) => keys.filter((key) => !words.nested?.(field, key)).map((key) => `${field}.${key}`));
    expect(unlabelled).toEqual([]);
  });

  it("has one for every action an entry may carry", () => {
    const { words, missing } = labels();
    for (const action of CAMPAIGN_HISTORY_ACTIONS) words.action("campaign", action);
    expect(missing.map((m) => m.name)).toEqual([]);
  });

  it("says nothing in another language's words for on and off", () => {
    const { words } = labels();
    if (lng === "fr") expect([words.on, words.off]).toEqual(["activé", "désactivé"]);
    else expect([words.on, words.off]).toEqual(["on", "off"]);
  });
});
