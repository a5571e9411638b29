/**
 * The profile photo and display preferences (issue 11 §4), JS on and off: a photo is uploaded on
 * /profile, shown there and in the top bar, then removed; a file that is not an image is refused
 * with its message; axe on the profile. The user record changes, so this runs in the stateful
 * project.
 */
import { crc32, deflateSync } from "node:zlib";
import { expectNoSeriousA11yViolations } from "./a11y";
import { DEMO_PASSWORD, DEMO_USERS, en, enTexts, expect, test, type Screens } from "./fixtures";

const pt = enTexts("profile");

function chunk(type: string, data: Uint8Array): Buffer {
  const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}
function png(size: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const rows = Buffer.alloc(size * (size + 1), 0x80);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(rows)), chunk("IEND", Buffer.alloc(0))]);
}

/**
 * A session of its own for the retailer viewer, whom no other spec changes (the password reset
 * spec, which runs before this one among the stateful specs, changes the supplier viewer's
 * password and ends their sessions).
 */
async function signedIn(openBrowser: () => Promise<Screens>): Promise<Screens> {
  const screens = await openBrowser();
  await screens.login.goto();
  await screens.login.signIn(DEMO_USERS.retailerViewer.email, DEMO_PASSWORD);
  await expect(screens.shell.mainMenu).toBeVisible();
  return screens;
}

test.describe("profile photo", () => {

  test("a photo is uploaded on the profile, shown in the top bar, and removed", { tag: "@nojs" }, async ({ openBrowser, javaScriptEnabled }) => {
    const { page, shell } = await signedIn(openBrowser);
    await page.goto("/profile");
    const section = page.getByRole("region", { name: pt("photo.title") });
    await expect(section.getByText(pt("photo.none"))).toBeVisible();

    // Not an image: refused with its message, nothing stored.
    await section.getByLabel(pt("photo.field")).setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a picture") });
    await section.getByRole("button", { name: pt("photo.upload") }).click();
    await expect(page.getByText(pt("photo.badType"))).toBeVisible();

    await page.getByRole("region", { name: pt("photo.title") }).getByLabel(pt("photo.field")).setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png(48) });
    // With JavaScript, the upload held on its way: only the photo's button shows it is working,
    // not the details' Save nor the password's.
    let release = () => {};
    if (javaScriptEnabled) {
      const held = new Promise<void>((resolve) => (release = resolve));
      let first = true;
      await page.route("**/profile*", async (route) => {
        if (first && route.request().method() === "POST") {
          first = false;
          await held;
        }
        await route.fallback();
      });
    }
    await page.getByRole("region", { name: pt("photo.title") }).getByRole("button", { name: pt("photo.upload") }).click();
    if (javaScriptEnabled) {
      await expect(page.getByRole("region", { name: pt("photo.title") }).locator("button[data-pending]")).toHaveCount(1);
      await expect(page.getByRole("region", { name: en("profile.details") }).locator("button[data-pending]")).toHaveCount(0);
      await expect(page.getByRole("region", { name: en("profile.password") }).locator("button[data-pending]")).toHaveCount(0);
      release();
    }
    await expect(shell.toast(en("toast.changesSaved"))).toBeVisible();
    const photo = page.getByRole("img", { name: pt("photo.current") });
    await expect(photo).toBeVisible();
    expect(await photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(48);
    // The top bar shows it too.
    await expect(page.getByRole("banner").locator("img.user-photo")).toHaveAttribute("src", /^\/files\/users\//);

    // Removal asks once more: the first click only opens the confirmation, and nothing is removed.
    await page.getByText(pt("photo.remove"), { exact: true }).click();
    await expect(page.getByText(pt("photo.removeConfirm"))).toBeVisible();
    await expect(page.getByRole("img", { name: pt("photo.current") })).toBeVisible();
    // Confirmed by keyboard: the button goes with the photo; the focus goes to the section's heading (JS), not to the page.
    await page.getByRole("button", { name: pt("photo.removeSubmit") }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByText(pt("photo.removed"))).toBeVisible();
    if (javaScriptEnabled) await expect(page.getByRole("heading", { name: pt("photo.title"), exact: true })).toBeFocused();
    await expect(page.getByRole("img", { name: pt("photo.current") })).toHaveCount(0);
    await expect(page.getByRole("banner").locator("img.user-photo")).toHaveCount(0);
  });

  test("the profile, with its photo and display sections, has no serious accessibility violation", async ({ openBrowser, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, "axe needs JavaScript in the page");
    const { page } = await signedIn(openBrowser);
    await page.goto("/profile");
    await expect(page.getByRole("region", { name: pt("display.title") })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});
