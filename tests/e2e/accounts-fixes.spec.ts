/**
 * Defects a new user hit on the accounts screens (issue 8 §2), in the browser:
 * - the wallet runway sentence names the rate its days were counted at (the daily budget when it
 *   is below the average spend), and the transaction's required Reference is marked required;
 * - Activity (/health) and a campaign's History show names, money and times, never raw ids, JSON or
 *   ISO instants, and do not scroll sideways; Activity filters by wallet in the URL;
 * - /teams and /users fit a 1,280 px screen, stay usable at 390 px without the page scrolling
 *   sideways, and their filters look like the campaign list's.
 */
import type { Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./a11y";
import { createCampaign, createWalletThroughForm, enTexts, expect, postWalletEntry, test, uniqueName } from "./fixtures";

const wt = enTexts("wallets");
const ct = enTexts("common");
const pt = enTexts("campaignProducts");

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** The page's horizontal overflow in CSS pixels (0: nothing to scroll sideways). */
async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

test.describe("a wallet", () => {
  test.use({ role: "retailerAdmin" });

  test("marks the Reference required; a manual debit lowers the balance but is no ad spend, so no runway yet", { tag: "@nojs" }, async ({ page }) => {
    test.slow(); // Three forms, each a full page with JavaScript off.
    const label = uniqueName("Runway rate");
    await createWalletThroughForm(page, label, { dailyBudget: "10.00" });
    const form = page.getByRole("region", { name: wt("entry.title") });
    const reference = form.getByLabel(wt("fields.reference"), { exact: true });
    await expect(reference).toHaveAttribute("required", "");
    await expect(reference).toHaveAttribute("aria-required", "true");
    // The visual marker follows the field's label, as on every required field (the amount's too).
    const marker = (id: string | null) => page.locator(`label[for="${id}"]`).evaluate((label) => getComputedStyle(label, "::after").content);
    expect(await marker(await reference.getAttribute("id"))).toContain("*");
    expect(await marker(await form.getByLabel(wt("fields.amount", { currency: "EUR" }), { exact: true }).getAttribute("id"))).toContain("*");

    await postWalletEntry(page, "credit", "100.00", "INV-RATE");
    await postWalletEntry(page, "debit", "30.00", "PO-RATE");
    const money = page.getByRole("region", { name: wt("page.money") });
    await expect(money.locator(".wallet-balance strong")).toHaveText("€70.00");
    // A manual debit is not ad spend (ADR 41): nothing to project a runway from. The rate a runway
    // is counted at (the daily budget below the average spend) is tested in app-wallets.test.ts.
    await expect(money).toContainText(wt("runway.none"));
    await expect(money).not.toContainText("days to go");
  });
});

test.describe("lists on a desktop and a phone", () => {
  test.use({ role: "operator" });

  for (const path of ["/teams", "/users"]) {
    test(`${path} fits 1,280 px and does not scroll sideways at 390 px`, async ({ page }) => {
      await page.setViewportSize(DESKTOP);
      await page.goto(path);
      const table = page.getByRole("main").getByRole("table").first();
      await expect(table).toBeVisible();
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      // Every column is on screen: the table is no wider than its frame.
      expect(await table.evaluate((t) => t.scrollWidth - (t.parentElement?.clientWidth ?? 0))).toBeLessThanOrEqual(1);

      await page.setViewportSize(PHONE);
      await page.goto(path);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      // The first row's name link and its last value are within the screen.
      const row = table.locator("tbody tr").first();
      for (const cell of [row.getByRole("link").first(), row.locator("td").last()]) {
        const box = (await cell.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      }
      const search = page.getByRole("search");
      const searchBox = (await search.boundingBox())!;
      expect(searchBox.x + searchBox.width).toBeLessThanOrEqual(PHONE.width);
    });
  }

  test("a user's teams and a team's members keep their role forms and Remove buttons on a 390 px screen", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto("/users?q=supplier.admin");
    await page.getByRole("link", { name: "Sam Supplier", exact: true }).click();
    await expect(page).toHaveURL(/\/users\/[^/?]+$/);
    for (const path of [new URL(page.url()).pathname, "/teams/acme-brand/settings/members"]) {
      await page.goto(path);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      const controls = page.getByRole("main").getByRole("table").first().locator("select, button:visible, summary");
      expect(await controls.count()).toBeGreaterThan(1);
      for (const control of await controls.all()) {
        const box = (await control.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      }
    }
  });

  test("the teams and users filters look like the campaign list's", async ({ page }) => {
    const look = async (path: string) => {
      await page.goto(path);
      return page
        .getByRole("search")
        .first()
        .evaluate((form) => {
          const s = getComputedStyle(form);
          return { background: s.backgroundColor, border: s.borderTopWidth + s.borderTopStyle, radius: s.borderTopLeftRadius, padding: s.paddingTop };
        });
    };
    const campaigns = await look("/campaigns");
    expect(await look("/teams")).toEqual(campaigns);
    expect(await look("/users")).toEqual(campaigns);
  });
});

test.describe("Activity", () => {
  test.use({ role: "operator" });

  test("shows a wallet's changes by name, money and local time, filters by that wallet, and never scrolls sideways", { tag: "@nojs" }, async ({ page }) => {
    test.slow();
    const label = uniqueName("Activity wallet");
    await createWalletThroughForm(page, label, { dailyBudget: "12.34" });
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      await page.goto("/health?entity=wallet");
      const entry = page.getByRole("article").filter({ hasText: label }).first();
      await expect(entry).toBeVisible();
      await expect(entry.getByRole("heading")).toContainText(`Created · Wallet ${label}`);
      await expect(entry.getByRole("heading")).toContainText("by Olivia Operator");
      await expect(entry).toContainText("Advertiser: Acme Brand");
      await expect(entry.getByRole("row").filter({ has: page.getByRole("rowheader", { name: wt("fields.dailyBudget"), exact: true }) })).toContainText("€12.34");
      const text = await page.getByRole("main").innerText();
      expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
      expect(text).not.toMatch(/[{[]"/);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    }

    await page.getByRole("link", { name: ct("activity.onlyThis", { subject: label }) }).first().click();
    await expect(page).toHaveURL(/\/health\?wallet=/);
    await expect(page.getByRole("main")).toContainText(ct("activity.filteredWallet", { name: label }));
    await expect(page.getByRole("article")).toHaveCount(1);
  });

  test("lists the scheduled work: the settlement of ad spend, its schedule, next and last run and outcome", async ({ page }) => {
    // The server's scheduler defined the settlement at boot and runs it every 10 seconds.
    const panel = page.getByRole("region", { name: ct("activity.jobs.title"), exact: true });
    const table = panel.getByRole("table", { name: ct("activity.jobs.table"), exact: true });
    const row = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: ct("activity.jobs.kinds.settlement"), exact: true }) });
    await expect(async () => {
      await page.goto("/health");
      await expect(row.getByRole("cell").nth(3)).toContainText(ct("activity.jobs.outcomes.done"), { timeout: 1_000 });
    }).toPass({ timeout: 25_000 });
    await expect(panel).toContainText(ct("activity.jobs.intro", { zone: "Europe/Paris" }));
    for (const column of ["name", "schedule", "nextRun", "lastRun", "outcome", "duration"]) {
      await expect(table.getByRole("columnheader", { name: ct(`activity.jobs.columns.${column}`), exact: true })).toBeVisible();
    }
    const cells = row.getByRole("cell");
    await expect(cells.nth(0)).toHaveText(ct("activity.jobs.schedules.everySeconds_other", { count: 10 }));
    // Next and last run as people read them, in the operator's time zone: "5 Mar 2026, 14:07".
    for (const i of [1, 2]) await expect(cells.nth(i).locator("time")).toHaveText(/^\d{1,2} \w{3,4} \d{4}, \d{2}:\d{2}$/);
    await expect(cells.nth(4)).toHaveText(/^\d+(\.\d)? (ms|secs?)$/);
    const text = await panel.innerText();
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    await page.setViewportSize(PHONE);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await expectNoSeriousA11yViolations(page);
  });
});

test.describe("a campaign's History", () => {
  test.use({ role: "supplierAdmin" });

  test("shows the team by name and the author by name, without scrolling sideways on a phone", { tag: "@nojs" }, async ({ page, baseURL }) => {
    const id = await createCampaign(page, baseURL!, { name: uniqueName("History names") });
    await page.setViewportSize(PHONE);
    await page.goto(`/campaigns/${id}/history`);
    const entry = page.getByRole("article").first();
    await expect(entry.getByRole("heading")).toContainText(pt("history.by", { by: "Sam Supplier" }));
    await expect(entry.getByRole("row").filter({ has: page.getByRole("rowheader", { name: pt("history.fields.team"), exact: true }) })).toContainText("Acme Brand");
    const text = await page.getByRole("main").innerText();
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    expect(text).not.toMatch(/[{[]"/);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });
});
