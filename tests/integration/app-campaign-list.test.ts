/**
 * The campaign lists (issue 4 §2) through the real route loaders and actions: scope (a supplier
 * sees their teams' campaigns only, a retailer all), filters, search, sort and the cursor in the
 * URL, the team's Campaigns tab, custom views (10 at most, the 11th refused), the bulk edit's
 * review and apply with a failing row, rights (a viewer's bulk edit is refused with 403),
 * duplicate from the list and the new-campaign picker.
 *
 * Campaigns are created through the creation form, with names unique to this file.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTeamData, makeWalletInput } from "../factories";
import { BASE_URL, call, getRequest, postRequest, signIn, startApp, type TestApp, createDraftThroughForm } from "./app-helpers";

let app: TestApp;
let routes: {
  list: typeof import("~/routes/campaigns._index");
  tab: typeof import("~/routes/teams.$teamId.campaigns._index");
  teamIndex: typeof import("~/routes/teams.$teamId._index");
  create: typeof import("~/routes/teams.$teamId.campaigns.new.$type");
  campaign: typeof import("~/routes/campaigns.$campaignId");
  filters: typeof import("~/routes/campaigns.filters");
  tabFilters: typeof import("~/routes/teams.$teamId.campaigns.filters");
};
let t: Awaited<ReturnType<typeof import("~/services/i18n.server").getFixedT>>;
const cookies: Record<string, string> = {};
const TEAM = "acme-brand";
const RUN = randomUUID().slice(0, 6);
const context = { requestId: "t", clientIp: "127.0.0.1" };
let otherTeam: string;
let pagingTeam: string;

const storage = () => app.m.storageIndex.getStorage();
const fresh = async (id: string) => (await storage().campaigns.getOne(id))!;

function run(fn: (a: never) => unknown, request: Request, params: Record<string, string> = {}) {
  return call(() => fn({ request, params, context } as never));
}

/** A POST with repeated fields (checkboxes). */
function postEntries(pathname: string, entries: [string, string][], cookie: string): Request {
  return new Request(new URL(pathname, BASE_URL), {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(entries).toString(),
  });
}

/** Creates a draft through the creation form (as a retailer admin by default); returns its id. */
async function newCampaign(name: string, options: { team?: string; startDay?: string; endDay?: string; type?: string; who?: string } = {}): Promise<string> {
  return createDraftThroughForm(routes.create.action, context, cookies[options.who ?? "retailer.admin"], { team: options.team ?? TEAM, name, type: options.type, startDay: options.startDay, endDay: options.endDay });
}

const loadList = (who: string, query = "") => run(routes.list.loader, getRequest(`/campaigns${query}`, { cookie: cookies[who] }));
const loadTab = (who: string, teamId: string, query = "") =>
  run(routes.tab.loader, getRequest(`/teams/${teamId}/campaigns${query}`, { cookie: cookies[who] }), { teamId });
const listAction = (who: string, entries: [string, string][], query = "") =>
  run(routes.list.action, postEntries(`/campaigns?index${query ? `&${query}` : ""}`, entries, cookies[who]!));
const tabAction = (who: string, teamId: string, entries: [string, string][]) =>
  run(routes.tab.action, postEntries(`/teams/${teamId}/campaigns?index`, entries, cookies[who]!), { teamId });

const names = (outcome: { data: { list: { rows: { name: string }[] } } }) => outcome.data.list.rows.map((r) => r.name);

/** The toast flashed by a redirect. */
async function toastOf(headers: Headers) {
  const cookie = headers.getSetCookie().find((c) => c.startsWith("toast="))?.split(";")[0];
  if (!cookie) return null;
  return (await app.m.toast.getToast(getRequest("/", { cookie }))).toast;
}

