/**
 * The campaign preview (spec section 4) through the real route loaders: the preview of a running
 * campaign with the retailer's flag on shows its products as tiles (catalog title and price in
 * the retailer's currency), a banner campaign its counted banners; every reader of the campaign
 * may open it; with the flag off, or a paused campaign, the loader refuses with the reason (403),
 * another team's supplier gets 404; the editor's frame offers the link exactly when allowed.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampaignData } from "~/domain/campaigns/campaign";
import { DEFAULT_RETAILER_SETTINGS } from "~/domain/retailer-settings";
import type { Wallet } from "~/domain/types";
import { makeCampaignData, makePosting, makeProductInput, makeTeamData, makeWalletInput } from "../factories";
import { call, getRequest, signIn, startApp, type TestApp } from "./app-helpers";

let app: TestApp;
let route: typeof import("~/routes/campaigns.$campaignId_.preview");
let layout: typeof import("~/routes/campaigns.$campaignId");
let t: Awaited<ReturnType<typeof import("~/services/i18n.server").getFixedT>>;
const cookies: Record<string, string> = {};
const TEAM = "acme-brand";
const RUN = randomUUID().slice(0, 6).toUpperCase();
const context = { requestId: "t", clientIp: "127.0.0.1" };
const storage = () => app.m.storageIndex.getStorage();

const preview = (who: string, id: string) =>
  call(() => route.loader({ request: getRequest(`/campaigns/${id}/preview`, { cookie: cookies[who] }), params: { campaignId: id }, context } as never));
const frame = (who: string, id: string) =>
  call(() => layout.loader({ request: getRequest(`/campaigns/${id}`, { cookie: cookies[who] }), params: { campaignId: id }, context } as never));

async function setPreview(on: boolean) {
  await storage().config.update({ retailerSettings: { ...structuredClone(DEFAULT_RETAILER_SETTINGS), preview: on } }, { by: "system" });
  app.m.config.forgetLiveConfig();
}

async function fundedWallet(teamId: string): Promise<Wallet> {
  const wallet = await storage().wallets.create(teamId, makeWalletInput({ label: `Preview ${RUN} ${randomUUID().slice(0, 4)}` }), { by: "system" });
  expect((await storage().ledger.post(makePosting(wallet.id, { amount: 50_000 }), new Date())).ok).toBe(true);
  return (await storage().wallets.getOne(wallet.id))!;
}

/** An active campaign of the team, started yesterday (running), with the fields given. */
async function activeCampaign(teamId: string, wallet: Wallet, { input, ...fields }: Partial<CampaignData> & { input?: object } = {}) {
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const data = makeCampaignData({
    input: { name: `Preview ${RUN}`, startDay: yesterday, team: { id: teamId, name: "Acme Brand", account_type: "brand" }, ...input },
    status: "active",
    bid: 50,
    wallet: wallet.id,
    selectedWallet: { label: wallet.label, credit: wallet.credit, balance: wallet.balance, status: wallet.status },
    ...fields,
  });
  return storage().campaigns.create(data, { by: "system" });
}

const sku = (n: string) => `PV-${RUN}-${n}`;
let running: { id: string };
let paused: { id: string };
let banner: { id: string };
let empty: { id: string };
let otherTeams: { id: string };

