/**
 * Defects a new user hit (issue 8 section 2) whose test changes what other specs' sessions read,
 * so they run in the stateful project, one at a time, and put the state back:
 * - a rejected campaign does not ask 'Ready to activate?' (Activate is not offered): rejection
 *   needs moderation, switched on in the retailer settings for the whole server; back to draft,
 *   the question is asked again, and a second review approves it;
 * - in French, the team's campaigns read "Campagnes d’Acme Brand" (the elided "de"): French is
 *   the supplier's profile language, which every session of that account reads.
 */
import type { Page } from "@playwright/test";
import { CampaignEditor, createCampaign, en, enTexts, expect, fr, Shell, submitAndWait, test, uniqueName } from "./fixtures";

const ct = enTexts("campaigns");
const et = enTexts("campaignEditor");
const rt = enTexts("retailer");

test.describe("under moderation", () => {
  test.use({ role: "operator" });

  const PATH = "/settings/retailer";

  /**
   * Switches moderation of sponsored-products campaigns on, as the operator; returns how to put
   * the settings back as they were (the defaults again when they were in force, which the
   * retailer settings spec expects).
   */
  async function switchModerationOn(page: Page): Promise<() => Promise<void>> {
    const shell = new Shell(page);
    const save = () => submitAndWait(page, PATH, () => page.getByRole("button", { name: rt("save"), exact: true }).click());
    const moderation = page.getByRole("region", { name: rt("campaignTypes.sponsored-products"), exact: true }).getByRole("checkbox", { name: rt("types.moderationLabel") });
    await page.goto(PATH);
    const defaults = await page.getByText(rt("defaultsInForce"), { exact: true }).isVisible();
    const before = await moderation.isChecked();
    await moderation.check();
    await save();
    await expect(shell.toast(en("toast.changesSaved"))).toBeVisible();
    return async () => {
      await page.goto(PATH);
      if (defaults) {
        await page.getByText(rt("reset.action"), { exact: true }).click();
        await submitAndWait(page, PATH, () => page.getByRole("button", { name: rt("reset.confirm"), exact: true }).click());
        await expect(page.getByText(rt("defaultsInForce"), { exact: true })).toBeVisible();
      } else {
        await moderation.setChecked(before);
        await save();
        await expect(shell.toast(en("toast.changesSaved"))).toBeVisible();
      }
    };
  }

  test("a rejected campaign does not ask 'Ready to activate?' nor offer Activate; back to draft it does, and is approved", { tag: "@nojs" }, async ({ app, baseURL, openBrowser }) => {
    test.slow(); // Two browsers, moderation on and off, and eight forms.
    const { page } = app;
    const restoreSettings = await switchModerationOn(page);
    try {
      // The supplier completes a draft and activates it: it waits for a review.
      const supplier = await openBrowser("supplierAdmin");
      const mine = new CampaignEditor(supplier.page);
      const name = uniqueName("Rejected");
      const id = await createCampaign(supplier.page, baseURL!, { name });
      await supplier.page.goto(`/campaigns/${id}/bidding`);
      await mine.bid.fill("0.50");
      await mine.saveSection();
      await expect(mine.toast(en("toast.changesSaved"))).toBeVisible();
      await supplier.page.goto(`/campaigns/${id}`);
      await expect(mine.readiness).toContainText(et("readiness.complete"));
      await mine.act("enable");
      await expect(mine.toast(ct("toast.action.enableReview", { name }))).toBeVisible();
      await expect(mine.badge).toHaveText(ct("liveStatus.pending_review"));
      await expect(mine.readiness).toHaveCount(0);

      // The operator rejects it with a reason.
      const review = new CampaignEditor(page);
      await page.goto(`/campaigns/${id}`);
      await review.reject("The pictures show another brand's products.");
      await expect(review.toast(ct("toast.action.reject", { name }))).toBeVisible();

      // The supplier sees why, with no question about activating it and no Activate.
      await supplier.page.reload();
      await expect(mine.badge).toHaveText(ct("liveStatus.rejected"));
      await expect(supplier.page.getByRole("note").filter({ hasText: "The pictures show another brand's products." })).toBeVisible();
      await expect(mine.action("redraft")).toBeVisible();
      await expect(mine.action("enable")).toHaveCount(0);
      await expect(supplier.page.getByText(et("readiness.title"))).toHaveCount(0);
      await expect(supplier.page.getByText(et("readiness.complete"))).toHaveCount(0);

      // Back to draft, the question is asked again; sent for review once more, it is approved.
      await mine.act("redraft");
      await expect(mine.badge).toHaveText(ct("liveStatus.draft"));
      await expect(mine.readiness).toContainText(et("readiness.complete"));
      await mine.act("enable");
      await expect(mine.badge).toHaveText(ct("liveStatus.pending_review"));
      await page.reload();
      await review.act("approve");
      await expect(review.toast(ct("toast.action.approve", { name }))).toBeVisible();
      await supplier.page.reload();
      await expect(mine.badge).toHaveText(ct("liveStatus.scheduled"));
      await expect(mine.readiness).toHaveCount(0);
      await expect(mine.action("enable")).toHaveCount(0);
    } finally {
      await restoreSettings();
    }
  });
});

