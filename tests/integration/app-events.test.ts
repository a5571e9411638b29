/**
 * POST /api/events and the settlement of spend, through real HTTP requests: an Express server
 * with the console's own handler in front of Remix (body limits, app/http/request-body.server.ts)
 * dispatching to the route module, on a real SQLite database and metrics store. Covers the
 * service credential, the body's checks, each refused event's reason, replayed batches, exact
 * debits under concurrent batches, and campaigns flagged and withdrawn from the ad server's
 * cache when their wallet runs dry, their budget is spent or a daily cap is reached.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Campaign, CampaignData } from "~/domain/campaigns/campaign";
import type { Wallet } from "~/domain/types";
import { localDay } from "~/domain/metrics/periods";
import type { MetricsStore } from "~/metrics/port";
import { makeCampaignData, makePosting, makeTeamData, makeWalletInput } from "../factories";
import { args, call, getRequest, postRequest, signIn, startApp, type TestApp } from "./app-helpers";
import { capNoticeKey, type CapNotice } from "~/domain/campaigns/status";

const KEY = "events-key-for-the-integration-tests-0123456789";
const PARIS = "Europe/Paris";
const DAY_MS = 24 * 60 * 60 * 1000;

let app: TestApp;
let server: http.Server;
let base: string;
let metrics: MetricsStore;
let modules: {
  route: typeof import("~/routes/api.events");
  settlement: typeof import("~/services/settlement.server");
  campaigns: typeof import("~/services/campaigns/campaigns.server");
  metricsIndex: typeof import("~/metrics/index.server");
  requestBody: typeof import("~/http/request-body.server");
};

const storage = () => app.m.storageIndex.getStorage();
let sequence = 0;
const unique = (prefix: string) => `${prefix}-${++sequence}-${Date.now().toString(36)}`;

beforeAll(async () => {
  app = await startApp();
  process.env.EVENTS_API_KEY = KEY;
  app.m.env.resetEnvForTests();
  const [route, settlement, campaigns, metricsIndex, sqliteMetrics, requestBody] = await Promise.all([
    import("~/routes/api.events"),
    import("~/services/settlement.server"),
    import("~/services/campaigns/campaigns.server"),
    import("~/metrics/index.server"),
    import("~/metrics/sqlite.server"),
    import("~/http/request-body.server"),
  ]);
  modules = { route, settlement, campaigns, metricsIndex, requestBody };
  metrics = new sqliteMetrics.SqliteMetricsStore(path.join(app.dir, "metrics.db"));
  metricsIndex.setMetricsStoreForTests(metrics);

  // The server's handler in front of Remix, with a stand-in for Remix's router that calls the
  // route module as Remix would.
  const express_ = express();
  const handle = async (request: Request) => {
    const { pathname } = new URL(request.url);
    if (pathname !== "/api/events") return new Response("Not Found", { status: 404 });
    const args = { request, params: {}, context: { requestId: "t", clientIp: "127.0.0.1" } } as never;
    return (request.method === "GET" || request.method === "HEAD" ? route.loader() : route.action(args)) as Promise<Response>;
  };
  express_.all("*", requestBody.createRemixHandler(handle, () => ({})) as never);
  server = express_.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  modules?.metricsIndex.setMetricsStoreForTests(undefined);
  await metrics?.close();
  await app?.stop();
});

// ---------------------------------------------------------------------------------------------
// Requests

interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

async function post(body: unknown, options: { key?: string | null; contentType?: string; raw?: string } = {}): Promise<Reply> {
  const headers: Record<string, string> = { "Content-Type": options.contentType ?? "application/json" };
  const key = options.key === undefined ? KEY : options.key;
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  const response = await fetch(`${base}/api/events`, { method: "POST", headers, body: options.raw ?? JSON.stringify(body) });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* a plain-text refusal */
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** A raw request whose body is written chunk by chunk (no Content-Length: chunked). */
function postChunked(chunks: Buffer[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/api/events`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${KEY}` } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode!));
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE" && error.code !== "ECONNRESET") reject(error);
    });
    (async () => {
      for (const chunk of chunks) if (!req.write(chunk)) await new Promise((r) => req.once("drain", r));
      req.end();
    })().catch(() => undefined);
  });
}

// ---------------------------------------------------------------------------------------------
// Data

interface Setup {
  teamId: string;
  wallet: Wallet;
}

async function teamWithWallet(creditCents: number, walletOverrides: Parameters<typeof makeWalletInput>[0] = {}): Promise<Setup> {
  const team = await storage().teams.create(makeTeamData({ name: unique("Events brand") }), { by: "system" });
  let wallet = await storage().wallets.create(team.id, makeWalletInput({ label: unique("Wallet"), ...walletOverrides }), { by: "system" });
  if (creditCents > 0) {
    const posted = await storage().ledger.post(makePosting(wallet.id, { amount: creditCents }), new Date(Date.now() - 60_000));
    if (!posted.ok) throw new Error(posted.reason);
    wallet = posted.wallet;
  }
  return { teamId: team.id, wallet };
}

