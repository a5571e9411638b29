/**
 * The profile: saving it (toast) and its language. Both change the user record (version, locale)
 * that other specs' sign-ins also touch, so they run in the stateful project.
 */
import { DEMO_PASSWORD, DEMO_USERS, en, expect, fr, LoginPage, Shell, test } from "./fixtures";

test.describe("profile", () => {
  test.use({ role: "retailerAdmin" });

  test("saving the profile shows 'Changes Saved' and keeps the change", { tag: "@nojs" }, async ({ app }) => {
    const { profile, shell, page } = app;
    const lastname = `Retailer ${Math.random().toString(36).slice(2, 6)}`;
    await profile.goto();
    await profile.lastname.fill(lastname);
    await profile.save.click();

    await expect(shell.toast(en("toast.changesSaved"))).toBeVisible();
    await expect(page).toHaveURL("/profile");
    await page.reload();
    await expect(profile.lastname).toHaveValue(lastname);
  });
});

test.describe("language of a signed-in user", () => {
  test("French chosen in the user menu is kept in the profile", { tag: "@nojs" }, async ({ app, context }) => {
    const { shell, page } = app;
    const user = DEMO_USERS.supplierAdmin;
    const french = new Shell(page, fr);
    // A session of its own: signing out ends it on the server, and the stored one stays for other specs.
    await app.login.goto();
    await app.login.signIn(user.email, DEMO_PASSWORD);
    await page.goto("/");
    await shell.chooseLanguage(en("languages.fr"));
    await expect(french.heading(fr("dashboard.title"))).toBeVisible();
    await expect(french.mainMenu).toBeVisible();

    // Signed out, with no cookie left to remember the language: the profile brings French back.
    await french.signOut();
    await expect(new LoginPage(page, fr).heading).toBeVisible();
    await context.clearCookies();
    const login = new LoginPage(page, en);
    await login.goto();
    await login.signIn(user.email, DEMO_PASSWORD);
    // A supplier with a single team lands on it (issue 3 §2), in French.
    await expect(page).toHaveURL(/\/teams\/acme-brand(\/wallets|\/campaigns)?$/);
    await expect(french.mainMenu).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");

    // Back to English, for whoever uses this account next.
    await french.chooseLanguage(fr("languages.en-GB"));
    await expect(shell.mainMenu).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "en-GB");
  });
});
