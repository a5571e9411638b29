/**
 * Reports (spec sections 2, 3 and 9, NOTES.md "Reports"): saved definitions of statistics
 * exports, their runs and who may do what with them. Pure: the use case
 * (app/services/reports.server.ts) reads and writes storage and asks these rules.
 *
 * - A report breaks statistics down by one term of the /metrics contract (its type), over a
 *   period (a date preset of spec section 9, or a custom interval of days), daily (one row per
 *   day and key) or cumulative (one row per key), optionally only for wallets carrying some tags.
 * - It runs once or on a schedule at its owner's local time; the period's days are cut in the
 *   retailer's time zone at the instant the run was scheduled for.
 */
import type { Dimension } from "~/domain/metrics/metrics";
import { isDay, OVERVIEW_PRESETS, resolvePreset, type Day, type Period, type Preset } from "~/domain/metrics/periods";
import { can, canSeeSensitive, teamRoleOn } from "~/domain/permissions";
import type { Schedule } from "~/domain/schedule";
import type { DocMeta, User } from "~/domain/types";

export const REPORT_TYPES = ["teams", "wallets", "campaigns", "products", "keywords", "categories"] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/** The /metrics group term each type breaks statistics down by. */
export const TERM_OF_TYPE: Record<ReportType, Dimension> = {
  teams: "team",
  wallets: "wallet",
  campaigns: "campaign",
  products: "product",
  keywords: "keyword",
  categories: "category",
};

/** The presets a report may use: those of screens about many teams (no lifetime of one wallet or campaign). */
export const REPORT_PERIODS: readonly Preset[] = OVERVIEW_PRESETS;
/** Spec section 9: "Default period today" (a new report's form starts there). */
export const DEFAULT_REPORT_PERIOD: Preset = "today";

export const TIME_UNITS = ["daily", "cumulative"] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];

/** CSV only: no well-kept XLSX writer is among the project's packages (ADR 29). */
export const REPORT_FORMATS = ["csv"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const FREQUENCIES = ["once", "daily", "weekly", "monthly"] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export const RUN_STATUSES = ["inProgress", "done", "aborted", "failed"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Spec section 9: a run past this many rows is aborted (the REPORT_ROW_LIMIT setting). */
export const DEFAULT_ROW_LIMIT = 10_000;
/** The spec's message of an aborted run (section 8), as an i18n key. */
export const ABORTED_REASON = "reports:aborted";
/** Days a generated file (and its link) lasts (the REPORT_FILE_TTL_DAYS setting). */
export const DEFAULT_FILE_TTL_DAYS = 7;
/** Weekly reports run on Mondays, monthly ones on the 1st, at the report's time. */
export const WEEKLY_RUN_WEEKDAY = 1;
export const MONTHLY_RUN_DAY = 1;
export const DEFAULT_RUN_TIME = "08:00";

export const REPORT_NAME_MAX = 120;
export const MAX_RECIPIENTS = 50;
export const MAX_WALLET_TAGS = 20;
export const WALLET_TAG_MAX = 60;

export interface ReportInterval {
  from: Day;
  to: Day;
}

export interface ReportLastRun {
  runId: string;
  at: string;
  status: RunStatus;
  rows: number | null;
  expiresAt: string | null;
}

/**
 * Why and since when a report no longer runs (ADR 49): the run that found its owner without the
 * right to read it stopped it; the scheduler has no run of it until someone who may edit it
 * resumes it (its owner's rights back).
 */
export interface ReportStop {
  /** When the run that stopped it started (ISO). */
  at: string;
  /** An i18n key: why it stopped. */
  reason: string;
  /** The run that found it. */
  runId: string;
}

/** Why a report stops: its owner may no longer read it (the failed run's reason too). */
export const OWNER_RIGHTS_REASON = "reports:reasons.ownerRights";

export interface ReportData {
  ownerId: string;
  ownerEmail: string;
  name: string;
  nameLower: string;
  type: ReportType;
  period: Preset;
  /** The days of a custom period; null for the other presets. */
  interval: ReportInterval | null;
  timeUnit: TimeUnit;
  /** Only wallets carrying one of these tags (operators and retailers only); empty: every wallet. */
  walletTags: string[];
  /** A supplier's report is about one of their teams; a staff member's about every team (null) or one. */
  teamId: string | null;
  recipients: string[];
  format: ReportFormat;
  frequency: Frequency;
  /** "HH:MM" in `timeZone` (the owner's when saved) for daily, weekly and monthly reports. */
  runAt: string;
  timeZone: string;
  lastRun: ReportLastRun | null;
  /** Set while the report is stopped; null or absent while it runs (ADR 49). */
  stopped?: ReportStop | null;
  created: string;
  updated: string;
}
export type Report = ReportData & DocMeta;

export interface ReportRunData {
  reportId: string;
  ownerId: string;
  /** The run of the schedule this is (what its period is cut from). */
  scheduledFor: string;
  started: string;
  finished: string | null;
  status: RunStatus;
  /** An i18n key (failed, aborted), else null. */
  reason: string | null;
  rows: number | null;
  period: Period;
  fileKey: string | null;
  fileName: string | null;
  /** When the file and its link expire (ISO); null when no file was made. */
  expiresAt: string | null;
  /** Set while a file waits for removal (the expiry job's range query); deleted with the file. */
  removeAt?: string;
  /** True once the expiry job removed the file. */
  expired: boolean;
  /** "Run now" instead of the schedule. */
  manual: boolean;
}
export type ReportRun = ReportRunData & DocMeta;

/** The id of a run: stable per report and scheduled instant, so a run taken over writes the same documents and file. */
export function runIdOf(reportId: string, scheduledFor: Date, manual = false): string {
  return `${reportId}-${manual ? "now-" : ""}${scheduledFor.getTime().toString(36)}`;
}

// ---------------------------------------------------------------------------------------------
// Recipients: separated by spaces or new lines (commas and semicolons too), each a valid e-mail

const EMAIL_RE = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\]{2,}$/;

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL_RE.test(value);
}