beforeAll(async () => {
  app = await startApp();
  routes = {
    list: await import("~/routes/campaigns._index"),
    tab: await import("~/routes/teams.$teamId.campaigns._index"),
    teamIndex: await import("~/routes/teams.$teamId._index"),
    create: await import("~/routes/teams.$teamId.campaigns.new.$type"),
    campaign: await import("~/routes/campaigns.$campaignId"),
    filters: await import("~/routes/campaigns.filters"),
    tabFilters: await import("~/routes/teams.$teamId.campaigns.filters"),
  };
  t = await (await import("~/services/i18n.server")).getFixedT("en-GB");
  for (const email of ["operator@example.com", "retailer.admin@example.com", "retailer.viewer@example.com", "supplier.admin@example.com", "supplier.viewer@example.com"]) {
    cookies[email.split("@")[0]!] = await signIn(app.m, email, app.demoPassword);
  }
  otherTeam = (await storage().teams.create(makeTeamData({ name: `Other Brand ${RUN}` }), { by: "system" })).id;
  pagingTeam = (await storage().teams.create(makeTeamData({ name: `Paging Brand ${RUN}` }), { by: "system" })).id;
});
afterAll(async () => {
  await app?.stop();
});

describe("scope", () => {
  it("shows a supplier only their teams' campaigns, a retailer and an operator all", async () => {
    const own = await newCampaign(`Scope own ${RUN}`);
    const other = await newCampaign(`Scope other ${RUN}`, { team: otherTeam });
    const q = `?q=${encodeURIComponent(`Scope ${RUN}`)}`;

    const supplier = await loadList("supplier.admin", q);
    expect(supplier.status).toBe(200);
    expect(names(supplier)).toEqual([`Scope own ${RUN}`]);
    // The other team offered nowhere, even asked for by URL.
    expect(supplier.data.teamOptions.map((o: { id: string }) => o.id)).toEqual([TEAM]);
    expect(names(await loadList("supplier.admin", `${q}&team=${otherTeam}`))).toEqual([]);
    expect((await loadTab("supplier.admin", otherTeam)).status).toBe(404);

    for (const who of ["retailer.admin", "retailer.viewer", "operator"]) {
      const rows = (await loadList(who, q)).data.list.rows as { id: string; team: { id: string; name: string } }[];
      expect(rows.map((r) => r.id).sort(), who).toEqual([own, other].sort());
      expect(rows.find((r) => r.id === other)!.team.name).toBe(`Other Brand ${RUN}`);
    }
    // The team filter of a retailer.
    expect(names(await loadList("retailer.admin", `${q}&team=${otherTeam}`))).toEqual([`Scope other ${RUN}`]);
  });

  it("offers and applies the wallet filter of a team the user may see, never another team's wallets", async () => {
    const wallet = await storage().wallets.create(otherTeam, makeWalletInput({ label: `Other wallet ${RUN}` }), { by: "system" });
    const withWallet = await newCampaign(`Wallet with ${RUN}`, { team: otherTeam });
    await newCampaign(`Wallet without ${RUN}`, { team: otherTeam });
    await storage().campaigns.update(withWallet, { wallet: wallet.id }, { by: "system" });
    const q = `?q=${encodeURIComponent(`Wallet ${RUN}`)}`;

    const tab = await loadTab("retailer.admin", otherTeam, q);
    expect(tab.data.walletOptions).toEqual([{ id: wallet.id, label: `Other wallet ${RUN}` }]);
    expect(names(await loadTab("retailer.admin", otherTeam, `${q}&wallet=${wallet.id}`))).toEqual([`Wallet with ${RUN}`]);
    expect((await loadList("retailer.admin", `${q}&team=${otherTeam}`)).data.walletOptions).toHaveLength(1);
    const row = (await loadList("retailer.admin", `${q}&wallet=${wallet.id}`)).data.list.rows[0];
    expect(row.wallet).toEqual({ id: wallet.id, label: `Other wallet ${RUN}` });
    // A supplier naming that team gets neither its campaigns nor its wallets.
    const supplier = await loadList("supplier.admin", `${q}&team=${otherTeam}`);
    expect(supplier.data.walletOptions).toEqual([]);
    expect(supplier.data.list.rows).toEqual([]);
  });

  it("gives every column of a row, its live status included", async () => {
    const id = await newCampaign(`Columns ${RUN}`, { startDay: "2030-02-01", endDay: "2030-03-31" });
    const row = (await loadList("retailer.admin", `?q=${encodeURIComponent(`Columns ${RUN}`)}`)).data.list.rows[0];
    expect(row).toMatchObject({
      id,
      name: `Columns ${RUN}`,
      team: { id: TEAM, name: "Acme Brand" },
      campaignType: "sponsored-products",
      liveStatus: "draft",
      wallet: null,
      bidStrategy: expect.any(String),
      start: expect.stringContaining("2030"),
      end: expect.stringContaining("2030"),
      spend: expect.stringContaining("0"),
      by: "retailer.admin@example.com",
      canDuplicate: true,
    });
    const viewer = (await loadList("retailer.viewer", `?q=${encodeURIComponent(`Columns ${RUN}`)}`)).data;
    expect(viewer.list.rows[0].canDuplicate).toBe(false);
    expect(viewer.bulkChoices).toEqual([]);
    expect(viewer.createTeams).toEqual([]);
  });

  it("lists on a team's tab that team's campaigns only, and /teams/{id} opens the tab", async () => {
    await newCampaign(`Tab own ${RUN}`);
    await newCampaign(`Tab other ${RUN}`, { team: otherTeam });
    const tab = await loadTab("supplier.viewer", TEAM, `?q=${encodeURIComponent(`Tab ${RUN}`)}&team=${otherTeam}`);
    expect(tab.status).toBe(200);
    // The URL's team filter is ignored: the tab is the team's.
    expect(names(tab)).toEqual([`Tab own ${RUN}`]);
    expect(tab.data.basePath).toBe(`/teams/${TEAM}/campaigns`);
    const index = await run(routes.teamIndex.loader, getRequest(`/teams/${TEAM}`, { cookie: cookies["supplier.viewer"] }), { teamId: TEAM });
    expect(index.location).toBe(`/teams/${TEAM}/campaigns`);
  });
});

