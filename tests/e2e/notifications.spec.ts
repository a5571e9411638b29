/**
 * The notification centre (issue 11 §3), JS on and off: the seeded welcome is marked read, then
 * everything; the count in the top bar follows; axe on the screen. Other specs running in parallel
 * may raise notifications for this user (campaign news), so the assertions bear on the welcome.
 */
import { expectNoSeriousA11yViolations } from "./a11y";
import { en, expect, test } from "./fixtures";

test.use({ role: "supplierViewer" });

const WELCOME = en("notifications.types.welcome.subject");

test("the centre: the welcome is marked read, then all are; the top bar's count follows", { tag: "@nojs" }, async ({ app }) => {
  const { page } = app;
  await page.goto("/");
  const topBar = page.getByRole("banner").getByRole("link", { name: /^Notifications, / });
  await topBar.click();
  await expect(page).toHaveURL("/notifications");
  await expect(page.getByRole("heading", { level: 1, name: en("notifications.title") })).toBeVisible();

  const welcome = page.getByRole("article", { name: new RegExp(WELCOME) });
  await expect(welcome).toBeVisible();
  await expect(welcome.getByText(en("notifications.types.welcome.message", { name: "Susan Supplier" }))).toBeVisible();
  // Its date as people read it, in the user's time zone: never an ISO instant.
  await expect(welcome.locator("time")).not.toHaveText(/\d{4}-\d{2}-\d{2}T/);
  const markRead = welcome.getByRole("button", { name: new RegExp(`^${en("notifications.markReadShort")}\\s*: ${WELCOME}$`) });
  await markRead.click();
  await expect(page.getByText(en("notifications.markedRead"))).toBeVisible();
  await expect(welcome.getByRole("button")).toHaveCount(0);
  await expect(welcome.getByText(en("notifications.read"), { exact: true })).toBeVisible();

  await page.getByRole("button", { name: en("notifications.markAllRead") }).click();
  await expect(page.getByText(en("notifications.allMarkedRead"))).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: en("notifications.unreadCount_other", { count: 0 }) })).toBeVisible();
  await expect(topBar).toHaveAccessibleName(en("notifications.topBar_zero"));
  await expect(page.getByRole("article").getByRole("button")).toHaveCount(0);
});

test("the centre has no serious accessibility violation", async ({ app, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "axe needs JavaScript in the page");
  await app.page.goto("/notifications");
  await expect(app.page.getByRole("heading", { level: 1, name: en("notifications.title") })).toBeVisible();
  await expectNoSeriousA11yViolations(app.page);
});
