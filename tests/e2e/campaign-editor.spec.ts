/**
 * The campaign editor in the browser, with JavaScript on and off (issue 4 §3-§6): create a draft
 * from the spec's deep link, a bid below the minimum shows 'Minimum allowed bid: €0.15' and
 * 'Apply min bid' fixes it, choose a funded wallet (created and credited on the team's Wallets
 * tab), activate and see the live status (scheduled for a future start, running from today),
 * pause, archive; delete a draft after a confirmation; a stale-version conflict from two browser
 * contexts keeps the input; keyboard-only creation and editing; axe on the editor's sections.
 *
 * Every test creates its own campaigns and wallets (unique names) on the demo team "Acme Brand",
 * signed in as the retailer administrator, so parallel specs and the two servers never share one.
 */
import type { Locator, Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./a11y";
import { en, enTexts, expect, submitAndWait, test, uniqueName } from "./fixtures";

const TEAM = "acme-brand";

/** Texts of the campaigns, campaignEditor and wallets namespaces, as the app renders them. */
const ct = enTexts("campaigns");
const et = enTexts("campaignEditor");
const wt = enTexts("wallets");


/** A day in Paris (the retailer's time zone) as yyyy-mm-dd, `offset` days from today. */
function parisDay(offset = 0): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Paris", year: "numeric", month: "2-digit", day: "2-digit" })
      .formatToParts(new Date(Date.now() + offset * 86_400_000))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** Creates a wallet on the team's Wallets tab and credits it; returns its label. */
async function fundedWallet(page: Page, amount = "100.00"): Promise<string> {
  const label = uniqueName("Editor wallet");
  await page.goto(`/teams/${TEAM}/wallets`);
  const form = page.locator("#create-wallet-form");
  const labelField = form.getByLabel(wt("fields.label"), { exact: true });
  if (!(await labelField.isVisible())) await page.getByText(wt("create.title"), { exact: true }).click();
  await labelField.fill(label);
  await submitAndWait(page, `/teams/${TEAM}/wallets`, () => form.getByRole("button", { name: wt("create.submit") }).click());
  await expect(page.getByRole("heading", { level: 2, name: label, exact: true })).toBeVisible();
  const post = page.getByRole("region", { name: wt("entry.title") });
  await post.getByRole("radio", { name: wt("entry.types.credit") }).check();
  await post.getByLabel(wt("fields.amount", { currency: "EUR" }), { exact: true }).fill(amount);
  await post.getByLabel(wt("fields.reference"), { exact: true }).fill("E2E-EDITOR");
  const path = new URL(page.url()).pathname;
  await submitAndWait(page, path, () => post.getByRole("button", { name: wt("entry.submit") }).click());
  await expect(page.getByRole("region", { name: wt("page.money") }).locator(".wallet-balance strong")).toHaveText(`€${amount}`);
  return label;
}

/** The creation page of a team (route name campaign-new). */
class NewCampaignPage {
  readonly heading: Locator;
  readonly name: Locator;
  readonly type: Locator;
  readonly start: Locator;
  readonly end: Locator;
  readonly create: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 2, name: ct("new.title", { team: "Acme Brand" }) });
    this.name = page.getByLabel(ct("fields.name"), { exact: true });
    this.type = page.getByLabel(ct("fields.type"), { exact: true });
    this.start = page.getByLabel(ct("fields.startDay"), { exact: true });
    this.end = page.getByLabel(ct("fields.endDay"), { exact: true });
    this.create = page.getByRole("button", { name: ct("new.submit") });
  }

  /** Opens it through the spec's deep link /campaigns/new-{team}/{type}. */
  async open(type = "sponsored-products") {
    await this.page.goto(`/campaigns/new-${TEAM}/${type}`);
    await expect(this.page).toHaveURL(new RegExp(`/teams/${TEAM}/campaigns/new/${type}$`));
    await expect(this.heading).toBeVisible();
  }

  /** Creates a draft; resolves on its editor. */
  async createDraft(name: string, startDay = parisDay()): Promise<CampaignEditor> {
    await this.open();
    await this.name.fill(name);
    await this.start.fill(startDay);
    await submitAndWait(this.page, `/teams/${TEAM}/campaigns/new/sponsored-products`, () => this.create.click());
    const editor = new CampaignEditor(this.page);
    await expect(editor.title(name)).toBeVisible();
    return editor;
  }
}

