/**
 * The browser's translator (app/i18n-lite.ts) against i18next, which renders the same pages on
 * the server: every key of every namespace, in both languages, with and without counts,
 * variables, namespaces and default values, must give the same text (else hydration would
 * replace what the server rendered).
 */
import fs from "node:fs";
import path from "node:path";
import i18next from "i18next";
import { I18nLite } from "~/i18n-lite";
import { i18nConfig } from "~/i18n";

const root = path.resolve(__dirname, "../..");
const LANGS = ["en-GB", "fr"];
type Bundle = Record<string, unknown>;
const resources: Record<string, Record<string, Bundle>> = {};
for (const lng of LANGS) {
  resources[lng] = {};
  for (const ns of i18nConfig.ns) resources[lng][ns] = JSON.parse(fs.readFileSync(path.join(root, "locales", lng, `${ns}.json`), "utf8"));
}

function leaves(obj: unknown, prefix = ""): string[] {
  if (obj === null || typeof obj !== "object") return [prefix];
  return Object.entries(obj as Bundle).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}

async function both(lng: string) {
  const real = i18next.createInstance();
  await real.init({ ...i18nConfig, lng, resources });
  const lite = new I18nLite({ ...i18nConfig }, async (l, ns) => {
    const bundle = resources[l]?.[ns];
    if (!bundle) throw { retry: false };
    return bundle as never;
  });
  await lite.init(lng);
  return { real, lite };
}

const VARIABLE = /\{\{-?\s*([^}]+?)\s*\}\}/g;

describe("i18n-lite gives i18next's text", () => {
  for (const lng of LANGS) {
    it(`every key of every namespace, ${lng}`, async () => {
      const { real, lite } = await both(lng);
      let compared = 0;
      const differences: string[] = [];
      for (const ns of i18nConfig.ns) {
        const keys = new Set(leaves(resources["en-GB"][ns]).concat(leaves(resources.fr[ns])).map((k) => k.replace(/_(zero|one|two|few|many|other)$/, "")));
        const realT = real.getFixedT(null, ns);
        const liteT = lite.getFixedT(null, ns);
        const realCommon = real.getFixedT(null, ["campaignList", "campaigns"]);
        const liteCommon = lite.getFixedT(null, ["campaignList", "campaigns"]);
        for (const key of keys) {
          const raw = String(real.t(`${ns}:${key}`, { lng: "en-GB" }));
          const vars = Object.fromEntries([...raw.matchAll(VARIABLE)].map((m, i) => [m[1], i % 2 ? 1234.5 : `V${i}`]));
          const optionSets: Record<string, unknown>[] = [
            {},
            vars,
            { ...vars, count: 0 },
            { ...vars, count: 1 },
            { ...vars, count: 2 },
            { ...vars, count: 1_000_000 },
            { count: 3 },
            { defaultValue: "Default {{x}}", x: "X" },
            { ns: "common" },
            { ...vars, context: "other" },
          ];
          const same = (what: string, a: unknown, b: unknown) => {
            compared++;
            if (a !== b) differences.push(`${lng} ${what}: lite ${JSON.stringify(a)} i18next ${JSON.stringify(b)}`);
          };
          for (const options of optionSets) {
            const o = options as never;
            same(`${ns}:${key} ${JSON.stringify(o)}`, liteT(key, o), realT(key, o));
            same(`t(${ns}:${key})`, lite.t(`${ns}:${key}`, o), real.t(`${ns}:${key}`, o));
            same(`campaignList t(${ns}:${key})`, liteCommon(`${ns}:${key}`, o), realCommon(`${ns}:${key}`, o));
          }
          same(`campaignList t(${key})`, liteCommon(key), realCommon(key));
          same(`[missing, ${key}]`, liteT([`missing.${key}`, key]), realT([`missing.${key}`, key]));
        }
      }
      for (const odd of ["", "missing.key", "campaigns:missing", "Only draft campaigns can be deleted", "A sentence: with colon.", "unknownNs:key", "errors", "a.b:c d"]) {
        expect(lite.t(odd), odd).toBe(real.t(odd));
        expect(lite.t(odd, "Fallback {{n}}", { n: 2 }), odd).toBe(real.t(odd, "Fallback {{n}}", { n: 2 }));
      }
      expect(differences.slice(0, 10)).toEqual([]);
      expect(compared).toBeGreaterThan(10_000);
    }, 120_000);
  }

  it("changes language like i18next: languageChanged, then the new texts", async () => {
    const { real, lite } = await both("en-GB");
    const events: string[] = [];
    lite.on("languageChanged", (l) => events.push(String(l)));
    await Promise.all([real.changeLanguage("fr"), lite.changeLanguage("fr")]);
    expect(events).toEqual(["fr"]);
    expect(lite.language).toBe(real.language);
    expect(lite.languages).toEqual(real.languages);
    const key = leaves(resources.fr.common)[0];
    expect(lite.t(key)).toBe(real.t(key));
    expect(lite.hasLoadedNamespace("campaigns")).toBe(true);
  });

  it("a remembered plain lookup stays the text of its language, namespace and prefix, and a bundle arriving later is read", async () => {
    const bundles: Record<string, Bundle> = { "en-GB|common": { hello: "Hello", box: { hello: "Box hello" } }, "fr|common": { hello: "Bonjour" } };
    const lite = new I18nLite({ ...i18nConfig, ns: ["common"] }, async (l, ns) => (bundles[`${l}|${ns}`] ?? {}) as never);
    await lite.init("en-GB");
    const t = lite.getFixedT(null, "common");
    expect(t("hello")).toBe("Hello");
    expect(t("hello")).toBe("Hello");
    expect(lite.getFixedT(null, "common", "box")("hello")).toBe("Box hello");
    expect(t("later")).toBe("later");
    bundles["en-GB|extra"] = { later: "Arrived" };
    await lite.loadNamespaces("extra");
    expect(lite.getFixedT(null, "extra")("later")).toBe("Arrived");
    await lite.changeLanguage("fr");
    expect(t("hello")).toBe("Bonjour");
  });

  it("retries a namespace whose load failed for the network, not one that answered 404", async () => {
    let calls = 0;
    const lite = new I18nLite({ ...i18nConfig, ns: ["common"] }, async () => {
      calls++;
      if (calls < 2) throw { retry: true };
      return { hello: "Hello" };
    });
    await lite.init("en-GB");
    expect(lite.t("hello")).toBe("Hello");
    let missing = 0;
    const none = new I18nLite({ ...i18nConfig, ns: ["common"] }, async () => {
      missing++;
      throw { retry: false };
    });
    await none.init("fr");
    expect(missing).toBe(2); // fr and the en-GB fallback, once each
    expect(none.t("hello")).toBe("hello");
  });
});
