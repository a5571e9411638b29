/** The root loader (toasts, config errors, locale) and the language of a request. */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { args, call, CookieJar, getRequest, postRequest, signIn, startApp, type TestApp } from "./app-helpers";

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.stop();
});

function rootLoader(pathname: string, options: { cookie?: string | CookieJar; headers?: Record<string, string> } = {}) {
  return call(() => app.m.routes.root.loader(args(getRequest(pathname, options)) as never));
}

/** A visitor's language choice through the /preferences action: the `lng` cookie it sets. */
async function chooseLanguage(locale: string, cookie?: CookieJar) {
  const outcome = await call(() =>
    app.m.routes.preferences.action(
      args(postRequest("/preferences", { intent: "set-locale", locale, redirectTo: "/login" }, { cookie })) as never,
    ),
  );
  expect(outcome.location).toBe("/login");
  return (cookie ?? new CookieJar()).apply(outcome.headers);
}

describe("locale of a request", () => {
  it("serves /login in French to a French Accept-Language", async () => {
    const headers = { "Accept-Language": "fr-FR,fr;q=0.9,en-GB;q=0.8,en;q=0.7" };
    expect(await app.m.i18n.getRequestLocale(getRequest("/login", { headers }))).toBe("fr");
    const root = await rootLoader("/login", { headers });
    expect(root.data.locale).toBe("fr");
    expect(root.data.user).toBeNull();
  });

  it("honours q-values, and falls back to en-GB", async () => {
    const locale = (value: string) => app.m.i18n.getRequestLocale(getRequest("/login", { headers: { "Accept-Language": value } }));
    expect(await locale("en;q=0.3, fr;q=0.8")).toBe("fr");
    expect(await locale("de-DE, es;q=0.9")).toBe("en-GB");
    expect(await app.m.i18n.getRequestLocale(getRequest("/login"))).toBe("en-GB");
  });

  it("lets the lng cookie beat Accept-Language", async () => {
    const jar = await chooseLanguage("en-GB");
    expect(jar.has("lng")).toBe(true);
    const headers = { "Accept-Language": "fr-FR,fr;q=0.9" };
    expect(await app.m.i18n.getRequestLocale(getRequest("/login", { cookie: jar, headers }))).toBe("en-GB");
    expect((await rootLoader("/login", { cookie: jar, headers })).data.locale).toBe("en-GB");

    const french = await chooseLanguage("fr");
    expect((await rootLoader("/login", { cookie: french, headers: { "Accept-Language": "en-GB" } })).data.locale).toBe("fr");
  });

  it("keeps a signed-in user's theme, direction and language on their profile", async () => {
    const user = await app.createUser({ locale: "en-GB" });
    const cookie = await signIn(app.m, user.email, user.password);
    const choose = (form: Record<string, string>) =>
      call(() => app.m.routes.preferences.action(args(postRequest("/preferences", { ...form, redirectTo: "/profile" }, { cookie })) as never));
    expect((await choose({ intent: "set-theme", theme: "dark" })).location).toBe("/profile");
    expect((await choose({ intent: "set-direction", rtl: "true" })).location).toBe("/profile");
    expect((await choose({ intent: "set-locale", locale: "fr" })).location).toBe("/profile");
    const saved = await app.m.storageIndex.getStorage().users.getOne(user.id);
    expect(saved).toMatchObject({ locale: "fr", preferences: { theme: "dark", rtl: true } });
  });

  it("lets a signed-in user's profile locale beat the cookie and Accept-Language", async () => {
    const user = await app.createUser({ locale: "fr" });
    // English chosen as a visitor, then signed in with the same browser.
    const visitor = await chooseLanguage("en-GB");
    const jar = new CookieJar(`${visitor.header()}; ${await signIn(app.m, user.email, user.password)}`);
    expect(jar.has("lng") && jar.has("__session")).toBe(true);
    const headers = { "Accept-Language": "en-GB,en;q=0.9" };
    expect(await app.m.i18n.getRequestLocale(getRequest("/", { cookie: jar, headers }))).toBe("fr");
    expect((await rootLoader("/", { cookie: jar, headers })).data.locale).toBe("fr");

    // Choosing a language while signed in saves it on the profile.
    await chooseLanguage("en-GB", jar);
    expect((await app.m.storageIndex.getStorage().users.getOne(user.id))!.locale).toBe("en-GB");
    expect(await app.m.i18n.getRequestLocale(getRequest("/", { cookie: jar, headers: { "Accept-Language": "fr" } }))).toBe("en-GB");
  });
});

