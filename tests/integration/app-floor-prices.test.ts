/**
 * Floor prices per keyword and category on the retailer settings screen, through its real loader
 * and action: who may read and change them, saving (read back, audited, given by searches),
 * rows added and removed, errors on the rows (a category the catalog does not have among them),
 * the stale-version conflict with the input kept, and the other settings left alone.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BASE_URL, call, getRequest, signIn, startApp, type TestApp } from "./app-helpers";

let app: TestApp;
let route: typeof import("~/routes/settings_.retailer");
let settingsService: typeof import("~/services/retailer-settings.server");
let search: typeof import("~/services/search.server");
let forms: typeof import("~/forms/retailer-settings");
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
    headers: { Cookie: cookies[who]!, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(entries).toString(),
  });
  return call(() => route.action({ request, params: {}, context } as never));
}

type Row = { text?: string; price?: string; remove?: boolean };

/** What a browser posts: the rows as the form names them, blank rows after. */
function floorEntries(keywords: Row[], categories: Row[], version: number): [string, string][] {
  const entries: [string, string][] = [
    ["intent", "save-floor-prices"],
    ["version", String(version)],
  ];
  const rows = (name: "keywords" | "categories", field: "keyword" | "category", list: Row[]) => {
    [...list, {}, {}, {}].forEach((row, i) => {
      entries.push([`${name}[${i}].${field}`, row.text ?? ""], [`${name}[${i}].price`, row.price ?? ""]);
      if (row.remove) entries.push([`${name}[${i}].remove`, "on"]);
    });
  };
  rows("keywords", "keyword", keywords);
  rows("categories", "category", categories);
  return entries;
}

async function saveFloors(who: string, keywords: Row[], categories: Row[], version?: number) {
  return post(who, floorEntries(keywords, categories, version ?? (await configVersion())));
}

beforeAll(async () => {
  app = await startApp();
  process.env.SEARCH_SYNC_INTERVAL_MS = "0";
  route = await import("~/routes/settings_.retailer");
  settingsService = await import("~/services/retailer-settings.server");
  search = await import("~/services/search.server");
  forms = await import("~/forms/retailer-settings");
  search.resetSearchSyncForTests();
  for (const email of ["operator@example.com", "retailer.admin@example.com", "supplier.admin@example.com"]) {
    cookies[email.split("@")[0]!] = await signIn(app.m, email, app.demoPassword);
  }
});
afterAll(async () => {
  delete process.env.SEARCH_SYNC_INTERVAL_MS;
  await app?.stop();
});
beforeEach(async () => {
  const { fieldOps } = await import("~/storage/port");
  await storage().config.update({ retailerSettings: fieldOps.delete(), floorPrices: fieldOps.delete() } as never, { by: "system" });
  app.m.config.forgetLiveConfig();
});

describe("reading the floor prices", () => {
  it("an operator gets none yet, and the catalog's categories to choose from", async () => {
    const outcome = await load("operator");
    expect(outcome.status).toBe(200);
    expect(outcome.data.floorPrices).toEqual({ keywords: [], categories: [] });
    expect(outcome.data.categoryChoices).toContain("Grocery > Coffee & tea > Coffee");
    expect(outcome.data.categoryChoices).toContain("Grocery");
  });

  it("a retailer ADMIN reads them; a supplier is turned away", async () => {
    expect((await load("retailer.admin")).data.floorPrices).toEqual({ keywords: [], categories: [] });
    const supplier = await load("supplier.admin");
    expect(supplier.status).toBe(302);
    expect(supplier.location).toBe("/not-authorized");
  });
});

