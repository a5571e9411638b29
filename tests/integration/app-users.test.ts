/**
 * Users and invitations (issue 3, section 2) through the real loaders and actions, on a temporary
 * SQLite database: team members, invitations (single use, expiry, revoke, resend, accept for a new
 * person and for an account), /users (scope, claims, team roles, disable), pending → active and the
 * single-team landing after sign-in.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Role, Team, User } from "~/domain/types";
import { COLLECTIONS } from "~/storage/port";
import { makeTeamData, makeUserData } from "../factories";
import {
  args,
  attemptSignIn,
  call,
  CookieJar,
  getRequest,
  parseSetCookies,
  postRequest,
  readOutbox,
  signIn,
  startApp,
  type AppUser,
  type TestApp,
} from "./app-helpers";

let app: TestApp;
let routes: {
  members: typeof import("~/routes/teams.$teamId.settings.members");
  users: typeof import("~/routes/users._index");
  user: typeof import("~/routes/users.$userId");
  invitation: typeof import("~/routes/invitation");
};
const cookies: Record<string, string> = {};

beforeAll(async () => {
  app = await startApp();
  // Imported after startApp, so they share its module registry (and its storage).
  routes = {
    members: await import("~/routes/teams.$teamId.settings.members"),
    users: await import("~/routes/users._index"),
    user: await import("~/routes/users.$userId"),
    invitation: await import("~/routes/invitation"),
  };
  for (const who of ["operator", "retailer.admin", "retailer.viewer", "supplier.admin", "supplier.viewer"]) {
    cookies[who] = await signIn(app.m, `${who}@example.com`, app.demoPassword);
  }
});
afterAll(async () => {
  await app?.stop();
});

const FR_VIEWER = (JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../locales/fr/common.json"), "utf8")) as { roles: Record<Role, string> }).roles.VIEWER;

const storage = () => app.m.storageIndex.getStorage();
let counter = 0;
const unique = (prefix: string) => `${prefix}.${Date.now().toString(36)}.${++counter}@brand.example`;

function withParams(request: Request, params: Record<string, string>) {
  return { ...args(request), params } as never;
}

// ---- team members page ----------------------------------------------------------------------

const membersPath = (teamId: string) => `/teams/${teamId}/settings/members`;

function openMembers(cookie: string | CookieJar, teamId: string) {
  return call(() => routes.members.loader(withParams(getRequest(membersPath(teamId), { cookie }), { teamId })));
}

function postMembers(cookie: string | CookieJar, teamId: string, form: Record<string, string>) {
  return call(() => routes.members.action(withParams(postRequest(membersPath(teamId), form, { cookie }), { teamId })));
}

async function newTeam(): Promise<Team> {
  return storage().teams.create(makeTeamData(), { by: "system" });
}

/** A supplier with a role on teams; claims role defaults to the highest team role. */
async function supplier(roleByTeam: Record<string, Role>, claimsRole?: Role): Promise<AppUser> {
  const roles = Object.values(roleByTeam);
  const top = (["ADMIN", "EDITOR", "REVIEWER", "VIEWER"] as Role[]).find((r) => roles.includes(r)) ?? "VIEWER";
  return app.createUser({ email: unique("supplier"), claims: { type: "supplier", role: claimsRole ?? top }, roleByTeam, locale: "en-GB" });
}

// ---- invitations ----------------------------------------------------------------------------

function mailsTo(email: string) {
  return readOutbox(app.outboxDir).filter((m) => m.to.toLowerCase() === email.toLowerCase());
}

/** The path and token of the invitation link in the newest mail to `email`. */
function invitationLinkFor(email: string): { path: string; token: string } {
  const mail = mailsTo(email).at(-1);
  if (!mail) throw new Error(`No mail to ${email}`);
  const match = /(https?:\/\/\S+\/invitation\?token=\S+)/.exec(mail.text);
  if (!match) throw new Error(`No invitation link in:\n${mail.text}`);
  const url = new URL(match[1]);
  return { path: url.pathname + url.search, token: url.searchParams.get("token") ?? "" };
}

async function invite(cookie: string, teamId: string, email: string, role: Role = "EDITOR") {
  const outcome = await postMembers(cookie, teamId, { intent: "invite", email, role });
  expect(outcome.status, JSON.stringify(outcome.data)).toBe(302);
  return invitationLinkFor(email);
}

function openInvitation(path: string, cookie?: string | CookieJar) {
  return call(() => routes.invitation.loader(args(getRequest(path, { cookie })) as never));
}

function postInvitation(form: Record<string, string>, cookie?: string | CookieJar) {
  return call(() => routes.invitation.action(args(postRequest(`/invitation?token=${form.token}`, form, { cookie })) as never));
}

function createAccount(token: string, password = "Invited-pass-word-1", displayName = "Ines Invited") {
  return postInvitation({ intent: "create-account", token, displayName, password, confirmPassword: password });
}

