/**
 * The Targeting and the Banners and creative sections of the campaign editor in the browser,
 * with JavaScript on and off: dayparting set by keyboard, saved and kept; a banner uploaded and
 * counted; a video longer than 20 s refused with the spec's message; axe on both pages.
 *
 * Every test creates its own draft (the creation form, posted as the signed-in user), so the
 * specs running in parallel, and the JS-on and JS-off servers, never share a campaign.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Locator, Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./a11y";
import { createCampaign, en, enTexts, expect, submitAndWait, test, uniqueName } from "./fixtures";

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (name: string) => path.resolve(here, "../fixtures/media", name);

const tt = enTexts("campaignTargeting");
const ct = enTexts("campaigns");


function createTargetingCampaign(page: Page, baseURL: string, type: "banner-ads" | "sponsored-products" = "banner-ads"): Promise<string> {
  return createCampaign(page, baseURL, { name: uniqueName("Targeting e2e"), type });
}

class TargetingPage {
  readonly heading: Locator;
  readonly grid: Locator;
  readonly save: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 2, name: ct("editor.section.targeting") });
    this.grid = page.getByRole("table", { name: /Hours the campaign runs/ });
    this.save = page.getByRole("button", { name: tt("save"), exact: true });
  }

  async goto(id: string) {
    await this.page.goto(`/campaigns/${id}/targeting`);
    await expect(this.heading).toBeVisible();
  }

  /** A cell's checkbox (by id: role queries over 168 cells are slow; its label is checked in the test). */
  cell(day: string, hour: number): Locator {
    return this.grid.locator(`#daypart-${day}-${hour}`);
  }

  /** The label a cell's checkbox must have, e.g. "Monday, 09:00 to 10:00". */
  static cellName(day: string, hour: number): RegExp {
    const pad = (h: number) => `${String(h).padStart(2, "0")}:00`;
    return new RegExp(`^${tt(`days.${day}`)}, ${pad(hour)} to ${pad((hour + 1) % 24)}`);
  }

  preset(name: "all" | "none" | "business"): Locator {
    return this.page.getByRole("group", { name: tt("dayparting.presets") }).getByRole("button", { name: tt(`dayparting.preset.${name}`) });
  }
}

