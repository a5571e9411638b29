/**
 * A campaign's Products section and its History in the browser, with JavaScript on and off:
 * add products by pasting ids (an unknown one reported, a 3P one refused), switch one off, remove
 * one, remove several after a confirmation, move one by keyboard (the focus stays on it) or by a
 * typed position; then the history lists the changes and downloads as CSV. Axe on both pages (JS on).
 *
 * Every test creates its own draft (the creation form, posted as the signed-in user) and uses the
 * demo catalog (SKU-000001…SKU-000005 are 1P products, SKU-000006 is 3P, of several brands: a
 * retailer may sponsor any of them; SKU-000002 and SKU-000020 are Acme's, which the Acme Brand
 * team's supplier may sponsor), so the specs running in parallel, and the JS-on and JS-off
 * servers, never share a campaign.
 */
import fs from "node:fs";
import Papa from "papaparse";
import type { Locator, Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./a11y";
import { addProductIds, createCampaign, demoProductIds, enTexts, expect, submitAndWait, test, uniqueName } from "./fixtures";


/** Texts of the campaignProducts namespace (locales/en-GB/campaignProducts.json). */
const pt = enTexts("campaignProducts");
const pickerT = enTexts("campaignProductPicker");
const ct = enTexts("campaigns");
const tc = enTexts("common");


function createProductsCampaign(page: Page, baseURL: string, name = uniqueName("Products e2e")): Promise<string> {
  return createCampaign(page, baseURL, { name });
}

class ProductsPage {
  readonly heading: Locator;
  readonly ids: Locator;
  readonly add: Locator;
  readonly table: Locator;
  readonly idsError: Locator;
  readonly alert: Locator;
  readonly bulk: Locator;
  readonly confirmation: Locator;

  constructor(
    readonly page: Page,
    readonly id: string,
  ) {
    this.heading = page.getByRole("heading", { level: 2, name: pt("title"), exact: true });
    this.ids = page.getByLabel(pt("add.label"), { exact: true });
    this.add = page.getByRole("button", { name: pt("add.submit"), exact: true });
    this.table = page.getByRole("table", { name: pt("caption") });
    this.idsError = page.locator(".products-add .field-errors");
    this.alert = page.getByRole("alert");
    this.bulk = page.getByRole("form", { name: pt("bulk.label") });
    this.confirmation = page.getByRole("region", { name: /^Remove (this product|these \d+ products) from the campaign\?$/ });
  }

  get path() {
    return `/campaigns/${this.id}/products`;
  }

  async goto() {
    await this.page.goto(this.path);
    await expect(this.heading).toBeVisible();
  }

  /** Pastes ids in the box and sends them; resolves once the server answered. */
  async addIds(text: string) {
    await this.ids.fill(text);
    await submitAndWait(this.page, this.path, () => this.add.click());
  }

  /** The row whose id cell is exactly this id (other rows' buttons may name it in their labels). */
  row(id: string): Locator {
    return this.table.locator("tbody tr").filter({ has: this.table.page().locator(".products-id", { hasText: new RegExp(`^\\s*${id}\\s*$`) }) });
  }

  rowButton(id: string, name: string): Locator {
    return this.row(id).getByRole("button", { name: new RegExp(`^(↑ |↓ )?${name} `) });
  }

  async click(button: Locator) {
    await submitAndWait(this.page, this.path, () => button.click());
  }

  /** The product ids of the rows, in the order shown. */
  get shownIds(): Locator {
    return this.table.locator("tbody .products-id");
  }

  async order(): Promise<string[]> {
    return (await this.shownIds.allTextContents()).map((s) => s.trim());
  }
}

test.describe("campaign products", () => {
  // A retailer's staff may sponsor products of every brand, 3P ones too (a supplier only its brands').
  test.use({ role: "retailerAdmin" });

  test("add products by pasting ids, see the unknown one reported and a 3P one refused, switch one off, remove one, remove two after a confirmation", { tag: "@nojs" }, async ({ page, app, baseURL, javaScriptEnabled }) => {
    test.slow(); // A dozen round trips, each a full page without JavaScript.
    const id = await createProductsCampaign(page, baseURL!);
    const products = new ProductsPage(page, id);
    await products.goto();
    await expect(page.getByText(pt("empty"))).toBeVisible();
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);

    await products.addIds("SKU-000001, SKU-000002;SKU-000003\nsku-000004 NOPE-000999");
    await expect(page.getByRole("status").filter({ hasText: pt("report.added_other", { count: 4 }) })).toBeVisible();
    await expect(products.idsError).toHaveText(pt("errors.unknownIds", { ids: "NOPE-000999" }));
    await expect(products.ids).toHaveValue("NOPE-000999");
    await expect(products.table.locator("tbody tr")).toHaveCount(4);
    await expect(products.row("SKU-000002")).toContainText("In stock");
    await expect(products.row("SKU-000002")).toContainText("1P");
    // The table fits its card at 1,280 px (no inner scroll; the last figure visible) and becomes
    // label–value cards at 390 px, its Remove button on screen.
    const size = page.viewportSize()!;
    await page.setViewportSize({ width: 1280, height: 800 });
    const wrap = products.table.locator("xpath=..");
    expect(await wrap.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 390, height: 800 });
    expect(await products.table.locator("tbody tr").first().evaluate((e) => getComputedStyle(e).display)).toBe("block");
    const remove = (await products.rowButton("SKU-000002", pt("remove")).boundingBox())!;
    expect(remove.x + remove.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await page.setViewportSize(size);

    // A 3P product in this 1P campaign: refused with the spec's message, nothing added.
    await products.addIds("SKU-000006");
    await expect(products.alert.filter({ hasText: pt("errors.mixedParty") })).toContainText(pt("failure.upsertProduct"));
    await expect(products.table.locator("tbody tr")).toHaveCount(4);
    await expect(products.ids).toHaveValue("SKU-000006");

    // Someone else switches SKU-000001 off meanwhile (the campaign is at version 2 since the
    // addition): switching it off here is refused, and the page then shows it off, its forms
    // carrying the new version, so the next change goes through.
    const meanwhile = await page.request.post(products.path, {
      form: { intent: "toggle-product", version: "2", productId: "SKU-000001", state: "off" },
      headers: { Origin: baseURL! },
      maxRedirects: 0,
    });
    expect(meanwhile.status()).toBe(302);
    await products.click(products.rowButton("SKU-000001", pt("toggle.off")));
    await expect(products.alert.filter({ hasText: tc("errors.conflict") })).toBeVisible();
    await expect(products.rowButton("SKU-000001", pt("toggle.on"))).toBeVisible();

    // Switch one off.
    await products.click(products.rowButton("SKU-000002", pt("toggle.off")));
    await expect(app.shell.toast(pt("toast.switchedOff", { id: "SKU-000002" }))).toBeVisible();
    await expect(products.row("SKU-000002")).toContainText(pt("status.off"));
    await expect(products.rowButton("SKU-000002", pt("toggle.on"))).toBeVisible();
    await expect(page.getByText(pt("summary_other", { count: 4, on: 2 }))).toBeVisible();

    // Remove one, by keyboard: the focused button goes with its row; the focus is not lost (on the
    // page's body, so the next Tab would start again from the top) but on the same button of the
    // row now in its place; without JS the reloaded page is at that row and Tab goes on from it.
    await products.rowButton("SKU-000003", pt("remove")).focus();
    await submitAndWait(page, products.path, () => page.keyboard.press("Enter"));
    await expect(app.shell.toast(pt("toast.removed_one", { count: 1 }))).toBeVisible();
    await expect(products.row("SKU-000003")).toHaveCount(0);
    if (javaScriptEnabled) await expect(products.rowButton("SKU-000004", pt("remove"))).toBeFocused();
    else {
      await page.keyboard.press("Tab");
      await expect(products.row("SKU-000004").locator(":focus")).toHaveCount(1);
    }
    await expect(products.table.locator("tbody tr")).toHaveCount(3);

    // Remove two: a confirmation first.
    await products.row("SKU-000001").getByRole("checkbox").check();
    await products.row("SKU-000004").getByRole("checkbox").check();
    await products.click(products.bulk.getByRole("button", { name: pt("bulk.remove") }));
    await expect(products.confirmation).toContainText(pt("bulk.confirmTitle_other", { count: 2 }));
    // It takes the focus and is in view, also on the page an answer without JavaScript loads.
    await expect(products.confirmation).toBeFocused();
    await expect(products.confirmation).toBeInViewport();
    await expect(products.table.locator("tbody tr")).toHaveCount(3);
    await products.click(products.confirmation.getByRole("button", { name: pt("bulk.confirmSubmit_other", { count: 2 }) }));
    await expect(app.shell.toast(pt("toast.removed_other", { count: 2 }))).toBeVisible();
    await expect(products.confirmation).toHaveCount(0);
    await expect(products.table.locator("tbody tr")).toHaveCount(1);
    await expect(products.row("SKU-000002")).toBeVisible();
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);

    // The last one, by keyboard: the list is empty, the focus on its heading (JS).
    await products.rowButton("SKU-000002", pt("remove")).focus();
    await submitAndWait(page, products.path, () => page.keyboard.press("Enter"));
    await expect(page.getByText(pt("empty"))).toBeVisible();
    if (javaScriptEnabled) await expect(page.getByRole("heading", { name: pickerT("list.title"), exact: true })).toBeFocused();
  });

  test("move a product by keyboard: the list reorders and the focus stays on the moved product; a typed position reorders it too", { tag: "@nojs" }, async ({ page, baseURL }) => {
    test.slow(); // Each move is a full page without JavaScript.
    const id = await createProductsCampaign(page, baseURL!);
    const products = new ProductsPage(page, id);
    await products.goto();
    await products.addIds("SKU-000001 SKU-000002 SKU-000003");
    await expect(products.table.locator("tbody tr")).toHaveCount(3);
    const before = await products.order();

    const moved = before[2]!;
    const up = products.rowButton(moved, pt("move.up"));
    await up.focus();
    await submitAndWait(page, products.path, () => page.keyboard.press("Enter"));
    await expect(products.shownIds).toHaveText([before[0]!, moved, before[1]!]);
    await expect(products.rowButton(moved, pt("move.up"))).toBeFocused();
    // Once more: now first, its Up button is disabled and the focus moves to Down.
    await submitAndWait(page, products.path, () => page.keyboard.press("Enter"));
    await expect(products.shownIds).toHaveText([moved, before[0]!, before[1]!]);
    await expect(products.rowButton(moved, pt("move.up"))).toBeDisabled();
    await expect(products.rowButton(moved, pt("move.down"))).toBeFocused();
    // The positions are numbered as shown.
    const position = (id: string) => products.row(id).getByRole("spinbutton", { name: new RegExp(`^${pt("positions.of", { name: "" })}`) });
    await expect(position(moved)).toHaveValue("1");

    // A position typed and saved: the product goes last.
    await position(moved).fill("3");
    await position(before[0]!).fill("1");
    await position(before[1]!).fill("2");
    await products.click(page.getByRole("button", { name: pt("positions.save"), exact: true }));
    await expect(products.shownIds).toHaveText([before[0]!, before[1]!, moved]);
    await expect(position(moved)).toHaveValue("3");
  });

  test("a campaign of 120 products: page 2 reads '51–100 of 120'; 'Switch off all 120' asks first, then switches every product off and comes back to page 2", { tag: "@nojs" }, async ({ page, app, baseURL, javaScriptEnabled }) => {
    // Three pages of Acme's 1P products, added in one request (not through 120 clicks).
    const id = await createProductsCampaign(page, baseURL!);
    await addProductIds(page, baseURL!, id, demoProductIds(120));
    const products = new ProductsPage(page, id);
    await page.goto(`${products.path}?page=2`);
    const onPage2 = new RegExp(`${products.path}\\?page=2$`);
    const pages = page.getByRole("navigation", { name: pt("pages.label"), exact: true });
    const range = pt("pages.range", { first: 51, last: 100, total: 120 });
    await expect(pages).toContainText(range);
    await expect(page.getByRole("navigation", { name: pt("pages.labelBottom"), exact: true })).toContainText(range);
    await expect(products.table.locator("tbody tr")).toHaveCount(50);
    await expect(page.getByText(pt("summary_other", { count: 120, on: 120 }))).toBeVisible();
    const switchOn = products.table.getByRole("button", { name: new RegExp(`^${pt("toggle.on")} `) });
    await expect(switchOn).toHaveCount(0);

    // 'Switch off all 120': a confirmation first, on the same page, saying how many; nothing switched yet.
    const all = page.getByRole("form", { name: pt("bulkAll.label") });
    await expect(all).toContainText(pt("bulkAll.help_other", { count: 120 }));
    await products.click(all.getByRole("button", { name: pt("bulkAll.off_other", { count: 120 }), exact: true }));
    const confirmation = page.getByRole("region", { name: pt("bulkAll.confirmOff_other", { count: 120 }) });
    await expect(confirmation).toBeFocused();
    await expect(confirmation).toBeInViewport();
    await expect(page).toHaveURL(onPage2);
    await expect(pages).toContainText(range);
    await expect(page.getByText(pt("summary_other", { count: 120, on: 120 }))).toBeVisible();

    // Confirmed: every product off, said by the toast and the summary, back on page 2.
    await products.click(confirmation.getByRole("button", { name: pt("bulkAll.confirmSubmitOff_other", { count: 120 }) }));
    await expect(app.shell.toast(pt("toast.bulkOff_other", { count: 120 }))).toBeVisible();
    await expect(page.getByText(pt("summary_other", { count: 120, on: 0 }))).toBeVisible();
    await expect(confirmation).toHaveCount(0);
    // With JavaScript the focus is back on the button that asked (as after Cancel), not lost.
    if (javaScriptEnabled) await expect(all.getByRole("button", { name: pt("bulkAll.off_other", { count: 120 }), exact: true })).toBeFocused();
    await expect(page).toHaveURL(onPage2);
    await expect(pages).toContainText(range);
    await expect(switchOn).toHaveCount(50);
    // The other pages too.
    await page.goto(`${products.path}?page=3`);
    await expect(pages).toContainText(pt("pages.range", { first: 101, last: 120, total: 120 }));
    await expect(switchOn).toHaveCount(20);
  });

  test("a supplier viewer sees the products without forms", async ({ page, baseURL, openBrowser }) => {
    const id = await createProductsCampaign(page, baseURL!);
    const products = new ProductsPage(page, id);
    await products.goto();
    await products.addIds("SKU-000005");
    const viewer = await openBrowser("supplierViewer");
    const seen = new ProductsPage(viewer.page, id);
    await seen.goto();
    await expect(seen.row("SKU-000005")).toBeVisible();
    await expect(viewer.page.getByText(pt("readOnly"))).toBeVisible();
    await expect(seen.ids).toHaveCount(0);
    await expect(viewer.page.getByRole("button", { name: new RegExp(pt("remove")) })).toHaveCount(0);
  });
});

