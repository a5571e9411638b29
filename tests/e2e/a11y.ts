/**
 * axe-core checks: WCAG 2 A and AA rules, failing on serious or critical violations only.
 *
 * Legacy mode runs axe in the page itself. The default mode runs it in each frame and then
 * finishes in a blank page it opens for the purpose: our pages have no frames, and that extra
 * page cost about 1.5 s per scan on the CI machine. Only violations are collected
 * (`resultTypes`), so axe does not record every node that passes.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

export async function expectNoSeriousA11yViolations(page: Page) {
  const results = await new AxeBuilder({ page }).setLegacyMode(true).withTags(["wcag2a", "wcag2aa"]).options({ resultTypes: ["violations"] }).analyze();
  const blocking = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(blocking, `axe violations on ${page.url()}`).toEqual([]);
}
