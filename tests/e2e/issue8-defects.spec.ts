/**
 * Defects a new user hit (issue 8 section 2), as the browser shows them; the rules behind them are
 * tested in tests/integration/app-campaign-fixes.test.ts and tests/integration/app-statistics.test.ts:
 * - 'Ready to activate?' is asked only where Activate is offered: on a complete draft, not once the
 *   campaign runs (a rejected campaign, which needs moderation switched on for the whole server,
 *   is in issue8-defects.stateful.spec.ts, with the French elision);
 * - an archived campaign's Products, Targeting and Banners and creative sections show what the
 *   campaign holds, without a form to change it;
 * - Activity (/health) filtered by a campaign or by a wallet lists only that record's changes, by
 *   name, never by id.
 *
 * The tests that submit forms are tagged @nojs: they run with JavaScript on and off.
 */
import type { Locator, Page } from "@playwright/test";
import {
  CampaignEditor,
  createCampaign,
  createFundedWallet,
  createWalletThroughForm,
  en,
  enTexts,
  expect,
  parisDay,
  postWalletEntry,
  submitAndWait,
  test,
  uniqueName,
} from "./fixtures";

const ct = enTexts("campaigns");
const et = enTexts("campaignEditor");
const tt = enTexts("campaignTargeting");
const pt = enTexts("campaignProducts");
const common = enTexts("common");

/** Sets the campaign's bid on its Bidding section, the last gap of a new draft. */
async function setBid(editor: CampaignEditor, id: string, bid: string) {
  await editor.page.goto(`/campaigns/${id}/bidding`);
  await editor.bid.fill(bid);
  await editor.saveSection();
  await expect(editor.toast(en("toast.changesSaved"))).toBeVisible();
}

/** A section of the editor: the region named by its heading. */
function section(page: Page, heading: string): Locator {
  return page.getByRole("main").getByRole("region", { name: heading, exact: true });
}

/**
 * Nothing in the region saves, and every button and field it shows is disabled (a read-only
 * view). Controls of a form that only reads (method GET, e.g. the heatmap's period beside the
 * dayparting grid) change nothing and may stay enabled.
 */
async function expectNothingToChange(region: Locator) {
  await expect(region.getByRole("button", { name: /^Save\b/ })).toHaveCount(0);
  const enabled = await region.evaluate((root) =>
    [...root.querySelectorAll<HTMLButtonElement | HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>("button, input:not([type=hidden]), select, textarea")]
      .filter((control) => !control.form || control.form.method.toLowerCase() !== "get")
      .filter((control) => !control.matches(":disabled") && control.checkVisibility())
      .map((control) => control.outerHTML.slice(0, 120)),
  );
  expect(enabled, "controls a user could change").toEqual([]);
}

test.describe("'Ready to activate?'", () => {
  test.use({ role: "retailerAdmin" });

  test("is asked on a complete draft, where Activate is offered, and no longer once the campaign runs", { tag: "@nojs" }, async ({ app, baseURL }) => {
    test.slow(); // A wallet, a bid, a wallet choice and the activation: with JavaScript off, each a full page.
    const { page } = app;
    const walletLabel = await createFundedWallet(page);
    const name = uniqueName("Readiness");
    const id = await createCampaign(page, baseURL!, { name, startDay: parisDay() });
    const editor = new CampaignEditor(page);
    await setBid(editor, id, "0.50");
    await page.goto(`/campaigns/${id}`);
    await editor.wallet.selectOption({
      label: et("general.walletOption", { label: walletLabel, balance: "€100.00", credit: "€100.00", status: et("general.walletStatus.active") }),
    });
    await editor.saveSection();
    await expect(editor.toast(en("toast.changesSaved"))).toBeVisible();

    await expect(editor.badge).toHaveText(ct("liveStatus.draft"));
    await expect(editor.readiness).toContainText(et("readiness.complete"));
    await expect(editor.action("enable")).toBeVisible();

    await editor.act("enable");
    await expect(editor.toast(ct("toast.action.enable", { name }))).toBeVisible();
    await expect(editor.badge).toHaveText(ct("liveStatus.running"));
    await expect(editor.action("enable")).toHaveCount(0);
    await expect(page.getByText(et("readiness.title"))).toHaveCount(0);
    await expect(page.getByText(et("readiness.complete"))).toHaveCount(0);
  });
});

