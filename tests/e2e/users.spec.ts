/**
 * Users and invitations (issue 3 §2) in the browser, with JavaScript on and off: invite someone
 * from the Acme Brand team settings, accept through the e-mailed link by setting a password, sign
 * in as them (they land on their single team), the invitation shows 'accepted'; /users lists them;
 * a member's removal asks for a confirmation; invited again, an existing account accepts while
 * signed in, and a link for someone else offers to sign out first; axe on the members page and /users.
 */
import fs from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./a11y";
import { en, expect, LoginPage, submitAndWait, test } from "./fixtures";

/** Texts of the users namespace (locales/en-GB/users.json), as the app renders them. */
const dict = JSON.parse(fs.readFileSync(new URL("../../locales/en-GB/users.json", import.meta.url), "utf8")) as Record<string, unknown>;
function ut(key: string, values: Record<string, string | number> = {}): string {
  const found = key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], dict);
  if (typeof found !== "string") throw new Error(`No en-GB users text for ${key}`);
  return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? `{{${name}}}`));
}

const TEAM_ID = "acme-brand";
const MEMBERS_PATH = `/teams/${TEAM_ID}/settings/members`;

function uniqueEmail(label: string): string {
  return `${label}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@brand.example`;
}

/** Team settings → Members, by its regions and labels. */
class MembersPage {
  readonly members: Locator;
  readonly invite: Locator;
  readonly invitations: Locator;
  readonly email: Locator;
  readonly role: Locator;
  readonly send: Locator;

  constructor(readonly page: Page) {
    this.members = page.getByRole("region", { name: ut("members.title"), exact: true });
    this.invite = page.getByRole("region", { name: ut("invite.title") });
    this.invitations = page.getByRole("region", { name: ut("invitations.title"), exact: true });
    this.email = this.invite.getByLabel(en("fields.email"), { exact: true });
    this.role = this.invite.getByLabel(ut("invite.role"), { exact: true });
    this.send = this.invite.getByRole("button", { name: ut("invite.submit") });
  }

  async goto() {
    await this.page.goto(MEMBERS_PATH);
    await expect(this.members).toBeVisible();
  }

  invitationRow(email: string): Locator {
    return this.invitations.getByRole("row").filter({ hasText: email });
  }

  memberRow(email: string): Locator {
    return this.members.getByRole("row").filter({ hasText: email });
  }

  async inviteSomeone(email: string, roleLabel: string) {
    await this.email.fill(email);
    await this.role.selectOption({ label: roleLabel });
    await submitAndWait(this.page, MEMBERS_PATH, () => this.send.click());
  }
}

/** The public page of the e-mailed link. */
class InvitationPage {
  readonly heading: Locator;
  readonly displayName: Locator;
  readonly password: Locator;
  readonly confirmPassword: Locator;
  readonly create: Locator;
  readonly problem: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: ut("invitation.title") });
    this.displayName = page.getByLabel(en("fields.displayName"), { exact: true });
    this.password = page.getByLabel(en("fields.password"), { exact: true });
    this.confirmPassword = page.getByLabel(en("fields.confirmPassword"), { exact: true });
    this.create = page.getByRole("button", { name: ut("invitation.createAccount") });
    this.problem = page.getByRole("alert").filter({ hasText: ut("invitation.unusable") });
  }
}

function invitationLink(text: string): string {
  const match = text.match(/https?:\/\/\S+\/invitation\?token=\S+/);
  if (!match) throw new Error(`No invitation link in: ${text}`);
  const url = new URL(match[0]);
  return url.pathname + url.search;
}