describe("root loader", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    app.m.config.forgetLiveConfig();
  });

  it("returns a toast flashed by redirectWithToast once, then clears it", async () => {
    const jar = new CookieJar(await signIn(app.m, "operator@example.com", app.demoPassword));
    const settings = await call(() => app.m.routes.settings.loader(args(getRequest("/settings", { cookie: jar })) as never));
    const saved = await call(() =>
      app.m.routes.settings.action(
        args(
          postRequest(
            "/settings",
            { intent: "save-platform", version: String(settings.data.config.version), appVersion: String(settings.data.config.appVersion) },
            { cookie: jar },
          ),
        ) as never,
      ),
    );
    expect(saved.location).toBe("/settings");
    jar.apply(saved.headers);
    expect(jar.has("toast")).toBe(true);

    const first = await rootLoader("/settings", { cookie: jar });
    expect(first.data.toast).toEqual({ type: "success", title: "toast.changesSaved" });
    expect(first.data.user.email).toBe("operator@example.com");
    jar.apply(first.headers);
    expect(jar.has("toast")).toBe(false);
    expect(jar.has("__session")).toBe(true);

    const second = await rootLoader("/settings", { cookie: jar });
    expect(second.data.toast).toBeNull();
  });

  it("returns a toast made directly by redirectWithToast, with its values", async () => {
    const response = await app.m.toast.redirectWithToast("/campaigns", {
      type: "error",
      title: "errors.errorOccurred",
      description: "errors.tryAgain",
      values: { count: 3 },
    });
    expect(response.headers.get("Location")).toBe("/campaigns");
    const jar = new CookieJar().apply(response.headers);
    const root = await rootLoader("/campaigns", { cookie: jar });
    expect(root.data.toast).toEqual({ type: "error", title: "errors.errorOccurred", description: "errors.tryAgain", values: { count: 3 } });
    expect((await rootLoader("/campaigns", { cookie: jar.apply(root.headers) })).data.toast).toBeNull();
  });

  it("ignores a forged toast cookie", async () => {
    const root = await rootLoader("/", { cookie: "toast=eyJ0b2FzdCI6eyJ0aXRsZSI6ImhpIn19.forged" });
    expect(root.data.toast).toBeNull();
  });

  it("reports configError when the live config cannot be read", async () => {
    const healthy = await rootLoader("/login");
    expect(healthy.data.configError).toBe(false);
    expect(healthy.data.liveVersion).toEqual(expect.any(Number));

    const storage = app.m.storageIndex.getStorage();
    vi.spyOn(storage.config, "get").mockRejectedValue(new Error("database unavailable"));
    vi.spyOn(console, "error").mockImplementation(() => {});
    app.m.config.forgetLiveConfig();
    const broken = await rootLoader("/login");
    expect(broken.status).toBe(200);
    expect(broken.data.configError).toBe(true);
    expect(broken.data.liveVersion).toBeNull();
    expect(console.error).toHaveBeenCalled();
  });

  it("gives a signed-in user their menu, and a visitor none", async () => {
    const operator = await rootLoader("/", { cookie: await signIn(app.m, "operator@example.com", app.demoPassword) });
    expect(operator.data.menu.map((i: { key: string }) => i.key)).toEqual(["dashboard", "campaigns", "reports", "catalog", "inventory", "settings", "activity", "notifications", "faq"]);
    expect(operator.data.user.seesSensitive).toBe(true);
    expect(operator.data.user).not.toHaveProperty("passwordHash");
    const supplier = await rootLoader("/", { cookie: await signIn(app.m, "supplier.viewer@example.com", app.demoPassword) });
    expect(supplier.data.menu.map((i: { key: string }) => i.key)).toEqual(["dashboard", "campaigns", "reports", "notifications", "faq"]);
    expect(supplier.data.user.seesSensitive).toBe(false);
    expect((await rootLoader("/login")).data.menu).toEqual([]);
  });
});
