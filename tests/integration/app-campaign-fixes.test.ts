/**
 * Defects a new user hit in the campaign editor (issue 8 section 2), through the real route
 * loaders and actions:
 * - 'Apply min bid' after a typed bid was refused raises the typed bids, keeping the rest;
 * - 'Ready to activate?' is asked only where Activate is offered;
 * - an archived campaign's Products, Targeting and Banners sections are read-only (one rule):
 *   the loaders say so and the saves are refused before anything is stored.
 */
import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Campaign } from "~/domain/campaigns/campaign";
import { daypartingEntries } from "~/domain/campaigns/dayparting";
import { bannerFields } from "~/forms/campaigns/creative";
import { buildPng } from "../fixtures/media/build-media";
import { BASE_URL, call, getRequest, signIn, startApp, type TestApp, createDraftThroughForm } from "./app-helpers";

let app: TestApp;
let routes: {
  create: typeof import("~/routes/teams.$teamId.campaigns.new.$type");
  general: typeof import("~/routes/campaigns.$campaignId._index");
  bidding: typeof import("~/routes/campaigns.$campaignId.bidding");
  targeting: typeof import("~/routes/campaigns.$campaignId.targeting");
  creative: typeof import("~/routes/campaigns.$campaignId.creative");
  products: typeof import("~/routes/campaigns.$campaignId.products");
};
const cookies: Record<string, string> = {};
const TEAM = "acme-brand";
const context = { requestId: "t", clientIp: "127.0.0.1" };
const RUN = randomUUID().slice(0, 6);
const storage = () => app.m.storageIndex.getStorage();
const fresh = async (id: string) => (await storage().campaigns.getOne(id))!;

async function newCampaign(type: "banner-ads" | "sponsored-products" = "sponsored-products", who = "supplier.admin"): Promise<Campaign> {
  return fresh(await createDraftThroughForm(routes.create.action, context, cookies[who], { team: TEAM, type, name: `Fixes ${RUN} ${randomUUID().slice(0, 6)}` }));
}

const load = (route: { loader: (a: never) => unknown }, section: string, who: string, id: string) =>
  call(() => route.loader({ request: getRequest(`/campaigns/${id}/${section}`, { cookie: cookies[who] }), params: { campaignId: id }, context } as never));

function post(route: { action: (a: never) => unknown }, section: string, who: string, id: string, body: URLSearchParams | FormData) {
  const request = new Request(new URL(`/campaigns/${id}/${section}`, BASE_URL), { method: "POST", headers: { Cookie: cookies[who]! }, body });
  return call(() => route.action({ request, params: { campaignId: id }, context } as never));
}