test.describe("targeting: dayparting by keyboard", () => {
  test.use({ role: "supplierAdmin" });

  test("clears the grid, ticks hours with the keyboard, saves, and finds them kept", { tag: "@nojs" }, async ({ page, app, baseURL, javaScriptEnabled }) => {
    test.setTimeout(60_000);
    const id = await createTargetingCampaign(page, baseURL!);
    const targeting = new TargetingPage(page);
    await targeting.goto(id);
    await expect(page.getByText(/Hours are in the retailer's time zone, Europe\/Paris/)).toBeVisible();
    await expect(targeting.grid.getByRole("columnheader", { name: "09:00" })).toBeVisible();
    await expect(targeting.grid.getByRole("rowheader", { name: "Monday" })).toBeVisible();
    await expect(targeting.cell("mon", 9)).toBeChecked();
    await expect(targeting.cell("mon", 9)).toHaveAccessibleName(TargetingPage.cellName("mon", 9));
    await expect(targeting.cell("tue", 10)).toHaveAccessibleName(TargetingPage.cellName("tue", 10));

    // The quick fill: in place with JS, a round trip to the server without.
    await targeting.preset("none").focus();
    if (javaScriptEnabled) await page.keyboard.press("Enter");
    else await submitAndWait(page, `/campaigns/${id}/targeting`, () => page.keyboard.press("Enter"));
    await expect(targeting.cell("mon", 9)).not.toBeChecked();
    await expect(targeting.cell("sun", 23)).not.toBeChecked();

    // Space ticks. Without JS, Tab moves to the next hour; with JS the arrow keys move in the grid
    // and the grid is a single Tab stop (not 168): Tab leaves it, Shift+Tab comes back to the cell.
    // The grid's caption says which, never both.
    const caption = targeting.grid.locator("caption");
    if (javaScriptEnabled) {
      await expect(caption).toContainText("Tab leaves the grid");
      await expect(caption).not.toContainText("Tab moves between hours");
    } else await expect(caption).toContainText("Tab moves between hours");
    await targeting.cell("mon", 9).focus();
    await page.keyboard.press("Space");
    await page.keyboard.press(javaScriptEnabled ? "ArrowRight" : "Tab");
    await expect(targeting.cell("mon", 10)).toBeFocused();
    await page.keyboard.press("Space");
    const expected: [string, number][] = [["mon", 9], ["mon", 10]];
    if (javaScriptEnabled) {
      await page.keyboard.press("ArrowDown");
      await expect(targeting.cell("tue", 10)).toBeFocused();
      await page.keyboard.press("Space");
      expected.push(["tue", 10]);
      await page.keyboard.press("Tab");
      await expect(targeting.grid.locator("input:focus")).toHaveCount(0);
      await page.keyboard.press("Shift+Tab");
      await expect(targeting.cell("tue", 10)).toBeFocused();
      // From the quick fills, one Tab enters the grid at that cell.
      await targeting.preset("business").focus();
      await page.keyboard.press("Tab");
      await expect(targeting.cell("tue", 10)).toBeFocused();
    }

    await targeting.save.focus();
    await submitAndWait(page, `/campaigns/${id}/targeting`, () => page.keyboard.press("Enter"));
    await expect(app.shell.toast(en("toast.changesSaved"))).toBeVisible();
    // The form is drawn anew after the save; with JS the focus is on its Save button again, not lost.
    if (javaScriptEnabled) await expect(targeting.save).toBeFocused();

    await page.reload();
    await expect(targeting.heading).toBeVisible();
    for (const [day, hour] of expected) await expect(targeting.cell(day, hour)).toBeChecked();
    await expect(targeting.cell("mon", 8)).not.toBeChecked();
    await expect(targeting.cell("mon", 11)).not.toBeChecked();
    await expect(page.getByText(tt("dayparting.savedHours_other", { count: expected.length }))).toBeVisible();
  });

  test("names each placement and slot the same on Targeting, Bidding, Budget and History, never by its code", async ({ page, baseURL }) => {
    const id = await createTargetingCampaign(page, baseURL!, "sponsored-products");
    const targeting = new TargetingPage(page);
    await targeting.goto(id);
    const placements = page.getByRole("group", { name: tt("placementsLegend") });
    await expect(placements.getByRole("checkbox")).toHaveCount(5);
    for (const p of ["search", "plp", "pdp", "hub", "home"]) await expect(placements.getByRole("checkbox", { name: en(`placements.${p}`), exact: true })).toBeVisible();
    const slots = page.getByRole("group", { name: tt("slotsLegend") });
    await expect(slots.getByRole("checkbox", { name: new RegExp(`^${en("slots.sp").replace(/[()]/g, "\\$&")}`) })).toBeVisible();
    await placements.getByRole("checkbox", { name: en("placements.home"), exact: true }).uncheck();
    await slots.getByRole("checkbox", { name: new RegExp(`^${en("slots.slider").replace(/[()]/g, "\\$&")}`) }).uncheck();
    await submitAndWait(page, `/campaigns/${id}/targeting`, () => targeting.save.click());

    for (const section of ["bidding", "budget"]) {
      await page.goto(`/campaigns/${id}/${section}`);
      await expect(page.getByLabel(en("placements.plp"), { exact: true })).toBeVisible();
    }

    await page.goto(`/campaigns/${id}/history`);
    const change = page.getByRole("table").first();
    await expect(change.getByRole("row", { name: /^Placements/ })).toContainText(
      `${en("placements.search")}, ${en("placements.plp")}, ${en("placements.pdp")}, ${en("placements.hub")}, ${en("placements.home")}`,
    );
    await expect(change.getByRole("row", { name: /^Slots switched off/ })).toContainText(en("slots.slider"));
    await expect(change).not.toContainText(/(^|, )(search|plp|pdp|hub|home|sp|slider)(,|$)/);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    }
  });

  test("refuses a save with no device, keeping the rest of the input", { tag: "@nojs" }, async ({ page, baseURL }) => {
    const id = await createTargetingCampaign(page, baseURL!);
    const targeting = new TargetingPage(page);
    await targeting.goto(id);
    const devices = page.getByRole("group", { name: tt("devices.legend") });
    for (const d of ["desktop", "mobile", "tablet", "unknown"]) await devices.getByRole("checkbox", { name: tt(`devices.${d}`) }).uncheck();
    await page.getByLabel(tt("capping.max")).fill("8");
    await targeting.save.click();
    await expect(devices.getByText(tt("errors.devicesEmpty"))).toBeVisible();
    await expect(page.getByLabel(tt("capping.max"))).toHaveValue("8");
  });
  // The cause of the banner upload test's flaky toast: creating the draft flashes a toast, shown on
  // the first page; a save within its 3 s reused that element, and so its running fade-out, and
  // 'Changes saved' vanished early. Each toast now gets its own element and its own 3 s.
  test("a toast that follows another within 3 s gets its own full 3 s (JS)", async ({ page, app, baseURL, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "without JavaScript every toast comes with a new page");
    const id = await createTargetingCampaign(page, baseURL!);
    const targeting = new TargetingPage(page);
    // Hold every toast's fade-out (as hovering does), so the second surely comes while the first shows.
    await page.addInitScript(() =>
      document.addEventListener("DOMContentLoaded", () => {
        const style = document.createElement("style");
        style.textContent = ".toast-success { animation-play-state: paused !important; }";
        document.head.append(style);
      }),
    );
    await targeting.goto(id);
    const first = page.getByRole("status").locator(".toast");
    await expect(first).toBeVisible();
    await first.evaluate((element) => element.setAttribute("data-e2e-first", ""));
    await submitAndWait(page, `/campaigns/${id}/targeting`, () => targeting.save.click());
    const saved = app.shell.toast(en("toast.changesSaved"));
    await expect(saved).toBeVisible();
    await expect(saved.locator("[data-e2e-first]")).toHaveCount(0);
    const elapsed = await saved.locator(".toast").evaluate((element) => Number(element.getAnimations()[0]?.currentTime ?? 0));
    expect(elapsed).toBeLessThan(1_000);
  });
});


class CreativePage {
  readonly heading: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 2, name: ct("editor.section.creative") });
  }

  async goto(id: string) {
    await this.page.goto(`/campaigns/${id}/creative`);
    await expect(this.heading).toBeVisible();
  }

  slot(slot: string): Locator {
    return this.page.getByRole("group", { name: new RegExp(`^Slot ${slot} `) });
  }
}