test.describe("an archived campaign", () => {
  test.use({ role: "supplierAdmin" });

  test("shows its Products, Targeting and Banners and creative without a form to change them", { tag: "@nojs" }, async ({ app, baseURL }) => {
    test.slow(); // Three forms and four sections, with JavaScript off each a full page.
    const { page } = app;
    const name = uniqueName("Archived sections");
    const id = await createCampaign(page, baseURL!, { name, type: "banner-ads" });
    const editor = new CampaignEditor(page);

    // While it is a draft, each section has its form.
    await page.goto(`/campaigns/${id}/products`);
    const products = section(page, pt("title"));
    await products.getByLabel(pt("add.label"), { exact: true }).fill("SKU-000002");
    await submitAndWait(page, `/campaigns/${id}/products`, () => products.getByRole("button", { name: pt("add.submit"), exact: true }).click());
    await expect(products.getByRole("table")).toContainText("SKU-000002");
    await page.goto(`/campaigns/${id}/targeting`);
    await expect(section(page, ct("editor.section.targeting")).getByRole("button", { name: tt("save"), exact: true })).toBeVisible();
    await page.goto(`/campaigns/${id}/creative`);
    const creative = section(page, ct("editor.section.creative"));
    await expect(creative.getByRole("button", { name: tt("banners.save"), exact: true })).toBeVisible();
    await expect(creative.getByRole("button", { name: tt("creative.save"), exact: true })).toBeVisible();

    await editor.act("archive", "actions.confirmSubmit.archive");
    await expect(editor.toast(ct("toast.action.archive", { name }))).toBeVisible();
    await expect(editor.badge).toHaveText(ct("liveStatus.archived"));

    await page.goto(`/campaigns/${id}/products`);
    await expect(products.getByText(pt("readOnly"))).toBeVisible();
    await expect(products.getByRole("table")).toContainText("SKU-000002");
    await expect(products.getByLabel(pt("add.label"), { exact: true })).toHaveCount(0);
    // Only the period of the products' statistics may still be chosen (a GET form).
    await expect(products.locator("button:not(.period-form button)")).toHaveCount(0);
    await expect(products.locator('form[method="post"]')).toHaveCount(0);

    await page.goto(`/campaigns/${id}/targeting`);
    const targeting = section(page, ct("editor.section.targeting"));
    await expect(targeting.getByText(tt("readOnly"))).toBeVisible();
    await expect(targeting.getByRole("group", { name: tt("devices.legend") })).toBeVisible();
    await expectNothingToChange(targeting);

    await page.goto(`/campaigns/${id}/creative`);
    await expect(creative.getByText(tt("readOnly"))).toBeVisible();
    await expect(creative.getByRole("heading", { name: tt("banners.title"), exact: true })).toBeVisible();
    await expectNothingToChange(creative);
  });
});

test.describe("Activity filtered by a record", () => {
  test.use({ role: "operator" });

  /** The Activity entries (one article each) and the text of the whole page. */
  const entries = (page: Page) => page.getByRole("main").getByRole("article");

  test("by a campaign: only that campaign's changes, by its name", { tag: "@nojs" }, async ({ app, baseURL }) => {
    const { page } = app;
    const name = uniqueName("Activity campaign");
    const other = uniqueName("Activity other campaign");
    const id = await createCampaign(page, baseURL!, { name });
    await createCampaign(page, baseURL!, { name: other });
    // A second change to the campaign: its name, through the General section.
    const editor = new CampaignEditor(page);
    await page.goto(`/campaigns/${id}`);
    await editor.name.fill(`${name} renamed`);
    await editor.saveSection();
    await expect(editor.title(`${name} renamed`)).toBeVisible();

    await page.goto("/health?entity=campaign");
    await expect(entries(page).filter({ hasText: other }).first()).toBeVisible();
    await page.getByRole("link", { name: common("activity.onlyThis", { subject: `${name} renamed` }) }).first().click();
    await expect(page).toHaveURL(/\/health\?campaign=/);
    await expect(page.getByRole("main").getByRole("status")).toContainText(common("activity.filteredCampaign", { name: `${name} renamed` }));
    await expect(entries(page)).toHaveCount(2);
    for (const entry of await entries(page).all()) {
      await expect(entry.getByRole("heading")).toContainText(`${common("activity.entities.campaign")} ${name} renamed`);
    }
    await expect(entries(page).filter({ hasText: other })).toHaveCount(0);
    expect(await page.getByRole("main").innerText()).not.toContain(id);

    await page.getByRole("link", { name: common("activity.clearFilter") }).click();
    await expect(page).toHaveURL(/\/health$/);
    await expect(entries(page).filter({ hasText: other }).first()).toBeVisible();
  });

  test("by a wallet: only that wallet's changes, by its label", { tag: "@nojs" }, async ({ app }) => {
    const { page } = app;
    const label = uniqueName("Activity wallet");
    const other = uniqueName("Activity other wallet");
    await createWalletThroughForm(page, other);
    const id = await createWalletThroughForm(page, label, { dailyBudget: "20.00" });
    await postWalletEntry(page, "credit", "40.00", "ACT-FILTER");

    await page.goto("/health?entity=wallet");
    await expect(entries(page).filter({ hasText: other }).first()).toBeVisible();
    await page.getByRole("link", { name: common("activity.onlyThis", { subject: label }) }).first().click();
    await expect(page).toHaveURL(/\/health\?wallet=/);
    await expect(page.getByRole("main").getByRole("status")).toContainText(common("activity.filteredWallet", { name: label }));
    await expect(entries(page).first()).toBeVisible();
    for (const entry of await entries(page).all()) {
      await expect(entry.getByRole("heading")).toContainText(`${common("activity.entities.wallet")} ${label}`);
    }
    await expect(entries(page).filter({ hasText: other })).toHaveCount(0);
    expect(await page.getByRole("main").innerText()).not.toContain(id);
  });
});
