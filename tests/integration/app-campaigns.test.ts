/**
 * The campaign editor's core (issue 4 §3-§6) through the real route loaders and actions: creation
 * and its defaults, the deep-link redirects, rights and scope, the General, Bidding and Budget
 * sections, every lifecycle action of NOTES.md's table (moderation switched on in the settings),
 * deletion, publication to the ad server's cache, the team-withdrawn rule and stale versions.
 *
 * Each test creates its own campaigns (unique names); teams other than the demo team are created
 * here with a random suffix.
 */
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Campaign } from "~/domain/campaigns/campaign";
import { DEFAULT_RETAILER_SETTINGS, type RetailerSettings } from "~/domain/retailer-settings";
import type { Wallet } from "~/domain/types";
import { makePosting, makeProductInput, makeTeamData, makeWalletInput } from "../factories";
import { call, getRequest, postRequest, signIn, startApp, type TestApp } from "./app-helpers";

let app: TestApp;
let routes: {
  create: typeof import("~/routes/teams.$teamId.campaigns.new.$type");
  createIndex: typeof import("~/routes/teams.$teamId.campaigns.new._index");
  layout: typeof import("~/routes/campaigns.$campaignId");
  prefixed: typeof import("~/routes/campaigns.$campaignId.$type");
  general: typeof import("~/routes/campaigns.$campaignId._index");
  bidding: typeof import("~/routes/campaigns.$campaignId.bidding");
  budget: typeof import("~/routes/campaigns.$campaignId.budget");
  teamSettings: typeof import("~/routes/teams.$teamId.settings._index");
  teams: typeof import("~/routes/teams._index");
};
let t: Awaited<ReturnType<typeof import("~/services/i18n.server").getFixedT>>;
const cookies: Record<string, string> = {};
let reviewerEmail = "";
const TEAM = "acme-brand";
const context = { requestId: "t", clientIp: "127.0.0.1" };
const RUN = randomUUID().slice(0, 6);
const SP = "sponsored-products";

const storage = () => app.m.storageIndex.getStorage();
const fresh = async (id: string) => (await storage().campaigns.getOne(id))!;

function run(fn: (a: never) => unknown, request: Request, params: Record<string, string>) {
  return call(() => fn({ request, params, context } as never));
}

/** Translates a message as ErrorList does ("ns:key::{values}"). */
const message = (key: string) => {
  const [k, json] = key.split("::");
  return t(k!, json ? JSON.parse(json) : undefined);
};

/** The toast flashed by a redirect. */
async function toastOf(headers: Headers) {
  const cookie = headers.getSetCookie().find((c) => c.startsWith("toast="))!.split(";")[0]!;
  return (await app.m.toast.getToast(getRequest("/", { cookie }))).toast;
}

