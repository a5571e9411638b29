/**
 * The retailer settings screen through its real loader and action: who may read and who may
 * change, saving (read back by getRetailerSettings, audited), field errors, the stale-version
 * conflict with the input kept, and the reset to defaults.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RetailerSettings } from "~/domain/retailer-settings";
import { BASE_URL, call, getRequest, signIn, startApp, type TestApp } from "./app-helpers";

let app: TestApp;
let route: typeof import("~/routes/settings_.retailer");
let service: typeof import("~/services/retailer-settings.server");
let forms: typeof import("~/forms/retailer-settings");
let domain: typeof import("~/domain/retailer-settings");
const cookies: Record<string, string> = {};
const PATH = "/settings/retailer";
const context = { requestId: "t", clientIp: "127.0.0.1" };

const storage = () => app.m.storageIndex.getStorage();
const configVersion = async () => (await storage().config.get()).version;

function load(who: string) {
  return call(() => route.loader({ request: getRequest(PATH, { cookie: cookies[who] }), params: {}, context } as never));
}

function post(who: string, entries: [string, string][]) {
  const request = new Request(new URL(PATH, BASE_URL), {
    method: "POST",
    headers: { Cookie: cookies[who], "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(entries).toString(),
  });
  return call(() => route.action({ request, params: {}, context } as never));
}

/** What a browser posts for these settings, as the form shows them, with `changes` applied. */
function saveEntries(settings: RetailerSettings, version: number, changes: Record<string, string | null> = {}): [string, string][] {
  const entries = forms
    .toFormEntries({ intent: forms.saveRetailerSettingsIntent, version, ...forms.toFormValue(settings, "en-GB") })
    .filter(([, v]) => v !== "undefined");
  const out = entries.filter(([k]) => !(k in changes));
  for (const [k, v] of Object.entries(changes)) if (v !== null) out.push([k, v]);
  return out;
}

async function saveAs(who: string, changes: Record<string, string | null>, version?: number) {
  return post(who, saveEntries(await service.getRetailerSettings(), version ?? (await configVersion()), changes));
}

beforeAll(async () => {
  app = await startApp();
  route = await import("~/routes/settings_.retailer");
  service = await import("~/services/retailer-settings.server");
  forms = await import("~/forms/retailer-settings");
  domain = await import("~/domain/retailer-settings");
  for (const email of ["operator@example.com", "retailer.admin@example.com", "retailer.viewer@example.com", "supplier.admin@example.com", "supplier.viewer@example.com"]) {
    cookies[email.split("@")[0]] = await signIn(app.m, email, app.demoPassword);
  }
});
afterAll(async () => {
  await app?.stop();
});
beforeEach(async () => {
  // Every test starts from the spec's defaults.
  const { fieldOps } = await import("~/storage/port");
  await storage().config.update({ retailerSettings: fieldOps.delete() }, { by: "system" });
  app.m.config.forgetLiveConfig();
});

describe("who may open the retailer settings", () => {
  it("an operator gets the form's data: the defaults, editable", async () => {
    const outcome = await load("operator");
    expect(outcome.status).toBe(200);
    expect(outcome.data.canEdit).toBe(true);
    expect(outcome.data.isDefault).toBe(true);
    expect(outcome.data.settings).toEqual(domain.DEFAULT_RETAILER_SETTINGS);
    expect(outcome.data.version).toBe(await configVersion());
    expect(outcome.data.currency).toBe("EUR");
  });

  it("a retailer ADMIN reads the values but may not edit", async () => {
    const outcome = await load("retailer.admin");
    expect(outcome.status).toBe(200);
    expect(outcome.data.canEdit).toBe(false);
    expect(outcome.data.settings.types["sponsored-products"].bidLimits.CPC).toEqual({ minCents: 15, maxCents: 2_000 });
  });

  it.each(["retailer.viewer", "supplier.admin", "supplier.viewer"])("%s is sent to /not-authorized", async (who) => {
    const outcome = await load(who);
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/not-authorized");
  });

  it("the Settings hub links to the screen for those who may read it", async () => {
    for (const who of ["operator", "retailer.admin"]) {
      const hub = await call(() => app.m.routes.settings.loader({ request: getRequest("/settings", { cookie: cookies[who] }), params: {}, context } as never));
      expect(hub.data.retailerSettingsLink, who).toBe(true);
    }
  });

  it("a visitor who is not signed in is sent to the login page", async () => {
    const outcome = await call(() => route.loader({ request: getRequest(PATH), params: {}, context } as never));
    expect(outcome.status).toBe(302);
    expect(outcome.location).toMatch(/^\/login\?to=%2Fsettings%2Fretailer/);
  });
});

