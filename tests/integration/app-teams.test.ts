/**
 * Teams (issue 3 §1) through the real loaders and actions: rights, unique names, edits with a
 * stale version, status changes with confirmation, the list's URL state, logos.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Team } from "~/domain/types";
import { makePosting, makeTeamData, makeWalletInput } from "../factories";
import { args, BASE_URL, call, getRequest, postRequest, signIn, startApp, type Outcome, type TestApp } from "./app-helpers";

let app: TestApp;
const cookies: Record<string, string> = {};
let routes: {
  list: typeof import("~/routes/teams._index");
  create: typeof import("~/routes/teams.new");
  layout: typeof import("~/routes/teams.$teamId");
  details: typeof import("~/routes/teams.$teamId.settings._index");
  teamIndex: typeof import("~/routes/teams.$teamId._index");
  files: typeof import("~/routes/files.$");
  settingsHub: typeof import("~/routes/settings");
};
let enTeams: Record<string, any>;

const suffix = Math.random().toString(36).slice(2, 8);
// A 1x1 PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

beforeAll(async () => {
  app = await startApp();
  routes = {
    list: await import("~/routes/teams._index"),
    create: await import("~/routes/teams.new"),
    layout: await import("~/routes/teams.$teamId"),
    details: await import("~/routes/teams.$teamId.settings._index"),
    teamIndex: await import("~/routes/teams.$teamId._index"),
    files: await import("~/routes/files.$"),
    settingsHub: await import("~/routes/settings"),
  };
  for (const email of [
    "operator@example.com",
    "retailer.admin@example.com",
    "retailer.viewer@example.com",
    "supplier.admin@example.com",
    "supplier.viewer@example.com",
  ]) {
    cookies[email.split("@")[0]!] = await signIn(app.m, email, app.demoPassword);
  }
  enTeams = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../locales/en-GB/teams.json"), "utf8"));
});
afterAll(async () => {
  await app?.stop();
});

const storage = () => app.m.storageIndex.getStorage();
const withParams = (request: Request, params: Record<string, string>) => ({ ...args(request), params }) as never;

function load(loader: (a: never) => unknown, pathname: string, cookie: string | undefined, params: Record<string, string> = {}) {
  return call(() => loader(withParams(getRequest(pathname, { cookie }), params)));
}

function post(actionFn: (a: never) => unknown, pathname: string, form: Record<string, string>, cookie: string | undefined, params: Record<string, string> = {}) {
  return call(() => actionFn(withParams(postRequest(pathname, form, { cookie }), params)));
}

/** A multipart POST, as the team form sends it (with a logo or without). */
function postMultipart(
  actionFn: (a: never) => unknown,
  pathname: string,
  form: Record<string, string | File>,
  cookie: string | undefined,
  params: Record<string, string> = {},
): Promise<Outcome> {
  const body = new FormData();
  for (const [key, value] of Object.entries(form)) body.append(key, value);
  const request = new Request(new URL(pathname, BASE_URL), { method: "POST", body, headers: cookie ? { Cookie: cookie } : {} });
  return call(() => actionFn(withParams(request, params)));
}

function teamForm(name: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    intent: "create-team",
    name,
    account_type: "brand",
    contact: "Jane Doe",
    address: "1 rue de la Paix",
    zip_code: "75002",
    city: "Paris",
    state: "Île-de-France",
    country: "France",
    tags: "Spring Sale, key account",
    associated_brands: "Zeta, Zeta Kids",
    marketplace_seller_id: "MS-42",
    external_id: "EXT-1",
    ...extra,
  };
}

async function teamCount(): Promise<number> {
  return app.m.storageIndex.getDocumentStoreForTests().count("team");
}

function filesUnder(teamId: string): string[] {
  const dir = path.join(app.dir, "files", "teams", teamId);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

function allFiles(): string[] {
  const root = path.join(app.dir, "files");
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => d.name);
}

async function createViaForm(name: string, cookie = cookies.operator!, extra: Record<string, string | File> = {}): Promise<Team> {
  const outcome = await postMultipart(routes.create.action, "/teams/new", { ...teamForm(name), ...extra }, cookie);
  expect(outcome.status, JSON.stringify(outcome.data)).toBe(302);
  const id = /^\/teams\/([^/]+)\/settings$/.exec(outcome.location!)?.[1];
  expect(id).toBeTruthy();
  return (await storage().teams.getOne(id!))!;
}

