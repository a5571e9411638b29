/** Who receives each notification type, preferences, the wallet alerts' rules (app/domain/notifications.ts). */
import { describe, expect, it } from "vitest";
import { isRead, receives, renderNotification, startsWithin, walletAlertOf, wants } from "~/domain/notifications";
import type { Claims, NotificationPreferences, Role } from "~/domain/types";

const ALL: NotificationPreferences = { campaignStarts: true, campaignArchived: true, reportGenerated: true, walletsDepleting: true };
const user = (id: string, claims: Claims, roleByTeam: Record<string, Role> = {}, prefs: Partial<NotificationPreferences> = {}) => ({
  id,
  claims,
  roleByTeam,
  disabled: false,
  notificationPrefs: { ...ALL, ...prefs },
});

const operator = user("op", { type: "operator", role: "ADMIN" });
const retailerAdmin = user("ra", { type: "retailer", role: "ADMIN" });
const retailerViewer = user("rv", { type: "retailer", role: "VIEWER" });
const acmeAdmin = user("sa", { type: "supplier", role: "ADMIN" }, { acme: "ADMIN" });
const acmeViewer = user("sv", { type: "supplier", role: "VIEWER" }, { acme: "ADMIN" });
const otherSupplier = user("so", { type: "supplier", role: "ADMIN" }, { other: "ADMIN" });
const everyone = [operator, retailerAdmin, retailerViewer, acmeAdmin, acmeViewer, otherSupplier];
const told = (type: Parameters<typeof receives>[1], about: Parameters<typeof receives>[2]) => everyone.filter((u) => receives(u, type, about)).map((u) => u.id);

describe("who receives what", () => {
  it("campaign news goes to the campaign's team and to the staff, never to another team's suppliers nor to whoever caused it", () => {
    expect(told("campaignStarted", { teamIds: ["acme"] })).toEqual(["op", "ra", "rv", "sa", "sv"]);
    expect(told("campaignArchived", { teamIds: ["acme"], actorId: "sa" })).toEqual(["op", "ra", "rv", "sv"]);
    expect(told("emptyWallets", { teamIds: ["other"] })).toEqual(["op", "ra", "rv", "so"]);
  });

  it("a new user is told welcome; the admins of their team are told of them (the user managers when they have no team)", () => {
    expect(told("welcome", { subjectUserId: "sv" })).toEqual(["sv"]);
    expect(told("newUser", { subjectUserId: "sv", teamIds: ["acme"] })).toEqual(["sa"]);
    expect(told("newUser", { subjectUserId: "rv" })).toEqual(["op", "ra"]);
  });

  it("a new team is told to those who manage teams, not its creator", () => {
    expect(told("teamCreated", { teamIds: ["new"], actorId: "op" })).toEqual(["ra"]);
  });
});

describe("preferences", () => {
  it("each preference silences its types; types without one always come; a disabled account gets nothing", () => {
    const quiet = user("q", { type: "supplier", role: "VIEWER" }, { acme: "VIEWER" }, { campaignStarts: false, campaignArchived: false, walletsDepleting: false });
    expect(wants(quiet, "campaignStarted")).toBe(false);
    expect(wants(quiet, "campaignSoonStarted")).toBe(false);
    expect(wants(quiet, "campaignArchived")).toBe(false);
    expect(["walletsDepleting", "walletsUsedUpThisWeek", "emptyWallets"].map((t) => wants(quiet, t as never))).toEqual([false, false, false]);
    expect(wants(quiet, "insufficientFunds")).toBe(true);
    expect(wants(quiet, "welcome")).toBe(true);
    expect(wants({ ...acmeAdmin, disabled: true }, "welcome")).toBe(false);
  });
});