/** The editor: header, live status, action bar, section tabs and the sections' forms. */
class CampaignEditor {
  readonly badge: Locator;
  readonly actions: Locator;
  readonly tabs: Locator;
  readonly alert: Locator;
  readonly save: Locator;
  readonly name: Locator;
  readonly start: Locator;
  readonly wallet: Locator;
  readonly bid: Locator;
  readonly applyMinBid: Locator;
  readonly total: Locator;
  readonly daily: Locator;

  constructor(readonly page: Page) {
    this.badge = page.locator(".campaign-meta .campaign-badge");
    this.actions = page.getByRole("group", { name: ct("actions.label") });
    this.tabs = page.getByRole("navigation", { name: ct("editor.sections") });
    this.alert = page.getByRole("alert");
    this.save = page.getByRole("button", { name: et("save"), exact: true });
    this.name = page.getByLabel(ct("fields.name"), { exact: true });
    this.start = page.getByLabel(ct("fields.startDay"), { exact: true });
    this.wallet = page.getByLabel(ct("fields.wallet"), { exact: true });
    this.bid = page.getByLabel(et("bidding.bidLabel"), { exact: true });
    this.applyMinBid = page.getByRole("button", { name: ct("bidding.applyMinBid") });
    this.total = page.getByLabel(et("budget.total"), { exact: true });
    this.daily = page.getByLabel(et("budget.daily"), { exact: true });
  }

  title(name: string): Locator {
    return this.page.getByRole("heading", { level: 1, name, exact: true });
  }

