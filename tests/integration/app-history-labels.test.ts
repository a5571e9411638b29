/**
 * What a campaign's History (and Activity, which shares its presenter) shows for changes made on
 * the campaign's screens, through the real loaders and actions: placements and slots by the
 * labels the targeting screen shows (never 'plp' or 'slider'), bids and daily budgets per
 * placement named by the same labels, capping by its word; and the wallet details' Before as the
 * wallet was just before the change, not the campaign's stale copy of it (the settlement moves a
 * wallet's balance without refreshing its campaigns' copies).
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Campaign } from "~/domain/campaigns/campaign";
import { daypartingEntries } from "~/domain/campaigns/dayparting";
import { makeWalletInput } from "../factories";
import { BASE_URL, call, getRequest, postRequest, signIn, startApp, type TestApp, createDraftThroughForm } from "./app-helpers";

let app: TestApp;
let routes: {
  create: typeof import("~/routes/teams.$teamId.campaigns.new.$type");
  general: typeof import("~/routes/campaigns.$campaignId._index");
  targeting: typeof import("~/routes/campaigns.$campaignId.targeting");
  bidding: typeof import("~/routes/campaigns.$campaignId.bidding");
  budget: typeof import("~/routes/campaigns.$campaignId.budget");
  history: typeof import("~/routes/campaigns.$campaignId.history");
  health: typeof import("~/routes/health");
};
const cookies: Record<string, string> = {};
const TEAM = "acme-brand";
const context = { requestId: "t", clientIp: "127.0.0.1" };
const storage = () => app.m.storageIndex.getStorage();
const fresh = async (id: string) => (await storage().campaigns.getOne(id))!;

type Change = { field: string; label: string; before: { text: string }; after: { text: string } };
type Entry = { action: string; actionLabel: string; changes: Change[] };

function run(fn: (a: never) => unknown, request: Request, params: Record<string, string> = {}) {
  return call(() => fn({ request, params, context } as never));
}

async function newCampaign(): Promise<Campaign> {
  return fresh(await createDraftThroughForm(routes.create.action, context, cookies["supplier.admin"], { team: TEAM, name: `History labels ${randomUUID().slice(0, 8)}` }));
}

async function history(id: string, who = "supplier.admin"): Promise<Entry[]> {
  const outcome = await run(routes.history.loader, getRequest(`/campaigns/${id}/history`, { cookie: cookies[who] }), { campaignId: id });
  expect(outcome.status).toBe(200);
  return outcome.data.entries as Entry[];
}

const change = (entry: Entry, field: string) => entry.changes.find((c) => c.field === field);

function postTargeting(c: Campaign, placements: string[], slots: string[], cappingType: string) {
  const body = new URLSearchParams([
    ["intent", "update-targeting"],
    ["version", String(c.version)],
    ...["desktop", "mobile", "tablet", "unknown"].map((d): [string, string] => ["devices", d]),
    ["cappingEnabled", "on"],
    ["cappingType", cappingType],
    ["cappingMax", "5"],
    ...placements.map((p): [string, string] => ["placements", p]),
    ...slots.map((s): [string, string] => ["slots", s]),
    ...daypartingEntries(null).map((cell): [string, string] => ["daypart", cell]),
  ]);
  const request = new Request(new URL(`/campaigns/${c.id}/targeting`, BASE_URL), {
    method: "POST",
    headers: { Cookie: cookies["supplier.admin"]!, "Content-Type": "application/x-www-form-urlencoded" },
    body: body.toString(),
  });
  return run(routes.targeting.action, request, { campaignId: c.id });
}

function saveGeneral(c: Campaign, form: Record<string, string>) {
  const body = { intent: "update-general", version: String(c.version), name: c.name, startDay: "2030-01-01", endDay: "", wallet: c.wallet ?? "", ...form };
  return run(routes.general.action, postRequest(`/campaigns/${c.id}?index`, body, { cookie: cookies["supplier.admin"] }), { campaignId: c.id });
}

beforeAll(async () => {
  app = await startApp();
  routes = {
    create: await import("~/routes/teams.$teamId.campaigns.new.$type"),
    general: await import("~/routes/campaigns.$campaignId._index"),
    targeting: await import("~/routes/campaigns.$campaignId.targeting"),
    bidding: await import("~/routes/campaigns.$campaignId.bidding"),
    budget: await import("~/routes/campaigns.$campaignId.budget"),
    history: await import("~/routes/campaigns.$campaignId.history"),
    health: await import("~/routes/health"),
  };
  for (const email of ["operator@example.com", "retailer.admin@example.com", "supplier.admin@example.com"]) {
    cookies[email.split("@")[0]!] = await signIn(app.m, email, app.demoPassword);
  }
  const french = await app.createUser({ claims: { type: "retailer", role: "VIEWER" }, locale: "fr", roleByTeam: {} });
  cookies.french = await signIn(app.m, french.email, french.password);
});
afterAll(async () => {
  await app?.stop();
});

describe("History names placements and slots as the targeting screen does", () => {
  it("shows a targeting change, placement bids and daily budgets per placement by their labels, never their codes", async () => {
    let c = await newCampaign();
    expect((await postTargeting(c, ["search", "plp", "pdp", "hub"], ["sp"], "clicks")).status).toBe(302);
    c = await fresh(c.id);
    const bidding = { intent: "update-bidding", version: String(c.version), bidStrategy: "CPC", bid: "0.50", bid_plp: "0.60" };
    expect((await run(routes.bidding.action, postRequest(`/campaigns/${c.id}/bidding`, bidding, { cookie: cookies["supplier.admin"] }), { campaignId: c.id })).status).toBe(302);
    c = await fresh(c.id);
    const budget = { intent: "update-budget", version: String(c.version), pacingTotal: "500", pacingDaily: "50", pacing_plp: "12.50" };
    expect((await run(routes.budget.action, postRequest(`/campaigns/${c.id}/budget`, budget, { cookie: cookies["supplier.admin"] }), { campaignId: c.id })).status).toBe(302);

    const [budgetEntry, biddingEntry, targetingEntry] = await history(c.id);
    expect(change(targetingEntry!, "placements")).toMatchObject({
      label: "Placements",
      before: { text: "Search, Category pages (PLP), Product pages (PDP), Shop pages (hub), Home page" },
      after: { text: "Search, Category pages (PLP), Product pages (PDP), Shop pages (hub)" },
    });
    expect(change(targetingEntry!, "slots")).toMatchObject({ before: { text: "Sponsored products (sp), Product slider (slider)" }, after: { text: "Sponsored products (sp)" } });
    expect(change(targetingEntry!, "slotsOff")).toMatchObject({ label: "Slots switched off", before: { text: "" }, after: { text: "Product slider (slider)" } });
    expect(change(targetingEntry!, "capping")!.after.text).toBe("Capping on: Yes, Capping by: Clicks, At most: 5");
    expect(change(biddingEntry!, "placementBids")!.after.text).toBe("Category pages (PLP): €0.60");
    expect(change(budgetEntry!, "pacingPlp")).toMatchObject({ label: "Daily budget per placement: Category pages (PLP)", after: { text: "€12.50" } });

    // Activity shows the same entries with the same presenter.
    const activity = await run(routes.health.loader, getRequest(`/health?campaign=${c.id}`, { cookie: cookies.operator }));
    expect(activity.status).toBe(200);
    const placements = (activity.data.entries as Entry[]).flatMap((e) => e.changes).find((x) => x.field === "placements" && x.before.text);
    expect(placements!.after.text).toBe("Search, Category pages (PLP), Product pages (PDP), Shop pages (hub)");

    // In French, the French labels of the same set.
    const [fbudget, fbidding, ftargeting] = await history(c.id, "french");
    expect(change(ftargeting!, "placements")!.after.text).toBe("Recherche, Pages catégorie (PLP), Pages produit (PDP), Pages boutique (hub)");
    expect(change(ftargeting!, "slotsOff")!.after.text).toBe("Carrousel de produits (slider)");
    // French puts a narrow no-break space before the colon.
    expect(change(fbidding!, "placementBids")!.after.text).toMatch(/^Pages catégorie \(PLP\)\u202f: 0,60\s€$/);
    expect(change(fbudget!, "pacingPlp")!.label).toBe("Budget quotidien par emplacement : Pages catégorie (PLP)");

    // No code of a placement or slot stands alone anywhere in these entries.
    const texts = [budgetEntry, biddingEntry, targetingEntry].flatMap((e) => e!.changes.flatMap((x) => [x.label, x.before.text, x.after.text]));
    for (const text of texts) expect(text).not.toMatch(/(^|[,:] )(search|plp|pdp|hub|home|sp|slider|clicks|Plp)(?=,|:|$)/);
  });
});

describe("History shows the wallet details as the wallet was just before the change", () => {
  it("a top-up after spend the campaign's copy missed: Before is the wallet's balance before the top-up", async () => {
    const wallets = await import("~/services/wallets.server");
    const admin = (await storage().users.getByEmail("retailer.admin@example.com"))!;
    const wallet = await storage().wallets.create(TEAM, makeWalletInput({ label: `History wallet ${randomUUID().slice(0, 6)}` }), { by: "test" });
    const funded = await wallets.postEntry(admin, wallet, { type: "credit", amount: 10_000, reference: "PO-1", comment: "", idempotencyKey: randomUUID() });
    expect(funded.ok).toBe(true);

    let c = await newCampaign();
    expect((await saveGeneral(c, { wallet: wallet.id })).status).toBe(302);
    c = await fresh(c.id);
    expect(c.selectedWallet).toMatchObject({ balance: 10_000 });

    // Spend settled on the wallet: the campaign's copy is not refreshed (as the settlement does).
    const spent = await storage().ledger.post({ walletId: wallet.id, type: "debit", amount: 2_500, reference: "spend", comment: "", by: "system", idempotencyKey: randomUUID() }, new Date());
    expect(spent.ok).toBe(true);
    expect((await fresh(c.id)).selectedWallet).toMatchObject({ balance: 10_000 });

    const topUp = await wallets.postEntry(admin, (await storage().wallets.getOne(wallet.id))!, { type: "credit", amount: 5_000, reference: "PO-2", comment: "", idempotencyKey: randomUUID() });
    expect(topUp.ok).toBe(true);
    const [walletEntry] = await history(c.id);
    expect(walletEntry!.actionLabel).toBe("Wallet changed");
    const details = change(walletEntry!, "selectedWallet")!;
    expect(details.label).toBe("Wallet details");
    expect(details.before.text).toContain("Credit: €100.00, Balance: €75.00");
    expect(details.after.text).toContain("Credit: €150.00, Balance: €125.00");
    expect(details.before.text).not.toContain("€100.00, Status");

    // More spend, then a rename on the General form: the wallet did not change, so its details are not a change.
    await storage().ledger.post({ walletId: wallet.id, type: "debit", amount: 1_000, reference: "spend", comment: "", by: "system", idempotencyKey: randomUUID() }, new Date());
    c = await fresh(c.id);
    expect((await saveGeneral(c, { name: `${c.name} renamed` })).status).toBe(302);
    const [rename] = await history(c.id);
    expect(rename!.changes.map((x) => x.field)).toEqual(["name"]);
  });

  it("a wallet status change: Before is the wallet as it was, After as it is", async () => {
    const wallets = await import("~/services/wallets.server");
    const admin = (await storage().users.getByEmail("retailer.admin@example.com"))!;
    const wallet = await storage().wallets.create(TEAM, makeWalletInput({ label: `Status wallet ${randomUUID().slice(0, 6)}` }), { by: "test" });
    await wallets.postEntry(admin, wallet, { type: "credit", amount: 4_000, reference: "PO-1", comment: "", idempotencyKey: randomUUID() });
    const c = await newCampaign();
    expect((await saveGeneral(c, { wallet: wallet.id })).status).toBe(302);
    await storage().ledger.post({ walletId: wallet.id, type: "debit", amount: 1_500, reference: "spend", comment: "", by: "system", idempotencyKey: randomUUID() }, new Date());

    const current = (await storage().wallets.getOne(wallet.id))!;
    const archived = await wallets.updateWallet(admin, current, { ...makeWalletInput({ label: current.label, currency: current.currency }), status: "archived", version: current.version } as never);
    expect(archived.ok).toBe(true);
    const [entry] = await history(c.id);
    const details = change(entry!, "selectedWallet")!;
    expect(details.before.text).toContain("Balance: €25.00, Status: Active");
    expect(details.after.text).toContain("Balance: €25.00, Status: Archived");
    expect(change(entry!, "insufficient_funds")).toMatchObject({ before: { text: "No" }, after: { text: "Yes" } });
  });
});