/** An active campaign on the wallet, with two products, published to the ad server's cache. */
async function servingCampaign(setup: Setup, overrides: Partial<CampaignData> = {}): Promise<Campaign> {
  const products = [`SKU-00000${(sequence % 8) + 1}`, `SKU-00001${(sequence % 8) + 1}`];
  const offers = Object.fromEntries(products.map((id) => [id, { on: true, availability: "in stock", title: id, image_link: "", pos: null, party: "1P" as const }]));
  const wallet = (await storage().wallets.getOne(setup.wallet.id))!;
  const campaign = await storage().campaigns.create(
    makeCampaignData({
      name: unique("Events campaign"),
      team: setup.teamId,
      status: "active",
      bid: 50,
      wallet: wallet.id,
      selectedWallet: { label: wallet.label, credit: wallet.credit, balance: wallet.balance, status: wallet.status },
      insufficient_funds: wallet.balance <= 0,
      offers,
      productIds: products,
      input: { startDay: localDay(new Date(Date.now() - DAY_MS), PARIS) },
      ...overrides,
    }),
    { by: "system" },
  );
  await modules.campaigns.republishTeam((await storage().teams.getOne(setup.teamId))!);
  expect(await storage().publication.getCampaign(campaign.id)).not.toBeNull();
  return campaign;
}

function event(campaign: Campaign, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: "click",
    time: new Date(Date.now() - 60_000).toISOString(),
    team: campaign.team,
    wallet: campaign.wallet,
    campaign: campaign.id,
    campaignType: campaign.campaignType,
    placement: "search",
    slot: "sp",
    device: "mobile",
    cost: 10_000,
    ...overrides,
  };
}

const settle = async (now = new Date()) => {
  const result = await modules.settlement.settleSpend(now);
  if (!result.ok) throw new Error(result.reason);
  expect(result.value.failures).toBe(0);
  return result.value;
};