describe("saving floor prices", () => {
  it("an operator's keywords and categories are saved, read back, audited, and given by searches", async () => {
    const before = await configVersion();
    const outcome = await saveFloors("operator", [{ text: "Café Crème", price: "0.45" }, { text: " coffee ", price: "0,30" }], [{ text: "grocery > COFFEE & tea", price: "0.25" }]);
    expect(outcome.status, JSON.stringify(outcome.data)).toBe(302);
    expect(outcome.location).toBe(PATH);
    expect(outcome.headers.get("Set-Cookie")).toMatch(/toast/i);
    expect(await configVersion()).toBe(before + 1);

    const floors = await settingsService.getFloorPrices();
    expect(floors).toEqual({
      keywords: [
        { keyword: "cafe creme", label: "Café Crème", cents: 45 },
        { keyword: "coffee", label: "coffee", cents: 30 },
      ],
      categories: [{ id: "grocery--coffee-tea", path: "Grocery > Coffee & tea", cents: 25 }],
    });
    const audit = await storage().audit.list({ entity: "config", limit: 5 });
    expect(audit.items.find((e) => e.changes.some((c) => c.field === "floorPrices"))?.by).toBe("operator@example.com");

    // The form shows them as typed, in currency units, with blank rows to add more.
    const page = await load("operator");
    expect(page.data.floorPrices).toEqual(floors);

    // Searches give them: a keyword's own, a subcategory the parent's.
    const identity = { accountType: "retailer" as const, teams: null };
    const [coffee] = (await search.answerSearch("keyword", { includeIds: ["coffee"], size: 1, fields: ["floor_price"] }, identity)).hits;
    expect(coffee).toEqual({ id: "coffee", floor_price: 30 });
    const [tea] = (await search.answerSearch("category", { includeIds: ["grocery--coffee-tea--tea"], size: 1, fields: ["floor_price"] }, identity)).hits;
    expect(tea).toEqual({ id: "grocery--coffee-tea--tea", floor_price: 25 });
  });

  it("a row ticked Remove is removed, blank rows are ignored", async () => {
    expect((await saveFloors("operator", [{ text: "coffee", price: "0.30" }, { text: "tea", price: "0.20" }], [])).status).toBe(302);
    expect((await saveFloors("operator", [{ text: "coffee", price: "0.30", remove: true }, { text: "tea", price: "0.20" }], [])).status).toBe(302);
    expect((await settingsService.getFloorPrices()).keywords.map((k) => k.keyword)).toEqual(["tea"]);
  });

  it("keeps the other retailer settings, and is kept when they are saved or reset", async () => {
    expect((await saveFloors("operator", [{ text: "coffee", price: "0.30" }], [])).status).toBe(302);
    const entries = forms
      .toFormEntries({ intent: forms.saveRetailerSettingsIntent, version: await configVersion(), ...forms.toFormValue(await settingsService.getRetailerSettings(), "en-GB") })
      .filter(([, v]) => v !== "undefined")
      .map(([k, v]) => (k === "types.sponsored-products.limits.CPC.min" ? ([k, "0.20"] as [string, string]) : ([k, v] as [string, string])));
    expect((await post("operator", entries)).status).toBe(302);
    expect((await settingsService.getRetailerSettings()).types["sponsored-products"].bidLimits.CPC?.minCents).toBe(20);
    expect((await settingsService.getFloorPrices()).keywords).toHaveLength(1);
    expect((await post("operator", [["intent", forms.resetRetailerSettingsIntent], ["version", String(await configVersion())]])).status).toBe(302);
    expect((await settingsService.getFloorPrices()).keywords).toHaveLength(1);
  });
});

describe("refusing floor prices", () => {
  it("answers 400 with an error on each row, keeps the input and saves nothing", async () => {
    const before = await configVersion();
    const outcome = await saveFloors(
      "operator",
      [
        { text: "coffee", price: "" },
        { text: "", price: "0.50" },
        { text: "tea", price: "abc" },
        { text: "Espresso", price: "0.40" },
        { text: "ESPRESSO", price: "0.45" },
        { text: "bulk", price: "2000" },
      ],
      [{ text: "Grocery > Coffee", price: "0.30" }],
    );
    expect(outcome.status).toBe(400);
    const errors = outcome.data.result.error;
    expect(errors["keywords[0].price"]).toEqual(["retailer:errors.floor.priceRequired"]);
    expect(errors["keywords[1].keyword"]).toEqual(["retailer:errors.floor.keywordRequired"]);
    expect(errors["keywords[2].price"]).toEqual(["retailer:errors.amount.invalid"]);
    expect(errors["keywords[4].keyword"]).toEqual(["retailer:errors.floor.duplicate"]);
    expect(errors["keywords[5].price"]).toEqual(["retailer:errors.amount.tooHigh"]);
    expect(outcome.data.result.initialValue.keywords[3].keyword).toBe("Espresso");
    expect(await configVersion()).toBe(before);
  });

  it("refuses a category the catalog does not have, or the same one twice, on its row", async () => {
    const unknown = await saveFloors("operator", [{ text: "coffee", price: "0.30" }], [
      { text: "Grocery > Coffee", price: "0.30" },
      { text: "Grocery", price: "0.20" },
    ]);
    expect(unknown.status).toBe(400);
    expect(unknown.data.result.error["categories[0].category"]).toEqual(["retailer:errors.floor.unknownCategory"]);
    expect(unknown.data.result.error["categories[1].category"]).toBeUndefined();
    expect(unknown.data.result.error[""]).toEqual(["retailer:errors.invalid"]);
    // Twice, whatever the case.
    const twice = await saveFloors("operator", [], [
      { text: "Grocery", price: "0.20" },
      { text: "grocery", price: "0.25" },
    ]);
    expect(twice.status).toBe(400);
    expect(twice.data.result.error["categories[1].category"]).toEqual(["retailer:errors.floor.duplicate"]);
    expect(await settingsService.getFloorPrices()).toEqual({ keywords: [], categories: [] });
  });

  it("a retailer ADMIN's save is refused with 403", async () => {
    const outcome = await saveFloors("retailer.admin", [{ text: "coffee", price: "0.30" }], []);
    expect(outcome.status).toBe(403);
    expect(await settingsService.getFloorPrices()).toEqual({ keywords: [], categories: [] });
  });

  it("a save based on a stale version answers 409, keeps the input and offers the current version", async () => {
    const stale = await configVersion();
    expect((await saveFloors("operator", [{ text: "tea", price: "0.20" }], [])).status).toBe(302);
    const outcome = await saveFloors("operator", [{ text: "coffee", price: "0.33" }], [], stale);
    expect(outcome.status).toBe(409);
    expect(outcome.data.result.error[""]).toEqual(["retailer:errors.floorConflict"]);
    expect(outcome.data.result.initialValue.keywords[0].keyword).toBe("coffee");
    expect(outcome.data.version).toBe(await configVersion());
    expect((await settingsService.getFloorPrices()).keywords.map((k) => k.keyword)).toEqual(["tea"]);
  });
});