describe("saving", () => {
  it("an operator's new bid limit is saved, read back by getRetailerSettings, and audited", async () => {
    const before = await configVersion();
    const outcome = await saveAs("operator", { "types.sponsored-products.limits.CPC.min": "0.25", "types.sponsored-products.limits.CPC.max": "25" });
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe(PATH);
    expect(outcome.headers.get("Set-Cookie")).toMatch(/toast/i);

    const settings = await service.getRetailerSettings();
    expect(settings.types["sponsored-products"].bidLimits.CPC).toEqual({ minCents: 25, maxCents: 2_500 });
    // Everything else is as it was.
    expect({ ...settings, types: { ...settings.types, "sponsored-products": domain.DEFAULT_RETAILER_SETTINGS.types["sponsored-products"] } }).toEqual(
      domain.DEFAULT_RETAILER_SETTINGS,
    );
    expect(await configVersion()).toBe(before + 1);

    const audit = await storage().audit.list({ entity: "config", limit: 5 });
    const entry = audit.items.find((e) => e.changes.some((c) => c.field === "retailerSettings"));
    expect(entry?.by).toBe("operator@example.com");

    const page = await load("operator");
    expect(page.data.isDefault).toBe(false);
    expect(page.data.updatedBy).toBe("operator@example.com");
  });

  it("switching moderation on makes the type need review", async () => {
    expect(domain.needsModeration(await service.getRetailerSettings(), "banner-ads")).toBe(false);
    const outcome = await saveAs("operator", { "types.banner-ads.moderation": "on", lmRetailer: "on", "enabledTypes": "sponsored-products" });
    expect(outcome.status).toBe(302);
    const settings = await service.getRetailerSettings();
    expect(domain.needsModeration(settings, "banner-ads")).toBe(true);
    expect(settings.lmRetailer).toBe(true);
    expect(domain.isEnabledType(settings, "banner-ads")).toBe(false);
  });

  it("a retailer ADMIN's save is refused with 403 and changes nothing", async () => {
    const before = await configVersion();
    const outcome = await saveAs("retailer.admin", { "types.sponsored-products.limits.CPC.min": "0.50" });
    expect(outcome.status).toBe(403);
    expect(outcome.data).toEqual({ error: "errors.insufficientPermissions" });
    expect(await configVersion()).toBe(before);
    expect((await service.getRetailerSettings()).types["sponsored-products"].bidLimits.CPC?.minCents).toBe(15);
  });

  it.each(["retailer.viewer", "supplier.admin"])("%s cannot post either", async (who) => {
    const outcome = await saveAs(who, { "types.sponsored-products.limits.CPC.min": "0.50" });
    expect([302, 403]).toContain(outcome.status);
    if (outcome.status === 302) expect(outcome.location).toBe("/not-authorized");
    expect((await service.getRetailerSettings()).types["sponsored-products"].bidLimits.CPC?.minCents).toBe(15);
  });

  it("invalid limits answer 400 with an error on each field, and nothing is saved", async () => {
    const before = await configVersion();
    const outcome = await saveAs("operator", {
      "types.sponsored-products.limits.CPC.min": "30",
      "types.banner-ads.limits.CPM.max": "1500",
      "types.banner-ads.limits.vCPM.min": "0",
      "types.sponsored-products.limits.FIXED.min": "2",
    });
    expect(outcome.status).toBe(400);
    const errors = outcome.data.result.error;
    expect(errors["types.sponsored-products.limits.CPC.min"]).toEqual(["retailer:errors.bidLimit.minAboveMax"]);
    expect(errors["types.banner-ads.limits.CPM.max"]).toEqual(["retailer:errors.amount.tooHigh"]);
    expect(errors["types.banner-ads.limits.vCPM.min"]).toEqual(["retailer:errors.amount.tooLow"]);
    expect(errors["types.sponsored-products.limits.FIXED.max"]).toEqual(["retailer:errors.bidLimit.incomplete"]);
    // The typed values come back to the form.
    expect(outcome.data.result.initialValue.types["sponsored-products"].limits.CPC.min).toBe("30");
    expect(await configVersion()).toBe(before);
    expect(await service.getRetailerSettings()).toEqual(domain.DEFAULT_RETAILER_SETTINGS);
  });

  it("a save based on a stale version answers 409, keeps the input and offers the current version", async () => {
    const stale = await configVersion();
    // Someone else saves first.
    expect((await saveAs("operator", { "types.sponsored-products.limits.CPC.max": "30" })).status).toBe(302);
    const current = await configVersion();

    const outcome = await saveAs("operator", { "types.sponsored-products.limits.CPC.min": "0.33" }, stale);
    expect(outcome.status).toBe(409);
    expect(outcome.data.result.error[""]).toEqual(["retailer:errors.conflict"]);
    expect(outcome.data.result.initialValue.types["sponsored-products"].limits.CPC.min).toBe("0.33");
    expect(outcome.data.version).toBe(current);
    // The other save stands.
    expect((await service.getRetailerSettings()).types["sponsored-products"].bidLimits.CPC).toEqual({ minCents: 15, maxCents: 3_000 });

    // Saving again with the version offered goes through.
    const again = await post("operator", saveEntries(await service.getRetailerSettings(), outcome.data.version, { "types.sponsored-products.limits.CPC.min": "0.33" }));
    expect(again.status).toBe(302);
    expect((await service.getRetailerSettings()).types["sponsored-products"].bidLimits.CPC?.minCents).toBe(33);
  });

  it("an unknown intent is a 400", async () => {
    const outcome = await post("operator", [["intent", "nope"]]);
    expect(outcome.status).toBe(400);
  });
});