test.describe("as a retailer administrator", () => {
  test.use({ role: "retailerAdmin" });

  test("invites someone to Acme Brand; they set a password, land on the team, and the invitation shows 'accepted'; invited again, they accept signed in", { tag: "@nojs" }, async ({
    app,
    openBrowser,
    outbox,
  }) => {
    // Two browsers, three e-mails and a dozen pages: more than the default 30 s under a loaded run.
    test.slow();
    const { page, shell } = app;
    const members = new MembersPage(page);
    const email = uniqueEmail("invitee");
    const password = `Invited-${Math.random().toString(36).slice(2, 8)}-1`;

    const link = await test.step("invite by e-mail with a role", async () => {
      await members.goto();
      const seen = outbox.files();
      await members.inviteSomeone(email, en("roles.EDITOR"));
      await expect(shell.toast(ut("toast.invited", { email }))).toBeVisible();
      await expect(members.email).toHaveValue("");
      await expect(members.invitationRow(email)).toContainText(ut("invitations.states.pending"));
      await expect(members.invitationRow(email)).toContainText(en("roles.EDITOR"));
      const mail = await outbox.nextMailTo(email, seen);
      expect(mail.subject).toBe(ut("mail.invite.subject", { team: "Acme Brand" }));
      return invitationLink(mail.text);
    });

    const invitee = await openBrowser();
    await test.step("the invitee opens the link and sets a password", async () => {
      const invitation = new InvitationPage(invitee.page);
      await invitee.page.goto(link);
      await expect(invitation.heading).toBeVisible();
      await expect(invitee.page.getByText(ut("invitation.for", { email }))).toBeVisible();
      await invitation.displayName.fill("Ines Invited");
      await invitation.password.fill(password);
      await invitation.confirmPassword.fill(password);
      await submitAndWait(invitee.page, "/invitation", () => invitation.create.click());
      await expect(invitee.page).toHaveURL("/login");
      await expect(invitee.shell.toast(ut("toast.accepted"))).toBeVisible();
    });

    await test.step("the link works once", async () => {
      await invitee.page.goto(link);
      await expect(new InvitationPage(invitee.page).problem).toContainText(ut("invitation.problem.accepted"));
    });

    await test.step("they sign in and land on their single team", async () => {
      const login = new LoginPage(invitee.page);
      await login.goto();
      await login.signIn(email, password);
      await expect(invitee.page).toHaveURL(new RegExp(`/teams/${TEAM_ID}(/wallets|/campaigns)?$`));
      await expect(invitee.page.getByRole("heading", { level: 1, name: "Acme Brand" })).toBeVisible();
    });

    await test.step("the invitation shows 'accepted' and they are a member", async () => {
      await members.goto();
      await expect(members.invitationRow(email)).toContainText(ut("invitations.states.accepted"));
      await expect(members.memberRow(email)).toContainText(ut("statuses.active"));
    });

    await test.step("/users lists them, active, on Acme Brand", async () => {
      await page.goto(`/users?q=${encodeURIComponent(email.split("@")[0]!.split(".")[1]!)}`);
      const row = page.getByRole("row").filter({ hasText: email });
      await expect(row).toContainText("Ines Invited");
      await expect(row).toContainText(ut("statuses.active"));
      await expect(row).toContainText("Acme Brand");
      await expect(row).toContainText(`${en("accountTypes.supplier")} · ${en("roles.EDITOR")}`);
    });

    await test.step("their rights are removed after a confirmation", async () => {
      await members.goto();
      const row = members.memberRow(email);
      const confirm = row.getByRole("button", { name: ut("members.removeSubmit") });
      await expect(confirm).toBeHidden();
      await row.locator("summary").click();
      await expect(confirm).toBeVisible();
      await expect(row).toContainText(ut("members.removeConfirm", { name: "Ines Invited", team: "Acme Brand" }));
      await submitAndWait(page, MEMBERS_PATH, () => confirm.click());
      await expect(shell.toast(ut("toast.removed", { name: "Ines Invited", team: "Acme Brand" }))).toBeVisible();
      await expect(members.memberRow(email)).toHaveCount(0);
    });

    /** Invites this e-mail to Acme Brand and returns the e-mailed link. */
    const invite = async (to: string) => {
      await members.goto();
      const seen = outbox.files();
      await members.inviteSomeone(to, en("roles.VIEWER"));
      return invitationLink((await outbox.nextMailTo(to, seen)).text);
    };

    await test.step("invited again, they accept while signed in with their account", async () => {
      await invitee.page.goto(await invite(email));
      await submitAndWait(invitee.page, "/invitation", () => invitee.page.getByRole("button", { name: ut("invitation.accept") }).click());
      await expect(invitee.shell.toast(ut("toast.accepted"))).toBeVisible();
      await expect(invitee.page.getByRole("heading", { level: 1, name: "Acme Brand" })).toBeVisible();
      await members.goto();
      await expect(members.memberRow(email)).toContainText(en("roles.VIEWER"));
    });

    await test.step("a link for someone else offers to sign out first", async () => {
      const other = uniqueEmail("other");
      const otherLink = await invite(other);
      await invitee.page.goto(otherLink);
      await expect(invitee.page.getByRole("status").filter({ hasText: ut("invitation.otherAccount", { signedIn: email, email: other }) })).toBeVisible();
      await submitAndWait(invitee.page, "/invitation", () => invitee.page.getByRole("button", { name: ut("invitation.signOut") }).click());
      await expect(new InvitationPage(invitee.page).create).toBeVisible();
      await expect(invitee.page.getByText(ut("invitation.for", { email: other }))).toBeVisible();
    });
  });

  test("a bad e-mail is refused with 'Invalid email'; a member cannot be invited twice", { tag: "@nojs" }, async ({ app }) => {
    const { page } = app;
    const members = new MembersPage(page);
    await members.goto();
    // The browser's own e-mail check lets this through; ours does not (in the browser with JS, on
    // the server without).
    await members.email.fill("someone@nowhere");
    await members.send.click();
    await expect(members.invite.getByText(ut("validation.emailInvalid"), { exact: true })).toBeVisible();

    await members.email.fill("supplier.viewer@example.com");
    await submitAndWait(page, MEMBERS_PATH, () => members.send.click());
    await expect(members.invite.getByText(ut("invite.alreadyMember"), { exact: true })).toBeVisible();
  });

  test("a pending invitation is resent (the old link dies) and revoked after a confirmation", { tag: "@nojs" }, async ({ app, openBrowser, outbox }) => {
    const { page, shell } = app;
    const members = new MembersPage(page);
    const email = uniqueEmail("resend");
    await members.goto();
    let seen = outbox.files();
    await members.inviteSomeone(email, en("roles.VIEWER"));
    const first = invitationLink((await outbox.nextMailTo(email, seen)).text);

    seen = outbox.files();
    const row = members.invitationRow(email);
    await submitAndWait(page, MEMBERS_PATH, () => row.getByRole("button", { name: new RegExp(`^${ut("invitations.resend")}`) }).click());
    await expect(shell.toast(ut("toast.resent", { email }))).toBeVisible();
    const second = invitationLink((await outbox.nextMailTo(email, seen)).text);
    expect(second).not.toBe(first);

    const visitor = await openBrowser();
    const invitation = new InvitationPage(visitor.page);
    await visitor.page.goto(first);
    await expect(invitation.problem).toContainText(ut("invitation.problem.invalid"));
    await visitor.page.goto(second);
    await expect(invitation.create).toBeVisible();

    await row.locator("summary").click();
    const revoke = row.getByRole("button", { name: ut("invitations.revokeSubmit") });
    await expect(revoke).toBeVisible();
    await submitAndWait(page, MEMBERS_PATH, () => revoke.click());
    await expect(shell.toast(ut("toast.revoked", { email }))).toBeVisible();
    await expect(members.invitationRow(email)).toContainText(ut("invitations.states.revoked"));
    await visitor.page.goto(second);
    await expect(invitation.problem).toContainText(ut("invitation.problem.revoked"));
  });

  test("/users searches and filters with the state in the URL", { tag: "@nojs" }, async ({ app }) => {
    const { page } = app;
    await page.goto("/users");
    await expect(page.getByRole("heading", { level: 1, name: ut("list.title") })).toBeVisible();
    // A retailer admin never sees operators.
    await expect(page.getByRole("row").filter({ hasText: "operator@example.com" })).toHaveCount(0);
    await page.getByLabel(ut("list.search"), { exact: true }).fill("susan");
    await page.getByLabel(ut("columns.type"), { exact: true }).selectOption({ label: en("accountTypes.supplier") });
    await page.getByRole("button", { name: en("actions.filter") }).click();
    await expect(page).toHaveURL(/\/users\?q=susan&type=supplier&status=$/);
    await expect(page.getByRole("row").filter({ hasText: "supplier.viewer@example.com" })).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: "supplier.admin@example.com" })).toHaveCount(0);
    // The status badge says the translated, capitalised word, like the console's other badges.
    await expect(page.getByRole("row").filter({ hasText: "supplier.viewer@example.com" }).getByText("Active", { exact: true })).toBeVisible();
    // The user's page, from the list.
    await page.getByRole("link", { name: "Susan Supplier" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Susan Supplier" })).toBeVisible();
    await expect(page.getByRole("region", { name: ut("detail.access") })).toContainText(ut("detail.enabledText"));
  });
});

test.describe("accessibility", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "axe needs JavaScript in the page");
  test.use({ role: "operator" });

  test("team settings → Members", async ({ app }) => {
    await new MembersPage(app.page).goto();
    await expectNoSeriousA11yViolations(app.page);
  });

  test("/users and a user's page", async ({ app }) => {
    await app.page.goto("/users");
    await expect(app.page.getByRole("table")).toBeVisible();
    await expectNoSeriousA11yViolations(app.page);
    await app.page.getByRole("link", { name: "Susan Supplier" }).click();
    await expect(app.page.getByRole("heading", { level: 1, name: "Susan Supplier" })).toBeVisible();
    await expectNoSeriousA11yViolations(app.page);
  });

  test("the invitation page", async ({ app }) => {
    await app.page.goto("/invitation?token=nothing");
    await expect(app.page.getByRole("heading", { level: 1, name: ut("invitation.title") })).toBeVisible();
    await expectNoSeriousA11yViolations(app.page);
  });
});