/** The calendar day and time of an instant in Paris, e.g. "2030-01-01 00:00". */
function parisTime(iso: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Paris", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}
const parisToday = () => parisTime(new Date().toISOString()).slice(0, 10);

async function createAs(who: string, form: Record<string, string>, teamId = TEAM, type = SP) {
  const request = postRequest(`/teams/${teamId}/campaigns/new/${type}`, { intent: "create-campaign", campaignType: type, ...form }, { cookie: cookies[who] });
  return run(routes.create.action, request, { teamId, type });
}

/** Creates a draft through the creation form; returns it. */
async function newCampaign(options: { who?: string; teamId?: string; type?: string; startDay?: string; name?: string } = {}): Promise<Campaign> {
  const type = options.type ?? SP;
  const outcome = await createAs(
    options.who ?? "supplier.admin",
    { name: options.name ?? `Editor ${RUN} ${randomUUID().slice(0, 6)}`, startDay: options.startDay ?? parisToday(), campaignType: type },
    options.teamId ?? TEAM,
    type,
  );
  expect(outcome.status, JSON.stringify(outcome.data)).toBe(302);
  return fresh(outcome.location!.split("/").pop()!);
}

async function newWallet(teamId = TEAM, creditCents: number | null = 10_000, overrides: Parameters<typeof makeWalletInput>[0] = {}): Promise<Wallet> {
  const wallet = await storage().wallets.create(teamId, makeWalletInput({ label: `Wallet ${RUN} ${randomUUID().slice(0, 4)}`, ...overrides }), { by: "system" });
  if (creditCents) {
    const posted = await storage().ledger.post(makePosting(wallet.id, { amount: creditCents }), new Date());
    expect(posted.ok).toBe(true);
  }
  return (await storage().wallets.getOne(wallet.id))!;
}

const generalPath = (id: string) => `/campaigns/${id}?index`;
const load = (fn: (a: never) => unknown, path: string, who: string, params: Record<string, string>) =>
  run(fn, getRequest(path, { cookie: cookies[who] }), params);
const loadLayout = (who: string, id: string) => load(routes.layout.loader, `/campaigns/${id}`, who, { campaignId: id });
const loadGeneral = (who: string, id: string) => load(routes.general.loader, `/campaigns/${id}`, who, { campaignId: id });
const loadBidding = (who: string, id: string) => load(routes.bidding.loader, `/campaigns/${id}/bidding`, who, { campaignId: id });
const loadBudget = (who: string, id: string) => load(routes.budget.loader, `/campaigns/${id}/budget`, who, { campaignId: id });

async function saveGeneral(who: string, c: Campaign, form: Record<string, string>) {
  const body = { intent: "update-general", version: String(c.version), name: c.name, startDay: parisTime(c.startDate!).slice(0, 10), endDay: "", wallet: c.wallet ?? "", ...form };
  return run(routes.general.action, postRequest(generalPath(c.id), body, { cookie: cookies[who] }), { campaignId: c.id });
}
async function saveBidding(who: string, c: Campaign, form: Record<string, string>) {
  const body = { intent: "update-bidding", version: String(c.version), bidStrategy: c.bidStrategy, bid: "", ...form };
  return run(routes.bidding.action, postRequest(`/campaigns/${c.id}/bidding`, body, { cookie: cookies[who] }), { campaignId: c.id });
}
async function applyMinBid(who: string, c: Campaign, form: Record<string, string> = {}) {
  const body = { intent: "apply-min-bid", version: String(c.version), ...form };
  return run(routes.bidding.action, postRequest(`/campaigns/${c.id}/bidding`, body, { cookie: cookies[who] }), { campaignId: c.id });
}
async function saveBudget(who: string, c: Campaign, form: Record<string, string>) {
  const body = { intent: "update-budget", version: String(c.version), ...form };
  return run(routes.budget.action, postRequest(`/campaigns/${c.id}/budget`, body, { cookie: cookies[who] }), { campaignId: c.id });
}
/** Posts a lifecycle action from the action bar (to the layout route). */
async function act(who: string, id: string, action: string, extra: Record<string, string> = {}) {
  const version = extra.version ?? String((await fresh(id))?.version ?? 1);
  const body = { intent: "campaign-action", action, returnTo: `/campaigns/${id}`, confirmed: "yes", ...extra, version };
  return run(routes.layout.action, postRequest(`/campaigns/${id}`, body, { cookie: cookies[who] }), { campaignId: id });
}

/** A campaign that may be enabled: a bid of 0.50, the given wallet, two catalog products. */
async function readyCampaign(options: { teamId?: string; wallet?: Wallet; startDay?: string; who?: string } = {}) {
  const teamId = options.teamId ?? TEAM;
  const c = await newCampaign({ teamId, startDay: options.startDay, who: options.who ?? (teamId === TEAM ? "supplier.admin" : "retailer.admin") });
  const wallet = options.wallet ?? (await newWallet(teamId));
  const products = [makeProductInput({ id: `E-${RUN}-${randomUUID().slice(0, 6)}` }), makeProductInput({ id: `E-${RUN}-${randomUUID().slice(0, 6)}` })];
  await storage().catalog.upsertMany(products);
  const offers = Object.fromEntries(products.map((p, i) => [p.id, { on: true, availability: "in stock", title: p.title, image_link: p.image_link, pos: i + 1, party: "1P" as const }]));
  await storage().campaigns.update(c.id, { bid: 50, offers, productIds: products.map((p) => p.id) }, { by: "system" });
  const withBid = await fresh(c.id);
  const saved = await saveGeneral("retailer.admin", withBid, { wallet: wallet.id });
  expect(saved.status, JSON.stringify(saved.data)).toBe(302);
  return { campaign: await fresh(c.id), wallet, productIds: products.map((p) => p.id) };
}

async function setSettings(change: (s: RetailerSettings) => RetailerSettings) {
  await storage().config.update({ retailerSettings: change(structuredClone(DEFAULT_RETAILER_SETTINGS)) }, { by: "system" });
  (await import("~/services/config.server")).forgetLiveConfig();
}
async function resetSettings() {
  const { fieldOps } = await import("~/storage/port");
  await storage().config.update({ retailerSettings: fieldOps.delete() }, { by: "system" });
  (await import("~/services/config.server")).forgetLiveConfig();
}

beforeAll(async () => {
  app = await startApp();
  routes = {
    create: await import("~/routes/teams.$teamId.campaigns.new.$type"),
    createIndex: await import("~/routes/teams.$teamId.campaigns.new._index"),
    layout: await import("~/routes/campaigns.$campaignId"),
    prefixed: await import("~/routes/campaigns.$campaignId.$type"),
    general: await import("~/routes/campaigns.$campaignId._index"),
    bidding: await import("~/routes/campaigns.$campaignId.bidding"),
    budget: await import("~/routes/campaigns.$campaignId.budget"),
    teamSettings: await import("~/routes/teams.$teamId.settings._index"),
    teams: await import("~/routes/teams._index"),
  };
  t = await (await import("~/services/i18n.server")).getFixedT("en-GB");
  for (const email of ["operator@example.com", "retailer.admin@example.com", "retailer.viewer@example.com", "supplier.admin@example.com", "supplier.viewer@example.com"]) {
    cookies[email.split("@")[0]!] = await signIn(app.m, email, app.demoPassword);
  }
  const reviewer = await app.createUser({ claims: { type: "retailer", role: "REVIEWER" }, locale: "en-GB", roleByTeam: {} });
  cookies.reviewer = await signIn(app.m, reviewer.email, reviewer.password);
  reviewerEmail = reviewer.email;
}, 60_000);
afterAll(async () => {
  await app?.stop();
});
afterEach(() => {
  vi.restoreAllMocks();
});

// ---------------------------------------------------------------------------------------------

describe("creation", () => {
  it("starts from today in the retailer's time zone, and a new campaign is a CPC draft with the defaults", async () => {
    const page = await load(routes.create.loader, `/teams/${TEAM}/campaigns/new/${SP}`, "supplier.admin", { teamId: TEAM, type: SP });
    expect(page.status).toBe(200);
    expect(page.data.defaults.startDay).toBe(parisToday());
    expect(page.data.types).toEqual([SP, "banner-ads"]);

    const name = `Spring coffee ${RUN}`;
    const outcome = await createAs("supplier.admin", { name, startDay: parisToday() });
    expect(outcome.status).toBe(302);
    const id = outcome.location!.split("/").pop()!;
    expect(outcome.location).toBe(`/campaigns/${id}`);
    expect((await toastOf(outcome.headers))?.title).toBe("campaigns:toast.created");
    const c = await fresh(id);
    expect(c).toMatchObject({
      name,
      status: "draft",
      campaignType: SP,
      team: TEAM,
      bidStrategy: "CPC",
      bid: 0,
      devices: null,
      capping: { enabled: true, type: "views", max: 5 },
      wallet: null,
      endDate: null,
      by: "supplier.admin@example.com",
    });
    // Today at midnight in Paris, whatever the machine's zone.
    expect(parisTime(c.startDate!)).toBe(`${parisToday()} 00:00`);
    // All 4 devices: no device filter is saved.
    const layout = await loadLayout("supplier.admin", id);
    expect(layout.data.campaign.liveStatus).toBe("draft");
  });

  it("banner ads default to CPM; a marketplace seller's campaigns bid CPC only", async () => {
    const banner = await newCampaign({ type: "banner-ads" });
    expect(banner.bidStrategy).toBe("CPM");
    expect(banner.campaignType).toBe("banner-ads");

    const seller = await storage().teams.create(makeTeamData({ name: `Seller ${RUN}`, account_type: "marketplace_seller" }), { by: "system" });
    const c = await newCampaign({ who: "retailer.admin", teamId: seller.id });
    expect(c.bidStrategy).toBe("CPC");
    const bidding = await loadBidding("retailer.admin", c.id);
    expect(bidding.data.strategies.map((s: { strategy: string }) => s.strategy)).toEqual(["CPC"]);
    expect(bidding.data.sellerOnlyCpc).toBe(true);
    // A strategy the seller may not use is replaced by the first allowed one.
    const saved = await saveBidding("retailer.admin", c, { bidStrategy: "CPM", bid: "0.40" });
    expect(saved.status).toBe(302);
    expect(await fresh(c.id)).toMatchObject({ bidStrategy: "CPC", bid: 40 });
  });

  it("refuses a campaign without a name or a start date: 'Cannot create campaign without Name and Start Date'", async () => {
    for (const form of [{ name: "", startDay: parisToday() }, { name: `No start ${RUN}`, startDay: "" }]) {
      const outcome = await createAs("supplier.admin", form);
      expect(outcome.status).toBe(400);
      const errors = Object.values(outcome.data.result.error as Record<string, string[]>).flat();
      expect(errors.map(message)).toContain("Cannot create campaign without Name and Start Date");
    }
    const backwards = await createAs("supplier.admin", { name: `Backwards ${RUN}`, startDay: "2030-05-10", endDay: "2030-05-01" });
    expect(backwards.status).toBe(400);
    expect(backwards.data.result.error.endDay.map(message)).toEqual(["The end date cannot be before the start date."]);
  });

  it("serves the spec's deep links: team-, new- and quick- prefixes and the canonical creation URL", async () => {
    const layout = (path: string, id: string) => load(routes.layout.loader, path, "supplier.admin", { campaignId: id });
    expect((await layout(`/campaigns/team-${TEAM}`, `team-${TEAM}`)).location).toBe(`/teams/${TEAM}/campaigns`);
    expect((await layout(`/campaigns/new-${TEAM}`, `new-${TEAM}`)).location).toBe(`/teams/${TEAM}/campaigns/new/${SP}`);
    expect((await layout(`/campaigns/new-${TEAM}/banner-ads`, `new-${TEAM}`)).location).toBe(`/teams/${TEAM}/campaigns/new/banner-ads`);
    expect((await layout(`/campaigns/quick-${TEAM}`, `quick-${TEAM}`)).location).toBe(`/teams/${TEAM}/campaigns/quick`);
    const nested = await load(routes.prefixed.loader, `/campaigns/new-${TEAM}/banner-ads`, "supplier.admin", { campaignId: `new-${TEAM}`, type: "banner-ads" });
    expect(nested.location).toBe(`/teams/${TEAM}/campaigns/new/banner-ads`);
    const unknown = await load(routes.prefixed.loader, `/campaigns/whatever/banner-ads`, "supplier.admin", { campaignId: "whatever", type: "banner-ads" });
    expect(unknown.status).toBe(404);
    const index = await load(routes.createIndex.loader, `/teams/${TEAM}/campaigns/new`, "supplier.admin", { teamId: TEAM });
    expect(index.location).toBe(`/teams/${TEAM}/campaigns/new/${SP}`);
    // A type that is not enabled leads to the first enabled one.
    const disabled = await load(routes.create.loader, `/teams/${TEAM}/campaigns/new/sponsored-display`, "supplier.admin", { teamId: TEAM, type: "sponsored-display" });
    expect(disabled.location).toBe(`/teams/${TEAM}/campaigns/new/${SP}`);
  });

  it("refuses a supplier viewer (403) and hides other teams (404)", async () => {
    const page = await load(routes.create.loader, `/teams/${TEAM}/campaigns/new/${SP}`, "supplier.viewer", { teamId: TEAM, type: SP });
    expect(page.status).toBe(403);
    const post = await createAs("supplier.viewer", { name: `Viewer ${RUN}`, startDay: parisToday() });
    expect(post.status).toBe(403);
    const other = await storage().teams.create(makeTeamData({ name: `Other ${RUN}` }), { by: "system" });
    const outside = await createAs("supplier.admin", { name: `Outside ${RUN}`, startDay: parisToday() }, other.id);
    expect(outside.status).toBe(404);
  });
});

describe("scope and rights in the editor", () => {
  it("answers 404 for a campaign of a team the supplier does not belong to, on every loader and action", async () => {
    const other = await storage().teams.create(makeTeamData({ name: `Hidden ${RUN}` }), { by: "system" });
    const c = await newCampaign({ who: "retailer.admin", teamId: other.id });
    for (const loader of [loadLayout, loadGeneral, loadBidding, loadBudget]) {
      expect((await loader("supplier.admin", c.id)).status).toBe(404);
    }
    expect((await saveGeneral("supplier.admin", c, { name: "Taken over" })).status).toBe(404);
    expect((await act("supplier.admin", c.id, "archive")).status).toBe(404);
    expect((await loadLayout("supplier.admin", "no-such-campaign")).status).toBe(404);
    // Retailers see every active team's campaigns.
    expect((await loadLayout("retailer.viewer", c.id)).status).toBe(200);
  });

  it("lets a supplier viewer read but refuses every change with 403 'Insufficient permissions'", async () => {
    const c = await newCampaign();
    const layout = await loadLayout("supplier.viewer", c.id);
    expect(layout.status).toBe(200);
    expect(layout.data.actions).toEqual([]);
    expect((await loadGeneral("supplier.viewer", c.id)).data.canEdit).toBe(false);
    const general = await saveGeneral("supplier.viewer", c, { name: "Viewer edit" });
    expect(general.status).toBe(403);
    expect(general.data.result.error[""]).toEqual(["errors.insufficientPermissions"]);
    expect(message("errors.insufficientPermissions")).toBe("Insufficient permissions");
    expect((await saveBidding("supplier.viewer", c, { bid: "1.00" })).status).toBe(403);
    expect((await applyMinBid("supplier.viewer", c)).status).toBe(403);
    expect((await saveBudget("supplier.viewer", c, { pacingTotal: "10" })).status).toBe(403);
    for (const action of ["enable", "archive", "delete"]) {
      const outcome = await act("supplier.viewer", c.id, action);
      expect(outcome.status).toBe(403);
      expect(outcome.data.actionError.message).toBe("errors.insufficientPermissions");
    }
    expect((await fresh(c.id)).name).toBe(c.name);
  });

  it("answers 'No campaign ID provided' to an action without a campaign id", async () => {
    const outcome = await run(routes.layout.action, postRequest("/campaigns/", { intent: "campaign-action", action: "archive", version: "1" }, { cookie: cookies["retailer.admin"] }), {});
    expect(outcome.status).toBe(400);
    expect(message(outcome.data.actionError.message)).toBe("No campaign ID provided");
  });
});

describe("the General section", () => {
  it("saves the name and the dates (the end included to 23:59:59 in Paris) and refuses an end before the start", async () => {
    const c = await newCampaign();
    const saved = await saveGeneral("supplier.admin", c, { name: `Renamed ${RUN}`, startDay: "2031-03-29", endDay: "2031-03-31" });
    expect(saved.status).toBe(302);
    expect(saved.location).toBe(`/campaigns/${c.id}`);
    expect((await toastOf(saved.headers))?.title).toBe("toast.changesSaved");
    const after = await fresh(c.id);
    expect(after.name).toBe(`Renamed ${RUN}`);
    // The last Sunday of March 2031 changes Paris to summer time: each edge is read in its own offset.
    expect(after.startDate).toBe("2031-03-28T23:00:00.000Z");
    expect(after.endDate).toBe("2031-03-31T21:59:59.999Z");
    const view = await loadGeneral("supplier.admin", c.id);
    expect(view.data.values).toMatchObject({ name: `Renamed ${RUN}`, startDay: "2031-03-29", endDay: "2031-03-31" });

    const backwards = await saveGeneral("supplier.admin", after, { startDay: "2031-04-10", endDay: "2031-04-01" });
    expect(backwards.status).toBe(400);
    expect(backwards.data.result.error.endDay.map(message)).toEqual(["The end date cannot be before the start date."]);
    expect((await fresh(c.id)).version).toBe(after.version);
  });

  it("offers only the team's wallets with label, credit, balance and status, and refuses another team's wallet", async () => {
    const c = await newCampaign();
    const mine = await newWallet(TEAM, 12_345);
    const other = await storage().teams.create(makeTeamData({ name: `Wallet owner ${RUN}` }), { by: "system" });
    const theirs = await newWallet(other.id);
    const view = await loadGeneral("supplier.admin", c.id);
    const ids = view.data.wallets.map((w: { id: string }) => w.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect(view.data.wallets.find((w: { id: string }) => w.id === mine.id)).toMatchObject({ label: mine.label, credit: "€123.45", balance: "€123.45", status: "active", unusable: false });

    const refused = await saveGeneral("supplier.admin", c, { wallet: theirs.id });
    expect(refused.status).toBe(400);
    expect(refused.data.result.error.wallet.map(message)).toEqual(["Choose one of this advertiser's wallets."]);
    expect(refused.data.result.initialValue.wallet).toBe(theirs.id);
    expect((await fresh(c.id)).wallet).toBeNull();

    const saved = await saveGeneral("supplier.admin", c, { wallet: mine.id });
    expect(saved.status).toBe(302);
    expect(await fresh(c.id)).toMatchObject({ wallet: mine.id, insufficient_funds: false, selectedWallet: { label: mine.label, credit: 12_345, balance: 12_345, status: "active" } });
  });

  it("flags insufficient_funds for a wallet with no balance, archived or disabled, and warns of a budget above the balance", async () => {
    for (const [credit, status] of [[null, "active"], [5_000, "archived"], [5_000, "disabled"]] as const) {
      const c = await newCampaign();
      const wallet = await newWallet(TEAM, credit);
      if (status !== "active") await storage().wallets.update(wallet.id, { status }, { by: "system" });
      const saved = await saveGeneral("supplier.admin", c, { wallet: wallet.id });
      expect(saved.status).toBe(302);
      expect((await toastOf(saved.headers))?.description).toBe("campaigns:general.walletUnusable");
      expect((await fresh(c.id)).insufficient_funds).toBe(true);
      const view = await loadGeneral("supplier.admin", c.id);
      expect(view.data.readiness.warnings.map((w: { key: string }) => w.key)).toContain("campaignEditor:readiness.walletUnusable");
    }

    const c = await newCampaign();
    const wallet = await newWallet(TEAM, 10_000);
    await storage().campaigns.update(c.id, { pacingTotal: 50_000 }, { by: "system" });
    const saved = await saveGeneral("supplier.admin", await fresh(c.id), { wallet: wallet.id });
    const toast = await toastOf(saved.headers);
    expect(toast?.description).toBe("campaigns:budget.aboveBalance");
    expect((await fresh(c.id)).insufficient_funds).toBe(false);
    const view = await loadGeneral("supplier.admin", c.id);
    expect(view.data.readiness.warnings.map((w: { key: string }) => w.key)).toEqual(["campaigns:budget.aboveBalance"]);
  });

  it("shows whether the campaign is complete and what is missing", async () => {
    const c = await newCampaign();
    const before = await loadGeneral("supplier.admin", c.id);
    expect(before.data.readiness).toMatchObject({ complete: false, gaps: ["bid"], problems: [] });
    expect(before.data.readiness.warnings.map((w: { key: string }) => w.key)).toEqual(["campaignEditor:readiness.noWallet"]);
    expect(before.data.campaignType).toBe(SP);
    await saveBidding("supplier.admin", c, { bid: "0.30" });
    const after = await loadGeneral("supplier.admin", c.id);
    expect(after.data.readiness).toMatchObject({ complete: true, gaps: [], problems: [] });
  });
});

describe("the Bidding section", () => {
  it("refuses a bid outside the limits with 'Minimum allowed bid: {0}' or 'Maximum allowed bid: {0}', the input kept", async () => {
    const c = await newCampaign();
    const view = await loadBidding("supplier.admin", c.id);
    expect(view.data.strategies.map((s: { strategy: string }) => s.strategy)).toEqual(["CPM", "vCPM", "CPC"]);
    expect(view.data.strategy).toBe("CPC");
    expect(view.data.limits).toEqual({ min: "€0.15", max: "€20.00" });
    expect(view.data.placements).toEqual(["search", "plp", "pdp", "hub", "home"]);

    const low = await saveBidding("supplier.admin", c, { bid: "0.05" });
    expect(low.status).toBe(400);
    expect(low.data.result.error.bid.map(message)).toEqual(["Minimum allowed bid: €0.15"]);
    expect(low.data.result.initialValue.bid).toBe("0.05");
    const high = await saveBidding("supplier.admin", c, { bid: "25" });
    expect(high.data.result.error.bid.map(message)).toEqual(["Maximum allowed bid: €20.00"]);
    const cpm = await saveBidding("supplier.admin", c, { bidStrategy: "CPM", bid: "0.50" });
    expect(cpm.data.result.error.bid.map(message)).toEqual(["Minimum allowed bid: €1.00"]);
    const placement = await saveBidding("supplier.admin", c, { bid: "0.50", bid_search: "0.10", bid_home: "30" });
    expect(placement.data.result.error.bid_search.map(message)).toEqual(["Minimum allowed bid: €0.15"]);
    expect(placement.data.result.error.bid_home.map(message)).toEqual(["Maximum allowed bid: €20.00"]);
    expect((await fresh(c.id)).version).toBe(c.version);

    // A placement bid of 0 or less is a bid under the minimum, not an empty field.
    const zero = await saveBidding("supplier.admin", c, { bid: "0.15", bid_search: "0.60", bid_plp: "", bid_pdp: "0" });
    expect(zero.data.result.error.bid_pdp.map(message)).toEqual(["Minimum allowed bid: €0.15"]);
    expect(zero.data.result.error.bid_plp).toBeUndefined();
    expect((await fresh(c.id)).version).toBe(c.version);

    const ok = await saveBidding("supplier.admin", c, { bid: "0.15", bid_search: "0.60", bid_plp: "", bid_pdp: "" });
    expect(ok.status).toBe(302);
    expect(await fresh(c.id)).toMatchObject({ bidStrategy: "CPC", bid: 15, placementBids: { search: 60 } });
  });

  it("checks banner ads against their own limits (CPM 1–300)", async () => {
    const c = await newCampaign({ type: "banner-ads" });
    const view = await loadBidding("supplier.admin", c.id);
    expect(view.data.strategies.map((s: { strategy: string }) => s.strategy)).toEqual(["CPM", "vCPM"]);
    expect(view.data.placements).toEqual(["home", "search", "plp"]);
    const high = await saveBidding("supplier.admin", c, { bid: "300.01" });
    expect(high.data.result.error.bid.map(message)).toEqual(["Maximum allowed bid: €300.00"]);
    expect((await saveBidding("supplier.admin", c, { bid: "300" })).status).toBe(302);
  });

  it("'Apply min bid' raises the stored bids below the minimum, with the strategy chosen on the form", async () => {
    const c = await newCampaign();
    expect((await loadBidding("supplier.admin", c.id)).data.belowMinimum).toBe(true);
    await storage().campaigns.update(c.id, { placementBids: { search: 5, plp: 80 } }, { by: "system" });
    const applied = await applyMinBid("supplier.admin", await fresh(c.id));
    expect(applied.status).toBe(302);
    expect((await toastOf(applied.headers))?.description).toBe("campaignEditor:bidding.minApplied");
    expect(await fresh(c.id)).toMatchObject({ bidStrategy: "CPC", bid: 15, placementBids: { search: 15, plp: 80 } });
    expect((await loadBidding("supplier.admin", c.id)).data.belowMinimum).toBe(false);

    // After a refused CPM bid, the button applies the CPM minimum.
    const refused = await saveBidding("supplier.admin", await fresh(c.id), { bidStrategy: "CPM", bid: "0.20" });
    expect(refused.data.result.error.bid.map(message)).toEqual(["Minimum allowed bid: €1.00"]);
    const cpm = await applyMinBid("supplier.admin", await fresh(c.id), { bidStrategy: "CPM" });
    expect(cpm.status).toBe(302);
    expect(await fresh(c.id)).toMatchObject({ bidStrategy: "CPM", bid: 100, placementBids: { search: 100, plp: 100 } });
  });
});

describe("the Budget section", () => {
  it("keeps the daily budget below the total and each placement below the daily budget", async () => {
    const c = await newCampaign();
    const daily = await saveBudget("supplier.admin", c, { pacingTotal: "100", pacingDaily: "100" });
    expect(daily.status).toBe(400);
    expect(daily.data.result.error.pacingDaily.map(message)).toEqual(["The daily budget must be below the total budget."]);
    expect(daily.data.result.initialValue.pacingTotal).toBe("100");
    const placement = await saveBudget("supplier.admin", c, { pacingTotal: "100", pacingDaily: "20", pacing_plp: "20" });
    expect(placement.data.result.error.pacing_plp.map(message)).toEqual(["A placement budget must be below the daily budget."]);
    // Without a daily budget, placement budgets are not compared.
    const noDaily = await saveBudget("supplier.admin", c, { pacingTotal: "100", pacing_plp: "150" });
    expect(noDaily.status).toBe(302);
  });

  it("drops values of 0 or less and saves the rest in cents, per placement and per device", async () => {
    const c = await newCampaign();
    const saved = await saveBudget("supplier.admin", c, {
      pacingTotal: "250.50",
      pacingDaily: "0",
      pacing_search: "-4",
      pacing_home: "12,25",
      device_mobile: "40",
      device_tablet: "0",
      device_app: "",
      device_unknown: "3",
    });
    expect(saved.status).toBe(302);
    expect(await fresh(c.id)).toMatchObject({
      pacingTotal: 25_050,
      pacingDaily: null,
      pacingSearch: null,
      pacingHome: 1_225,
      pacingPlp: null,
      pacingDevices: { mobile: 4_000, tablet: null, app: null, unknown: 300 },
    });
    const view = await loadBudget("supplier.admin", c.id);
    expect(view.data.values).toMatchObject({ pacingTotal: "250.50", pacingDaily: "", pacing_home: "12.25", device_mobile: "40.00" });
  });

  it("shows the spend to date against the total budget, and warns of a budget above the wallet's balance", async () => {
    const c = await newCampaign();
    const wallet = await newWallet(TEAM, 20_000);
    await saveGeneral("supplier.admin", c, { wallet: wallet.id });
    await storage().campaigns.update(c.id, { spend: 7_500 }, { by: "system" });
    const saved = await saveBudget("supplier.admin", await fresh(c.id), { pacingTotal: "300", pacingDaily: "50" });
    expect((await toastOf(saved.headers))?.description).toBe("campaigns:budget.aboveBalance");
    const view = await loadBudget("supplier.admin", c.id);
    expect(view.data.pacing).toMatchObject({ spent: "€75.00", total: "€300.00", remaining: "€225.00", percent: 25, reached: false, daily: "€50.00" });
    expect(view.data.warnings.map((w: { key: string }) => w.key)).toEqual(["campaigns:budget.aboveBalance"]);
    await storage().campaigns.update(c.id, { spend: 30_000 }, { by: "system" });
    expect((await loadBudget("supplier.admin", c.id)).data.pacing).toMatchObject({ percent: 100, reached: true, remaining: "€0.00" });
  });
});

describe("the lifecycle", () => {
  it("offers each user the actions NOTES.md's table allows for the status", async () => {
    const c = await newCampaign();
    expect((await loadLayout("supplier.admin", c.id)).data.actions).toEqual(["enable", "archive", "delete"]);
    expect((await loadLayout("retailer.admin", c.id)).data.actions).toEqual(["enable", "test", "disable", "archive", "delete"]);
    expect((await loadLayout("retailer.viewer", c.id)).data.actions).toEqual([]);
    expect((await loadLayout("reviewer", c.id)).data.actions).toEqual([]);
  });

  it("refuses to enable an incomplete campaign and says what is missing ('Incomplete Campaign')", async () => {
    const c = await newCampaign();
    const outcome = await act("supplier.admin", c.id, "enable");
    expect(outcome.status).toBe(400);
    expect(message(outcome.data.actionError.message)).toBe("Incomplete Campaign");
    expect(outcome.data.actionError.problems.map(message)).toEqual([
      "A campaign needs a name, a start date and either the FIXED strategy or a bid above zero.",
    ]);
    expect((await fresh(c.id)).status).toBe("draft");
  });

  it("activates and publishes (running today, scheduled in the future), republishes edits, pause and archive withdraw", async () => {
    const { campaign, wallet, productIds } = await readyCampaign();
    const enabled = await act("supplier.admin", campaign.id, "enable");
    expect(enabled.status).toBe(302);
    expect(enabled.location).toBe(`/campaigns/${campaign.id}`);
    expect((await toastOf(enabled.headers))).toMatchObject({ title: "campaigns:toast.action.enable", values: { name: campaign.name } });
    expect((await fresh(campaign.id)).status).toBe("active");
    expect((await loadLayout("supplier.admin", campaign.id)).data.campaign.liveStatus).toBe("running");
    const published = await storage().publication.getCampaign(campaign.id);
    expect(published).toMatchObject({ campaignId: campaign.id, team: TEAM, wallet: wallet.id, bid: 50, bidStrategy: "CPC", productIds });
    for (const p of productIds) expect(await storage().publication.campaignsForProduct(p)).toContain(campaign.id);

    // An edit while active is published at once.
    const edited = await saveBidding("supplier.admin", await fresh(campaign.id), { bid: "0.75", bid_search: "0.90" });
    expect(edited.status).toBe(302);
    expect(await storage().publication.getCampaign(campaign.id)).toMatchObject({ bid: 75, placementBids: { search: 90 } });

    // A start in the future: scheduled.
    expect((await saveGeneral("supplier.admin", await fresh(campaign.id), { startDay: "2099-01-01" })).status).toBe(302);
    expect((await loadLayout("supplier.admin", campaign.id)).data.campaign.liveStatus).toBe("scheduled");
    expect((await storage().publication.getCampaign(campaign.id))?.startDate).toBe((await fresh(campaign.id)).startDate);
    await saveGeneral("supplier.admin", await fresh(campaign.id), { startDay: parisToday() });

    const paused = await act("supplier.admin", campaign.id, "pause");
    expect(paused.status).toBe(302);
    expect((await fresh(campaign.id)).status).toBe("paused");
    expect(await storage().publication.getCampaign(campaign.id)).toBeNull();
    for (const p of productIds) expect(await storage().publication.campaignsForProduct(p)).not.toContain(campaign.id);
    expect((await loadLayout("supplier.admin", campaign.id)).data.actions).toEqual(["enable", "redraft", "archive"]);

    expect((await act("supplier.admin", campaign.id, "enable")).status).toBe(302);
    expect(await storage().publication.getCampaign(campaign.id)).not.toBeNull();
    const archived = await act("supplier.admin", campaign.id, "archive");
    expect(archived.status).toBe(302);
    expect((await fresh(campaign.id)).status).toBe("archived");
    expect(await storage().publication.getCampaign(campaign.id)).toBeNull();
    for (const p of productIds) expect(await storage().publication.campaignsForProduct(p)).not.toContain(campaign.id);
    // Archived is the end: no action is offered (even disable leaves archived out) and nothing is edited.
    expect((await loadLayout("retailer.admin", campaign.id)).data.actions).toEqual([]);
    const refused = await saveGeneral("supplier.admin", await fresh(campaign.id), { name: "After the end" });
    expect(refused.status).toBe(400);
    expect(refused.data.result.error[""].map(message)).toEqual(["An archived campaign cannot be edited."]);
  });

  it("keeps a campaign without a funded wallet out of running: insufficient funds, still published only with a wallet", async () => {
    const c = await newCampaign();
    await saveBidding("supplier.admin", c, { bid: "0.40" });
    expect((await act("supplier.admin", c.id, "enable")).status).toBe(302);
    expect((await loadLayout("supplier.admin", c.id)).data.campaign.liveStatus).toBe("insufficient_funds");
    expect(await storage().publication.getCampaign(c.id)).toBeNull();
  });

  it("gives test mode, suspend, disable and re-draft from those to retailer admins and operators only", async () => {
    const { campaign } = await readyCampaign();
    const id = campaign.id;
    expect((await act("supplier.admin", id, "test")).status).toBe(403);
    expect((await act("retailer.admin", id, "test")).status).toBe(302);
    expect((await fresh(id)).status).toBe("test");
    expect(await storage().publication.getCampaign(id)).toBeNull();
    expect((await act("supplier.admin", id, "enable")).status).toBe(302);
    expect((await act("supplier.admin", id, "suspend")).status).toBe(403);
    expect((await act("retailer.admin", id, "suspend")).status).toBe(302);
    expect((await fresh(id)).status).toBe("suspended");
    expect(await storage().publication.getCampaign(id)).toBeNull();
    // Re-draft from suspended: retailer ADMIN or operator only.
    expect((await act("supplier.admin", id, "redraft")).status).toBe(403);
    expect((await act("operator", id, "redraft")).status).toBe(302);
    expect((await fresh(id)).status).toBe("draft");
    expect((await act("supplier.admin", id, "disable")).status).toBe(403);
    expect((await act("retailer.admin", id, "disable")).status).toBe(302);
    expect((await fresh(id)).status).toBe("disabled");
    // An action the status does not allow.
    const pause = await act("retailer.admin", id, "pause");
    expect(pause.status).toBe(400);
    expect(message(pause.data.actionError.message)).toBe("This action is not possible for the campaign's status.");
    expect((await act("retailer.admin", id, "redraft")).status).toBe(302);
    expect((await fresh(id)).status).toBe("draft");
    // A supplier may re-draft from paused or test.
    expect((await act("supplier.admin", id, "enable")).status).toBe(302);
    expect((await act("supplier.admin", id, "pause")).status).toBe(302);
    expect((await act("supplier.admin", id, "redraft")).status).toBe(302);
    expect((await fresh(id)).status).toBe("draft");
  });

  it("deletes only drafts: copied to deleted campaigns with deleted_by and a timestamp, 'Campaign successfully deleted'", async () => {
    const { campaign } = await readyCampaign();
    expect((await act("supplier.admin", campaign.id, "enable")).status).toBe(302);
    const refused = await act("supplier.admin", campaign.id, "delete");
    expect(refused.status).toBe(400);
    expect(message(refused.data.actionError.message)).toBe("Only draft campaigns can be deleted");
    expect(await fresh(campaign.id)).not.toBeNull();

    const draft = await newCampaign();
    const before = Date.now();
    const deleted = await act("supplier.admin", draft.id, "delete");
    expect(deleted.status).toBe(302);
    expect(deleted.location).toBe(`/teams/${TEAM}/campaigns`);
    const toast = await toastOf(deleted.headers);
    expect(message(toast!.title)).toBe("Campaign successfully deleted");
    expect(await storage().campaigns.getOne(draft.id)).toBeNull();
    const copy = await storage().campaigns.getDeleted(draft.id);
    expect(copy).toMatchObject({ name: draft.name, deleted_by: "supplier.admin@example.com", status: "deleted" });
    expect(Date.parse(copy!.deleted)).toBeGreaterThanOrEqual(before - 1000);
    expect((await loadLayout("supplier.admin", draft.id)).status).toBe(404);
  });

  it("reports 'Campaign delete error', 'Campaign archive error' and 'Publish campaign error' (to super-admins only)", async () => {
    const draft = await newCampaign();
    vi.spyOn(storage().campaigns, "delete").mockRejectedValueOnce(new Error("disk full"));
    const del = await act("supplier.admin", draft.id, "delete");
    expect(del.status).toBe(400);
    expect(message(del.data.actionError.message)).toBe("Campaign delete error");
    expect(await fresh(draft.id)).not.toBeNull();

    vi.spyOn(storage().campaigns, "update").mockRejectedValueOnce(new Error("cache unavailable"));
    const archive = await act("supplier.admin", draft.id, "archive");
    expect(message(archive.data.actionError.message)).toBe("Campaign archive error");
    expect((await fresh(draft.id)).status).toBe("draft");

    const { campaign } = await readyCampaign();
    vi.spyOn(storage().campaigns, "update").mockRejectedValueOnce(new Error("cache unavailable"));
    const asOperator = await act("operator", campaign.id, "enable");
    expect(message(asOperator.data.actionError.message)).toBe("Publish campaign error");
    vi.spyOn(storage().campaigns, "update").mockRejectedValueOnce(new Error("cache unavailable"));
    const asSupplier = await act("supplier.admin", campaign.id, "enable");
    expect(message(asSupplier.data.actionError.message)).toBe("Error occurred");
    expect((await fresh(campaign.id)).status).toBe("draft");
  });

  it("with moderation on: activating asks for a review, reviewers approve, or reject with a reason", async () => {
    await setSettings((s) => ({ ...s, types: { ...s.types, [SP]: { ...s.types[SP], moderation: true } } }));
    try {
      const { campaign } = await readyCampaign();
      const id = campaign.id;
      const sent = await act("supplier.admin", id, "enable");
      expect(sent.status).toBe(302);
      expect((await toastOf(sent.headers))?.title).toBe("campaigns:toast.action.enableReview");
      expect((await fresh(id)).status).toBe("pending_review");
      expect((await storage().teams.getOne(TEAM))!.pending_review_campaigns).toContain(id);
      expect(await storage().publication.getCampaign(id)).toBeNull();
      expect((await loadLayout("reviewer", id)).data.actions).toEqual(["approve", "reject"]);
      expect((await loadLayout("supplier.admin", id)).data.actions).toEqual(["archive"]);

      expect((await act("supplier.admin", id, "approve")).status).toBe(403);
      const noReason = await act("reviewer", id, "reject", { reason: "  " });
      expect(noReason.status).toBe(400);
      expect(message(noReason.data.actionError.message)).toBe("Give a reason for the rejection.");
      const rejected = await act("reviewer", id, "reject", { reason: "Misleading claim" });
      expect(rejected.status).toBe(302);
      const after = await fresh(id);
      expect(after.status).toBe("rejected");
      expect(after.review).toMatchObject({ approved: false, rejectionReason: "Misleading claim", by: reviewerEmail });
      expect((await storage().teams.getOne(TEAM))!.pending_review_campaigns).not.toContain(id);

      expect((await act("supplier.admin", id, "redraft")).status).toBe(302);
      expect((await act("supplier.admin", id, "enable")).status).toBe(302);
      expect((await fresh(id)).status).toBe("pending_review");
      const approved = await act("operator", id, "approve");
      expect(approved.status).toBe(302);
      const live = await fresh(id);
      expect(live.status).toBe("active");
      expect(live.review).toMatchObject({ approved: true, rejectionReason: null, by: "operator@example.com" });
      expect(await storage().publication.getCampaign(id)).not.toBeNull();
      expect((await storage().teams.getOne(TEAM))!.pending_review_campaigns).not.toContain(id);
    } finally {
      await resetSettings();
    }
  });

  it("refuses a stale version with 'errors.conflict' (409)", async () => {
    const c = await newCampaign();
    await storage().campaigns.update(c.id, { name: `Changed elsewhere ${RUN}` }, { by: "someone@example.com" });
    const outcome = await act("supplier.admin", c.id, "archive", { version: String(c.version) });
    expect(outcome.status).toBe(409);
    expect(outcome.data.actionError.message).toBe("errors.conflict");
    expect((await fresh(c.id)).status).toBe("draft");
  });
});

describe("a suspended or archived team", () => {
  async function setTeamStatus(teamId: string, status: string) {
    const team = (await storage().teams.getOne(teamId))!;
    const outcome = await run(
      routes.teamSettings.action,
      postRequest(`/teams/${teamId}/settings?index`, { intent: "change-status", version: String(team.version), status, confirmed: "yes" }, { cookie: cookies.operator }),
      { teamId },
    );
    expect(outcome.status, JSON.stringify(outcome.data)).toBe(302);
  }

  it("withdraws its campaigns, which cannot be enabled; restoring the team republishes them", async () => {
    const team = await storage().teams.create(makeTeamData({ name: `Withdrawn ${RUN}` }), { by: "system" });
    const live = await readyCampaign({ teamId: team.id });
    const paused = await readyCampaign({ teamId: team.id });
    expect((await act("retailer.admin", live.campaign.id, "enable")).status).toBe(302);
    expect((await act("retailer.admin", paused.campaign.id, "enable")).status).toBe(302);
    expect((await act("retailer.admin", paused.campaign.id, "pause")).status).toBe(302);
    expect(await storage().publication.getCampaign(live.campaign.id)).not.toBeNull();
    // The team's count of live (active) campaigns follows the actions.
    expect((await storage().teams.getOne(team.id))!.liveCampaigns).toBe(1);

    await setTeamStatus(team.id, "suspended");
    expect(await storage().publication.getCampaign(live.campaign.id)).toBeNull();
    for (const p of live.productIds) expect(await storage().publication.campaignsForProduct(p)).not.toContain(live.campaign.id);
    expect((await loadLayout("retailer.admin", paused.campaign.id)).data.actions).not.toContain("enable");
    const refused = await act("retailer.admin", paused.campaign.id, "enable");
    expect(refused.status).toBe(400);
    expect(message(refused.data.actionError.message)).toBe("The advertiser is suspended or archived: its campaigns cannot be activated.");
    expect((await fresh(paused.campaign.id)).status).toBe("paused");

    await setTeamStatus(team.id, "active");
    expect(await storage().publication.getCampaign(live.campaign.id)).toMatchObject({ campaignId: live.campaign.id });
    for (const p of live.productIds) expect(await storage().publication.campaignsForProduct(p)).toContain(live.campaign.id);
    expect(await storage().publication.getCampaign(paused.campaign.id)).toBeNull();
  });

  it("the bulk status change of the teams list withdraws and republishes too", async () => {
    const team = await storage().teams.create(makeTeamData({ name: `Bulk withdrawn ${RUN}` }), { by: "system" });
    const { campaign } = await readyCampaign({ teamId: team.id });
    expect((await act("retailer.admin", campaign.id, "enable")).status).toBe(302);
    const change = async (status: string) => {
      const outcome = await run(
        routes.teams.action,
        postRequest("/teams?index", { intent: "change-statuses", teamId: team.id, status, confirmed: "yes" }, { cookie: cookies.operator }),
        {},
      );
      expect(outcome.status).toBe(302);
    };
    await change("archived");
    expect(await storage().publication.getCampaign(campaign.id)).toBeNull();
    await change("active");
    expect(await storage().publication.getCampaign(campaign.id)).not.toBeNull();
  });
});

describe("stale versions in every section", () => {
  it("refuses the save with 409 'errors.conflict' and keeps the user's input", async () => {
    const c = await newCampaign();
    await storage().campaigns.update(c.id, { name: `Changed by someone ${RUN}` }, { by: "someone@example.com" });
    const general = await saveGeneral("supplier.admin", c, { name: "My new name" });
    expect(general.status).toBe(409);
    expect(general.data.result.error[""]).toEqual(["errors.conflict"]);
    expect(general.data.result.initialValue).toMatchObject({ name: "My new name", version: String(c.version) });
    const bidding = await saveBidding("supplier.admin", c, { bid: "0.55" });
    expect(bidding.status).toBe(409);
    expect(bidding.data.result.initialValue.bid).toBe("0.55");
    const budget = await saveBudget("supplier.admin", c, { pacingTotal: "99" });
    expect(budget.status).toBe(409);
    expect(budget.data.result.initialValue.pacingTotal).toBe("99");
    const apply = await applyMinBid("supplier.admin", c);
    expect(apply.status).toBe(409);
    expect(apply.data.error).toBe("errors.conflict");
    expect(message("errors.conflict")).toMatch(/Someone else changed this/);
    const after = await fresh(c.id);
    expect(after).toMatchObject({ name: `Changed by someone ${RUN}`, bid: 0, pacingTotal: null });
  });
});