async function debitsOf(walletId: string): Promise<number[]> {
  const amounts: number[] = [];
  let after: string | null = null;
  do {
    const page: Awaited<ReturnType<ReturnType<typeof storage>["ledger"]["list"]>> = await storage().ledger.list(walletId, { limit: 500, after });
    for (const entry of page.items) if (entry.type === "debit") amounts.push(entry.amount);
    after = page.next;
  } while (after);
  return amounts;
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const today = () => localDay(new Date(), PARIS);

async function clicksOf(campaignId: string): Promise<number> {
  const rows = await metrics.query({ from: localDay(Date.now() - 8 * DAY_MS, PARIS), to: localDay(Date.now() + DAY_MS, PARIS), filters: { campaign: [campaignId] } });
  return sum(rows.map((r) => r.clicks));
}

// ---------------------------------------------------------------------------------------------

describe("the service credential", () => {
  beforeEach(() => {
    process.env.EVENTS_API_KEY = KEY;
    app.m.env.resetEnvForTests();
  });

  it("answers 401 without the key, with another key or another scheme, and counts nothing", async () => {
    const body = { batchId: unique("auth"), events: [{}] };
    for (const key of [null, "wrong-key-of-the-same-length-0123456789abcdefgh", `${KEY}x`, ""]) {
      const reply = await post(body, { key });
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ error: "unauthorized" });
      expect(reply.headers.get("WWW-Authenticate")).toBe('Bearer realm="events"');
    }
    const basic = await fetch(`${base}/api/events`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Basic ${Buffer.from(`x:${KEY}`).toString("base64")}` },
      body: JSON.stringify(body),
    });
    expect(basic.status).toBe(401);
    expect(await storage().spend.getBatch(body.batchId)).toBeNull();
  });

  it("answers 503 while no key is configured, and 405 to other methods", async () => {
    delete process.env.EVENTS_API_KEY;
    app.m.env.resetEnvForTests();
    const reply = await post({ batchId: unique("closed"), events: [{}] });
    expect(reply).toMatchObject({ status: 503, body: { error: "notConfigured" } });
    process.env.EVENTS_API_KEY = KEY;
    app.m.env.resetEnvForTests();
    const get = await fetch(`${base}/api/events`);
    expect(get.status).toBe(405);
    expect(get.headers.get("Allow")).toBe("POST");
  });
});

describe("the body", () => {
  it("answers 400 to broken JSON and to a body that is no batch, 415 to another content type", async () => {
    expect(await post(null, { raw: '{"batchId": "b1", "events": [' })).toMatchObject({ status: 400, body: { error: "badJson" } });
    expect(await post(null, { raw: "" })).toMatchObject({ status: 400, body: { error: "badJson" } });
    expect(await post({ batchId: "b1", events: [] })).toMatchObject({ status: 400, body: { error: "events.noEvents" } });
    expect(await post({ batchId: "a/b", events: [{}] })).toMatchObject({ status: 400, body: { error: "events.badBatchId" } });
    expect(await post([1, 2])).toMatchObject({ status: 400, body: { error: "events.notABatch" } });
    expect(await post({ batchId: "b1", events: new Array(10_001).fill(0) })).toMatchObject({ status: 400, body: { error: "events.tooManyEvents" } });
    expect(await post(null, { raw: "batchId=b1", contentType: "application/x-www-form-urlencoded" })).toMatchObject({ status: 415, body: { error: "jsonExpected" } });
  });

  it("answers 400 notABatch, not 500, to events nested 200,000 levels deep (in the list or in a field)", async () => {
    const deep = "[".repeat(200_000) + "]".repeat(200_000);
    expect(await post(null, { raw: `{"batchId":"deep-1","events":[${deep}]}` })).toMatchObject({ status: 400, body: { error: "events.notABatch" } });
    const deepObject = '{"a":'.repeat(100_000) + "1" + "}".repeat(100_000);
    expect(await post(null, { raw: `{"batchId":"deep-2","events":[{"type":"click","product":${deepObject}}]}` })).toMatchObject({
      status: 400,
      body: { error: "events.notABatch" },
    });
  });

  it("answers 413 past 5 MB, by Content-Length or while a chunked body streams, without reading it", async () => {
    const limit = modules.requestBody.EVENTS_BODY_LIMIT;
    expect(limit).toBe(5 * 1024 * 1024);
    const big = JSON.stringify({ batchId: unique("big"), events: [{ pad: "x".repeat(limit) }] });
    const reply = await post(null, { raw: big });
    expect(reply.status).toBe(413);
    expect(reply.body).toBe("Payload Too Large");
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    expect(await postChunked([Buffer.from('{"batchId":"chunked","events":['), ...Array.from({ length: 21 }, () => chunk)])).toBe(413);
    expect(await storage().spend.getBatch("chunked")).toBeNull();
    // A batch of 10,000 ordinary events fits.
    const ordinary = event({ id: "6f1c0a52-3b7e-4c1d-9a0e-2f5b8c7d4e31", team: "acme-brand", wallet: "wallet-acme-main", campaignType: "sponsored-products" } as Campaign, {
      product: "SKU-000001",
      keyword: "ground coffee",
      category: "Grocery > Coffee",
    });
    expect(JSON.stringify({ batchId: "x", events: new Array(10_000).fill(ordinary) }).length).toBeLessThan(limit);
  });
});

describe("events: accepted, refused with a reason, counted once", () => {
  let setup: Setup;
  let campaign: Campaign;
  let other: Campaign;

  beforeAll(async () => {
    setup = await teamWithWallet(100_000);
    campaign = await servingCampaign(setup);
    const otherSetup = await teamWithWallet(100_000);
    other = await servingCampaign(otherSetup);
  });

  it("counts the accepted events and lists each refused one's index and reason; refused events count nothing", async () => {
    const batchId = unique("mixed");
    const now = Date.now();
    const events = [
      event(campaign, { cost: 12_345 }),
      event(campaign, { type: "impression" }),
      event(campaign, { time: new Date(now + 10 * 60_000).toISOString() }),
      event(campaign, { time: new Date(now - 8 * DAY_MS).toISOString() }),
      event(campaign, { time: "yesterday" }),
      event(campaign, { wallet: undefined }),
      event(campaign, { cost: -5 }),
      event(campaign, { cost: 1.5 }),
      event(campaign, { campaign: "no-such-campaign" }),
      event(campaign, { wallet: other.wallet }),
      event(campaign, { team: other.team }),
      event(campaign, { campaignType: "banner-ads" }),
      event(campaign, { type: "display", cost: 7_655 }),
      "not an event",
    ];
    const reply = await post({ batchId, events });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("Cache-Control")).toBe("no-store");
    expect(reply.body).toEqual({
      batchId,
      accepted: 2,
      refused: [
        { index: 1, reason: "unknownType", field: "type" },
        { index: 2, reason: "timeInFuture", field: "time" },
        { index: 3, reason: "timeTooOld", field: "time" },
        { index: 4, reason: "badTime", field: "time" },
        { index: 5, reason: "missingId", field: "wallet" },
        { index: 6, reason: "badCost", field: "cost" },
        { index: 7, reason: "badCost", field: "cost" },
        { index: 8, reason: "unknownCampaign", field: "campaign" },
        { index: 9, reason: "campaignMismatch", field: "wallet" },
        { index: 10, reason: "campaignMismatch", field: "team" },
        { index: 11, reason: "campaignMismatch", field: "campaignType" },
        { index: 13, reason: "notAnObject" },
      ],
      duplicate: false,
    });
    expect(await storage().spend.getAccrual(setup.wallet.id)).toMatchObject({ unsettledMicros: 20_000, campaigns: { [campaign.id]: 20_000 } });
    expect(await storage().spend.getAccrual(other.wallet!)).toBeNull();
    expect(await clicksOf(campaign.id)).toBe(1);
    expect(await metrics.newestEvent()).not.toBeNull();

    // Sent again (the ad server did not get the answer): the same answer, nothing counted again.
    const again = await post({ batchId, events });
    expect(again).toMatchObject({ status: 200, body: { ...reply.body, duplicate: true } });
    expect(await storage().spend.getAccrual(setup.wallet.id)).toMatchObject({ unsettledMicros: 20_000 });
    expect(await clicksOf(campaign.id)).toBe(1);

    // The same batch id with other events is a conflict, not a second count.
    const reused = await post({ batchId, events: [event(campaign)] });
    expect(reused).toMatchObject({ status: 409, body: { error: "events.batchIdReused" } });
    expect(await clicksOf(campaign.id)).toBe(1);
  });

  it("converges on one count when a step failed half-way: the retry finishes what was left", async () => {
    const batchId = unique("retry");
    const events = [event(campaign, { cost: 30_000 }), event(campaign, { cost: 30_000 })];
    const before = (await storage().spend.getAccrual(setup.wallet.id))?.unsettledMicros ?? 0;
    const clicks = await clicksOf(campaign.id);
    const spy = vi.spyOn(storage().spend, "recordBatch").mockRejectedValueOnce(new Error("storage unavailable"));
    try {
      await expect(modules.route.action({ request: jsonRequest({ batchId, events }), params: {}, context: {} } as never)).rejects.toThrow("storage unavailable");
    } finally {
      spy.mockRestore();
    }
    // The metrics were applied, the spend not yet.
    expect(await clicksOf(campaign.id)).toBe(clicks + 2);
    expect((await storage().spend.getAccrual(setup.wallet.id))?.unsettledMicros ?? 0).toBe(before);
    expect(await storage().spend.getBatch(batchId)).toMatchObject({ state: "pending", accepted: 2 });

    const retry = await post({ batchId, events });
    expect(retry).toMatchObject({ status: 200, body: { batchId, accepted: 2, refused: [], duplicate: false } });
    expect(await clicksOf(campaign.id)).toBe(clicks + 2);
    expect((await storage().spend.getAccrual(setup.wallet.id))!.unsettledMicros).toBe(before + 60_000);
    expect(await post({ batchId, events })).toMatchObject({ status: 200, body: { duplicate: true } });
    expect((await storage().spend.getAccrual(setup.wallet.id))!.unsettledMicros).toBe(before + 60_000);
  });
});

function jsonRequest(body: unknown): Request {
  return new Request("http://console.test/api/events", {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${KEY}` },
    body: JSON.stringify(body),
  });
}