describe("reset to defaults", () => {
  it("puts the spec's defaults back", async () => {
    expect((await saveAs("operator", { "types.sponsored-products.limits.CPC.min": "0.40", fixedCpc: "on" })).status).toBe(302);
    expect((await service.getRetailerSettings()).fixedCpc).toBe(true);

    const outcome = await post("operator", [
      ["intent", forms.resetRetailerSettingsIntent],
      ["version", String(await configVersion())],
    ]);
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe(PATH);
    expect(await service.getRetailerSettings()).toEqual(domain.DEFAULT_RETAILER_SETTINGS);
    expect((await storage().config.get()).retailerSettings).toBeUndefined();
    expect((await load("operator")).data.isDefault).toBe(true);
  });

  it("a stale reset answers 409 and keeps the saved settings", async () => {
    const stale = await configVersion();
    expect((await saveAs("operator", { "types.sponsored-products.limits.CPC.min": "0.40" })).status).toBe(302);
    const outcome = await post("operator", [
      ["intent", forms.resetRetailerSettingsIntent],
      ["version", String(stale)],
    ]);
    expect(outcome.status).toBe(409);
    expect(outcome.data.result.error[""]).toEqual(["retailer:errors.resetConflict"]);
    expect((await service.getRetailerSettings()).types["sponsored-products"].bidLimits.CPC?.minCents).toBe(40);
  });

  it("a retailer ADMIN may not reset", async () => {
    const outcome = await post("retailer.admin", [
      ["intent", forms.resetRetailerSettingsIntent],
      ["version", String(await configVersion())],
    ]);
    expect(outcome.status).toBe(403);
  });
});

describe("updateRetailerSettings, the service", () => {
  it("refuses a retailer ADMIN even when called directly: forbidden, nothing saved", async () => {
    const admin = (await storage().users.getByEmail("retailer.admin@example.com"))!;
    const changed = structuredClone(domain.DEFAULT_RETAILER_SETTINGS);
    changed.fixedCpc = true;
    const version = await configVersion();
    const refused = { ok: false, kind: "forbidden", reason: "errors.insufficientPermissions" };
    expect(await service.updateRetailerSettings(admin, changed, version)).toEqual(refused);
    expect(await service.resetRetailerSettings(admin, version)).toEqual(refused);
    expect(await configVersion()).toBe(version);
  });

  it("refuses settings that break a rule even when called directly", async () => {
    const operator = (await storage().users.getByEmail("operator@example.com"))!;
    const broken = structuredClone(domain.DEFAULT_RETAILER_SETTINGS);
    broken.types["banner-ads"].bidLimits.CPM = { minCents: 500, maxCents: 100 };
    const outcome = await service.updateRetailerSettings(operator, broken, await configVersion());
    expect(outcome).toEqual({ ok: false, kind: "invalid", reason: "retailer:errors.invalid", details: ["retailer:errors.bidLimit.minAboveMax"] });
    expect(await service.getRetailerSettings()).toEqual(domain.DEFAULT_RETAILER_SETTINGS);
  });
});