async function invitationOf(teamId: string, email: string) {
  return (await storage().invitations.listForTeam(teamId)).find((i) => i.emailLower === email.toLowerCase());
}

// ---- /users ---------------------------------------------------------------------------------

function openUsers(cookie: string | CookieJar, query = "") {
  return call(() => routes.users.loader(args(getRequest(`/users${query}`, { cookie })) as never));
}

function openUser(cookie: string | CookieJar, userId: string) {
  return call(() => routes.user.loader(withParams(getRequest(`/users/${userId}`, { cookie }), { userId })));
}

async function postUser(cookie: string | CookieJar, userId: string, form: Record<string, string>) {
  const current = await storage().users.getOne(userId);
  const body = { version: String(current?.version ?? 1), ...form };
  return call(() => routes.user.action(withParams(postRequest(`/users/${userId}`, body, { cookie }), { userId })));
}

async function userById(id: string): Promise<User> {
  return (await storage().users.getOne(id))!;
}

async function demo(email: string): Promise<User> {
  return (await storage().users.getByEmail(email))!;
}

function openHome(cookie: string | CookieJar) {
  return call(() => app.m.routes.home.loader(args(getRequest("/", { cookie })) as never));
}

// =============================================================================================

describe("team members page", () => {
  it("lists the members of the team with their team role, for a retailer admin, an operator and the team's ADMIN", async () => {
    for (const who of ["retailer.admin", "operator", "supplier.admin"]) {
      const outcome = await openMembers(cookies[who], "acme-brand");
      expect(outcome.status, who).toBe(200);
      const members = outcome.data.members as { email: string; teamRole: string }[];
      expect(members.map((m) => [m.email, m.teamRole])).toEqual(
        expect.arrayContaining([
          ["supplier.admin@example.com", "ADMIN"],
          ["supplier.viewer@example.com", "VIEWER"],
        ]),
      );
      expect(outcome.data.grantable).toEqual(["VIEWER", "REVIEWER", "EDITOR", "ADMIN"]);
    }
  });

  it("sends other members' claims (account type, a claim role capping the team role) to retailer staff and operators only, not to the team's supplier ADMIN", async () => {
    const capped = await app.createUser({ claims: { type: "supplier", role: "VIEWER" }, roleByTeam: { "acme-brand": "EDITOR" } });
    const rowOf = async (who: string, id: string) => ((await openMembers(cookies[who], "acme-brand")).data.members as Record<string, unknown>[]).find((m) => m.id === id)!;
    for (const who of ["retailer.admin", "operator"]) expect(await rowOf(who, capped.id), who).toMatchObject({ teamRole: "EDITOR", accountType: "supplier", effectiveRole: "VIEWER" });
    const seen = await rowOf("supplier.admin", capped.id);
    expect(seen.teamRole).toBe("EDITOR");
    expect(seen).not.toHaveProperty("accountType");
    expect(seen).not.toHaveProperty("effectiveRole");
    const staff = ((await openMembers(cookies["supplier.admin"], "acme-brand")).data.members as Record<string, unknown>[]).find((m) => m.email === "retailer.admin@example.com");
    if (staff) expect(staff).not.toHaveProperty("accountType");
  });

  it("refuses the page to a supplier viewer and a retailer viewer (403) and hides another team (404)", async () => {
    expect((await openMembers(cookies["supplier.viewer"], "acme-brand")).status).toBe(403);
    expect((await openMembers(cookies["retailer.viewer"], "acme-brand")).status).toBe(403);
    const other = await newTeam();
    expect((await openMembers(cookies["supplier.admin"], other.id)).status).toBe(404);
    expect((await openMembers(cookies["supplier.admin"], "no-such-team")).status).toBe(404);
  });

  it("refuses a supplier viewer's forged invite POST with 403 'Insufficient permissions' and changes nothing", async () => {
    const email = unique("forged");
    const before = (await storage().invitations.listForTeam("acme-brand")).length;
    const mailsBefore = readOutbox(app.outboxDir).length;
    const outcome = await postMembers(cookies["supplier.viewer"], "acme-brand", { intent: "invite", email, role: "ADMIN" });
    expect(outcome.status).toBe(403);
    expect(outcome.data).toEqual({ error: "errors.insufficientPermissions" });
    expect(await storage().invitations.listForTeam("acme-brand")).toHaveLength(before);
    expect(readOutbox(app.outboxDir)).toHaveLength(mailsBefore);
    // Nor may they change or remove a member.
    const admin = await demo("supplier.admin@example.com");
    const change = await postMembers(cookies["supplier.viewer"], "acme-brand", { intent: "change-member-role", userId: admin.id, role: "VIEWER" });
    expect(change.status).toBe(403);
    const remove = await postMembers(cookies["supplier.viewer"], "acme-brand", { intent: "remove-member", userId: admin.id });
    expect(remove.status).toBe(403);
    expect((await userById(admin.id)).roleByTeam["acme-brand"]).toBe("ADMIN");
  });

  it("sends an invitation e-mail with a single-use link; only the token's sha256 is stored", async () => {
    const team = await newTeam();
    const email = unique("invitee");
    const outcome = await postMembers(cookies["retailer.admin"], team.id, { intent: "invite", email, role: "EDITOR" });
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe(membersPath(team.id));

    const [mail] = mailsTo(email);
    expect(mail.subject).toBe(`You are invited to join ${team.name} on the Ads console`);
    expect(mail.text).toContain("Rachel Retailer invites you to join the team");
    expect(mail.text).toContain("as Editor");
    const { token } = invitationLinkFor(email);
    expect(token.length).toBeGreaterThanOrEqual(40);

    const invitation = (await invitationOf(team.id, email))!;
    expect(invitation).toMatchObject({ status: "pending", role: "EDITOR", invitedBy: "retailer.admin@example.com" });
    expect(invitation.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(invitation)).not.toContain(token);
    // About 7 days.
    const days = (Date.parse(invitation.expiresAt) - Date.parse(invitation.created)) / 86_400_000;
    expect(days).toBeCloseTo(7, 3);

    const page = await openMembers(cookies["retailer.admin"], team.id);
    expect(page.data.invitations).toEqual([expect.objectContaining({ email, role: "EDITOR", state: "pending" })]);
  });

  it("lets the team's supplier ADMIN invite too", async () => {
    const email = unique("by-supplier");
    await invite(cookies["supplier.admin"], "acme-brand", email, "VIEWER");
    expect((await invitationOf("acme-brand", email))?.invitedBy).toBe("supplier.admin@example.com");
  });

  it("answers 'Invalid email' for a bad e-mail and a clear message for a member or staff, sending nothing", async () => {
    const mailsBefore = readOutbox(app.outboxDir).length;
    const bad = await postMembers(cookies["retailer.admin"], "acme-brand", { intent: "invite", email: "not an e-mail", role: "VIEWER" });
    expect(bad.status).toBe(400);
    expect(bad.data.result.error.email).toEqual(["users:validation.emailInvalid"]);

    const member = await postMembers(cookies["retailer.admin"], "acme-brand", { intent: "invite", email: "Supplier.Viewer@example.com", role: "VIEWER" });
    expect(member.status).toBe(400);
    expect(member.data.result.error.email).toEqual(["users:invite.alreadyMember"]);

    const staff = await postMembers(cookies["retailer.admin"], "acme-brand", { intent: "invite", email: "retailer.viewer@example.com", role: "VIEWER" });
    expect(staff.status).toBe(400);
    expect(staff.data.result.error.email).toEqual(["users:invite.seesAllTeams"]);

    const badRole = await postMembers(cookies["retailer.admin"], "acme-brand", { intent: "invite", email: unique("x"), role: "SUPER_ADMIN" });
    expect(badRole.status).toBe(400);
    expect(readOutbox(app.outboxDir)).toHaveLength(mailsBefore);
  });

  it("writes the e-mail in the invitee's language when their account is known, else in the inviter's", async () => {
    const team = await newTeam();
    const french = await app.createUser({ email: unique("fr"), locale: "fr", claims: { type: "supplier", role: "VIEWER" }, roleByTeam: {} });
    await invite(cookies["retailer.admin"], team.id, french.email);
    expect(mailsTo(french.email)[0].subject).toBe(`Vous êtes invité à rejoindre ${team.name} sur la console publicitaire`);

    const frenchAdmin = await app.createUser({ email: unique("fr-admin"), locale: "fr", claims: { type: "retailer", role: "ADMIN" }, roleByTeam: {} });
    const cookie = await signIn(app.m, frenchAdmin.email, frenchAdmin.password);
    const stranger = unique("stranger");
    await invite(cookie, team.id, stranger, "VIEWER");
    expect(mailsTo(stranger)[0].subject).toBe(`Vous êtes invité à rejoindre ${team.name} sur la console publicitaire`);
    expect(mailsTo(stranger)[0].text).toContain(`en tant que ${FR_VIEWER}`);
  });
});

