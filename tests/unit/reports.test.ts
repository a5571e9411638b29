import { describe, expect, it } from "vitest";
import { mayCreateReportFor, mayEditReport, mayReadReport, ownerMayRun, maySetWalletTags, parseRecipients, reportPeriod, reportSchedule, runIdOf } from "~/domain/reports";
import { nextRun } from "~/domain/schedule";
import { ReportSchema } from "~/forms/reports";
import type { Role } from "~/domain/types";

const user = (id: string, type: "operator" | "retailer" | "supplier", role: Role, roleByTeam: Record<string, Role> = {}) => ({ id, claims: { type, role }, roleByTeam });

describe("recipients", () => {
  it("splits on spaces and new lines, keeps each once, names the invalid and the repeated", () => {
    expect(parseRecipients("a@x.example  b@x.example\nc@x.example\r\n")).toEqual({ emails: ["a@x.example", "b@x.example", "c@x.example"], invalid: [], duplicates: [] });
    expect(parseRecipients("a@x.example nope A@X.example @x.example")).toEqual({ emails: ["a@x.example"], invalid: ["nope", "@x.example"], duplicates: ["A@X.example"] });
  });

  it("the form refuses with 'Invalid email' first and flags duplicates", () => {
    const base = { intent: "save-report", name: "R", type: "teams", period: "yesterday", timeUnit: "daily", frequency: "daily", runAt: "08:00", format: "csv" };
    const bad = ReportSchema.safeParse({ ...base, recipients: "ok@x.example bad ok@x.example" });
    expect(bad.success).toBe(false);
    const messages = bad.success ? [] : bad.error.issues.filter((i) => i.path[0] === "recipients").map((i) => i.message);
    expect(messages[0]).toBe("validation.emailInvalid");
    expect(messages.some((m) => m.startsWith("reports:validation.duplicates"))).toBe(true);
    expect(ReportSchema.safeParse({ ...base, recipients: "ok@x.example" }).success).toBe(true);
    // A custom period needs its interval, in order.
    expect(ReportSchema.safeParse({ ...base, recipients: "ok@x.example", period: "custom", from: "2026-11-10", to: "2026-11-01" }).success).toBe(false);
  });
});

describe("schedule and period", () => {
  it("runs at the owner's local time across the change to winter time, once right away, weekly on Mondays, monthly on the 1st", () => {
    const now = new Date("2026-10-24T12:00:00Z");
    const daily = reportSchedule({ frequency: "daily", runAt: "08:00", timeZone: "Europe/Paris" }, now);
    const first = nextRun(daily, now)!;
    expect(first.toISOString()).toBe("2026-10-25T07:00:00.000Z"); // 08:00 CET, the day winter time starts
    expect(nextRun(daily, first)!.toISOString()).toBe("2026-10-26T07:00:00.000Z");
    expect(reportSchedule({ frequency: "once", runAt: "08:00", timeZone: "Europe/Paris" }, now)).toEqual({ type: "once", at: now.toISOString() });
    expect(reportSchedule({ frequency: "weekly", runAt: "09:30", timeZone: "America/New_York" }, now)).toMatchObject({ type: "weekly", weekday: 1, time: "09:30" });
    expect(reportSchedule({ frequency: "monthly", runAt: "09:30", timeZone: "Europe/Paris" }, now)).toMatchObject({ type: "monthly", day: 1 });
  });

  it("cuts the period's days in the retailer's time zone at the run's scheduled instant", () => {
    // 23:30 UTC on the 24th is already the 25th in Paris: "yesterday" is the 24th there.
    const at = new Date("2026-11-24T23:30:00Z");
    expect(reportPeriod({ period: "yesterday", interval: null }, at, "Europe/Paris")).toEqual({ from: "2026-11-24", to: "2026-11-24" });
    expect(reportPeriod({ period: "yesterday", interval: null }, at, "America/New_York")).toEqual({ from: "2026-11-23", to: "2026-11-23" });
    expect(reportPeriod({ period: "custom", interval: { from: "2026-11-01", to: "2026-11-07" } }, at, "Europe/Paris")).toEqual({ from: "2026-11-01", to: "2026-11-07" });
    expect(runIdOf("rep", at)).not.toBe(runIdOf("rep", at, true));
  });
});

