/**
 * Defects a new user hit (issue 8 section 2) whose test changes what other specs' sessions read,
 * so they run in the stateful project, one at a time, and put the state back:
 * - a rejected campaign does not ask 'Ready to activate?' (Activate is not offered): rejection
 *   needs moderation, switched on in the retailer settings for the whole server;
 * - in French, the team's campaigns read "Campagnes d'Acme Brand" (the elided "de"): French is
 *   the supplier's profile language, which every session of that account reads.
 */
import type { Page } from "@playwright/test";
import { CampaignEditor, createCampaign, en, enTexts, expect, fr, Shell, submitAndWait, test, uniqueName } from "./fixtures";

const ct = enTexts("campaigns");
const et = enTexts("campaignEditor");
const rt = enTexts("retailer");

test.describe("under moderation", () => {
  test.use({ role: "operator" });

  /** Switches moderation of sponsored-products campaigns on or off, as the operator. */
  async function setModeration(page: Page, on: boolean) {
    await page.goto("/settings/retailer");
    const type = page.getByRole("region", { name: rt("campaignTypes.sponsored-products"), exact: true });
    await type.getByRole("checkbox", { name: rt("types.moderationLabel") }).setChecked(on);
    await submitAndWait(page, "/settings/retailer", () => page.getByRole("button", { name: rt("save"), exact: true }).click());
    await expect(new Shell(page).toast(en("toast.changesSaved"))).toBeVisible();
  }

  test("a rejected campaign does not ask 'Ready to activate?' nor offer Activate", { tag: "@nojs" }, async ({ app, baseURL, openBrowser }) => {
    test.slow(); // Two browsers, moderation on and off, and four forms.
    const { page } = app;
    await setModeration(page, true);
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
    } finally {
      await setModeration(page, false);
    }
  });
});

test.describe("in French", () => {
  test.use({ role: "supplierAdmin" });

  test("the team's campaigns read \"Campagnes d'Acme Brand\", with the elided de", { tag: "@nojs" }, async ({ app, baseURL }) => {
    const { page, shell } = app;
    const id = await createCampaign(page, baseURL!, { name: uniqueName("Elision") });
    await page.goto("/teams/acme-brand/campaigns");
    await shell.chooseLanguage(en("languages.fr"));
    try {
      await expect(page.locator("html")).toHaveAttribute("lang", "fr");
      await expect(page.getByRole("table", { name: "Campagnes d'Acme Brand", exact: true })).toBeVisible();
      await page.goto(`/campaigns/${id}`);
      await expect(page.getByRole("link", { name: "Campagnes d'Acme Brand", exact: true })).toBeVisible();
      await expect(page.getByText("Campagnes de Acme Brand")).toHaveCount(0);
    } finally {
      await new Shell(page, fr).chooseLanguage(fr("languages.en-GB"));
    }
  });
});
