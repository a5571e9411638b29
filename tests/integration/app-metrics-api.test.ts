/**
 * POST /api/metrics and the identity tokens it is called with: the /metrics contract answered
 * for a token's teams only, the published JWKS, and every token that must be refused (missing,
 * malformed, forged, signed by another key, expired, for another audience, tampered), plus key
 * rotation across instances.
 */
import path from "node:path";
import { generateKeyPair, importJWK, SignJWT } from "jose";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { User } from "~/domain/types";
import type { MetricsStore } from "~/metrics/port";
import { fact } from "./metrics.contract";
import { BASE_URL, startApp, type TestApp } from "./app-helpers";
import { makeTeamData } from "../factories";

let app: TestApp;
let metrics: MetricsStore;
let m: {
  route: typeof import("~/routes/api.metrics");
  jwks: typeof import("~/routes/[.]well-known.jwks[.]json");
  tokens: typeof import("~/services/identity-token.server");
  metricsIndex: typeof import("~/metrics/index.server");
};
let operator: User;
let supplier: User;

const DAY = "2026-11-24";

beforeAll(async () => {
  app = await startApp();
  const [route, jwks, tokens, metricsIndex, sqliteMetrics] = await Promise.all([
    import("~/routes/api.metrics"),
    import("~/routes/[.]well-known.jwks[.]json"),
    import("~/services/identity-token.server"),
    import("~/metrics/index.server"),
    import("~/metrics/sqlite.server"),
  ]);
  m = { route, jwks, tokens, metricsIndex };
  metrics = new sqliteMetrics.SqliteMetricsStore(path.join(app.dir, "metrics-api.db"));
  metricsIndex.setMetricsStoreForTests(metrics);
  operator = await app.createUser({ email: "op.metrics@example.com", claims: { type: "operator", role: "ADMIN" } });
  supplier = await app.createUser({ email: "sup.metrics@example.com", claims: { type: "supplier", role: "ADMIN" }, roleByTeam: { "team-a": "ADMIN" } });
  await metrics.applyBatch(
    "b-1",
    [
      fact(`${DAY}T10:00:00Z`, { team: "team-a", campaign: "camp-a", device: "mobile" }),
      fact(`${DAY}T11:00:00Z`, { team: "team-b", wallet: "wallet-b", campaign: "camp-b", displays: 99 }),
    ],
    `${DAY}T11:00:00.000Z`,
  );
});

afterAll(async () => {
  m?.metricsIndex.setMetricsStoreForTests(undefined);
  await metrics?.close();
  await app?.stop();
});

beforeEach(() => m.tokens.resetSigningKeyCache());

function post(body: unknown, token?: string | null, raw?: string): Promise<Response> {
  const request = new Request(`${BASE_URL}/api/metrics`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: raw ?? JSON.stringify(body),
  });
  return m.route.action({ request, params: {}, context: {} } as never) as Promise<Response>;
}

const teamsRequest = { dateFrom: DAY, dateTo: DAY, groups: { terms: ["team"] } };