describe("changing and removing members", () => {
  it("changes a member's team role and removes their rights on the team", async () => {
    const team = await newTeam();
    const member = await supplier({ [team.id]: "VIEWER" }, "ADMIN");
    const changed = await postMembers(cookies["retailer.admin"], team.id, { intent: "change-member-role", userId: member.id, role: "EDITOR" });
    expect(changed.status).toBe(302);
    expect((await userById(member.id)).roleByTeam[team.id]).toBe("EDITOR");

    const removed = await postMembers(cookies["operator"], team.id, { intent: "remove-member", userId: member.id });
    expect(removed.status).toBe(302);
    const after = await userById(member.id);
    expect(after.roleByTeam[team.id]).toBeUndefined();
    expect(after.teamIds).not.toContain(team.id);
    // The team is gone from their reach: its pages answer 404.
    const cookie = await signIn(app.m, member.email, member.password);
    const { loader } = await import("~/routes/teams.$teamId.settings.members");
    expect((await call(() => loader(withParams(getRequest(membersPath(team.id), { cookie }), { teamId: team.id })))).status).toBe(404);
  });

  it("refuses self-demotion and self-removal (403) and leaves the role as it was", async () => {
    const team = await newTeam();
    const admin = await supplier({ [team.id]: "ADMIN" });
    const cookie = await signIn(app.m, admin.email, admin.password);
    const demote = await postMembers(cookie, team.id, { intent: "change-member-role", userId: admin.id, role: "VIEWER" });
    expect(demote.status).toBe(403);
    expect(demote.data.error).toBe("users:refused.self");
    const remove = await postMembers(cookie, team.id, { intent: "remove-member", userId: admin.id });
    expect(remove.status).toBe(403);
    expect((await userById(admin.id)).roleByTeam[team.id]).toBe("ADMIN");
    // The page offers no action on oneself.
    const page = await openMembers(cookie, team.id);
    expect(page.data.members.find((m: { id: string }) => m.id === admin.id)).toMatchObject({ self: true, editable: false, grantable: [] });
  });

  it("refuses a supplier team ADMIN a change to a retailer member (above them) and a member of another team", async () => {
    const team = await newTeam();
    const admin = await supplier({ [team.id]: "ADMIN" });
    const retailer = await app.createUser({ email: unique("retailer"), claims: { type: "retailer", role: "VIEWER" }, roleByTeam: { [team.id]: "VIEWER" } });
    const cookie = await signIn(app.m, admin.email, admin.password);
    const outcome = await postMembers(cookie, team.id, { intent: "remove-member", userId: retailer.id });
    expect(outcome.status).toBe(403);
    expect(outcome.data.error).toBe("users:refused.targetAbove");
    const stranger = await supplier({ "acme-brand": "VIEWER" });
    const notMember = await postMembers(cookie, team.id, { intent: "remove-member", userId: stranger.id });
    expect(notMember.status).toBe(404);
    expect((await userById(stranger.id)).roleByTeam["acme-brand"]).toBe("VIEWER");
  });
});

