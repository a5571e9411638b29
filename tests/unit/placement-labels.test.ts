/**
 * One label per placement and per slot on every screen (targeting, bidding, budget, banners,
 * statistics, retailer settings, History and Activity): one key set, common:placements.* and
 * common:slots.*, in both languages; no other namespace keeps its own, and no screen looks a
 * placement up anywhere else.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { i18nConfig } from "~/i18n";
import { placementLabelKey, slotLabelKey } from "~/domain/placement-labels";
import { DEFAULT_RETAILER_SETTINGS, PLACEMENTS } from "~/domain/retailer-settings";

const root = path.resolve(__dirname, "../..");
const load = (locale: string, ns: string) => JSON.parse(fs.readFileSync(path.join(root, "locales", locale, `${ns}.json`), "utf8")) as Record<string, unknown>;

/** Every object of a namespace whose keys include the placements' codes (a label set). */
function placementSets(value: unknown, at = ""): string[] {
  if (typeof value !== "object" || value === null) return [];
  const here = PLACEMENTS.every((p) => typeof (value as Record<string, unknown>)[p] === "string") ? [at] : [];
  return [...here, ...Object.entries(value).flatMap(([k, v]) => placementSets(v, at ? `${at}.${k}` : k))];
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sources(full) : /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

describe("placement and slot labels", () => {
  it("names the spec's placements in en-GB: home, hub (shop), plp (category pages), pdp (product pages), search", () => {
    const common = load("en-GB", "common") as { placements: Record<string, string>; slots: Record<string, string> };
    expect(common.placements).toEqual({
      search: "Search",
      plp: "Category pages (PLP)",
      pdp: "Product pages (PDP)",
      hub: "Shop pages (hub)",
      home: "Home page",
    });
    expect(common.slots).toEqual({ sp: "Sponsored products (sp)", slider: "Product slider (slider)" });
  });

  it.each(i18nConfig.supportedLngs)("in %s, keeps one set, in common, with every placement and every default slot", (locale) => {
    const common = load(locale, "common") as { placements: Record<string, string>; slots: Record<string, string> };
    expect(Object.keys(common.placements).sort()).toEqual([...PLACEMENTS].sort());
    const slots = Object.keys(DEFAULT_RETAILER_SETTINGS.types["sponsored-products"].slots);
    expect(Object.keys(common.slots).sort()).toEqual(slots.sort());
    // The caps reached (campaigns:caps.*) are sentences about a placement, not its label.
    const sets = i18nConfig.ns.flatMap((ns) => placementSets(load(locale, ns)).map((at) => `${ns}:${at}`)).filter((at) => !at.startsWith("campaigns:caps."));
    expect(sets).toEqual(["common:placements"]);
  });

  it("gives the keys of that set", () => {
    expect(placementLabelKey("plp")).toBe("common:placements.plp");
    expect(slotLabelKey("slider")).toBe("common:slots.slider");
  });

  it("is the only way the screens look a placement or slot up", () => {
    const offenders = sources(path.join(root, "app")).filter((file) => {
      const text = fs.readFileSync(file, "utf8");
      return /t\(\s*[`"'](?:[A-Za-z]+:)?(?:placements|slots)\.(?:\$\{|search|plp|pdp|hub|home|sp\b|slider)|[`"'](?:campaignTargeting|campaignEditor|retailer):(?:placements|slots)\b/.test(text);
    });
    expect(offenders.map((f) => path.relative(root, f))).toEqual([]);
  });
});