describe("who may manage teams", () => {
  it.each([["retailer.viewer"], ["supplier.admin"], ["supplier.viewer"]])("sends %s away from /teams and /teams/new", async (who) => {
    for (const loader of [routes.list.loader, routes.create.loader]) {
      const outcome = await load(loader, "/teams", cookies[who]);
      expect(outcome.status).toBe(302);
      expect(outcome.location).toBe("/not-authorized");
    }
  });

  it.each([["retailer.viewer"], ["supplier.admin"], ["supplier.viewer"]])("refuses the create action of %s and creates nothing", async (who) => {
    const before = await teamCount();
    const outcome = await postMultipart(routes.create.action, "/teams/new", teamForm(`Forged ${suffix} ${who}`), cookies[who]);
    expect([302, 403]).toContain(outcome.status);
    if (outcome.status === 302) expect(outcome.location).toBe("/not-authorized");
    expect(await teamCount()).toBe(before);
  });

  it("refuses a status change forged by a supplier on the list", async () => {
    const outcome = await post(routes.list.action, "/teams?index", { intent: "change-statuses", teamId: "acme-brand", status: "archived", confirmed: "yes" }, cookies["supplier.admin"]);
    expect(outcome.location).toBe("/not-authorized");
    expect((await storage().teams.getOne("acme-brand"))!.status).toBe("active");
  });

  it("answers a supplier admin's forged edit of their own team with 403 and changes nothing", async () => {
    const before = await storage().teams.getOne("acme-brand");
    const outcome = await postMultipart(
      routes.details.action,
      "/teams/acme-brand/settings?index",
      { ...teamForm("Acme Renamed"), intent: "update-team", version: String(before!.version) },
      cookies["supplier.admin"],
      { teamId: "acme-brand" },
    );
    expect(outcome.status).toBe(403);
    expect(outcome.data).toEqual({ error: "errors.insufficientPermissions" });
    expect(await storage().teams.getOne("acme-brand")).toEqual(before);
  });

  it("opens /teams to retailer admins and operators, with the demo team", async () => {
    for (const who of ["retailer.admin", "operator"]) {
      const outcome = await load(routes.list.loader, "/teams", cookies[who]);
      expect(outcome.status).toBe(200);
      expect(outcome.data.canCreate).toBe(true);
      expect(outcome.data.rows.map((r: { name: string }) => r.name)).toContain("Acme Brand");
      const acme = outcome.data.rows.find((r: { id: string }) => r.id === "acme-brand");
      expect(acme).toMatchObject({ status: "active", account_type: "brand", role: "ADMIN", liveCampaigns: 0, walletCount: expect.any(Number) });
    }
  });

  it("links the settings hub to /teams and /users for those who may read them", async () => {
    expect((await load(routes.settingsHub.loader, "/settings", cookies["retailer.admin"])).data.hub).toEqual({ teams: true, users: true });
    expect((await load(routes.settingsHub.loader, "/settings", cookies.operator)).data.hub).toEqual({ teams: true, users: true });
  });
});

