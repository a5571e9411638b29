/**
 * A campaign's Keywords and Categories sections in the browser, with JavaScript on and off (issue
 * 10 §2): keywords typed with a bid under the floor refused with 'Minimum allowed bid' and raised
 * by 'Apply min bid' (the typed keywords kept), a row's bid fixed the same way, a keyword CSV with
 * bad lines and its report, negative keywords, a removal; a category found by the category
 * search, added as a hub after 'Apply min bid' (with JavaScript another one first picked with the
 * keyboard in the search-as-you-type list), and auto targeting switched on. Axe on both pages
 * (JS on). Each test creates its own draft, so servers and specs never share a campaign.
 *
 * The test servers have no floor price set: a target's floor is the CPC minimum bid, €0.15.
 */
import type { Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./a11y";
import { createCampaign, enTexts, expect, submitAndWait, test, uniqueName } from "./fixtures";

const kt = enTexts("campaignKeywords");
const xt = enTexts("pickers");

test.describe("campaign keywords and categories", () => {
  test.use({ role: "supplierAdmin" });

  async function submit(page: Page, path: string, act: () => Promise<unknown>) {
    await submitAndWait(page, path, act);
  }

  test("add keywords with a bid under the floor and apply the minimum, import a CSV with bad lines, fix a row's bid, save negative keywords, remove one", { tag: "@nojs" }, async ({ page, baseURL, javaScriptEnabled }) => {
    test.slow();
    const id = await createCampaign(page, baseURL!, { name: uniqueName("Keywords e2e") });
    const path = `/campaigns/${id}/keywords`;
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 2, name: kt("keywords.title"), exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: kt("section.keywords"), exact: true })).toHaveAttribute("aria-current", "page");
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);

    // A bid under the floor: refused with the spec's message, the keywords kept, 'Apply min bid' offered.
    const add = page.getByRole("form", { name: kt("add.title") });
    await add.getByLabel(kt("add.label"), { exact: true }).fill("running shoes\ntrail boots");
    await add.getByLabel(kt("add.bid"), { exact: true }).fill("0.05");
    await submit(page, path, () => add.getByRole("button", { name: kt("add.submit"), exact: true }).click());
    await expect(page.getByRole("alert").filter({ hasText: "Minimum allowed bid: €0.15" }).first()).toContainText(kt("failure.keywordList"));
    await expect(add.getByLabel(kt("add.label"), { exact: true })).toHaveValue("running shoes\ntrail boots");
    await submit(page, path, () => add.getByRole("button", { name: kt("applyMin"), exact: true }).click());
    const table = page.getByRole("table", { name: kt("caption.keyword") });
    await expect(table.locator("tbody tr")).toHaveCount(2);
    await expect(table.getByRole("textbox", { name: kt("bid.of", { name: "running shoes" }) })).toHaveValue("0.15");
    await expect(table.locator("tbody tr").first()).toContainText("€0.15"); // the floor beside the bid
    // At 390 px the rows are label–value cards: the row's Save button on screen, no sideways scroll.
    const size = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 800 });
    expect(await table.locator("tbody tr").first().evaluate((e) => getComputedStyle(e).display)).toBe("block");
    const save = (await table.locator("tbody tr").first().getByRole("button", { name: kt("row.save") }).boundingBox())!;
    expect(save.x + save.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await page.setViewportSize(size);

    // A CSV with bad lines: the good ones imported, the bad ones counted with their line numbers.
    const importForm = page.getByRole("form", { name: kt("import.title") });
    await importForm.getByLabel(kt("import.file"), { exact: true }).setInputFiles({
      name: "keywords.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("keyword,volume\nred socks,10\n,3\nblue socks,4\n  ,1\n"),
    });
    await submit(page, path, () => importForm.getByRole("button", { name: kt("import.submit"), exact: true }).click());
    const report = page.getByRole("status").filter({ hasText: kt("report.added_other", { count: 2 }) });
    await expect(report).toContainText(kt("report.bad_other", { count: 2, lines: "3, 5" }));
    await expect(table.locator("tbody tr")).toHaveCount(4);

    // A row's bid under the floor: refused on its row, then raised by the row's 'Apply min bid'.
    const bid = table.getByRole("textbox", { name: kt("bid.of", { name: "red socks" }) });
    await bid.fill("0.02");
    const row = table.locator("tr", { has: page.getByRole("textbox", { name: kt("bid.of", { name: "red socks" }) }) });
    await submit(page, path, () => row.getByRole("button", { name: `${kt("row.save")} red socks` }).click());
    await expect(page.getByRole("alert").filter({ hasText: "Minimum allowed bid: €0.15" })).toBeVisible();
    const refusedRow = table.locator("tr", { has: page.getByRole("textbox", { name: kt("bid.of", { name: "red socks" }) }) });
    await expect(refusedRow.getByRole("textbox", { name: kt("bid.of", { name: "red socks" }) })).toHaveValue("0.02");
    await submit(page, path, () => refusedRow.getByRole("button", { name: `${kt("applyMin")} red socks` }).click());
    await expect(table.getByRole("textbox", { name: kt("bid.of", { name: "red socks" }) })).toHaveValue("0.15");

    // Negative keywords.
    const negatives = page.getByRole("textbox", { name: kt("negatives.label"), exact: true });
    await negatives.fill("free\ncheap");
    await submit(page, path, () => page.getByRole("button", { name: kt("negatives.submit"), exact: true }).click());
    await expect(page.getByText(kt("keywords.summary_other", { count: 4, negatives: 2 }))).toBeVisible();

    // Remove the last row by keyboard: with JS the focus goes to the Remove button of the row
    // before it (not to the top of the page).
    const trail = table.locator("tr", { has: page.getByRole("textbox", { name: kt("bid.of", { name: "trail boots" }) }) });
    await expect(table.locator("tbody tr").last()).toContainText("trail boots");
    await trail.getByRole("button", { name: `${kt("row.remove")} trail boots` }).focus();
    await submit(page, path, () => page.keyboard.press("Enter"));
    await expect(table.locator("tbody tr")).toHaveCount(3);
    if (javaScriptEnabled) await expect(table.getByRole("button", { name: `${kt("row.remove")} running shoes` })).toBeFocused();
  });

  test("find a category, add it as a hub with a bid under the minimum after 'Apply min bid', switch auto targeting on", { tag: "@nojs" }, async ({ page, baseURL, javaScriptEnabled }) => {
    test.slow();
    const id = await createCampaign(page, baseURL!, { name: uniqueName("Categories e2e") });
    const path = `/campaigns/${id}/categories`;
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 2, name: kt("categories.title"), exact: true })).toBeVisible();
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);

    let picked = 0;
    if (javaScriptEnabled) {
      // The search as you type (the shared combobox): pick a category with the keyboard, added with the campaign's bid.
      const field = page.getByRole("combobox", { name: kt("categories.search") });
      await field.click();
      await field.pressSequentially("pasta", { delay: 20 });
      const listbox = page.getByRole("listbox", { name: xt("categories.listLabel") });
      await expect(listbox.getByRole("option").first()).toContainText("Grocery > Pasta & rice");
      await expectNoSeriousA11yViolations(page);
      await page.keyboard.press("ArrowDown");
      await expect(field).toHaveAttribute("aria-activedescendant", (await listbox.getByRole("option").first().getAttribute("id"))!);
      await submit(page, path, () => page.keyboard.press("Enter"));
      await expect(page.getByRole("table", { name: kt("caption.category") }).locator("tbody tr").filter({ hasText: "Grocery > Pasta & rice" })).toBeVisible();
      await expect(page.locator(".targets-add [role=status]")).toHaveText(xt("categories.added", { name: "Grocery > Pasta & rice" }));
      await page.keyboard.press("Escape");
      await expect(listbox).toBeHidden();
      picked = 1;
    }
    await page.getByLabel(kt("categories.search"), { exact: true }).fill("coffee");
    await page.getByRole("button", { name: kt("categories.searchSubmit"), exact: true }).click();
    const hit = page.getByRole("form", { name: kt("categories.addOne", { name: "Grocery > Coffee & tea > Coffee" }) });
    await expect(hit).toBeVisible();
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
    await hit.getByLabel(kt("categories.placement")).selectOption("hub");
    await hit.getByLabel(kt("add.bid")).fill("0.05");
    await submit(page, path, () => hit.getByRole("button", { name: kt("categories.addSubmit"), exact: true }).click());
    await expect(hit.getByRole("alert")).toContainText("Minimum allowed bid: €0.15");
    await expect(hit.getByRole("alert")).toContainText(kt("failure.category"));
    await expect(hit.getByLabel(kt("add.bid"))).toHaveValue("0.05");
    await submit(page, path, () => hit.getByRole("button", { name: kt("applyMin"), exact: true }).click());
    const table = page.getByRole("table", { name: kt("caption.category") });
    await expect(table.locator("tbody tr")).toHaveCount(1 + picked);
    await expect(table.locator("tbody tr").filter({ hasText: "Grocery > Coffee & tea > Coffee" })).toContainText(kt("placement.hub"));
    await expect(table.getByRole("textbox", { name: kt("bid.of", { name: "Grocery > Coffee & tea > Coffee" }) })).toHaveValue("0.15");
    await expect(page.getByText(kt("categories.summary", { categories: picked, hubs: 1, productCategories: 0 }))).toBeVisible();

    await submit(page, path, () => page.getByRole("button", { name: kt("auto.switchOn"), exact: true }).click());
    await expect(page.getByText(kt("auto.on"))).toBeVisible();
    await expect(page.getByRole("button", { name: kt("auto.refresh"), exact: true })).toBeVisible();
  });
});
