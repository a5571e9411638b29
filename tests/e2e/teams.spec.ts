/**
 * Teams (issue 3 §1) in the browser, with JavaScript on and off: create, a duplicate name
 * refused, edit, suspend after a confirmation, the list's filters in the URL, axe.
 */
import fs from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./a11y";
import { en, expect, submitAndWait, test } from "./fixtures";

/** Texts of the teams namespace (locales/en-GB/teams.json), as the app renders them. */
const dict = JSON.parse(fs.readFileSync(new URL("../../locales/en-GB/teams.json", import.meta.url), "utf8")) as Record<string, unknown>;
function tt(key: string, values: Record<string, string | number> = {}): string {
  const found = key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], dict);
  if (typeof found !== "string") throw new Error(`No en-GB teams text for ${key}`);
  return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? `{{${name}}}`));
}

// A 1x1 PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

function uniqueName(label: string): string {
  return `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** The team form (create and edit), by its labels. */
class TeamFormPage {
  readonly name: Locator;
  readonly accountType: Locator;
  readonly city: Locator;
  readonly logo: Locator;
  readonly internalBilling: Locator;
  readonly otherTags: Locator;
  readonly create: Locator;
  readonly save: Locator;

  constructor(readonly page: Page) {
    const form = page.locator("#team-form");
    this.name = form.getByLabel(tt("fields.name"), { exact: true });
    this.accountType = form.getByLabel(tt("fields.accountType"), { exact: true });
    this.city = form.getByLabel(tt("fields.city"), { exact: true });
    this.logo = form.getByLabel(new RegExp(`^(${tt("fields.logo")}|${tt("fields.newLogo")})$`));
    this.internalBilling = form.getByRole("checkbox", { name: tt("form.internalBilling", { tag: "internal billing" }) });
    this.otherTags = form.getByLabel(tt("fields.otherTags"), { exact: true });
    this.create = form.getByRole("button", { name: tt("new.submit") });
    this.save = form.getByRole("button", { name: en("actions.save") });
  }

  fieldError(text: string): Locator {
    return this.page.locator("#team-form .field-errors").getByText(text, { exact: true });
  }
}

async function createTeam(page: Page, name: string, options: { logo?: boolean } = {}) {
  await page.goto("/teams/new");
  const form = new TeamFormPage(page);
  await form.name.fill(name);
  await form.accountType.selectOption({ label: tt("accountTypes.marketplace_seller") });
  await form.city.fill("Lyon");
  await form.internalBilling.check();
  await form.otherTags.fill("Spring sale");
  if (options.logo) await form.logo.setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG });
  await submitAndWait(page, "/teams/new", () => form.create.click());
  await expect(page).toHaveURL(/\/teams\/[a-z0-9-]+\/settings$/);
  await expect(page.getByRole("heading", { level: 1, name, exact: true })).toBeVisible();
  return new URL(page.url()).pathname.split("/")[2]!;
}

test.describe("as a retailer administrator", () => {
  test.use({ role: "retailerAdmin" });

  test("creates a team with a logo; a second one with the same name is refused", { tag: "@nojs" }, async ({ app }) => {
    const { page, shell } = app;
    const name = uniqueName("Zeta Foods");
    await createTeam(page, name, { logo: true });
    await expect(shell.toast(en("toast.changesSaved"))).toBeVisible();
    // The logo was stored and is served back to the team's page.
    const logo = page.getByRole("img", { name: tt("form.currentLogo") });
    await expect(logo).toBeVisible();
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    // The details were kept.
    const form = new TeamFormPage(page);
    await expect(form.accountType).toHaveValue("marketplace_seller");
    await expect(form.internalBilling).toBeChecked();
    await expect(form.otherTags).toHaveValue("spring sale");

    await page.goto("/teams/new");
    const again = new TeamFormPage(page);
    await again.name.fill(name.toUpperCase());
    await again.city.fill("Paris");
    await submitAndWait(page, "/teams/new", () => again.create.click());
    await expect(again.fieldError(tt("validation.alreadyExists"))).toBeVisible();
    await expect(page).toHaveURL("/teams/new");
    // The user's input is still there.
    await expect(again.name).toHaveValue(name.toUpperCase());
    await expect(again.city).toHaveValue("Paris");
    await expect(again.name).toHaveAttribute("aria-invalid", "true");
  });

  test("edits a team and suspends it after a confirmation", { tag: "@nojs" }, async ({ app }) => {
    const { page, shell } = app;
    const name = uniqueName("Edit Me");
    const id = await createTeam(page, name);

    const form = new TeamFormPage(page);
    await form.city.fill("Marseille");
    await submitAndWait(page, `/teams/${id}/settings`, () => form.save.click());
    await expect(shell.toast(en("toast.changesSaved"))).toBeVisible();
    await page.reload();
    await expect(new TeamFormPage(page).city).toHaveValue("Marseille");

    const status = page.getByRole("region", { name: tt("fields.status") });
    const confirm = status.getByRole("button", { name: tt("statusChange.suspend.confirm") });
    await expect(confirm).toBeHidden();
    await status.getByText(tt("statusChange.suspend.action")).click();
    await expect(status.getByText(tt("statusChange.suspend.question", { name }))).toBeVisible();
    await submitAndWait(page, `/teams/${id}/settings`, () => confirm.click());
    await expect(shell.toast(en("toast.changesSaved"))).toBeVisible();
    await expect(page.locator(".team-header .badge")).toHaveText(tt("status.suspended"));

    // The list shows it as suspended, found by a search kept in the URL.
    await page.goto("/teams");
    await page.getByLabel(tt("list.search")).fill(name);
    await page.getByRole("button", { name: en("actions.filter") }).click();
    await expect(page).toHaveURL(/[?&]q=/);
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name, exact: true }) });
    await expect(row).toHaveCount(1);
    await expect(row.getByText(tt("status.suspended"), { exact: true })).toBeVisible();
    await expect(row.getByText("€0.00").first()).toBeVisible();
  });

  test("suspends a team with the keyboard only", async ({ app }) => {
    const { page } = app;
    const name = uniqueName("Keyboard");
    const id = await createTeam(page, name);
    const status = page.getByRole("region", { name: tt("fields.status") });
    const summary = status.getByText(tt("statusChange.suspend.action"));
    await summary.focus();
    await page.keyboard.press("Enter");
    const confirm = status.getByRole("button", { name: tt("statusChange.suspend.confirm") });
    await expect(confirm).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(confirm).toBeFocused();
    await submitAndWait(page, `/teams/${id}/settings`, () => page.keyboard.press("Enter"));
    await expect(page.locator(".team-header .badge")).toHaveText(tt("status.suspended"));
  });

  test.describe("axe", () => {
    test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "axe needs JavaScript in the page");

    test("the teams list has no serious violation", async ({ app }) => {
      await app.page.goto("/teams");
      await expect(app.page.getByRole("heading", { level: 1, name: tt("list.title") })).toBeVisible();
      await expect(app.page.getByRole("table")).toBeVisible();
      await expectNoSeriousA11yViolations(app.page);
    });

    test("a team's settings (with a logo) have no serious violation", async ({ app }) => {
      await createTeam(app.page, uniqueName("Axe"), { logo: true });
      await expectNoSeriousA11yViolations(app.page);
    });

    test("the new team form has no serious violation", async ({ app }) => {
      await app.page.goto("/teams/new");
      await expect(new TeamFormPage(app.page).name).toBeVisible();
      await expectNoSeriousA11yViolations(app.page);
    });
  });
});

test.describe("as an operator", () => {
  test.use({ role: "operator" });

  test("archives a team, finds it through the status filter and restores it", { tag: "@nojs" }, async ({ app }) => {
    const { page, shell } = app;
    const name = uniqueName("Archive Me");
    const id = await createTeam(page, name);
    const status = page.getByRole("region", { name: tt("fields.status") });
    await status.getByText(tt("statusChange.archive.action")).click();
    await submitAndWait(page, `/teams/${id}/settings`, () => status.getByRole("button", { name: tt("statusChange.archive.confirm") }).click());
    await expect(page.locator(".team-header .badge")).toHaveText(tt("status.archived"));

    // Not in the default list; in the archived one.
    await page.goto(`/teams?q=${encodeURIComponent(name)}`);
    await expect(page.getByText(tt("list.noMatch"))).toBeVisible();
    await page.getByLabel(tt("fields.status"), { exact: true }).selectOption({ label: tt("status.archived") });
    await page.getByRole("button", { name: en("actions.filter") }).click();
    await expect(page).toHaveURL(/status=archived/);
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name, exact: true }) });
    await row.getByText(tt("statusChange.restore.action")).click();
    await expect(row.getByText(tt("statusChange.restore.question", { name }))).toBeVisible();
    await submitAndWait(page, "/teams", () => row.getByRole("button", { name: tt("statusChange.restore.confirm") }).click());
    await expect(shell.toast(en("toast.changesSaved"))).toBeVisible();
    await expect(page.getByText(tt("list.noMatch"))).toBeVisible();
    await page.goto(`/teams/${id}/settings`);
    await expect(page.locator(".team-header .badge")).toHaveText(tt("status.active"));
  });

  test("suspends two selected teams after reviewing the change", { tag: "@nojs" }, async ({ app }) => {
    const { page, shell } = app;
    const tag = `bulk${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
    const names = [uniqueName("Bulk One"), uniqueName("Bulk Two")];
    for (const name of names) {
      await page.goto("/teams/new");
      const form = new TeamFormPage(page);
      await form.name.fill(name);
      await form.otherTags.fill(tag);
      await submitAndWait(page, "/teams/new", () => form.create.click());
      await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    }
    await page.goto(`/teams?tag=${tag}`);
    const table = page.getByRole("table");
    await expect(table.getByRole("row")).toHaveCount(3);
    for (const name of names) await table.getByRole("checkbox", { name: tt("list.selectTeam", { name }) }).check();
    await page.getByLabel(tt("bulk.label")).selectOption({ label: tt("bulk.to.suspended") });
    await submitAndWait(page, "/teams", () => page.getByRole("button", { name: tt("bulk.review") }).click());

    const review = page.getByRole("region", { name: tt("review.title.suspended") });
    await expect(review.getByRole("listitem")).toHaveText(names);
    // Nothing changed yet.
    await expect(table.getByText(tt("status.suspended"), { exact: true })).toHaveCount(0);
    await submitAndWait(page, "/teams", () => review.getByRole("button", { name: tt("review.confirm.suspended_other", { count: 2 }) }).click());
    await expect(shell.toast(en("toast.changesSaved"))).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`tag=${tag}`));
    await expect(page.getByRole("table").getByText(tt("status.suspended"), { exact: true })).toHaveCount(2);
  });
});

