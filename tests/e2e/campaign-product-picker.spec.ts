/**
 * Issue 10 section 2, products, in the browser with JavaScript on and off: find products by
 * search (a combobox with JavaScript, a GET form with Add buttons without) and add one, only of
 * the supplier's brands; import a CSV with a bad line and an unknown SKU and read the report;
 * reorder by keyboard (Alt+↓ on a handle, announced) and by drag and drop with JavaScript, by the
 * Down button's form without; axe on the page with the list of matches open.
 *
 * The demo catalog: "Arabica" matches two Acme products (SKU-000988, SKU-001105) that the Acme
 * Brand supplier may sponsor, and others of other brands it may not; SKU-000002 and SKU-000020
 * are Acme's too. Each test creates its own draft.
 */
import type { Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./a11y";
import { addProductIds, createCampaign, demoProductIds, enTexts, expect, submitAndWait, test, uniqueName } from "./fixtures";

const xt = enTexts("campaignProductPicker");
const pt = enTexts("campaignProducts");

function table(page: Page) {
  return page.getByRole("table", { name: pt("caption") });
}

async function shownIds(page: Page): Promise<string[]> {
  return (await table(page).locator("tbody .products-id").allTextContents()).map((s) => s.trim());
}

function row(page: Page, id: string) {
  return table(page).locator("tbody tr").filter({ has: page.locator(".products-id", { hasText: new RegExp(`^\\s*${id}\\s*$`) }) });
}

async function addIds(page: Page, path: string, ids: string) {
  await page.getByLabel(pt("add.label"), { exact: true }).fill(ids);
  await submitAndWait(page, path, () => page.getByRole("button", { name: pt("add.submit"), exact: true }).click());
}

test.describe("product picker, CSV import and reordering", () => {
  test.use({ role: "supplierAdmin" });

  test("find products by search and add one, only of the team's brands; import a CSV with a bad line and an unknown SKU", { tag: "@nojs" }, async ({ page, baseURL, javaScriptEnabled }) => {
    const id = await createCampaign(page, baseURL!, { name: uniqueName("Picker e2e") });
    const path = `/campaigns/${id}/products`;
    await page.goto(path);
    const field = page.getByLabel(xt("picker.label"), { exact: true });
    // With nothing typed, suggestions with Add buttons.
    await expect(page.getByRole("heading", { name: xt("picker.suggestions") })).toBeVisible();

    let added: string;
    if (javaScriptEnabled) {
      await expect(page.getByRole("combobox", { name: xt("picker.label") })).toBeVisible();
      await field.click();
      await field.pressSequentially("arabica", { delay: 20 });
      const listbox = page.getByRole("listbox", { name: xt("picker.listLabel") });
      await expect(listbox.getByRole("option")).toHaveCount(2);
      await expect(listbox).not.toContainText("Kaffeehaus");
      await expect(page.locator(".product-picker [role=status]")).toHaveText(xt("picker.foundCount_other", { count: 2 }));
      await page.keyboard.press("ArrowDown");
      const first = listbox.getByRole("option").first();
      await expect(first).toHaveAttribute("aria-selected", "true");
      await expect(field).toHaveAttribute("aria-activedescendant", (await first.getAttribute("id"))!);
      added = (await first.textContent())!.match(/SKU-\d{6}/)![0];
      await submitAndWait(page, path, () => page.keyboard.press("Enter"));
      await expect(row(page, added)).toBeVisible();
      await expect(page.locator(".product-picker [role=status]")).toContainText("added to the campaign");
      await expect(field).toBeFocused();
      await page.keyboard.press("Escape");
      await expect(listbox).toBeHidden();
    } else {
      await field.fill("arabica");
      await field.press("Enter");
      await expect(page.getByRole("heading", { name: xt("picker.results", { query: "arabica" }) })).toBeVisible();
      const results = page.locator(".picker-results > li");
      await expect(results).toHaveCount(2);
      await expect(page.locator(".picker-results")).not.toContainText("Kaffeehaus");
      added = "SKU-000988";
      await submitAndWait(page, path, () => page.getByRole("button", { name: "Add Acme Coffee Beans Arabica 1 kg", exact: true }).click());
      await expect(row(page, added)).toBeVisible();
      // The search is still there, the product now marked as in the campaign.
      expect(new URL(page.url()).searchParams.get("q")).toBe("arabica");
      await expect(page.locator(".picker-results > li").filter({ hasText: added })).toContainText(xt("picker.inCampaign"));
      // Someone else adds the other match meanwhile: this page's Add is out of date. The report
      // ('Already in the campaign') is answered on this page (the search and its results still
      // there), not on the bare Products page.
      const other = page.locator(".picker-results > li").filter({ hasText: "SKU-001105" });
      const version = await other.locator("input[name=version]").inputValue();
      const meanwhile = await page.request.post(path, { form: { intent: "add-products", version, ids: "SKU-001105" }, headers: { Origin: baseURL! }, maxRedirects: 0 });
      expect(meanwhile.status()).toBe(302);
      await submitAndWait(page, path, () => other.getByRole("button", { name: xt("picker.add") }).click());
      await expect(page.getByRole("status").filter({ hasText: pt("report.present_one", { ids: "SKU-001105" }) })).toBeVisible();
      expect(new URL(page.url()).searchParams.get("q")).toBe("arabica");
      await expect(page.getByRole("heading", { name: xt("picker.results", { query: "arabica" }) })).toBeVisible();
      await expect(other).toContainText(xt("picker.inCampaign"));
    }

    // A CSV file: one good SKU, a line without a value, an unknown SKU, another good SKU.
    await page.getByLabel(xt("import.label"), { exact: true }).setInputFiles({
      name: "skus.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("name;sku\nWater;SKU-000020\nNothing;\nUnknown;NOPE-404\nCable;SKU-000002\n"),
    });
    await submitAndWait(page, path, () => page.getByRole("button", { name: xt("import.submit"), exact: true }).click());
    const report = page.locator("#import-report");
    await expect(report).toContainText(xt("import.imported_other", { count: 2 }));
    await expect(report).toContainText(xt("import.unknown_one", { count: 1, ids: "NOPE-404" }));
    await expect(report).toContainText(xt("import.bad_one", { count: 1, lines: "3" }));
    // Without JavaScript, the product added meanwhile is there too.
    const expected = [added, "SKU-000002", "SKU-000020", ...(javaScriptEnabled ? [] : ["SKU-001105"])];
    await expect(table(page).locator("tbody tr")).toHaveCount(expected.length);
    expect((await shownIds(page)).sort()).toEqual(expected.sort());
  });

  test("on page 3 of a campaign's products with a search, an Add answers on page 3 with the search kept, and so does an out-of-date one", { tag: "@nojs" }, async ({ page, baseURL }) => {
    // Three pages of Acme's 1P products (one request), the two "Arabica" matches left out.
    const id = await createCampaign(page, baseURL!, { name: uniqueName("Picker pages e2e") });
    await addProductIds(page, baseURL!, id, demoProductIds(120, { except: ["SKU-000988", "SKU-001105"] }));
    const path = `/campaigns/${id}/products`;
    await page.goto(`${path}?page=3&q=arabica`);
    const pages = page.getByRole("navigation", { name: pt("pages.label"), exact: true });
    const results = page.getByRole("heading", { name: xt("picker.results", { query: "arabica" }) });
    const onPage3 = () => {
      const url = new URL(page.url());
      return [url.pathname, url.searchParams.get("page"), url.searchParams.get("q")];
    };
    await expect(pages).toContainText(pt("pages.range", { first: 101, last: 120, total: 120 }));
    await expect(results).toBeVisible();

    // Added: back on page 3, the search and its results still there, the product marked.
    await submitAndWait(page, path, () => page.getByRole("button", { name: "Add Acme Coffee Beans Arabica 1 kg", exact: true }).click());
    await expect(pages).toContainText(pt("pages.range", { first: 101, last: 121, total: 121 }));
    expect(onPage3()).toEqual([path, "3", "arabica"]);
    await expect(results).toBeVisible();
    await expect(page.locator(".picker-results > li").filter({ hasText: "SKU-000988" })).toContainText(xt("picker.inCampaign"));

    // The other match added meanwhile elsewhere: this page's Add is answered ('Already in the
    // campaign') on page 3 with the search, not on the first page without it.
    const other = page.locator(".picker-results > li").filter({ hasText: "SKU-001105" });
    const version = await other.locator("input[name=version]").inputValue();
    await addProductIds(page, baseURL!, id, ["SKU-001105"], Number(version));
    await submitAndWait(page, path, () => other.getByRole("button", { name: xt("picker.add") }).click());
    await expect(page.getByRole("status").filter({ hasText: pt("report.present_one", { ids: "SKU-001105" }) })).toBeVisible();
    await expect(pages).toContainText(pt("pages.range", { first: 101, last: 122, total: 122 }));
    expect(onPage3()).toEqual([path, "3", "arabica"]);
    await expect(results).toBeVisible();
    await expect(other).toContainText(xt("picker.inCampaign"));
  });

  test("reorder by keyboard and drag and drop with JavaScript, by the Down button's form without; the order is saved", { tag: "@nojs" }, async ({ page, baseURL, javaScriptEnabled }) => {
    const id = await createCampaign(page, baseURL!, { name: uniqueName("Reorder e2e") });
    const path = `/campaigns/${id}/products`;
    await page.goto(path);
    await addIds(page, path, "SKU-000002 SKU-000020 SKU-000988");
    await expect(table(page).locator("tbody tr")).toHaveCount(3);
    const [a, b, c] = await shownIds(page);

    if (javaScriptEnabled) {
      const handle = row(page, a!).locator(".products-handle");
      await handle.focus();
      const saved = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith(path));
      await page.keyboard.press("Alt+ArrowDown");
      await expect(table(page).locator("tbody .products-id")).toHaveText([b!, a!, c!]);
      await expect(page.locator("#products-reorder-status")).toHaveText(new RegExp(`moved to position 2 of 3\\.$`));
      await expect(row(page, a!).locator(".products-handle")).toBeFocused();
      await saved;
      await page.waitForLoadState("networkidle");
      // Drag the last product onto the first row.
      const dropped = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith(path));
      await row(page, c!).locator(".products-handle").dragTo(row(page, b!));
      await expect(table(page).locator("tbody .products-id")).toHaveText([c!, b!, a!]);
      await dropped;
      await page.waitForLoadState("networkidle");
      await page.reload();
      await expect(table(page).locator("tbody .products-id")).toHaveText([c!, b!, a!]);
    } else {
      await expect(page.locator(".products-handle")).toHaveCount(0);
      await submitAndWait(page, path, () => row(page, a!).getByRole("button", { name: new RegExp(`^(↓ )?${pt("move.down")} `) }).click());
      await expect(table(page).locator("tbody .products-id")).toHaveText([b!, a!, c!]);
      await page.reload();
      await expect(table(page).locator("tbody .products-id")).toHaveText([b!, a!, c!]);
    }
  });

  test("axe finds nothing serious on the Products page with the list of matches open", async ({ page, baseURL }) => {
    const id = await createCampaign(page, baseURL!, { name: uniqueName("Picker axe") });
    const path = `/campaigns/${id}/products`;
    await page.goto(path);
    await addIds(page, path, "SKU-000002");
    const field = page.getByRole("combobox", { name: xt("picker.label") });
    await field.click();
    await field.pressSequentially("acme", { delay: 20 });
    await expect(page.getByRole("listbox", { name: xt("picker.listLabel") }).getByRole("option").first()).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});