  id(): string {
    return /\/campaigns\/([^/?#]+)/.exec(new URL(this.page.url()).pathname)![1]!;
  }

  async section(key: "general" | "bidding" | "budget") {
    await this.tabs.getByRole("link", { name: ct(`editor.section.${key}`), exact: true }).click();
    const path = key === "general" ? `/campaigns/${this.id()}` : `/campaigns/${this.id()}/${key}`;
    await expect(this.page).toHaveURL(new RegExp(`${path}$`));
    await expect(this.page.getByRole("heading", { level: 2, name: ct(`editor.section.${key}`), exact: true })).toBeVisible();
  }

  /** Saves the section's form and waits for the answer. */
  async saveSection() {
    await submitAndWait(this.page, new URL(this.page.url()).pathname, () => this.save.click());
  }

  /** A lifecycle action from the action bar; destructive ones confirm first. */
  async act(key: string, confirmKey?: string) {
    const id = this.id();
    if (confirmKey) {
      await this.actions.locator("summary").filter({ hasText: new RegExp(`^${ct(`actions.${key}`)}$`) }).click();
      await submitAndWait(this.page, `/campaigns/${id}`, () => this.actions.getByRole("button", { name: ct(confirmKey) }).click());
    } else {
      await submitAndWait(this.page, `/campaigns/${id}`, () => this.actions.getByRole("button", { name: ct(`actions.${key}`), exact: true }).click());
    }
  }

  toast(title: string): Locator {
    return this.page.getByRole("status").filter({ has: this.page.getByText(title, { exact: true }) });
  }
}

/** Presses Tab until `target` has the focus (keyboard only); fails after `max` presses. */
async function tabTo(page: Page, target: Locator, max = 80) {
  for (let i = 0; i < max; i++) {
    // A navigation may replace the document meanwhile: then ask again on the new one.
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${target}`);
}

test.describe("the campaign editor, as a retailer administrator", () => {
  test.use({ role: "retailerAdmin" });

  test("create, a bid below the minimum and 'Apply min bid', activate (scheduled, then running), pause, archive", { tag: "@nojs" }, async ({ app }) => {
    test.slow(); // Two dozen round trips, with JavaScript off each a full page.
    const { page } = app;
    const walletLabel = await fundedWallet(page);
    const name = uniqueName("Editor e2e");
    const editor = await new NewCampaignPage(page).createDraft(name, parisDay(1));
    await expect(editor.toast(ct("toast.created", { name }))).toBeVisible();
    await expect(editor.badge).toHaveText(ct("liveStatus.draft"));
    await expect(page.getByText(et("readiness.incomplete"))).toBeVisible();
    await expect(page.getByText(et("readiness.gap.bid"))).toBeVisible();

    // A bid below the minimum: the spec's message, then 'Apply min bid' raises it.
    await editor.section("bidding");
    await expect(page.getByText(et("bidding.belowMinimum", { min: "€0.15" }))).toBeVisible();
    await editor.bid.fill("0.05");
    await editor.saveSection();
    await expect(page.getByText(ct("bidding.minBid", { 0: "€0.15" }))).toBeVisible();
    await expect(editor.bid).toHaveValue("0.05");
    await expect(editor.applyMinBid).toHaveCount(1);
    await submitAndWait(page, `/campaigns/${editor.id()}/bidding`, () => editor.applyMinBid.click());
    await expect(editor.toast(en("toast.changesSaved"))).toBeVisible();
    await expect(editor.bid).toHaveValue("0.15");
    await expect(page.getByText(ct("bidding.minBid", { 0: "€0.15" }))).toHaveCount(0);
    await expect(editor.applyMinBid).toHaveCount(0);

    // The funded wallet, shown with its balance, credit and status.
    await editor.section("general");
    await expect(page.getByText(et("readiness.complete"))).toBeVisible();
    await editor.wallet.selectOption({
      label: et("general.walletOption", { label: walletLabel, balance: "€100.00", credit: "€100.00", status: et("general.walletStatus.active") }),
    });
    await editor.saveSection();
    await expect(editor.toast(en("toast.changesSaved"))).toBeVisible();
    await expect(page.getByText(et("readiness.noWallet"))).toHaveCount(0);

    // Starts tomorrow: scheduled; from today: running.
    await editor.act("enable");
    await expect(editor.toast(ct("toast.action.enable", { name }))).toBeVisible();
    await expect(editor.badge).toHaveText(ct("liveStatus.scheduled"));
    await editor.start.fill(parisDay());
    await editor.saveSection();
    await expect(editor.badge).toHaveText(ct("liveStatus.running"));

    await editor.act("pause");
    await expect(editor.badge).toHaveText(ct("liveStatus.paused"));
    await editor.act("archive", "actions.confirmSubmit.archive");
    // Success toasts fade after 3 s: read it first.
    await expect(editor.toast(ct("toast.action.archive", { name }))).toBeVisible();
    await expect(editor.badge).toHaveText(ct("liveStatus.archived"));
    // Archived: read only, no action left.
    await expect(page.getByText(et("readOnly"))).toBeVisible();
    await expect(editor.actions).toHaveCount(0);
  });

  test("delete a draft after a confirmation: 'Campaign successfully deleted'", { tag: "@nojs" }, async ({ app }) => {
    const { page } = app;
    const name = uniqueName("Delete me");
    const editor = await new NewCampaignPage(page).createDraft(name);
    const id = editor.id();
    // Activating it is refused first: no bid yet.
    await editor.act("enable");
    await expect(editor.alert.filter({ hasText: ct("activation.incompleteCampaign") })).toContainText(ct("activation.incomplete"));
    await expect(editor.badge).toHaveText(ct("liveStatus.draft"));
    await editor.actions.locator("summary").filter({ hasText: new RegExp(`^${ct("actions.delete")}$`) }).click();
    await expect(page.getByText(ct("actions.confirm.delete", { name }))).toBeVisible();
    await submitAndWait(page, `/campaigns/${id}`, () => editor.actions.getByRole("button", { name: ct("actions.confirmSubmit.delete") }).click());
    // Success toasts fade after 3 s: read it first.
    await expect(editor.toast(ct("toast.deleted"))).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/teams/${TEAM}/campaigns`));
    const gone = await page.goto(`/campaigns/${id}`);
    expect(gone?.status()).toBe(404);
  });

  test("a stale version from another browser is refused and the input kept", { tag: "@nojs" }, async ({ app, openBrowser }) => {
    test.slow(); // Two browsers.
    const { page } = app;
    const name = uniqueName("Conflict");
    const editor = await new NewCampaignPage(page).createDraft(name);
    const other = await openBrowser("retailerAdmin");
    const otherEditor = new CampaignEditor(other.page);
    await other.page.goto(`/campaigns/${editor.id()}`);
    await expect(otherEditor.name).toHaveValue(name);

    // This browser saves first.
    await editor.name.fill(`${name} mine`);
    await editor.saveSection();
    await expect(editor.title(`${name} mine`)).toBeVisible();

    // The other one still holds the old version.
    await otherEditor.name.fill(`${name} theirs`);
    await otherEditor.saveSection();
    await expect(otherEditor.alert.filter({ hasText: en("errors.conflictTitle") })).toContainText(en("errors.conflict"));
    await expect(otherEditor.name).toHaveValue(`${name} theirs`);
    await page.reload();
    await expect(editor.name).toHaveValue(`${name} mine`);

    // The same on the Budget section.
    await otherEditor.page.goto(`/campaigns/${editor.id()}/budget`);
    await editor.section("budget");
    await editor.total.fill("500");
    await editor.saveSection();
    await expect(editor.toast(en("toast.changesSaved"))).toBeVisible();
    await otherEditor.total.fill("900");
    await otherEditor.saveSection();
    await expect(otherEditor.alert.filter({ hasText: en("errors.conflictTitle") })).toBeVisible();
    await expect(otherEditor.total).toHaveValue("900");
    await page.reload();
    await expect(editor.total).toHaveValue("500.00");
  });

  test("keyboard only: create a draft, rename it, set its bid", async ({ app }) => {
    const { page } = app;
    const name = uniqueName("Keyboard");
    const creation = new NewCampaignPage(page);
    await creation.open();
    await tabTo(page, creation.name);
    await page.keyboard.type(name);
    await tabTo(page, creation.create);
    await submitAndWait(page, `/teams/${TEAM}/campaigns/new/sponsored-products`, () => page.keyboard.press("Enter"));
    const editor = new CampaignEditor(page);
    await expect(editor.title(name)).toBeVisible();

    await tabTo(page, editor.name);
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type(`${name} renamed`);
    await submitAndWait(page, `/campaigns/${editor.id()}`, () => page.keyboard.press("Enter"));
    await expect(editor.title(`${name} renamed`)).toBeVisible();

    const biddingTab = editor.tabs.getByRole("link", { name: ct("editor.section.bidding"), exact: true });
    await tabTo(page, biddingTab);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/campaigns/${editor.id()}/bidding$`));
    await tabTo(page, editor.bid);
    await page.keyboard.type("0.45");
    await submitAndWait(page, `/campaigns/${editor.id()}/bidding`, () => page.keyboard.press("Enter"));
    await expect(editor.toast(en("toast.changesSaved"))).toBeVisible();
    await expect(editor.bid).toHaveValue("0.45");
  });

  test("axe finds no serious violation on the editor's sections", async ({ app, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "axe runs in the JS-on project");
    test.slow(); // Four axe runs.
    const { page } = app;
    const editor = await new NewCampaignPage(page).createDraft(uniqueName("Axe"));
    await expectNoSeriousA11yViolations(page);
    await editor.section("bidding");
    await editor.bid.fill("0.01");
    await editor.saveSection();
    await expect(page.getByText(ct("bidding.minBid", { 0: "€0.15" }))).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await editor.section("budget");
    await expectNoSeriousA11yViolations(page);
    await page.goto(`/teams/${TEAM}/campaigns/new/sponsored-products`);
    await expectNoSeriousA11yViolations(page);
  });
});