describe("the filters page (statuses, columns and period without JavaScript)", () => {
  it("opens with the list's choices and its way back; a team's tab only for a team the user may see", async () => {
    const query = "?q=Keep&status=paused&columns=name&columns=displays&period=last7&after=cursor";
    const page = await run(routes.filters.loader, getRequest(`/campaigns/filters${query}`, { cookie: cookies["supplier.admin"] }));
    expect(page.status).toBe(200);
    expect(page.data.state).toMatchObject({ q: "Keep", statuses: ["paused"], columns: ["name", "displays"], period: "last7", after: null });
    expect(page.data.basePath).toBe("/campaigns");
    expect(page.data.listHref).toBe("/campaigns?status=paused&q=Keep&columns=name&columns=displays&period=last7");
    const tab = await run(routes.tabFilters.loader, getRequest(`/teams/${TEAM}/campaigns/filters${query}`, { cookie: cookies["supplier.admin"] }), { teamId: TEAM });
    expect(tab.status).toBe(200);
    expect(tab.data.basePath).toBe(`/teams/${TEAM}/campaigns`);
    // Another supplier's team: not found, as its list is.
    expect((await run(routes.tabFilters.loader, getRequest(`/teams/${otherTeam}/campaigns/filters`, { cookie: cookies["supplier.admin"] }), { teamId: otherTeam })).status).toBe(404);
    // Signed out: to the sign-in page.
    expect((await run(routes.filters.loader, getRequest("/campaigns/filters"))).status).toBe(302);
  });

  it("sends the list page's rows with the figures of the columns shown only", async () => {
    await newCampaign(`Figures ${RUN}`);
    const list = await loadList("retailer.admin", `?q=${encodeURIComponent(`Figures ${RUN}`)}&columns=name&columns=clicks&columns=roas`);
    expect(list.data.list.rows).toHaveLength(1);
    expect(Object.keys(list.data.list.rows[0].figures).sort()).toEqual(["clicks", "roas"]);
  });
});

