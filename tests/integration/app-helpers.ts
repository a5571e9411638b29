/**
 * Helpers for the app-level integration tests: a real temporary SQLite database, the app's own
 * modules imported after the environment is set, real Request objects, and a small cookie jar.
 *
 * Usage, once per file (seeding hashes five passwords, ~250 ms):
 *
 *   let app: TestApp;
 *   beforeAll(async () => { app = await startApp(); });
 *   afterAll(() => app.stop());
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, vi } from "vitest";
import type { User } from "~/domain/types";
import { makeUserData, type NewUserData } from "../factories";

export const BASE_URL = "http://console.test";
export const SESSION_SECRET = "integration-tests-session-secret-0123456789";

const ENV_KEYS = [
  "STORAGE",
  "DATA_DIR",
  "DATABASE_URL",
  "SEED_DEMO_DATA",
  "SESSION_SECRET",
  "PUBLIC_URL",
  "COOKIE_SECURE",
  "SMTP_URL",
  "PASSWORD_RESET_TTL_MINUTES",
  "EVENTS_API_KEY",
] as const;

/** The app modules the tests drive, all from one module registry. */
export async function loadModules() {
  const [
    storageIndex,
    env,
    seed,
    passwords,
    auth,
    config,
    i18n,
    passwordReset,
    signIn,
    toast,
    session,
    root,
    login,
    campaigns,
    home,
    health,
    settings,
    profile,
    preferences,
    forgotPassword,
    authManagement,
    underMaintenance,
  ] = await Promise.all([
    import("~/storage/index.server"),
    import("~/services/env.server"),
    import("~/services/seed.server"),
    import("~/services/passwords.server"),
    import("~/http/auth.server"),
    import("~/services/config.server"),
    import("~/http/i18n.server"),
    import("~/services/password-reset.server"),
    import("~/services/sign-in.server"),
    import("~/http/toast.server"),
    import("~/http/session.server"),
    import("~/root"),
    import("~/routes/login"),
    import("~/routes/campaigns._index"),
    import("~/routes/_index"),
    import("~/routes/health"),
    import("~/routes/settings"),
    import("~/routes/profile"),
    import("~/routes/preferences"),
    import("~/routes/forgot-password"),
    import("~/routes/auth-management"),
    import("~/routes/under-maintenance"),
  ]);
  return {
    storageIndex,
    env,
    seed,
    passwords,
    auth,
    config,
    i18n,
    passwordReset,
    signIn,
    toast,
    session,
    routes: {
      root,
      login,
      campaigns,
      home,
      health,
      settings,
      profile,
      preferences,
      forgotPassword,
      authManagement,
      underMaintenance,
    },
  };
}
export type AppModules = Awaited<ReturnType<typeof loadModules>>;

export interface TestApp {
  dir: string;
  outboxDir: string;
  m: AppModules;
  demoPassword: string;
  /** Sets process.env.SMTP_URL (or removes it with null) and makes the app read it again. */
  setSmtpUrl(url: string | null): void;
  /** A fresh module registry (same environment, same database file, storage reopened). */
  freshModules(): Promise<AppModules>;
  /** Creates a user with a real password hash. */
  createUser(overrides?: Partial<NewUserData>, password?: string): Promise<AppUser>;
  stop(): Promise<void>;
}
export type AppUser = User & { password: string };

