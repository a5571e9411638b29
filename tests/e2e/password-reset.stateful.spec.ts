/**
 * Forgot password → e-mailed link → new password. It ends every session of the user, so it runs
 * in the stateful project, after the specs that use the stored sign-ins.
 */
import { DEMO_PASSWORD, DEMO_USERS, en, expect, Outbox, test } from "./fixtures";

test("a forgotten password is reset through the e-mailed link, once", { tag: "@nojs" }, async ({ app, outbox }) => {
  const { login, shell, forgotPassword, resetPassword, page } = app;
  const user = DEMO_USERS.supplierViewer;
  const newPassword = `Fresh-password-${Math.random().toString(36).slice(2, 8)}`;

  async function mailedResetLink(): Promise<string> {
    const seen = outbox.files();
    await forgotPassword.requestLink(user.email);
    const mail = await outbox.nextMailTo(user.email, seen);
    expect(mail.subject).toBe(en("mail.reset.subject"));
    return Outbox.resetLink(mail);
  }

  const link = await test.step("ask for a reset link", async () => {
    await login.goto();
    await login.forgotPassword.click();
    await expect(page).toHaveURL("/forgot-password");
    return mailedResetLink();
  });

  await test.step("set a new password through the link", async () => {
    await page.goto(link);
    await expect(resetPassword.heading).toBeVisible();
    await resetPassword.setPassword(newPassword);
    await expect(page).toHaveURL("/login?reset=1");
    await expect(login.resetNotice).toBeVisible();
    await expect(shell.toast(en("reset.doneTitle"))).toBeVisible();
  });

  await test.step("the new password signs in", async () => {
    await login.signIn(user.email, newPassword);
    // A supplier with a single team lands on it (issue 3 §2).
    await expect(page).toHaveURL(/\/teams\/acme-brand(\/wallets|\/campaigns)?$/);
    await expect(shell.menuItems()).toHaveText(user.menu);
    await shell.signOut();
    await expect(login.heading).toBeVisible();
  });

  await test.step("the old password is refused", async () => {
    await login.signIn(user.email, DEMO_PASSWORD);
    await expect(login.error).toContainText(en("auth.invalidCredentials"));
  });

  await test.step("the link works only once", async () => {
    await page.goto(link);
    await expect(resetPassword.problem).toContainText(en("token.used"));
    await expect(resetPassword.newPassword).toHaveCount(0);
  });

  await test.step("a second reset refuses the previous password", async () => {
    await page.goto("/forgot-password");
    const secondLink = await mailedResetLink();
    expect(secondLink).not.toBe(link);
    await page.goto(secondLink);
    await resetPassword.setPassword(DEMO_PASSWORD);
    await expect(resetPassword.newPassword).toHaveAccessibleDescription(new RegExp(en("password.reused")));
    await expect(page.getByText(en("password.reused"))).toBeVisible();
    await expect(page).toHaveURL(secondLink);
  });
});
