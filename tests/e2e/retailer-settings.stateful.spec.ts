/**
 * The retailer settings screen. Saving changes the whole server's settings (every campaign's bid
 * limits), so this runs in the stateful project, one test at a time, and puts the defaults back.
 */
import fs from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./a11y";
import { CampaignEditor, createCampaign, createFundedWallet, en, enTexts, expect, parisDay, Shell, submitAndWait, test, uniqueName } from "./fixtures";

const ct = enTexts("campaigns");
const ih = enTexts("imageHosts");
const kt = enTexts("campaignKeywords");
const pt = enTexts("campaignPreview");
const et = enTexts("campaignEditor");

/** axe runs inside the page, so only where JavaScript is on. */
async function checkA11y(page: Page, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
}

const dict = JSON.parse(fs.readFileSync(new URL("../../locales/en-GB/retailer.json", import.meta.url), "utf8")) as Record<string, unknown>;
function r(key: string, values: Record<string, string | number> = {}): string {
  const found = key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], dict);
  if (typeof found !== "string") throw new Error(`No en-GB retailer text for ${key}`);
  return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? `{{${name}}}`));
}

const PATH = "/settings/retailer";

class RetailerSettingsPage {
  readonly heading: Locator;
  readonly save: Locator;
  readonly resetToggle: Locator;
  readonly resetConfirm: Locator;
  readonly defaultsNotice: Locator;
  readonly conflict: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: r("title"), exact: true });
    this.save = page.getByRole("button", { name: r("save"), exact: true });
    this.resetToggle = page.getByText(r("reset.action"), { exact: true });
    this.resetConfirm = page.getByRole("button", { name: r("reset.confirm"), exact: true });
    this.defaultsNotice = page.getByText(r("defaultsInForce"), { exact: true });
    this.conflict = page.getByRole("alert").filter({ hasText: r("errors.conflict") });
  }

  async goto() {
    await this.page.goto(PATH);
    await expect(this.heading).toBeVisible();
  }

  type(type: "sponsored-products" | "banner-ads"): Locator {
    return this.page.getByRole("region", { name: r(`campaignTypes.${type}`), exact: true });
  }

  /** The minimum or maximum bid input of a strategy of a type. */
  limit(type: "sponsored-products" | "banner-ads", strategy: "CPC" | "CPM" | "vCPM" | "FIXED", end: "min" | "max"): Locator {
    return this.type(type).getByLabel(r(`types.${end}For`, { strategy: r(`strategyShort.${strategy}`) }), { exact: true });
  }

  async submit() {
    await submitAndWait(this.page, PATH, () => this.save.click());
  }

  async saveAndSeeToast() {
    await this.submit();
    await expect(new Shell(this.page).toast(en("toast.changesSaved"))).toBeVisible();
  }

  async resetToDefaults() {
    await this.resetToggle.click();
    await submitAndWait(this.page, PATH, () => this.resetConfirm.click());
    await expect(this.defaultsNotice).toBeVisible({ timeout: 15_000 });
  }
}

