/**
 * Statistics in the browser: events sent to POST /api/events (as the ad server would) show on a
 * campaign's Statistics tab and on the dashboard, per period, with the comparison, a chart (with
 * JavaScript), the breakdowns and the CSV export. The period form is a GET form: it works with
 * JavaScript off (@nojs). The rules behind the figures are tested in the integration suite.
 */
import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./a11y";
import { createCampaign, createWalletThroughForm, enTexts, expect, submitAndWait, test, uniqueName } from "./fixtures";

const mt = enTexts("metrics");
const ct = enTexts("campaigns");
const et = enTexts("campaignEditor");
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
  return { id, name, wallet };
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

function events(c: { id: string; wallet: string }) {
  const at = new Date(Date.now() - 60_000).toISOString();
  const base = { time: at, team: TEAM, wallet: c.wallet, campaign: c.id, campaignType: "sponsored-products", slot: "sp", cost: 0 };
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < 40; i++) out.push({ ...base, type: "display", placement: "search", device: "mobile" });
  for (let i = 0; i < 10; i++) out.push({ ...base, type: "display", placement: "plp", device: "desktop" });
  for (let i = 0; i < 2; i++) out.push({ ...base, type: "click", placement: "search", device: "mobile", cost: 450_000 });
  out.push({ ...base, type: "sale", placement: "search", device: "mobile", quantity: 1, sales: 2_999 });
  return out;
}

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
    if (javaScriptEnabled) {
      await expect(page.getByRole("figure", { name: mt("chart.timeLabel", { first: mt("metric.displays"), second: mt("metric.clicks") }) })).toBeVisible();
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
    expect(csv).toMatch(/mobile,40,/);
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