describe("creating and editing a team", () => {
  it("creates a team with every field, audited, and opens its settings", async () => {
    const before = await teamCount();
    const outcome = await postMultipart(
      routes.create.action,
      "/teams/new",
      teamForm(`Zeta Foods ${suffix}`, { internalBilling: "on", account_type: "marketplace_seller" }),
      cookies["retailer.admin"],
    );
    expect(outcome.status).toBe(302);
    expect(outcome.headers.getSetCookie().some((c) => c.startsWith("toast="))).toBe(true);
    expect(await teamCount()).toBe(before + 1);
    const id = outcome.location!.split("/")[2]!;
    expect(id).toMatch(new RegExp(`^zeta-foods-${suffix}-[a-z0-9]{6}$`));
    const team = (await storage().teams.getOne(id))!;
    expect(team).toMatchObject({
      name: `Zeta Foods ${suffix}`,
      status: "active",
      account_type: "marketplace_seller",
      contact: "Jane Doe",
      address: "1 rue de la Paix",
      zip_code: "75002",
      city: "Paris",
      state: "Île-de-France",
      country: "France",
      logo: null,
      tags: ["internal billing", "spring sale", "key account"],
      associated_brands: ["Zeta", "Zeta Kids"],
      marketplace_seller_id: "MS-42",
      external_id: "EXT-1",
    });
    const audit = await storage().audit.list({ teamId: id });
    expect(audit.items.some((e) => e.action === "create" && e.entity === "team" && e.by === "retailer.admin@example.com")).toBe(true);
  });

  it("refuses a second team with the same name, whatever its case and accents ('This team already exists')", async () => {
    expect(enTeams.validation.alreadyExists).toBe("This team already exists");
    await createViaForm(`Crème Brûlée ${suffix}`);
    const before = await teamCount();
    for (const name of [`Crème Brûlée ${suffix}`, `CREME BRULEE ${suffix}`, `  crème   brûlée ${suffix} `]) {
      const outcome = await postMultipart(routes.create.action, "/teams/new", teamForm(name), cookies.operator);
      expect(outcome.status, name).toBe(400);
      expect(outcome.data.result.error.name).toEqual(["teams:validation.alreadyExists"]);
      // The user's input comes back to the form.
      expect(outcome.data.result.initialValue.contact).toBe("Jane Doe");
    }
    expect(await teamCount()).toBe(before);
  });

  it("refuses an account type this configuration does not allow, and a missing name", async () => {
    const before = await teamCount();
    const agency = await postMultipart(routes.create.action, "/teams/new", teamForm(`Agency ${suffix}`, { account_type: "agency" }), cookies.operator);
    expect(agency.status).toBe(400);
    expect(agency.data.result.error.account_type).toEqual(["teams:validation.accountType"]);
    const unnamed = await postMultipart(routes.create.action, "/teams/new", teamForm("   "), cookies.operator);
    expect(unnamed.status).toBe(400);
    expect(unnamed.data.result.error.name).toEqual(["validation.required"]);
    expect(await teamCount()).toBe(before);
  });

  it("keeps names unique on rename, and frees the old name", async () => {
    const first = await createViaForm(`Alpha ${suffix}`);
    const second = await createViaForm(`Beta ${suffix}`);
    const params = { teamId: second.id };
    const clash = await postMultipart(
      routes.details.action,
      `/teams/${second.id}/settings?index`,
      { ...teamForm(`ALPHA ${suffix}`), intent: "update-team", version: String(second.version) },
      cookies.operator,
      params,
    );
    expect(clash.status).toBe(400);
    expect(clash.data.result.error.name).toEqual(["teams:validation.alreadyExists"]);
    expect((await storage().teams.getOne(second.id))!.name).toBe(`Beta ${suffix}`);

    const renamed = await postMultipart(
      routes.details.action,
      `/teams/${second.id}/settings?index`,
      { ...teamForm(`Gamma ${suffix}`), intent: "update-team", version: String(second.version) },
      cookies.operator,
      params,
    );
    expect(renamed.status).toBe(302);
    expect(renamed.location).toBe(`/teams/${second.id}/settings`);
    expect((await storage().teams.getOne(second.id))!.name).toBe(`Gamma ${suffix}`);
    // Beta is free again; Alpha is still taken.
    await createViaForm(`Beta ${suffix}`);
    expect((await postMultipart(routes.create.action, "/teams/new", teamForm(`alpha ${suffix}`), cookies.operator)).status).toBe(400);
    expect(first.name).toBe(`Alpha ${suffix}`);
  });

  it("saves details and status loaded before money moved on the team's wallet; a second editor of the same version is refused", async () => {
    const team = await createViaForm(`Busy ${suffix}`);
    const params = { teamId: team.id };
    const wallet = await storage().wallets.create(team.id, { label: "Main", currency: "EUR", status: "active", dailyBudget: null, budgetEditing: true, external_id: "", tags: [] } as never, { by: "system" });
    const loaded = (await storage().teams.getOne(team.id))!;
    // A credit and a settlement debit write the team's balance totals (its version goes up).
    await storage().ledger.post({ walletId: wallet.id, type: "credit", amount: 5000, reference: "PO-1", comment: "", by: "system", idempotencyKey: `c-${suffix}` } as never, new Date());
    await storage().ledger.post({ walletId: wallet.id, type: "debit", amount: 23, reference: "Ad spend", comment: "", by: "system", idempotencyKey: `d-${suffix}` } as never, new Date());
    expect((await storage().teams.getOne(team.id))!.version).toBeGreaterThan(loaded.version);
    const edit = (contact: string, who: string) =>
      postMultipart(routes.details.action, `/teams/${team.id}/settings?index`, { ...teamForm(`Busy ${suffix}`), contact, intent: "update-team", version: String(loaded.version) }, cookies[who], params);
    expect((await edit("First manager", "operator")).status).toBe(302);
    const second = await edit("Second manager", "retailer.admin");
    expect(second.status).toBe(409);
    expect(second.data.result.error[""]).toEqual(["errors.conflict"]);
    expect((await storage().teams.getOne(team.id))!.contact).toBe("First manager");
    // The status form, loaded after that save, still saves after another posting.
    const saved = (await storage().teams.getOne(team.id))!;
    await storage().ledger.post({ walletId: wallet.id, type: "credit", amount: 100, reference: "PO-2", comment: "", by: "system", idempotencyKey: `e-${suffix}` } as never, new Date());
    const status = await post(routes.details.action, `/teams/${team.id}/settings?index`, { intent: "change-status", version: String(saved.version), status: "suspended", confirmed: "yes" }, cookies.operator, params);
    expect(status.status).toBe(302);
    expect((await storage().teams.getOne(team.id))!.status).toBe("suspended");
  });

  it("answers an edit made on a stale version with a conflict, keeping the input and the stored team", async () => {
    const team = await createViaForm(`Stale ${suffix}`);
    const params = { teamId: team.id };
    await storage().teams.update(team.id, { contact: "Someone else" }, { by: "other@example.com" });
    const outcome = await postMultipart(
      routes.details.action,
      `/teams/${team.id}/settings?index`,
      { ...teamForm(`Stale ${suffix}`), contact: "My change", intent: "update-team", version: String(team.version) },
      cookies.operator,
      params,
    );
    expect(outcome.status).toBe(409);
    expect(outcome.data.result.error[""]).toEqual(["errors.conflict"]);
    expect(outcome.data.result.initialValue.contact).toBe("My change");
    expect((await storage().teams.getOne(team.id))!.contact).toBe("Someone else");
  });
});

