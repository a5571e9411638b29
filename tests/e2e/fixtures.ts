/**
 * Page objects and fixtures for the e2e specs: every selector lives here, so the specs read as
 * behaviour. Locators use roles and labels; the texts come from locales/<locale>/common.json, the
 * same files the app renders.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, test as base, type Browser, type BrowserContext, type Locator, type Page, type Request } from "@playwright/test";
import { formKey, formsSubmittedBy } from "./nojs-forms";
import type { E2EServer } from "./servers";
import { withDe } from "../../app/domain/elision";
import { demoCatalog } from "../../app/services/catalog-seed.server";

// ---------------------------------------------------------------------------------------------
// Demo accounts (seeded by SEED_DEMO_DATA=true, see app/services/seed.server.ts)

export type Role = "operator" | "retailerAdmin" | "retailerViewer" | "supplierAdmin" | "supplierViewer";

export const DEMO_PASSWORD = "Demo-password-1";

export const DEMO_USERS: Record<Role, { email: string; displayName: string; menu: string[] }> = {
  operator: { email: "operator@example.com", displayName: "Olivia Operator", menu: ["Dashboard", "Campaigns", "Reports", "Catalog", "Inventory", "Settings", "Activity", "Notifications", "FAQ"] },
  retailerAdmin: { email: "retailer.admin@example.com", displayName: "Rachel Retailer", menu: ["Dashboard", "Campaigns", "Reports", "Catalog", "Inventory", "Settings", "Notifications", "FAQ"] },
  retailerViewer: { email: "retailer.viewer@example.com", displayName: "Victor Viewer", menu: ["Dashboard", "Campaigns", "Reports", "Catalog", "Inventory", "Notifications", "FAQ"] },
  supplierAdmin: { email: "supplier.admin@example.com", displayName: "Sam Supplier", menu: ["Dashboard", "Campaigns", "Reports", "Notifications", "FAQ"] },
  supplierViewer: { email: "supplier.viewer@example.com", displayName: "Susan Supplier", menu: ["Dashboard", "Campaigns", "Reports", "Notifications", "FAQ"] },
};

export const ROLES = Object.keys(DEMO_USERS) as Role[];

export function authFile(server: E2EServer, role: Role): string {
  return path.join(server.authDir, `${role}.json`);
}

/** An e-mail no account uses, so throttling it cannot lock a demo account. */
export function unknownEmail(): string {
  return `nobody-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

// ---------------------------------------------------------------------------------------------
// UI texts

export type Texts = (key: string, values?: Record<string, string | number>) => string;

function loadTexts(locale: "en-GB" | "fr", ns = "common"): Texts {
  const file = new URL(`../../locales/${locale}/${ns}.json`, import.meta.url);
  const dict = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
  return (key, values = {}) => {
    const found = key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], dict);
    if (typeof found !== "string") throw new Error(`No ${locale} ${ns} text for ${key}`);
    // `{{name, de}}`: French "de" elided before the name, as app/i18n.ts formats it.
    return found.replace(/\{\{(\w+)(?:,\s*(\w+))?\}\}/g, (_, name: string, format?: string) => {
      const value = values[name];
      if (value === undefined) return `{{${name}}}`;
      return format === "de" ? withDe(String(value)) : String(value);
    });
  };
}

export const en = loadTexts("en-GB");
export const fr = loadTexts("fr");
/** The en-GB texts of one area's namespace (locales/en-GB/<ns>.json), as the app renders them. */
export const enTexts = (ns: string): Texts => loadTexts("en-GB", ns);

// ---------------------------------------------------------------------------------------------
// Page objects

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Runs `act` (a click or key press that posts a form) and waits for the server's answer to the
 * POST: a document request without JS, a fetch of `<path>.data` with JS.
 */
export async function submitAndWait(page: Page, pathname: string, act: () => Promise<unknown>) {
  const answered = page.waitForResponse(
    (response) => response.request().method() === "POST" && new URL(response.url()).pathname.replace(/\.data$/, "") === pathname,
  );
  await act();
  await answered;
}

export class LoginPage {
  readonly heading: Locator;
  readonly email: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly forgotPassword: Locator;
  /** The form-level alert: 'Authentication Error' and the reason. */
  readonly error: Locator;
  readonly resetNotice: Locator;

  constructor(
    readonly page: Page,
    readonly t: Texts = en,
  ) {
    this.heading = page.getByRole("heading", { level: 1, name: t("login.title") });
    this.email = page.getByLabel(t("fields.email"), { exact: true });
    this.password = page.getByLabel(t("fields.password"), { exact: true });
    this.submit = page.getByRole("button", { name: t("login.submit"), exact: true });
    this.forgotPassword = page.getByRole("link", { name: t("login.forgot") });
    this.error = page.getByRole("alert").filter({ hasText: t("errors.authenticationError") });
    this.resetNotice = page.getByRole("main").getByRole("status").filter({ hasText: t("reset.done") });
  }

  async goto(query = "") {
    await this.page.goto(`/login${query}`);
    await expect(this.heading).toBeVisible();
  }

  /** Fills and sends the form; resolves once the server answered (with or without JS). */
  async signIn(email: string, password: string) {
    await this.email.fill(email);
    await this.password.fill(password);
    await submitAndWait(this.page, "/login", () => this.submit.click());
  }

  languageButton(name: string): Locator {
    return this.page.getByRole("group", { name: this.t("userMenu.language") }).getByRole("button", { name, exact: true });
  }
}

/** The signed-in chrome: skip link, navbar (menu toggle, shortcuts, user menu), main menu, main. */
export class Shell {
  readonly skipLink: Locator;
  readonly mainMenu: Locator;
  readonly main: Locator;
  /** The user menu's <summary>, labelled 'User menu of <name>'. */
  readonly userMenuButton: Locator;
  /** The user menu: a <details> disclosure (role group) holding that summary. */
  readonly userMenu: Locator;
  readonly shortcutsDialog: Locator;

  constructor(
    readonly page: Page,
    readonly t: Texts = en,
  ) {
    this.skipLink = page.getByRole("link", { name: t("shell.skipToContent") });
    this.mainMenu = page.getByRole("navigation", { name: t("shell.mainMenu") });
    this.main = page.getByRole("main");
    const [before, after] = t("userMenu.label", { name: "\u0000" }).split("\u0000").map(escapeRegExp);
    // French elides "de" before a vowel: "Menu utilisateur d'Olivia" as well as "de Sam".
    this.userMenuButton = page.getByLabel(new RegExp(`^${before!.replace(/de $/, "(?:de |d’)")}.+${after}$`));
    this.userMenu = page.getByRole("group").filter({ has: this.userMenuButton });
    this.shortcutsDialog = page.getByRole("dialog", { name: t("shortcuts.title") });
  }

  menuItems(): Locator {
    return this.mainMenu.getByRole("link");
  }

  async openUserMenu() {
    if ((await this.userMenu.getAttribute("open")) === null) await this.userMenuButton.click();
    await expect(this.userMenu).toHaveAttribute("open", "");
  }

  async signOut() {
    await this.openUserMenu();
    await this.userMenu.getByRole("button", { name: this.t("userMenu.signOut") }).click();
  }

  /** A button of one of the user menu's choices (Language, Theme, Layout direction). */
  userMenuChoice(legendKey: "userMenu.language" | "userMenu.theme" | "userMenu.direction", name: string): Locator {
    return this.userMenu.getByRole("group", { name: this.t(legendKey) }).getByRole("button", { name, exact: true });
  }

  async chooseTheme(themeKey: "system" | "light" | "dark") {
    await this.openUserMenu();
    await submitAndWait(this.page, "/preferences", () => this.userMenuChoice("userMenu.theme", this.t(`themes.${themeKey}`)).click());
  }

  async chooseDirection(directionKey: "ltr" | "rtl") {
    await this.openUserMenu();
    await submitAndWait(this.page, "/preferences", () => this.userMenuChoice("userMenu.direction", this.t(`directions.${directionKey}`)).click());
  }

  async chooseLanguage(name: string) {
    await this.openUserMenu();
    await submitAndWait(this.page, "/preferences", () => this.userMenuChoice("userMenu.language", name).click());
  }

  /** The menu toggle: named 'Expand the menu' while collapsed, 'Collapse the menu' while expanded. */
  menuToggle(state: "collapsed" | "expanded"): Locator {
    return this.page.getByRole("button", { name: this.t(state === "collapsed" ? "shell.expandMenu" : "shell.collapseMenu"), exact: true });
  }

  /** Clicks the menu toggle and waits until the server has saved the choice. */
  async toggleMenu(from: "collapsed" | "expanded") {
    await submitAndWait(this.page, "/preferences", () => this.menuToggle(from).click());
  }

  heading(name: string): Locator {
    return this.page.getByRole("heading", { level: 1, name, exact: true });
  }

  /** A success toast (a live region with role=status) titled e.g. 'Changes Saved'. */
  toast(title: string): Locator {
    return this.page.getByRole("status").filter({ has: this.page.getByText(title, { exact: true }) });
  }
}

/** Full-page notices: not found, not authorized, under maintenance. */
export class StatusPage {
  constructor(
    readonly page: Page,
    readonly t: Texts = en,
  ) {}

  heading(titleKey: string): Locator {
    return this.page.getByRole("heading", { level: 1, name: this.t(titleKey), exact: true });
  }
}

export class ForgotPasswordPage {
  readonly email: Locator;
  readonly submit: Locator;
  readonly sent: Locator;

  constructor(
    readonly page: Page,
    readonly t: Texts = en,
  ) {
    this.email = page.getByLabel(t("fields.email"), { exact: true });
    this.submit = page.getByRole("button", { name: t("forgot.submit") });
    this.sent = page.getByRole("main").getByRole("status").filter({ hasText: t("forgot.sent") });
  }

  async requestLink(email: string) {
    await this.email.fill(email);
    await this.submit.click();
    await expect(this.sent).toBeVisible();
  }
}

export class ResetPasswordPage {
  readonly heading: Locator;
  readonly newPassword: Locator;
  readonly confirmPassword: Locator;
  readonly submit: Locator;
  readonly problem: Locator;

  constructor(
    readonly page: Page,
    readonly t: Texts = en,
  ) {
    this.heading = page.getByRole("heading", { level: 1, name: t("reset.title") });
    this.newPassword = page.getByLabel(t("fields.newPassword"), { exact: true });
    this.confirmPassword = page.getByLabel(t("fields.confirmPassword"), { exact: true });
    this.submit = page.getByRole("button", { name: t("reset.submit") });
    this.problem = page.getByRole("alert").filter({ hasText: t("errors.authenticationError") });
  }

  async setPassword(password: string) {
    await this.newPassword.fill(password);
    await this.confirmPassword.fill(password);
    await this.submit.click();
  }
}

export class ProfilePage {
  readonly details: Locator;
  readonly lastname: Locator;
  readonly save: Locator;

  constructor(
    readonly page: Page,
    readonly t: Texts = en,
  ) {
    this.details = page.getByRole("region", { name: t("profile.details") });
    this.lastname = this.details.getByLabel(t("fields.lastname"), { exact: true });
    this.save = this.details.getByRole("button", { name: t("actions.save") });
  }

  async goto() {
    await this.page.goto("/profile");
    await expect(this.details).toBeVisible();
  }
}

export class SettingsPage {
  readonly platform: Locator;
  readonly maintenance: Locator;
  readonly save: Locator;

  constructor(
    readonly page: Page,
    readonly t: Texts = en,
  ) {
    this.platform = page.getByRole("region", { name: t("settings.platform") });
    this.maintenance = this.platform.getByRole("checkbox", { name: t("settings.maintenance") });
    this.save = this.platform.getByRole("button", { name: t("actions.save") });
  }

  async goto() {
    await this.page.goto("/settings");
    await expect(this.platform).toBeVisible();
  }

  async setMaintenance(on: boolean) {
    await this.maintenance.setChecked(on);
    await this.save.click();
    await expect(new Shell(this.page, this.t).toast(this.t("toast.changesSaved"))).toBeVisible();
    await expect(this.maintenance).toBeChecked({ checked: on });
  }
}

/** Every page object of one page, in one language. */
export function screens(page: Page, t: Texts = en) {
  return {
    page,
    login: new LoginPage(page, t),
    shell: new Shell(page, t),
    status: new StatusPage(page, t),
    forgotPassword: new ForgotPasswordPage(page, t),
    resetPassword: new ResetPasswordPage(page, t),
    profile: new ProfilePage(page, t),
    settings: new SettingsPage(page, t),
  };
}
export type Screens = ReturnType<typeof screens>;

// ---------------------------------------------------------------------------------------------
// The mail outbox (DATA_DIR/outbox/*.json, nodemailer's jsonTransport)

interface OutboxMail {
  file: string;
  to: string[];
  subject: string;
  text: string;
}

function addresses(field: unknown): string[] {
  const list = Array.isArray(field) ? field : [field];
  return list
    .map((entry) => (typeof entry === "string" ? entry : (entry as { address?: string } | null)?.address ?? ""))
    .map((a) => a.toLowerCase());
}

export class Outbox {
  constructor(readonly dir: string) {}

  list(): OutboxMail[] {
    if (!fs.existsSync(this.dir)) return [];
    return fs
      .readdirSync(this.dir)
      .filter((f) => f.endsWith(".json"))
      .sort() // file names start with an ISO timestamp
      .map((f) => {
        const mail = JSON.parse(fs.readFileSync(path.join(this.dir, f), "utf8")) as { to: unknown; subject: string; text: string };
        return { file: f, to: addresses(mail.to), subject: mail.subject, text: mail.text };
      });
  }

  /** Waits for a mail to `email` that was not in `seen`, and returns the newest one. */
  async nextMailTo(email: string, seen: Set<string>): Promise<OutboxMail> {
    let found: OutboxMail | undefined;
    await expect
      .poll(
        () => {
          found = this.list()
            .filter((m) => m.to.includes(email.toLowerCase()) && !seen.has(m.file))
            .at(-1);
          return found?.file;
        },
        { message: `a new e-mail to ${email} in ${this.dir}` },
      )
      .toBeTruthy();
    return found!;
  }

  files(): Set<string> {
    return new Set(this.list().map((m) => m.file));
  }

  /** The path and query of the reset link in a mail, to open on the test's own base URL. */
  static resetLink(mail: OutboxMail): string {
    const match = mail.text.match(/https?:\/\/\S+\/auth-management\?\S+/);
    if (!match) throw new Error(`No reset link in: ${mail.text}`);
    const url = new URL(match[0]);
    return url.pathname + url.search;
  }
}

// ---------------------------------------------------------------------------------------------
// Fixtures

export interface E2EOptions {
  /** The app server of the project (set in playwright.config.ts). */
  server: E2EServer;
}

interface E2EFixtures {
  /** Start the test signed in as this demo role (stored by auth.setup.ts); unset: signed out. */
  role: Role | undefined;
  /** The page objects of the test's page. */
  app: Screens;
  /** Another browser (fresh context) for a second user, signed in as `role` or signed out. */
  openBrowser: (role?: Role) => Promise<Screens>;
  outbox: Outbox;
  /**
   * The forms the test's browsers submitted (keys of tests/e2e/nojs-forms.ts), recorded with
   * JavaScript off; a JS-off test that the table names but that did not submit its form fails.
   */
  submittedForms: { watch: (context: BrowserContext) => Promise<void>; keys: Set<string> };
}

/** Files the app serves as they are (styles, images, fonts, videos): never a form's answer. */
const STATIC_FILE = /^\/build\/|\.(css|js|png|jpe?g|gif|webp|svg|ico|woff2?|mp4|webm)$/;

/** The value of a field of a posted form body (url-encoded or multipart), or null. */
function postedField(request: Request, name: string): string | null {
  const body = request.postDataBuffer()?.toString("latin1") ?? "";
  if ((request.headers()["content-type"] ?? "").startsWith("multipart/form-data")) {
    return new RegExp(`name="${name}"\r\n\r\n([^\r]*)`).exec(body)?.[1] ?? null;
  }
  return new URLSearchParams(body).get(name);
}

/**
 * Collects React hydration failures (#418, #423, #425 in production builds): when the browser's
 * first render differs from the server's HTML, React throws that HTML away and renders again,
 * which flashes untranslated keys and loses whatever the user typed meanwhile. Other uncaught
 * errors are left to the assertions on what the user sees (an interrupted fetch, for one, is
 * harmless).
 */
const HYDRATION_ERROR = /Minified React error #(418|423|425)\b|Hydration failed|did not match|error while hydrating/i;

function watchHydrationErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => {
    if (HYDRATION_ERROR.test(error.message)) errors.push(`${page.url()}: ${error.message.split("\n")[0]}`);
  });
  return errors;
}

async function newScreens(browser: Browser, options: { baseURL?: string; javaScriptEnabled: boolean; storageState?: string }) {
  const context = await browser.newContext({ ...options, locale: "en-GB", timezoneId: "Europe/Paris" });
  return { context, screens: screens(await context.newPage()) };
}

export const test = base.extend<E2EFixtures, E2EOptions>({
  server: [undefined as unknown as E2EServer, { option: true, scope: "worker" }],
  role: [undefined, { option: true }],
  storageState: async ({ role, server, storageState }, use) => {
    await use(role ? authFile(server, role) : storageState);
  },
  app: async ({ page }, use) => {
    const errors = watchHydrationErrors(page);
    await use(screens(page));
    expect(errors, "React could not hydrate the server's HTML").toEqual([]);
  },
  submittedForms: [
    async ({ context, javaScriptEnabled }, use, testInfo) => {
      const keys = new Set<string>();
      const watch = async (watched: BrowserContext) => {
        // Without JavaScript a form's submission is a document request (a script's is a fetch).
        // It is read through a route: only there does a multipart body with files carry its fields.
        if (javaScriptEnabled) return;
        await watched.route(
          (url) => !STATIC_FILE.test(url.pathname),
          async (route) => {
            const request = route.request();
            if (request.method() === "POST" && request.resourceType() === "document") {
              keys.add(
                formKey(new URL(request.url()).pathname, { intent: postedField(request, "intent"), action: postedField(request, "action"), scope: postedField(request, "scope") }),
              );
            }
            await route.fallback();
          },
        );
      };
      await watch(context);
      await use({ watch, keys });
      if (process.env.E2E_FORMS_LOG) fs.appendFileSync(process.env.E2E_FORMS_LOG, JSON.stringify({ spec: path.basename(testInfo.file), test: testInfo.title, js: javaScriptEnabled, tags: testInfo.tags, keys: [...keys] }) + "\n");
      if (javaScriptEnabled || testInfo.status !== testInfo.expectedStatus) return;
      const missing = formsSubmittedBy(path.basename(testInfo.file), testInfo.title).filter((key) => !keys.has(key));
      expect(missing, "forms that tests/e2e/nojs-forms.ts says this test submits with JavaScript off, and it did not").toEqual([]);
    },
    { auto: true },
  ],
  openBrowser: async ({ browser, server, javaScriptEnabled, submittedForms }, use) => {
    const contexts: { close: () => Promise<void> }[] = [];
    const errors: string[][] = [];
    await use(async (role) => {
      const { context, screens: opened } = await newScreens(browser, {
        baseURL: server.baseURL,
        javaScriptEnabled,
        storageState: role ? authFile(server, role) : undefined,
      });
      contexts.push(context);
      await submittedForms.watch(context);
      errors.push(watchHydrationErrors(opened.page));
      return opened;
    });
    for (const context of contexts) await context.close();
    expect(errors.flat(), "React could not hydrate the other browser's page").toEqual([]);
  },
  outbox: async ({ server }, use) => {
    await use(new Outbox(path.join(server.dataDir, "outbox")));
  },
});

export { expect };

// ---------------------------------------------------------------------------------------------
// Campaigns

/** A name no other test (or earlier run) uses. */
export function uniqueName(label: string): string {
  return `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/**
 * Creates a draft through the creation form, as the page's signed-in user (for the demo team by
 * default), and returns its id.
 */
export async function createCampaign(
  page: Page,
  baseURL: string,
  options: { name?: string; type?: "sponsored-products" | "banner-ads" | string; startDay?: string; team?: string } = {},
): Promise<string> {
  const type = options.type ?? "sponsored-products";
  const response = await page.request.post(`/teams/${options.team ?? "acme-brand"}/campaigns/new/${type}`, {
    form: { intent: "create-campaign", name: options.name ?? uniqueName("Campaign e2e"), startDay: options.startDay ?? "2030-01-01", campaignType: type },
    headers: { Origin: baseURL },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
  const id = /\/campaigns\/([^/?]+)$/.exec(response.headers().location ?? "")?.[1];
  expect(id, "the new campaign's id").toBeTruthy();
  return id!;
}

/**
 * The first `count` products of one brand and party in the demo catalog the servers seed
 * (app/services/catalog-seed.server.ts: the same products on every run), less `except`. Acme's
 * 1P products by default: the Acme Brand team's supplier may sponsor them, and one campaign may
 * hold them all (one party).
 */
export function demoProductIds(count: number, options: { brand?: string; party?: "1P" | "3P" | "1P_3P"; except?: string[] } = {}): string[] {
  const { brand = "Acme", party = "1P", except = [] } = options;
  const ids = demoCatalog()
    .filter((p) => p.brand === brand && p.party === party && !except.includes(p.id))
    .slice(0, count)
    .map((p) => p.id);
  expect(ids, `${count} ${party} products of ${brand} in the demo catalog`).toHaveLength(count);
  return ids;
}

/**
 * Adds products to a campaign by posting its ids form as the page's signed-in user: one request,
 * whatever the count (the form takes up to 1,000 ids), so a test can start from a campaign of
 * several pages of products without clicking through them.
 */
export async function addProductIds(page: Page, baseURL: string, campaignId: string, ids: string[], version = 1) {
  const response = await page.request.post(`/campaigns/${campaignId}/products`, {
    form: { intent: "add-products", version: String(version), ids: ids.join(" ") },
    headers: { Origin: baseURL },
    maxRedirects: 0,
  });
  // A redirect: every id added, nothing to report.
  expect(response.status(), "all the products added").toBe(302);
}

/**
 * Creates a wallet of a team through the form on its Wallets tab (as the page's user, a team
 * manager); resolves on the wallet's page and returns its id.
 */
export async function createWalletThroughForm(page: Page, label: string, options: { team?: string; dailyBudget?: string } = {}): Promise<string> {
  const team = options.team ?? "acme-brand";
  const wt = enTexts("wallets");
  await page.goto(`/teams/${team}/wallets`);
  const form = page.locator("#create-wallet-form");
  const labelField = form.getByLabel(wt("fields.label"), { exact: true });
  if (!(await labelField.isVisible())) await page.getByText(wt("create.title"), { exact: true }).click();
  await labelField.fill(label);
  if (options.dailyBudget) await form.getByLabel(wt("fields.dailyBudget"), { exact: true }).fill(options.dailyBudget);
  await submitAndWait(page, `/teams/${team}/wallets`, () => form.getByRole("button", { name: wt("create.submit") }).click());
  await expect(page.getByRole("heading", { level: 2, name: label, exact: true })).toBeVisible();
  return new URL(page.url()).pathname.split("/").pop()!;
}

/** A day in Paris (the retailer's time zone) as yyyy-mm-dd, `offset` days from today. */
export function parisDay(offset = 0): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Paris", year: "numeric", month: "2-digit", day: "2-digit" })
      .formatToParts(new Date(Date.now() + offset * 86_400_000))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** Posts a credit or a debit through the transaction form of the wallet page the page is on. */
export async function postWalletEntry(page: Page, type: "credit" | "debit", amount: string, reference: string) {
  const wt = enTexts("wallets");
  const form = page.getByRole("region", { name: wt("entry.title") });
  await form.getByRole("radio", { name: wt(`entry.types.${type}`) }).check();
  await form.getByLabel(wt("fields.amount", { currency: "EUR" }), { exact: true }).fill(amount);
  await form.getByLabel(wt("fields.reference"), { exact: true }).fill(reference);
  await submitAndWait(page, new URL(page.url()).pathname, () => form.getByRole("button", { name: wt("entry.submit") }).click());
}

/** Creates a wallet of the demo team and credits it (as a retailer administrator or operator); returns its label. */
export async function createFundedWallet(page: Page, amount = "100.00", label = uniqueName("Funded wallet")): Promise<string> {
  const wt = enTexts("wallets");
  await createWalletThroughForm(page, label);
  await postWalletEntry(page, "credit", amount, "E2E-FUNDS");
  await expect(page.getByRole("region", { name: wt("page.money") }).locator(".wallet-balance strong")).toHaveText(`€${amount}`);
  return label;
}

/** The campaign editor: header, live status, action bar, section tabs and the sections' forms. */
export class CampaignEditor {
  readonly badge: Locator;
  readonly actions: Locator;
  readonly tabs: Locator;
  readonly alert: Locator;
  readonly save: Locator;
  readonly name: Locator;
  readonly start: Locator;
  readonly wallet: Locator;
  readonly bid: Locator;
  readonly applyMinBid: Locator;
  readonly total: Locator;
  readonly daily: Locator;
  /** The General section's 'Ready to activate?' panel, by its heading. */
  readonly readiness: Locator;

  constructor(readonly page: Page) {
    const ct = enTexts("campaigns");
    const et = enTexts("campaignEditor");
    this.badge = page.locator(".campaign-meta .campaign-badge");
    this.actions = page.getByRole("group", { name: ct("actions.label") });
    this.tabs = page.getByRole("navigation", { name: ct("editor.sections") });
    this.alert = page.getByRole("alert");
    this.save = page.getByRole("button", { name: et("save"), exact: true });
    this.name = page.getByLabel(ct("fields.name"), { exact: true });
    this.start = page.getByLabel(ct("fields.startDay"), { exact: true });
    this.wallet = page.getByLabel(ct("fields.wallet"), { exact: true });
    this.bid = page.getByLabel(et("bidding.bidLabel"), { exact: true });
    this.applyMinBid = page.getByRole("button", { name: ct("bidding.applyMinBid") });
    this.total = page.getByLabel(et("budget.total"), { exact: true });
    this.daily = page.getByLabel(et("budget.daily"), { exact: true });
    this.readiness = page.getByRole("region", { name: et("readiness.title"), exact: true });
  }

  title(name: string): Locator {
    return this.page.getByRole("heading", { level: 1, name, exact: true });
  }

  id(): string {
    return /\/campaigns\/([^/?#]+)/.exec(new URL(this.page.url()).pathname)![1]!;
  }

  async section(key: "general" | "bidding" | "budget") {
    const ct = enTexts("campaigns");
    await this.tabs.getByRole("link", { name: ct(`editor.section.${key}`), exact: true }).click();
    const path = key === "general" ? `/campaigns/${this.id()}` : `/campaigns/${this.id()}/${key}`;
    await expect(this.page).toHaveURL(new RegExp(`${path}$`));
    await expect(this.page.getByRole("heading", { level: 2, name: ct(`editor.section.${key}`), exact: true })).toBeVisible();
  }

  /** Saves the section's form and waits for the answer. */
  async saveSection() {
    await submitAndWait(this.page, new URL(this.page.url()).pathname, () => this.save.click());
  }

  /** The summary of an action bar's disclosure (an action that confirms first, or Reject). */
  private summary(key: string): Locator {
    const label = enTexts("campaigns")(`actions.${key}`);
    return this.actions.locator("summary").filter({ hasText: new RegExp(`^${escapeRegExp(label)}$`) });
  }

  /** What the action bar offers for a lifecycle action (Activate, Pause…): its button or its disclosure. */
  action(key: string): Locator {
    const label = enTexts("campaigns")(`actions.${key}`);
    return this.actions.getByRole("button", { name: label, exact: true }).or(this.summary(key));
  }

  /** A lifecycle action from the action bar; destructive ones confirm first. */
  async act(key: string, confirmKey?: string) {
    const ct = enTexts("campaigns");
    const id = this.id();
    if (confirmKey) {
      await this.summary(key).click();
      await submitAndWait(this.page, `/campaigns/${id}`, () => this.actions.getByRole("button", { name: ct(confirmKey) }).click());
    } else {
      await submitAndWait(this.page, `/campaigns/${id}`, () => this.actions.getByRole("button", { name: ct(`actions.${key}`), exact: true }).click());
    }
  }

  /** Rejects the campaign (a reviewer) with a reason, through the action bar's Reject disclosure. */
  async reject(reason: string) {
    const ct = enTexts("campaigns");
    await this.summary("reject").click();
    await this.actions.getByLabel(ct("actions.rejectReason"), { exact: true }).fill(reason);
    await submitAndWait(this.page, `/campaigns/${this.id()}`, () => this.actions.getByRole("button", { name: ct("actions.confirmReject"), exact: true }).click());
  }

  toast(title: string): Locator {
    return this.page.getByRole("status").filter({ has: this.page.getByText(title, { exact: true }) });
  }
}
