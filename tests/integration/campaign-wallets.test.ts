/**
 * A campaign follows its wallet: crediting an empty wallet clears the campaign's insufficient
 * funds flag, archiving it sets the flag again, each time with the wallet's new snapshot, recorded
 * in the campaign's history by 'system' and republished.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeCampaignData, makeWalletInput } from "../factories";
import { startApp, type TestApp } from "./app-helpers";

let app: TestApp;
const storage = () => app.m.storageIndex.getStorage();

beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.stop();
});

describe("campaigns follow their wallet", () => {
  it("a credit clears insufficient funds, archiving the wallet sets it again", async () => {
    const wallets = await import("~/services/wallets.server");
    const { liveStatusOf } = await import("~/services/campaigns/campaigns.server");
    const admin = (await storage().users.getByEmail("retailer.admin@example.com"))!;
    const team = (await storage().teams.getOne("acme-brand"))!;
    const wallet = await storage().wallets.create(team.id, makeWalletInput({ label: "Empty at first" }), { by: "test" });
    const other = await storage().campaigns.create(makeCampaignData({ input: { name: "Not on this wallet", team } }), { by: "test" });
    const campaign = await storage().campaigns.create(
      makeCampaignData({
        input: { name: "Follows its wallet", team },
        status: "active",
        bid: 50,
        wallet: wallet.id,
        selectedWallet: { label: wallet.label, credit: 0, balance: 0, status: "active" },
        insufficient_funds: true,
      }),
      { by: "test" },
    );
    expect(liveStatusOf(campaign, wallet, new Date())).toBe("insufficient_funds");

    const credited = await wallets.postEntry(admin, wallet, { type: "credit", amount: 20_000, reference: "PO-1", comment: "", idempotencyKey: "11111111-1111-4111-8111-111111111111" });
    if (!credited.ok) throw new Error(credited.reason);
    let now = (await storage().campaigns.getOne(campaign.id))!;
    expect(now).toMatchObject({ insufficient_funds: false, selectedWallet: { balance: 20_000, credit: 20_000, status: "active" }, version: campaign.version + 1 });
    expect(liveStatusOf(now, credited.value.wallet, new Date())).toBe("running");
    expect(await storage().publication.getCampaign(campaign.id)).not.toBeNull();
    const [entry] = (await storage().campaigns.history(campaign.id, { limit: 1 })).items;
    expect(entry).toMatchObject({ by: "system", action: "wallet" });
    expect(entry!.changes.map((c) => c.field).sort()).toEqual(["insufficient_funds", "selectedWallet"]);
    // A campaign on another wallet is untouched.
    expect((await storage().campaigns.getOne(other.id))!.version).toBe(other.version);

    // The same posting again (double submission) changes nothing more.
    await wallets.postEntry(admin, credited.value.wallet, { type: "credit", amount: 20_000, reference: "PO-1", comment: "", idempotencyKey: "11111111-1111-4111-8111-111111111111" });
    expect((await storage().campaigns.getOne(campaign.id))!.version).toBe(now.version);

    const fresh = (await storage().wallets.getOne(wallet.id))!;
    const archived = await wallets.updateWallet(admin, fresh, { ...makeWalletInput({ label: fresh.label, currency: fresh.currency }), status: "archived", version: fresh.version } as never);
    expect(archived.ok).toBe(true);
    now = (await storage().campaigns.getOne(campaign.id))!;
    expect(now).toMatchObject({ insufficient_funds: true, selectedWallet: { status: "archived", balance: 20_000 } });
  });
});
