/**
 * Wallets and their ledger (issue 3 §3-§4) in the browser, with JavaScript on and off: create a
 * wallet, credit 100.00, debit 30.00 (no ad spend, so no runway: ADR 41), reverse the debit after a confirmation, archive
 * the wallet and a credit is refused; a keyboard-only credit; what a supplier reads; the date
 * filter and the CSV export; axe on the wallet pages.
 *
 * Every test works on wallets of the demo team "Acme Brand" with a unique label, so the specs
 * running in parallel (and the JS-on and JS-off servers) never share one.
 */
import fs from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./a11y";
import { en, expect, submitAndWait, test } from "./fixtures";

const TEAM = "acme-brand";

/** Texts of the wallets namespace (locales/en-GB/wallets.json), as the app renders them. */
const dict = JSON.parse(fs.readFileSync(new URL("../../locales/en-GB/wallets.json", import.meta.url), "utf8")) as Record<string, unknown>;
function wt(key: string, values: Record<string, string | number> = {}): string {
  const found = key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], dict);
  if (typeof found !== "string") throw new Error(`No en-GB wallets text for ${key}`);
  return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? `{{${name}}}`));
}

function unique(label: string): string {
  return `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** The Wallets tab of a team. */
class WalletListPage {
  readonly heading: Locator;
  readonly newWallet: Locator;
  readonly label: Locator;
  readonly dailyBudget: Locator;
  readonly create: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 2, name: wt("list.title"), exact: true });
    const form = page.locator("#create-wallet-form");
    this.newWallet = page.getByText(wt("create.title"), { exact: true });
    this.label = form.getByLabel(wt("fields.label"), { exact: true });
    this.dailyBudget = form.getByLabel(wt("fields.dailyBudget"), { exact: true });
    this.create = form.getByRole("button", { name: wt("create.submit") });
  }

  async goto(teamId = TEAM) {
    await this.page.goto(`/teams/${teamId}/wallets`);
    await expect(this.heading).toBeVisible();
  }

  /** The wallet's row in the table of wallets (not in the statistics table below it). */
  row(label: string): Locator {
    return this.page
      .getByRole("region", { name: wt("list.title"), exact: true })
      .getByRole("row")
      .filter({ has: this.page.getByRole("link", { name: label, exact: true }) });
  }

  /** Creates a wallet through the form; resolves on its page. */
  async createWallet(label: string, options: { dailyBudget?: string } = {}) {
    await this.goto();
    if (!(await this.label.isVisible())) await this.newWallet.click();
    await this.label.fill(label);
    if (options.dailyBudget) await this.dailyBudget.fill(options.dailyBudget);
    await submitAndWait(this.page, `/teams/${TEAM}/wallets`, () => this.create.click());
    const wallet = new WalletPage(this.page);
    await expect(wallet.heading(label)).toBeVisible();
    return wallet;
  }
}

/** One wallet: money, posting form, ledger, edit form. */
class WalletPage {
  readonly money: Locator;
  readonly balance: Locator;
  readonly postForm: Locator;
  readonly credit: Locator;
  readonly debit: Locator;
  readonly amount: Locator;
  readonly reference: Locator;
  readonly record: Locator;
  readonly refusal: Locator;
  readonly ledger: Locator;
  readonly confirmation: Locator;
  readonly editSummary: Locator;
  readonly status: Locator;
  readonly save: Locator;
  readonly archivedNotice: Locator;
  readonly from: Locator;
  readonly to: Locator;
  readonly filter: Locator;
  readonly exportCsv: Locator;

  constructor(readonly page: Page) {
    this.money = page.getByRole("region", { name: wt("page.money") });
    this.balance = this.money.locator(".wallet-balance strong");
    this.postForm = page.getByRole("region", { name: wt("entry.title") });
    this.credit = this.postForm.getByRole("radio", { name: wt("entry.types.credit") });
    this.debit = this.postForm.getByRole("radio", { name: wt("entry.types.debit") });
    this.amount = this.postForm.getByLabel(wt("fields.amount", { currency: "EUR" }), { exact: true });
    this.reference = this.postForm.getByLabel(wt("fields.reference"), { exact: true });
    this.record = this.postForm.getByRole("button", { name: wt("entry.submit") });
    this.refusal = this.postForm.getByRole("alert").filter({ hasText: wt("entry.refused") });
    this.ledger = page.getByRole("table", { name: /^Transactions of .+, newest first$/ });
    this.confirmation = page.getByRole("region", { name: /^Reverse transaction no\. \d+\?$/ });
    this.editSummary = page.getByText(wt("edit.title"), { exact: true });
    this.status = page.locator("#edit-wallet-form").getByLabel(wt("fields.status"), { exact: true });
    this.save = page.locator("#edit-wallet-form").getByRole("button", { name: en("actions.save") });
    this.archivedNotice = page.getByRole("note").filter({ hasText: wt("page.archivedNotice") });
    const filters = page.getByRole("form", { name: wt("ledger.filter") });
    this.from = filters.getByLabel(wt("ledger.from"), { exact: true });
    this.to = filters.getByLabel(wt("ledger.to"), { exact: true });
    this.filter = filters.getByRole("button", { name: en("actions.filter") });
    this.exportCsv = filters.getByRole("link", { name: wt("ledger.export") });
  }

  heading(label: string): Locator {
    return this.page.getByRole("heading", { level: 2, name: label, exact: true });
  }

  path(): string {
    return new URL(this.page.url()).pathname;
  }

  /** Posts a transaction through the form and waits for the server's answer. */
  async post(type: "credit" | "debit", amount: string, reference: string) {
    await (type === "credit" ? this.credit : this.debit).check();
    await this.amount.fill(amount);
    await this.reference.fill(reference);
    await submitAndWait(this.page, this.path(), () => this.record.click());
  }

  /**
   * Fills and sends the form without waiting for a server answer: with JavaScript, an amount the
   * browser already knows to be wrong is refused before anything is sent.
   */
  async submit(type: "credit" | "debit", amount: string, reference: string) {
    await (type === "credit" ? this.credit : this.debit).check();
    await this.amount.fill(amount);
    await this.reference.fill(reference);
    await this.record.click();
  }

  entryRow(reference: string, type: "credit" | "debit"): Locator {
    return this.ledger.getByRole("row").filter({ hasText: reference }).filter({ hasText: wt(`entry.types.${type}`) });
  }
}

test.describe("as a retailer administrator", () => {
  test.use({ role: "retailerAdmin" });

  test("create a wallet, credit 100.00, debit 30.00, see the runway, reverse the debit, archive it and a credit is refused", { tag: "@nojs" }, async ({ app, context, javaScriptEnabled }) => {
    test.slow(); // A dozen round trips, with JavaScript off each a full page.
    const { page, shell } = app;
    const label = unique("E2E wallet");
    const list = new WalletListPage(page);
    const wallet = await list.createWallet(label);
    await expect(shell.toast(wt("toast.created", { label }))).toBeVisible();
    await expect(wallet.money).toContainText(wt("runway.none"));
    await expect(wallet.page.getByText(wt("ledger.empty"))).toBeVisible();

    await wallet.post("credit", "100.00", "INV-100");
    await expect(wallet.balance).toHaveText("€100.00");
    await expect(shell.toast(wt("toast.posted"))).toBeVisible();
    await expect(wallet.entryRow("INV-100", "credit")).toContainText("€100.00");

    await wallet.post("debit", "30.00", "PO-30");
    await expect(wallet.balance).toHaveText("€70.00");
    // A manual debit lowers the balance but is no ad spend (ADR 41): no runway, nothing spent.
    await expect(wallet.money).toContainText(wt("runway.none"));
    await expect(wallet.money.getByRole("meter", { name: wt("spent.label") })).toHaveAttribute("value", "0");
    await expect(wallet.money).toContainText(wt("spent.text", { spend: "€0.00", funded: "€100.00", percent: "0%" }));
    await expect(wallet.entryRow("PO-30", "debit")).toContainText("€70.00");

    // A debit larger than the balance is refused, and nothing changes.
    await wallet.post("debit", "70.01", "PO-TOO-MUCH");
    await expect(wallet.postForm.getByText(wt("ledger.insufficientBalance"))).toBeVisible();
    await expect(wallet.amount).toHaveValue("70.01");
    await expect(wallet.balance).toHaveText("€70.00");

    // Reverse the debit: a confirmation first, then a credit that points to it.
    // By keyboard: with JS the confirmation (above the ledger) takes the focus; Cancel gives it back.
    const reverseLink = wallet.entryRow("PO-30", "debit").getByRole("link", { name: wt("ledger.reverseLabel", { seq: 2 }) });
    if (javaScriptEnabled) {
      await reverseLink.focus();
      await page.keyboard.press("Enter");
      await expect(wallet.confirmation).toBeFocused();
      await page.keyboard.press("Tab");
      await expect(wallet.confirmation.getByLabel(wt("fields.comment"))).toBeFocused();
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      await expect(wallet.confirmation.getByRole("link", { name: wt("reverse.cancel") })).toBeFocused();
      await page.keyboard.press("Enter");
      await expect(wallet.confirmation).toBeHidden();
      await expect(reverseLink).toBeFocused();
    }
    await reverseLink.click();
    await expect(wallet.confirmation).toBeVisible();
    await expect(wallet.confirmation).toContainText("€30.00");
    await expect(wallet.balance).toHaveText("€70.00");
    await submitAndWait(page, wallet.path(), () => wallet.confirmation.getByRole("button", { name: wt("reverse.confirm") }).click());
    await expect(wallet.balance).toHaveText("€100.00");
    await expect(wallet.confirmation).toBeHidden();
    await expect(wallet.entryRow("PO-30", "debit")).toContainText(wt("ledger.reversed"));
    await expect(wallet.entryRow("PO-30", "credit")).toContainText(wt("ledger.reversalOf", { seq: 2 }));
    await expect(wallet.entryRow("PO-30", "debit").getByRole("link", { name: wt("ledger.reverse") })).toHaveCount(0);

    // A second tab keeps the posting form open while the wallet is archived in this one.
    const stale = new WalletPage(await context.newPage());
    await stale.page.goto(wallet.path());
    await expect(stale.record).toBeVisible();

    await wallet.editSummary.click();
    await wallet.status.selectOption({ label: wt("status.archived") });
    await submitAndWait(page, wallet.path(), () => wallet.save.click());
    await expect(shell.toast(en("toast.changesSaved"))).toBeVisible();
    await expect(wallet.archivedNotice).toBeVisible();
    await expect(wallet.postForm).toHaveCount(0);

    await stale.post("credit", "10.00", "INV-LATE");
    await expect(stale.refusal).toContainText(wt("ledger.walletArchived"));
    await expect(stale.balance).toHaveText("€100.00");
    await page.reload();
    await expect(wallet.balance).toHaveText("€100.00");
    await expect(wallet.ledger.getByRole("row").filter({ hasText: "INV-LATE" })).toHaveCount(0);
  });

  test("a keyboard-only credit: Tab, type and Enter", async ({ app }) => {
    const { page, shell } = app;
    const label = unique("Keyboard wallet");
    const wallet = await new WalletListPage(page).createWallet(label);
    await page.reload();

    await page.keyboard.press("Tab");
    await expect(shell.skipLink).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(shell.main).toBeFocused();
    for (let i = 0; i < 30 && !(await wallet.amount.evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press("Tab");
    }
    await expect(wallet.amount).toBeFocused();
    // Credit is the type a new form starts with.
    await expect(wallet.credit).toBeChecked();
    await page.keyboard.type("100");
    await page.keyboard.press("Tab");
    await expect(wallet.reference).toBeFocused();
    await page.keyboard.type("KB-1");
    await submitAndWait(page, wallet.path(), () => page.keyboard.press("Enter"));
    await expect(wallet.balance).toHaveText("€100.00");
    await expect(wallet.entryRow("KB-1", "credit")).toBeVisible();
  });

  test("a refused amount says why and changes nothing", { tag: "@nojs" }, async ({ app }) => {
    const wallet = await new WalletListPage(app.page).createWallet(unique("Amounts wallet"));
    await wallet.submit("credit", "abc", "INV-X");
    await expect(wallet.postForm.getByText(wt("amount.invalid"))).toBeVisible();
    await wallet.submit("credit", "-5", "INV-X");
    await expect(wallet.postForm.getByText(wt("amount.notPositive"))).toBeVisible();
    await expect(wallet.balance).toHaveText("€0.00");
    await expect(app.page.getByText(wt("ledger.empty"))).toBeVisible();
  });

  test("the date filter and the CSV export of the chosen period", { tag: "@nojs" }, async ({ app }) => {
    const { page } = app;
    const label = unique("Export wallet");
    const wallet = await new WalletListPage(page).createWallet(label);
    await wallet.post("credit", "250.00", "=HYPERLINK(\"http://evil.example\")");
    await expect(wallet.balance).toHaveText("€250.00");

    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" }).format(new Date());
    const yesterday = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" }).format(new Date(Date.now() - 86_400_000));
    await wallet.from.fill(yesterday);
    await wallet.to.fill(yesterday);
    await wallet.filter.click();
    await expect(page).toHaveURL(new RegExp(`from=${yesterday}&to=${yesterday}`));
    await expect(page.getByText(wt("ledger.emptyPeriod"))).toBeVisible();

    await wallet.from.fill(today);
    await wallet.to.fill(today);
    await wallet.filter.click();
    await expect(page).toHaveURL(new RegExp(`from=${today}&to=${today}`));
    await expect(wallet.ledger.getByRole("row")).toHaveCount(2);

    const downloading = page.waitForEvent("download");
    await wallet.exportCsv.click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(new RegExp(`^wallet-export-wallet-[a-z0-9-]+-${today}-${today}\\.csv$`));
    const csv = fs.readFileSync((await download.path())!, "utf8");
    expect(csv).toContain("Credit (EUR)");
    expect(csv).toContain(",250.00,,250.00,");
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
  });
});

test.describe("as a supplier viewer", () => {
  test.use({ role: "supplierViewer" });

  test("reads the balance, credit, debit and transactions of their team, without forms or sensitive fields", async ({ app, openBrowser }) => {
    const label = unique("Supplier read wallet");
    const admin = await openBrowser("retailerAdmin");
    const adminWallet = await new WalletListPage(admin.page).createWallet(label);
    await adminWallet.post("credit", "80.00", "INV-SUP");
    await expect(adminWallet.balance).toHaveText("€80.00");

    const { page } = app;
    const list = new WalletListPage(page);
    await list.goto();
    await expect(list.row(label)).toContainText("€80.00");
    await expect(page.getByRole("columnheader", { name: wt("fields.tags") })).toHaveCount(0);
    await expect(page.getByRole("columnheader", { name: wt("fields.external_id") })).toHaveCount(0);
    await expect(list.newWallet).toHaveCount(0);

    await list.row(label).getByRole("link", { name: label }).click();
    const wallet = new WalletPage(page);
    await expect(wallet.heading(label)).toBeVisible();
    await expect(wallet.balance).toHaveText("€80.00");
    await expect(wallet.entryRow("INV-SUP", "credit")).toBeVisible();
    await expect(wallet.postForm).toHaveCount(0);
    await expect(wallet.editSummary).toHaveCount(0);
    await expect(wallet.ledger.getByRole("link", { name: wt("ledger.reverse") })).toHaveCount(0);
    await expect(wallet.ledger.getByRole("columnheader", { name: wt("fields.comment") })).toHaveCount(0);
  });
});

test.describe("accessibility of the wallet pages", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "axe needs JavaScript in the page");
  test.use({ role: "operator" });

  test("the Wallets tab, a wallet with transactions and the reversal confirmation", async ({ app }) => {
    test.slow(); // axe runs three times.
    const { page } = app;
    const list = new WalletListPage(page);
    const label = unique("Axe wallet");
    const wallet = await list.createWallet(label, { dailyBudget: "40" });
    await wallet.post("credit", "100.00", "INV-AXE");
    await expect(wallet.balance).toHaveText("€100.00");
    await wallet.post("debit", "25.00", "PO-AXE");
    await expect(wallet.balance).toHaveText("€75.00");
    await expectNoSeriousA11yViolations(page);

    const walletPath = wallet.path();
    await wallet.entryRow("PO-AXE", "debit").getByRole("link", { name: wt("ledger.reverse") }).click();
    await expect(wallet.confirmation).toBeVisible();
    await wallet.editSummary.click();
    await expectNoSeriousA11yViolations(page);

    await list.goto();
    await list.newWallet.click();
    await expectNoSeriousA11yViolations(page);

    // Staff's ten columns fit 1,280 px; on a phone each wallet is a card and nothing scrolls sideways.
    const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    await page.setViewportSize({ width: 1280, height: 800 });
    const table = page.getByRole("region", { name: wt("list.title"), exact: true });
    expect(await table.evaluate((wrap) => wrap.scrollWidth - wrap.clientWidth)).toBeLessThanOrEqual(1);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await sideways()).toBeLessThanOrEqual(0);
    const last = (await list.row(label).locator("td").last().boundingBox())!;
    expect(last.x + last.width).toBeLessThanOrEqual(390);
    await page.goto(walletPath);
    expect(await sideways()).toBeLessThanOrEqual(0);
    const entry = (await page.locator(".ledger-table tbody tr").filter({ hasText: "PO-AXE" }).locator("td").last().boundingBox())!;
    expect(entry.x + entry.width).toBeLessThanOrEqual(390);
  });
});