test.describe("banners and creative", () => {
  test.use({ role: "supplierAdmin" });

  test("uploads a banner with its link, which then counts", { tag: "@nojs" }, async ({ page, app, baseURL, javaScriptEnabled }) => {
    const id = await createTargetingCampaign(page, baseURL!);
    const creative = new CreativePage(page);
    await creative.goto(id);
    await expect(page.getByText(tt("banners.counted_other", { count: 0, total: 4 }))).toBeVisible();
    const slot = creative.slot("670x980");
    // By keyboard (the file field is the browser's own, a Tab stop): Tab goes on to the link.
    const file = slot.getByLabel(tt("banners.image", { size: "670x980" }));
    await file.setInputFiles(fixture("banner-670x980.png"));
    await file.focus();
    await page.keyboard.press("Tab");
    await expect(slot.getByLabel(tt("banners.link"))).toBeFocused();
    await page.keyboard.type("https://shop.example/acme");
    const save = page.getByRole("button", { name: tt("banners.save") });
    await save.focus();
    await submitAndWait(page, `/campaigns/${id}/creative`, () => page.keyboard.press("Enter"));
    await expect(app.shell.toast(en("toast.changesSaved"))).toBeVisible();
    // The form drawn anew has one more field (the slot's "Remove image"): the focus is still on Save (JS).
    if (javaScriptEnabled) await expect(save).toBeFocused();

    await expect(page.getByText(tt("banners.counted_one", { count: 1, total: 4 }))).toBeVisible();
    await expect(creative.slot("670x980").getByText(tt("banners.status.counted"))).toBeVisible();
    const image = creative.slot("670x980").getByRole("img", { name: tt("banners.currentImage", { slot: "670x980" }) });
    await expect(image).toBeVisible();
    const served = await page.request.get((await image.getAttribute("src"))!);
    expect(served.status()).toBe(200);
    expect(served.headers()["content-type"]).toBe("image/png");
    await expect(creative.slot("670x980").getByLabel(tt("banners.link"))).toHaveValue("https://shop.example/acme");
  });

  test("refuses a banner of the wrong size with the required size", { tag: "@nojs" }, async ({ page, baseURL }) => {
    const id = await createTargetingCampaign(page, baseURL!);
    const creative = new CreativePage(page);
    await creative.goto(id);
    const slot = creative.slot("345x90");
    await slot.getByLabel(tt("banners.image", { size: "690x180" })).setInputFiles(fixture("banner-670x980.png"));
    await submitAndWait(page, `/campaigns/${id}/creative`, () => page.getByRole("button", { name: tt("banners.save") }).click());
    await expect(slot.getByText(tt("media.bannerSize", { slot: "345x90", width: 690, height: 180, actualWidth: 670, actualHeight: 980 }))).toBeVisible();
    await expect(page.getByRole("alert").filter({ hasText: tt("errors.filesNotSaved") })).toBeVisible();
  });

  test("refuses a video longer than 20 s with 'Video is longer than 20s', keeping the typed texts", { tag: "@nojs" }, async ({ page, baseURL }) => {
    const id = await createTargetingCampaign(page, baseURL!);
    const creative = new CreativePage(page);
    await creative.goto(id);
    await page.getByRole("checkbox", { name: tt("creative.show.video") }).check();
    await page.getByLabel(tt("creative.headline"), { exact: true }).fill("Spring sale");
    await page.getByLabel(tt("creative.video"), { exact: true }).setInputFiles(fixture("video-25s-1280x720.mp4"));
    await submitAndWait(page, `/campaigns/${id}/creative`, () => page.getByRole("button", { name: tt("creative.save") }).click());
    await expect(page.getByText("Video is longer than 20s", { exact: true })).toBeVisible();
    await expect(page.getByLabel(tt("creative.headline"), { exact: true })).toHaveValue("Spring sale");
    await expect(page.getByRole("checkbox", { name: tt("creative.show.video") })).toBeChecked();
    // Nothing was saved: no current video (a fresh GET; a reload would post the form again without JS).
    await creative.goto(id);
    await expect(page.getByLabel(tt("creative.headline"), { exact: true })).toHaveValue("");
    await expect(page.getByRole("checkbox", { name: tt("creative.removeVideo") })).toHaveCount(0);
  });

  test("a video saved without its poster says 'Video poster: transcoding in progress' until a poster is stored", async ({ page, baseURL }) => {
    const id = await createTargetingCampaign(page, baseURL!);
    const creative = new CreativePage(page);
    await creative.goto(id);
    await page.getByRole("checkbox", { name: tt("creative.show.video") }).check();
    await page.getByLabel(tt("creative.ratio.landscape")).check();
    await page.getByLabel(tt("creative.video"), { exact: true }).setInputFiles(fixture("video-2s-1920x1080.mp4"));
    await submitAndWait(page, `/campaigns/${id}/creative`, () => page.getByRole("button", { name: tt("creative.save") }).click());
    await creative.goto(id);
    const pending = page.getByRole("status").filter({ hasText: "Video poster: transcoding in progress" });
    await expect(pending).toBeVisible();
    await page.getByLabel(tt("creative.poster"), { exact: true }).setInputFiles(fixture("image-160x90.jpg"));
    await submitAndWait(page, `/campaigns/${id}/creative`, () => page.getByRole("button", { name: tt("creative.save") }).click());
    await creative.goto(id);
    await expect(page.getByRole("img", { name: tt("creative.currentPoster") })).toBeVisible();
    await expect(pending).toHaveCount(0);
  });

  test("captures the poster from the chosen video's current frame (JS)", async ({ page, baseURL, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "capturing a frame needs JavaScript; without it the poster is uploaded");
    const id = await createTargetingCampaign(page, baseURL!);
    const creative = new CreativePage(page);
    await creative.goto(id);
    const capture = page.getByRole("button", { name: tt("creative.capture.button") });
    await expect(capture).toHaveCount(0);
    // A short clip the browser can decode, recorded in the page (the MP4 fixtures only carry the boxes a parser reads).
    await page.evaluate(async () => {
      const canvas = document.createElement("canvas");
      canvas.width = 320;
      canvas.height = 180;
      const context = canvas.getContext("2d")!;
      const stream = canvas.captureStream(30);
      const recorder = new MediaRecorder(stream, { mimeType: "video/webm" });
      const chunks: Blob[] = [];
      recorder.ondataavailable = (event) => chunks.push(event.data);
      const stopped = new Promise((resolve) => (recorder.onstop = resolve));
      recorder.start();
      for (let i = 0; i < 15; i++) {
        context.fillStyle = `hsl(${i * 20}, 70%, 50%)`;
        context.fillRect(0, 0, 320, 180);
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      recorder.stop();
      await stopped;
      const input = document.getElementById("creative-video") as HTMLInputElement;
      const transfer = new DataTransfer();
      transfer.items.add(new File(chunks, "clip.webm", { type: "video/webm" }));
      input.files = transfer.files;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    });
    await expect(capture).toBeVisible();
    const preview = page.getByLabel(tt("creative.capture.videoLabel"));
    await expect.poll(() => preview.evaluate((v: HTMLVideoElement) => v.readyState), { message: "the clip is loaded" }).toBeGreaterThanOrEqual(2);
    await capture.click();
    await expect(page.getByText(/is the new poster/)).toBeVisible();
    await expect(page.getByRole("img", { name: tt("creative.capture.previewAlt") })).toBeVisible();
    const poster = await page.getByLabel(tt("creative.poster"), { exact: true }).evaluate((input: HTMLInputElement) => {
      const f = input.files?.[0];
      return f ? { name: f.name, type: f.type, size: f.size } : null;
    });
    expect(poster).toMatchObject({ name: "poster.jpg", type: "image/jpeg" });
    expect(poster!.size).toBeGreaterThan(0);
  });

  test("says banners are not supported on a sponsored-products campaign", async ({ page, baseURL }) => {
    const id = await createTargetingCampaign(page, baseURL!, "sponsored-products");
    await new CreativePage(page).goto(id);
    await expect(page.getByText(tt("banners.onlyBannerAds", { type: ct("types.sponsored-products") }))).toBeVisible();
    await expect(page.getByRole("button", { name: tt("banners.save") })).toHaveCount(0);
    await expect(page.getByRole("button", { name: tt("creative.save") })).toBeVisible();
  });
});

test.describe("what a supplier viewer sees", () => {
  test.use({ role: "supplierViewer" });

  test("reads the sections without a way to save", async ({ page, browser, server, baseURL }) => {
    // The campaign is created by a supplier admin in another context.
    const context = await browser.newContext({ baseURL, storageState: path.join(server.authDir, "supplierAdmin.json") });
    const id = await createTargetingCampaign(await context.newPage(), baseURL!);
    await context.close();
    const targeting = new TargetingPage(page);
    await targeting.goto(id);
    await expect(page.getByText(tt("readOnly"))).toBeVisible();
    await expect(targeting.save).toHaveCount(0);
    await expect(targeting.cell("mon", 9)).toBeDisabled();
  });
});

test.describe("accessibility of the sections", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "axe needs JavaScript in the page");
  test.use({ role: "retailerAdmin" });

  test("axe finds no serious violation on Targeting", async ({ page, baseURL }) => {
    test.setTimeout(90_000);
    const id = await createTargetingCampaign(page, baseURL!);
    await new TargetingPage(page).goto(id);
    await expectNoSeriousA11yViolations(page);
  });

  test("axe finds no serious violation on Banners and creative, for both types", async ({ page, baseURL }) => {
    test.setTimeout(90_000);
    const id = await createTargetingCampaign(page, baseURL!);
    await new CreativePage(page).goto(id);
    await expectNoSeriousA11yViolations(page);
    const sp = await createTargetingCampaign(page, baseURL!, "sponsored-products");
    await new CreativePage(page).goto(sp);
    await expectNoSeriousA11yViolations(page);
  });
});
