/** The navigation guard of spec section 2, through real route loaders and actions. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { args, attemptSignIn, call, CookieJar, getRequest, postRequest, signIn, startApp, type TestApp } from "./app-helpers";

let app: TestApp;
const cookies: Record<string, string> = {};

beforeAll(async () => {
  app = await startApp();
  for (const email of [
    "operator@example.com",
    "retailer.admin@example.com",
    "retailer.viewer@example.com",
    "supplier.admin@example.com",
    "supplier.viewer@example.com",
  ]) {
    cookies[email.split("@")[0]] = await signIn(app.m, email, app.demoPassword);
  }
});
afterAll(async () => {
  await app?.stop();
});

const load = (loader: (a: never) => unknown, pathname: string, cookie?: string) =>
  call(() => loader(args(getRequest(pathname, { cookie })) as never));

describe("unauthenticated visitors", () => {
  it("go to /login with the wanted path in `to`", async () => {
    const outcome = await load(app.m.routes.campaigns.loader, "/campaigns");
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/login?to=%2Fcampaigns");
  });

  it("keep the query of the wanted page, and come back to it after signing in", async () => {
    const outcome = await load(app.m.routes.health.loader, "/health?entity=user");
    expect(outcome.location).toBe("/login?to=%2Fhealth%3Fentity%3Duser");
    const to = new URL(outcome.location!, "http://x").searchParams.get("to")!;
    expect(to).toBe("/health?entity=user");
    const signedIn = await attemptSignIn(app.m, "operator@example.com", app.demoPassword, { to });
    expect(signedIn.location).toBe("/health?entity=user");
  });

  it("go to plain /login from home", async () => {
    expect((await load(app.m.routes.home.loader, "/")).location).toBe("/login");
  });

  it("are sent to /login by the settings action too, and change nothing", async () => {
    const before = await app.m.storageIndex.getStorage().config.get();
    const outcome = await call(() =>
      app.m.routes.settings.action(
        args(postRequest("/settings", { intent: "save-platform", version: String(before.version), maintenance: "on", appVersion: "999" })) as never,
      ),
    );
    expect(outcome.location).toBe("/login?to=%2Fsettings");
    expect(await app.m.storageIndex.getStorage().config.get()).toEqual(before);
  });
});

describe("read rights of the screens", () => {
  it("sends a retailer viewer away from /health to /not-authorized", async () => {
    const outcome = await load(app.m.routes.health.loader, "/health", cookies["retailer.viewer"]);
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/not-authorized");
  });

  it("sends a retailer admin away from /health too (operators only)", async () => {
    expect((await load(app.m.routes.health.loader, "/health", cookies["retailer.admin"])).location).toBe("/not-authorized");
  });

  it("opens /health for an operator, with the audit trail", async () => {
    const outcome = await load(app.m.routes.health.loader, "/health?entity=user", cookies.operator);
    expect(outcome.status).toBe(200);
    expect(outcome.data.entity).toBe("user");
    // The seeded users were created, and the audit trail says so.
    expect(outcome.data.entries.length).toBeGreaterThanOrEqual(5);
    expect(outcome.data.entries.every((e: { entity: string }) => e.entity === "user")).toBe(true);
  });

  it.each([["supplier.admin"], ["supplier.viewer"], ["retailer.viewer"]])("sends %s away from /settings", async (who) => {
    const outcome = await load(app.m.routes.settings.loader, "/settings", cookies[who]);
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/not-authorized");
  });

  it("shows /settings read-only to a retailer admin and editable to an operator", async () => {
    const retailer = await load(app.m.routes.settings.loader, "/settings", cookies["retailer.admin"]);
    expect(retailer.status).toBe(200);
    expect(retailer.data.canEdit).toBe(false);
    const operator = await load(app.m.routes.settings.loader, "/settings", cookies.operator);
    expect(operator.data.canEdit).toBe(true);
  });

  it.each([["operator"], ["retailer.admin"], ["retailer.viewer"], ["supplier.admin"], ["supplier.viewer"]])(
    "opens the campaign list and the dashboard for %s",
    async (who) => {
      expect((await load(app.m.routes.campaigns.loader, "/campaigns", cookies[who])).status).toBe(200);
      expect((await load(app.m.routes.home.loader, "/?tab=wallets", cookies[who])).data.tab).toBe("wallets");
    },
  );

  it("answers a forged POST of a retailer admin to /settings with 403 and leaves the config unchanged", async () => {
    const before = await app.m.storageIndex.getStorage().config.get();
    const outcome = await call(() =>
      app.m.routes.settings.action(
        args(
          postRequest(
            "/settings",
            { intent: "save-platform", version: String(before.version), maintenance: "on", appVersion: String(before.appVersion + 1) },
            { cookie: cookies["retailer.admin"] },
          ),
        ) as never,
      ),
    );
    expect(outcome.status).toBe(403);
    expect(outcome.data).toEqual({ error: "errors.insufficientPermissions" });
    expect(await app.m.storageIndex.getStorage().config.get()).toEqual(before);
  });
});

describe("maintenance", () => {
  async function saveSettings(maintenance: boolean) {
    const current = await load(app.m.routes.settings.loader, "/settings", cookies.operator);
    const form: Record<string, string> = {
      intent: "save-platform",
      version: String(current.data.config.version),
      appVersion: String(current.data.config.appVersion),
    };
    if (maintenance) form.maintenance = "on";
    const outcome = await call(() => app.m.routes.settings.action(args(postRequest("/settings", form, { cookie: cookies.operator })) as never));
    expect(outcome.location).toBe("/settings");
    return outcome;
  }

  it("sends retailers and suppliers to /under-maintenance while it is on; operators go on working", async () => {
    expect((await load(app.m.routes.home.loader, "/", cookies["retailer.admin"])).status).toBe(200);
    await saveSettings(true);
    try {
      expect((await app.m.storageIndex.getStorage().config.get()).maintenance).toBe(true);
      for (const who of ["retailer.admin", "retailer.viewer", "supplier.admin"]) {
        const outcome = await load(app.m.routes.home.loader, "/", cookies[who]);
        expect(outcome.location, who).toBe("/under-maintenance");
      }
      expect((await load(app.m.routes.campaigns.loader, "/campaigns", cookies["supplier.viewer"])).location).toBe("/under-maintenance");
      const operator = await load(app.m.routes.home.loader, "/", cookies.operator);
      expect(operator.status).toBe(200);
      expect((await load(app.m.routes.settings.loader, "/settings", cookies.operator)).data.config.maintenance).toBe(true);
      // Nor can an invitation be opened or accepted (it creates accounts and memberships).
      const invitation = await import("~/routes/invitation");
      expect((await load(invitation.loader, "/invitation?token=anything")).location).toBe("/under-maintenance");
      const accept = await call(() =>
        invitation.action(args(postRequest("/invitation?token=anything", { intent: "create-account", token: "anything", displayName: "New", password: "Brand-new-pass-1", confirmPassword: "Brand-new-pass-1" })) as never),
      );
      expect(accept.location).toBe("/under-maintenance");
      expect((await load(invitation.loader, "/invitation?token=anything", cookies["supplier.admin"])).location).toBe("/under-maintenance");
      expect((await load(invitation.loader, "/invitation?token=anything", cookies.operator)).status).toBe(200);
      const page = await load(app.m.routes.underMaintenance.loader, "/under-maintenance");
      expect(page.status).toBe(503);
      expect(page.headers.get("Retry-After")).toBe("300");
    } finally {
      await saveSettings(false);
    }
    expect((await load(app.m.routes.home.loader, "/", cookies["retailer.admin"])).status).toBe(200);
    expect((await load(app.m.routes.underMaintenance.loader, "/under-maintenance")).location).toBe("/");
  });

  it("records who changed the config", async () => {
    const outcome = await saveSettings(false);
    expect(new CookieJar().apply(outcome.headers).has("toast")).toBe(true);
    expect((await app.m.storageIndex.getStorage().config.get()).updatedBy).toBe("operator@example.com");
  });
});

describe("the guard takes the screen's resource from the route-to-resource map", () => {
  const guard = (pathname: string, cookie: string) => call(() => app.m.auth.requireUser(getRequest(pathname, { cookie })));

  it("refuses a screen the map protects even when the route names no resource", async () => {
    for (const [pathname, who] of [
      ["/health", "retailer.admin"],
      ["/users", "retailer.viewer"],
      ["/teams", "supplier.admin"],
      ["/settings/retailer", "supplier.viewer"],
      ["/health.data", "retailer.viewer"],
    ] as const) {
      const outcome = await guard(pathname, cookies[who]);
      expect(outcome.location, `${who} on ${pathname}`).toBe("/not-authorized");
    }
  });

  it("lets through the screens the user may read", async () => {
    for (const [pathname, who] of [
      ["/health", "operator"],
      ["/campaigns", "supplier.viewer"],
      ["/profile", "supplier.viewer"],
      ["/teams/any-team/wallets", "retailer.viewer"],
    ] as const) {
      const outcome = await guard(pathname, cookies[who]);
      expect(outcome.thrown, `${who} on ${pathname}`).toBe(false);
      expect(outcome.data.email, `${who} on ${pathname}`).toBe(`${who}@example.com`);
    }
  });
});
