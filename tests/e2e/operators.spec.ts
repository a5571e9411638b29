/**
 * The operators' tools (issue 12) in the browser, JavaScript on and off (@nojs): 'Log as' from a
 * user's page with the banner on every page and the one button back, and the session's role
 * step-down from the user menu, and the access settings (staff e-mail domain). Each test signs the operator in afresh, so the stored operator
 * session the other specs share is never logged as anyone nor stepped down.
 */
import { expectNoSeriousA11yViolations } from "./a11y";
import { DEMO_PASSWORD, DEMO_USERS, en, enTexts, expect, LoginPage, submitAndWait, test } from "./fixtures";

const ot = enTexts("operators");
const operator = DEMO_USERS.operator;
const target = DEMO_USERS.supplierViewer;

test.describe("operators' tools", () => {
  test("an operator logs as a supplier from the user's page: the supplier's console with a banner naming both, then one button back", { tag: "@nojs" }, async ({ app, javaScriptEnabled }) => {
    test.slow();
    const { page, shell } = app;
    const login = new LoginPage(page);
    await login.goto();
    await login.signIn(operator.email, DEMO_PASSWORD);
    await page.goto(`/users?q=${encodeURIComponent(target.email)}`);
    await page.getByRole("link", { name: target.displayName }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: target.displayName })).toBeVisible();
    const userPath = new URL(page.url()).pathname;

    const panel = page.getByRole("region", { name: ot("logAs.title") });
    await panel.getByText(ot("logAs.open", { name: target.displayName }), { exact: true }).click();
    await expect(panel.getByText(ot("logAs.confirm", { name: target.displayName }))).toBeVisible();
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
    await submitAndWait(page, userPath, () => panel.getByRole("button", { name: ot("logAs.submit", { name: target.displayName }) }).click());

    const banner = page.getByRole("region", { name: ot("logAs.bannerLabel"), exact: true });
    await expect(banner).toContainText(ot("logAs.banner", { operator: operator.displayName, user: target.displayName }));
    await expect(shell.menuItems()).toHaveText(target.menu);
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
    // On every page, and the supplier's rights: /users is not theirs.
    await page.goto("/campaigns");
    await expect(banner).toBeVisible();
    await page.goto("/users");
    await expect(page).toHaveURL(/\/not-authorized$/);
    await expect(banner).toBeVisible();

    await submitAndWait(page, "/log-as", () => banner.getByRole("button", { name: ot("logAs.back") }).click());
    await expect(page).toHaveURL(userPath);
    await expect(page.getByRole("region", { name: ot("logAs.bannerLabel"), exact: true })).toHaveCount(0);
    await expect(shell.menuItems()).toHaveText(operator.menu);
  });

  test("an operator steps down to read only for the session: the menu and rights follow, and back", { tag: "@nojs" }, async ({ app, javaScriptEnabled }) => {
    test.slow();
    const { page, shell } = app;
    const login = new LoginPage(page);
    await login.goto();
    await login.signIn(operator.email, DEMO_PASSWORD);
    await page.goto("/users");
    await expect(page).toHaveURL(/\/users$/);
    await page.goto("/");

    const activity = shell.mainMenu.getByRole("link", { name: en("menu.activity"), exact: true });
    await expect(activity).toHaveCount(1);
    await shell.openUserMenu();
    const roles = shell.userMenu.getByRole("group", { name: ot("stepDown.legend") });
    await expect(roles.getByRole("button", { name: en("roles.ADMIN"), exact: true })).toHaveAttribute("aria-pressed", "true");
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
    await submitAndWait(page, "/session-role", () => roles.getByRole("button", { name: en("roles.VIEWER"), exact: true }).click());
    await expect(page).toHaveURL(/\/$/);
    await shell.openUserMenu();
    await expect(shell.userMenu).toContainText(`${en("accountTypes.operator")} · ${en("roles.VIEWER")}`);
    await expect(roles.getByRole("button", { name: en("roles.VIEWER"), exact: true })).toHaveAttribute("aria-pressed", "true");
    // Every right follows at once, exactly a retailer VIEWER's (ADR 40): no Activity in the menu,
    // and /users is not open to a read-only operator.
    await expect(activity).toHaveCount(0);
    await page.goto("/users");
    await expect(page).toHaveURL(/\/not-authorized$/);

    await page.goto("/");
    await shell.openUserMenu();
    await submitAndWait(page, "/session-role", () => roles.getByRole("button", { name: en("roles.ADMIN"), exact: true }).click());
    await shell.openUserMenu();
    await expect(shell.userMenu).toContainText(`${en("accountTypes.operator")} · ${en("roles.ADMIN")}`);
    await page.goto("/users");
    await expect(page).toHaveURL(/\/users$/);
  });
});

test.describe("access settings, as an operator", () => {
  test.use({ role: "operator" });

  test("an operator sets the retailer staff e-mail domain and keeps the second factor required", { tag: "@nojs" }, async ({ app, javaScriptEnabled }) => {
    const { page } = app;
    await page.goto("/settings/retailer");
    const panel = page.getByRole("region", { name: ot("access.title"), exact: true });
    const domain = `staff${javaScriptEnabled ? "on" : "off"}.example`;
    await panel.getByLabel(ot("access.staffDomain")).fill(domain);
    await expect(panel.getByLabel(ot("access.totpRequired"))).toBeChecked();
    await submitAndWait(page, "/settings/retailer", () => panel.getByRole("button", { name: ot("access.save") }).click());
    await page.goto("/settings/retailer");
    await expect(panel.getByLabel(ot("access.staffDomain"))).toHaveValue(domain);
    await expect(panel.getByLabel(ot("access.totpRequired"))).toBeChecked();
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
  });
});
