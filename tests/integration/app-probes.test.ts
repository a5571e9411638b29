/**
 * Hostile requests found by probing the built console (forged, malformed and hand-edited
 * requests, issue 12's review): each answered as a refusal or a page, never a server error, and
 * nothing stored from a refused one. Real requests through the route loaders and actions, and
 * through the server's handler in front of Remix over real HTTP.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerClientErrors, createRemixHandler } from "~/http/request-body.server";
import { makeWalletInput } from "../factories";
import { call, createDraftThroughForm, getRequest, postRequest, signIn, startApp, type TestApp } from "./app-helpers";

let app: TestApp;
const cookies: Record<string, string> = {};
const context = { requestId: "t", clientIp: "127.0.0.1" };
const TEAM = "acme-brand";
const storage = () => app.m.storageIndex.getStorage();
let routes: {
  catalog: typeof import("~/routes/catalog._index");
  teamCampaigns: typeof import("~/routes/teams.$teamId.campaigns._index");
  campaigns: typeof import("~/routes/campaigns._index");
  wallet: typeof import("~/routes/teams.$teamId.wallets_.$walletId");
  walletCsv: typeof import("~/routes/teams.$teamId.wallets_.$walletId.export[.]csv");
  create: typeof import("~/routes/teams.$teamId.campaigns.new.$type");
  general: typeof import("~/routes/campaigns.$campaignId._index");
  quick: typeof import("~/routes/teams.$teamId.campaigns.quick");
};

beforeAll(async () => {
  app = await startApp();
  routes = {
    catalog: await import("~/routes/catalog._index"),
    teamCampaigns: await import("~/routes/teams.$teamId.campaigns._index"),
    campaigns: await import("~/routes/campaigns._index"),
    wallet: await import("~/routes/teams.$teamId.wallets_.$walletId"),
    walletCsv: await import("~/routes/teams.$teamId.wallets_.$walletId.export[.]csv"),
    create: await import("~/routes/teams.$teamId.campaigns.new.$type"),
    general: await import("~/routes/campaigns.$campaignId._index"),
    quick: await import("~/routes/teams.$teamId.campaigns.quick"),
  };
  for (const email of ["operator@example.com", "supplier.admin@example.com"]) {
    cookies[email.split("@")[0]!] = await signIn(app.m, email, app.demoPassword);
  }
});
afterAll(async () => {
  await app?.stop();
});

const load = (fn: (a: never) => unknown, path: string, who: string, params: Record<string, string> = {}) =>
  call(() => fn({ request: getRequest(path, { cookie: cookies[who] }), params, context } as never));
const post = (fn: (a: never) => unknown, path: string, who: string, form: Record<string, string>, params: Record<string, string> = {}) =>
  call(() => fn({ request: postRequest(path, form, { cookie: cookies[who] }), params, context } as never));

describe("hand-edited query parameters", () => {
  it("opens the catalog's first page for a cursor that is not one (it was a server error)", async () => {
    const first = await load(routes.catalog.loader, "/catalog", "operator");
    for (const after of ["-1", "2026-02-30", "custom", "not base64!!"]) {
      const outcome = await load(routes.catalog.loader, `/catalog?after=${encodeURIComponent(after)}`, "operator");
      expect(outcome.status, after).toBe(200);
      expect(outcome.data.rows.map((r: { id: string }) => r.id)).toEqual(first.data.rows.map((r: { id: string }) => r.id));
    }
  });

  it("lists campaigns with a start-date filter past the year 9999's last day dropped (it was a server error)", async () => {
    for (const query of ["startTo=9999-12-31", "startFrom=9999-12-31&startTo=9999-12-31", "period=custom&from=9999-12-31&to=9999-12-31"]) {
      const team = await load(routes.teamCampaigns.loader, `/teams/${TEAM}/campaigns?${query}`, "supplier.admin", { teamId: TEAM });
      expect(team.status, query).toBe(200);
      const all = await load(routes.campaigns.loader, `/campaigns?${query}`, "operator");
      expect(all.status, query).toBe(200);
    }
  });

  it("refuses a ledger period ending on 9999-12-31 with the form's message, on the page and its CSV (it was a server error)", async () => {
    const wallet = await storage().wallets.create(TEAM, makeWalletInput({ label: `Probe ${randomUUID().slice(0, 6)}` }), { by: "system" });
    const params = { teamId: TEAM, walletId: wallet.id };
    const page = await load(routes.wallet.loader, `/teams/${TEAM}/wallets/${wallet.id}?from=2026-01-01&to=9999-12-31`, "operator", params);
    expect(page.status).toBe(200);
    expect(page.data.filter.error).toEqual({ field: "to", reason: "wallets:period.invalidDate" });
    const csv = await call(() =>
      routes.walletCsv.loader({ request: getRequest(`/teams/${TEAM}/wallets/${wallet.id}/export.csv?to=9999-12-31`, { cookie: cookies.operator }), params, context } as never),
    );
    expect(csv.status).toBeLessThan(500);
  });
});

describe("campaign days that are not calendar days", () => {
  const BAD_DAYS = ["2026-02-30", "0000-01-01", "9999-12-31"];

  it("refuses them on creation with the form's message and creates nothing (2026-02-30 was stored as 2 March)", async () => {
    const before = (await storage().campaigns.listForTeam(TEAM)).length;
    for (const startDay of BAD_DAYS) {
      const name = `Probe start ${startDay} ${randomUUID().slice(0, 6)}`;
      const outcome = await post(
        routes.create.action,
        `/teams/${TEAM}/campaigns/new/sponsored-products`,
        "supplier.admin",
        { intent: "create-campaign", name, startDay, campaignType: "sponsored-products" },
        { teamId: TEAM, type: "sponsored-products" },
      );
      expect(outcome.status, startDay).toBe(400);
      expect(outcome.data.result.error.startDay, startDay).toEqual(["campaigns:form.dayInvalid"]);
      const ended = await post(
        routes.create.action,
        `/teams/${TEAM}/campaigns/new/sponsored-products`,
        "supplier.admin",
        { intent: "create-campaign", name, startDay: "2030-01-01", endDay: startDay, campaignType: "sponsored-products" },
        { teamId: TEAM, type: "sponsored-products" },
      );
      expect(ended.status, `end ${startDay}`).toBe(400);
    }
    expect((await storage().campaigns.listForTeam(TEAM)).length).toBe(before);
  });

  it("refuses them in the General section and keeps the stored start", async () => {
    const id = await createDraftThroughForm(routes.create.action as never, context, cookies["supplier.admin"]!, { team: TEAM, name: `Probe general ${randomUUID().slice(0, 6)}` });
    const stored = (await storage().campaigns.getOne(id))!;
    for (const startDay of BAD_DAYS) {
      const outcome = await post(
        routes.general.action,
        `/campaigns/${id}?index`,
        "supplier.admin",
        { intent: "update-general", version: String(stored.version), name: stored.name, startDay, endDay: "", wallet: "" },
        { campaignId: id },
      );
      expect(outcome.status, startDay).toBe(400);
      const now = (await storage().campaigns.getOne(id))!;
      expect(now.startDate).toBe(stored.startDate);
      expect(now.version).toBe(stored.version);
    }
  });

  it("refuses them in the quick builder's one POST, creating nothing", async () => {
    const before = (await storage().campaigns.listForTeam(TEAM)).length;
    const name = `Probe quick ${randomUUID().slice(0, 6)}`;
    const body = new URLSearchParams([
      ["intent", "create-quick-campaign"],
      ["name", name],
      ["startDay", "2026-02-30"],
      ["campaignType", "sponsored-products"],
      ["wallet", ""],
    ]);
    const base = postRequest(`/teams/${TEAM}/campaigns/quick`, {}, { cookie: cookies["supplier.admin"] });
    const outcome = await call(() =>
      routes.quick.action({ request: new Request(base.url, { method: "POST", headers: base.headers, body: body.toString() }), params: { teamId: TEAM }, context } as never),
    );
    expect(outcome.status).toBe(400);
    expect((await storage().campaigns.listForTeam(TEAM)).length).toBe(before);
  });
});

describe("a team id that names a property of every object", () => {
  it("refuses a supplier's report for the team '__proto__' or 'constructor' (it was a server error) and stores nothing", async () => {
    const edit = await import("~/routes/reports.$reportId._index");
    for (const teamId of ["__proto__", "constructor", "toString"]) {
      const name = `Probe report ${teamId} ${randomUUID().slice(0, 6)}`;
      const outcome = await post(
        edit.action,
        "/reports/new?index",
        "supplier.admin",
        { intent: "save-report", name, runAt: "08:00", recipients: "probe@example.com", type: "teams", teamId, period: "yesterday", timeUnit: "cumulative", format: "csv", frequency: "once" },
        { reportId: "new" },
      );
      expect(outcome.status, teamId).toBeGreaterThanOrEqual(400);
      expect(outcome.status, teamId).toBeLessThan(500);
      expect(outcome.location, teamId).toBeNull();
    }
  });
});

describe("keywords that name a property of every object", () => {
  it("stores 'constructor' as any other keyword, and refuses '__proto__' as a bad line, instead of 'Error occurred'", async () => {
    const keywords = await import("~/routes/campaigns.$campaignId.keywords");
    const id = await createDraftThroughForm(routes.create.action as never, context, cookies["supplier.admin"]!, { team: TEAM, name: `Probe keywords ${randomUUID().slice(0, 6)}` });
    const add = async (text: string) => {
      const version = String((await storage().campaigns.getOne(id))!.version);
      return post(keywords.action, `/campaigns/${id}/keywords`, "supplier.admin", { intent: "add-keywords", version, keywords: text, bid: "" }, { campaignId: id });
    };
    const stored = await add("constructor\nwinter boots");
    expect(stored.status, JSON.stringify(stored.data)).toBe(302);
    expect(Object.keys(await storage().targets.list(id, "keyword")).sort()).toEqual(["constructor", "winter boots"]);
    const page = await load(keywords.loader, `/campaigns/${id}/keywords`, "supplier.admin", { campaignId: id });
    expect(page.status).toBe(200);
    const refused = await add("__proto__");
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.data)).not.toContain("errors.errorOccurred");
    expect(Object.keys(await storage().targets.list(id, "keyword")).sort()).toEqual(["constructor", "winter boots"]);
  });
});

describe("requests refused before any route (a form posted to a page that takes none, a broken path)", () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    const server405 = express();
    // Remix stand-in: what it renders for a POST to a route without an action (its error page,
    // with the router's internal message in the page's data).
    const handle = async (request: Request) => {
      if (request.method === "GET") return new Response("<!DOCTYPE html><p>FAQ</p>", { headers: { "Content-Type": "text/html" } });
      return new Response(
        '<!DOCTYPE html><h1>Error occurred</h1><script>"Error: You made a POST request to \\"/faq\\" but did not provide an `action` for route \\"routes/faq\\"","Unexpected Server Error"</script>',
        { status: 405, headers: { "Content-Type": "text/html; charset=utf-8" } },
      );
    };
    server405.all("*", createRemixHandler(handle, () => ({})) as never);
    server405.use(answerClientErrors as never);
    server = server405.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  it("is refused 405 in words, without the error page or the route's file name", async () => {
    const response = await fetch(`${base}/faq`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "intent=anything",
    });
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("GET, HEAD");
    const text = await response.text();
    expect(text).toBe("Method Not Allowed");
    expect(text).not.toContain("routes/faq");
    expect((await fetch(`${base}/faq`)).status).toBe(200);
  });

  it("answers a path with a broken percent-escape 400 in words, as a refused body (it was Express's page, its stack logged)", async () => {
    const response = await fetch(`${base}/%E0%A4%A`);
    expect(response.status).toBe(400);
    expect(response.headers.get("Content-Type")).toContain("text/plain");
    expect(await response.text()).toBe("Bad Request");
  });
});