describe("status changes", () => {
  it("suspends only with the confirmation, audited", async () => {
    const team = await createViaForm(`Suspend Me ${suffix}`);
    const params = { teamId: team.id };
    const unconfirmed = await post(
      routes.details.action,
      `/teams/${team.id}/settings?index`,
      { intent: "change-status", version: String(team.version), status: "suspended" },
      cookies["retailer.admin"],
      params,
    );
    expect(unconfirmed.status).toBe(400);
    expect((await storage().teams.getOne(team.id))!.status).toBe("active");

    const confirmed = await post(
      routes.details.action,
      `/teams/${team.id}/settings?index`,
      { intent: "change-status", version: String(team.version), status: "suspended", confirmed: "yes" },
      cookies["retailer.admin"],
      params,
    );
    expect(confirmed.status).toBe(302);
    expect(confirmed.location).toBe(`/teams/${team.id}/settings`);
    expect((await storage().teams.getOne(team.id))!.status).toBe("suspended");
    const audit = await storage().audit.list({ teamId: team.id });
    expect(audit.items.some((e) => e.changes.some((c) => c.field === "status" && c.before === "active" && c.after === "suspended"))).toBe(true);
    // Suspended teams stay listed.
    const list = await load(routes.list.loader, `/teams?q=${encodeURIComponent(`Suspend Me ${suffix}`)}`, cookies["retailer.admin"]);
    expect(list.data.rows.map((r: { id: string }) => r.id)).toEqual([team.id]);
  });

  it("archives: the retailer loses sight of the team, the operator finds it through the filter and restores it", async () => {
    const team = await createViaForm(`Archive Me ${suffix}`);
    const archived = await post(
      routes.details.action,
      `/teams/${team.id}/settings?index`,
      { intent: "change-status", version: String(team.version), status: "archived", confirmed: "yes" },
      cookies["retailer.admin"],
      { teamId: team.id },
    );
    expect(archived.location).toBe("/teams");
    expect((await load(routes.layout.loader, `/teams/${team.id}`, cookies["retailer.admin"], { teamId: team.id })).status).toBe(404);
    // A retailer asking for archived teams gets the default (active and suspended).
    const retailerList = await load(routes.list.loader, `/teams?status=archived&q=${encodeURIComponent(`Archive Me ${suffix}`)}`, cookies["retailer.admin"]);
    expect(retailerList.data.query.status).toBe("");
    expect(retailerList.data.rows).toEqual([]);
    expect(retailerList.data.restorable).toBe(false);
    // ... and cannot restore it.
    const refused = await post(routes.list.action, "/teams?index", { intent: "restore-team", teamId: team.id, confirmed: "yes" }, cookies["retailer.admin"]);
    expect(refused.status).toBe(404);

    const operatorList = await load(routes.list.loader, `/teams?status=archived&q=${encodeURIComponent(`Archive Me ${suffix}`)}`, cookies.operator);
    expect(operatorList.data.rows.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual([[team.id, "archived"]]);
    expect(operatorList.data.restorable).toBe(true);
    const restored = await post(routes.list.action, "/teams?index&status=archived", { intent: "restore-team", teamId: team.id, confirmed: "yes" }, cookies.operator);
    expect(restored.status).toBe(302);
    expect(restored.location).toBe("/teams?status=archived");
    expect((await storage().teams.getOne(team.id))!.status).toBe("active");
  });

  it("answers 'No team provided' and 'No teams provided' for requests without them", async () => {
    expect(enTeams.errors.noTeam).toBe("No team provided");
    expect(enTeams.errors.noTeams).toBe("No teams provided");
    expect(enTeams.errors.fetchTeams).toBe("Fetch teams");
    const single = await post(routes.list.action, "/teams?index", { intent: "restore-team", confirmed: "yes" }, cookies.operator);
    expect(single.status).toBe(400);
    expect(single.data.error).toBe("teams:errors.noTeam");
    const many = await post(routes.list.action, "/teams?index", { intent: "review-statuses", status: "suspended" }, cookies.operator);
    expect(many.status).toBe(400);
    expect(many.data.error).toBe("teams:errors.noTeams");
  });

  it("refuses a bulk change of over 100 teams or without a status, and a restore without its confirmation", async () => {
    const bulk = (entries: [string, string][]) => {
      const request = new Request(new URL("/teams?index", BASE_URL), {
        method: "POST",
        headers: { Cookie: cookies.operator!, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(entries).toString(),
      });
      return call(() => routes.list.action(withParams(request, {})));
    };
    const many = Array.from({ length: 101 }, (_, i): [string, string] => ["teamId", `team-${i}`]);
    const tooMany = await bulk([["intent", "review-statuses"], ["status", "suspended"], ...many]);
    expect(tooMany.status).toBe(400);
    expect(tooMany.data.error).toBe("teams:errors.tooManyTeams");
    const noStatus = await bulk([["intent", "review-statuses"], ["teamId", "acme-brand"]]);
    expect(noStatus.status).toBe(400);
    expect(noStatus.data.error).toBe("teams:errors.noStatus");
    const team = await createViaForm(`Unconfirmed ${suffix}`);
    const unconfirmed = await post(routes.list.action, "/teams?index", { intent: "restore-team", teamId: team.id }, cookies.operator);
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.data.error).toBe("teams:errors.confirm");
  });

  it("changes several teams after a review step that changes nothing", async () => {
    const a = await createViaForm(`Bulk A ${suffix}`);
    const b = await createViaForm(`Bulk B ${suffix}`);
    const body = new URLSearchParams([
      ["intent", "review-statuses"],
      ["status", "suspended"],
      ["teamId", a.id],
      ["teamId", b.id],
      ["teamId", "no-such-team"],
    ]);
    const reviewRequest = new Request(new URL("/teams?index", BASE_URL), {
      method: "POST",
      headers: { Cookie: cookies["retailer.admin"]!, "Content-Type": "application/x-www-form-urlencoded" },
      body: body.toString(),
    });
    const review = await call(() => routes.list.action(withParams(reviewRequest, {})));
    expect(review.status).toBe(200);
    expect(review.data.review.teams.map((t: { id: string; applies: boolean }) => [t.id, t.applies])).toEqual([
      [a.id, true],
      [b.id, true],
    ]);
    expect((await storage().teams.getOne(a.id))!.status).toBe("active");

    body.set("intent", "change-statuses");
    body.set("confirmed", "yes");
    const confirmRequest = new Request(new URL("/teams?index", BASE_URL), {
      method: "POST",
      headers: { Cookie: cookies["retailer.admin"]!, "Content-Type": "application/x-www-form-urlencoded" },
      body: body.toString(),
    });
    const done = await call(() => routes.list.action(withParams(confirmRequest, {})));
    expect(done.status).toBe(302);
    expect((await storage().teams.getOne(a.id))!.status).toBe("suspended");
    expect((await storage().teams.getOne(b.id))!.status).toBe("suspended");
  });
});

describe("the list's state in the URL", () => {
  const prefix = `Pager${suffix}`;
  const ids: string[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 30; i++) {
      const team = await storage().teams.create(
        makeTeamData({
          name: `${prefix} ${String(i).padStart(2, "0")}`,
          account_type: i % 3 === 0 ? "marketplace_seller" : "brand",
          tags: i % 5 === 0 ? ["internal billing"] : [],
          status: i === 29 ? "suspended" : "active",
        }),
        { by: "system" },
      );
      ids.push(team.id);
    }
  });

  const names = (outcome: Outcome) => outcome.data.rows.map((r: { name: string }) => r.name);

  it("searches by name and pages with a cursor, without overlap", async () => {
    const first = await load(routes.list.loader, `/teams?q=${prefix.toLowerCase()}`, cookies.operator);
    expect(first.data.query.q).toBe(prefix.toLowerCase());
    expect(first.data.rows).toHaveLength(25);
    expect(first.data.next).toBeTruthy();
    expect(names(first)[0]).toBe(`${prefix} 00`);
    const second = await load(routes.list.loader, `/teams?q=${prefix.toLowerCase()}&after=${encodeURIComponent(first.data.next)}`, cookies.operator);
    expect(second.data.query.after).toBe(first.data.next);
    expect(names(second)).toEqual(["25", "26", "27", "28", "29"].map((n) => `${prefix} ${n}`));
    expect(second.data.next).toBeNull();
  });

  it("falls back to the first page on a cursor that is not ours", async () => {
    const outcome = await load(routes.list.loader, `/teams?q=${prefix}&after=not-a-cursor`, cookies.operator);
    expect(outcome.status).toBe(200);
    expect(names(outcome)[0]).toBe(`${prefix} 00`);
  });

  it("sorts by name descending", async () => {
    const outcome = await load(routes.list.loader, `/teams?q=${prefix}&sort=name&dir=desc`, cookies.operator);
    expect(names(outcome).slice(0, 2)).toEqual([`${prefix} 29`, `${prefix} 28`]);
    expect(outcome.data.query).toMatchObject({ sort: "name", dir: "desc" });
  });

  it("filters by account type, tag and status", async () => {
    const sellers = await load(routes.list.loader, `/teams?q=${prefix}&accountType=marketplace_seller`, cookies.operator);
    expect(names(sellers)).toEqual(["00", "03", "06", "09", "12", "15", "18", "21", "24", "27"].map((n) => `${prefix} ${n}`));
    const tagged = await load(routes.list.loader, `/teams?q=${prefix}&tag=${encodeURIComponent("Internal Billing")}`, cookies.operator);
    expect(tagged.data.query.tag).toBe("internal billing");
    expect(names(tagged)).toEqual(["00", "05", "10", "15", "20", "25"].map((n) => `${prefix} ${n}`));
    const suspended = await load(routes.list.loader, `/teams?q=${prefix}&status=suspended`, cookies.operator);
    expect(names(suspended)).toEqual([`${prefix} 29`]);
    const tagOnly = await load(routes.list.loader, `/teams?tag=internal+billing&accountType=marketplace_seller&sort=created&dir=asc`, cookies.operator);
    expect(names(tagOnly)).toEqual(expect.arrayContaining([`${prefix} 00`, `${prefix} 15`]));
    expect(tagOnly.data.rows.every((r: { tags: string[] }) => r.tags.includes("internal billing"))).toBe(true);
  });

  it("says 'Fetch teams' when the list cannot load", async () => {
    const teams = storage().teams;
    const spy = vi.spyOn(teams, "list").mockRejectedValueOnce(new Error("storage down"));
    const quiet = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const outcome = await load(routes.list.loader, "/teams", cookies.operator);
      // Storage is unavailable: 503, and the page says 'Fetch teams'.
      expect(outcome.status).toBe(503);
      expect(outcome.data.failed).toBe("teams:errors.fetchTeams");
      expect(outcome.data.rows).toEqual([]);
    } finally {
      spy.mockRestore();
      quiet.mockRestore();
    }
  });

  it("shows the empty state's data for a search that matches nothing", async () => {
    const outcome = await load(routes.list.loader, `/teams?q=nothing${suffix}zzz`, cookies.operator);
    expect(outcome.status).toBe(200);
    expect(outcome.data.rows).toEqual([]);
    expect(outcome.data.failed).toBeNull();
  });
});