describe("filters, search, sort and pages in the URL", () => {
  it("filters by type, stored status, start dates and search, and sorts", async () => {
    const tag = `Filt${RUN}`;
    const a = await newCampaign(`${tag} Alpha`, { startDay: "2031-01-10" });
    const b = await newCampaign(`${tag} Bravo`, { startDay: "2031-02-10", type: "banner-ads" });
    const c = await newCampaign(`${tag} Charlie`, { startDay: "2031-03-10" });
    await storage().campaigns.update(c, { status: "paused" }, { by: "system" });
    const q = `?q=${tag}`;

    expect(names(await loadList("retailer.admin", `${q}&sort=name`))).toEqual([`${tag} Alpha`, `${tag} Bravo`, `${tag} Charlie`]);
    expect(names(await loadList("retailer.admin", `${q}&sort=name&dir=desc`))).toEqual([`${tag} Charlie`, `${tag} Bravo`, `${tag} Alpha`]);
    expect(names(await loadList("retailer.admin", `${q}&type=banner-ads`))).toEqual([`${tag} Bravo`]);
    expect(names(await loadList("retailer.admin", `${q}&status=paused`))).toEqual([`${tag} Charlie`]);
    expect(names(await loadList("retailer.admin", `${q}&status=draft&status=paused&sort=name`))).toEqual([`${tag} Alpha`, `${tag} Bravo`, `${tag} Charlie`]);
    // Start days in the retailer's time zone, both included; the range orders by start date.
    const ranged = await loadList("retailer.admin", `${q}&startFrom=2031-02-10&startTo=2031-03-10&sort=name&dir=desc`);
    expect(names(ranged)).toEqual([`${tag} Bravo`, `${tag} Charlie`]);
    expect(ranged.data.list.sort).toBe("startDate");
    // Unknown values are dropped; the state is given back for the form and links.
    const odd = await loadList("retailer.admin", `${q}&type=nope&status=nope&sort=nope&columns=spend&columns=name`);
    expect(odd.data.state).toMatchObject({ type: null, statuses: [], sort: "updated", columns: ["name", "spend"] });
    expect(odd.data.query).toBe(`q=${tag}&columns=name&columns=spend`);
    expect(names(odd).sort()).toEqual([`${tag} Alpha`, `${tag} Bravo`, `${tag} Charlie`]);
    expect([a, b].length).toBe(2);
  });

  it("filters by live status on the page, and says so when rows are left out", async () => {
    const tag = `Live${RUN}`;
    await newCampaign(`${tag} draft`);
    const scheduled = await newCampaign(`${tag} scheduled`, { startDay: "2032-01-01" });
    await storage().campaigns.update(scheduled, { status: "active", bid: 50 }, { by: "system" });
    const outcome = await loadList("retailer.admin", `?q=${tag}&live=scheduled`);
    expect(names(outcome)).toEqual([`${tag} scheduled`]);
    expect(outcome.data.list.rows[0].liveStatus).toBe("scheduled");
    expect((await loadList("retailer.admin", `?q=${tag}&live=running`)).data.list.rows).toEqual([]);
    // A stored status or a live status: either matches.
    expect(names(await loadList("retailer.admin", `?q=${tag}&live=scheduled&status=draft&sort=name`))).toEqual([`${tag} draft`, `${tag} scheduled`]);
  });

  it("pages with a cursor; a broken cursor opens the first page", async () => {
    const created: string[] = [];
    for (let i = 0; i < 27; i++) created.push(await newCampaign(`Page ${RUN} ${String(i).padStart(2, "0")}`, { team: pagingTeam }));
    const first = await loadList("retailer.admin", `?team=${pagingTeam}&sort=name`);
    expect(first.data.list.rows).toHaveLength(25);
    expect(first.data.list.next).toEqual(expect.any(String));
    const second = await loadList("retailer.admin", `?team=${pagingTeam}&sort=name&after=${encodeURIComponent(first.data.list.next)}`);
    expect(names(second)).toEqual([`Page ${RUN} 25`, `Page ${RUN} 26`]);
    expect(second.data.list.next).toBeNull();
    expect(new Set([...names(first), ...names(second)]).size).toBe(27);
    const broken = await loadList("retailer.admin", `?team=${pagingTeam}&sort=name&after=not-a-cursor`);
    expect(broken.status).toBe(200);
    expect(names(broken)[0]).toBe(`Page ${RUN} 00`);
    // The tab pages the same way.
    const tab = await loadTab("retailer.admin", pagingTeam, "?sort=name&dir=desc");
    expect(names(tab)[0]).toBe(`Page ${RUN} 26`);
    expect(created).toHaveLength(27);
  });
});