/** Creates the temporary environment, imports the app, seeds the demo data. */
export async function startApp(): Promise<TestApp> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ads-console-app-"));
  const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
  Object.assign(process.env, {
    STORAGE: "sqlite",
    DATA_DIR: dir,
    DATABASE_URL: path.join(dir, "console.db"),
    SEED_DEMO_DATA: "false",
    SESSION_SECRET,
    PUBLIC_URL: BASE_URL,
    COOKIE_SECURE: "false",
  });
  delete process.env.SMTP_URL;
  delete process.env.PASSWORD_RESET_TTL_MINUTES;
  delete process.env.EVENTS_API_KEY;

  vi.resetModules();
  let m = await loadModules();
  // A store left open on globalThis by an earlier file would point at another database.
  await m.storageIndex.closeStorage();
  m.env.resetEnvForTests();
  await m.seed.seedDemoData(m.storageIndex.getStorage());

  let counter = 0;
  const app: TestApp = {
    dir,
    outboxDir: path.join(dir, "outbox"),
    get m() {
      return m;
    },
    demoPassword: m.seed.DEMO_PASSWORD,
    setSmtpUrl(url) {
      if (url === null) delete process.env.SMTP_URL;
      else process.env.SMTP_URL = url;
      m.env.resetEnvForTests();
    },
    async freshModules() {
      await m.storageIndex.closeStorage();
      vi.resetModules();
      m = await loadModules();
      return m;
    },
    async createUser(overrides = {}, password = `Pass-word-${++counter}-${Date.now()}`) {
      const data = makeUserData({
        email: `user${++counter}.${Date.now()}@retailer.example`,
        locale: "en-GB",
        disconnected: false,
        // Operators made for other features' tests sign in with a password alone, as the demo
        // operator does; the second factor's own tests ask for `secondFactorExempt: false`.
        ...(overrides.claims?.type === "operator" ? { secondFactorExempt: true } : {}),
        ...overrides,
        passwordHash: await m.passwords.hashPassword(password),
      });
      const user = await m.storageIndex.getStorage().users.create(data, { by: "system" });
      return { ...user, password };
    },
    async stop() {
      await m.storageIndex.closeStorage();
      for (const key of ENV_KEYS) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
      m.env.resetEnvForTests();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return app;
}

// ---------------------------------------------------------------------------------------------
// Requests and outcomes
// ---------------------------------------------------------------------------------------------

export interface RequestOptions {
  cookie?: string | CookieJar | null;
  headers?: Record<string, string>;
}

function buildHeaders(options: RequestOptions): Headers {
  const headers = new Headers(options.headers);
  const cookie = options.cookie instanceof CookieJar ? options.cookie.header() : options.cookie;
  if (cookie) headers.set("Cookie", cookie);
  return headers;
}

export function getRequest(pathname: string, options: RequestOptions = {}): Request {
  return new Request(new URL(pathname, BASE_URL), { headers: buildHeaders(options) });
}

export function postRequest(pathname: string, form: Record<string, string>, options: RequestOptions = {}): Request {
  const headers = buildHeaders(options);
  headers.set("Content-Type", "application/x-www-form-urlencoded");
  return new Request(new URL(pathname, BASE_URL), { method: "POST", headers, body: new URLSearchParams(form).toString() });
}

/** The arguments Remix gives a loader or an action. */
export function args(request: Request, clientIp = "127.0.0.1") {
  return { request, params: {}, context: { requestId: "t", clientIp } };
}

export interface Outcome {
  status: number;
  headers: Headers;
  /** Location of a redirect, else null. */
  location: string | null;
  /** The data of a `data()` or plain return; parsed JSON of a Response with a JSON body. */
  data: any;
  thrown: boolean;
}

function isDataWithInit(value: unknown): value is { type: "DataWithResponseInit"; data: unknown; init: ResponseInit | null } {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit";
}

async function normalise(value: unknown, thrown: boolean): Promise<Outcome> {
  if (value instanceof Response) {
    const type = value.headers.get("Content-Type") ?? "";
    return {
      status: value.status,
      headers: value.headers,
      location: value.headers.get("Location"),
      data: type.includes("json") ? await value.json() : null,
      thrown,
    };
  }
  if (isDataWithInit(value)) {
    const headers = new Headers(value.init?.headers);
    return { status: value.init?.status ?? 200, headers, location: headers.get("Location"), data: value.data, thrown };
  }
  return { status: 200, headers: new Headers(), location: null, data: value, thrown };
}

/** Calls a loader or action; thrown and returned Responses (redirects, data()) end up alike. */
export async function call(fn: () => unknown): Promise<Outcome> {
  try {
    return await normalise(await fn(), false);
  } catch (error) {
    if (error instanceof Response || isDataWithInit(error)) return normalise(error, true);
    throw error;
  }
}

/**
 * Creates a draft through the campaign creation form's action (`routes/teams.$teamId.campaigns.new.$type`),
 * as the user of `cookie`, and returns its id; fails the test unless the form redirects to it.
 */
export async function createDraftThroughForm(
  action: (args: never) => unknown,
  context: unknown,
  cookie: string,
  options: { team: string; name: string; type?: string; startDay?: string; endDay?: string },
): Promise<string> {
  const type = options.type ?? "sponsored-products";
  const form: Record<string, string> = { intent: "create-campaign", name: options.name, startDay: options.startDay ?? "2030-01-01", campaignType: type };
  if (options.endDay) form.endDay = options.endDay;
  const request = postRequest(`/teams/${options.team}/campaigns/new/${type}`, form, { cookie });
  const outcome = await call(() => action({ request, params: { teamId: options.team, type }, context } as never));
  expect(outcome.status, JSON.stringify(outcome.data)).toBe(302);
  const id = /^\/campaigns\/([^/?]+)$/.exec(outcome.location ?? "")?.[1];
  expect(id, "the new campaign's id").toBeTruthy();
  return id!;
}

// ---------------------------------------------------------------------------------------------
// Cookies
// ---------------------------------------------------------------------------------------------

export interface SetCookie {
  name: string;
  value: string;
  /** The cookie is removed by this header (empty, expired or Max-Age=0). */
  cleared: boolean;
}

export function parseSetCookies(headers: Headers): SetCookie[] {
  return headers.getSetCookie().map((line) => {
    const [pair, ...attributes] = line.split(";").map((s) => s.trim());
    const eq = pair.indexOf("=");
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    let cleared = value === "";
    for (const attribute of attributes) {
      const [key, val = ""] = attribute.split("=");
      if (key.toLowerCase() === "expires" && Date.parse(val) <= Date.now()) cleared = true;
      if (key.toLowerCase() === "max-age" && Number(val) <= 0) cleared = true;
    }
    return { name, value, cleared };
  });
}

/** A browser's cookies for one site. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  constructor(header?: string | null) {
    if (header) {
      for (const part of header.split(";")) {
        const [name, ...rest] = part.trim().split("=");
        if (name) this.cookies.set(name, rest.join("="));
      }
    }
  }

  apply(headers: Headers): this {
    for (const { name, value, cleared } of parseSetCookies(headers)) {
      if (cleared) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return this;
  }

  has(name: string): boolean {
    return this.cookies.has(name);
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  clone(): CookieJar {
    return new CookieJar(this.header());
  }
}

// ---------------------------------------------------------------------------------------------
// Sign-in
// ---------------------------------------------------------------------------------------------

/** POSTs the /login form. */
export function attemptSignIn(
  m: AppModules,
  email: string,
  password: string,
  options: { to?: string; clientIp?: string; cookie?: string | CookieJar | null; headers?: Record<string, string> } = {},
): Promise<Outcome> {
  const form: Record<string, string> = { email, password };
  if (options.to !== undefined) form.to = options.to;
  const request = postRequest("/login", form, { cookie: options.cookie, headers: options.headers });
  return call(() => m.routes.login.action(args(request, options.clientIp) as never));
}

/** Signs in through the /login action and returns the Cookie header of the new session. */
export async function signIn(m: AppModules, email: string, password: string, clientIp = "127.0.0.1"): Promise<string> {
  const outcome = await attemptSignIn(m, email, password, { clientIp });
  if (outcome.status !== 302) {
    throw new Error(`Sign-in of ${email} failed: ${outcome.status} ${JSON.stringify(outcome.data?.error ?? outcome.data)}`);
  }
  const jar = new CookieJar().apply(outcome.headers);
  if (!jar.has("__session")) throw new Error(`Sign-in of ${email} set no session cookie`);
  return jar.header();
}

// ---------------------------------------------------------------------------------------------
// Mail
// ---------------------------------------------------------------------------------------------

export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  text: string;
}

