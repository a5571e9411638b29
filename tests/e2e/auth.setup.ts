/** Signs in once per demo role on this project's server and stores the session for the specs. */
import { authFile, DEMO_PASSWORD, DEMO_USERS, expect, ROLES, test as setup } from "./fixtures";

for (const role of ROLES) {
  setup(`sign in as ${role}`, async ({ app, server }) => {
    const { login, shell, page } = app;
    await login.goto();
    await login.signIn(DEMO_USERS[role].email, DEMO_PASSWORD);
    await expect(shell.mainMenu).toBeVisible();
    await page.context().storageState({ path: authFile(server, role) });
  });
}