describe("custom views", () => {
  it("saves up to 10 views; the 11th is refused with a message naming the limit", async () => {
    const user = await app.createUser({ claims: { type: "retailer", role: "VIEWER" }, roleByTeam: {} });
    cookies.viewsUser = await signIn(app.m, user.email, user.password);
    const saved = await listAction("viewsUser", [["intent", "save-view"], ["name", "Paused by name"], ["query", "status=paused&sort=name&after=abc&columns=name&columns=spend"]]);
    expect(saved.status).toBe(302);
    expect(saved.location).toBe("/campaigns");
    expect((await toastOf(saved.headers))?.title).toBe("campaignList:toast.viewSaved");
    const page = await loadList("viewsUser");
    expect(page.data.views).toEqual([
      expect.objectContaining({ name: "Paused by name", query: "status=paused&sort=name&columns=name&columns=spend", href: "/campaigns?status=paused&sort=name&columns=name&columns=spend" }),
    ]);
    // The same name again is refused.
    const twice = await listAction("viewsUser", [["intent", "save-view"], ["name", "paused BY name"], ["query", ""]]);
    expect(twice.status).toBe(400);
    expect(twice.data.error.message).toBe("campaignList:views.nameTaken");
    for (let i = 2; i <= 10; i++) {
      expect((await listAction("viewsUser", [["intent", "save-view"], ["name", `View ${i}`], ["query", `q=v${i}`]])).status).toBe(302);
    }
    const eleventh = await listAction("viewsUser", [["intent", "save-view"], ["name", "View 11"], ["query", "q=v11"]]);
    expect(eleventh.status).toBe(400);
    expect(eleventh.data).toMatchObject({ kind: "view-error", error: { form: "save-view", message: "campaignList:views.limit", values: { limit: 10 } } });
    expect(t(eleventh.data.error.message, eleventh.data.error.values)).toBe("You can keep up to 10 custom views. Delete one to save another.");
    expect((await loadList("viewsUser")).data.views).toHaveLength(10);
  });

  it("renames and deletes a view (confirmed), only the user's own", async () => {
    const user = await app.createUser({ claims: { type: "supplier", role: "ADMIN" }, roleByTeam: { [TEAM]: "ADMIN" } });
    cookies.renamer = await signIn(app.m, user.email, user.password);
    await listAction("renamer", [["intent", "save-view"], ["name", "Mine"], ["query", "type=banner-ads"]]);
    await listAction("renamer", [["intent", "save-view"], ["name", "Second"], ["query", ""]]);
    const [mine] = (await loadList("renamer")).data.views as { id: string; name: string }[];
    expect(mine!.name).toBe("Mine");

    const taken = await listAction("renamer", [["intent", "rename-view"], ["viewId", mine!.id], ["name", "second"]]);
    expect(taken.status).toBe(400);
    expect(taken.data.error).toMatchObject({ form: "rename-view", viewId: mine!.id, message: "campaignList:views.nameTaken" });
    const renamed = await listAction("renamer", [["intent", "rename-view"], ["viewId", mine!.id], ["name", "Banners"]], "type=banner-ads");
    expect(renamed.status).toBe(302);
    expect(renamed.location).toBe("/campaigns?type=banner-ads");
    expect((await storage().campaignViews.getOne(mine!.id))!.name).toBe("Banners");

    // Another user's view: 404, untouched.
    expect((await listAction("retailer.admin", [["intent", "rename-view"], ["viewId", mine!.id], ["name", "Hijacked"]])).status).toBe(404);
    expect((await listAction("retailer.admin", [["intent", "delete-view"], ["viewId", mine!.id], ["confirmed", "yes"]])).status).toBe(404);
    // Deleting asks for the confirmation.
    expect((await listAction("renamer", [["intent", "delete-view"], ["viewId", mine!.id]])).status).toBe(400);
    const deleted = await listAction("renamer", [["intent", "delete-view"], ["viewId", mine!.id], ["confirmed", "yes"]]);
    expect(deleted.status).toBe(302);
    expect(await storage().campaignViews.getOne(mine!.id)).toBeNull();
    expect((await loadList("renamer")).data.views.map((v: { name: string }) => v.name)).toEqual(["Second"]);
  });

  it("saves a view from a team's tab as a /campaigns link filtered on the team", async () => {
    const user = await app.createUser({ claims: { type: "retailer", role: "EDITOR" }, roleByTeam: {} });
    cookies.tabViews = await signIn(app.m, user.email, user.password);
    const saved = await tabAction("tabViews", otherTeam, [["intent", "save-view"], ["name", "Other team"], ["query", "status=draft&team=elsewhere"]]);
    expect(saved.status).toBe(302);
    expect(saved.location).toBe(`/teams/${otherTeam}/campaigns`);
    const [view] = (await loadTab("tabViews", otherTeam)).data.views;
    expect(view.href).toBe(`/campaigns?status=draft&team=${otherTeam}`);
  });
});

