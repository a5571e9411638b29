/**
 * The quick campaign builder in the browser, with JavaScript on and off (issue 10 §3): from the
 * spec's deep link /campaigns/quick-{team}, a missing name refused with the spec's message, the
 * suggested products ticked (with JavaScript one more found and ticked with the keyboard in the
 * search-as-you-type list), keywords typed one per line, the suggested categories, then one
 * 'Create draft' that opens the editor with the products and targets. Axe on every step (JS on).
 */
import { expectNoSeriousA11yViolations } from "./a11y";
import { enTexts, expect, submitAndWait, test, uniqueName } from "./fixtures";

const qt = enTexts("quickBuilder");
const ct = enTexts("campaigns");
const xt = enTexts("pickers");
const et = enTexts("campaignEditor");

test.describe("quick campaign builder", () => {
  test.use({ role: "supplierAdmin" });

  test("builds a draft in five steps from the deep link: suggested products, typed keywords, suggested categories, then opens the editor", { tag: "@nojs" }, async ({ page, javaScriptEnabled }) => {
    test.slow();
    await page.goto("/campaigns/quick-acme-brand");
    await expect(page).toHaveURL(/\/teams\/acme-brand\/campaigns\/quick/);
    const step = (n: number, name: string) => page.getByRole("heading", { level: 3, name: qt("stepTitle", { n, total: 5, name: qt(`steps.${name}`) }) });
    const next = page.getByRole("button", { name: qt("next"), exact: true });
    await expect(step(1, "general")).toBeVisible();
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);

    // No name: the spec's message, the step kept, the focus on the name.
    await next.click();
    await expect(page.getByRole("alert").filter({ hasText: "Cannot create campaign without Name and Start Date" }).first()).toBeVisible();
    await expect(step(1, "general")).toBeVisible();
    await expect(page.getByLabel(ct("fields.name"), { exact: true })).toBeFocused();
    const name = uniqueName("Quick e2e");
    await page.getByLabel(ct("fields.name"), { exact: true }).fill(name);
    // A campaign bid under the minimum: refused, the focus on that field (not on Next, far below the message).
    const bidField = page.getByLabel(qt("campaignBid", { currency: "EUR" }), { exact: true });
    const minimum = await bidField.inputValue();
    await bidField.fill("0.01");
    await next.click();
    await expect(bidField).toBeFocused();
    await bidField.fill(minimum);
    // The campaign's own bid comes filled with the retailer's minimum for the chosen strategy (its option names the range).
    const campaignBid = await page.getByLabel(qt("campaignBid", { currency: "EUR" }), { exact: true }).inputValue();
    expect(Number(campaignBid)).toBeGreaterThan(0);
    await expect(page.getByLabel(ct("fields.bidStrategy"), { exact: true }).locator("option:checked")).toContainText(`€${campaignBid} `);
    await page.getByLabel(qt("bid", { currency: "EUR" }), { exact: true }).fill("0.50");
    await next.click();

    // Products: the suggestions come ticked. The step's title has the focus (the next Tab goes
    // into the step), with JS as without (there the page loads at the title, #quick-step-title).
    await expect(step(2, "products")).toBeFocused();
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
    // Back first, then the primary Next, apart from each other.
    const buttons = page.locator(".quick-step-buttons").getByRole("button");
    await expect(buttons).toHaveText([qt("back"), qt("next")]);
    const [backBox, nextBox] = [await buttons.nth(0).boundingBox(), await buttons.nth(1).boundingBox()];
    expect(nextBox!.x - (backBox!.x + backBox!.width)).toBeGreaterThanOrEqual(6);
    const products = page.getByRole("group", { name: qt("suggested") }).getByRole("checkbox");
    await expect(products.first()).toBeChecked();
    const ticked = await products.evaluateAll((boxes) => boxes.filter((b) => (b as HTMLInputElement).checked).length);
    expect(ticked).toBeGreaterThan(0);
    let picked: string | null = null;
    if (javaScriptEnabled) {
      // The search as you type (the shared combobox): a product ticked with the keyboard, the step kept.
      const field = page.getByRole("combobox", { name: qt("searchProducts") });
      await field.click();
      await field.pressSequentially("arabica", { delay: 20 });
      const first = page.getByRole("listbox", { name: xt("quick.listLabel") }).getByRole("option").first();
      await expect(first).toContainText("Arabica");
      await page.keyboard.press("ArrowDown");
      await expect(field).toHaveAttribute("aria-activedescendant", (await first.getAttribute("id"))!);
      picked = (await first.locator(".picker-option-title").textContent())!;
      await page.keyboard.press("Enter");
      await expect(page.getByRole("checkbox", { name: picked })).toBeChecked();
      await expect(page.locator(".quick-builder [role=status]")).toHaveText(xt("quick.chosen", { title: picked.split(" · ")[0] }));
      await page.keyboard.press("Escape");
      await expect(step(2, "products")).toBeVisible();
    }
    await next.click();

    // Keywords: one per line, replacing the suggestions.
    await expect(step(3, "keywords")).toBeFocused();
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
    await page.getByLabel(qt("keywords"), { exact: true }).fill("quick e2e coffee\nquick e2e beans");
    await next.click();

    // Categories: the products' categories, product-list ones ticked.
    await expect(step(4, "categories")).toBeVisible();
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
    const plp = page.getByRole("group", { name: qt("categoriesLegend") }).getByRole("checkbox");
    await expect(plp.first()).toBeChecked();
    await next.click();

    // Review: Back keeps everything; then create.
    await expect(step(5, "review")).toBeVisible();
    await page.getByRole("button", { name: qt("back"), exact: true }).click();
    await expect(step(4, "categories")).toBeVisible();
    await next.click();
    await expect(page.getByText(qt("keywordCount_other", { count: 2, list: "quick e2e coffee, quick e2e beans" }))).toBeVisible();
    if (picked) await expect(page.locator(".quick-review").getByText(picked, { exact: true })).toBeVisible();
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
    await submitAndWait(page, "/teams/acme-brand/campaigns/quick", () => page.getByRole("button", { name: qt("create"), exact: true }).click());
    await expect(page).toHaveURL(/\/campaigns\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("status").filter({ hasText: qt("toast.created", { name }) })).toBeVisible();
    await expect(page.getByRole("heading", { name })).toBeVisible();
    // Complete with the campaign bid of step 1: nothing says it cannot be activated.
    await expect(page.getByText(et("readiness.incomplete"))).toHaveCount(0);
  });
});
