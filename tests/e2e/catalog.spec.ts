/**
 * The Catalog and Inventory screens and the catalog import (issue 10 §4), JS on and off: a retailer
 * viewer browses, searches, filters and pages the catalog from the menu; the inventory's tables
 * (operators' figures for operators only); an operator imports a CSV with bad rows, finds the
 * imported product (the feed processed by a job, its page followed to the report), and sees a
 * feed it cannot process fail with 'catalog processing failed';
 * axe on the three screens. Imported ids are unique per run, so parallel specs are not disturbed.
 */
import type { Locator, Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./a11y";
import { en, enTexts, expect, submitAndWait, test } from "./fixtures";

const ct = enTexts("catalog");
const cit = enTexts("catalogImport");

test.describe("as a retailer viewer", () => {
  test.use({ role: "retailerViewer" });

  test("browse, search and filter the catalog, page through it, clear the filters", { tag: "@nojs" }, async ({ app }) => {
    const { page } = app;
    await page.goto("/");
    await app.shell.mainMenu.getByRole("link", { name: en("menu.catalog") }).click();
    await expect(page).toHaveURL("/catalog");
    await expect(page.getByRole("heading", { level: 1, name: ct("title") })).toBeVisible();
    await expect(page.getByText(ct("total_other", { formatted: "3,000" }))).toBeVisible();
    // Viewers read; the import is not offered.
    await expect(page.getByRole("link", { name: ct("importLink") })).toHaveCount(0);

    const table = page.getByRole("table", { name: ct("caption") });
    await expect(table.getByRole("row")).toHaveCount(26);
    await page.getByRole("link", { name: en("actions.nextPage") }).click();
    await expect(page).toHaveURL(/\/catalog\?after=/);
    await expect(table.getByRole("row")).toHaveCount(26);
    await page.getByRole("link", { name: ct("firstPage") }).click();
    await expect(page).toHaveURL("/catalog");

    const filters = page.getByRole("search", { name: ct("filters.label") });
    await filters.getByLabel(ct("filters.search")).fill("coffee beans");
    await filters.getByLabel(ct("fields.party")).selectOption("1P");
    await filters.getByRole("button", { name: en("actions.filter") }).click();
    await expect(page).toHaveURL(/q=coffee\+beans/);
    await expect(page).toHaveURL(/party=1P/);
    const rows = table.getByRole("row").filter({ has: page.getByRole("rowheader") });
    await expect(rows.first()).toBeVisible();
    for (const row of await rows.all()) {
      await expect(row.getByRole("rowheader")).toContainText(/coffee beans/i);
      await expect(row.getByRole("cell").nth(2)).toHaveText("1P");
    }
    // Prices in the retailer's currency, never cents.
    await expect(rows.first().getByRole("cell").nth(4)).toHaveText(/^€\d+\.\d{2}$/);

    await filters.getByLabel(ct("filters.search")).fill("zzzz nothing like it");
    await filters.getByRole("button", { name: en("actions.filter") }).click();
    await expect(page.getByText(ct("empty.noMatch"))).toBeVisible();
    await page.getByRole("link", { name: ct("filters.clear") }).click();
    await expect(page).toHaveURL("/catalog");
    await expect(table.getByRole("row")).toHaveCount(26);
  });

  test("the inventory: page types and their slots, keyword and category demand without the operators' figures", { tag: "@nojs" }, async ({ app }) => {
    const { page } = app;
    await page.goto("/");
    await app.shell.mainMenu.getByRole("link", { name: en("menu.inventory") }).click();
    await expect(page.getByRole("heading", { level: 1, name: ct("inventory.title") })).toBeVisible();
    const pages = page.getByRole("table", { name: ct("inventory.pages.title") });
    await expect(pages.getByRole("row", { name: new RegExp(`^${en("placements.search")}`) })).toContainText(en("slots.sp"));
    await expect(pages.getByRole("row", { name: new RegExp(`^${en("placements.pdp").replace(/[()]/g, "\\$&")}`) })).toContainText(en("slots.slider"));

    const search = page.getByRole("search", { name: ct("inventory.search.label") });
    await search.getByLabel(ct("inventory.search.field")).fill("coffee");
    await search.getByRole("button", { name: ct("inventory.search.submit") }).click();
    await expect(page).toHaveURL("/inventory?q=coffee");
    const keywords = page.getByRole("table", { name: ct("inventory.keywords.title") });
    await expect(keywords.getByRole("rowheader", { name: "coffee", exact: true })).toBeVisible();
    await expect(keywords.getByRole("columnheader", { name: ct("inventory.columns.suggestedBid") })).toBeVisible();
    await expect(keywords.getByRole("columnheader", { name: ct("inventory.columns.fillRate") })).toHaveCount(0);
    const categories = page.getByRole("table", { name: ct("inventory.categories.title") });
    await expect(categories.getByRole("rowheader").first()).toContainText(/coffee/i);
    await expect(categories.getByRole("columnheader", { name: ct("inventory.columns.productsPerPage") })).toHaveCount(0);
  });

  test("the catalog and the inventory have no serious accessibility violation", async ({ app, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "axe needs JavaScript in the page");
    for (const path of ["/catalog", "/inventory"]) {
      await app.page.goto(path);
      await expect(app.page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNoSeriousA11yViolations(app.page);
    }
  });
});

/**
 * Waits for what a finished import shows: with JavaScript the page follows the job by itself;
 * without it the user follows the Refresh link until it is there.
 */
async function untilShown(page: Page, shown: Locator, javaScriptEnabled: boolean) {
  await expect(async () => {
    if (!javaScriptEnabled && !(await shown.isVisible())) await page.getByRole("link", { name: cit("status.refresh"), exact: true }).click();
    await expect(shown).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}

test.describe("as an operator", () => {
  test.use({ role: "operator" });

  test("imports a CSV with bad rows in the background: its page follows it to the report, the good ones are in the catalog; a feed without its columns fails", { tag: "@nojs" }, async ({ app, javaScriptEnabled }) => {
    const { page } = app;
    const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.toUpperCase();
    await page.goto("/catalog");
    await page.getByRole("link", { name: ct("importLink") }).click();
    await expect(page).toHaveURL("/catalog/import");
    await expect(page.getByRole("heading", { level: 1, name: ct("import.title") })).toBeVisible();
    await expect(page.getByRole("table", { name: ct("import.columns.title") }).getByRole("rowheader", { name: "stroke_price" })).toBeVisible();
    // Column names are code, kept whole on one line at 1,280 px ("availabilit|y" was broken).
    const size = page.viewportSize()!;
    await page.setViewportSize({ width: 1280, height: 800 });
    const broken = await page.locator("table.import-columns th[scope=row] code").evaluateAll((codes) => codes.filter((c) => c.getClientRects().length > 1).map((c) => c.textContent));
    expect(broken).toEqual([]);
    await page.setViewportSize(size);

    const csv = [
      "id,title,availability,party,brand,price,stroke_price",
      `E2E-${run}-1,Quokka Trail Mix ${run} 250 g,in stock,1P,Quokka Foods,3.49,4.20`,
      `E2E-${run}-2,,in stock,1P,Quokka Foods,2.00,`,
      `E2E-${run}-3,Quokka Granola ${run},sold out,4P,Quokka Foods,free,`,
    ].join("\n");
    await page.getByLabel(ct("import.file")).setInputFiles({ name: "quokka.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await submitAndWait(page, "/catalog/import", () => page.getByRole("button", { name: ct("import.submit") }).click());
    // The feed is processed by a job: its page shows it waiting or under way, then its report.
    await expect(page).toHaveURL(/\/catalog\/import\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { level: 1, name: cit("status.title", { file: "quokka.csv" }) })).toBeVisible();
    const report = page.getByRole("region", { name: cit("status.reportTitle"), exact: true });
    await untilShown(page, report, javaScriptEnabled);
    await expect(report.getByRole("status")).toHaveText(cit("status.summary", { rows: "3", imported: "1", updated: "0", bad: "2" }));
    await expect(page.getByText(cit("status.states.done"), { exact: true })).toBeVisible();
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
    const bad = report.getByRole("table", { name: ct("import.report.badCaption_other", { count: 2 }) });
    await expect(bad.getByRole("row", { name: /^3 / })).toContainText(ct("import.reasons.titleMissing"));
    const third = bad.getByRole("row", { name: /^4 / });
    await expect(third).toContainText(ct("import.reasons.availabilityInvalid"));
    await expect(third).toContainText(ct("import.reasons.partyInvalid"));
    await expect(third).toContainText(ct("import.reasons.priceInvalid"));

    await report.getByRole("link", { name: ct("import.report.toCatalog") }).click();
    const filters = page.getByRole("search", { name: ct("filters.label") });
    await filters.getByLabel(ct("filters.search")).fill(`quokka ${run}`);
    await filters.getByRole("button", { name: en("actions.filter") }).click();
    const row = page.getByRole("table", { name: ct("caption") }).getByRole("row", { name: new RegExp(`Quokka Trail Mix ${run}`) });
    await expect(row).toBeVisible();
    await expect(row).toContainText("€3.49");
    await expect(row).toContainText("€4.20");
    await expect(page.getByRole("table", { name: ct("caption") }).getByText(`Quokka Granola ${run}`)).toHaveCount(0);

    // A feed missing required columns: nothing imported, the failure shown, and raised.
    await page.goto("/catalog/import");
    await page.getByLabel(ct("import.file")).setInputFiles({ name: `broken-${run}.csv`, mimeType: "text/csv", buffer: Buffer.from(`id,title\nE2E-${run}-9,Thing`) });
    await submitAndWait(page, "/catalog/import", () => page.getByRole("button", { name: ct("import.submit") }).click());
    const failure = page.getByText(ct("import.errors.missingColumns", { columns: "availability, party, brand, price" }));
    await untilShown(page, failure, javaScriptEnabled);
    // The import screen lists both imports with their state.
    await page.goto("/catalog/import");
    const recent = page.getByRole("table", { name: cit("recent.title") });
    await expect(recent.getByRole("row", { name: new RegExp(`^broken-${run}\\.csv`) })).toContainText(cit("status.states.failed"));
    await page.goto("/notifications");
    await expect(page.getByRole("article", { name: new RegExp(en("notifications.types.catalogProcessingFailed.subject")) }).filter({ hasText: `broken-${run}.csv` })).toBeVisible();
  });

  test("the inventory shows operators products per page, fill rate and conversion rate; the import screen passes axe", async ({ app, javaScriptEnabled }) => {
    const { page } = app;
    await page.goto("/inventory?q=coffee");
    const categories = page.getByRole("table", { name: ct("inventory.categories.title") });
    for (const column of ["productsPerPage", "fillRate", "conversionRate"]) {
      await expect(categories.getByRole("columnheader", { name: ct(`inventory.columns.${column}`) })).toBeVisible();
    }
    if (!javaScriptEnabled) return;
    await page.goto("/catalog/import");
    await expectNoSeriousA11yViolations(page);
  });
});

test.describe("as a supplier", () => {
  test.use({ role: "supplierAdmin" });

  test("the catalog, the inventory and the import are not authorized, and not in the menu", async ({ app }) => {
    const { page } = app;
    await page.goto("/");
    await expect(app.shell.mainMenu.getByRole("link", { name: en("menu.catalog") })).toHaveCount(0);
    for (const path of ["/catalog", "/inventory", "/catalog/import"]) {
      await page.goto(path);
      await expect(page).toHaveURL("/not-authorized");
    }
  });
});