test.describe("campaign history", () => {
  test.use({ role: "supplierAdmin" });

  test("open the history after changes and download it as CSV", async ({ page, baseURL, javaScriptEnabled }) => {
    test.slow(); // Several round trips, axe, and a download.
    const name = uniqueName("History e2e");
    const id = await createProductsCampaign(page, baseURL!, name);
    const products = new ProductsPage(page, id);
    await products.goto();
    await products.addIds("SKU-000002 SKU-000020");
    await expect(products.table.locator("tbody tr")).toHaveCount(2);
    await products.click(products.rowButton("SKU-000020", pt("toggle.off")));
    await expect(products.row("SKU-000020")).toContainText(pt("status.off"));
    // The history names products by their titles, as this table does.
    const title = async (sku: string) => ((await products.row(sku).locator(".products-name strong").textContent()) ?? "").trim();
    const [phone, other] = [await title("SKU-000002"), await title("SKU-000020")];
    expect(phone && other).toBeTruthy();

    await page.getByRole("navigation", { name: ct("editor.sections") }).getByRole("link", { name: ct("editor.section.history") }).click();
    await expect(page.getByRole("heading", { level: 2, name: pt("history.title") })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/campaigns/${id}/history$`));
    const entries = page.getByRole("article");
    await expect(entries).toHaveCount(3);
    // Newest first: the switch-off, the addition, the creation.
    await expect(entries.nth(0).getByRole("heading")).toContainText(`${pt("history.actions.update")} · ${pt("history.by", { by: "Sam Supplier" })}`);
    await expect(entries.nth(0)).toContainText(pt("history.offers.switchedOff", { titles: other }));
    const productIds = entries.nth(0).getByRole("row").filter({ has: page.getByRole("rowheader", { name: new RegExp(`^${pt("history.fields.productIds")}`) }) });
    await expect(productIds.getByRole("cell").nth(0)).toHaveText(`${phone}, ${other}`);
    await expect(productIds.getByRole("cell").nth(1)).toHaveText(phone);
    await expect(entries.nth(1)).toContainText(pt("history.offers.added", { titles: `${phone}, ${other}` }));
    await expect(entries.nth(1)).not.toContainText("SKU-0000");
    await expect(entries.nth(2).getByRole("heading")).toContainText(pt("history.actions.create"));
    await expect(entries.nth(2).getByRole("row").filter({ has: page.getByRole("rowheader", { name: pt("history.fields.name"), exact: true }) }).first()).toContainText(name);
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);

    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: pt("history.download") }).click();
    const download = await downloading;
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" }).format(new Date());
    expect(download.suggestedFilename()).toMatch(new RegExp(`^campaign-history-e2e-[a-z0-9-]+-history-${today}\\.csv$`));
    const csv = fs.readFileSync((await download.path())!, "utf8").replace(/^\uFEFF/, "");
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe("Date (Europe/Paris),By,Action,Field,Before,After");
    // The screen's words: the actor's name, labels, products by title, "(none)" for nothing.
    const rows = Papa.parse<string[]>(csv).data;
    expect(rows.some((r) => r[1] === "Sam Supplier" && r[2] === "Edited" && r[3] === "Products switched on" && r[4] === `${phone}, ${other}` && r[5] === phone)).toBe(true);
    expect(rows.some((r) => r[2] === "Created" && r[3] === "Name" && r[4] === "(none)" && r[5] === name)).toBe(true);
    expect(csv).not.toMatch(/SKU-0000|\d{4}-\d{2}-\d{2}T|[{}]/);
    // Still on the history page.
    await expect(page.getByRole("heading", { level: 2, name: pt("history.title") })).toBeVisible();
  });
});
