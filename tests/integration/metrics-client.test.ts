/**
 * The console's one statistics client pointed at a retailer's own service (METRICS_API_URL, here
 * the MSW stand-in of mocks/metrics.ts): the request is narrowed to the user's teams, carries an
 * identity token that verifies against the console's JWKS, and a failing service gives the
 * screen's failure title while the page goes on.
 */
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { User } from "~/domain/types";
import { METRICS_API_URL, metricsHandler, type MetricsUpstream } from "../../mocks/metrics";
import { startApp, type TestApp } from "./app-helpers";

const upstream: MetricsUpstream = { calls: [], answer: { status: 500 } };
const server = setupServer(metricsHandler(upstream));
let app: TestApp;
let metrics: typeof import("~/services/metrics.server");
let tokens: typeof import("~/services/identity-token.server");
let supplier: User;
let operator: User;

const summary = { displays: 1200, views: 800, clicks: 24, costMicros: 12_000_000, quantity: 2, salesCents: 5_000 };

beforeAll(async () => {
  server.listen({ onUnhandledRequest: "bypass" });
  app = await startApp();
  process.env.METRICS_API_URL = METRICS_API_URL;
  [metrics, tokens] = await Promise.all([import("~/services/metrics.server"), import("~/services/identity-token.server")]);
  supplier = await app.createUser({ email: "sup.client@example.com", claims: { type: "supplier", role: "ADMIN" }, roleByTeam: { "team-a": "ADMIN" } });
  operator = await app.createUser({ email: "op.client@example.com", claims: { type: "operator", role: "ADMIN" } });
});

afterAll(async () => {
  delete process.env.METRICS_API_URL;
  server.close();
  await app?.stop();
});

beforeEach(() => {
  upstream.calls.length = 0;
});

describe("the statistics client with METRICS_API_URL", () => {
  it("asks the retailer's service with the user's token and reads its answer", async () => {
    upstream.answer = () => ({ summary, newestEvent: "2026-11-24T10:00:00.000Z", team: [{ key: "team-a", ...summary }] });
    const result = await metrics.fetchMetrics(supplier, { dateFrom: "2026-11-24", dateTo: "2026-11-24", groups: { terms: ["team"] } }, "metrics:errors.fetchTeam");
    expect(result).toMatchObject({ ok: true, value: { summary: { displays: 1200 }, team: [{ key: "team-a" }] } });
    expect(upstream.calls).toHaveLength(1);
    // Narrowed to the supplier's teams before it left the console.
    expect(upstream.calls[0].body.filters?.terms.team).toEqual(["team-a"]);
    const token = /^Bearer (.+)$/.exec(upstream.calls[0].authorization ?? "")?.[1];
    expect(await tokens.verifyIdentityToken(token)).toEqual({ userId: supplier.id, accountType: "supplier", teams: ["team-a"] });
  });

  it("gives every hour of the day, zeros where the service had no figures (a chart and table show them all)", async () => {
    // The service answers hours with figures only: 00:00 and 02:00 of 24 November in Paris.
    const hour = (bucket: string) => ({ bucket, ...summary });
    upstream.answer = () => ({ summary, newestEvent: null, histogram: [hour("2026-11-23T23:00:00.000Z"), hour("2026-11-24T01:00:00.000Z")] });
    const result = await metrics.fetchMetrics(operator, { dateFrom: "2026-11-24", dateTo: "2026-11-24", histogram: "hour" }, "metrics:errors.fetchCampaign");
    if (!result.ok) throw new Error("expected figures");
    const rows = result.value.histogram ?? [];
    expect(rows).toHaveLength(24);
    expect(rows.slice(0, 3).map((r) => r.clicks)).toEqual([24, 0, 24]);
    expect(rows[1]).toMatchObject({ bucket: "2026-11-24T00:00:00.000Z", displays: 0, costMicros: 0 });
  });

  it("sends and reads the spec's names on the wire (campaign_type; cost and sales) and the console's inside", async () => {
    upstream.answer = { raw: { summary: { displays: 3, views: 2, clicks: 1, cost: 45_000, quantity: 1, sales: 2_999 }, newestEvent: null, campaign_type: [{ key: "banner-ads", displays: 3, views: 2, clicks: 1, cost: 45_000, quantity: 1, sales: 2_999 }] } };
    const result = await metrics.fetchMetrics(operator, { dateFrom: "2026-11-24", dateTo: "2026-11-24", groups: { terms: ["campaignType"] }, filters: { terms: { campaignType: ["banner-ads"] } } }, "metrics:errors.fetchOverall");
    expect(upstream.calls[0].wire).toEqual({ dateFrom: "2026-11-24", dateTo: "2026-11-24", groups: { terms: ["campaign_type"] }, filters: { terms: { campaign_type: ["banner-ads"] } } });
    expect(result).toMatchObject({ ok: true, value: { summary: { costMicros: 45_000, salesCents: 2_999 }, campaignType: [{ key: "banner-ads", costMicros: 45_000 }] } });
  });

  it("leaves an operator's request whole", async () => {
    upstream.answer = () => ({ summary, newestEvent: null });
    await metrics.fetchMetrics(operator, { dateFrom: "2026-11-24", dateTo: "2026-11-24" }, "metrics:errors.fetchOverall");
    expect(upstream.calls[0].body.filters).toBeUndefined();
  });

  it("gives the screen's failure title when the service fails or answers nonsense", async () => {
    upstream.answer = { status: 503 };
    expect(await metrics.fetchMetrics(operator, { dateFrom: "2026-11-24", dateTo: "2026-11-24" }, "metrics:errors.fetchCampaign")).toMatchObject({
      ok: false,
      kind: "unavailable",
      reason: "metrics:errors.fetchCampaign",
    });
    upstream.answer = { raw: { nonsense: true } };
    expect(await metrics.fetchMetrics(operator, { dateFrom: "2026-11-24", dateTo: "2026-11-24" }, "metrics:errors.fetchTeam")).toMatchObject({ ok: false, reason: "metrics:errors.fetchTeam" });
    // A summary whose cost is not an integer of micro-units is not a statistics object either.
    upstream.answer = { raw: { summary: { displays: 1, views: 0, clicks: 0, cost: 1.5, quantity: 0, sales: 0 } } };
    expect(await metrics.fetchMetrics(operator, { dateFrom: "2026-11-24", dateTo: "2026-11-24" }, "metrics:errors.fetchTeam")).toMatchObject({ ok: false, reason: "metrics:errors.fetchTeam" });
  });
});
