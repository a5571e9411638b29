/**
 * Form errors returned by services and schemas (e.g. "errors.conflict") are translated by each
 * route with its own namespace (`useTranslation("teams")` then `t(form.errors[0])`). Those keys live
 * in common, so every namespace must fall back to common (app/i18n.ts `fallbackNS`), in i18next (the
 * server's render) and in i18n-lite (the browser's) alike, in both languages.
 */
import fs from "node:fs";
import path from "node:path";
import i18next from "i18next";
import { I18nLite } from "~/i18n-lite";
import { i18nConfig } from "~/i18n";

const root = path.resolve(__dirname, "../..");
const LANGS = ["en-GB", "fr"];
const resources: Record<string, Record<string, Record<string, unknown>>> = {};
for (const lng of LANGS) {
  resources[lng] = {};
  for (const ns of i18nConfig.ns) resources[lng][ns] = JSON.parse(fs.readFileSync(path.join(root, "locales", lng, `${ns}.json`), "utf8"));
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** Every "errors.*" key written in a service, schema, domain rule or the HTTP reply helpers. */
const errorKeys = [
  ...new Set(
    ["app/services", "app/forms", "app/domain", "app/http"]
      .flatMap((d) => sources(path.join(root, d)))
      .flatMap((f) => [...fs.readFileSync(f, "utf8").matchAll(/["'`](errors\.[A-Za-z]+)["'`]/g)].map((m) => m[1]!)),
  ),
];

describe("form errors resolve in every namespace a route uses", () => {
  it("finds the shared error keys", () => {
    expect(errorKeys).toContain("errors.conflict");
    expect(errorKeys.length).toBeGreaterThan(4);
  });

  for (const lng of LANGS) {
    it(`${lng}: i18next and i18n-lite give a translation (an area's own or common's), not the key`, async () => {
      const real = i18next.createInstance();
      await real.init({ ...i18nConfig, lng, resources });
      const lite = new I18nLite({ ...i18nConfig }, async (l, ns) => resources[l]![ns] as never);
      await lite.init(lng);
      const missing: string[] = [];
      for (const ns of i18nConfig.ns) {
        for (const [name, t] of [["i18next", real.getFixedT(lng, ns)], ["lite", lite.getFixedT(lng, ns)]] as const) {
          for (const key of errorKeys) {
            const text = (t as (k: string) => string)(key);
            if (!text || text === key) missing.push(`${name} ${ns} ${key} → ${text}`);
          }
        }
      }
      expect(missing).toEqual([]);
      expect(real.getFixedT(lng, "teams")("errors.conflict")).not.toBe("errors.conflict");
    });
  }
});