describe("logos", () => {
  it("stores a PNG logo and serves it to those who may see the team only", async () => {
    const team = await createViaForm(`Logo ${suffix}`, cookies.operator, { logo: new File([PNG], "logo.png", { type: "image/png" }) });
    expect(team.logo).toMatch(new RegExp(`^teams/${team.id}/logo-[0-9a-f-]+\\.png$`));
    expect(filesUnder(team.id)).toHaveLength(1);

    const served = (await routes.files.loader(withParams(getRequest(`/files/${team.logo}`, { cookie: cookies.operator }), { "*": team.logo! }))) as Response;
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");
    expect(served.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);

    // A supplier outside the team gets 404, as for a file that does not exist.
    const hidden = await load(routes.files.loader, `/files/${team.logo}`, cookies["supplier.admin"], { "*": team.logo! });
    expect(hidden.status).toBe(404);
    const missing = await load(routes.files.loader, `/files/teams/${team.id}/nothing.png`, cookies.operator, { "*": `teams/${team.id}/nothing.png` });
    expect(missing.status).toBe(404);
    const traversal = await load(routes.files.loader, "/files/teams/../session-secret", cookies.operator, { "*": "teams/../session-secret" });
    expect(traversal.status).toBe(404);

    const layout = await load(routes.layout.loader, `/teams/${team.id}`, cookies.operator, { teamId: team.id });
    expect(layout.data.team.logoUrl).toBe(`/files/${team.logo}`);
  });

  it("replaces and removes a logo, deleting the old file", async () => {
    const team = await createViaForm(`Logo Swap ${suffix}`, cookies.operator, { logo: new File([PNG], "a.png", { type: "image/png" }) });
    const oldKey = team.logo!;
    const replaced = await postMultipart(
      routes.details.action,
      `/teams/${team.id}/settings?index`,
      { ...teamForm(team.name), intent: "update-team", version: String(team.version), logo: new File([PNG], "b.png", { type: "image/png" }) },
      cookies.operator,
      { teamId: team.id },
    );
    expect(replaced.status).toBe(302);
    const after = (await storage().teams.getOne(team.id))!;
    expect(after.logo).not.toBe(oldKey);
    expect(filesUnder(team.id)).toEqual([path.basename(after.logo!)]);

    const removed = await postMultipart(
      routes.details.action,
      `/teams/${team.id}/settings?index`,
      { ...teamForm(team.name), intent: "update-team", version: String(after.version), removeLogo: "on" },
      cookies.operator,
      { teamId: team.id },
    );
    expect(removed.status).toBe(302);
    expect((await storage().teams.getOne(team.id))!.logo).toBeNull();
    expect(filesUnder(team.id)).toEqual([]);
  });

  it.each([
    ["an SVG (it can carry scripts)", new File(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], "logo.svg", { type: "image/svg+xml" }), "teams:validation.logo.badType"],
    ["a text file named .png", new File(["not an image at all"], "logo.png", { type: "image/png" }), "teams:validation.logo.badType"],
    ["a PNG over 1 MB", new File([PNG, new Uint8Array(1024 * 1024)], "big.png", { type: "image/png" }), "teams:validation.logo.tooLarge"],
  ])("refuses %s with a message, and stores nothing", async (_label, file, message) => {
    const before = { count: await teamCount(), files: allFiles() };
    const outcome = await postMultipart(routes.create.action, "/teams/new", { ...teamForm(`Bad Logo ${suffix} ${file.name}`), logo: file }, cookies.operator);
    expect(outcome.status).toBe(400);
    expect(outcome.data.result.error.logo).toEqual([message]);
    expect(outcome.data.result.initialValue.name).toBe(`Bad Logo ${suffix} ${file.name}`);
    expect(await teamCount()).toBe(before.count);
    expect(allFiles()).toEqual(before.files);
  });

  it("refuses a bad logo on edit and leaves the team as it was", async () => {
    const team = await createViaForm(`Logo Keep ${suffix}`);
    const outcome = await postMultipart(
      routes.details.action,
      `/teams/${team.id}/settings?index`,
      { ...teamForm(`Logo Keep Renamed ${suffix}`), intent: "update-team", version: String(team.version), logo: new File(["GIF89a"], "x.gif", { type: "image/gif" }) },
      cookies.operator,
      { teamId: team.id },
    );
    expect(outcome.status).toBe(400);
    expect(outcome.data.result.error.logo).toEqual(["teams:validation.logo.badType"]);
    expect(await storage().teams.getOne(team.id)).toEqual(team);
    expect(filesUnder(team.id)).toEqual([]);
  });
});