describe("settlement", () => {
  it("debits exactly the spend of N events under concurrent batches: whole cents, the remainder carried", async () => {
    const setup = await teamWithWallet(10_000_000);
    const [a, b] = [await servingCampaign(setup), await servingCampaign(setup)];
    let seed = 11;
    const random = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648), seed % n);
    const costs: Record<string, number> = { [a.id]: 0, [b.id]: 0 };
    const batches = Array.from({ length: 8 }, (_, i) => ({
      batchId: unique(`concurrent-${i}`),
      events: Array.from({ length: 150 }, () => {
        const target = random(2) === 0 ? a : b;
        const cost = random(37_000);
        costs[target.id]! += cost;
        return event(target, { type: ["display", "view", "click"][random(3)], cost });
      }),
    }));
    // Posted concurrently, two of them twice (a retry racing the first send).
    const replies = await Promise.all([...batches, batches[0]!, batches[5]!].map((body) => post(body)));
    expect(replies.map((r) => r.status)).toEqual(new Array(10).fill(200));
    expect(replies.filter((r) => r.body.duplicate)).toHaveLength(2);
    const total = costs[a.id]! + costs[b.id]!;
    expect(await storage().spend.getAccrual(setup.wallet.id)).toMatchObject({ unsettledMicros: total });

    const run = await settle();
    expect(run.settled).toBeGreaterThanOrEqual(1);
    const debits = await debitsOf(setup.wallet.id);
    // One debit per wallet per settlement, never one per event.
    expect(debits).toHaveLength(1);
    expect(sum(debits)).toBe(Math.floor(total / 10_000));
    const accrual = (await storage().spend.getAccrual(setup.wallet.id))!;
    expect(accrual.unsettledMicros).toBe(total % 10_000);
    for (const c of [a, b]) {
      expect((await storage().campaigns.getOne(c.id))!.spend).toBe(Math.floor(costs[c.id]! / 10_000));
      expect(accrual.campaigns[c.id] ?? 0).toBe(costs[c.id]! % 10_000);
    }
    const wallet = (await storage().wallets.getOne(setup.wallet.id))!;
    expect(wallet).toMatchObject({ debit: sum(debits), balance: 10_000_000 - sum(debits), todaySpend: { day: today(), amount: sum(debits) } });
    expect(wallet.firstDebitAt).not.toBeNull();

    // More events, another settlement: the carries complete cents, the debits stay exact.
    const more = { batchId: unique("more"), events: [event(a, { cost: 9_999 }), event(b, { cost: 9_999 }), event(b, { cost: 1 })] };
    await post(more);
    const grand = total + 19_999;
    await settle();
    const after = await debitsOf(setup.wallet.id);
    expect(after.length).toBeLessThanOrEqual(2);
    expect(sum(after)).toBe(Math.floor(grand / 10_000));
    expect(sum(after) * 10_000 + (await storage().spend.getAccrual(setup.wallet.id))!.unsettledMicros).toBe(grand);
    // Nothing left to settle: no further entry.
    await settle();
    expect(await debitsOf(setup.wallet.id)).toHaveLength(after.length);
  }, 60_000);

  it("flags a campaign insufficient_funds and withdraws it from the product cache when its wallet runs dry", async () => {
    const setup = await teamWithWallet(100);
    const campaign = await servingCampaign(setup);
    const [product] = campaign.productIds;
    expect(await storage().publication.campaignsForProduct(product!)).toContain(campaign.id);
    const member = await app.createUser({ claims: { type: "supplier", role: "VIEWER" }, roleByTeam: { [setup.teamId]: "VIEWER" } });
    const outsider = await app.createUser({ claims: { type: "supplier", role: "VIEWER" }, roleByTeam: {} });

    await post({ batchId: unique("dry"), events: [event(campaign, { cost: 1_500_000 })] });
    await settle();
    // The team's people are told the campaign stopped for want of funds (issue 11 §3); others are not.
    expect((await storage().notifications.list(member.id, {})).items).toMatchObject([{ type: "insufficientFunds", values: { campaign: campaign.name }, link: `/campaigns/${campaign.id}` }]);
    expect((await storage().notifications.list(outsider.id, {})).items).toEqual([]);
    await settle();
    expect(await storage().notifications.countUnread(member.id)).toBe(1);
    const wallet = (await storage().wallets.getOne(setup.wallet.id))!;
    // Spend already served is owed: the balance goes below zero.
    expect(wallet).toMatchObject({ credit: 100, debit: 150, balance: -50 });
    const flagged = (await storage().campaigns.getOne(campaign.id))!;
    expect(flagged).toMatchObject({ insufficient_funds: true, spend: 150 });
    expect(modules.campaigns.liveStatusOf(flagged, wallet, new Date())).toBe("insufficient_funds");
    expect(await storage().publication.getCampaign(campaign.id)).toBeNull();
    expect(await storage().publication.campaignsForProduct(product!)).not.toContain(campaign.id);
    expect((await storage().spend.getAccrual(setup.wallet.id))!.followUpPending).toBe(false);

    // Topped up, the campaign serves again (the ledger's refresh of its campaigns).
    const user = await app.createUser({ claims: { type: "operator", role: "ADMIN" }, roleByTeam: {} });
    const wallets = await import("~/services/wallets.server");
    const topUp = await wallets.postEntry(user, wallet, { type: "credit", amount: 10_000, reference: "TOP-UP", comment: "", idempotencyKey: unique("top-up") });
    expect(topUp.ok).toBe(true);
    expect(await storage().campaigns.getOne(campaign.id)).toMatchObject({ insufficient_funds: false });
    expect(await storage().publication.campaignsForProduct(product!)).toContain(campaign.id);
  });

  it("makes a campaign out_of_budget and withdraws it once its spend reaches its total budget", async () => {
    const setup = await teamWithWallet(1_000_000);
    const campaign = await servingCampaign(setup, { pacingTotal: 200 });
    await post({ batchId: unique("budget"), events: [event(campaign, { cost: 1_000_000 }), event(campaign, { cost: 999_999 })] });
    await settle();
    let stored = (await storage().campaigns.getOne(campaign.id))!;
    expect(stored.spend).toBe(199);
    expect(await storage().publication.getCampaign(campaign.id)).not.toBeNull();

    await post({ batchId: unique("budget"), events: [event(campaign, { cost: 20_001 })] });
    await settle();
    stored = (await storage().campaigns.getOne(campaign.id))!;
    // 1,999,999 + 20,001 micros: 2.02, the carry of the first settlement completing a cent.
    expect(stored.spend).toBe(202);
    const wallet = (await storage().wallets.getOne(setup.wallet.id))!;
    expect(modules.campaigns.liveStatusOf(stored, wallet, new Date())).toBe("out_of_budget");
    expect(await storage().publication.getCampaign(campaign.id)).toBeNull();
    expect(await storage().publication.campaignsForProduct(campaign.productIds[0]!)).not.toContain(campaign.id);
    // Its version is what its editor loaded: the settlement's writes leave open forms valid.
    expect(stored.version).toBe(campaign.version);
  });

  it("stops a campaign at its daily pacing, and the wallet's campaigns at its daily budget, until the next day", async () => {
    const setup = await teamWithWallet(1_000_000, { dailyBudget: 300 });
    const capped = await servingCampaign(setup, { pacingDaily: 100 });
    const sibling = await servingCampaign(setup);
    await post({ batchId: unique("daily"), events: [event(capped, { cost: 1_200_000 })] });
    await settle();
    let stored = (await storage().campaigns.getOne(capped.id))!;
    let wallet = (await storage().wallets.getOne(setup.wallet.id))!;
    expect(stored).toMatchObject({ spend: 120, todaySpend: { day: today(), amount: 120 }, dailyCapReached: today() });
    expect(modules.campaigns.liveStatusOf(stored, wallet, new Date())).toBe("daily_cap_reached");
    expect(await storage().publication.getCampaign(capped.id)).toBeNull();
    expect(await storage().publication.getCampaign(sibling.id)).not.toBeNull();

    // The wallet's daily budget (3.00) reached: every campaign on it stops for the day.
    await post({ batchId: unique("daily"), events: [event(sibling, { cost: 2_000_000 })] });
    await settle();
    wallet = (await storage().wallets.getOne(setup.wallet.id))!;
    expect(wallet.todaySpend).toEqual({ day: today(), amount: 320 });
    const stoppedSibling = (await storage().campaigns.getOne(sibling.id))!;
    expect(stoppedSibling.dailyCapReached).toBe(today());
    expect(modules.campaigns.liveStatusOf(stoppedSibling, wallet, new Date())).toBe("daily_cap_reached");
    expect(await storage().publication.getCampaign(sibling.id)).toBeNull();

    // The wallet's daily budget raised: the sibling serves again today; the campaign stopped by
    // its own daily pacing does not.
    const operator = await app.createUser({ claims: { type: "operator", role: "ADMIN" }, roleByTeam: {} });
    const wallets = await import("~/services/wallets.server");
    const raised = await wallets.updateWallet(operator, wallet, {
      label: wallet.label,
      currency: wallet.currency as "EUR",
      status: wallet.status,
      dailyBudget: 10_000,
      budgetEditing: wallet.budgetEditing,
      external_id: wallet.external_id,
      tags: wallet.tags,
      version: wallet.version,
    });
    expect(raised.ok).toBe(true);
    wallet = (await storage().wallets.getOne(setup.wallet.id))!;
    expect((await storage().campaigns.getOne(sibling.id))!.dailyCapReached).toBeNull();
    expect(await storage().publication.getCampaign(sibling.id)).not.toBeNull();
    expect((await storage().campaigns.getOne(capped.id))!.dailyCapReached).toBe(today());
    expect(await storage().publication.getCampaign(capped.id)).toBeNull();
    // Its daily pacing raised above today's spend: it serves again today too.
    const ctx = { campaign: (await storage().campaigns.getOne(capped.id))!, team: (await storage().teams.getOne(setup.teamId))! };
    const budget = await modules.campaigns.updateBudget(operator, ctx, {
      intent: "update-budget",
      version: ctx.campaign.version,
      pacingTotal: null,
      pacingDaily: 500,
      pacing_search: null,
      pacing_plp: null,
      pacing_hub: null,
      pacing_pdp: null,
      pacing_home: null,
      device_mobile: null,
      device_tablet: null,
      device_app: null,
      device_unknown: null,
    } as never);
    expect(budget.ok).toBe(true);
    expect((await storage().campaigns.getOne(capped.id))!.dailyCapReached).toBeNull();
    expect(await storage().publication.getCampaign(capped.id)).not.toBeNull();
    // The wallet's budget lowered under today's spend: both stop again at once.
    const lowered = await wallets.updateWallet(operator, wallet, {
      label: wallet.label,
      currency: wallet.currency as "EUR",
      status: wallet.status,
      dailyBudget: 200,
      budgetEditing: wallet.budgetEditing,
      external_id: wallet.external_id,
      tags: wallet.tags,
      version: wallet.version,
    });
    expect(lowered.ok).toBe(true);
    for (const c of [capped, sibling]) {
      expect((await storage().campaigns.getOne(c.id))!.dailyCapReached).toBe(today());
      expect(await storage().publication.getCampaign(c.id)).toBeNull();
    }

    // The next day of the retailer's time zone, both serve again.
    const tomorrow = new Date(Date.now() + DAY_MS);
    const run = await settle(tomorrow);
    expect(run.reopened).toBeGreaterThanOrEqual(2);
    for (const c of [capped, sibling]) {
      stored = (await storage().campaigns.getOne(c.id))!;
      expect(stored.dailyCapReached).toBeNull();
      expect(modules.campaigns.liveStatusOf(stored, wallet, tomorrow)).toBe("running");
      expect(await storage().publication.getCampaign(c.id)).not.toBeNull();
      expect(await storage().publication.campaignsForProduct(c.productIds[0]!)).toContain(c.id);
    }
  });
});

