/**
 * The operators' second factor (ADR 30) in the browser, JavaScript on and off (@nojs): a fresh
 * operator (invited, accepted, made an operator by the demo operator, whose own stored session is
 * exempt and untouched) is sent to enrol, sets up an authenticator from the key shown, keeps the
 * recovery codes, signs out, and signs in again with a code; a wrong code is refused; new recovery
 * codes are made with the password. axe on both screens.
 */
import type { Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { expectNoSeriousA11yViolations } from "./a11y";
import { en, enTexts, expect, LoginPage, submitAndWait, test, type Outbox, type Screens } from "./fixtures";

const ut = enTexts("users");
const st = enTexts("secondFactor");
const TEAM = "acme-brand";
const MEMBERS = `/teams/${TEAM}/settings/members`;
const ENROL = "/profile/second-factor";
const STEP = "/login/second-factor";

const codeAt = (key: string, at: number) => new TOTP({ secret: Secret.fromBase32(key), algorithm: "SHA1", digits: 6, period: 30 }).generate({ timestamp: at });

/** Invites a fresh address to the demo team, accepts it in the other browser, and makes it an operator. */
async function freshOperator(page: Page, outbox: Outbox, other: Screens, name: string) {
  const email = `ops.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@brand.example`;
  const password = `Second-${Math.random().toString(36).slice(2, 8)}-1`;
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

  await page.goto(`/users?q=${encodeURIComponent(email.split("@")[0]!)}`);
  await page.getByRole("row").filter({ hasText: email }).getByRole("link").first().click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const here = new URL(page.url()).pathname;
  await page.getByLabel(ut("columns.type"), { exact: true }).selectOption("operator");
  await page.getByLabel(ut("columns.role"), { exact: true }).selectOption("ADMIN");
  await submitAndWait(page, here, () => page.getByRole("button", { name: ut("detail.saveClaims") }).click());
  await expect(page.getByText(en("accountTypes.operator")).first()).toBeVisible();
  return { email, password, userPath: here };
}

test.describe("two-step verification", () => {
  test.use({ role: "operator" });

  test("an operator is sent to enrol, sets up an authenticator on /profile, keeps the recovery codes, and signs in with a code", { tag: "@nojs" }, async ({ app, openBrowser, outbox, javaScriptEnabled }) => {
    test.slow();
    const operator = await openBrowser();
    const { email, password, userPath } = await freshOperator(app.page, outbox, operator, "Tess Totp");
    const page = operator.page;
    const login = new LoginPage(page);

    const key = await test.step("signed in with the password, enrolment comes before anything else", async () => {
      await login.goto();
      await login.signIn(email, password);
      await expect(page).toHaveURL(ENROL);
      await expect(page.getByText(st("enrol.mustEnrol"))).toBeVisible();
      // Nowhere else to go until it is set up.
      await expect(page.getByRole("link", { name: st("enrol.back") })).toHaveCount(0);
      await page.goto("/campaigns");
      await expect(page).toHaveURL(ENROL);
      await submitAndWait(page, ENROL, () => page.getByRole("button", { name: st("enrol.start") }).click());
      await expect(page.getByRole("img", { name: st("enrol.qrAlt") })).toBeVisible();
      await expect(page.getByText(/^otpauth:\/\/totp\/Ads%20console:/)).toBeVisible();
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
      return (await page.getByTestId("totp-key").innerText()).replaceAll(" ", "");
    });

    await test.step("a first code turns it on; the ten recovery codes are shown once", async () => {
      await page.getByLabel(st("enrol.code"), { exact: true }).fill(codeAt(key, Date.now()));
      await submitAndWait(page, ENROL, () => page.getByRole("button", { name: st("enrol.submit") }).click());
      const codes = page.getByRole("region", { name: st("enrol.recoveryTitle") }).getByRole("listitem");
      await expect(codes).toHaveCount(10);
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
      await page.getByRole("link", { name: st("enrol.recoveryDone") }).click();
      await expect(page).toHaveURL("/profile");
      await expect(page.getByText(st("profile.summaryOn"))).toBeVisible();
      await page.goto(ENROL);
      await expect(page.getByRole("region", { name: st("enrol.recoveryTitle") })).toHaveCount(0);
    });

    await test.step("signed out and in again: the code form, a wrong code refused, the right one signs in", async () => {
      await operator.shell.signOut();
      await login.goto();
      await login.signIn(email, password);
      await expect(page).toHaveURL(STEP);
      await page.goto("/users");
      await expect(page).toHaveURL(STEP);
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
      const code = page.getByLabel(st("step.code"), { exact: true });
      await code.fill("000000");
      await submitAndWait(page, STEP, () => page.getByRole("button", { name: st("step.submit") }).click());
      await expect(page.getByText(st("errors.invalidCode"))).toBeVisible();
      // The next time step's code (the enrolment spent this one).
      await page.getByLabel(st("step.code"), { exact: true }).fill(codeAt(key, Date.now() + 30_000));
      await submitAndWait(page, STEP, () => page.getByRole("button", { name: st("step.submit") }).click());
      await expect(operator.shell.mainMenu).toBeVisible();
      await expect(page).toHaveURL("/");
    });

    await test.step("new recovery codes, with the password", async () => {
      await page.goto(ENROL);
      await expect(page.getByRole("link", { name: st("enrol.back") })).toHaveAttribute("href", "/profile");
      await page.getByLabel(st("enrol.password"), { exact: true }).fill(password);
      await submitAndWait(page, ENROL, () => page.getByRole("button", { name: st("enrol.regenerate") }).click());
      await expect(page.getByRole("region", { name: st("enrol.recoveryTitle") }).getByRole("listitem")).toHaveCount(10);
      // Required for operators: no way to turn it off here.
      await expect(page.getByText(st("profile.requiredNote"))).toBeVisible();
      await expect(page.getByRole("button", { name: st("enrol.disable") })).toHaveCount(0);
    });

    await test.step("another operator removes it after a lost phone: their sessions end, and the password leads to the set-up again", async () => {
      await app.page.goto(userPath);
      await app.page.getByText(st("reset.open"), { exact: true }).click();
      await expect(app.page.getByText(st("reset.confirm", { name: "Tess Totp" }))).toBeVisible();
      await submitAndWait(app.page, userPath, () => app.page.getByRole("button", { name: st("reset.submit") }).click());
      await expect(app.page.getByText(st("reset.open"), { exact: true })).toHaveCount(0);
      await page.goto("/campaigns");
      await expect(page).toHaveURL(/\/login\?to=/);
      await login.goto();
      await login.signIn(email, password);
      await expect(page).toHaveURL(ENROL);
    });
  });
});
