import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { i18nConfig } from "~/i18n";

const root = path.resolve(__dirname, "../../locales");

function keys(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

function load(locale: string, ns: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(root, locale, `${ns}.json`), "utf8"));
}

describe("translations", () => {
  it.each(i18nConfig.ns)("namespace %s has the same keys in en-GB and fr", (ns) => {
    expect(keys(load("fr", ns)).sort()).toEqual(keys(load("en-GB", ns)).sort());
  });

  it.each(i18nConfig.ns)("namespace %s has no empty text", (ns) => {
    for (const locale of i18nConfig.supportedLngs) {
      const flat = keys(load(locale, ns)).filter(Boolean);
      for (const key of flat) {
        const text = key.split(".").reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], load(locale, ns));
        expect(typeof text === "string" && text.trim().length > 0, `${locale}/${ns}:${key}`).toBe(true);
      }
    }
  });

  it("keeps the spec's messages word for word in en-GB", () => {
    const common = load("en-GB", "common") as Record<string, Record<string, string>>;
    expect(common.errors.authenticationError).toBe("Authentication Error");
    expect(common.errors.networkTitle).toBe("Network Error");
    expect(common.errors.network).toBe("Please check your internet connection and try again.");
    expect(common.errors.errorOccurred).toBe("Error occurred");
    expect(common.errors.insufficientPermissions).toBe("Insufficient permissions");
    expect(common.errors.fetchConfig).toBe("Fetch config");
    expect(common.toast.changesSaved).toBe("Changes Saved");
    expect(common.validation.emailInvalid).toBe("Invalid email");
  });

  it.each(i18nConfig.supportedLngs)("in %s, status badges say a capitalised word (users, invitations), as the other badges do", (locale) => {
    const users = load(locale, "users") as { statuses: Record<string, string>; disabled: { yes: string }; invitations: { states: Record<string, string> } };
    const teams = load(locale, "teams") as { status: Record<string, string> };
    const badges = [...Object.values(users.statuses), users.disabled.yes, ...Object.values(users.invitations.states), ...Object.values(teams.status)];
    for (const word of badges) expect(word, word).toMatch(/^\p{Lu}/u);
  });

  it.each(i18nConfig.supportedLngs)("in %s, every text uses the console's metric words (displays, views), never 'impressions'", (locale) => {
    for (const ns of i18nConfig.ns) {
      const text = JSON.stringify(load(locale, ns));
      expect(text, `${locale}/${ns}`).not.toMatch(/impression/i);
    }
  });
});