export interface ParsedRecipients {
  emails: string[];
  invalid: string[];
  duplicates: string[];
}

/** The recipients of a text as typed: each kept once (case aside), the invalid and the repeated named. */
export function parseRecipients(text: string): ParsedRecipients {
  const seen = new Set<string>();
  const out: ParsedRecipients = { emails: [], invalid: [], duplicates: [] };
  for (const part of text.split(/[\s,;]+/).filter(Boolean)) {
    if (!isEmail(part)) {
      if (!out.invalid.includes(part)) out.invalid.push(part);
      continue;
    }
    const key = part.toLowerCase();
    if (seen.has(key)) {
      if (!out.duplicates.some((d) => d.toLowerCase() === key)) out.duplicates.push(part);
      continue;
    }
    seen.add(key);
    out.emails.push(part);
  }
  return out;
}

export function parseTags(text: string): string[] {
  const out: string[] = [];
  for (const tag of text.split(/[,\n]+/).map((t) => t.trim()).filter(Boolean)) if (!out.includes(tag)) out.push(tag);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Schedule and period

/** The schedule of a report's runs: once (now), or daily, weekly (Mondays), monthly (the 1st) at its time in its zone. */
export function reportSchedule(report: Pick<ReportData, "frequency" | "runAt" | "timeZone">, now: Date): Schedule {
  switch (report.frequency) {
    case "once":
      return { type: "once", at: now.toISOString() };
    case "daily":
      return { type: "daily", time: report.runAt, timeZone: report.timeZone };
    case "weekly":
      return { type: "weekly", time: report.runAt, timeZone: report.timeZone, weekday: WEEKLY_RUN_WEEKDAY };
    case "monthly":
      return { type: "monthly", time: report.runAt, timeZone: report.timeZone, day: MONTHLY_RUN_DAY };
  }
}

/** The days a run covers: the preset at the run's scheduled instant, in the retailer's days. */
export function reportPeriod(report: Pick<ReportData, "period" | "interval">, scheduledFor: Date, retailerTimeZone: string): Period {
  const custom = report.period === "custom" && report.interval && isDay(report.interval.from) && isDay(report.interval.to) ? report.interval : undefined;
  return resolvePreset(report.period, { now: scheduledFor, timeZone: retailerTimeZone, custom });
}

// ---------------------------------------------------------------------------------------------
// Rights (NOTES.md: operator all, retailer ADMIN all, other retailers read/create/edit own,
// suppliers read/create/edit own on own teams)

type Subject = Pick<User, "id" | "claims" | "roleByTeam">;

/** Whether the user sees and edits every user's reports (operator, retailer ADMIN). */
export function managesAllReports(user: Subject): boolean {
  return can(user, "Report", "manage-all");
}

/** Whether the user may read (and open the history of) this report. */
export function mayReadReport(user: Subject, report: Pick<ReportData, "ownerId" | "teamId">): boolean {
  if (!can(user, "Report", "read")) return false;
  if (managesAllReports(user)) return true;
  if (report.ownerId !== user.id) return false;
  return user.claims.type !== "supplier" || (report.teamId !== null && can(user, "Report", "read", { teamId: report.teamId }));
}

/** Whether the user may change, run or delete this report. */
export function mayEditReport(user: Subject, report: Pick<ReportData, "ownerId" | "teamId">): boolean {
  if (!mayReadReport(user, report)) return false;
  if (managesAllReports(user)) return true;
  return user.claims.type !== "supplier" ? can(user, "Report", "update") : report.teamId !== null && can(user, "Report", "update", { teamId: report.teamId });
}

/** Whether the user may create a report about this team (null: every team, staff only). */
export function mayCreateReportFor(user: Subject, teamId: string | null): boolean {
  if (user.claims.type === "supplier") return teamId !== null && !!teamRoleOn(user.roleByTeam, teamId) && can(user, "Report", "create", { teamId });
  return can(user, "Report", "create");
}

/** Wallet tags are sensitive (NOTES.md): only operators and retailers see or set the filter. */
export function maySetWalletTags(user: Pick<User, "claims">): boolean {
  return canSeeSensitive(user.claims);
}

/**
 * Whether a report may run as its owner, the owner as they are now: an account that still exists,
 * is enabled and may read the report (still on its team, with the right to read reports).
 */
export function ownerMayRun<T extends Subject & Pick<User, "disabled">>(owner: T | null, report: Pick<ReportData, "ownerId" | "teamId">): owner is T {
  return !!owner && owner.id === report.ownerId && !owner.disabled && mayReadReport(owner, report);
}

/** Whether a download link's expiry has passed. */
export function isExpired(expiresAt: string | null, now: Date): boolean {
  return !expiresAt || Date.parse(expiresAt) <= now.getTime();
}
