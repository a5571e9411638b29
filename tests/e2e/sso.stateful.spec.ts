/**
 * Single sign-on end to end (issue 12 §1): an operator sets up the identity provider on its
 * settings screen, then a signed-out visitor signs in with 'Sign in with single sign-on'. The
 * identity provider is real (tests/saml-idp.ts: generated keys, signed responses), on another
 * site than the console (localhost against 127.0.0.1), so the browser's answer to the console is
 * the cross-site POST a real IdP makes. With JavaScript its page posts by itself; without, the
 * visitor presses its button. Saving changes the whole server's settings: a stateful spec, which
 * switches single sign-on off again.
 */
import type { Page } from "@playwright/test";
import { startTestIdp, type TestIdp } from "../saml-idp";
import { expectNoSeriousA11yViolations } from "./a11y";
import { en, enTexts, expect, Shell, submitAndWait, test } from "./fixtures";

const s = enTexts("sso");
const PATH = "/settings/retailer/sso";

async function checkA11y(page: Page, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
}

async function saveSettings(page: Page) {
  await submitAndWait(page, PATH, () => page.getByRole("button", { name: s("settings.form.save"), exact: true }).click());
  await expect(new Shell(page).toast(en("toast.changesSaved"))).toBeVisible();
}

let idp: TestIdp;
test.beforeAll(async () => {
  idp = await startTestIdp("localhost");
});
test.afterAll(async () => {
  await idp?.stop();
});

test.describe("single sign-on", () => {
  test.slow();

  test("an operator sets up the identity provider; a retailer signs in with single sign-on and lands where they were going", { tag: "@nojs" }, async ({ app, openBrowser, javaScriptEnabled }) => {
    const operator = (await openBrowser("operator")).page;
    await operator.goto("/settings/retailer");
    await operator.getByRole("link", { name: s("settings.link"), exact: true }).click();
    await expect(operator).toHaveURL(PATH);
    await expect(operator.getByRole("heading", { level: 1, name: s("settings.title"), exact: true })).toBeVisible();
    await checkA11y(operator, javaScriptEnabled);

    await operator.getByLabel(s("settings.form.metadataXml"), { exact: true }).fill(idp.metadataXml());
    // Left empty, the IdP's entity id is read from the metadata.
    await operator.getByLabel(s("settings.form.idpEntityId"), { exact: true }).fill("");
    await operator.getByLabel(s("settings.form.enabled"), { exact: true }).check();
    await expect(operator.getByRole("checkbox", { name: s("settings.form.type.retailer"), exact: true })).toBeChecked();
    await saveSettings(operator);
    // What the metadata says is shown: the IdP's entity id and where users are sent.
    await expect(operator.getByRole("region", { name: s("settings.idp.title") })).toContainText(idp.entityId);
    await expect(operator.getByRole("region", { name: s("settings.idp.title") })).toContainText(idp.ssoUrl);

    try {
      const { page, login } = app;
      await login.goto("?to=%2Fcampaigns");
      await checkA11y(page, javaScriptEnabled);
      idp.user = "retailer.admin@example.com";
      await page.getByRole("link", { name: s("login.button"), exact: true }).click();
      if (!javaScriptEnabled) {
        // The identity provider's page: without JavaScript, its button posts the answer.
        await expect(page.getByRole("heading", { name: "Test identity provider" })).toBeVisible();
        await page.getByRole("button", { name: "Continue to the console" }).click();
      }
      await expect(page).toHaveURL(/\/campaigns$/);
      await expect(new Shell(page).userMenuButton).toBeVisible();
      expect(idp.requests.at(-1)?.relayState).toBe("/campaigns");

      // An account unknown to the console: signed out, back on the sign-in page with why.
      const other = (await openBrowser()).page;
      await other.goto("/login");
      idp.user = "nobody@retailer.example";
      await other.getByRole("link", { name: s("login.button"), exact: true }).click();
      if (!javaScriptEnabled) await other.getByRole("button", { name: "Continue to the console" }).click();
      await expect(other).toHaveURL(/\/login$/);
      await expect(other.getByText(s("unknownUser"))).toBeVisible();
    } finally {
      await operator.goto(PATH);
      await operator.getByLabel(s("settings.form.enabled"), { exact: true }).uncheck();
      await saveSettings(operator);
    }
    await app.page.context().clearCookies();
    await app.login.goto();
    await expect(app.page.getByRole("link", { name: s("login.button"), exact: true })).toHaveCount(0);
  });
});
