/**
 * Statistics in the browser: events sent to POST /api/events (as the ad server would) show on a
 * campaign's Statistics tab, beside its dayparting grid, on the dashboard, the campaign list, a
 * team's Wallets tab and a wallet's page, per period, with the comparison, the charts (with
 * JavaScript), the breakdowns and the CSV exports downloaded through their links; the dashboard's
 * filters and drill-down links narrow its figures and its export. The period forms (the
 * dashboard's filters with them) are GET forms: they work with JavaScript off (@nojs). The rules
 * behind the figures are tested in the integration suite.
 */
import fs from "node:fs";
import path from "node:path";
import type { Page, TestInfo } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./a11y";
import { createCampaign, createWalletThroughForm, enTexts, expect, submitAndWait, test, uniqueName } from "./fixtures";

const mt = enTexts("metrics");
const ct = enTexts("campaigns");
const et = enTexts("campaignEditor");
const lt = enTexts("campaignList");
const wt = enTexts("wallets");
const ut = enTexts("common");
const tt = enTexts("campaignTargeting");
const TEAM = "acme-brand";

/** A campaign of the demo team on a new wallet, ready to receive events. */
async function campaignWithWallet(page: Page, baseURL: string) {
  const walletLabel = uniqueName("Stats wallet");
  const wallet = await createWalletThroughForm(page, walletLabel);
  const name = uniqueName("Stats campaign");
  const id = await createCampaign(page, baseURL, { name });
  await page.goto(`/campaigns/${id}`);
  const select = page.getByLabel(ct("fields.wallet"), { exact: true });
  const value = await select.locator("option", { hasText: walletLabel }).getAttribute("value");
  await select.selectOption(value!);
  await submitAndWait(page, `/campaigns/${id}`, () => page.getByRole("button", { name: et("save"), exact: true }).click());
  return { id, name, wallet, walletLabel };
}

/** Today in the retailer's time zone, yyyy-mm-dd. */
const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" }).format(new Date());

/** Clicks a download link and returns the file's text. */
async function downloadThrough(page: Page, link: ReturnType<Page["getByRole"]>) {
  const downloading = page.waitForEvent("download");
  await link.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  return fs.readFileSync((await download.path())!, "utf8");
}

/** Posts a batch as the ad server does, with the embedded demo's events key. */
async function sendEvents(page: Page, dataDir: string, events: Record<string, unknown>[]) {
  const key = fs.readFileSync(path.join(dataDir, "events-api-key"), "utf8").trim();
  const response = await page.request.post("/api/events", {
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    data: { batchId: uniqueName("batch").replace(/\s/g, "-"), events },
  });
  expect(response.status()).toBe(200);
  expect((await response.json()).refused).toEqual([]);
}

/** Seconds since midnight on the retailer's clock (Europe/Paris). */
function retailerSecondsIntoDay(): number {
  const [h, m, sec] = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Paris", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" })
    .format(new Date())
    .split(":")
    .map(Number);
  return h! * 3600 + m! * 60 + sec!;
}

/**
 * A test that starts in the last 45 s of the retailer's day waits for the next day first: its
 * events and the pages that show them (today's figures) then fall on the same day. (Two tests
 * failed when a run crossed midnight in Paris.)
 */
async function awayFromMidnight(testInfo: TestInfo) {
  const left = 24 * 3600 - retailerSecondsIntoDay();
  if (left > 45) return;
  testInfo.setTimeout(testInfo.timeout + (left + 2) * 1000);
  await new Promise((resolve) => setTimeout(resolve, (left + 2) * 1000));
}

/** A minute ago, but not before the retailer's midnight. */
function eventTime(): string {
  return new Date(Date.now() - Math.min(60, retailerSecondsIntoDay()) * 1000).toISOString();
}