test.describe("as a supplier", () => {
  test.use({ role: "supplierViewer" });

  test("never opens /teams, but reaches their own team from the dashboard", async ({ app }) => {
    const { page } = app;
    await page.goto("/teams");
    await expect(page).toHaveURL("/not-authorized");
    await expect(page.getByRole("heading", { level: 1, name: en("errors.notAuthorizedTitle") })).toBeVisible();

    await page.goto("/");
    const dashboard = page.getByRole("region", { name: tt("dashboard.title") });
    await expect(dashboard.getByRole("link")).toHaveText(["Acme Brand"]);
    await page.goto("/teams/acme-brand/settings");
    await expect(page.getByRole("heading", { level: 1, name: "Acme Brand" })).toBeVisible();
    // Read only: no form, no status change.
    await expect(page.locator("#team-form")).toHaveCount(0);
    await expect(page.getByText(tt("statusChange.suspend.action"))).toHaveCount(0);
    await expect(page.getByRole("navigation", { name: tt("page.tabs") }).getByRole("link")).toHaveText(["Campaigns" /* campaignList:tab */, tt("page.tab.wallets"), tt("page.tab.settings")]);
  });

  test("gets the not-found page for a team that does not list them", async ({ app }) => {
    const response = await app.page.goto("/teams/not-their-team/settings");
    expect(response?.status()).toBe(404);
    await expect(app.page.getByRole("heading", { level: 1, name: en("errors.notFoundTitle") })).toBeVisible();
  });
});
