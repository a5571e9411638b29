/** Maintenance mode shuts out everyone but operators; it changes the whole server's state. */
import { en, expect, test } from "./fixtures";

test.use({ role: "operator" });

test("the operator turns maintenance on and off; a retailer is kept out meanwhile", { tag: "@nojs" }, async ({ app, openBrowser }) => {
  const { settings, shell, page } = app;
  const retailer = await openBrowser("retailerAdmin");

  await settings.goto();
  await settings.setMaintenance(true);
  try {
    await retailer.page.goto("/");
    await expect(retailer.page).toHaveURL("/under-maintenance");
    await expect(retailer.status.heading("maintenance.title")).toBeVisible();

    await page.goto("/");
    await expect(shell.heading(en("dashboard.title"))).toBeVisible();
    await shell.mainMenu.getByRole("link", { name: en("menu.activity") }).click();
    await expect(page).toHaveURL("/health");
    await expect(shell.heading(en("activity.title"))).toBeVisible();
  } finally {
    await settings.goto();
    await settings.setMaintenance(false);
  }

  await retailer.page.goto("/");
  await expect(retailer.page).toHaveURL("/");
  await expect(retailer.shell.heading(en("dashboard.title"))).toBeVisible();
});