describe("invitation links", () => {
  it("a new person sets a password: account pending with the invited role, invitation accepted, link single use", async () => {
    const team = await newTeam();
    const email = unique("newcomer");
    // The team's admin is told of the new member (issue 11 §3 'new user'); another team's is not.
    const teamAdmin = await app.createUser({ email: unique("team-admin"), claims: { type: "supplier", role: "ADMIN" }, roleByTeam: { [team.id]: "ADMIN" } });
    const otherAdmin = await app.createUser({ email: unique("other-admin"), claims: { type: "supplier", role: "ADMIN" }, roleByTeam: { [(await newTeam()).id]: "ADMIN" } });
    const { path, token } = await invite(cookies["retailer.admin"], team.id, email, "EDITOR");

    const page = await openInvitation(path);
    expect(page.status).toBe(200);
    expect(page.data.view).toMatchObject({ ok: true, email, teamName: team.name, role: "EDITOR", accountExists: false, signedInAs: null });

    const weak = await createAccount(token, "short");
    expect(weak.status).toBe(400);
    expect(await storage().users.getByEmail(email)).toBeNull();

    const accepted = await createAccount(token);
    expect(accepted.status).toBe(302);
    expect(accepted.location).toBe("/login");

    const user = (await storage().users.getByEmail(email))!;
    expect(user).toMatchObject({
      status: "pending",
      displayName: "Ines Invited",
      claims: { type: "supplier", role: "EDITOR" },
      roleByTeam: { [team.id]: "EDITOR" },
      teamIds: [team.id],
      disabled: false,
    });
    expect((await invitationOf(team.id, email))).toMatchObject({ status: "accepted", acceptedBy: user.id });
    // The newcomer is welcomed; the team's admin is told of them, nobody else's.
    expect((await storage().notifications.list(user.id, {})).items).toMatchObject([{ type: "welcome", values: { name: "Ines Invited" }, link: "/profile" }]);
    // Its link is a page the admin may open: the team's members (not /users, which is for user managers).
    expect((await storage().notifications.list(teamAdmin.id, {})).items).toMatchObject([{ type: "newUser", values: { name: "Ines Invited", email }, link: `/teams/${team.id}/settings/members` }]);
    const teamAdminCookie = await signIn(app.m, teamAdmin.email, teamAdmin.password);
    expect((await openMembers(teamAdminCookie, team.id)).status).toBe(200);
    expect((await storage().notifications.list(otherAdmin.id, {})).items).toEqual([]);
    const members = await openMembers(cookies["retailer.admin"], team.id);
    expect(members.data.invitations[0]).toMatchObject({ email, state: "accepted" });
    expect(members.data.members.map((m: { email: string }) => m.email)).toContain(email);

    // Single use: the link now says so, and a second acceptance changes nothing.
    expect((await openInvitation(path)).data.view).toEqual({ ok: false, problem: "accepted" });
    const again = await createAccount(token, "Another-pass-word-2", "Someone Else");
    expect(again.status).toBe(400);
    expect(again.data.result.error[""]).toEqual(["users:invitation.problem.accepted"]);
    expect((await storage().users.getByEmail(email))!.displayName).toBe("Ines Invited");
  });

  it("the new member signs in: lands on their single team and becomes active (pending → active)", async () => {
    const team = await newTeam();
    const email = unique("lander");
    const { token } = await invite(cookies["operator"], team.id, email, "VIEWER");
    await createAccount(token, "Lander-pass-word-1");
    expect((await storage().users.getByEmail(email))!.status).toBe("pending");

    const outcome = await attemptSignIn(app.m, email, "Lander-pass-word-1");
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe(`/teams/${team.id}`);
    expect((await storage().users.getByEmail(email))!.status).toBe("active");

    // Idempotent: signing in again keeps it active; a `to` still wins over the landing.
    const withTo = await attemptSignIn(app.m, email, "Lander-pass-word-1", { to: "/profile" });
    expect(withTo.location).toBe("/profile");
    expect((await storage().users.getByEmail(email))!.status).toBe("active");
  });

  it("lands a supplier with two teams, and retailer staff, on the dashboard", async () => {
    const [a, b] = [await newTeam(), await newTeam()];
    const two = await supplier({ [a.id]: "VIEWER", [b.id]: "VIEWER" });
    expect((await attemptSignIn(app.m, two.email, two.password)).location).toBe("/");
    const retailer = await app.createUser({ email: unique("staff"), claims: { type: "retailer", role: "EDITOR" }, roleByTeam: { [a.id]: "EDITOR" } });
    expect((await attemptSignIn(app.m, retailer.email, retailer.password)).location).toBe("/");
    // A single team that is archived is not a landing.
    const archived = await newTeam();
    await storage().teams.update(archived.id, { status: "archived" }, { by: "system" });
    const lonely = await supplier({ [archived.id]: "VIEWER" });
    expect((await attemptSignIn(app.m, lonely.email, lonely.password)).location).toBe("/");
  });

  it("an existing account signs in (with `to` back to the link) and accepts; nobody else can accept it", async () => {
    const [home, team] = [await newTeam(), await newTeam()];
    const existing = await supplier({ [home.id]: "EDITOR" });
    const { path, token } = await invite(cookies["retailer.admin"], team.id, existing.email, "VIEWER");

    const anonymous = await openInvitation(path);
    expect(anonymous.data.view).toMatchObject({ ok: true, accountExists: true, signedInAs: null, signedInAsInvitee: false });
    expect(anonymous.data.loginLink).toBe(`/login?to=${encodeURIComponent(path)}`);
    // No account is created for an e-mail that has one.
    const create = await createAccount(token);
    expect(create.status).toBe(400);
    expect(create.data.result.error[""]).toEqual(["users:invitation.accountExists"]);

    // Someone else signed in cannot accept it.
    const other = await postInvitation({ intent: "accept", token }, cookies["supplier.viewer"]);
    expect(other.status).toBe(400);
    expect(other.data.result.error[""]).toEqual(["users:invitation.wrongUser"]);
    expect((await openInvitation(path, cookies["supplier.viewer"])).data.view).toMatchObject({ signedInAs: "supplier.viewer@example.com", signedInAsInvitee: false });

    // Signed out, accepting asks for a sign-in first.
    const signedOut = await postInvitation({ intent: "accept", token });
    expect(signedOut.location).toBe(`/login?to=${encodeURIComponent(path)}`);

    const signedIn = await attemptSignIn(app.m, existing.email, existing.password, { to: path });
    expect(signedIn.location).toBe(path);
    const jar = new CookieJar().apply(signedIn.headers);
    expect((await openInvitation(path, jar)).data.view).toMatchObject({ signedInAsInvitee: true });
    const accepted = await postInvitation({ intent: "accept", token }, jar);
    expect(accepted.status).toBe(302);
    expect(accepted.location).toBe(`/teams/${team.id}`);
    expect((await userById(existing.id)).roleByTeam).toEqual({ [home.id]: "EDITOR", [team.id]: "VIEWER" });
    expect((await invitationOf(team.id, existing.email))?.status).toBe("accepted");
  });

  it("an expired link is refused and changes nothing; a resend makes it usable again", async () => {
    const team = await newTeam();
    const email = unique("late");
    const { path, token } = await invite(cookies["retailer.admin"], team.id, email);
    const invitation = (await invitationOf(team.id, email))!;
    await app.m.storageIndex.getDocumentStoreForTests().update(COLLECTIONS.invitation, invitation.id, { expiresAt: new Date(Date.now() - 1000).toISOString() });

    expect((await openInvitation(path)).data.view).toEqual({ ok: false, problem: "expired" });
    const outcome = await createAccount(token);
    expect(outcome.status).toBe(400);
    expect(outcome.data.result.error[""]).toEqual(["users:invitation.problem.expired"]);
    expect(await storage().users.getByEmail(email)).toBeNull();
    const page = await openMembers(cookies["retailer.admin"], team.id);
    expect(page.data.invitations[0]).toMatchObject({ email, state: "expired" });

    const resent = await postMembers(cookies["retailer.admin"], team.id, { intent: "resend-invitation", invitationId: invitation.id });
    expect(resent.status).toBe(302);
    const fresh = invitationLinkFor(email);
    expect(fresh.token).not.toBe(token);
    expect((await openInvitation(fresh.path)).data.view).toMatchObject({ ok: true });
  });

  it("a resend kills the old link; the new one works", async () => {
    const team = await newTeam();
    const email = unique("resent");
    const first = await invite(cookies["retailer.admin"], team.id, email);
    const invitation = (await invitationOf(team.id, email))!;
    const resent = await postMembers(cookies["retailer.admin"], team.id, { intent: "resend-invitation", invitationId: invitation.id });
    expect(resent.status).toBe(302);
    expect(mailsTo(email)).toHaveLength(2);
    const second = invitationLinkFor(email);
    expect(second.token).not.toBe(first.token);

    expect((await openInvitation(first.path)).data.view).toEqual({ ok: false, problem: "invalid" });
    expect((await createAccount(first.token)).status).toBe(400);
    expect(await storage().users.getByEmail(email)).toBeNull();
    expect((await createAccount(second.token)).status).toBe(302);
    expect((await invitationOf(team.id, email))).toMatchObject({ status: "accepted", sentCount: 2 });
  });

  it("a revoked invitation's link is dead; revoke and resend need the manage right", async () => {
    const team = await newTeam();
    const email = unique("revoked");
    const { path, token } = await invite(cookies["retailer.admin"], team.id, email);
    const invitation = (await invitationOf(team.id, email))!;

    const forged = await postMembers(cookies["retailer.viewer"], team.id, { intent: "revoke-invitation", invitationId: invitation.id });
    expect(forged.status).toBe(403);
    expect((await invitationOf(team.id, email))?.status).toBe("pending");

    const revoked = await postMembers(cookies["retailer.admin"], team.id, { intent: "revoke-invitation", invitationId: invitation.id });
    expect(revoked.status).toBe(302);
    expect((await openInvitation(path)).data.view).toEqual({ ok: false, problem: "revoked" });
    expect((await createAccount(token)).status).toBe(400);
    expect(await storage().users.getByEmail(email)).toBeNull();
    // Nothing left to resend or revoke.
    const resend = await postMembers(cookies["retailer.admin"], team.id, { intent: "resend-invitation", invitationId: invitation.id });
    expect(resend.status).toBe(409);
    // An invitation of another team is not found from this one.
    const other = await newTeam();
    const elsewhere = await postMembers(cookies["retailer.admin"], other.id, { intent: "revoke-invitation", invitationId: invitation.id });
    expect(elsewhere.status).toBe(404);
  });

  it("an unknown token shows 'invalid' and reveals nothing", async () => {
    const outcome = await openInvitation("/invitation?token=not-a-real-token");
    expect(outcome.data).toMatchObject({ view: { ok: false, problem: "invalid" }, token: "" });
    expect((await openInvitation("/invitation")).data.view).toEqual({ ok: false, problem: "invalid" });
  });
});

