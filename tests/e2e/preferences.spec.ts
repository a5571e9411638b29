/** Display preferences: language on the sign-in page, dark mode, right to left, the collapsible menu (JS on and off). */
import { en, expect, fr, LoginPage, test } from "./fixtures";

test("a visitor switches the sign-in page to French", { tag: "@nojs" }, async ({ app }) => {
  const { login, page } = app;
  await login.goto();
  await login.languageButton(en("languages.fr")).click();

  const french = new LoginPage(page, fr);
  await expect(french.heading).toHaveText(fr("login.title"));
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
  await expect(french.languageButton(fr("languages.fr"))).toHaveAttribute("aria-pressed", "true");
  await expect(page).toHaveURL("/login");
});

test.describe("dark mode", () => {
  test.use({ role: "supplierAdmin" });

  test("choosing Dark in the user menu darkens the console, also after a reload", { tag: "@nojs" }, async ({ app }) => {
    const { shell, page } = app;
    const html = page.locator("html");
    await page.goto("/");
    await expect(html).not.toHaveAttribute("data-theme", /.*/);

    await shell.chooseTheme("dark");
    await expect(html).toHaveAttribute("data-theme", "dark");
    await page.reload();
    await expect(html).toHaveAttribute("data-theme", "dark");
    await shell.openUserMenu();
    await expect(shell.userMenuChoice("userMenu.theme", en("themes.dark"))).toHaveAttribute("aria-pressed", "true");

    // Back to the default, for whoever uses this account next.
    await shell.chooseTheme("system");
    await expect(html).not.toHaveAttribute("data-theme", /.*/);
  });
});

test.describe("layout direction", () => {
  test.use({ role: "retailerViewer" });

  test("choosing Right to left lays the console out from the right, also after a reload", { tag: "@nojs" }, async ({ app }) => {
    const { shell, page } = app;
    const html = page.locator("html");
    await page.goto("/faq");
    await expect(html).toHaveAttribute("dir", "ltr");

    await shell.chooseDirection("rtl");
    await expect(html).toHaveAttribute("dir", "rtl");
    await page.reload();
    await expect(html).toHaveAttribute("dir", "rtl");
    // The main menu now sits on the right of the content.
    expect((await shell.mainMenu.boundingBox())!.x).toBeGreaterThan((await shell.main.boundingBox())!.x);

    // Back to the default, for whoever uses this account next.
    await shell.chooseDirection("ltr");
    await expect(html).toHaveAttribute("dir", "ltr");
  });
});

test.describe("main menu", () => {
  test.use({ role: "retailerAdmin" });

  test("the menu expands and collapses, and is remembered after a reload", { tag: "@nojs" }, async ({ app }) => {
    const { shell, page } = app;
    await page.goto("/faq");
    const dashboard = shell.menuItems().filter({ hasText: en("menu.dashboard") });
    await expect(shell.menuToggle("collapsed")).toHaveAttribute("aria-expanded", "false");

    await shell.toggleMenu("collapsed");
    await expect(shell.menuToggle("expanded")).toHaveAttribute("aria-expanded", "true");
    await page.reload();
    await expect(shell.menuToggle("expanded")).toHaveAttribute("aria-expanded", "true");
    await expect(page).toHaveURL("/faq");
    // Expanded, the menu shows its labels: the links are wider than their icons.
    expect((await dashboard.boundingBox())!.width).toBeGreaterThan(100);

    await shell.toggleMenu("expanded");
    await expect(shell.menuToggle("collapsed")).toHaveAttribute("aria-expanded", "false");
    await page.reload();
    await expect(shell.menuToggle("collapsed")).toHaveAttribute("aria-expanded", "false");
    expect((await dashboard.boundingBox())!.width).toBeLessThan(100);
  });
});