/** The messages written to DATA_DIR/outbox (no SMTP_URL), oldest first. */
export function readOutbox(outboxDir: string): OutboxMail[] {
  if (!fs.existsSync(outboxDir)) return [];
  return fs
    .readdirSync(outboxDir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => {
      const message = JSON.parse(fs.readFileSync(path.join(outboxDir, file), "utf8"));
      const to = Array.isArray(message.to) ? message.to.map((a: { address?: string } | string) => (typeof a === "string" ? a : a.address)).join(", ") : String(message.to?.address ?? message.to ?? "");
      return { file, to, subject: String(message.subject), text: String(message.text) };
    });
}

/** The reset link of a mail's text, and its token. */
export function resetLinkIn(text: string): { url: string; token: string } {
  const match = /(https?:\/\/\S+\/auth-management\?\S+)/.exec(text);
  if (!match) throw new Error(`No reset link in:\n${text}`);
  const url = new URL(match[1]);
  return { url: url.pathname + url.search, token: url.searchParams.get("oobCode") ?? "" };
}

/** Decodes the body of a raw single-part RFC 5322 message. */
export function decodeRawMail(raw: string): { headers: Record<string, string>; text: string } {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const body = raw.slice(split + 4);
  const headers: Record<string, string> = {};
  for (const line of head.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const encoding = (headers["content-transfer-encoding"] ?? "7bit").toLowerCase();
  let text = body;
  if (encoding === "quoted-printable") {
    const binary = body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    text = Buffer.from(binary, "latin1").toString("utf8");
  } else if (encoding === "base64") {
    text = Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  }
  return { headers, text: text.replace(/\r\n/g, "\n") };
}