describe("placement and device caps: not served there until the next retailer day, and the screens say so", () => {
  let cookie: string;
  let t: Awaited<ReturnType<typeof import("~/services/i18n.server")["getFixedT"]>>;
  let routes: {
    layout: typeof import("~/routes/campaigns.$campaignId");
    budget: typeof import("~/routes/campaigns.$campaignId.budget");
    list: typeof import("~/routes/teams.$teamId.campaigns._index");
    wallet: typeof import("~/routes/teams.$teamId.wallets_.$walletId");
  };

  beforeAll(async () => {
    const operator = await app.createUser({ claims: { type: "operator", role: "ADMIN" }, locale: "en-GB", roleByTeam: {} });
    cookie = await signIn(app.m, operator.email, operator.password);
    t = await (await import("~/services/i18n.server")).getFixedT("en-GB");
    routes = {
      layout: await import("~/routes/campaigns.$campaignId"),
      budget: await import("~/routes/campaigns.$campaignId.budget"),
      list: await import("~/routes/teams.$teamId.campaigns._index"),
      wallet: await import("~/routes/teams.$teamId.wallets_.$walletId"),
    };
  });

  const load = (loader: (a: never) => unknown, pathname: string, params: Record<string, string>) =>
    call(() => loader({ ...args(getRequest(pathname, { cookie })), params } as never)).then((o) => {
      expect(o.status).toBe(200);
      return o.data;
    });
  /** What the campaign's header, its team's list and its pacing view tell the user of its caps today. */
  async function shown(campaign: Campaign) {
    const layout = await load(routes.layout.loader, `/campaigns/${campaign.id}`, { campaignId: campaign.id });
    const list = await load(routes.list.loader, `/teams/${campaign.team}/campaigns`, { teamId: campaign.team });
    const budget = await load(routes.budget.loader, `/campaigns/${campaign.id}/budget`, { campaignId: campaign.id });
    const row = JSON.stringify(list).includes(campaign.id) ? findRow(list, campaign.id) : null;
    const text = (caps: CapNotice[], form: "full" | "short" = "full") => caps.map((c) => t(`campaigns:${capNoticeKey(c, form)}`));
    return { live: layout.campaign.liveStatus, header: text(layout.campaign.caps), list: row ? text(row.caps, "short") : null, budget: budget.pacing };
  }
  function findRow(list: unknown, id: string): { caps: CapNotice[] } | null {
    // The list's rows, wherever its loader puts them.
    const seen = new Set<unknown>();
    const walk = (value: unknown): { caps: CapNotice[] } | null => {
      if (!value || typeof value !== "object" || seen.has(value)) return null;
      seen.add(value);
      if ((value as { id?: unknown }).id === id && Array.isArray((value as { caps?: unknown }).caps)) return value as { caps: CapNotice[] };
      for (const v of Object.values(value)) {
        const found = walk(v);
        if (found) return found;
      }
      return null;
    };
    return walk(list);
  }
  async function saveBudget(campaign: Campaign, form: Record<string, string>) {
    const current = (await storage().campaigns.getOne(campaign.id))!;
    const body = { intent: "update-budget", version: String(current.version), pacingTotal: "", pacingDaily: "", ...form };
    const outcome = await call(() =>
      routes.budget.action({ ...args(postRequest(`/campaigns/${campaign.id}/budget`, body, { cookie })), params: { campaignId: campaign.id } } as never),
    );
    expect(outcome.status).toBe(302);
  }

  it("stops the search placement at its cap while the others serve, serves it again when the cap is raised, and the next day", async () => {
    const setup = await teamWithWallet(1_000_000);
    const campaign = await servingCampaign(setup, { pacingSearch: 100 });
    expect((await storage().publication.getCampaign(campaign.id))!.placements).toContain("search");

    // 0.99 on search, 0.50 on category pages: under the search cap (1.00).
    await post({ batchId: unique("caps"), events: [event(campaign, { cost: 990_000 }), event(campaign, { placement: "plp", cost: 500_000 })] });
    await settle();
    expect((await storage().publication.getCampaign(campaign.id))!.placements).toContain("search");
    expect((await shown(campaign)).header).toEqual([]);

    // 0.01 more on search: exactly its cap.
    await post({ batchId: unique("caps"), events: [event(campaign, { cost: 10_000 })] });
    await settle();
    const copy = (await storage().publication.getCampaign(campaign.id))!;
    expect(copy.placements).not.toContain("search");
    expect(copy.placements).toEqual(expect.arrayContaining(["plp", "hub", "pdp", "home"]));
    expect(copy.slots.sp).toEqual(["plp", "hub"]);
    expect(await storage().publication.campaignsForProduct(campaign.productIds[0]!)).toContain(campaign.id);
    const stored = (await storage().campaigns.getOne(campaign.id))!;
    expect(stored).toMatchObject({ spend: 150, capsReached: { day: today(), placements: ["search"], devices: [] }, version: campaign.version });

    const screens = await shown(campaign);
    expect(screens.live).toBe("running");
    expect(screens.header).toEqual(["Search placement cap reached today: not shown on search until tomorrow"]);
    expect(screens.list).toEqual(["Search: cap reached until tomorrow"]);
    expect(screens.budget.caps).toEqual([{ cap: "placement", placement: "search" }]);
    expect(screens.budget.placements.map((r: { key: string; reached: boolean }) => [r.key, r.reached])).toEqual([
      ["search", true],
      ["plp", false],
    ]);

    // The search cap raised above today's spend (1.00): served on search again at once.
    await saveBudget(campaign, { pacing_search: "2.00" });
    expect((await storage().campaigns.getOne(campaign.id))!.capsReached).toBeNull();
    expect((await storage().publication.getCampaign(campaign.id))!.placements).toContain("search");
    expect((await shown(campaign)).header).toEqual([]);
    // Lowered under it again: stopped there at once.
    await saveBudget(campaign, { pacing_search: "0.50" });
    expect((await storage().publication.getCampaign(campaign.id))!.placements).not.toContain("search");
    expect((await shown(campaign)).header).toEqual(["Search placement cap reached today: not shown on search until tomorrow"]);

    // The next day of the retailer's time zone: served on search again.
    const run = await settle(new Date(Date.now() + DAY_MS));
    expect(run.reopened).toBeGreaterThanOrEqual(1);
    expect((await storage().campaigns.getOne(campaign.id))!.capsReached).toBeNull();
    expect((await storage().publication.getCampaign(campaign.id))!.placements).toContain("search");
    expect(await shown(campaign)).toMatchObject({ header: [], list: [] });
  });

  it("stops a device at its cap: the copy targets every other device, the screens say so, and it serves again the next day", async () => {
    const setup = await teamWithWallet(1_000_000);
    const campaign = await servingCampaign(setup, { pacingDevices: { mobile: 50, tablet: null, app: null, unknown: null } });
    expect((await storage().publication.getCampaign(campaign.id))!.targeting.devices).toBeNull();

    await post({ batchId: unique("device"), events: [event(campaign, { cost: 500_000 }), event(campaign, { device: "desktop", cost: 700_000 })] });
    await settle();
    const copy = (await storage().publication.getCampaign(campaign.id))!;
    expect(copy.targeting.devices).toEqual(["desktop", "tablet", "app", "unknown"]);
    expect(copy.placements).toContain("search");
    const screens = await shown(campaign);
    expect(screens.live).toBe("running");
    expect(screens.header).toEqual(["Mobile cap reached today: not shown on mobile until tomorrow"]);
    expect(screens.list).toEqual(["Mobile: cap reached until tomorrow"]);
    expect(screens.budget.devices.map((r: { key: string; reached: boolean }) => [r.key, r.reached])).toEqual([["mobile", true]]);

    // Raised above today's mobile spend (0.50): every device again, at once.
    await saveBudget(campaign, { device_mobile: "1.00" });
    expect((await storage().publication.getCampaign(campaign.id))!.targeting.devices).toBeNull();
    expect((await shown(campaign)).header).toEqual([]);
    await saveBudget(campaign, { device_mobile: "0.40" });
    expect((await storage().publication.getCampaign(campaign.id))!.targeting.devices).toEqual(["desktop", "tablet", "app", "unknown"]);

    await settle(new Date(Date.now() + DAY_MS));
    expect((await storage().publication.getCampaign(campaign.id))!.targeting.devices).toBeNull();
    expect((await shown(campaign)).header).toEqual([]);
  });

  it("says which daily budget stopped a campaign, and shows the wallet's daily budget reached on the wallet page", async () => {
    const setup = await teamWithWallet(1_000_000, { dailyBudget: 300 });
    const own = await servingCampaign(setup, { pacingDaily: 100 });
    const sibling = await servingCampaign(setup);
    await post({ batchId: unique("daily-text"), events: [event(own, { cost: 1_000_000 })] });
    await settle();
    expect(await shown(own)).toMatchObject({ live: "daily_cap_reached", header: ["Daily budget reached: serving again tomorrow"] });
    const walletPage = () => load(routes.wallet.loader, `/teams/${setup.teamId}/wallets/${setup.wallet.id}`, { teamId: setup.teamId, walletId: setup.wallet.id });
    expect((await walletPage()).wallet.dailyBudgetReached).toBe(false);

    await post({ batchId: unique("daily-text"), events: [event(sibling, { cost: 2_000_000 })] });
    await settle();
    expect(await shown(sibling)).toMatchObject({
      live: "daily_cap_reached",
      header: ["Wallet's daily budget reached: serving again tomorrow"],
      list: ["Wallet's daily budget: serving again tomorrow"],
    });
    expect((await walletPage()).wallet.dailyBudgetReached).toBe(true);
    expect(t("wallets:dailyBudgetReached")).toBe("Reached today: its campaigns serve again tomorrow");
    // The ledger names the settlement's debits in the user's words, never in micro-units.
    const ledger = (await walletPage()).entries as { reference: string; comment: string | null; commentKey: string | null }[];
    const debits = ledger.filter((e) => e.reference.startsWith("SPEND-"));
    expect(debits.length).toBeGreaterThan(0);
    for (const debit of debits) expect(t(`wallets:${debit.commentKey}`)).toBe("Ad spend settled (the cost of ads served)");
    expect(JSON.stringify(ledger)).not.toMatch(/micros/);
  });
});