describe("bulk edit", () => {
  it("reviews a new end date (one campaign refuses it), then saves the others and reports each", async () => {
    const tag = `Bulk${RUN}`;
    const early = await newCampaign(`${tag} early`, { startDay: "2030-01-01" });
    const late = await newCampaign(`${tag} late`, { startDay: "2030-09-01" });
    const change: [string, string][] = [["change", "endDay"], ["endDay", "2030-06-30"]];

    const review = await listAction("supplier.admin", [["intent", "bulk-review"], ["campaignId", early], ["campaignId", late], ...change]);
    expect(review.status).toBe(200);
    expect(review.data.kind).toBe("bulk-review");
    expect(review.data.review.summary).toEqual({ changed: 1, refused: 1, unchanged: 0 });
    const [r1, r2] = review.data.review.rows;
    expect(r1).toMatchObject({ id: early, ok: true, changed: true, before: null, after: { kind: "text", text: expect.stringContaining("2030") } });
    expect(r2).toMatchObject({ id: late, ok: false, reason: "campaigns:form.endBeforeStart" });
    // Nothing saved by the review.
    expect((await fresh(early)).endDate).toBeNull();

    const apply = await listAction("supplier.admin", [
      ["intent", "bulk-apply"],
      ...change,
      ["campaignId", early],
      ["version." + early, String(r1.version)],
      ["campaignId", late],
      ["version." + late, String(r2.version)],
    ]);
    expect(apply.status).toBe(200);
    expect(apply.data.kind).toBe("bulk-result");
    expect(apply.data.result.summary).toEqual({ saved: 1, failed: 1, unchanged: 0 });
    expect(apply.data.result.rows.map((r: { id: string; outcome: string }) => [r.id, r.outcome])).toEqual([
      [early, "saved"],
      [late, "failed"],
    ]);
    expect(apply.data.result.rows[1].reason).toBe("campaigns:form.endBeforeStart");
    expect((await fresh(early)).endDate).toBe("2030-06-30T21:59:59.999Z");
    expect((await fresh(late)).endDate).toBeNull();
    // Audited as the user.
    expect((await fresh(early)).by).toBe("supplier.admin@example.com");

    // Applying the same confirmation again changes nothing: the saved one moved on (a conflict).
    const again = await listAction("supplier.admin", [
      ["intent", "bulk-apply"],
      ...change,
      ["campaignId", early],
      ["version." + early, String(r1.version)],
    ]);
    expect(again.data.result.rows[0]).toMatchObject({ outcome: "failed", reason: "errors.conflict" });
  });

  it("runs a status action where the actions table allows it, and reports the others", async () => {
    const tag = `Pause${RUN}`;
    const active = await newCampaign(`${tag} active`);
    const draft = await newCampaign(`${tag} draft`);
    await storage().campaigns.update(active, { status: "active", bid: 50 }, { by: "system" });
    const ids: [string, string][] = [["campaignId", active], ["campaignId", draft]];
    const review = await tabAction("retailer.admin", TEAM, [["intent", "bulk-review"], ["change", "action:pause"], ...ids]);
    expect(review.data.review.rows.map((r: { ok: boolean; reason: string | null }) => [r.ok, r.reason])).toEqual([
      [true, null],
      [false, "campaigns:actions.notAllowed"],
    ]);
    const versions = review.data.review.rows.map((r: { id: string; version: number }) => [`version.${r.id}`, String(r.version)] as [string, string]);
    const apply = await tabAction("retailer.admin", TEAM, [["intent", "bulk-apply"], ["change", "action:pause"], ...ids, ...versions]);
    expect(apply.data.result.rows.map((r: { outcome: string }) => r.outcome)).toEqual(["saved", "failed"]);
    expect((await fresh(active)).status).toBe("paused");
    expect((await fresh(draft)).status).toBe("draft");
  });

  it("refuses a bid under the minimum per campaign with the limit in the message", async () => {
    const id = await newCampaign(`Bid${RUN}`);
    const review = await listAction("retailer.admin", [["intent", "bulk-review"], ["change", "bid"], ["bid", "0.01"], ["campaignId", id]]);
    const [row] = review.data.review.rows;
    expect(row.ok).toBe(false);
    expect(row.reason).toMatch(/^campaigns:bidding\.minBid::/);
    const [key, json] = row.reason.split("::");
    expect(t(key, JSON.parse(json))).toMatch(/^Minimum allowed bid: €0\.15$/);
    const ok = await listAction("retailer.admin", [["intent", "bulk-review"], ["change", "bid"], ["bid", "1.20"], ["campaignId", id]]);
    expect(ok.data.review.rows[0]).toMatchObject({ ok: true, changed: true, after: { kind: "text", text: "€1.20" } });
  });

  it("refuses a viewer's bulk edit with 403, and another team's campaign with 404", async () => {
    const id = await newCampaign(`Rights${RUN}`);
    const other = await newCampaign(`Rights other ${RUN}`, { team: otherTeam });
    for (const who of ["retailer.viewer", "supplier.viewer"]) {
      const outcome = await listAction(who, [["intent", "bulk-review"], ["change", "action:archive"], ["campaignId", id]]);
      expect(outcome.status, who).toBe(403);
      expect(outcome.data.error).toBe("errors.insufficientPermissions");
    }
    const applied = await listAction("retailer.viewer", [["intent", "bulk-apply"], ["change", "action:archive"], ["campaignId", id], [`version.${id}`, "1"]]);
    expect(applied.status).toBe(403);
    expect((await fresh(id)).status).toBe("draft");
    // A supplier admin names a campaign of a team they are not on.
    expect((await listAction("supplier.admin", [["intent", "bulk-review"], ["change", "action:archive"], ["campaignId", other]])).status).toBe(404);
    // On a team's tab, a campaign of another team.
    expect((await tabAction("retailer.admin", TEAM, [["intent", "bulk-review"], ["change", "action:archive"], ["campaignId", other]])).status).toBe(404);
    // Nothing selected, or no change chosen.
    const none = await listAction("retailer.admin", [["intent", "bulk-review"], ["change", "action:archive"]]);
    expect(none.status).toBe(400);
    expect(none.data.errors).toContain("campaignList:bulk.noneSelected");
    expect((await listAction("retailer.admin", [["intent", "bulk-review"], ["campaignId", id]])).data.errors).toContain("campaignList:bulk.chooseChange");
  });
});

