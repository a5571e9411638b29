/**
 * Notifications (issue 11 §3) through the real route, use cases and scheduler: the centre lists
 * only the reader's own notifications with dates in their time zone (never ISO), marks one read
 * or all read, refuses another user's id; notifications go to those who may see what they are
 * about and want them; the wallet alerts run on the scheduler's fake clock and merge after
 * downtime into one notification; a real SMTP server receives a notification e-mail in the
 * recipient's language.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeCampaignData, makePosting, makeTeamData, makeWalletInput } from "../factories";
import { args, call, decodeRawMail, getRequest, postRequest, signIn, startApp, type AppUser, type TestApp } from "./app-helpers";
import { catchSmtp } from "./smtp-catcher";

let app: TestApp;
let ann: AppUser;
let bob: AppUser;
const cookies: Record<string, string> = {};
const notifications = () => import("~/services/notifications.server");
const storage = () => app.m.storageIndex.getStorage();

beforeAll(async () => {
  app = await startApp();
  const everything = { campaignStarts: true, campaignArchived: true, reportGenerated: true, walletsDepleting: true };
  ann = await app.createUser({ claims: { type: "supplier", role: "ADMIN" }, roleByTeam: { "acme-brand": "ADMIN" }, locale: "fr", timezone: "America/New_York", notificationPrefs: everything });
  bob = await app.createUser({ claims: { type: "supplier", role: "VIEWER" }, roleByTeam: {}, locale: "en-GB" });
  cookies.ann = await signIn(app.m, ann.email, ann.password);
  cookies.bob = await signIn(app.m, bob.email, bob.password);
});
afterAll(async () => {
  await app?.stop();
});

const centre = (who: string, query = "") =>
  call(async () => (await import("~/routes/notifications")).loader(args(getRequest(`/notifications${query}`, { cookie: cookies[who] })) as never));
const post = (who: string, form: Record<string, string>) =>
  call(async () => (await import("~/routes/notifications")).action(args(postRequest("/notifications", form, { cookie: cookies[who] })) as never));

describe("the notification centre", () => {
  beforeEach(async () => {
    for (const id of [ann.id, bob.id]) await storage().notifications.markAllRead(id);
  });

  it("lists the reader's own, newest first, dates in their time zone and language, in pages", async () => {
    const at = new Date("2026-11-20T15:30:00.000Z");
    for (let i = 1; i <= 22; i++) await storage().notifications.create({ userId: ann.id, type: "campaignStarted", values: { campaign: `Spring ${i}` }, link: "/campaigns/c-1" }, new Date(at.getTime() + i * 60_000));
    await storage().notifications.create({ userId: bob.id, type: "teamCreated", values: { team: "Not for Ann" }, link: null }, at);
    const first = await centre("ann");
    expect(first.status).toBe(200);
    expect(first.data.unread).toBe(22);
    expect(first.data.items).toHaveLength(20);
    expect(first.data.items[0]).toMatchObject({ values: { campaign: "Spring 22" }, read: false, subjectKey: "notifications.types.campaignStarted.subject" });
    // 15:52 UTC is 10:52 in New York, written the French way.
    expect(first.data.items[0].createdText).toMatch(/20 nov\. 2026.*10:52/);
    expect(first.data.items[0].createdText).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    expect(first.data.items.some((n: { values: { team?: string } }) => n.values.team === "Not for Ann")).toBe(false);
    const second = await centre("ann", `?after=${encodeURIComponent(first.data.next)}`);
    expect(second.data.items.map((n: { values: { campaign: string } }) => n.values.campaign)).toEqual(["Spring 2", "Spring 1"]);
    // A forged cursor shows the first page rather than failing.
    expect((await centre("ann", "?after=forged")).status).toBe(200);
  });

  it("marks one read, refuses another user's notification (404, nothing changes), and marks all read", async () => {
    const mine = (await storage().notifications.create({ userId: ann.id, type: "campaignArchived", values: { campaign: "Autumn" }, link: null }, new Date()))!;
    const bobs = (await storage().notifications.create({ userId: bob.id, type: "teamCreated", values: { team: "Bob's" }, link: null }, new Date()))!;
    await storage().notifications.create({ userId: ann.id, type: "campaignArchived", values: { campaign: "Winter" }, link: null }, new Date());

    const forged = await post("ann", { intent: "mark-notification-read", id: bobs.id });
    expect(forged.status).toBe(404);
    expect(await storage().notifications.getOwn(bob.id, bobs.id)).toMatchObject({ read: false });
    expect((await post("bob", { intent: "unknown" })).status).toBe(400);

    const marked = await post("ann", { intent: "mark-notification-read", id: mine.id });
    expect(marked.status).toBe(302);
    expect(marked.location).toBe("/notifications");
    expect(await storage().notifications.getOwn(ann.id, mine.id)).toMatchObject({ read: true });
    expect((await centre("ann")).data.unread).toBe(1);

    const all = await post("ann", { intent: "mark-all-notifications-read" });
    expect(all.status).toBe(302);
    const after = await centre("ann");
    expect(after.data.unread).toBe(0);
    expect(after.data.items.every((n: { read: boolean }) => n.read)).toBe(true);
    // Bob's are his own: untouched.
    expect(await storage().notifications.countUnread(bob.id)).toBe(1);

    // "Mark all read" covers what the page showed: one that arrives in between stays unread.
    const page = await centre("ann");
    await storage().notifications.create({ userId: ann.id, type: "campaignArchived", values: { campaign: "Arrived meanwhile" }, link: null }, new Date());
    expect((await post("ann", { intent: "mark-all-notifications-read", through: String(page.data.latestSeq) })).status).toBe(302);
    const later = await centre("ann");
    expect(later.data.unread).toBe(1);
    expect(later.data.items[0]).toMatchObject({ values: { campaign: "Arrived meanwhile" }, read: false });
    expect((await post("ann", { intent: "mark-all-notifications-read", through: "-1" })).status).toBe(400);
  });

  it("sends a signed-out visitor to sign in, and counts the unread in the top bar", async () => {
    const outcome = await call(async () => (await import("~/routes/notifications")).loader(args(getRequest("/notifications")) as never));
    expect(outcome.status).toBe(302);
    expect(outcome.location).toMatch(/^\/login/);
    await storage().notifications.create({ userId: bob.id, type: "welcome", values: { name: "Bob" }, link: "/profile" }, new Date());
    const root = await call(async () => (await import("~/root")).loader(args(getRequest("/", { cookie: cookies.bob })) as never));
    expect(root.data.unreadNotifications).toBe(1);
    expect(root.data.menu.map((m: { key: string }) => m.key)).toContain("notifications");
  });
});

describe("who is told", () => {
  it("tells the staff who manage teams of a new team, not the one who created it nor suppliers", async () => {
    const operator = (await storage().users.getByEmail("operator@example.com"))!;
    const admin = (await storage().users.getByEmail("retailer.admin@example.com"))!;
    const viewer = (await storage().users.getByEmail("retailer.viewer@example.com"))!;
    const before = await Promise.all([operator, admin, viewer, ann].map((u) => storage().notifications.countUnread(u.id)));
    const { createTeam } = await import("~/services/teams-admin.server");
    const created = await createTeam(operator, { ...makeTeamData({ name: `Told team ${Date.now()}` }), tags: "", associated_brands: "", internalBilling: false, logo: null } as never);
    expect(created.ok).toBe(true);
    const after = await Promise.all([operator, admin, viewer, ann].map((u) => storage().notifications.countUnread(u.id)));
    expect(after.map((n, i) => n - before[i]!)).toEqual([0, 1, 0, 0]);
    const [latest] = (await storage().notifications.list(admin.id, { limit: 1 })).items;
    expect(latest).toMatchObject({ type: "teamCreated", values: { team: expect.stringMatching(/^Told team/) } });
  });

  it("tells a campaign's team and the staff, honouring 'campaign archived' turned off, never another team's suppliers", async () => {
    const { notifyCampaign } = await notifications();
    const quiet = await app.createUser({ claims: { type: "supplier", role: "VIEWER" }, roleByTeam: { "acme-brand": "VIEWER" }, notificationPrefs: { campaignStarts: true, campaignArchived: false, reportGenerated: true, walletsDepleting: true } });
    const counts = () => Promise.all([ann, bob, quiet].map((u) => storage().notifications.countUnread(u.id)));
    const before = await counts();
    await notifyCampaign("campaignArchived", { id: "c-9", name: "Old one", team: "acme-brand" }, { actorId: null });
    expect((await counts()).map((n, i) => n - before[i]!)).toEqual([1, 0, 0]);
    await notifyCampaign("campaignStarted", { id: "c-9", name: "Old one", team: "acme-brand" }, { actorId: ann.id });
    // Ann started it herself: not told; the quiet viewer wants starts.
    expect((await counts()).map((n, i) => n - before[i]!)).toEqual([1, 0, 1]);
  });
});

describe("campaign news from the use cases and the hourly check", () => {
  it("archiving a campaign tells its team (not the one who archived it); a campaign starting within 24 hours is told once", async () => {
    const counts = () => Promise.all([ann, bob].map((u) => storage().notifications.countUnread(u.id)));
    const supplierAdmin = (await storage().users.getByEmail("supplier.admin@example.com"))!;
    const team = (await storage().teams.getOne("acme-brand"))!;
    const draft = await storage().campaigns.create(makeCampaignData({ team: "acme-brand", name: "Paused coffee", status: "paused" }), { by: "system" });
    const before = await counts();
    const { runCampaignAction } = await import("~/services/campaigns/campaigns.server");
    const archived = await runCampaignAction(supplierAdmin, { campaign: draft, team }, "archive", draft.version);
    expect(archived.ok).toBe(true);
    expect((await counts()).map((n, i) => n - before[i]!)).toEqual([1, 0]);
    expect((await storage().notifications.list(ann.id, { limit: 1 })).items[0]).toMatchObject({ type: "campaignArchived", values: { campaign: "Paused coffee" }, link: `/campaigns/${draft.id}` });

    const now = new Date("2026-11-20T10:00:00.000Z");
    const soon = await storage().campaigns.create(makeCampaignData({ team: "acme-brand", name: "Tomorrow's tea", status: "active", startDate: "2026-11-21T08:00:00.000Z" }), { by: "system" });
    await storage().campaigns.create(makeCampaignData({ team: "acme-brand", name: "Next week's tea", status: "active", startDate: "2026-11-27T08:00:00.000Z" }), { by: "system" });
    const { campaignsSoonStarted } = await notifications();
    const middle = await counts();
    expect((await campaignsSoonStarted(now, 24)).ok).toBe(true);
    expect((await campaignsSoonStarted(new Date(now.getTime() + 3_600_000), 24)).ok).toBe(true);
    expect((await counts()).map((n, i) => n - middle[i]!)).toEqual([1, 0]);
    expect((await storage().notifications.list(ann.id, { limit: 1 })).items[0]).toMatchObject({ type: "campaignSoonStarted", values: { campaign: "Tomorrow's tea", hours: 24 }, link: `/campaigns/${soon.id}` });
  });
  it("'campaign started' comes when a campaign serves: at its activation once its start passed, else from the hourly check at its start, once", async () => {
    const types = async (user: AppUser) => (await storage().notifications.list(user.id, {})).items.filter((n) => n.type === "campaignStarted").map((n) => n.values.campaign);
    const supplierAdmin = (await storage().users.getByEmail("supplier.admin@example.com"))!;
    const team = (await storage().teams.getOne("acme-brand"))!;
    const { runCampaignAction } = await import("~/services/campaigns/campaigns.server");
    const { createScheduler } = await import("~/services/scheduler.server");
    const { scheduleNotificationJobs } = await notifications();
    const inAWeek = new Date(Date.now() + 7 * 86_400_000);
    const later = await storage().campaigns.create(makeCampaignData({ team: "acme-brand", name: "Next week's jam", status: "paused", bid: 50, startDate: inAWeek.toISOString() }), { by: "system" });
    const already = await storage().campaigns.create(makeCampaignData({ team: "acme-brand", name: "Today's jam", status: "paused", bid: 50, startDate: new Date(Date.now() - 86_400_000).toISOString() }), { by: "system" });
    // Enabled before its start: nobody is told it started.
    const enabled = await runCampaignAction(supplierAdmin, { campaign: later, team }, "enable", later.version);
    expect(enabled.ok, JSON.stringify(enabled)).toBe(true);
    expect(await types(ann)).not.toContain("Next week's jam");
    // Its start already passed: told at once (not the one who enabled it); paused and enabled again, not told twice.
    expect((await runCampaignAction(supplierAdmin, { campaign: already, team }, "enable", already.version)).ok).toBe(true);
    expect((await types(ann)).filter((c) => c === "Today's jam")).toHaveLength(1);
    expect((await types(supplierAdmin as AppUser)).filter((c) => c === "Today's jam")).toHaveLength(0);
    const paused = await runCampaignAction(supplierAdmin, { campaign: (await storage().campaigns.getOne(already.id))!, team }, "pause", (await storage().campaigns.getOne(already.id))!.version);
    expect(paused.ok).toBe(true);
    const again = (await storage().campaigns.getOne(already.id))!;
    expect((await runCampaignAction(supplierAdmin, { campaign: again, team }, "enable", again.version)).ok).toBe(true);
    expect((await types(ann)).filter((c) => c === "Today's jam")).toHaveLength(1);
    // The hourly check on the scheduler's clock: before the start nothing; the run after it tells the team once, also when run again.
    let now = new Date(inAWeek.getTime() - 2 * 3_600_000);
    const scheduler = createScheduler({ clock: () => now, owner: "test-started" });
    await scheduleNotificationJobs(scheduler);
    now = new Date(inAWeek.getTime() - 1);
    await scheduler.tick();
    expect(await types(ann)).not.toContain("Next week's jam");
    now = new Date(inAWeek.getTime() + 3 * 3_600_000); // down for hours: the merged run still covers the start
    const ran = (await scheduler.tick()).filter((r) => r.kind === "alert-campaignStarted");
    expect(ran).toMatchObject([{ outcome: "done" }]);
    expect((await types(ann)).filter((c) => c === "Next week's jam")).toHaveLength(1);
    expect((await types(bob)).filter((c) => c === "Next week's jam")).toHaveLength(0);
    const { campaignsStarted } = await notifications();
    await campaignsStarted(now, new Date(inAWeek.getTime() - 3_600_000));
    expect((await types(ann)).filter((c) => c === "Next week's jam")).toHaveLength(1);
    // The jobs' next runs are a week ahead now: the wallet alerts below start from fresh jobs.
    for (const job of (await notifications()).NOTIFICATION_JOBS) await storage().jobs.remove(job.id);
  });
});

describe("wallet alerts on the scheduler", () => {
  it("runs the daily empty-wallets alert once after four daily runs missed (merged), one notification per user naming the wallets they may see", async () => {
    const { createScheduler } = await import("~/services/scheduler.server");
    const { scheduleNotificationJobs } = await notifications();
    const team = await storage().teams.create({ ...makeTeamData({ name: `Empty team ${Date.now()}` }), status: "active" } as never, { by: "system" });
    const owner = await app.createUser({ claims: { type: "supplier", role: "ADMIN" }, roleByTeam: { [team.id]: "ADMIN" } });
    await storage().wallets.create(team.id, makeWalletInput({ label: "Drained", status: "active" }), { by: "system" });
    let now = new Date("2026-11-23T07:00:00.000Z"); // Monday 08:00 in Paris
    const scheduler = createScheduler({ clock: () => now, owner: "test" });
    await scheduleNotificationJobs(scheduler);
    expect(await scheduler.tick()).toEqual([]);
    now = new Date("2026-11-26T10:00:00.000Z"); // Thursday: Monday's weekly and three daily runs missed
    const runs = await scheduler.tick();
    const empty = runs.filter((r) => r.kind === "alert-emptyWallets");
    expect(empty).toHaveLength(1);
    expect(empty[0]).toMatchObject({ outcome: "done", runs: 4 });
    // Monday's weekly alerts ran once each (an empty wallet has no runway: they named nothing).
    expect(runs.filter((r) => r.kind === "alert-walletsDepleting" || r.kind === "alert-walletsUsedUpThisWeek").map((r) => [r.kind, r.outcome, r.runs]).sort()).toEqual([
      ["alert-walletsDepleting", "done", 1],
      ["alert-walletsUsedUpThisWeek", "done", 1],
    ]);
    const mine = (await storage().notifications.list(owner.id, {})).items;
    expect(mine.map((n) => n.type)).toEqual(["emptyWallets"]);
    expect(mine[0]).toMatchObject({ values: { count: 1, wallets: expect.stringContaining("Drained"), more: 0 }, link: `/teams/${team.id}/wallets` });
    // Another supplier is not told of this team's wallets.
    expect((await storage().notifications.list(bob.id, {})).items.filter((n) => n.type === "emptyWallets")).toEqual([]);
    // Nothing more is due until the next day (the hourly check of campaigns about to start aside).
    expect(await scheduler.tick()).toEqual([]);
    now = new Date("2026-11-27T08:00:01.000Z");
    expect((await scheduler.tick()).map((r) => r.kind).filter((kind) => kind !== "alert-campaignSoonStarted" && kind !== "alert-campaignStarted")).toEqual(["alert-emptyWallets"]);
    expect((await storage().notifications.list(owner.id, {})).items).toHaveLength(2);
  });
});

describe("weekly wallet alerts", () => {
  it("on Monday 09:00 (the retailer's), names the wallets running out within 45 days, and those used up this week, to those who may see them", async () => {
    const { createScheduler } = await import("~/services/scheduler.server");
    const { scheduleNotificationJobs, NOTIFICATION_JOBS } = await notifications();
    for (const job of NOTIFICATION_JOBS) await storage().jobs.remove(job.id);
    const team = await storage().teams.create({ ...makeTeamData({ name: `Spending team ${Date.now()}` }), status: "active" } as never, { by: "system" });
    const owner = await app.createUser({ claims: { type: "supplier", role: "VIEWER" }, roleByTeam: { [team.id]: "VIEWER" } });
    const spent = async (label: string, debit: number) => {
      const wallet = await storage().wallets.create(team.id, makeWalletInput({ label, status: "active" }), { by: "system" });
      const at = new Date("2026-11-23T10:00:00.000Z");
      await storage().ledger.post(makePosting(wallet.id, { amount: 100_000 }), at);
      // Ad spend, settled as the settlement does it (ADR 41: a manual debit would be no spend).
      const batchId = `alerts-${wallet.id}`;
      const cost = { [wallet.id]: { total: debit * 10_000, campaigns: { "no-campaign": debit * 10_000 } } };
      await storage().spend.openBatch({ batchId, eventsHash: batchId, accepted: 1, refused: [], cost, newestEvent: at.toISOString(), received: at.toISOString() });
      await storage().spend.recordBatch(batchId, at);
      await storage().spend.settle(wallet.id, { now: at, timeZone: "Europe/Paris" });
      // A manual debit moves the balance, not the runway's spend.
      await storage().ledger.post(makePosting(wallet.id, { type: "debit", amount: 1 }), at);
    };
    // A week after the first spend: 300 spent (about 43 a day) of 1,000 leaves 16 days; 800 spent leaves 1 day.
    await spent("Slow wallet", 30_000);
    await spent("Fast wallet", 80_000);
    await spent("Calm wallet", 1_000);
    let now = new Date("2026-11-29T12:00:00.000Z"); // Sunday
    const scheduler = createScheduler({ clock: () => now, owner: "test-weekly" });
    await scheduleNotificationJobs(scheduler);
    now = new Date("2026-11-30T07:59:59.000Z");
    expect((await scheduler.tick()).map((r) => r.kind).filter((k) => k.startsWith("alert-wallets"))).toEqual([]);
    now = new Date("2026-11-30T08:00:01.000Z"); // Monday 09:00 in Paris
    const ran = (await scheduler.tick()).filter((r) => r.kind.startsWith("alert-wallets"));
    expect(ran.map((r) => r.outcome)).toEqual(["done", "done"]);
    const mine = (await storage().notifications.list(owner.id, {})).items;
    const depleting = mine.find((n) => n.type === "walletsDepleting");
    expect(depleting).toMatchObject({ values: { count: 2, days: 45 }, link: `/teams/${team.id}/wallets` });
    expect(String(depleting!.values.wallets)).toMatch(/Slow wallet/);
    expect(String(depleting!.values.wallets)).toMatch(/Fast wallet/);
    expect(String(depleting!.values.wallets)).not.toMatch(/Calm wallet/);
    const thisWeek = mine.find((n) => n.type === "walletsUsedUpThisWeek");
    expect(thisWeek).toMatchObject({ values: { count: 1 } });
    expect(String(thisWeek!.values.wallets)).toMatch(/Fast wallet/);
    // Another supplier does not hear of this team's wallets; nothing more until next Monday.
    expect((await storage().notifications.list(bob.id, {})).items.filter((n) => n.type === "walletsDepleting" && String(n.values.wallets).includes("Slow wallet"))).toEqual([]);
    now = new Date("2026-12-06T12:00:00.000Z");
    expect((await scheduler.tick()).map((r) => r.kind).filter((k) => k.startsWith("alert-wallets"))).toEqual([]);
    for (const job of NOTIFICATION_JOBS) await storage().jobs.remove(job.id);
  });
});

describe("notification e-mail over SMTP", () => {
  const received = catchSmtp(() => app);

  it("mails the welcome in the new user's language, with a link to the console", async () => {
    const { notifyNewUser } = await notifications();
    const french = await app.createUser({ claims: { type: "supplier", role: "VIEWER" }, roleByTeam: {}, locale: "fr", displayName: "Zoé Martin" });
    await notifyNewUser(french, []);
    const mail = received.find((m) => m.to.includes(french.email));
    expect(mail).toBeDefined();
    const { headers, text } = decodeRawMail(mail!.raw);
    expect(headers.subject).toBe("Bienvenue sur la console publicitaire");
    expect(text).toContain("Bienvenue, Zoé Martin !");
    expect(text).toContain("http://console.test/profile");
    expect((await storage().notifications.list(french.id, {})).items.map((n) => n.type)).toEqual(["welcome"]);
  });

  it("writes counts the reader's way: 12,345 rows in English, 12 345 in French", async () => {
    const { notificationMail } = await notifications();
    const en = await notificationMail({ email: "en@x.example", locale: "en-GB", displayName: "En" }, "reportGenerated", { report: "Big", rows: 12_345, count: 12_345 }, "/reports/r/history");
    expect(en.text).toContain("The report Big is ready: 12,345 rows.");
    const fr = await notificationMail({ email: "fr@x.example", locale: "fr", displayName: "Fr" }, "campaignDisplayVolumeDown", { campaign: "Thé", displays: 1_200, average: 4_500, percent: 50 }, null);
    expect(fr.text).toMatch(/a eu 1\u202f200 affichages hier.*moyenne de 4\u202f500/);
    // The other counts too: products of a failed feed, wallets of an alert and those past the ones named.
    const feed = await notificationMail({ email: "en@x.example", locale: "en-GB", displayName: "En" }, "catalogProcessingFailed", { file: "feed.csv", imported: 12_345 }, "/catalog");
    expect(feed.text).toContain("Products updated before it stopped: 12,345.");
    const wallets = await notificationMail({ email: "fr@x.example", locale: "fr", displayName: "Fr" }, "emptyWallets", { count: 1_205, wallets: "A (T)", more: 1_204 }, null);
    expect(wallets.text).toContain("1\u202f205 portefeuilles sont vides : A (T) et 1\u202f204 de plus.");
  });
});