const filesOf = (id: string) => {
  const dir = path.join(app.dir, "files", "campaigns", id);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

beforeAll(async () => {
  app = await startApp();
  routes = {
    create: await import("~/routes/teams.$teamId.campaigns.new.$type"),
    general: await import("~/routes/campaigns.$campaignId._index"),
    bidding: await import("~/routes/campaigns.$campaignId.bidding"),
    targeting: await import("~/routes/campaigns.$campaignId.targeting"),
    creative: await import("~/routes/campaigns.$campaignId.creative"),
    products: await import("~/routes/campaigns.$campaignId.products"),
  };
  for (const email of ["retailer.admin@example.com", "supplier.admin@example.com"]) {
    cookies[email.split("@")[0]!] = await signIn(app.m, email, app.demoPassword);
  }
}, 60_000);
afterAll(async () => {
  await app?.stop();
});

describe("'Apply min bid' after a typed bid was refused", () => {
  it("raises the typed bids below the minimum to it and keeps the rest of the input", async () => {
    const c = await newCampaign();
    await storage().campaigns.update(c.id, { bid: 500, placementBids: { pdp: 700 } }, { by: "system" });
    const stored = await fresh(c.id);
    const typed = { intent: "update-bidding", version: String(stored.version), bidStrategy: "CPC", bid: "0.05", bid_search: "0.10", bid_home: "0.60", bid_plp: "", bid_pdp: "" };

    const refused = await post(routes.bidding, "bidding", "supplier.admin", c.id, new URLSearchParams(typed));
    expect(refused.status).toBe(400);

    // The same input, sent with the 'Apply min bid' button of the Bidding form.
    const applied = await post(routes.bidding, "bidding", "supplier.admin", c.id, new URLSearchParams({ ...typed, applyMinBid: "1" }));
    expect(applied.status, JSON.stringify(applied.data)).toBe(302);
    const after = await fresh(c.id);
    expect(after.bid).toBe(15);
    // The placement bid removed from the form (pdp) stays removed; home kept as typed.
    expect(after.placementBids).toEqual({ search: 15, home: 60 });
  });

  it("applies the minimum of the strategy the user chose (CPM)", async () => {
    const c = await newCampaign();
    const form = { intent: "update-bidding", version: String(c.version), bidStrategy: "CPM", bid: "0.20", bid_search: "2.50", applyMinBid: "1" };
    const applied = await post(routes.bidding, "bidding", "supplier.admin", c.id, new URLSearchParams(form));
    expect(applied.status).toBe(302);
    expect(await fresh(c.id)).toMatchObject({ bidStrategy: "CPM", bid: 100, placementBids: { search: 250 } });
  });

  it("still refuses a bid above the maximum", async () => {
    const c = await newCampaign();
    const form = { intent: "update-bidding", version: String(c.version), bidStrategy: "CPC", bid: "0.05", bid_home: "30", applyMinBid: "1" };
    const applied = await post(routes.bidding, "bidding", "supplier.admin", c.id, new URLSearchParams(form));
    expect(applied.status).toBe(400);
    expect((await fresh(c.id)).version).toBe(c.version);
  });
});

describe("'Ready to activate?'", () => {
  it("is asked on a draft, where Activate is offered", async () => {
    const c = await newCampaign();
    expect((await load(routes.general, "", "supplier.admin", c.id)).data.offersActivation).toBe(true);
  });

  it.each(["active", "rejected", "archived"] as const)("is not asked on a %s campaign, where Activate is not offered", async (status) => {
    const c = await newCampaign();
    await storage().campaigns.update(c.id, { status, bid: 50 }, { by: "system" });
    const view = await load(routes.general, "", "supplier.admin", c.id);
    expect(view.data.readiness.complete).toBe(true);
    expect(view.data.offersActivation).toBe(false);
  });
});

describe("an archived campaign's sections", () => {
  async function archived(type: "banner-ads" | "sponsored-products") {
    const c = await newCampaign(type);
    await storage().campaigns.update(c.id, { status: "archived" }, { by: "system" });
    return fresh(c.id);
  }

  it("are read-only in every section's loader (Products, Targeting, Banners and creative)", async () => {
    const c = await archived("banner-ads");
    for (const [route, section] of [
      [routes.general, ""],
      [routes.bidding, "bidding"],
      [routes.targeting, "targeting"],
      [routes.creative, "creative"],
      [routes.products, "products"],
    ] as const) {
      const view = await load(route as never, section, "supplier.admin", c.id);
      expect(view.status).toBe(200);
      expect(view.data.canEdit, section || "general").toBe(false);
    }
    // A draft of the same user is editable: the status decides, not the right.
    const draft = await newCampaign("banner-ads");
    expect((await load(routes.targeting, "targeting", "supplier.admin", draft.id)).data.canEdit).toBe(true);
  });

  it("refuse a targeting save with 'An archived campaign cannot be edited.'", async () => {
    const c = await archived("sponsored-products");
    const body = new URLSearchParams([
      ["intent", "update-targeting"],
      ["version", String(c.version)],
      ["devices", "desktop"],
      ["cappingType", "views"],
      ["cappingMax", "5"],
      ...c.placements.map((p): [string, string] => ["placements", p]),
      ...daypartingEntries(null).map((cell): [string, string] => ["daypart", cell]),
    ]);
    const saved = await post(routes.targeting, "targeting", "supplier.admin", c.id, body);
    expect(saved.status, JSON.stringify(saved.data)).toBe(400);
    expect(saved.data.result.error?.[""], JSON.stringify(saved.data)).toEqual(["campaigns:campaign.edit.archived"]);
    expect((await fresh(c.id)).version).toBe(c.version);
  });

  it("refuse a banner upload before any file is stored", async () => {
    const c = await archived("banner-ads");
    const banner = (await load(routes.creative, "creative", "supplier.admin", c.id)).data.banners[0] as { slot: string; requiredSize: string };
    const [width, height] = banner.requiredSize.split("x").map(Number);
    const fields = bannerFields(banner.slot);
    const body = new FormData();
    body.append("intent", "update-banners");
    body.append("version", String(c.version));
    body.append(fields.image, new File([buildPng(width!, height!) as BlobPart], "b.png", { type: "image/png" }));
    body.append(fields.link, "https://shop.example/a");
    const saved = await post(routes.creative, "creative", "supplier.admin", c.id, body);
    expect(saved.status).toBe(400);
    expect(filesOf(c.id)).toEqual([]);
    expect((await fresh(c.id)).version).toBe(c.version);
  });
});
