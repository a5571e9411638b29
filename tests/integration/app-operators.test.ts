/**
 * The operators' tools (issue 12, section 2) through the real loaders and actions on a temporary
 * SQLite database: 'Log as' with its refusals and both identities in the audit, the session's
 * role step-down with a forged step-up refused.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { args, call, CookieJar, createDraftThroughForm, getRequest, postRequest, readOutbox, signIn, startApp, type TestApp } from "./app-helpers";

let app: TestApp;
let routes: {
  user: typeof import("~/routes/users.$userId");
  users: typeof import("~/routes/users._index");
  logAs: typeof import("~/routes/log-as");
  sessionRole: typeof import("~/routes/session-role");
  audit: typeof import("~/services/audit.server");
  retailer: typeof import("~/routes/settings_.retailer");
  members: typeof import("~/routes/teams.$teamId.settings.members");
  invitation: typeof import("~/routes/invitation");
  newCampaign: typeof import("~/routes/teams.$teamId.campaigns.new.$type");
  wallets: typeof import("~/routes/teams.$teamId.wallets");
  teamSettings: typeof import("~/routes/teams.$teamId.settings._index");
  report: typeof import("~/routes/reports.$reportId._index");
  campaign: typeof import("~/routes/campaigns.$campaignId");
  general: typeof import("~/routes/campaigns.$campaignId._index");
  campaignList: typeof import("~/routes/campaigns._index");
  wallet: typeof import("~/routes/teams.$teamId.wallets_.$walletId");
  health: typeof import("~/routes/health");
};
const cookies: Record<string, string> = {};

beforeAll(async () => {
  app = await startApp();
  routes = {
    user: await import("~/routes/users.$userId"),
    users: await import("~/routes/users._index"),
    logAs: await import("~/routes/log-as"),
    sessionRole: await import("~/routes/session-role"),
    audit: await import("~/services/audit.server"),
    retailer: await import("~/routes/settings_.retailer"),
    members: await import("~/routes/teams.$teamId.settings.members"),
    invitation: await import("~/routes/invitation"),
    newCampaign: await import("~/routes/teams.$teamId.campaigns.new.$type"),
    wallets: await import("~/routes/teams.$teamId.wallets"),
    teamSettings: await import("~/routes/teams.$teamId.settings._index"),
    report: await import("~/routes/reports.$reportId._index"),
    campaign: await import("~/routes/campaigns.$campaignId"),
    general: await import("~/routes/campaigns.$campaignId._index"),
    campaignList: await import("~/routes/campaigns._index"),
    wallet: await import("~/routes/teams.$teamId.wallets_.$walletId"),
    health: await import("~/routes/health"),
  };
  for (const who of ["operator", "retailer.admin", "retailer.viewer", "supplier.admin"]) {
    cookies[who] = await signIn(app.m, `${who}@example.com`, app.demoPassword);
  }
});
afterAll(async () => {
  await app?.stop();
});

const storage = () => app.m.storageIndex.getStorage();
const idOf = async (email: string) => (await storage().users.getByEmail(email))!.id;

function postUser(cookie: string | CookieJar, userId: string, form: Record<string, string>) {
  const request = postRequest(`/users/${userId}`, form, { cookie });
  return call(() => routes.user.action({ ...args(request), params: { userId } } as never));
}
function openUser(cookie: string | CookieJar, userId: string) {
  return call(() => routes.user.loader({ ...args(getRequest(`/users/${userId}`, { cookie })), params: { userId } } as never));
}
function root(cookie: string | CookieJar) {
  return call(() => app.m.routes.root.loader(args(getRequest("/", { cookie })) as never));
}
function endLogAs(cookie: string | CookieJar) {
  return call(() => routes.logAs.action(args(postRequest("/log-as", { intent: "end-log-as" }, { cookie })) as never));
}
function sessionRole(cookie: string | CookieJar, role: string) {
  return call(() => routes.sessionRole.action(args(postRequest("/session-role", { intent: "session-role", role, redirectTo: "/" }, { cookie })) as never));
}

describe("Log as", () => {
  it("shows the console as the user would, with both names, records changes with both identities, and goes back", async () => {
    const cookie = await signIn(app.m, "operator@example.com", app.demoPassword);
    const retailerAdminId = await idOf("retailer.admin@example.com");
    expect((await openUser(cookie, retailerAdminId)).data.logAs).toBe(true);

    const started = await postUser(cookie, retailerAdminId, { intent: "log-as" });
    expect(started.status).toBe(302);
    expect(started.location).toBe("/");

    // The console is the retailer ADMIN's: their name, their rights (no Activity), the banner's operator.
    const as = await root(cookie);
    expect(as.data.user.email).toBe("retailer.admin@example.com");
    expect(as.data.loggedAsBy).toBe("Olivia Operator");
    expect(as.data.menu.map((i: { key: string }) => i.key)).not.toContain("activity");
    expect(as.data.sessionRoles).toBeNull();
    const health = await call(() => app.m.routes.health.loader(args(getRequest("/health", { cookie })) as never));
    expect(health.location).toBe("/not-authorized");

    // A change made meanwhile: the audit names the retailer ADMIN and the operator.
    const viewer = await storage().users.getByEmail("retailer.viewer@example.com");
    const saved = await postUser(cookie, viewer!.id, { intent: "update-claims", type: "retailer", role: "REVIEWER", version: String(viewer!.version) });
    expect(saved.status, JSON.stringify(saved.data)).toBe(302);
    const entry = (await storage().audit.list({ entity: "user", entityId: viewer!.id, limit: 1 })).items[0]!;
    expect(entry).toMatchObject({ by: "retailer.admin@example.com", realBy: "operator@example.com" });
    const [shown] = await routes.audit.presentAuditEntries([entry], { locale: "en-GB", timeZone: "Europe/Paris" } as never);
    expect(shown!.byName).toBe("Olivia Operator, logged as Rachel Retailer");
    await storage().users.update(viewer!.id, { claims: { type: "retailer", role: "VIEWER" } }, { by: "system" });

    // One button back: the operator's own console again.
    const back = await endLogAs(cookie);
    expect(back.status).toBe(302);
    const own = await root(cookie);
    expect(own.data.user.email).toBe("operator@example.com");
    expect(own.data.loggedAsBy).toBeNull();
    expect(own.data.menu.map((i: { key: string }) => i.key)).toContain("activity");
  });

  it("records both identities on every kind of change made meanwhile: campaigns, wallets, teams, users, reports, one's own settings", async () => {
    const cookie = await signIn(app.m, "operator@example.com", app.demoPassword);
    const admin = (await storage().users.getByEmail("retailer.admin@example.com"))!;
    expect((await postUser(cookie, admin.id, { intent: "log-as" })).status).toBe(302);
    const both = { by: admin.email, realBy: "operator@example.com" };
    const lastEntry = async (entity: string, entityId: string) => (await storage().audit.list({ entity, entityId, limit: 1 })).items[0];
    const at = (path: string, form: Record<string, string>, params: Record<string, string> = {}) => ({ ...args(postRequest(path, form, { cookie })), params });

    // A campaign created.
    const campaignId = await createDraftThroughForm(routes.newCampaign.action as never, args(getRequest("/")).context, cookie, { team: "acme-brand", name: `Logged-as draft ${Date.now()}` });
    expect(await lastEntry("campaign", campaignId)).toMatchObject(both);

    // A wallet created.
    const wallet = await call(() =>
      routes.wallets.action(at("/teams/acme-brand/wallets", { intent: "create-wallet", label: `Logged-as wallet ${Date.now()}`, currency: "EUR", status: "active", dailyBudget: "10" }, { teamId: "acme-brand" }) as never),
    );
    expect(wallet.status, JSON.stringify(wallet.data)).toBe(302);
    expect(await lastEntry("wallet", wallet.location!.split("/").pop()!)).toMatchObject(both);

    // A team's status changed (and back).
    for (const status of ["suspended", "active"]) {
      const team = (await storage().teams.getOne("acme-brand"))!;
      const changed = await call(() =>
        routes.teamSettings.action(at("/teams/acme-brand/settings?index", { intent: "change-status", version: String(team.version), status, confirmed: "yes" }, { teamId: "acme-brand" }) as never),
      );
      expect(changed.status, JSON.stringify(changed.data)).toBe(302);
      expect(await lastEntry("team", "acme-brand")).toMatchObject({ ...both, changes: expect.arrayContaining([expect.objectContaining({ field: "status", after: status })]) });
    }

    // A report created, then deleted.
    const report = await call(() =>
      routes.report.action(
        at("/reports/new", { intent: "save-report", name: "Logged-as report", type: "campaigns", period: "yesterday", timeUnit: "cumulative", walletTags: "", teamId: "acme-brand", recipients: "anna@agency.example", format: "csv", frequency: "once", runAt: "08:00" }, { reportId: "new" }) as never,
      ),
    );
    expect(report.status, JSON.stringify(report.data)).toBe(302);
    const reportId = decodeURIComponent(report.location!.split("/").pop()!);
    expect(await lastEntry("report", reportId)).toMatchObject({ ...both, action: "create" });
    expect((await call(() => routes.report.action(at(`/reports/${reportId}`, { intent: "delete-report" }, { reportId }) as never))).status).toBe(302);
    expect(await lastEntry("report", reportId)).toMatchObject({ ...both, action: "delete" });
    const [shown] = await routes.audit.presentAuditEntries([(await lastEntry("report", reportId))!], { locale: "en-GB", timeZone: "Europe/Paris" } as never);
    expect(shown).toMatchObject({ byName: "Olivia Operator, logged as Rachel Retailer", entityLabel: "Report", subject: "Logged-as report" });

    // The user's own settings (display preferences).
    const theme = await call(() => app.m.routes.preferences.action(at("/preferences", { intent: "set-theme", theme: "dark", redirectTo: "/" }) as never));
    expect(theme.status).toBe(302);
    expect(await lastEntry("user", admin.id)).toMatchObject(both);

    expect((await endLogAs(cookie)).status).toBe(302);
  });

  it("is refused to a non-operator (a retailer ADMIN), changing nothing", async () => {
    const supplierId = await idOf("supplier.admin@example.com");
    expect((await openUser(cookies["retailer.admin"]!, supplierId)).data.logAs).toBe(false);
    const refused = await postUser(cookies["retailer.admin"]!, supplierId, { intent: "log-as" });
    expect(refused.status).toBe(403);
    expect(refused.data.error).toBe("operators:refused.notOperator");
    expect((await root(cookies["retailer.admin"]!)).data.loggedAsBy).toBeNull();
    // A supplier (no User right) never reaches the user's page, nor logs as anyone by a forged post.
    const bySupplier = await postUser(cookies["supplier.admin"]!, await idOf("retailer.viewer@example.com"), { intent: "log-as" });
    expect(bySupplier.location).toBe("/not-authorized");
    expect((await root(cookies["supplier.admin"]!)).data).toMatchObject({ loggedAsBy: null, user: { email: "supplier.admin@example.com" } });
  });

  it("never logs into another operator", async () => {
    const other = await app.createUser({ email: `op2.${Date.now()}@ops.example`, claims: { type: "operator", role: "ADMIN" } });
    const cookie = await signIn(app.m, "operator@example.com", app.demoPassword);
    expect((await openUser(cookie, other.id)).data.logAs).toBe(false);
    const refused = await postUser(cookie, other.id, { intent: "log-as" });
    expect(refused.status).toBe(403);
    expect(refused.data.error).toBe("operators:refused.targetOperator");
    expect((await root(cookie)).data.user.email).toBe("operator@example.com");
  });

  it("never logs as someone else while already logged as someone", async () => {
    const cookie = await signIn(app.m, "operator@example.com", app.demoPassword);
    await postUser(cookie, await idOf("retailer.admin@example.com"), { intent: "log-as" });
    const refused = await postUser(cookie, await idOf("supplier.admin@example.com"), { intent: "log-as" });
    expect(refused.status).toBe(403);
    expect(refused.data.error).toBe("operators:refused.alreadyLoggedAs");
    expect((await root(cookie)).data.user.email).toBe("retailer.admin@example.com");
  });

  it("never changes the password of the user logged as, even with it: the 'Log as' and its record of both identities go on", async () => {
    const target = await app.createUser({ email: `pw.${Date.now()}@brand.example`, claims: { type: "supplier", role: "VIEWER" } });
    const cookie = await signIn(app.m, "operator@example.com", app.demoPassword);
    expect((await postUser(cookie, target.id, { intent: "log-as" })).status).toBe(302);
    const profile = await import("~/routes/profile");
    expect((await call(() => profile.loader(args(getRequest("/profile", { cookie })) as never))).data.loggedAs).toBe(true);
    const before = (await storage().users.getOne(target.id))!;
    const form = { intent: "change-password", currentPassword: target.password, password: "Brand-new-pass-1", confirmPassword: "Brand-new-pass-1" };
    const refused = await call(() => profile.action(args(postRequest("/profile", form, { cookie })) as never));
    expect(refused.status).toBe(403);
    expect(refused.data.error).toBe("operators:refused.passwordLoggedAs");
    const after = (await storage().users.getOne(target.id))!;
    expect(after.passwordHash).toBe(before.passwordHash);
    expect(after.sessionEpoch).toBe(before.sessionEpoch);
    // Still the operator acting as the user, with the banner.
    const still = await root(cookie);
    expect(still.data.user.email).toBe(target.email);
    expect(still.data.loggedAsBy).toBe("Olivia Operator");
  });

  it("never accepts the invitation of the user logged as: the page says so, a forged accept is refused, the team is not theirs", async () => {
    const target = await app.createUser({ email: `inv.${Date.now()}@brand.example`, claims: { type: "supplier", role: "ADMIN" } });
    const { inviteToTeam } = await import("~/services/invitations.server");
    const invited = await inviteToTeam((await storage().users.getByEmail("supplier.admin@example.com"))!, (await storage().teams.getOne("acme-brand"))!, {
      email: target.email,
      role: "EDITOR",
    });
    expect(invited.ok).toBe(true);
    const mail = readOutbox(app.outboxDir).filter((m) => m.to.toLowerCase() === target.email).at(-1)!;
    const token = new URL(/(https?:\/\/\S+\/invitation\?token=\S+)/.exec(mail.text)![1]!).searchParams.get("token")!;
    const cookie = await signIn(app.m, "operator@example.com", app.demoPassword);
    expect((await postUser(cookie, target.id, { intent: "log-as" })).status).toBe(302);

    const page = await call(() => routes.invitation.loader(args(getRequest(`/invitation?token=${token}`, { cookie })) as never));
    expect(page.data.view).toMatchObject({ ok: true, signedInAsInvitee: true, loggedAs: true });
    const refused = await call(() => routes.invitation.action(args(postRequest(`/invitation?token=${token}`, { intent: "accept", token }, { cookie })) as never));
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.data)).toContain("operators:refused.invitationLoggedAs");
    expect((await storage().users.getOne(target.id))!.roleByTeam["acme-brand"]).toBeUndefined();
    expect((await storage().invitations.listForTeam("acme-brand")).find((i) => i.emailLower === target.email)!.status).toBe("pending");
    expect((await root(cookie)).data.loggedAsBy).toBe("Olivia Operator");
  });

  it("ends when the user logged as becomes an operator (never acting as an operator)", async () => {
    const target = await app.createUser({ email: `ret.${Date.now()}@retailer.example`, claims: { type: "retailer", role: "VIEWER" } });
    const cookie = await signIn(app.m, "operator@example.com", app.demoPassword);
    expect((await postUser(cookie, target.id, { intent: "log-as" })).status).toBe(302);
    expect((await root(cookie)).data.user.email).toBe(target.email);
    await storage().users.update(target.id, { claims: { type: "operator", role: "ADMIN" } }, { by: "system" });
    const after = await root(cookie);
    expect(after.data.user.email).toBe("operator@example.com");
    expect(after.data.loggedAsBy).toBeNull();
  });

  it("ends when the user logged as is disabled (the session re-check applies)", async () => {
    const target = await app.createUser({ email: `sup.${Date.now()}@brand.example`, claims: { type: "supplier", role: "VIEWER" } });
    const cookie = await signIn(app.m, "operator@example.com", app.demoPassword);
    expect((await postUser(cookie, target.id, { intent: "log-as" })).status).toBe(302);
    expect((await root(cookie)).data.user.email).toBe(target.email);
    await storage().users.update(target.id, { disabled: true }, { by: "system" });
    const after = await root(cookie);
    expect(after.data.user.email).toBe("operator@example.com");
    expect(after.data.loggedAsBy).toBeNull();
  });
});

describe("role step-down for the session", () => {
  it("steps an operator down to VIEWER: the user menu and every right follow at once; and back", async () => {
    const cookie = await signIn(app.m, "operator@example.com", app.demoPassword);
    const down = await sessionRole(cookie, "VIEWER");
    expect(down.status).toBe(302);
    const as = await root(cookie);
    expect(as.data.user.claims).toEqual({ type: "operator", role: "VIEWER" });
    expect(as.data.sessionRoles).toEqual({ choices: ["ADMIN", "EDITOR", "REVIEWER", "VIEWER"], current: "VIEWER", own: "ADMIN" });
    // /users needs the User right, which an operator VIEWER does not hold.
    const users = await call(() => routes.users.loader(args(getRequest("/users", { cookie })) as never));
    expect(users.location).toBe("/not-authorized");
    // The session is not ended by the re-check (the stored claims did not change).
    expect((await root(cookie)).data.user.email).toBe("operator@example.com");

    expect((await sessionRole(cookie, "ADMIN")).status).toBe(302);
    expect((await root(cookie)).data.user.claims).toEqual({ type: "operator", role: "ADMIN" });
    const usersAgain = await call(() => routes.users.loader(args(getRequest("/users", { cookie })) as never));
    expect(usersAgain.status).toBe(200);
  });

  it("lets a retailer ADMIN step down to EDITOR", async () => {
    const cookie = await signIn(app.m, "retailer.admin@example.com", app.demoPassword);
    expect((await sessionRole(cookie, "EDITOR")).status).toBe(302);
    expect((await root(cookie)).data.user.claims).toEqual({ type: "retailer", role: "EDITOR" });
  });

  it("refuses a forged step-up, and SUPER_ADMIN, changing nothing", async () => {
    const viewer = await sessionRole(cookies["retailer.viewer"]!, "ADMIN");
    expect(viewer.status).toBe(403);
    expect(viewer.data.error).toBe("operators:refused.stepUp");
    expect((await root(cookies["retailer.viewer"]!)).data.user.claims).toEqual({ type: "retailer", role: "VIEWER" });

    const cookie = await signIn(app.m, "operator@example.com", app.demoPassword);
    const superAdmin = await sessionRole(cookie, "SUPER_ADMIN");
    expect(superAdmin.status).toBe(403);
    expect((await root(cookie)).data.user.claims.role).toBe("ADMIN");
  });

  it("is refused while logged as someone", async () => {
    const cookie = await signIn(app.m, "operator@example.com", app.demoPassword);
    await postUser(cookie, await idOf("retailer.admin@example.com"), { intent: "log-as" });
    const refused = await sessionRole(cookie, "VIEWER");
    expect(refused.status).toBe(403);
    expect(refused.data.error).toBe("operators:refused.stepDownLoggedAs");
  });
});

describe("an operator stepped down for the session has a retailer's rights of that role (ADR 40)", () => {
  const TEAM = "acme-brand";
  const ctx = { requestId: "t", clientIp: "127.0.0.1" };
  const newDraft = (cookie: string, name: string) => createDraftThroughForm(routes.newCampaign.action, ctx, cookie, { team: TEAM, name });
  const version = async (id: string) => String((await storage().campaigns.getOne(id))!.version);
  const status = async (id: string) => (await storage().campaigns.getOne(id))!.status;
  const layout = (cookie: string, id: string) =>
    call(() => routes.campaign.loader({ request: getRequest(`/campaigns/${id}`, { cookie }), params: { campaignId: id }, context: ctx } as never));
  const general = (cookie: string, id: string) =>
    call(() => routes.general.loader({ request: getRequest(`/campaigns/${id}`, { cookie }), params: { campaignId: id }, context: ctx } as never));
  const act = async (cookie: string, id: string, action: string) => {
    const form = { intent: "campaign-action", action, returnTo: `/campaigns/${id}`, confirmed: "yes", version: await version(id) };
    return call(() => routes.campaign.action({ request: postRequest(`/campaigns/${id}`, form, { cookie }), params: { campaignId: id }, context: ctx } as never));
  };
  const list = (cookie: string) => call(() => routes.campaignList.loader({ request: getRequest("/campaigns", { cookie }), params: {}, context: ctx } as never));
  const bulk = async (cookie: string, intent: "bulk-review" | "bulk-apply", change: string, id: string) => {
    const form: Record<string, string> = { intent, change, campaignId: id };
    if (intent === "bulk-apply") form[`version.${id}`] = await version(id);
    return call(() => routes.campaignList.action({ request: postRequest("/campaigns?index", form, { cookie }), params: {}, context: ctx } as never));
  };
  const credit = (cookie: string, walletId: string) =>
    call(() =>
      routes.wallet.action({
        request: postRequest(`/teams/${TEAM}/wallets/${walletId}`, { intent: "post-entry", idempotencyKey: randomUUID(), type: "credit", amount: "12", reference: "STEP-DOWN" }, { cookie }),
        params: { teamId: TEAM, walletId },
        context: ctx,
      } as never),
    );
  const walletPage = (cookie: string, walletId: string) =>
    call(() => routes.wallet.loader({ request: getRequest(`/teams/${TEAM}/wallets/${walletId}`, { cookie }), params: { teamId: TEAM, walletId }, context: ctx } as never));
  const health = (cookie: string) => call(() => routes.health.loader(args(getRequest("/health", { cookie })) as never));
  const refused = (outcome: { status: number; data: unknown }, what: string) => {
    expect(outcome.status, what).toBe(403);
    expect(JSON.stringify(outcome.data), what).toContain("errors.insufficientPermissions");
  };

  it.each(["VIEWER", "REVIEWER"])(
    "as %s: no test mode, suspend, disable or re-draft offered or accepted, no bulk edit, no wallet credit, no Activity; all again back at ADMIN",
    async (role) => {
      const cookie = await signIn(app.m, "operator@example.com", app.demoPassword);
      const id = await newDraft(cookie, `Stepped down ${role} ${Date.now()}`);
      const walletId = (await storage().wallets.listForTeam(TEAM))[0]!.id;
      const balance = async () => (await storage().wallets.getOne(walletId))!.balance;
      expect((await sessionRole(cookie, role)).status).toBe(302);

      // What the screens offer: nothing to change, like a retailer of that role.
      expect((await layout(cookie, id)).data.actions).toEqual([]);
      expect((await general(cookie, id)).data.canEdit).toBe(false);
      // A retailer REVIEWER approves in bulk (what moderation asks of them), nothing else.
      expect((await list(cookie)).data.bulkChoices).toEqual(role === "REVIEWER" ? ["action:approve"] : []);
      expect((await walletPage(cookie, walletId)).data.canManage).toBe(false);
      expect((await health(cookie)).location).toBe("/not-authorized");

      // What the server accepts: nothing either.
      for (const action of ["test", "disable", "archive"]) refused(await act(cookie, id, action), `${role} ${action}`);
      await storage().campaigns.update(id, { status: "disabled" }, { by: "system" });
      refused(await act(cookie, id, "redraft"), `${role} redraft`);
      refused(await bulk(cookie, "bulk-review", "action:redraft", id), `${role} bulk review`);
      refused(await bulk(cookie, "bulk-apply", "action:redraft", id), `${role} bulk apply`);
      expect(await status(id)).toBe("disabled");
      const before = await balance();
      refused(await credit(cookie, walletId), `${role} wallet credit`);
      expect(await balance()).toBe(before);

      // Back at ADMIN (always offered, always accepted): every right again.
      expect((await root(cookie)).data.sessionRoles.choices).toContain("ADMIN");
      expect((await sessionRole(cookie, "ADMIN")).status).toBe(302);
      expect((await layout(cookie, id)).data.actions).toContain("redraft");
      expect((await list(cookie)).data.bulkChoices).toEqual(expect.arrayContaining(["action:disable", "action:test", "action:redraft"]));
      const back = await bulk(cookie, "bulk-apply", "action:redraft", id);
      expect(back.status, JSON.stringify(back.data)).toBeLessThan(400);
      expect(await status(id)).toBe("draft");
      const disabled = await act(cookie, id, "disable");
      expect(disabled.status, JSON.stringify(disabled.data)).toBe(302);
      expect(await status(id)).toBe("disabled");
      const credited = await credit(cookie, walletId);
      expect(credited.status, JSON.stringify(credited.data)).toBe(302);
      expect(await balance()).toBe(before + 1200);
      expect((await health(cookie)).status).toBe(200);
    },
  );

  it("as EDITOR: runs campaigns like a retailer EDITOR but neither approves nor rejects, nor disables", async () => {
    const cookie = await signIn(app.m, "operator@example.com", app.demoPassword);
    const id = await newDraft(cookie, `Stepped down EDITOR ${Date.now()}`);
    expect((await sessionRole(cookie, "EDITOR")).status).toBe(302);
    expect((await layout(cookie, id)).data.actions).toEqual(["enable", "archive", "delete"]);
    expect((await general(cookie, id)).data.canEdit).toBe(true);
    refused(await act(cookie, id, "disable"), "EDITOR disable");
    refused(await act(cookie, id, "test"), "EDITOR test");

    await storage().campaigns.update(id, { status: "pending_review" }, { by: "system" });
    expect((await layout(cookie, id)).data.actions).not.toContain("approve");
    refused(await act(cookie, id, "approve"), "EDITOR approve");
    refused(await act(cookie, id, "reject"), "EDITOR reject");
    expect(await status(id)).toBe("pending_review");

    expect((await sessionRole(cookie, "ADMIN")).status).toBe(302);
    expect((await layout(cookie, id)).data.actions).toEqual(expect.arrayContaining(["approve", "reject"]));
    const approved = await act(cookie, id, "approve");
    expect(approved.status, JSON.stringify(approved.data)).toBe(302);
    expect(await status(id)).not.toBe("pending_review");
  });
});

describe("retailer staff e-mail domain", () => {
  const STAFF = "staff.example";
  const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

  async function saveAccess(cookie: string, form: Record<string, string>) {
    const { version } = await storage().config.get();
    return call(() => routes.retailer.action(args(postRequest("/settings/retailer", { intent: "save-access-settings", version: String(version), ...form }, { cookie })) as never));
  }
  function invite(cookie: string, email: string, role = "EDITOR") {
    const request = postRequest("/teams/acme-brand/settings/members", { intent: "invite", email, role }, { cookie });
    return call(() => routes.members.action({ ...args(request), params: { teamId: "acme-brand" } } as never));
  }

  it("is a setting only operators change (a retailer ADMIN is refused)", async () => {
    const refused = await saveAccess(cookies["retailer.admin"]!, { staffEmailDomain: STAFF, operatorTotpRequired: "on" });
    expect(refused.status).toBe(403);
    const saved = await saveAccess(cookies.operator!, { staffEmailDomain: `@${STAFF.toUpperCase()}`, operatorTotpRequired: "on" });
    expect(saved.status, JSON.stringify(saved.data)).toBe(302);
    expect((await storage().config.get()).access).toEqual({ staffEmailDomain: STAFF, operatorTotpRequired: true });
  });

  it("refuses a supplier inviting an address of the staff domain: no retailer rights, no invitation", async () => {
    await saveAccess(cookies.operator!, { staffEmailDomain: STAFF, operatorTotpRequired: "on" });
    const email = `anna.${stamp()}@${STAFF}`;
    const refused = await invite(cookies["supplier.admin"]!, email);
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.data)).toContain("operators:refused.staffDomainInvite");
    expect((await storage().invitations.listForTeam("acme-brand")).some((i) => i.emailLower === email)).toBe(false);
    expect(await storage().users.getByEmail(email)).toBeNull();
  });

  it("makes retailer staff of a staff-domain address a retailer ADMIN invited, with the invited role from the claims", async () => {
    await saveAccess(cookies.operator!, { staffEmailDomain: STAFF, operatorTotpRequired: "on" });
    const email = `bruno.${stamp()}@${STAFF}`;
    const sent = await invite(cookies["retailer.admin"]!, email, "EDITOR");
    expect(sent.status, JSON.stringify(sent.data)).toBe(302);
    const mail = readOutbox(app.outboxDir).filter((m) => m.to.toLowerCase() === email).at(-1)!;
    const token = new URL(/(https?:\/\/\S+\/invitation\?token=\S+)/.exec(mail.text)![1]!).searchParams.get("token")!;
    const password = "Staff-pass-word-1";
    const accepted = await call(() =>
      routes.invitation.action(args(postRequest(`/invitation?token=${token}`, { intent: "create-account", token, displayName: "Bruno Staff", password, confirmPassword: password })) as never),
    );
    expect(accepted.status, JSON.stringify(accepted.data)).toBe(302);
    expect((await storage().users.getByEmail(email))!.claims).toEqual({ type: "retailer", role: "EDITOR" });
  });

  it("makes a supplier, not retailer staff, of a staff-domain invitation whose retailer ADMIN was disabled before it was used", async () => {
    await saveAccess(cookies.operator!, { staffEmailDomain: STAFF, operatorTotpRequired: "on" });
    const admin = await app.createUser({ email: `admin.${stamp()}@${STAFF}`, claims: { type: "retailer", role: "ADMIN" } });
    const adminCookie = await signIn(app.m, admin.email, admin.password);
    const email = `carla.${stamp()}@${STAFF}`;
    expect((await invite(adminCookie, email, "ADMIN")).status).toBe(302);
    await storage().users.update(admin.id, { disabled: true }, { by: "operator@example.com" });
    const mail = readOutbox(app.outboxDir).filter((m) => m.to.toLowerCase() === email).at(-1)!;
    const token = new URL(/(https?:\/\/\S+\/invitation\?token=\S+)/.exec(mail.text)![1]!).searchParams.get("token")!;
    const password = "Staff-pass-word-2";
    const accepted = await call(() =>
      routes.invitation.action(args(postRequest(`/invitation?token=${token}`, { intent: "create-account", token, displayName: "Carla", password, confirmPassword: password })) as never),
    );
    expect(accepted.status, JSON.stringify(accepted.data)).toBe(302);
    expect((await storage().users.getByEmail(email))!.claims).toEqual({ type: "supplier", role: "ADMIN" });
  });
});
