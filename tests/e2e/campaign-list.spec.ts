/**
 * The campaign lists (issue 4 §2) in the browser, with JavaScript on and off: filters in the URL
 * (the form writes them, a link restores them), a custom view saved and reopened from its link, a
 * bulk edit whose review and result name a failing row, duplicate from the list, the team's
 * Campaigns tab, and axe on the list.
 *
 * Every test creates its own campaigns (the creation form, posted as the signed-in user) with a
 * tag unique to the test, and filters the list by it, so parallel specs and the JS-on and JS-off
 * servers never share a row.
 */
import type { Locator, Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./a11y";
import { createCampaign, enTexts, expect, submitAndWait, test } from "./fixtures";

const TEAM = "acme-brand";

const lt = enTexts("campaignList");
const ct = enTexts("campaigns");
const tt = enTexts("teams");

function uniqueTag(label: string): string {
  return `${label}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

function createCampaignNamed(page: Page, baseURL: string, name: string, options: { startDay?: string; type?: string } = {}): Promise<string> {
  return createCampaign(page, baseURL, { name, ...options });
}

/** The list page, by its roles and labels. */
class CampaignListPage {
  readonly filters: Locator;
  readonly search: Locator;
  readonly type: Locator;
  readonly apply: Locator;
  readonly table: Locator;
  readonly viewsMenu: Locator;
  readonly viewName: Locator;
  readonly saveView: Locator;
  readonly change: Locator;
  readonly endDay: Locator;
  readonly review: Locator;

  constructor(readonly page: Page) {
    this.filters = page.getByRole("search", { name: lt("filters.label") });
    this.search = this.filters.getByLabel(lt("filters.search"));
    this.type = this.filters.getByLabel(ct("fields.type"));
    this.apply = this.filters.getByRole("button", { name: lt("filters.apply") });
    this.table = page.getByRole("table", { name: lt("table.caption") });
    this.viewsMenu = page.locator("details.views-menu");
    this.viewName = page.getByLabel(lt("views.name"));
    this.saveView = page.getByRole("button", { name: lt("views.save") });
    this.change = page.getByLabel(lt("bulk.change"), { exact: true });
    this.endDay = page.getByLabel(lt("bulk.endDay"), { exact: true });
    this.review = page.getByRole("button", { name: lt("bulk.review") });
  }

  /** The names in the table, top to bottom. */
  rowNames(): Locator {
    return this.table.getByRole("rowheader");
  }

  row(name: string): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("rowheader", { name, exact: true }) });
  }

  async openViews() {
    if ((await this.viewsMenu.getAttribute("open")) === null) await this.viewsMenu.locator("summary").first().click();
    await expect(this.viewsMenu).toHaveAttribute("open", "");
  }
}

test.describe("as a supplier administrator", () => {
  test.use({ role: "supplierAdmin" });

  test("filters through the form land in the URL, and the URL restores them", { tag: "@nojs" }, async ({ app, baseURL }) => {
    const { page } = app;
    const tag = uniqueTag("Filt");
    await createCampaignNamed(page, baseURL!, `${tag} products`);
    await createCampaignNamed(page, baseURL!, `${tag} banners`, { type: "banner-ads" });
    const list = new CampaignListPage(page);

    await page.goto("/campaigns");
    await list.search.fill(tag);
    await list.type.selectOption({ label: ct("types.banner-ads") });
    await list.apply.click();
    await expect(page).toHaveURL(new RegExp(`[?&]q=${tag}(&|$)`));
    await expect(page).toHaveURL(/[?&]type=banner-ads(&|$)/);
    await expect(list.rowNames()).toHaveText([`${tag} banners`]);
    await expect(list.row(`${tag} banners`).getByText(ct("liveStatus.draft"))).toBeVisible();

    // The same view from a link: sorted by name, descending, two columns only.
    await page.goto(`/campaigns?q=${tag}&sort=name&dir=desc&columns=name&columns=type`);
    await expect(list.rowNames()).toHaveText([`${tag} products`, `${tag} banners`]);
    await expect(list.search).toHaveValue(tag);
    await expect(list.table.getByRole("columnheader", { name: new RegExp(lt("columns.team")) })).toHaveCount(0);
    await expect(list.table.getByRole("columnheader", { name: new RegExp(`^${lt("columns.type")}`) })).toHaveCount(1);
    await expect(page.getByRole("link", { name: lt("filters.clear") })).toBeVisible();
  });

  test("saves a custom view and reopens it from its link", { tag: "@nojs" }, async ({ app, baseURL }) => {
    const { page, shell } = app;
    const tag = uniqueTag("View");
    await createCampaignNamed(page, baseURL!, `${tag} Alpha`);
    await createCampaignNamed(page, baseURL!, `${tag} Zulu`);
    const list = new CampaignListPage(page);

    await page.goto(`/campaigns?q=${tag}&sort=name&dir=desc`);
    await expect(list.rowNames()).toHaveText([`${tag} Zulu`, `${tag} Alpha`]);
    await list.openViews();
    await list.viewName.fill(`Mine ${tag}`);
    await submitAndWait(page, "/campaigns", () => list.saveView.click());
    await expect(shell.toast(lt("toast.viewSaved", { name: `Mine ${tag}` }))).toBeVisible();

    // From a bare list, the menu's link brings the view back.
    await page.goto("/campaigns");
    await list.openViews();
    await list.viewsMenu.getByRole("link", { name: `Mine ${tag}`, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/campaigns\\?q=${tag}&sort=name&dir=desc$`));
    await expect(list.rowNames()).toHaveText([`${tag} Zulu`, `${tag} Alpha`]);

    // Renamed, then deleted after its confirmation.
    await list.openViews();
    await list.viewsMenu.getByText(lt("views.rename"), { exact: true }).first().click();
    await list.viewsMenu.getByLabel(lt("views.newName")).fill(`Renamed ${tag}`);
    await submitAndWait(page, "/campaigns", () => list.viewsMenu.getByRole("button", { name: lt("views.saveName") }).click());
    await expect(shell.toast(lt("toast.viewRenamed", { name: `Renamed ${tag}` }))).toBeVisible();
    await list.openViews();
    const item = list.viewsMenu.getByRole("listitem").filter({ has: page.getByRole("link", { name: `Renamed ${tag}`, exact: true }) });
    await item.getByText(lt("views.delete"), { exact: true }).click();
    await expect(item.getByText(lt("views.deleteQuestion", { name: `Renamed ${tag}` }))).toBeVisible();
    await submitAndWait(page, "/campaigns", () => item.getByRole("button", { name: lt("views.confirmDelete") }).click());
    await expect(shell.toast(lt("toast.viewDeleted", { name: `Renamed ${tag}` }))).toBeVisible();
    await list.openViews();
    await expect(list.viewsMenu.getByRole("link", { name: `Renamed ${tag}`, exact: true })).toHaveCount(0);
  });

  test("bulk edits the end date: the review and the result name the campaign that refuses it", { tag: "@nojs" }, async ({ app, baseURL }) => {
    const { page } = app;
    const tag = uniqueTag("Bulk");
    await createCampaignNamed(page, baseURL!, `${tag} early`, { startDay: "2030-01-01" });
    await createCampaignNamed(page, baseURL!, `${tag} late`, { startDay: "2030-09-01" });
    const list = new CampaignListPage(page);

    await page.goto(`/campaigns?q=${tag}&sort=name`);
    await expect(list.rowNames()).toHaveText([`${tag} early`, `${tag} late`]);
    await page.getByRole("checkbox", { name: lt("table.selectCampaign", { name: `${tag} early` }) }).check();
    await page.getByRole("checkbox", { name: lt("table.selectCampaign", { name: `${tag} late` }) }).check();
    await list.change.selectOption({ label: lt("bulk.changes.endDay") });
    await list.endDay.fill("2030-06-30");
    await submitAndWait(page, "/campaigns", () => list.review.click());

    const review = page.getByRole("region", { name: lt("bulk.reviewTitle", { change: lt("bulk.changes.endDay") }) });
    await expect(review).toBeVisible();
    await expect(review.getByText(lt("bulk.reviewSummary", { changed: 1, refused: 1, unchanged: 0 }))).toBeVisible();
    await expect(review.getByRole("row", { name: new RegExp(`${tag} early`) })).toContainText(lt("bulk.willChange"));
    await expect(review.getByRole("row", { name: new RegExp(`${tag} late`) })).toContainText(ct("form.endBeforeStart"));
    // Nothing saved yet.
    await expect(list.row(`${tag} early`)).toContainText(lt("table.noEnd"));

    await submitAndWait(page, "/campaigns", () => review.getByRole("button", { name: lt("bulk.confirm_one", { count: 1 }) }).click());
    const result = page.getByRole("region", { name: lt("bulk.resultTitle", { change: lt("bulk.changes.endDay") }) });
    await expect(result.getByText(lt("bulk.resultSummary", { saved: 1, failed: 1, unchanged: 0 }))).toBeVisible();
    await expect(result.getByRole("row", { name: new RegExp(`${tag} early`) })).toContainText(lt("bulk.saved"));
    await expect(result.getByRole("row", { name: new RegExp(`${tag} late`) })).toContainText(`${lt("bulk.failed")} ${ct("form.endBeforeStart")}`);
    // The list shows the saved end date; the refused campaign kept none.
    await page.goto(`/campaigns?q=${tag}&sort=name`);
    await expect(list.row(`${tag} early`)).toContainText("30 Jun 2030");
    await expect(list.row(`${tag} late`)).toContainText(lt("table.noEnd"));
  });

  test("duplicates a campaign from the list and opens the copy", { tag: "@nojs" }, async ({ app, baseURL }) => {
    const { page } = app;
    const tag = uniqueTag("Dup");
    await createCampaignNamed(page, baseURL!, `${tag} source`);
    const list = new CampaignListPage(page);
    await page.goto(`/campaigns?q=${tag}`);
    await list.row(`${tag} source`).getByRole("button", { name: lt("table.duplicate", { name: `${tag} source` }) }).click();
    await expect(page.getByRole("heading", { level: 1, name: ct("duplicate.copyName", { name: `${tag} source` }) })).toBeVisible();
    await expect(page).toHaveURL(/\/campaigns\/[^/]+$/);
    await page.goto(`/campaigns?q=${tag}&sort=name`);
    await expect(list.rowNames()).toHaveText([`${tag} source`, ct("duplicate.copyName", { name: `${tag} source` })]);
  });

  test("opens a team on its Campaigns tab, with links to create a campaign", async ({ app, baseURL }) => {
    const { page } = app;
    const tag = uniqueTag("Tab");
    await createCampaignNamed(page, baseURL!, `${tag} one`);
    await page.goto(`/teams/${TEAM}`);
    await expect(page).toHaveURL(new RegExp(`/teams/${TEAM}/campaigns$`));
    const tabs = page.getByRole("navigation", { name: tt("page.tabs") });
    await expect(tabs.getByRole("link").first()).toHaveText(lt("tab"));
    await page.goto(`/teams/${TEAM}/campaigns?q=${tag}`);
    await expect(page.getByRole("table", { name: lt("table.captionTeam", { team: "Acme Brand" }) }).getByRole("rowheader")).toHaveText([`${tag} one`]);
    await page.getByRole("link", { name: lt("new.title"), exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/teams/${TEAM}/campaigns/new/sponsored-products$`));
  });
});

test.describe("as a retailer viewer", () => {
  test.use({ role: "retailerViewer" });

  test("reads the list without selection, bulk edit, duplicate or creation", async ({ app }) => {
    const { page } = app;
    await page.goto("/campaigns");
    await expect(page.getByRole("heading", { level: 1, name: lt("title") })).toBeVisible();
    await expect(page.getByRole("checkbox", { name: /^Select / })).toHaveCount(0);
    await expect(page.getByRole("button", { name: lt("bulk.review") })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Duplicate / })).toHaveCount(0);
    await expect(page.getByText(lt("new.title"), { exact: true })).toHaveCount(0);
  });
});

test.describe("accessibility", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "axe needs JavaScript in the page");
  test.use({ role: "retailerAdmin" });

  test("the list, its views menu and the bulk review have no serious axe violation", async ({ app, baseURL }) => {
    // Two axe runs on a full page.
    test.slow();
    const { page } = app;
    const tag = uniqueTag("Axe");
    await createCampaignNamed(page, baseURL!, `${tag} one`);
    await createCampaignNamed(page, baseURL!, `${tag} two`, { type: "banner-ads" });
    const list = new CampaignListPage(page);
    await page.goto(`/campaigns?q=${tag}`);
    await expect(list.rowNames()).toHaveCount(2);
    await page.locator("details.campaign-filters-more > summary").click();
    await list.openViews();
    await expectNoSeriousA11yViolations(page);

    await page.getByRole("checkbox", { name: lt("table.selectCampaign", { name: `${tag} one` }) }).check();
    await list.change.selectOption({ label: ct("actions.archive") });
    await submitAndWait(page, "/campaigns", () => list.review.click());
    await expect(page.getByRole("region", { name: lt("bulk.reviewTitle", { change: ct("actions.archive") }) })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test("the team's Campaigns tab has no serious axe violation", async ({ app, baseURL }) => {
    test.slow();
    const { page } = app;
    const tag = uniqueTag("AxeTab");
    await createCampaignNamed(page, baseURL!, `${tag} one`);
    await page.goto(`/teams/${TEAM}/campaigns?q=${tag}`);
    await expect(page.getByRole("rowheader")).toHaveCount(1);
    await expectNoSeriousA11yViolations(page);
  });
});