describe("POST /api/metrics", () => {
  it("answers the contract for an operator: summary, groups and histogram of every team", async () => {
    const token = await m.tokens.mintIdentityToken(operator);
    const response = await post({ ...teamsRequest, histogram: "hour", groups: { terms: ["team", "device"] } }, token);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.summary.displays).toBe(109);
    expect(body.team.map((r: { key: string; displays: number }) => [r.key, r.displays]).sort()).toEqual([["team-a", 10], ["team-b", 99]]);
    expect(body.device.map((r: { key: string }) => r.key).sort()).toEqual(["desktop", "mobile"]);
    expect(body.histogram).toHaveLength(2);
    expect(body.newestEvent).toBe(`${DAY}T11:00:00.000Z`);
  });

  it("speaks the spec's names: the campaign_type term, and cost (micro-units) and sales (cents) in the summary and rows", async () => {
    const token = await m.tokens.mintIdentityToken(operator);
    // The team variant: filters team, placement, campaign_type, slot, device; groups by team.
    const body = await (
      await post(
        {
          dateFrom: DAY,
          dateTo: DAY,
          groups: { terms: ["team", "campaign_type"] },
          filters: { terms: { team: ["team-a", "team-b"], placement: ["search"], campaign_type: ["sponsored-products"], slot: ["sp"], device: ["mobile", "desktop"] } },
        },
        token,
      )
    ).json();
    expect(Object.keys(body.summary).sort()).toEqual(["clicks", "cost", "displays", "quantity", "sales", "views"]);
    expect(body.summary).toMatchObject({ displays: 109, cost: 24_690 });
    expect(body.team.find((r: { key: string }) => r.key === "team-a")).toMatchObject({ displays: 10, cost: 12_345, sales: 0 });
    expect(body.campaign_type).toEqual([{ key: "sponsored-products", displays: 109, views: 16, clicks: 2, cost: 24_690, quantity: 0, sales: 0 }]);
    expect(body.campaignType).toBeUndefined();
    // A campaign type that matches nothing.
    const none = await (await post({ dateFrom: DAY, dateTo: DAY, filters: { terms: { campaign_type: ["banner-ads"] } } }, token)).json();
    expect(none.summary.displays).toBe(0);
  });

  it("answers the byWallet / byCampaign variant: by wallet, or by campaign once a wallet is chosen", async () => {
    const token = await m.tokens.mintIdentityToken(operator);
    const byWallet = await (await post({ dateFrom: DAY, dateTo: DAY, groups: { terms: ["wallet"] }, filters: { terms: { team: ["team-b"] } } }, token)).json();
    expect(byWallet.wallet).toEqual([expect.objectContaining({ key: "wallet-b", displays: 99 })]);
    const byCampaign = await (await post({ dateFrom: DAY, dateTo: DAY, groups: { terms: ["campaign"] }, filters: { terms: { wallet: ["wallet-b"] } } }, token)).json();
    expect(byCampaign.campaign).toEqual([expect.objectContaining({ key: "camp-b", displays: 99 })]);
  });

  it("answers the products variant (by product, no histogram) and the targeting variant (category, productCategory and keyword lists)", async () => {
    await metrics.applyBatch(
      "b-targets",
      [
        fact(`2026-11-23T10:00:00Z`, { team: "team-a", campaign: "camp-a", product: "SKU-1", placement: "plp", category: "tvs" }),
        fact(`2026-11-23T10:00:00Z`, { team: "team-a", campaign: "camp-a", product: "SKU-2", placement: "search", keyword: "oled" }),
        fact(`2026-11-23T10:00:00Z`, { team: "team-a", campaign: "camp-a", product: "SKU-2", placement: "pdp", productCategory: "pc-9" }),
      ],
      null,
    );
    const token = await m.tokens.mintIdentityToken(supplier);
    const products = await (await post({ dateFrom: "2026-11-23", dateTo: "2026-11-23", groups: { terms: ["product"] }, filters: { terms: { campaign: ["camp-a"] } } }, token)).json();
    expect(products.histogram).toBeUndefined();
    expect(products.product.map((r: { key: string; displays: number }) => [r.key, r.displays]).sort()).toEqual([["SKU-1", 10], ["SKU-2", 20]]);
    const targeting = await (await post({ dateFrom: "2026-11-23", dateTo: "2026-11-23", groups: { terms: ["category"] }, filters: { terms: { campaign: ["camp-a"] } } }, token)).json();
    expect(targeting.category.map((r: { key: string }) => r.key)).toEqual(["tvs"]);
    expect(targeting.productCategory.map((r: { key: string }) => r.key)).toEqual(["pc-9"]);
    expect(targeting.keyword.map((r: { key: string }) => r.key)).toEqual(["oled"]);
    const plpOnly = await (await post({ dateFrom: "2026-11-23", dateTo: "2026-11-23", groups: { terms: ["category"] }, filters: { terms: { campaign: ["camp-a"], placement: ["plp"] } } }, token)).json();
    expect([plpOnly.category.length, plpOnly.productCategory.length, plpOnly.keyword.length]).toEqual([1, 0, 0]);
  });

  it("gives a supplier's token its teams only, even when it asks for another team", async () => {
    const token = await m.tokens.mintIdentityToken(supplier);
    const all = await (await post(teamsRequest, token)).json();
    expect(all.summary.displays).toBe(10);
    expect(all.team.map((r: { key: string }) => r.key)).toEqual(["team-a"]);
    const other = await (await post({ ...teamsRequest, filters: { terms: { team: ["team-b"] } } }, token)).json();
    expect(other.summary.displays).toBe(0);
    expect(other.team).toEqual([]);
  });

  describe("archived advertisers (ADR 51)", () => {
    const day = "2026-11-20";
    const request = { dateFrom: day, dateTo: day, groups: { terms: ["team"] } };
    const keys = (body: { team: { key: string }[] }) => body.team.map((r) => r.key).sort();
    let teams: { live: string; paused: string; gone: string; later: string };
    let tokens: { retailer: string; member: string; operator: string };
    let storage: ReturnType<typeof app.m.storageIndex.getStorage>;

    beforeAll(async () => {
      storage = app.m.storageIndex.getStorage();
      const create = async (name: string, status: "active" | "suspended" | "archived") => (await storage.teams.create(makeTeamData({ name, status }), { by: "system" })).id;
      teams = {
        live: await create("Metrics API live", "active"),
        paused: await create("Metrics API suspended", "suspended"),
        gone: await create("Metrics API archived", "archived"),
        later: await create("Metrics API archived later", "active"),
      };
      await metrics.applyBatch(
        "b-archived",
        [
          fact(`${day}T10:00:00Z`, { team: teams.live, displays: 7 }),
          fact(`${day}T10:00:00Z`, { team: teams.paused, displays: 1_000 }),
          fact(`${day}T10:00:00Z`, { team: teams.gone, displays: 50 }),
          fact(`${day}T10:00:00Z`, { team: teams.later, displays: 300 }),
        ],
        `${day}T11:00:00.000Z`,
      );
      const retailer = await app.createUser({ email: "ret.metrics@example.com", claims: { type: "retailer", role: "ADMIN" } });
      const member = await app.createUser({
        email: "sup2.metrics@example.com",
        claims: { type: "supplier", role: "ADMIN" },
        roleByTeam: { [teams.live]: "ADMIN", [teams.gone]: "ADMIN", [teams.later]: "ADMIN" },
      });
      // Minted while `later` is still active.
      tokens = { retailer: await m.tokens.mintIdentityToken(retailer), member: await m.tokens.mintIdentityToken(member), operator: await m.tokens.mintIdentityToken(operator) };
    });

    afterEach(async () => {
      if ((await storage.teams.getOne(teams.later))?.status !== "active") await storage.teams.update(teams.later, { status: "active" }, { by: "system" });
    });

    it("gives an operator every team; a retailer every team but the archived ones; a supplier its own, less the archived ones", async () => {
      expect(keys(await (await post(request, tokens.operator)).json())).toEqual([teams.live, teams.paused, teams.gone, teams.later].sort());
      const retailer = await (await post(request, tokens.retailer)).json();
      expect(keys(retailer)).toEqual([teams.live, teams.paused, teams.later].sort());
      expect(retailer.summary.displays).toBe(1_307);
      const member = await (await post(request, tokens.member)).json();
      expect(keys(member)).toEqual([teams.live, teams.later].sort());
      expect(member.summary.displays).toBe(307);
    });

    it("leaves out a team archived after the token was minted at the next call, and counts it again once unarchived", async () => {
      await storage.teams.update(teams.later, { status: "archived" }, { by: "system" });
      for (const who of ["retailer", "member"] as const) {
        const body = await (await post(request, tokens[who])).json();
        expect(keys(body), who).not.toContain(teams.later);
        expect(body.summary.displays, who).toBe(who === "retailer" ? 1_007 : 7);
      }
      await storage.teams.update(teams.later, { status: "active" }, { by: "system" });
      for (const who of ["retailer", "member"] as const) {
        const body = await (await post(request, tokens[who])).json();
        expect(keys(body), who).toContain(teams.later);
        expect(body.summary.displays, who).toBe(who === "retailer" ? 1_307 : 307);
      }
    });

    it("gives nothing of an archived team to a call naming it, nor to a body that asks for no exclusion", async () => {
      for (const who of ["retailer", "member"] as const) {
        const asked = await (await post({ ...request, filters: { terms: { team: [teams.gone] } } }, tokens[who])).json();
        expect(asked.summary.displays, who).toBe(0);
        expect(asked.team, who).toEqual([]);
        const mixed = await (await post({ ...request, filters: { terms: { team: [teams.gone, teams.live] } } }, tokens[who])).json();
        expect(keys(mixed), who).toEqual([teams.live]);
        // Fields the contract does not have are not read: the scope is the token's, read now.
        const forged = { ...request, excludeTeams: [], exclude: { team: [] }, scope: { teams: null, excludeTeams: [] }, teams: null };
        const body = await (await post(forged, tokens[who])).json();
        expect(keys(body), who).not.toContain(teams.gone);
        expect(body.summary.displays, who).toBe(who === "retailer" ? 1_307 : 307);
        // ...nor as a filter term.
        expect((await post({ ...request, filters: { terms: { excludeTeams: [] } } }, tokens[who])).status, who).toBe(400);
        expect((await post({ ...request, filters: { terms: { exclude_team: [teams.live] } } }, tokens[who])).status, who).toBe(400);
      }
    });

    it("answers a retailer's token however many teams there are (here 40,000, 10 of them archived)", async () => {
      // Written straight into the store (the repo's create, audited one by one, would take minutes):
      // as many teams as a listing of every team could not send to the metrics store in one query.
      const documents = app.m.storageIndex.getDocumentStoreForTests();
      const ids = Array.from({ length: 40_000 }, (_, i) => `many-${String(i).padStart(5, "0")}`);
      await documents.transaction(async (tx) => {
        ids.forEach((id, i) => tx.create("team", id, { name: id, nameLower: id, status: i % 4_000 === 0 ? "archived" : "active", account_type: "brand", tags: [], created: "2026-11-20T00:00:00.000Z" }));
      });
      await metrics.applyBatch("b-many", [fact(`${day}T12:00:00Z`, { team: ids[0], displays: 90_000 }), fact(`${day}T12:00:00Z`, { team: ids[1], displays: 4 })], null);
      const response = await post(request, tokens.retailer);
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(keys(body)).toEqual([ids[1], teams.live, teams.paused, teams.later].sort());
      expect(body.summary.displays).toBe(1_311);
    });
  });

  it("refuses a body that breaks the contract with 400, and other methods with 405", async () => {
    const token = await m.tokens.mintIdentityToken(operator);
    expect((await post({ dateFrom: "yesterday", dateTo: DAY }, token)).status).toBe(400);
    expect((await post({ ...teamsRequest, groups: { terms: ["team; DROP TABLE"] } }, token)).status).toBe(400);
    expect((await post(null, token, "{not json")).status).toBe(400);
    const deep = "[".repeat(200_000) + "]".repeat(200_000);
    expect((await post(null, token, `{"dateFrom":"${DAY}","dateTo":"${DAY}","groups":{"terms":${deep}},"filters":${deep}}`)).status).toBe(400);
    expect((await m.route.loader()).status).toBe(405);
  });

  describe("refuses with 401", () => {
    it("no token, a malformed one, or one in the wrong header form", async () => {
      expect((await post(teamsRequest)).status).toBe(401);
      expect((await post(teamsRequest, "not.a.jwt")).status).toBe(401);
      const response = await post(teamsRequest, "x".repeat(5000));
      expect(response.status).toBe(401);
      expect(response.headers.get("WWW-Authenticate")).toContain("Bearer");
    });

    it("a token signed by a key that is not published", async () => {
      const { privateKey } = await generateKeyPair("ES256");
      const [published] = await m.tokens.signingKeys();
      const forged = await new SignJWT({ typ: "operator", teams: null })
        .setProtectedHeader({ alg: "ES256", kid: published.kid })
        .setIssuer(BASE_URL)
        .setAudience(m.tokens.TOKEN_AUDIENCE)
        .setSubject(operator.id)
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(privateKey);
      expect((await post(teamsRequest, forged)).status).toBe(401);
    });

    it("an expired token, one for another audience or issuer, and an unsigned one", async () => {
      const past = new Date(Date.now() - 10 * 60_000);
      expect((await post(teamsRequest, await m.tokens.mintIdentityToken(operator, past))).status).toBe(401);
      const [key] = await m.tokens.signingKeys();
      const privateKey = await importJWK(key.privateJwk as never, "ES256");
      const sign = (audience: string, issuer: string) =>
        new SignJWT({ typ: "operator", teams: null })
          .setProtectedHeader({ alg: "ES256", kid: key.kid })
          .setIssuer(issuer)
          .setAudience(audience)
          .setSubject(operator.id)
          .setIssuedAt()
          .setExpirationTime("5m")
          .sign(privateKey);
      expect((await post(teamsRequest, await sign("another-service", BASE_URL))).status).toBe(401);
      expect((await post(teamsRequest, await sign(m.tokens.TOKEN_AUDIENCE, "https://evil.example"))).status).toBe(401);
      expect((await post(teamsRequest, await sign(m.tokens.TOKEN_AUDIENCE, BASE_URL))).status).toBe(200);
      const [, payload] = (await m.tokens.mintIdentityToken(operator)).split(".");
      const none = `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${payload}.`;
      expect((await post(teamsRequest, none)).status).toBe(401);
    });

    it("a supplier's token whose teams were widened by hand", async () => {
      const token = await m.tokens.mintIdentityToken(supplier);
      const [header, payload, signature] = token.split(".");
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
      const widened = Buffer.from(JSON.stringify({ ...claims, teams: null, typ: "operator" })).toString("base64url");
      expect((await post(teamsRequest, `${header}.${widened}.${signature}`)).status).toBe(401);
    });
  });
});

