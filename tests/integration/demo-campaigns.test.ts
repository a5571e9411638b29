/**
 * The demo wallet and campaigns `npm start` shows: seeded once, through the same repositories and
 * rules as the console, with the active ones published to the ad server's cache.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "./app-helpers";

let app: TestApp;
const storage = () => app.m.storageIndex.getStorage();

beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.stop();
});

describe("demo campaigns", () => {
  it("seeds a funded wallet and four campaigns once, publishing the active ones", async () => {
    const { seedDemoCampaigns, DEMO_WALLET_ID } = await import("~/services/demo-campaigns.server");
    const { liveStatusOf } = await import("~/services/campaigns/campaigns.server");
    const now = new Date();
    expect(await seedDemoCampaigns(storage(), now)).toBe(5);
    const wallet = (await storage().wallets.getOne(DEMO_WALLET_ID))!;
    expect(wallet).toMatchObject({ teamId: "acme-brand", balance: 2_500_000, credit: 2_500_000 });

    const campaigns = await storage().campaigns.listForTeam("acme-brand");
    const byName = Object.fromEntries(campaigns.map((c) => [c.name, c]));
    expect(Object.keys(byName).sort()).toEqual(["Acme Christmas push", "Acme everyday essentials", "Acme home banners", "Acme new launches"]);
    expect(liveStatusOf(byName["Acme everyday essentials"]!, wallet, now)).toBe("running");
    expect(liveStatusOf(byName["Acme Christmas push"]!, wallet, now)).toBe("scheduled");
    expect(byName["Acme new launches"]!.status).toBe("draft");
    expect(byName["Acme home banners"]).toMatchObject({ status: "paused", campaignType: "banner-ads", bidStrategy: "CPM" });
    // Every sponsored product is a real 1P Acme product of the demo catalog.
    const running = byName["Acme everyday essentials"]!;
    expect(running.productIds).toHaveLength(6);
    const products = await storage().catalog.getMany(running.productIds);
    expect(products.every((p) => p.brand === "Acme" && p.party === "1P")).toBe(true);

    // The running campaign bids on searches its demo history has figures for; the ad server reads them.
    expect(running.counts).toMatchObject({ keywords: 5 });
    const keywords = await storage().targets.list(running.id, "keyword");
    expect(keywords["coffee"]).toMatchObject({ name: "coffee", bid: 60, on: true });
    expect(keywords["ground coffee"]).toMatchObject({ bid: null, on: true });
    expect(Object.keys(await storage().targets.getPublished(running.id, "keyword")).sort()).toEqual(["acme", "coffee", "coffee beans", "espresso", "ground coffee"]);

    // Active campaigns are in the cache; the draft and the paused one are not.
    expect(await storage().publication.getCampaign(running.id)).toMatchObject({ campaignId: running.id, wallet: DEMO_WALLET_ID, bid: 45 });
    expect(await storage().publication.campaignsForProduct(running.productIds[0]!)).toContain(running.id);
    expect(await storage().publication.getCampaign(byName["Acme new launches"]!.id)).toBeNull();
    expect(await storage().publication.getCampaign(byName["Acme home banners"]!.id)).toBeNull();
    expect((await storage().teams.getOne("acme-brand"))!.liveCampaigns).toBe(2);

    // Idempotent: a second boot adds nothing.
    expect(await seedDemoCampaigns(storage(), now)).toBe(0);
    expect(await storage().campaigns.listForTeam("acme-brand")).toHaveLength(4);
  });
});