test.describe("in French", () => {
  test.use({ role: "supplierAdmin" });

  test("the team's campaigns read \"Campagnes d’Acme Brand\", with the elided de", { tag: "@nojs" }, async ({ app, baseURL }) => {
    const { page, shell } = app;
    const id = await createCampaign(page, baseURL!, { name: uniqueName("Elision") });
    await page.goto("/teams/acme-brand/campaigns");
    await shell.chooseLanguage(en("languages.fr"));
    try {
      await expect(page.locator("html")).toHaveAttribute("lang", "fr");
      await expect(page.getByRole("table", { name: "Campagnes d’Acme Brand", exact: true })).toBeVisible();
      await page.goto(`/campaigns/${id}`);
      await expect(page.getByRole("link", { name: "Campagnes d’Acme Brand", exact: true })).toBeVisible();
      await expect(page.getByText("Campagnes de Acme Brand")).toHaveCount(0);
    } finally {
      await new Shell(page, fr).chooseLanguage(fr("languages.en-GB"));
    }
  });
});

test.describe("in French, as an operator", () => {
  test.use({ role: "operator" });

  test("the campaign list fits 1,280 px without scrolling its table, by default and with the statistics columns", async ({ app, baseURL }) => {
    const { page, shell } = app;
    await page.setViewportSize({ width: 1280, height: 800 });
    await createCampaign(page, baseURL!, { name: uniqueName("Une campagne au nom assez long pour voir le tableau") });
    await page.goto("/campaigns");
    await shell.chooseLanguage(en("languages.fr"));
    try {
      await expect(page.locator("html")).toHaveAttribute("lang", "fr");
      const statistics = ["name", "team", "type", "liveStatus", "wallet", "spend", "displays", "views", "clicks", "ctr", "cost", "sales", "roas"];
      for (const path of ["/campaigns", `/campaigns?${statistics.map((c) => `columns=${c}`).join("&")}&period=last7`]) {
        await page.goto(path);
        const region = page.getByRole("region").filter({ has: page.locator("table.campaign-table") });
        await expect(region.getByRole("button", { name: /^Dupliquer / }).first()).toBeVisible();
        const { scrollWidth, clientWidth } = await region.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
        expect(scrollWidth, path).toBeLessThanOrEqual(clientWidth);
        // The "By" column's e-mails wrap only after "@" and the dots, never inside a part ("examp|le").
        const brokenParts = await region.locator("td.by-col").evaluateAll((cells) =>
          cells.flatMap((cell) =>
            [...cell.childNodes]
              .filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent)
              .filter((n) => {
                const range = document.createRange();
                range.selectNodeContents(n);
                return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
              })
              .map((n) => n.textContent),
          ),
        );
        expect(brokenParts, path).toEqual([]);
        if (path !== "/campaigns") continue;
        await expect(region.locator("td.by-col").filter({ hasText: "operator@example.com" }).first()).toBeVisible();
        // The filter bar's selects show their whole choice ("Tous les annonceurs", not "Tous les annon").
        const clipped = await page.locator(".campaign-filters-row select").evaluateAll((selects) =>
          (selects as HTMLSelectElement[]).flatMap((select) => {
            const style = getComputedStyle(select);
            const context = document.createElement("canvas").getContext("2d")!;
            context.font = style.font;
            const text = select.selectedOptions[0]?.text ?? "";
            const needed = context.measureText(text).width + parseFloat(style.paddingLeft) + 16; // the arrow
            return needed > select.clientWidth ? [text] : [];
          }),
        );
        expect(clipped).toEqual([]);
        // The bulk change's inputs on one line, though Daily budget has help text under its input.
        const tops = await page.locator(".bulk-edit-fields .field").evaluateAll((fields) => fields.map((f) => Math.round(f.querySelector("input, select")!.getBoundingClientRect().top)));
        expect(tops.length).toBeGreaterThan(1);
        expect(new Set(tops).size, JSON.stringify(tops)).toBe(1);
      }
    } finally {
      await new Shell(page, fr).chooseLanguage(fr("languages.en-GB"));
    }
  });
});