describe("signing keys", () => {
  it("publishes the public keys only, and a token verifies against them", async () => {
    const response = await m.jwks.loader();
    const { keys } = await response.json();
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key.d).toBeUndefined();
      expect(key).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
    }
    const token = await m.tokens.mintIdentityToken(operator);
    expect(await m.tokens.verifyIdentityToken(token)).toEqual({ userId: operator.id, accountType: "operator", teams: null });
  });

  it("rotates after 30 days, keeps verifying the old key's tokens, and two instances end on one key", async () => {
    const now = new Date();
    const before = await m.tokens.signingKeys(now, { fresh: true });
    const oldToken = await m.tokens.mintIdentityToken(operator, now);
    const later = new Date(now.getTime() + m.tokens.ROTATE_AFTER_MS + 1000);
    // Two instances rotate at once: one key wins, the other's candidate is dropped.
    const repo = app.m.storageIndex.getStorage().signingKeys;
    const candidate = (kid: string) => ({ kid, alg: "ES256" as const, privateJwk: {}, publicJwk: { kid }, created: later.toISOString() });
    const [a, b] = await Promise.all([
      repo.rotate(candidate("instance-a"), later, m.tokens.ROTATE_AFTER_MS, m.tokens.KEEP_KEYS_MS),
      repo.rotate(candidate("instance-b"), later, m.tokens.ROTATE_AFTER_MS, m.tokens.KEEP_KEYS_MS),
    ]);
    expect(a[0].kid).toBe(b[0].kid);
    const after = await repo.list();
    expect(after.map((k) => k.kid)).toEqual([a[0].kid, ...before.map((k) => k.kid)]);
    // The retired key still verifies a token it signed (within its lifetime).
    m.tokens.resetSigningKeyCache();
    expect(await m.tokens.verifyIdentityToken(oldToken, now)).not.toBeNull();
    // Keys older than the keep period are dropped at the next rotation.
    const muchLater = new Date(later.getTime() + m.tokens.KEEP_KEYS_MS);
    const pruned = await repo.rotate(candidate("instance-c"), muchLater, m.tokens.ROTATE_AFTER_MS, m.tokens.KEEP_KEYS_MS);
    expect(pruned.map((k) => k.kid)).toEqual(["instance-c"]);
  });
});
