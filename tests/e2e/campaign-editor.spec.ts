/**
 * The campaign editor in the browser, with JavaScript on and off (issue 4 §3-§6): create a draft
 * from the spec's deep link, a bid below the minimum shows 'Minimum allowed bid: €0.15' and
 * 'Apply min bid' fixes it, choose a funded wallet (created and credited on the team's Wallets
 * tab), activate and see the live status (scheduled for a future start, running from today),
 * pause, archive; delete a draft after a confirmation; 'Apply min bid' on a new draft without a
 * bid; test mode, suspension, back to draft and disabling; a stale-version conflict from two
 * browser contexts keeps the input; keyboard-only creation and editing; axe on the editor's sections.
 *
 * Every test creates its own campaigns and wallets (unique names) on the demo team "Acme Brand",
 * signed in as the retailer administrator, so parallel specs and the two servers never share one.
 */
import type { Locator, Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./a11y";
import { CampaignEditor, createFundedWallet, en, enTexts, expect, parisDay, submitAndWait, test, uniqueName } from "./fixtures";

const TEAM = "acme-brand";

/** Texts of the campaigns and campaignEditor namespaces, as the app renders them. */
const ct = enTexts("campaigns");
const et = enTexts("campaignEditor");

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
    const walletLabel = await createFundedWallet(page);
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

  test("a new draft's missing bid is set to the minimum by 'Apply min bid'", { tag: "@nojs" }, async ({ app }) => {
    const { page } = app;
    const editor = await new NewCampaignPage(page).createDraft(uniqueName("Min bid"));
    await editor.section("bidding");
    const note = page.getByRole("note").filter({ hasText: et("bidding.belowMinimum", { min: "€0.15" }) });
    await submitAndWait(page, `/campaigns/${editor.id()}/bidding`, () => note.getByRole("button", { name: ct("bidding.applyMinBid") }).click());
    await expect(editor.toast(en("toast.changesSaved"))).toBeVisible();
    await expect(editor.bid).toHaveValue("0.15");
    await expect(page.getByText(et("bidding.belowMinimum", { min: "€0.15" }))).toHaveCount(0);
  });

  test("test mode, suspension after a confirmation, back to draft, and disabling after a confirmation", { tag: "@nojs" }, async ({ app }) => {
    test.slow(); // Five forms, with JavaScript off each a full page.
    const { page } = app;
    const name = uniqueName("Lifecycle");
    const editor = await new NewCampaignPage(page).createDraft(name);
    for (const [action, confirmKey, status] of [
      ["test", undefined, "test"],
      ["suspend", "actions.confirmSubmit.suspend", "suspended"],
      ["redraft", undefined, "draft"],
      ["disable", "actions.confirmSubmit.disable", "disabled"],
    ] as const) {
      await editor.act(action, confirmKey);
      await expect(editor.toast(ct(`toast.action.${action}`, { name }))).toBeVisible();
      await expect(editor.badge).toHaveText(ct(`liveStatus.${status}`));
    }
    await expect(editor.action("enable")).toHaveCount(0);
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