describe("rights (NOTES.md's table)", () => {
  const own = { ownerId: "u-1", teamId: "team-a" };
  it("operators and retailer admins read and edit every report; other retailers their own", () => {
    for (const u of [user("op", "operator", "ADMIN"), user("ra", "retailer", "ADMIN")]) {
      expect(mayReadReport(u, own)).toBe(true);
      expect(mayEditReport(u, own)).toBe(true);
    }
    expect(mayReadReport(user("rv", "retailer", "VIEWER"), own)).toBe(false);
    expect(mayEditReport(user("u-1", "retailer", "VIEWER"), { ownerId: "u-1", teamId: null })).toBe(true);
    expect(mayCreateReportFor(user("rv", "retailer", "VIEWER"), null)).toBe(true);
  });

  it("suppliers create, read and edit their own on their own teams only", () => {
    const sup = user("u-1", "supplier", "VIEWER", { "team-a": "VIEWER" });
    expect(mayReadReport(sup, own)).toBe(true);
    expect(mayEditReport(sup, own)).toBe(true);
    expect(mayCreateReportFor(sup, "team-a")).toBe(true);
    expect(mayCreateReportFor(sup, "team-b")).toBe(false);
    expect(mayCreateReportFor(sup, null)).toBe(false);
    expect(mayReadReport(sup, { ownerId: "u-1", teamId: "team-b" })).toBe(false);
    expect(mayReadReport(user("u-2", "supplier", "ADMIN", { "team-a": "ADMIN" }), own)).toBe(false);
    expect(maySetWalletTags(sup)).toBe(false);
    expect(maySetWalletTags(user("rv", "retailer", "VIEWER"))).toBe(true);
  });
});

describe("display volume down (the rule)", () => {
  it("compares yesterday with the same weekday of the four weeks before, zero days counted, a zero average never alerting", async () => {
    const { isDisplayVolumeDown, referenceAverage, referenceDays } = await import("~/domain/display-volume");
    expect(referenceDays("2026-11-25")).toEqual(["2026-11-18", "2026-11-11", "2026-11-04", "2026-10-28"]);
    expect(referenceAverage([100, 100, 0, 0])).toBe(50);
    expect(isDisplayVolumeDown(24, 50)).toBe(true);
    expect(isDisplayVolumeDown(25, 50)).toBe(false);
    expect(isDisplayVolumeDown(0, 0)).toBe(false);
    expect(isDisplayVolumeDown(30, 50, 0.7)).toBe(true);
  });
});

describe("whether a report may still run as its owner (ADR 49)", () => {
  const report = { ownerId: "u-1", teamId: "team-a" };
  const owner = { ...user("u-1", "supplier", "ADMIN", { "team-a": "ADMIN" }), disabled: false };
  it("runs while its owner exists, is enabled and may read it", () => {
    expect(ownerMayRun(owner, report)).toBe(true);
    expect(ownerMayRun({ ...user("u-1", "retailer", "VIEWER"), disabled: false }, { ownerId: "u-1", teamId: null })).toBe(true);
  });
  it("stops once the owner is gone, disabled, off the team or is somebody else", () => {
    expect(ownerMayRun(null, report)).toBe(false);
    expect(ownerMayRun({ ...owner, disabled: true }, report)).toBe(false);
    expect(ownerMayRun({ ...owner, roleByTeam: {} }, report)).toBe(false);
    expect(ownerMayRun({ ...owner, roleByTeam: { "team-b": "ADMIN" } }, report)).toBe(false);
    // A manager reads every report, yet a report runs with its owner's rights, not theirs.
    expect(ownerMayRun({ ...user("ra", "retailer", "ADMIN"), disabled: false }, report)).toBe(false);
  });
});