describe("duplicate and new campaign", () => {
  it("duplicates a row through the editor's action: a new draft, no toast", async () => {
    const id = await newCampaign(`Dup${RUN}`);
    const outcome = await run(routes.campaign.action, postRequest(`/campaigns/${id}`, { intent: "duplicate-campaign" }, { cookie: cookies["retailer.admin"] }), { campaignId: id });
    expect(outcome.status).toBe(302);
    const copyId = outcome.location!.split("/").pop()!;
    expect(copyId).not.toBe(id);
    expect(await toastOf(outcome.headers)).toBeNull();
    expect((await fresh(copyId)).status).toBe("draft");
    expect(names(await loadList("retailer.admin", `?q=Dup${RUN}&sort=name`))).toEqual([`Dup${RUN}`, `Dup${RUN} (copy)`]);
  });

  it("sends the new-campaign picker to the team's creation page, for users who may create there", async () => {
    const outcome = await loadList("retailer.admin", `?newTeam=${TEAM}&newType=banner-ads`);
    expect(outcome.location).toBe(`/teams/${TEAM}/campaigns/new/banner-ads`);
    expect((await loadList("supplier.admin", `?newTeam=${TEAM}&newType=nope`)).location).toBe(`/teams/${TEAM}/campaigns/new/sponsored-products`);
    expect((await loadList("retailer.viewer", `?newTeam=${TEAM}`)).status).toBe(403);
    expect((await loadList("supplier.admin", `?newTeam=${otherTeam}`)).status).toBe(404);
    const page = await loadList("supplier.admin");
    expect(page.data.createTeams).toEqual([{ id: TEAM, name: "Acme Brand" }]);
    expect(page.data.types).toEqual(["sponsored-products", "banner-ads"]);
  });
});