describe("team pages", () => {
  let other: Team;
  beforeAll(async () => {
    other = await createViaForm(`Not Yours ${suffix}`);
  });

  it("answers 404 to a supplier asking for another team, on every team page", async () => {
    for (const loader of [routes.layout.loader, routes.details.loader, routes.teamIndex.loader]) {
      const outcome = await load(loader, `/teams/${other.id}`, cookies["supplier.admin"], { teamId: other.id });
      expect(outcome.status).toBe(404);
    }
    const unknown = await load(routes.layout.loader, "/teams/does-not-exist", cookies.operator, { teamId: "does-not-exist" });
    expect(unknown.status).toBe(404);
  });

  it("shows a supplier their own team read-only, without its sensitive data", async () => {
    await storage().teams.update("acme-brand", { tags: ["internal billing"], external_id: "SECRET-1" }, { by: "system" });
    const layout = await load(routes.layout.loader, "/teams/acme-brand", cookies["supplier.viewer"], { teamId: "acme-brand" });
    expect(layout.status).toBe(200);
    expect(layout.data.team.name).toBe("Acme Brand");
    expect(layout.data.team.tags).toBeNull();
    expect(layout.data.team.external_id).toBeNull();
    expect(layout.data.role).toBe("VIEWER");
    expect(layout.data.canListTeams).toBe(false);
    const details = await load(routes.details.loader, "/teams/acme-brand/settings", cookies["supplier.admin"], { teamId: "acme-brand" });
    expect(details.data.canManage).toBe(false);
    expect(JSON.stringify(details.data)).not.toContain("SECRET-1");
    // A retailer viewer reads the details, tags included, without the edit form.
    const viewer = await load(routes.details.loader, "/teams/acme-brand/settings", cookies["retailer.viewer"], { teamId: "acme-brand" });
    expect(viewer.data.canManage).toBe(false);
    expect(viewer.data.team.tags).toEqual(["internal billing"]);
  });

  it("shows a team's money per currency on /teams and the dashboard, never euros and zlotys added up", async () => {
    const team = await storage().teams.create(makeTeamData({ name: `Beta Seller ${suffix}` }), { by: "system" });
    const eur = await storage().wallets.create(team.id, makeWalletInput({ currency: "EUR" }), { by: "system" });
    const pln = await storage().wallets.create(team.id, makeWalletInput({ currency: "PLN" }), { by: "system" });
    await storage().ledger.post(makePosting(eur.id, { amount: 10_000 }), new Date());
    await storage().ledger.post(makePosting(pln.id, { amount: 40_000 }), new Date());
    const expected = [
      { currency: "EUR", balance: 10_000, credit: 10_000 },
      { currency: "PLN", balance: 40_000, credit: 40_000 },
    ];
    const list = await load(routes.list.loader, `/teams?q=${encodeURIComponent(`Beta Seller ${suffix}`)}`, cookies["retailer.admin"]);
    expect(list.data.rows.find((r: { id: string }) => r.id === team.id).totals).toEqual(expected);
    const dashboard = await load(app.m.routes.home.loader, "/?tab=teams", cookies["operator"]);
    const row = dashboard.data.teams.rows.find((r: { id: string }) => r.id === team.id);
    if (row) expect(row.totals).toEqual(expected);
  });

  it("sends /teams/{id} to the campaigns tab", async () => {
    const outcome = await load(routes.teamIndex.loader, "/teams/acme-brand", cookies["supplier.viewer"], { teamId: "acme-brand" });
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe("/teams/acme-brand/campaigns");
  });

  it("lists on the dashboard a supplier's own teams only, and a retailer's active and suspended teams", async () => {
    const supplier = await load(app.m.routes.home.loader, "/", cookies["supplier.admin"]);
    expect(supplier.data.teams.rows.map((r: { id: string }) => r.id)).toEqual(["acme-brand"]);
    expect(supplier.data.teams.rows[0]).toMatchObject({ totals: [{ currency: "EUR", balance: expect.any(Number), credit: expect.any(Number) }], tags: null });
    const retailer = await load(app.m.routes.home.loader, "/", cookies["retailer.admin"]);
    expect(retailer.data.teams.rows.map((r: { id: string }) => r.id)).toContain("acme-brand");
    expect(retailer.data.teams.rows.every((r: { status: string }) => r.status !== "archived")).toBe(true);
  });
});