beforeAll(async () => {
  app = await startApp();
  route = await import("~/routes/campaigns.$campaignId_.preview");
  layout = await import("~/routes/campaigns.$campaignId");
  t = await (await import("~/services/i18n.server")).getFixedT("en-GB");
  for (const email of ["operator@example.com", "retailer.viewer@example.com", "supplier.admin@example.com", "supplier.viewer@example.com"]) {
    cookies[email.split("@")[0]!] = await signIn(app.m, email, app.demoPassword);
  }
  await storage().catalog.upsertMany([
    makeProductInput({ id: sku("A"), title: `Preview roast ${RUN}`, price: 1299 }),
    makeProductInput({ id: sku("B"), title: `Preview tea ${RUN}`, price: 450 }),
  ]);
  const offer = (pos: number, on = true) => ({ on, availability: "in stock", title: "kept", image_link: "/images/products/kept.svg", pos, party: "1P" as const });
  const offers = { [sku("A")]: offer(2), [sku("B")]: offer(1), [sku("C")]: offer(3, false) };
  const wallet = await fundedWallet(TEAM);
  running = await activeCampaign(TEAM, wallet, { offers, productIds: [sku("B"), sku("A")] });
  paused = await activeCampaign(TEAM, wallet, { offers, status: "paused" });
  empty = await activeCampaign(TEAM, wallet, {});
  banner = await activeCampaign(TEAM, wallet, {
    input: { campaignType: "banner-ads" },
    bid: 400,
    bidStrategy: "CPM",
    banners: { "1560x260": { image: "campaign/x/banner-1560x260.png", href_link: "https://shop.example.com/acme" }, "345x90": { image: null, href_link: "https://shop.example.com/x" } },
  });
  const other = await storage().teams.create(makeTeamData({ name: `Other preview ${RUN}` }), { by: "system" });
  otherTeams = await activeCampaign(other.id, await fundedWallet(other.id), { offers });
  await setPreview(true);
}, 60_000);
afterAll(async () => {
  await app?.stop();
});

describe("campaign preview", () => {
  it("shows a running campaign's switched-on products as tiles, in order, with the catalog's title and price", async () => {
    const page = await preview("supplier.admin", running.id);
    expect(page.status, JSON.stringify(page.data)).toBe(200);
    expect(page.data.campaign).toMatchObject({ id: running.id, liveStatus: "running", campaignType: "sponsored-products" });
    expect(page.data.products.map((p: { id: string }) => p.id)).toEqual([sku("B"), sku("A")]);
    expect(page.data.products[1]).toMatchObject({ title: `Preview roast ${RUN}`, price: "€12.99", image: `/images/products/${sku("A")}.svg` });
    expect(page.data.banners).toEqual([]);
  });

  it("opens for every role that may read the campaign", async () => {
    for (const who of ["operator", "retailer.viewer", "supplier.viewer"]) {
      expect((await preview(who, running.id)).status, who).toBe(200);
    }
  });

  it("shows a banner campaign's banners that count, at their size, with their link; nothing to show is an empty list", async () => {
    const page = await preview("supplier.admin", banner.id);
    expect(page.status, JSON.stringify(page.data)).toBe(200);
    expect(page.data.banners).toEqual([{ slot: "1560x260", width: 1560, height: 260, imageUrl: "/files/campaign/x/banner-1560x260.png", link: "https://shop.example.com/acme" }]);
    expect(page.data.products).toEqual([]);
    expect((await preview("supplier.admin", empty.id)).data.products).toEqual([]);
  });

  it("offers the editor's Preview link exactly when the rule allows", async () => {
    expect((await frame("supplier.viewer", running.id)).data.canPreview).toBe(true);
    expect((await frame("supplier.admin", paused.id)).data.canPreview).toBe(false);
  });

  it("refuses a paused campaign with the reason (403)", async () => {
    const refused = await preview("supplier.admin", paused.id);
    expect(refused.status).toBe(403);
    expect(t(refused.data.error)).toBe("A campaign can be previewed only while it is running or scheduled.");
  });

  it("answers 404 to another team's supplier, and serves the retailer's staff", async () => {
    expect((await preview("supplier.admin", otherTeams.id)).status).toBe(404);
    expect((await preview("retailer.viewer", otherTeams.id)).status).toBe(200);
  });

  it("refuses every campaign with the reason (403) while the retailer has preview off, and the editor offers no link", async () => {
    await setPreview(false);
    try {
      const refused = await preview("operator", running.id);
      expect(refused.status).toBe(403);
      expect(t(refused.data.error)).toBe("Campaign preview is switched off in the retailer settings.");
      expect((await frame("operator", running.id)).data.canPreview).toBe(false);
    } finally {
      await setPreview(true);
    }
  });
});