describe("product image hosts (ADR 34)", () => {
  const imgSrc = async () => {
    const { pageSecurityHeaders } = await import("~/http/security-headers.server");
    const csp = (await pageSecurityHeaders("n0nce"))["Content-Security-Policy"]!;
    return csp.split("; ").find((d) => d.startsWith("img-src "));
  };
  const saveHosts = async (who: string, hosts: string, version?: number) =>
    post(who, [
      ["intent", "save-image-hosts"],
      ["version", String(version ?? (await configVersion()))],
      ["hosts", hosts],
    ]);

  it("an operator's hosts are saved as https origins, put in the pages' img-src and used for the catalog's pictures", async () => {
    expect(await imgSrc()).toBe("img-src 'self' data: blob:");
    const saved = await saveHosts("operator", "https://images.example-retailer.com\n\n  https://CDN.Example-Retailer.com:8443/  \nhttps://images.example-retailer.com");
    expect(saved.status).toBe(302);
    expect(saved.location).toBe(PATH);
    expect((await load("operator")).data.imageHosts.hosts).toEqual(["https://images.example-retailer.com", "https://cdn.example-retailer.com:8443"]);
    expect(await imgSrc()).toBe("img-src 'self' data: blob: https://images.example-retailer.com https://cdn.example-retailer.com:8443");
    // Retailer admins read them.
    expect((await load("retailer.admin")).data.imageHosts.hosts).toHaveLength(2);
    const { displayableImage } = await import("~/domain/catalog-view");
    const { getProductImageHosts } = await import("~/services/image-hosts.server");
    const hosts = await getProductImageHosts();
    expect(displayableImage("https://images.example-retailer.com/p/1.jpg", hosts)).toBe(true);
    expect(displayableImage("https://elsewhere.example.com/p/1.jpg", hosts)).toBe(false);
    // Saving the other retailer settings keeps them.
    await saveAs("operator", {});
    expect(await imgSrc()).toContain("https://images.example-retailer.com");
    // Emptied: only this site's pictures again.
    expect((await saveHosts("operator", "")).status).toBe(302);
    expect(await imgSrc()).toBe("img-src 'self' data: blob:");
  });

  it("refuses a value that is not an https origin with a message naming it, and keeps the hosts saved", async () => {
    await saveHosts("operator", "https://images.example-retailer.com");
    const version = await configVersion();
    for (const bad of ["http://images.example-retailer.com", "https://images.example-retailer.com/products", "images.example-retailer.com", "https://*.example.com", "https://a.example.com; script-src *", "https://user:pw@a.example.com"]) {
      const refused = await saveHosts("operator", `https://ok.example.com\n${bad}`);
      expect(refused.status, bad).toBe(400);
      expect(refused.data.result.error.hosts, bad).toEqual([`imageHosts:errors.notHttpsOrigin::${JSON.stringify({ value: bad })}`]);
    }
    expect(await configVersion()).toBe(version);
    expect(await imgSrc()).toBe("img-src 'self' data: blob: https://images.example-retailer.com");
    // The service refuses it as well when called directly (a script, another form).
    const operator = (await storage().users.getByEmail("operator@example.com"))!;
    const { updateImageHosts } = await import("~/services/image-hosts.server");
    expect(await updateImageHosts(operator, { version, hosts: "ftp://files.example.com" })).toMatchObject({ ok: false, kind: "invalid", field: "hosts", reason: "imageHosts:errors.notHttpsOrigin" });
  });

  it("a retailer ADMIN may not change them: 403, nothing saved, and the service refuses too", async () => {
    const version = await configVersion();
    const refused = await saveHosts("retailer.admin", "https://evil.example.com", version);
    expect(refused.status).toBe(403);
    expect(await configVersion()).toBe(version);
    expect(await imgSrc()).not.toContain("evil.example.com");
    const admin = (await storage().users.getByEmail("retailer.admin@example.com"))!;
    const { updateImageHosts } = await import("~/services/image-hosts.server");
    expect(await updateImageHosts(admin, { version, hosts: "https://evil.example.com" })).toEqual({ ok: false, kind: "forbidden", reason: "errors.insufficientPermissions" });
  });
});
