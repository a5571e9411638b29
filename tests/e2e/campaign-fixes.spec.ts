/**
 * Defects a new user hit on the campaign screens (issue 8 section 2), in the browser: what only a
 * browser shows (the list's width, what is visible) and the 'Apply min bid' form, with JavaScript
 * on and off (the tests that submit a form are tagged @nojs). The rules behind them are tested in
 * tests/integration/app-campaign-fixes.test.ts.
 */
import { createCampaign, en, enTexts, expect, submitAndWait, test } from "./fixtures";

const ct = enTexts("campaigns");
const et = enTexts("campaignEditor");
const tt = enTexts("campaignTargeting");
/** The list's columns (app/domain/campaigns/list.ts): the default ones, and the statistics of a period. */
const DEFAULT_LIST_COLUMNS = ["name", "team", "type", "liveStatus", "wallet", "bid", "start", "end", "spend", "updated", "by"];
const METRIC_LIST_COLUMNS = ["displays", "views", "clicks", "ctr", "cost", "sales", "roas"];

test.describe("as a supplier administrator", () => {
  test.use({ role: "supplierAdmin" });

  test("'Apply min bid' after a typed bid was refused raises the typed bids and keeps the rest", { tag: "@nojs" }, async ({ app, baseURL }) => {
    const { page } = app;
    const id = await createCampaign(page, baseURL!);
    await page.goto(`/campaigns/${id}/bidding`);
    const bid = page.getByLabel(et("bidding.bidLabel"), { exact: true });
    const search = page.getByLabel(en("placements.search"), { exact: true });
    const home = page.getByLabel(en("placements.home"), { exact: true });
    await bid.fill("0.05");
    await search.fill("0.10");
    await home.fill("0.60");
    await submitAndWait(page, `/campaigns/${id}/bidding`, () => page.getByRole("button", { name: et("save"), exact: true }).click());
    await expect(page.getByText(ct("bidding.minBid", { 0: "€0.15" })).first()).toBeVisible();
    await expect(bid).toHaveValue("0.05");

    await submitAndWait(page, `/campaigns/${id}/bidding`, () => page.getByRole("button", { name: ct("bidding.applyMinBid") }).click());
    await expect(bid).toHaveValue("0.15");
    await expect(search).toHaveValue("0.15");
    await expect(home).toHaveValue("0.60");
    await expect(page.getByText(ct("bidding.minBid", { 0: "€0.15" }))).toHaveCount(0);
  });

  test("a sponsored-products campaign's Banners block does not say a banner type is no longer supported", async ({ app, baseURL }) => {
    const { page } = app;
    const id = await createCampaign(page, baseURL!);
    await page.goto(`/campaigns/${id}/creative`);
    await expect(page.getByRole("heading", { name: tt("banners.title"), exact: true })).toBeVisible();
    await expect(page.getByText(tt("banners.onlyBannerAds", { type: ct("types.sponsored-products") }))).toBeVisible();
    await expect(page.getByText(tt("banners.unsupported"))).toHaveCount(0);
  });

  for (const [label, width, height] of [
    ["a 1,280 px screen", 1280, 800],
    ["a 390 px phone", 390, 844],
  ] as const) {
    test(`the campaign list fits ${label} without sideways page scroll, statistics columns on or off`, async ({ app, baseURL }) => {
      const { page } = app;
      await page.setViewportSize({ width, height });
      await createCampaign(page, baseURL!, { name: "A campaign with a rather long name to see the table wrap" });
      // Every default column and every statistics column (Displays to ROAS, Views and the period's spend included).
      const withStatistics = `?${[...DEFAULT_LIST_COLUMNS, ...METRIC_LIST_COLUMNS].map((c) => `columns=${c}`).join("&")}&period=last7`;
      for (const path of ["/campaigns", "/teams/acme-brand/campaigns", `/campaigns${withStatistics}`, `/teams/acme-brand/campaigns${withStatistics}`]) {
        await page.goto(path);
        await expect(page.getByRole("table")).toBeVisible();
        const { scrollWidth, clientWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          clientWidth: document.documentElement.clientWidth,
        }));
        expect(scrollWidth, `${path} at ${width} px`).toBeLessThanOrEqual(clientWidth);
        // On a phone the table scrolls in its region, so names wrap between words, never inside
        // one ("Christma|s"). (At 1,280 px, with every column shown, a long word may break so that
        // the table fits.)
        if (width > 600) continue;
        const brokenWords = await page.locator("table th[scope=row] a").evaluateAll((links) =>
          links.flatMap((link) => {
            const text = link.firstChild;
            if (!text || text.nodeType !== Node.TEXT_NODE) return [];
            const broken: string[] = [];
            for (const match of (text.textContent ?? "").matchAll(/\S+/g)) {
              const range = document.createRange();
              range.setStart(text, match.index!);
              range.setEnd(text, match.index! + match[0].length);
              if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) broken.push(match[0]);
            }
            return broken;
          }),
        );
        expect(brokenWords, `${path} at ${width} px`).toEqual([]);
      }
    });
  }

  test("the campaign list's statistics with its name, advertiser, type, live status, wallet and total spend fit 1,280 px without scrolling the table", async ({ app, baseURL }) => {
    const { page } = app;
    await page.setViewportSize({ width: 1280, height: 800 });
    await createCampaign(page, baseURL!, { name: "A campaign with a rather long name to see the table wrap" });
    const columns = ["name", "team", "type", "liveStatus", "wallet", "spend", ...METRIC_LIST_COLUMNS];
    await page.goto(`/campaigns?${columns.map((c) => `columns=${c}`).join("&")}&period=last7`);
    const region = page.getByRole("region", { name: enTexts("campaignList")("table.caption") });
    await expect(region.getByRole("columnheader", { name: enTexts("campaignList")("columns.cost") })).toBeVisible();
    const { scrollWidth, clientWidth } = await region.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  });
});