describe("/users", () => {
  it("opens for operators and retailer admins only", async () => {
    for (const who of ["retailer.viewer", "supplier.admin", "supplier.viewer"]) {
      expect((await openUsers(cookies[who])).location, who).toBe("/not-authorized");
    }
    expect((await openUsers(cookies["operator"])).status).toBe(200);
    expect((await openUsers(cookies["retailer.admin"])).status).toBe(200);
  });

  it("shows a retailer admin retailer and supplier users only, never operators, even when asked", async () => {
    const all = await openUsers(cookies["retailer.admin"]);
    const types = new Set((all.data.users as { claims: { type: string } }[]).map((u) => u.claims.type));
    expect(types.has("operator")).toBe(false);
    expect(all.data.types).toEqual(["retailer", "supplier"]);
    const asked = await openUsers(cookies["retailer.admin"], "?type=operator&q=olivia");
    expect(asked.data.users).toEqual([]);
    const operatorView = await openUsers(cookies["operator"], "?type=operator");
    expect(operatorView.data.users.map((u: { email: string }) => u.email)).toContain("operator@example.com");

    const operator = await demo("operator@example.com");
    expect((await openUser(cookies["retailer.admin"], operator.id)).status).toBe(404);
    const forged = await postUser(cookies["retailer.admin"], operator.id, { intent: "set-disabled", disabled: "true" });
    expect(forged.status).toBe(404);
    expect((await userById(operator.id)).disabled).toBe(false);
  });

  it("lists name, e-mail, status, disabled, last sign-in, claims and team names; searches and filters", async () => {
    const team = await newTeam();
    const tag = `zorblax${Date.now().toString(36)}`;
    const pending = await app.createUser({ email: unique("pending"), displayName: `${tag} Pending`, status: "pending", claims: { type: "supplier", role: "VIEWER" }, roleByTeam: { [team.id]: "VIEWER" } });
    const active = await app.createUser({ email: unique("active"), displayName: `${tag} Active`, claims: { type: "retailer", role: "EDITOR" }, roleByTeam: {} });
    await signIn(app.m, active.email, active.password);

    const found = await openUsers(cookies["operator"], `?q=${tag}`);
    expect(found.data.users).toHaveLength(2);
    const row = found.data.users.find((u: { id: string }) => u.id === pending.id);
    expect(row).toMatchObject({ email: pending.email, status: "pending", disabled: false, lastSignIn: null, claims: { type: "supplier", role: "VIEWER" }, teams: [{ id: team.id, name: team.name, role: "VIEWER" }] });
    expect(found.data.users.find((u: { id: string }) => u.id === active.id).lastSignIn).toMatch(/^\d{4}-/);

    expect((await openUsers(cookies["operator"], `?q=${tag}&status=pending`)).data.users.map((u: { id: string }) => u.id)).toEqual([pending.id]);
    expect((await openUsers(cookies["operator"], `?q=${tag}&type=retailer`)).data.users.map((u: { id: string }) => u.id)).toEqual([active.id]);
    expect((await openUsers(cookies["operator"], `?q=${tag}&type=retailer&status=pending`)).data.users).toEqual([]);
  });

  it("pages with a cursor kept in the URL; a broken cursor shows 'User fetch failed'", async () => {
    const tag = `pagina${Date.now().toString(36)}`;
    for (let i = 0; i < 27; i++) {
      await storage().users.create(makeUserData({ email: `${tag}.${String(i).padStart(2, "0")}@brand.example`, displayName: `${tag} Person ${i}`, claims: { type: "supplier", role: "VIEWER" }, roleByTeam: {} }), { by: "system" });
    }
    const first = await openUsers(cookies["retailer.admin"], `?q=${tag}`);
    expect(first.data.users).toHaveLength(25);
    expect(first.data.next).toBeTruthy();
    const second = await openUsers(cookies["retailer.admin"], `?q=${tag}&after=${encodeURIComponent(first.data.next)}`);
    expect(second.data.users).toHaveLength(2);
    expect(second.data.filter.paged).toBe(true);
    const emails = [...first.data.users, ...second.data.users].map((u: { email: string }) => u.email);
    expect(new Set(emails).size).toBe(27);
    expect(emails).toEqual([...emails].sort());

    const broken = await openUsers(cookies["retailer.admin"], "?after=garbage");
    expect(broken.status).toBe(200);
    expect(broken.data).toMatchObject({ fetchFailed: true, users: [] });
  });

  it("a retailer admin changes a supplier's claims, but cannot make an operator nor grant above their own", async () => {
    const target = await supplier({ "acme-brand": "VIEWER" }, "VIEWER");
    const ok = await postUser(cookies["retailer.admin"], target.id, { intent: "update-claims", type: "supplier", role: "EDITOR" });
    expect(ok.status).toBe(302);
    expect((await userById(target.id)).claims).toEqual({ type: "supplier", role: "EDITOR" });

    const operator = await postUser(cookies["retailer.admin"], target.id, { intent: "update-claims", type: "operator", role: "VIEWER" });
    expect(operator.status).toBe(403);
    expect(operator.data.error).toBe("users:refused.roleAbove");
    expect((await userById(target.id)).claims).toEqual({ type: "supplier", role: "EDITOR" });

    // A form loaded before someone else's change is refused as a conflict.
    const stale = await postUser(cookies["retailer.admin"], target.id, { intent: "update-claims", type: "supplier", role: "ADMIN", version: "1" });
    expect(stale.status).toBe(409);
    expect((await userById(target.id)).claims.role).toBe("EDITOR");
  });

  it("refuses changes on oneself: claims, team roles and disabling", async () => {
    const me = await demo("retailer.admin@example.com");
    const claims = await postUser(cookies["retailer.admin"], me.id, { intent: "update-claims", type: "retailer", role: "VIEWER" });
    expect(claims.status).toBe(403);
    expect(claims.data.error).toBe("users:refused.self");
    const disable = await postUser(cookies["retailer.admin"], me.id, { intent: "set-disabled", disabled: "true" });
    expect(disable.status).toBe(403);
    // Shown under the spec's title 'User status update'.
    expect(disable.data.form).toBe("status");
    const team = await postUser(cookies["retailer.admin"], me.id, { intent: "set-team-role", teamId: "acme-brand", role: "ADMIN" });
    expect(team.status).toBe(403);
    const after = await userById(me.id);
    expect(after).toMatchObject({ claims: { type: "retailer", role: "ADMIN" }, disabled: false, roleByTeam: {} });
    const page = await openUser(cookies["retailer.admin"], me.id);
    expect(page.data).toMatchObject({ editable: false, refusal: "users:refused.self" });
  });

  it("a retailer admin may edit an equal; a retailer editor may not open or change users at all", async () => {
    const peer = await app.createUser({ email: unique("peer"), claims: { type: "retailer", role: "ADMIN" }, roleByTeam: {} });
    // Equal rights are not above: allowed.
    expect((await postUser(cookies["retailer.admin"], peer.id, { intent: "update-claims", type: "retailer", role: "EDITOR" })).status).toBe(302);
    const steppedDownAdmin = await app.createUser({ email: unique("editor-admin"), claims: { type: "retailer", role: "EDITOR" }, roleByTeam: {} });
    const editorCookie = await signIn(app.m, steppedDownAdmin.email, steppedDownAdmin.password);
    expect((await openUser(editorCookie, peer.id)).location).toBe("/not-authorized");
    expect((await postUser(editorCookie, peer.id, { intent: "set-disabled", disabled: "true" })).location).toBe("/not-authorized");
    expect((await userById(peer.id)).disabled).toBe(false);
  });

  it("gives and removes team roles on /users", async () => {
    const team = await newTeam();
    const target = await supplier({ "acme-brand": "VIEWER" }, "ADMIN");
    const give = await postUser(cookies["operator"], target.id, { intent: "set-team-role", teamId: team.id, role: "EDITOR" });
    expect(give.status).toBe(302);
    expect((await userById(target.id)).roleByTeam).toEqual({ "acme-brand": "VIEWER", [team.id]: "EDITOR" });
    const page = await openUser(cookies["operator"], target.id);
    expect(page.data.user.teams.map((t: { id: string }) => t.id).sort()).toEqual(["acme-brand", team.id].sort());
    expect(page.data.candidates.map((t: { id: string }) => t.id)).not.toContain(team.id);

    const remove = await postUser(cookies["operator"], target.id, { intent: "remove-team-role", teamId: "acme-brand" });
    expect(remove.status).toBe(302);
    expect((await userById(target.id)).roleByTeam).toEqual({ [team.id]: "EDITOR" });
    const missing = await postUser(cookies["operator"], target.id, { intent: "set-team-role", teamId: "no-such-team", role: "VIEWER" });
    expect(missing.status).toBe(404);
  });

  it("disabling signs the user out at their next request; enabling lets them back in", async () => {
    const target = await supplier({ "acme-brand": "VIEWER" }, "VIEWER");
    const cookie = await signIn(app.m, target.email, target.password);
    expect((await openHome(cookie)).status).toBe(200);

    const disabled = await postUser(cookies["retailer.admin"], target.id, { intent: "set-disabled", disabled: "true" });
    expect(disabled.status).toBe(302);
    expect((await userById(target.id)).disabled).toBe(true);

    const next = await openHome(cookie);
    expect(next.status).toBe(302);
    expect(next.location).toBe("/login");
    expect(parseSetCookies(next.headers).find((c) => c.name === "__session")?.cleared).toBe(true);
    expect((await attemptSignIn(app.m, target.email, target.password, { clientIp: "10.9.0.1" })).status).toBe(401);

    const enabled = await postUser(cookies["retailer.admin"], target.id, { intent: "set-disabled", disabled: "false" });
    expect(enabled.status).toBe(302);
    expect((await attemptSignIn(app.m, target.email, target.password, { clientIp: "10.9.0.2" })).status).toBe(302);
  });

  it("disabling ends the user's sessions on the server: enabling again does not revive them", async () => {
    const target = await supplier({ "acme-brand": "VIEWER" }, "VIEWER");
    const cookie = await signIn(app.m, target.email, target.password);
    expect((await openHome(cookie)).status).toBe(200);
    // Disabled and enabled again before the user's next request: the old session must be gone.
    expect((await postUser(cookies["retailer.admin"], target.id, { intent: "set-disabled", disabled: "true" })).status).toBe(302);
    expect((await postUser(cookies["retailer.admin"], target.id, { intent: "set-disabled", disabled: "false" })).status).toBe(302);
    const next = await openHome(cookie);
    expect(next.status).toBe(302);
    expect(next.location).toBe("/login");
  });

  it("a stale status change gets the 'User status update' / 'Error occurred' toast and changes nothing", async () => {
    const target = await supplier({ "acme-brand": "VIEWER" }, "VIEWER");
    const outcome = await postUser(cookies["operator"], target.id, { intent: "set-disabled", disabled: "true", version: "999" });
    expect(outcome.status).toBe(302);
    expect(outcome.location).toBe(`/users/${target.id}`);
    const toastCookie = outcome.headers.getSetCookie().find((c) => c.startsWith("toast="))!;
    const { toast } = await app.m.toast.getToast(new Request("http://x", { headers: { Cookie: toastCookie.split(";")[0] } }));
    expect(toast).toMatchObject({ type: "error", title: "users:errors.statusUpdate", description: "errors.errorOccurred" });
    expect((await userById(target.id)).disabled).toBe(false);
  });
});