function events(c: { id: string; wallet: string }) {
  const at = eventTime();
  const base = { time: at, team: TEAM, wallet: c.wallet, campaign: c.id, campaignType: "sponsored-products", slot: "sp", cost: 0 };
  const out: Record<string, unknown>[] = [];
  // Two products of the demo catalog: the products table and its top chart.
  for (let i = 0; i < 40; i++) out.push({ ...base, type: "display", placement: "search", device: "mobile", product: i % 2 ? "SKU-000001" : "SKU-000002" });
  for (let i = 0; i < 10; i++) out.push({ ...base, type: "display", placement: "plp", device: "desktop" });
  for (let i = 0; i < 2; i++) out.push({ ...base, type: "click", placement: "search", device: "mobile", cost: 450_000, product: i % 2 ? "SKU-000001" : "SKU-000002" });
  out.push({ ...base, type: "sale", placement: "search", device: "mobile", quantity: 1, sales: 2_999, product: "SKU-000001" });
  return out;
}

test.beforeEach(async ({}, testInfo) => awayFromMidnight(testInfo));

test.describe("statistics, as a retailer administrator", () => {
  test.use({ role: "retailerAdmin" });

  test("a campaign's events show on its Statistics tab, by period, with breakdowns and an export", { tag: "@nojs" }, async ({ app, baseURL, server, javaScriptEnabled }) => {
    const { page } = app;
    const campaign = await campaignWithWallet(page, baseURL!);
    await sendEvents(page, server.dataDir, events(campaign));

    await page.goto(`/campaigns/${campaign.id}/statistics`);
    const tiles = page.getByRole("list", { name: mt("totals") });
    await expect(tiles.getByRole("listitem").filter({ hasText: mt("metric.displays") })).toContainText("50");
    await expect(tiles.getByRole("listitem").filter({ hasText: mt("metric.clicks") })).toContainText("2");
    await expect(tiles.getByRole("listitem").filter({ hasText: mt("metric.ctr") })).toContainText("4.00%");
    await expect(tiles.getByRole("listitem").filter({ hasText: mt("metric.cost") })).toContainText("€0.90");
    await expect(tiles.getByRole("listitem").filter({ hasText: mt("metric.sales") })).toContainText("€29.99");
    const devices = page.getByRole("table", { name: mt("breakdown.device") });
    await expect(devices.getByRole("row").filter({ hasText: "Mobile" })).toContainText("40");
    await expect(devices.getByRole("row").filter({ hasText: "Desktop" })).toContainText("10");
    // Placements and slots by the labels every screen uses (common:placements, common:slots), never their codes.
    const placements = page.getByRole("table", { name: mt("breakdown.placement") });
    await expect(placements.getByRole("rowheader")).toHaveCount(2);
    expect((await placements.getByRole("rowheader").allTextContents()).sort()).toEqual([ut("placements.plp"), ut("placements.search")].sort());
    await expect(page.getByRole("table", { name: mt("breakdown.slot") }).getByRole("rowheader")).toHaveText([ut("slots.sp")]);
    if (javaScriptEnabled) {
      await expect(page.getByRole("figure", { name: mt("chart.timeLabel", { first: mt("metric.displays"), second: mt("metric.clicks") }) })).toBeVisible();
      // The top chart of the two products, over their table (axe checks it with the rest).
      await expect(page.getByRole("figure", { name: mt("chart.topProducts", { count: 2, metric: mt("metric.cost") }) }).locator(".recharts-bar-rectangle")).toHaveCount(2);
      await expectNoSeriousA11yViolations(page);
    }

    // The period form (a GET form): yesterday had nothing; the comparison says so.
    await page.getByRole("combobox", { name: mt("period.preset"), exact: true }).selectOption("yesterday");
    await page.getByRole("button", { name: mt("period.apply") }).click();
    await expect(page).toHaveURL(/period=yesterday/);
    await expect(tiles.getByRole("listitem").filter({ hasText: mt("metric.displays") })).toContainText("0");
    await page.getByRole("combobox", { name: mt("period.preset"), exact: true }).selectOption("today");
    await page.getByLabel(mt("period.compare")).check();
    await page.getByRole("button", { name: mt("period.apply") }).click();
    await expect(page).toHaveURL(/compare=1/);
    await expect(tiles.getByRole("listitem").filter({ hasText: mt("metric.displays") })).toContainText(mt("change.none"));

    // The export of the by-hour table.
    const download = await page.request.get(`/campaigns/${campaign.id}/statistics.csv?table=device&period=today`);
    expect(download.headers()["content-type"]).toContain("text/csv");
    const csv = await download.text();
    expect(csv).toContain(mt("metric.displays"));
    // Named as the table names it (not the code "mobile").
    expect(csv).toMatch(/\nMobile,EUR,40,/);
  });

  test("the dashboard lists the campaign with its figures, sorts by a column, and fits a phone", async ({ app, baseURL, server }) => {
    const { page } = app;
    const campaign = await campaignWithWallet(page, baseURL!);
    await sendEvents(page, server.dataDir, events(campaign));
    await page.goto("/?tab=campaigns&period=today");
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: campaign.name, exact: true }) });
    await expect(row).toContainText("50");
    await expect(row).toContainText("€0.90");
    await page.getByRole("link", { name: mt("metric.displays") }).click();
    await expect(page).toHaveURL(/sort=displays/);
    await expectNoSeriousA11yViolations(page);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  });
});

