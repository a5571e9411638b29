/** axe (WCAG 2 A/AA): no serious or critical violation on the main screens. */
import { expectNoSeriousA11yViolations } from "./a11y";
import { en, expect, test } from "./fixtures";

// axe runs as a script inside the page, which a JS-off context refuses; the server-rendered DOM
// it would check there is the one the JS-on project checks before hydration changes nothing.
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "axe needs JavaScript in the page");

test("the sign-in page", async ({ app }) => {
  await app.login.goto();
  await expectNoSeriousA11yViolations(app.page);
});

test.describe("as a retailer administrator", () => {
  test.use({ role: "retailerAdmin" });

  test("the dashboard", async ({ app }) => {
    await app.page.goto("/");
    await expect(app.shell.heading(en("dashboard.title"))).toBeVisible();
    await expectNoSeriousA11yViolations(app.page);
  });

  test("the profile", async ({ app }) => {
    await app.profile.goto();
    await expectNoSeriousA11yViolations(app.page);
  });
});

test.describe("as an operator", () => {
  test.use({ role: "operator" });

  test("the settings", async ({ app }) => {
    await app.settings.goto();
    await expectNoSeriousA11yViolations(app.page);
  });
});
