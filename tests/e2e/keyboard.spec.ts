/** Keyboard-only use: sign in without a mouse, the skip link, the shortcuts help, the user menu. */
import { DEMO_PASSWORD, DEMO_USERS, en, expect, test } from "./fixtures";

test("a keyboard user signs in, skips to the content and opens the shortcuts help", async ({ app, javaScriptEnabled }) => {
  const { login, shell, page } = app;
  const user = DEMO_USERS.retailerViewer;
  await login.goto();

  // The e-mail field has autofocus; when it has not (yet) got focus, Tab reaches it first.
  if (!(await login.email.evaluate((el) => el === document.activeElement))) await page.keyboard.press("Tab");
  await expect(login.email).toBeFocused();
  await page.keyboard.type(user.email);
  await page.keyboard.press("Tab");
  await expect(login.password).toBeFocused();
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press("Enter");

  await expect(page).toHaveURL("/");
  await expect(shell.heading(en("dashboard.title"))).toBeVisible();

  await page.keyboard.press("Tab");
  await expect(shell.skipLink).toBeFocused();
  await expect(shell.skipLink).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(shell.main).toBeFocused();

  if (!javaScriptEnabled) return; // "?" is a script; without JS the navbar's "?" link shows the help.
  await page.keyboard.press("?");
  await expect(shell.shortcutsDialog).toBeVisible();
  await expect(shell.shortcutsDialog).toContainText(en("shortcuts.goTo", { screen: en("menu.dashboard") }));
  await page.keyboard.press("Escape");
  await expect(shell.shortcutsDialog).toBeHidden();

  // The user menu: Enter opens it, Escape closes it and gives focus back to its button; Tab out of
  // it closes it too, so it never covers what focus went to.
  await shell.userMenuButton.focus();
  await page.keyboard.press("Enter");
  await expect(shell.userMenu).toHaveAttribute("open", "");
  await page.keyboard.press("Tab");
  await expect(shell.userMenu.getByRole("link", { name: en("userMenu.profile") })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(shell.userMenu).not.toHaveAttribute("open", "");
  await expect(shell.userMenuButton).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(shell.userMenu).toHaveAttribute("open", "");
  await page.keyboard.press("Shift+Tab");
  await expect(shell.userMenu).not.toHaveAttribute("open", "");

  // At 390 px the menu button expands the menu above the page; Escape, from the button or a link
  // of the menu, collapses it again and gives focus back to the button (the demo user's menu is
  // collapsed, as it is again at the end).
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 800 });
  const menuButton = page.getByRole("button", { name: new RegExp(`^(${en("shell.expandMenu")}|${en("shell.collapseMenu")})$`) });
  await expect(shell.mainMenu).toBeHidden();
  await menuButton.focus();
  await page.keyboard.press("Enter");
  await expect(shell.mainMenu).toBeVisible();
  await expect(menuButton).toHaveAttribute("aria-expanded", "true");
  await shell.mainMenu.getByRole("link").first().focus();
  await page.keyboard.press("Escape");
  await expect(shell.mainMenu).toBeHidden();
  await expect(menuButton).toHaveAttribute("aria-expanded", "false");
  await expect(menuButton).toBeFocused();
  await page.setViewportSize(size);
});
