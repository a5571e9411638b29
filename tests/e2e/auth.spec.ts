/** Signing in and out, the guard's redirects, and sign-in failures (JS on and off). */
import { DEMO_PASSWORD, DEMO_USERS, en, expect, ROLES, test, unknownEmail } from "./fixtures";

test.describe("signing in and out", () => {
  for (const role of ROLES) {
    const user = DEMO_USERS[role];
    test(`${user.email} sees the ${user.menu.join(", ")} menu and signs out`, { tag: "@nojs" }, async ({ app }) => {
      const { login, shell, page } = app;
      await login.goto();
      await login.signIn(user.email, DEMO_PASSWORD);

      if (role === "supplierAdmin" || role === "supplierViewer") {
        // A supplier with a single team lands on it (issue 3 §2); everyone else on the dashboard.
        await expect(page).toHaveURL(/\/teams\/acme-brand(\/wallets|\/campaigns)?$/);
        await expect(shell.heading("Acme Brand")).toBeVisible();
      } else {
        await expect(page).toHaveURL("/");
        await expect(shell.heading(en("dashboard.title"))).toBeVisible();
      }
      await expect(shell.menuItems()).toHaveText(user.menu);

      await shell.signOut();
      await expect(page).toHaveURL("/login");
      await expect(login.heading).toBeVisible();
      await expect(shell.mainMenu).toHaveCount(0);
    });
  }

  test("a signed-out visit to /campaigns returns there after signing in", { tag: "@nojs" }, async ({ app }) => {
    const { login, shell, page } = app;
    await page.goto("/campaigns");
    await expect(page).toHaveURL("/login?to=%2Fcampaigns");
    await expect(login.heading).toBeVisible();

    await login.signIn(DEMO_USERS.retailerAdmin.email, DEMO_PASSWORD);
    await expect(page).toHaveURL("/campaigns");
    await expect(shell.heading(en("campaigns.title"))).toBeVisible();
  });
});

test.describe("guarded pages", () => {
  test.use({ role: "retailerViewer" });

  test("a retailer viewer opening Activity lands on Not authorized", async ({ app }) => {
    await app.page.goto("/health");
    await expect(app.page).toHaveURL("/not-authorized");
    await expect(app.status.heading("errors.notAuthorizedTitle")).toBeVisible();
  });

  test("an unknown path answers 404 with the not-found page at the same URL", async ({ app }) => {
    const response = await app.page.goto("/no-such-page/anywhere");
    expect(response?.status()).toBe(404);
    await expect(app.page).toHaveURL("/no-such-page/anywhere");
    await expect(app.status.heading("errors.notFoundTitle")).toBeVisible();
  });

  test("a signed-in user opening /login goes to the dashboard", async ({ app }) => {
    await app.page.goto("/login");
    await expect(app.page).toHaveURL("/");
    await expect(app.shell.heading(en("dashboard.title"))).toBeVisible();
  });
});

test.describe("sign-in failures", () => {
  test("a wrong password shows 'Authentication Error' and the reason", { tag: "@nojs" }, async ({ app }) => {
    const { login, page } = app;
    await login.goto();
    await login.signIn(DEMO_USERS.supplierAdmin.email, "Not-the-password-1");
    await expect(login.error).toBeVisible();
    await expect(login.error).toContainText(en("auth.invalidCredentials"));
    await expect(page).toHaveURL("/login");
  });

  test("five failures on one e-mail lock it", { tag: "@nojs" }, async ({ app }) => {
    const { login } = app;
    const email = unknownEmail();
    await login.goto();
    for (let attempt = 1; attempt <= 4; attempt++) {
      await login.signIn(email, `Wrong-password-${attempt}`);
      await expect(login.error).toContainText(en("auth.invalidCredentials"));
    }
    await login.signIn(email, "Wrong-password-5");
    await expect(login.error).toContainText(en("auth.tooManyAttempts", { minutes: 15 }));
  });
});