describe("wallet alerts", () => {
  const now = new Date("2026-11-20T12:00:00Z");
  const tenDaysAgo = new Date(now.getTime() - 10 * 86_400_000).toISOString();
  // 100.00 spent over 10 days: 10.00 a day.
  const wallet = (balance: number, status: "active" | "archived" = "active") => ({ status, balance, spend: 10_000, dailyBudget: null, firstSpendAt: tenDaysAgo });

  it("depleting under 45 days, used up this week within 7 days, empty at 0 or less, active wallets only", () => {
    expect(walletAlertOf(wallet(44_000), "walletsDepleting", now)).toBe(true);
    expect(walletAlertOf(wallet(45_000), "walletsDepleting", now)).toBe(false);
    expect(walletAlertOf(wallet(7_000), "walletsUsedUpThisWeek", now)).toBe(true);
    expect(walletAlertOf(wallet(8_000), "walletsUsedUpThisWeek", now)).toBe(false);
    expect(walletAlertOf(wallet(0), "emptyWallets", now)).toBe(true);
    expect(walletAlertOf(wallet(0), "walletsDepleting", now)).toBe(false);
    expect(walletAlertOf(wallet(0, "archived"), "emptyWallets", now)).toBe(false);
    // No spend yet: no runway to speak of.
    expect(walletAlertOf({ ...wallet(100), spend: 0, firstSpendAt: null }, "walletsDepleting", now)).toBe(false);
    // Spend for less than a full day: not enough to project, so no alert either way (ADR 44).
    const firstHour = { ...wallet(100), spend: 5_000, firstSpendAt: new Date(now.getTime() - 3_600_000).toISOString() };
    expect(walletAlertOf(firstHour, "walletsUsedUpThisWeek", now)).toBe(false);
    expect(walletAlertOf({ ...firstHour, firstSpendAt: new Date(now.getTime() - 86_400_000).toISOString() }, "walletsUsedUpThisWeek", now)).toBe(true);
  });

  it("a reversed credit or a manual debit is no spend: no depleting or used-up alert (ADR 41)", () => {
    // Credit 400, reversed, credit 40: the ledger's debit is 400, but nothing was spent on ads.
    const funded = { status: "active" as const, balance: 4_000, spend: 0, dailyBudget: null, firstSpendAt: null };
    expect(walletAlertOf(funded, "walletsDepleting", now)).toBe(false);
    expect(walletAlertOf(funded, "walletsUsedUpThisWeek", now)).toBe(false);
    expect(walletAlertOf(funded, "emptyWallets", now)).toBe(false);
  });

  it("a campaign is soon started when it starts within the threshold, not once it has begun", () => {
    const day = 24 * 3_600_000;
    expect(startsWithin("2026-11-21T11:00:00Z", now, day)).toBe(true);
    expect(startsWithin("2026-11-21T13:00:00Z", now, day)).toBe(false);
    expect(startsWithin("2026-11-20T11:00:00Z", now, day)).toBe(false);
    expect(startsWithin(null, now, day)).toBe(false);
  });
});

describe("reading", () => {
  it("a notification is read when marked, or when 'mark all read' reached it", () => {
    expect(isRead({ read: false, seq: 3 }, 2)).toBe(false);
    expect(isRead({ read: false, seq: 2 }, 2)).toBe(true);
    expect(isRead({ read: true, seq: 5 }, 0)).toBe(true);
  });

  it("renders the subject and message with 'and N more' past the names listed", () => {
    const t = (key: string, values?: Record<string, unknown>) => `${key}${JSON.stringify(values ?? {})}`;
    const { subject, message } = renderNotification(t, { type: "emptyWallets", values: { count: 7, wallets: "a, b", more: 2 } });
    expect(subject).toBe('notifications.types.emptyWallets.subject{"count":7,"wallets":"a, b","more":2}');
    expect(message).toContain('"moreText":"notifications.more{\\"count\\":2}"');
  });
});

describe("e-mail", () => {
  it("mails what a preference governs (the profile's 'Notify me, here and by e-mail, when'), the welcome and insufficient funds; not new users nor new teams", async () => {
    const { EMAILED } = await import("~/domain/notifications");
    expect([...EMAILED].sort()).toEqual(["campaignArchived", "campaignSoonStarted", "campaignStarted", "emptyWallets", "insufficientFunds", "reportGenerated", "reportStopped", "walletsDepleting", "walletsUsedUpThisWeek", "welcome"]);
  });
});

describe("report generated and display volume down (issue 11)", () => {
  it("tells a report's owner alone, silenced by the 'report generated' preference; display volume down goes to those who see the team", async () => {
    const { receives, wants } = await import("~/domain/notifications");
    const owner = { id: "u-1", claims: { type: "supplier" as const, role: "ADMIN" as const }, roleByTeam: { "team-a": "ADMIN" as const } };
    const staff = { id: "u-2", claims: { type: "retailer" as const, role: "ADMIN" as const }, roleByTeam: {} };
    expect(receives(owner, "reportGenerated", { subjectUserId: "u-1" })).toBe(true);
    expect(receives(staff, "reportGenerated", { subjectUserId: "u-1" })).toBe(false);
    const prefs = { campaignStarts: true, campaignArchived: true, reportGenerated: false, walletsDepleting: true };
    expect(wants({ ...owner, disabled: false, notificationPrefs: prefs }, "reportGenerated")).toBe(false);
    expect(receives(owner, "campaignDisplayVolumeDown", { teamIds: ["team-a"] })).toBe(true);
    expect(receives({ ...owner, roleByTeam: { "team-b": "ADMIN" as const } }, "campaignDisplayVolumeDown", { teamIds: ["team-a"] })).toBe(false);
    expect(receives(staff, "campaignDisplayVolumeDown", { teamIds: ["team-a"] })).toBe(true);
  });
});

describe("report stopped (ADR 49)", () => {
  it("tells the owner and the admins of the report's team (or, for a report about every team, those who manage users), whatever the preferences; a disabled owner is not told", () => {
    expect(told("reportStopped", { subjectUserId: "sv", teamIds: ["acme"] })).toEqual(["sa", "sv"]);
    expect(told("reportStopped", { subjectUserId: "rv", teamIds: [] })).toEqual(["op", "ra", "rv"]);
    const quiet = { campaignStarts: false, campaignArchived: false, reportGenerated: false, walletsDepleting: false };
    expect(wants({ ...acmeViewer, notificationPrefs: quiet }, "reportStopped")).toBe(true);
    expect(wants({ ...acmeViewer, disabled: true }, "reportStopped")).toBe(false);
  });
});
