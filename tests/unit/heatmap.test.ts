/**
 * The campaign heatmap's rules: each cell is shaded by its own figure (its clicks), in 5 levels;
 * a period without a display or a click is said to be empty; its headings are the dayparting
 * grid's ("00", "09:00"); every shade keeps the text readable (4.5:1) in the light and dark themes.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hourLabel, hourTime } from "~/domain/campaigns/dayparting";
import { HEAT_LEVELS, heatLevel, heatmapOf, isEmptyHeatmap } from "~/domain/metrics/heatmap";
import { endsBeforeToday } from "~/domain/metrics/periods";

describe("the heatmap's cells", () => {
  it("are shaded by their own figure: none for 0, the darkest for the largest, in between by share", () => {
    expect(heatLevel(0, 10)).toBe(0);
    expect(heatLevel(0, 0)).toBe(0);
    expect(heatLevel(10, 10)).toBe(HEAT_LEVELS);
    expect(heatLevel(1, 10)).toBe(1);
    expect(heatLevel(5, 10)).toBe(3);
    expect(heatLevel(9, 10)).toBe(5);
  });

  it("say an empty period is empty: no display and no click anywhere", () => {
    expect(isEmptyHeatmap(heatmapOf([]))).toBe(true);
    expect(isEmptyHeatmap(heatmapOf([{ bucket: "2-14", displays: 3, clicks: 0 }]))).toBe(false);
    expect(isEmptyHeatmap(heatmapOf([{ bucket: "9-99", displays: 3, clicks: 1 }]))).toBe(true);
  });

  it("name the hours as the dayparting grid does", () => {
    expect([hourLabel(0), hourLabel(9), hourLabel(23)]).toEqual(["00", "09", "23"]);
    expect([hourTime(0), hourTime(9)]).toEqual(["00:00", "09:00"]);
  });

  it("know when a period leaves today out (the Targeting tab's default, the last 30 days, ends yesterday)", () => {
    const now = new Date("2026-11-25T10:00:00Z");
    expect(endsBeforeToday({ from: "2026-10-26", to: "2026-11-24" }, now, "Europe/Paris")).toBe(true);
    expect(endsBeforeToday({ from: "2026-11-25", to: "2026-11-25" }, now, "Europe/Paris")).toBe(false);
    // 23:30 UTC on the 24th is already the 25th in Paris.
    expect(endsBeforeToday({ from: "2026-11-24", to: "2026-11-24" }, new Date("2026-11-24T23:30:00Z"), "Europe/Paris")).toBe(true);
  });
});

describe("the heatmap's shades (app.css)", () => {
  const css = fs.readFileSync(path.resolve(__dirname, "../../app/styles/app.css"), "utf8");
  const lin = (v: number) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => lin(parseInt(hex.slice(i, i + 2), 16) / 255));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const contrast = (a: string, b: string) => {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x! + 0.05) / (y! + 0.05);
  };
  /** The custom properties of one rule's block, by its selector. */
  function variables(selector: string): Record<string, string> {
    const start = css.indexOf(`${selector} {`);
    expect(start, selector).toBeGreaterThanOrEqual(0);
    const block = css.slice(start, css.indexOf("}", start));
    return Object.fromEntries([...block.matchAll(/--([\w-]+):\s*(#[0-9a-fA-F]{6})/g)].map((m) => [m[1]!, m[2]!.toLowerCase()]));
  }
  const themes = {
    light: variables(":root"),
    "dark (system)": variables(':root:not([data-theme="light"])'),
    "dark (chosen)": variables(':root[data-theme="dark"]'),
  };

  it.each(Object.entries(themes))("keep the cell's text at 4.5:1 or more at every level, in the %s theme, darker level by level", (_theme, vars) => {
    const text = vars.text!;
    const shades = Array.from({ length: HEAT_LEVELS }, (_, i) => vars[`heat-${i + 1}`]!);
    expect(shades.every(Boolean)).toBe(true);
    for (const shade of shades) expect(contrast(shade, text), shade).toBeGreaterThanOrEqual(4.5);
    // Each level stands further from the plain cell (the surface) than the one before.
    const fromSurface = shades.map((s) => contrast(s, vars.surface!));
    for (let i = 1; i < fromSurface.length; i++) expect(fromSurface[i]!).toBeGreaterThan(fromSurface[i - 1]!);
  });

  it("shade the cell itself: each level is a background of the cell, the number in the text colour", () => {
    for (let level = 1; level <= HEAT_LEVELS; level++) expect(css).toContain(`.heatmap td.heat-${level} { background: var(--heat-${level}); }`);
    expect(css).toMatch(/\.heatmap td \{[^}]*color: var\(--text\)/);
  });
});