test.describe("statistics screens, as a retailer administrator", () => {
  test.use({ role: "retailerAdmin" });

  test("the dashboard's tabs and period form work without JavaScript; a tab downloads through its link", { tag: "@nojs" }, async ({ app, baseURL, server }) => {
    const { page } = app;
    const campaign = await campaignWithWallet(page, baseURL!);
    await sendEvents(page, server.dataDir, events(campaign));

    await page.goto("/");
    const tabs = page.getByRole("navigation", { name: ut("dashboard.tabs") });
    await expect(tabs.getByRole("link", { name: ut("dashboard.tab.teams") })).toHaveAttribute("aria-current", "page");
    const campaignRow = page.getByRole("row").filter({ has: page.getByRole("link", { name: campaign.name, exact: true }) });
    const walletRow = page.getByRole("row").filter({ has: page.getByRole("link", { name: campaign.walletLabel, exact: true }) });

    await tabs.getByRole("link", { name: ut("dashboard.tab.campaigns") }).click();
    await expect(page).toHaveURL(/tab=campaigns/);
    await expect(campaignRow).toContainText("50");
    await tabs.getByRole("link", { name: ut("dashboard.tab.wallets") }).click();
    await expect(page).toHaveURL(/tab=wallets/);
    await expect(walletRow).toContainText("€0.90");

    // The period form keeps the tab; yesterday had none of these events.
    await page.getByRole("combobox", { name: mt("period.preset"), exact: true }).selectOption("yesterday");
    await page.getByRole("button", { name: mt("period.apply") }).click();
    await expect(page).toHaveURL(/tab=wallets.*period=yesterday|period=yesterday.*tab=wallets/);
    await expect(walletRow).toHaveCount(0);
    // A tab keeps the period.
    await tabs.getByRole("link", { name: ut("dashboard.tab.campaigns") }).click();
    await expect(page).toHaveURL(/tab=campaigns&period=yesterday/);
    await expect(campaignRow).toHaveCount(0);
    await page.getByRole("combobox", { name: mt("period.preset"), exact: true }).selectOption("today");
    await page.getByRole("button", { name: mt("period.apply") }).click();
    await expect(campaignRow).toContainText("50");

    const csv = await downloadThrough(page, page.getByRole("link", { name: mt("exportTable", { table: mt("dashboard.campaigns") }) }));
    expect(csv).toContain(`${campaign.name},Acme Brand,EUR,50,0,2,4.00,0.90,29.99,33.32`);
  });

  test("the dashboard's filters narrow the figures without JavaScript, drill down from a row, export what is shown and wrap on a phone", { tag: "@nojs" }, async ({ app, baseURL, server, javaScriptEnabled }) => {
    const { page } = app;
    const campaign = await campaignWithWallet(page, baseURL!);
    await sendEvents(page, server.dataDir, events(campaign));

    await page.goto("/?tab=teams&period=today");
    const form = page.getByRole("form", { name: mt("filters.formLabel") });
    const apply = () => form.getByRole("button", { name: mt("period.apply") }).click();
    // A team first: then its wallets are offered.
    await form.getByRole("combobox", { name: mt("filters.team"), exact: true }).selectOption(TEAM);
    await apply();
    await expect(page).toHaveURL(/[?&]team=acme-brand/);
    await form.getByRole("combobox", { name: mt("filters.wallet"), exact: true }).selectOption({ label: campaign.walletLabel });
    await form.getByRole("combobox", { name: mt("filters.placement"), exact: true }).selectOption({ label: ut("placements.plp") });
    await form.getByRole("combobox", { name: mt("filters.device"), exact: true }).selectOption({ label: tt("devices.desktop") });
    await apply();
    await expect(page).toHaveURL(new RegExp(`wallet=${campaign.wallet}.*placement=plp.*device=desktop`));

    // The campaign's 10 displays on category pages, on desktop (its 40 on search, on mobile, left out).
    const tiles = page.getByRole("list", { name: mt("totals") });
    await expect(tiles.getByRole("listitem").filter({ hasText: mt("metric.displays") }).locator(".kpi-value")).toHaveText("10");
    const active = page.getByRole("list", { name: mt("filters.active") });
    await expect(active).toContainText(mt("filters.activeItem", { name: mt("filters.wallet"), value: campaign.walletLabel }));
    await expect(active).toContainText(mt("filters.activeItem", { name: mt("filters.placement"), value: ut("placements.plp") }));

    // The Campaigns tab keeps the filters; its export link carries them, and the file has the filtered figure.
    const tabs = page.getByRole("navigation", { name: ut("dashboard.tabs") });
    await tabs.getByRole("link", { name: ut("dashboard.tab.campaigns") }).click();
    await expect(page).toHaveURL(/tab=campaigns.*placement=plp/);
    const campaignRow = page.getByRole("row").filter({ has: page.getByRole("link", { name: campaign.name, exact: true }) });
    await expect(campaignRow).toContainText("10");
    const exportLink = page.getByRole("link", { name: mt("exportTable", { table: mt("dashboard.campaigns") }) });
    const href = (await exportLink.getAttribute("href"))!;
    for (const part of ["period=today", "team=acme-brand", `wallet=${campaign.wallet}`, "placement=plp", "device=desktop", "tab=campaigns"]) expect(href).toContain(part);
    const csv = await downloadThrough(page, exportLink);
    expect(csv.trim().split("\r\n")).toEqual([expect.stringContaining("Campaign,Advertiser,Currency,Displays"), expect.stringMatching(new RegExp(`^${campaign.name},Acme Brand,EUR,10,0,0,`))]);

    // 390 px wide: the filters wrap, nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await page.setViewportSize({ width: 1280, height: 800 });

    // A device nothing was served on: the empty state, and "Clear filters" keeps the period and the tab.
    await form.getByRole("combobox", { name: mt("filters.device"), exact: true }).selectOption({ label: tt("devices.tablet") });
    await apply();
    await expect(page.getByText(mt("filters.empty"))).toBeVisible();
    await page.getByRole("link", { name: mt("filters.clear") }).first().click();
    await expect(page).toHaveURL(/tab=campaigns&period=today$/);
    await expect(campaignRow).toContainText("50");

    // Drill down: the team's row to its wallets, the wallet's row to its campaigns.
    await tabs.getByRole("link", { name: ut("dashboard.tab.teams") }).click();
    await page.getByRole("link", { name: mt("drill.walletsOf", { name: "Acme Brand" }) }).click();
    await expect(page).toHaveURL(/tab=wallets.*team=acme-brand/);
    await page.getByRole("link", { name: mt("drill.campaignsOf", { name: campaign.walletLabel }) }).click();
    await expect(page).toHaveURL(new RegExp(`tab=campaigns.*team=acme-brand&wallet=${campaign.wallet}`));
    await expect(page.getByRole("row")).toHaveCount(2);
    await expect(campaignRow).toContainText("50");
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
  });

  test("the heatmap beside the dayparting grid covers the last 30 days, then the period chosen beside it", { tag: "@nojs" }, async ({ app, baseURL, server, javaScriptEnabled }) => {
    const { page } = app;
    const campaign = await campaignWithWallet(page, baseURL!);
    await sendEvents(page, server.dataDir, events(campaign));

    await page.goto(`/campaigns/${campaign.id}/targeting`);
    const grid = page.getByRole("table", { name: /Hours the campaign runs/ });
    const evidence = page.getByRole("region", { name: mt("campaign.heatmap") });
    const heatmap = page.getByRole("table", { name: mt("campaign.heatmapCaption") });
    await expect(grid).toBeVisible();
    await expect(evidence).toBeVisible();
    // The last 30 days end yesterday: today's clicks are not in them yet, and a line says so
    // instead of an empty-looking grid.
    await expect(evidence.getByRole("combobox", { name: mt("period.preset"), exact: true })).toHaveValue("last30");
    await expect(heatmap).toHaveCount(0);
    const day = (offset: number) => new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" }).format(new Date(`${today()}T00:00:00Z`).getTime() + offset * 86_400_000);
    await expect(evidence.getByText(mt("campaign.heatmapEmptyBeforeToday", { from: day(-30), to: day(-1), today: mt("presets.today"), lifetime: mt("presets.campaignLifetime") }))).toBeVisible();

    await evidence.getByRole("combobox", { name: mt("period.preset"), exact: true }).selectOption("today");
    await evidence.getByRole("button", { name: mt("period.apply") }).click();
    await expect(page).toHaveURL(/\/targeting\?period=today/);
    // Today's 2 clicks in one cell of today's weekday row, the grid still there to act on.
    const cell = heatmap.locator("tbody td").filter({ hasText: /^2$/ });
    await expect(cell).toHaveCount(1);
    await expect(grid).toBeVisible();
    // The same day and hour headings as the grid beside it ("Monday", "00"), read as "00:00".
    await expect(heatmap.getByRole("rowheader")).toHaveText(await grid.getByRole("rowheader").allTextContents());
    expect(await heatmap.getByRole("columnheader").allTextContents()).toEqual(await grid.getByRole("columnheader").allTextContents());
    await expect(heatmap.getByRole("rowheader").first()).toHaveText(tt("days.mon"));
    await expect(heatmap.getByRole("columnheader", { name: "09:00", exact: true })).toBeVisible();
    // The figure shades its own cell (the darkest: the most clicks), the number kept as its text.
    await expect(cell).toHaveClass(/\bheat-5\b/);
    const shade = () => cell.evaluate((td) => getComputedStyle(td).backgroundColor);
    expect(await shade()).toBe("rgb(132, 167, 220)");
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await shade()).toBe("rgb(47, 94, 168)");
    await expect(cell).toHaveCSS("color", "rgb(230, 234, 240)");
    await page.emulateMedia({ colorScheme: "light" });
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
  });

  test("a campaign's breakdown and top charts are drawn over their tables; a table past 10,000 rows warns beside its export", async ({ app, baseURL, server }) => {
    const { page } = app;
    const campaign = await campaignWithWallet(page, baseURL!);
    await sendEvents(page, server.dataDir, events(campaign));
    // 10,001 products, each displayed once: more rows than a spreadsheet comfortably opens.
    const at = eventTime();
    const displays = Array.from({ length: 10_001 }, (_, i) => ({
      time: at,
      type: "display",
      team: TEAM,
      wallet: campaign.wallet,
      campaign: campaign.id,
      campaignType: "sponsored-products",
      slot: "sp",
      placement: "search",
      device: "mobile",
      product: `BULK-${i}`,
      cost: 0,
    }));
    // A click (a spend) on 12 of them, so the top chart by spend has bars to draw.
    const clicks = displays.slice(0, 12).map((event, i) => ({ ...event, type: "click", cost: 10_000 * (i + 1) }));
    await sendEvents(page, server.dataDir, [...clicks, ...displays.slice(0, 5_000)]);
    await sendEvents(page, server.dataDir, displays.slice(5_000));

    await page.goto(`/campaigns/${campaign.id}/statistics`);
    const breakdown = page.getByRole("figure", { name: mt("chart.breakdownLabel", { metric: mt("metric.displays"), breakdown: mt("breakdown.device") }) });
    await expect(breakdown.locator(".recharts-bar-rectangle")).toHaveCount(2);
    await page.getByRole("combobox", { name: mt("chart.breakdown") }).selectOption("placement");
    const byPlacement = page.getByRole("figure", { name: mt("chart.breakdownLabel", { metric: mt("metric.displays"), breakdown: mt("breakdown.placement") }) });
    await expect(byPlacement.locator(".recharts-bar-rectangle")).toHaveCount(2);

    const top = page.getByRole("figure", { name: mt("chart.topProducts", { count: 10, metric: mt("metric.cost") }) });
    await expect(top.locator(".recharts-bar-rectangle")).toHaveCount(10);
    await expect(page.getByText(mt("campaign.productsTruncated", { count: 200 }))).toBeVisible();
    await expect(page.getByText(mt("exportLarge", { limit: "10,000" }))).toBeVisible();
    await expect(page.getByRole("link", { name: mt("exportTable", { table: mt("campaign.products") }) })).toHaveAccessibleDescription(mt("exportLarge", { limit: "10,000" }));
    // Smaller tables do not warn: one warning on the page.
    await expect(page.getByText(mt("exportLarge", { limit: "10,000" }))).toHaveCount(1);

    // The charts' axis text stays readable in both themes (4.5:1 against the card it is drawn on).
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      const ratio = await byPlacement.locator(".recharts-cartesian-axis-tick-value").first().evaluate((text) => {
        const rgb = (value: string) => (value.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
        let card: Element | null = text.closest("figure");
        while (card && getComputedStyle(card).backgroundColor.replace(/\s/g, "").match(/rgba\(.*,0\)|transparent/)) card = card.parentElement;
        const lum = ([r, g, b]: number[]) =>
          [r!, g!, b!].map((v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)).reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i]!, 0);
        const [a, b] = [lum(rgb(getComputedStyle(text).fill)), lum(rgb(getComputedStyle(card!).backgroundColor))].sort((x, y) => y - x);
        return (a! + 0.05) / (b! + 0.05);
      });
      expect(ratio, colorScheme).toBeGreaterThanOrEqual(4.5);
    }
  });

  test("the campaign list shows Views and the period's spend for a custom period, how fresh they are, and downloads them", { tag: "@nojs" }, async ({ app, baseURL, server, javaScriptEnabled }) => {
    const { page } = app;
    const campaign = await campaignWithWallet(page, baseURL!);
    await sendEvents(page, server.dataDir, events(campaign));

    await page.goto(`/campaigns?q=${encodeURIComponent(campaign.name)}`);
    const filters = page.getByRole("search", { name: lt("filters.label") });
    await filters.getByText(lt("filters.more")).click();
    await filters.getByLabel(lt("columns.views"), { exact: true }).check();
    await filters.getByLabel(lt("columns.cost"), { exact: true }).check();
    await filters.getByRole("combobox", { name: mt("period.preset"), exact: true }).selectOption("custom");
    await filters.getByLabel(mt("period.from"), { exact: true }).fill(today());
    await filters.getByLabel(mt("period.to"), { exact: true }).fill(today());
    await filters.getByRole("button", { name: lt("filters.apply") }).click();
    await expect(page).toHaveURL(new RegExp(`columns=views.*columns=cost.*period=custom&from=${today()}&to=${today()}`));

    const table = page.getByRole("table", { name: lt("table.caption") });
    await expect(table.getByRole("columnheader", { name: lt("columns.cost") })).toBeVisible();
    const headers = await table.getByRole("columnheader").allInnerTexts();
    const cell = (label: string) => table.getByRole("row").nth(1).locator("th, td").nth(headers.findIndex((h) => h.trim().startsWith(label)));
    await expect(cell(lt("columns.cost"))).toHaveText("€0.90");
    await expect(cell(lt("columns.views"))).toHaveText("0");
    await expect(page.getByText(/^Newest event received /)).toBeVisible();

    const csv = await downloadThrough(page, page.getByRole("link", { name: mt("exportTable", { table: mt("dashboard.campaigns") }) }));
    expect(csv.trim().split("\r\n")).toEqual([expect.stringContaining("Campaign,Advertiser,Currency,Displays"), `${campaign.name},Acme Brand,EUR,50,0,2,4.00,0.90,29.99,33.32`]);
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
  });

  test("a wallet's statistics default to its lifetime and follow its period form; the team's Wallets tab compares and downloads", { tag: "@nojs" }, async ({ app, baseURL, server, javaScriptEnabled }) => {
    const { page } = app;
    const campaign = await campaignWithWallet(page, baseURL!);
    await sendEvents(page, server.dataDir, events(campaign));

    await page.goto(`/teams/${TEAM}/wallets/${campaign.wallet}`);
    const statistics = page.getByRole("region", { name: mt("title") });
    const tiles = statistics.getByRole("list", { name: mt("totals") });
    await expect(statistics.getByRole("combobox", { name: mt("period.preset"), exact: true })).toHaveValue("walletLifetime");
    await expect(tiles.getByRole("listitem").filter({ hasText: mt("metric.displays") })).toContainText("50");
    await statistics.getByRole("combobox", { name: mt("period.preset"), exact: true }).selectOption("yesterday");
    await statistics.getByRole("button", { name: mt("period.apply") }).click();
    await expect(page).toHaveURL(/statsPeriod=yesterday/);
    await expect(tiles.getByRole("listitem").filter({ hasText: mt("metric.displays") })).toContainText("0");
    // The ledger's own dates (from, to) leave the statistics' period as it is.
    const ledger = page.getByRole("form", { name: wt("ledger.filter") });
    await ledger.getByLabel(wt("ledger.from"), { exact: true }).fill(today());
    await ledger.getByRole("button", { name: ut("actions.filter") }).click();
    await expect(page).toHaveURL(new RegExp(`statsPeriod=yesterday.*from=${today()}`));
    await expect(statistics.getByRole("combobox", { name: mt("period.preset"), exact: true })).toHaveValue("yesterday");
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);

    await page.goto(`/teams/${TEAM}/wallets`);
    const teamStatistics = page.getByRole("region", { name: mt("title") });
    await teamStatistics.getByLabel(mt("period.compare")).check();
    await teamStatistics.getByRole("button", { name: mt("period.apply") }).click();
    await expect(page).toHaveURL(/compare=1/);
    // Each total says how it compares with yesterday (the other tests' events count too).
    await expect(teamStatistics.getByRole("list", { name: mt("totals") }).getByRole("listitem").first()).toContainText(/on the previous period|Nothing to compare with/);
    // Today is under way: compared with yesterday up to the same time, as the page says under the totals.
    await expect(teamStatistics.getByText(mt("change.partial").split("{{until}}")[0])).toBeVisible();
    const row = teamStatistics.getByRole("row").filter({ has: page.getByRole("link", { name: campaign.walletLabel, exact: true }) });
    await expect(row).toContainText("50");
    const csv = await downloadThrough(page, teamStatistics.getByRole("link", { name: mt("exportTable", { table: mt("dashboard.wallets") }) }));
    expect(csv).toContain(`${campaign.walletLabel},EUR,50,0,2,4.00,0.90,29.99,33.32`);
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
  });
});
