/**
 * A user's page (/users/{id}) and the password change of /profile, in the browser with JavaScript
 * on and off (@nojs): every form of those pages submitted once. The user is a fresh one, invited
 * and accepted here, so no demo account's stored session is touched.
 */
import type { Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./a11y";
import { en, enTexts, expect, LoginPage, submitAndWait, test, type Outbox, type Screens } from "./fixtures";

const ut = enTexts("users");

const TEAM = "acme-brand";
const MEMBERS = `/teams/${TEAM}/settings/members`;

/** Invites a fresh address to the demo team and accepts in another browser; returns its sign-in. */
async function freshMember(page: Page, outbox: Outbox, other: Screens, name: string) {
  const email = `detail.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@brand.example`;
  const password = `Detail-${Math.random().toString(36).slice(2, 8)}-1`;
  await page.goto(MEMBERS);
  const invite = page.getByRole("region", { name: ut("invite.title") });
  const seen = outbox.files();
  await invite.getByLabel(en("fields.email"), { exact: true }).fill(email);
  await invite.getByLabel(ut("invite.role"), { exact: true }).selectOption({ label: en("roles.VIEWER") });
  await submitAndWait(page, MEMBERS, () => invite.getByRole("button", { name: ut("invite.submit") }).click());
  const mail = await outbox.nextMailTo(email, seen);
  const url = new URL(mail.text.match(/https?:\/\/\S+\/invitation\?token=\S+/)![0]);
  await other.page.goto(url.pathname + url.search);
  await other.page.getByLabel(en("fields.displayName"), { exact: true }).fill(name);
  await other.page.getByLabel(en("fields.password"), { exact: true }).fill(password);
  await other.page.getByLabel(en("fields.confirmPassword"), { exact: true }).fill(password);
  await submitAndWait(other.page, "/invitation", () => other.page.getByRole("button", { name: ut("invitation.createAccount") }).click());
  await expect(other.page).toHaveURL("/login");
  return { email, password };
}

test.describe("a user's page, as a retailer administrator", () => {
  test.use({ role: "retailerAdmin" });

  test("changes a member's team role, the account's role, a team role, removes it after a confirmation, disables and enables the account; the user changes their password", { tag: "@nojs" }, async ({ app, openBrowser, outbox, javaScriptEnabled }) => {
    test.slow();
    const { page, shell } = app;
    const invitee = await openBrowser();
    const name = "Dora Detail";
    const { email, password } = await freshMember(page, outbox, invitee, name);

    await test.step("the user changes their own password on /profile", async () => {
      const login = new LoginPage(invitee.page);
      await login.goto();
      await login.signIn(email, password);
      await invitee.page.goto("/profile");
      const newPassword = `${password}-new`;
      await invitee.page.getByLabel(en("fields.currentPassword"), { exact: true }).fill(password);
      await invitee.page.getByLabel(en("fields.newPassword"), { exact: true }).fill(newPassword);
      await invitee.page.getByLabel(en("fields.confirmPassword"), { exact: true }).fill(newPassword);
      await submitAndWait(invitee.page, "/profile", () => invitee.page.getByRole("button", { name: en("profile.changePassword") }).click());
      await expect(invitee.page.getByText(en("profile.passwordChanged")).first()).toBeVisible();
    });

    await test.step("a team administrator changes the member's role on the team's Members page", async () => {
      await page.goto(MEMBERS);
      const members = page.getByRole("region", { name: ut("members.title"), exact: true });
      const row = members.getByRole("row").filter({ hasText: email });
      await row.getByLabel(ut("members.roleOf", { name })).selectOption("REVIEWER");
      await submitAndWait(page, MEMBERS, () => row.getByRole("button", { name: ut("members.saveRole") }).click());
      await expect(shell.toast(en("toast.changesSaved"))).toBeVisible();
      await expect(members.getByRole("row").filter({ hasText: email }).getByLabel(ut("members.roleOf", { name }))).toHaveValue("REVIEWER");
    });

    await test.step("the user's page opens from /users", async () => {
      await page.goto(`/users?q=${encodeURIComponent("detail")}`);
      await page.getByRole("row").filter({ hasText: email }).getByRole("link").first().click();
      await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
    });
    const here = new URL(page.url()).pathname;

    await test.step("the account's role", async () => {
      await page.getByLabel(ut("columns.role"), { exact: true }).selectOption("EDITOR");
      await submitAndWait(page, here, () => page.getByRole("button", { name: ut("detail.saveClaims") }).click());
      await expect(shell.toast(en("toast.changesSaved"))).toBeVisible();
      await expect(page.getByLabel(ut("columns.role"), { exact: true })).toHaveValue("EDITOR");
    });

    await test.step("a role on the team, then none after a confirmation", async () => {
      const teams = page.getByRole("table", { name: ut("detail.teamsOf", { name }) });
      await teams.getByLabel(ut("detail.roleOn", { team: "Acme Brand" })).selectOption("EDITOR");
      await submitAndWait(page, here, () => teams.getByRole("button", { name: ut("members.saveRole") }).click());
      await expect(shell.toast(en("toast.changesSaved"))).toBeVisible();
      await expect(teams.getByLabel(ut("detail.roleOn", { team: "Acme Brand" }))).toHaveValue("EDITOR");
      const row = teams.getByRole("row").filter({ hasText: "Acme Brand" });
      const confirm = row.getByRole("button", { name: ut("members.removeSubmit") });
      await expect(confirm).toBeHidden();
      await row.locator("summary").click();
      await expect(row).toContainText(ut("members.removeConfirm", { name, team: "Acme Brand" }));
      await submitAndWait(page, here, () => confirm.click());
      await expect(page.getByText(ut("detail.noTeams"))).toBeVisible();
    });

    await test.step("by keyboard: the confirmation closes with Escape; a stale change's error toast is dismissed with Escape (JS)", async () => {
      if (!javaScriptEnabled) return;
      const disable = page.getByText(ut("detail.disable"), { exact: true });
      await disable.focus();
      await page.keyboard.press("Enter");
      await page.keyboard.press("Tab");
      await expect(page.getByRole("button", { name: ut("detail.disableSubmit") })).toBeFocused();
      await page.keyboard.press("Escape");
      await expect(page.getByText(ut("detail.disableConfirm", { name }))).toBeHidden();
      await expect(disable).toBeFocused();
      // Someone else changed the account meanwhile: the form's version is stale.
      await page.locator('form:has(input[name="disabled"]) input[name="version"]').evaluate((input: HTMLInputElement) => (input.value = "999999"));
      await page.keyboard.press("Enter");
      await page.keyboard.press("Tab");
      await submitAndWait(page, here, () => page.keyboard.press("Enter"));
      const toast = page.getByRole("alert").filter({ hasText: ut("errors.statusUpdate") });
      await expect(toast).toBeVisible();
      // Escape closes the innermost first: the confirmation (still open, its button focused), then the toast.
      if (await page.getByText(ut("detail.disableConfirm", { name })).isVisible()) await page.keyboard.press("Escape");
      await page.keyboard.press("Escape");
      await expect(toast).toBeHidden();
      await expect(page.getByText(ut("detail.enabledText"))).toBeVisible();
    });

    await test.step("the account disabled after a confirmation, then enabled", async () => {
      await page.getByText(ut("detail.disable"), { exact: true }).click();
      await expect(page.getByText(ut("detail.disableConfirm", { name }))).toBeVisible();
      await submitAndWait(page, here, () => page.getByRole("button", { name: ut("detail.disableSubmit") }).click());
      await expect(page.getByText(ut("detail.disabledText"))).toBeVisible();
      await submitAndWait(page, here, () => page.getByRole("button", { name: ut("detail.enable") }).click());
      await expect(page.getByText(ut("detail.enabledText"))).toBeVisible();
    });
  });
});