test.describe("retailer settings", () => {
  test.use({ role: "operator" });
  // A long form, axe over it, and several round trips: more than the default 30 s on a busy machine.
  test.slow();

  test("an operator changes a bid limit, sees it saved, and resets to the defaults", { tag: "@nojs" }, async ({ app, baseURL, javaScriptEnabled }) => {
    const { page } = app;
    const screen = new RetailerSettingsPage(page);
    await page.goto("/settings");
    // The platform settings' last change: a date in the user's words, never a stored timestamp.
    await expect(page.getByRole("main")).toContainText(/\d{1,2} \w{3} \d{4}, \d{2}:\d{2}/);
    await expect(page.getByRole("main")).not.toContainText(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    await page.getByRole("link", { name: r("hub.link"), exact: true }).click();
    await expect(page).toHaveURL(PATH);
    await expect(screen.heading).toBeVisible();
    await expect(screen.defaultsNotice).toBeVisible();
    await checkA11y(page, javaScriptEnabled);
    // The console's words: placements labelled as on every screen, strategies per thousand displays.
    const sp = screen.type("sponsored-products");
    await expect(sp.getByRole("group", { name: r("types.placements"), exact: true }).getByRole("checkbox", { name: en("placements.plp"), exact: true })).toBeVisible();
    await expect(sp.getByRole("checkbox", { name: ct("strategies.CPM"), exact: true }).first()).toBeVisible();
    await expect(page.getByRole("main")).not.toContainText(/impression/i);

    const cpcMin = screen.limit("sponsored-products", "CPC", "min");
    await expect(cpcMin).toHaveValue("0.15");
    const preview = page.getByRole("checkbox", { name: r("options.preview"), exact: true });
    await expect(preview).not.toBeChecked();
    try {
      await cpcMin.fill("0.25");
      // Campaign preview on (spec section 4): a running campaign's editor offers its preview.
      await preview.check();
      await screen.saveAndSeeToast();
      await expect(page.getByText(r("lastChange", { by: "operator@example.com", at: "" }).trim())).toBeVisible();

      await page.reload();
      await expect(screen.limit("sponsored-products", "CPC", "min")).toHaveValue("0.25");
      // The other type's limits are untouched.
      await expect(screen.limit("banner-ads", "CPM", "max")).toHaveValue("300.00");
      await expect(preview).toBeChecked();

      if (javaScriptEnabled) {
        // A running campaign with two products: 'Preview' in its editor's header opens the ad as shoppers see it.
        const walletLabel = await createFundedWallet(page);
        const name = uniqueName("Preview e2e");
        const id = await createCampaign(page, baseURL!, { name, startDay: parisDay() });
        const added = await page.request.post(`/campaigns/${id}/products`, {
          form: { intent: "add-products", version: "1", ids: "SKU-000001 SKU-000002" },
          headers: { Origin: baseURL! },
          maxRedirects: 0,
        });
        expect(added.status()).toBeLessThan(400);
        const editor = new CampaignEditor(page);
        await page.goto(`/campaigns/${id}/bidding`);
        await editor.bid.fill("0.50");
        await editor.saveSection();
        await expect(editor.toast(en("toast.changesSaved"))).toBeVisible();
        await editor.section("general");
        await editor.wallet.selectOption({ label: et("general.walletOption", { label: walletLabel, balance: "€100.00", credit: "€100.00", status: et("general.walletStatus.active") }) });
        await editor.saveSection();
        await expect(editor.toast(en("toast.changesSaved"))).toBeVisible();
        await editor.act("enable");
        await expect(editor.badge).toHaveText(ct("liveStatus.running"));
        await page.getByRole("link", { name: pt("link"), exact: true }).click();
        await expect(page).toHaveURL(`/campaigns/${id}/preview`);
        await expect(page.getByRole("heading", { level: 1, name: pt("title", { name }) })).toBeVisible();
        const tiles = page.getByRole("region", { name: pt("products") }).getByRole("listitem");
        await expect(tiles).toHaveCount(2);
        await expect(tiles.first()).toContainText(pt("sponsored"));
        await expect(tiles.first()).toContainText(/€\d/);
        await checkA11y(page, javaScriptEnabled);
      }
    } finally {
      await screen.goto();
      await screen.resetToDefaults();
    }
    await expect(new Shell(page).toast(en("toast.changesSaved"))).toBeVisible();
    await expect(screen.limit("sponsored-products", "CPC", "min")).toHaveValue("0.15");
  });

  test("limits out of range are refused with a message beside the field, nothing saved", { tag: "@nojs" }, async ({ app, javaScriptEnabled }) => {
    const { page } = app;
    const screen = new RetailerSettingsPage(page);
    await screen.goto();
    const max = screen.limit("banner-ads", "vCPM", "max");
    const min = screen.limit("sponsored-products", "CPM", "min");
    await max.fill("1500");
    await min.fill("200");
    if (javaScriptEnabled) await screen.save.click(); // checked in the browser, no request
    else await screen.submit();
    await expect(page.getByRole("alert").filter({ hasText: r("errors.invalid") })).toBeVisible();
    await expect(max).toHaveAttribute("aria-invalid", "true");
    await expect(screen.type("banner-ads").getByText(r("errors.amount.tooHigh"), { exact: true })).toBeVisible();
    await expect(screen.type("sponsored-products").getByText(r("errors.bidLimit.minAboveMax"), { exact: true })).toBeVisible();
    await expect(max).toHaveValue("1500");
    await checkA11y(page, javaScriptEnabled);

    await screen.goto();
    await expect(screen.defaultsNotice).toBeVisible();
    await expect(screen.limit("banner-ads", "vCPM", "max")).toHaveValue("300.00");
  });

  test("a save based on settings changed meanwhile is refused, the input kept, and goes through when sent again", { tag: "@nojs" }, async ({ app, openBrowser }) => {
    const { page } = app;
    const mine = new RetailerSettingsPage(page);
    const other = await openBrowser("operator");
    const theirs = new RetailerSettingsPage(other.page);
    await mine.goto();
    await theirs.goto();
    try {
      await theirs.limit("banner-ads", "CPM", "min").fill("2");
      await theirs.saveAndSeeToast();

      await mine.limit("sponsored-products", "CPC", "min").fill("0.27");
      await mine.submit();
      await expect(mine.conflict).toBeVisible();
      await expect(mine.limit("sponsored-products", "CPC", "min")).toHaveValue("0.27");

      await mine.saveAndSeeToast();
      await mine.goto();
      await expect(mine.limit("sponsored-products", "CPC", "min")).toHaveValue("0.27");
    } finally {
      await mine.goto();
      await mine.resetToDefaults();
    }
  });
});

test.describe("floor prices", () => {
  test.use({ role: "operator" });
  test.slow();

  test("an operator sets floor prices for a keyword and a category and a product image host, sees them kept, and removes them", { tag: "@nojs" }, async ({ app, baseURL, javaScriptEnabled }) => {
    const { page } = app;
    const screen = new RetailerSettingsPage(page);
    // A campaign's keyword bid at €0.20, before the keyword has a floor.
    const campaignId = await createCampaign(page, baseURL!, { name: uniqueName("Floors e2e") });
    const keywordsPath = `/campaigns/${campaignId}/keywords`;
    await page.goto(keywordsPath);
    const add = page.getByRole("form", { name: kt("add.title") });
    await add.getByLabel(kt("add.label"), { exact: true }).fill("coffee");
    await add.getByLabel(kt("add.bid"), { exact: true }).fill("0.20");
    await submitAndWait(page, keywordsPath, () => add.getByRole("button", { name: kt("add.submit"), exact: true }).click());
    const coffeeBid = page.getByRole("table", { name: kt("caption.keyword") }).getByRole("textbox", { name: kt("bid.of", { name: "coffee" }) });
    await expect(coffeeBid).toHaveValue("0.20");
    await screen.goto();
    const floors = page.getByRole("region", { name: r("floors.title"), exact: true });
    const save = floors.getByRole("button", { name: r("floors.save"), exact: true });
    const keyword = (n: number) => floors.getByLabel(r("floors.keywordFor", { n }), { exact: true });
    const keywordPrice = (n: number) => floors.getByLabel(r("floors.priceForKeyword", { n }), { exact: true });
    const category = (n: number) => floors.getByLabel(r("floors.categoryFor", { n }), { exact: true });
    const categoryPrice = (n: number) => floors.getByLabel(r("floors.priceForCategory", { n }), { exact: true });
    const submit = () => submitAndWait(page, PATH, () => save.click());

    await keyword(1).fill("Coffee");
    await keywordPrice(1).fill("0.40");
    // A category the catalog does not have: refused beside the field, the input kept.
    await category(1).fill("Grocery > Caviar");
    await categoryPrice(1).fill("0.30");
    await submit();
    await expect(floors.getByText(r("errors.floor.unknownCategory"), { exact: true })).toBeVisible();
    await expect(category(1)).toHaveAttribute("aria-invalid", "true");
    await expect(keyword(1)).toHaveValue("Coffee");
    await checkA11y(page, javaScriptEnabled);

    try {
      await category(1).fill("Grocery > Coffee & tea");
      await submit();
      await expect(new Shell(page).toast(en("toast.changesSaved"))).toBeVisible();
      await page.reload();
      await expect(keyword(1)).toHaveValue("Coffee");
      await expect(keywordPrice(1)).toHaveValue("0.40");
      await expect(category(1)).toHaveValue("Grocery > Coffee & tea");
      await expect(categoryPrice(1)).toHaveValue("0.30");
      // A blank row under them, to add more.
      await expect(keyword(2)).toHaveValue("");

      // Product image hosts (ADR 34): a value that is not an https origin is refused by name
      // (in the browser with JavaScript, by the server without); a good one goes into img-src.
      const hosts = page.getByRole("region", { name: ih("title"), exact: true });
      const hostsField = hosts.getByLabel(ih("label"), { exact: true });
      const saveHosts = hosts.getByRole("button", { name: ih("save"), exact: true });
      await hostsField.fill("images.example-retailer.com");
      if (javaScriptEnabled) await saveHosts.click();
      else await submitAndWait(page, PATH, () => saveHosts.click());
      await expect(hosts.getByText(ih("errors.notHttpsOrigin", { value: "images.example-retailer.com" }), { exact: true })).toBeVisible();
      await hostsField.fill("https://images.example-retailer.com");
      await submitAndWait(page, PATH, () => saveHosts.click());
      await expect(new Shell(page).toast(en("toast.changesSaved"))).toBeVisible();
      const reloaded = await page.reload();
      expect(reloaded!.headers()["content-security-policy"]).toContain("img-src 'self' data: blob: https://images.example-retailer.com;");
      await expect(hostsField).toHaveValue("https://images.example-retailer.com");

      // The campaign's keyword is now under its floor: 'Apply min bid to all' raises it to €0.40.
      await page.goto(keywordsPath);
      const raise = page.getByRole("button", { name: kt("applyMinAll"), exact: true });
      await expect(page.getByText(kt("belowFloorCount_one", { count: 1 }))).toBeVisible();
      await submitAndWait(page, keywordsPath, () => raise.click());
      await expect(new Shell(page).toast(kt("toast.minAppliedAll"))).toBeVisible();
      await expect(coffeeBid).toHaveValue("0.40");
      await expect(raise).toHaveCount(0);
    } finally {
      await screen.goto();
      const hostsField = page.getByRole("region", { name: ih("title"), exact: true }).getByLabel(ih("label"), { exact: true });
      if (await hostsField.inputValue()) {
        await hostsField.fill("");
        await submitAndWait(page, PATH, () => page.getByRole("button", { name: ih("save"), exact: true }).click());
        await screen.goto();
      }
      for (const name of [r("floors.removeKeyword", { n: 1 }), r("floors.removeCategory", { n: 1 })]) {
        const tick = floors.getByLabel(name, { exact: true });
        if (await tick.count()) await tick.check();
      }
      await submit();
    }
    await expect(new Shell(page).toast(en("toast.changesSaved"))).toBeVisible();
    await expect(keyword(1)).toHaveValue("");
    await expect(category(1)).toHaveValue("");
  });
});

test.describe("retailer settings, read only", () => {
  test.use({ role: "retailerAdmin" });

  test("a retailer ADMIN sees the values without a form", async ({ app, javaScriptEnabled }) => {
    const { page } = app;
    const screen = new RetailerSettingsPage(page);
    await page.goto("/settings");
    await page.getByRole("link", { name: r("hub.link"), exact: true }).click();
    await expect(screen.heading).toBeVisible();
    await expect(page.getByText(r("readOnly"), { exact: true })).toBeVisible();
    await expect(screen.save).toHaveCount(0);
    await expect(screen.resetToggle).toHaveCount(0);
    const cpc = screen.type("sponsored-products").getByRole("row", { name: new RegExp(`^${r("strategyShort.CPC")}\\b`) });
    await expect(cpc).toContainText("€0.15");
    await expect(cpc).toContainText("€20.00");
    // Placements and slots by the labels every screen uses; strategies in the console's words (displays).
    const sp = screen.type("sponsored-products");
    await expect(sp).toContainText(["search", "plp", "pdp", "hub", "home"].map((p) => en(`placements.${p}`)).join(", "));
    await expect(sp.getByRole("rowheader", { name: en("slots.sp"), exact: true })).toBeVisible();
    await expect(sp).toContainText(ct("strategies.CPM"));
    await expect(page.getByRole("main")).not.toContainText(/impression/i);
    await checkA11y(page, javaScriptEnabled);
  });
});

test.describe("retailer settings, no access", () => {
  test.use({ role: "supplierAdmin" });

  test("a supplier is not authorized", async ({ app }) => {
    await app.page.goto(PATH);
    await expect(app.page).toHaveURL("/not-authorized");
  });
});
