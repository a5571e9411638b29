/**
 * Reports (issue 11 §2, ADR 29): saved statistics exports, their runs on the scheduler, the
 * files they make and the signed links that fetch them. No HTTP.
 *
 * - Saving a report defines its job (ADR 21, kind `report`, catch-up `each`): once right away, or
 *   daily, weekly (Mondays) or monthly (the 1st) at the owner's local time. "Run now" is a second
 *   job of the report, run once at once.
 * - A run reads the /metrics contract through the one client (fetchMetrics) as the report's
 *   owner, read again at run time: a supplier's report holds their teams only, and with
 *   METRICS_API_URL the call carries an identity token minted for that owner alone. Its period is
 *   the preset at the run's scheduled instant, in the retailer's days. Past the row limit it ends
 *   'aborted' with the spec's message; a failure ends 'failed' with its reason. A run that finds
 *   the owner without the right to read the report stops it (ADR 49): no more runs, its owner and
 *   those who can give them access back told once, until a save by someone who may edit it
 *   resumes it.
 * - The file is stored under the run's id with an expiry; recipients get a link signed with the
 *   console's secret that names the run and its expiry: it works without an account and stops
 *   working when the file expires (a job removes expired files) or when any part is changed.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import Papa from "papaparse";
import { dateTimeFormat, numberFormat } from "~/domain/intl";
import { FALLBACK_LOCALE, normaliseLocale } from "~/domain/locale";
import type { MetricsRequest, MetricsResponse } from "~/domain/metrics/contract";
import { figureCell, statisticsFileName } from "~/domain/metrics/csv";
import { derive, METRICS, zeroMeasures, type Dimension, type Measures } from "~/domain/metrics/metrics";
import { daysOf, type Period } from "~/domain/metrics/periods";
import { fail, ok, type Result } from "~/domain/result";
import {
  ABORTED_REASON,
  DEFAULT_FILE_TTL_DAYS,
  DEFAULT_ROW_LIMIT,
  isExpired,
  managesAllReports,
  mayCreateReportFor,
  mayEditReport,
  mayReadReport,
  maySetWalletTags,
  OWNER_RIGHTS_REASON,
  ownerMayRun,
  reportPeriod,
  reportSchedule,
  runIdOf,
  TERM_OF_TYPE,
  type Frequency,
  type Report,
  type ReportData,
  type ReportRun,
  type ReportStop,
  type ReportType,
  type RunStatus,
} from "~/domain/reports";
import { auditActor } from "~/domain/operators";
import { isAdminOfTeam } from "~/domain/notifications";
import { can } from "~/domain/permissions";
import type { Team, User } from "~/domain/types";
import { CSV_FORMULA_PATTERN } from "~/domain/wallets/ledger-csv";
import { getEnv } from "~/services/env.server";
import { getFileStore } from "~/services/files.server";
import { getFixedT } from "~/services/i18n.server";
import { sendMail } from "~/services/mail.server";
import { fetchMetrics } from "~/services/metrics.server";
import { raise } from "~/services/notifications.server";
import { retailerTimeZone } from "~/services/retailer-settings.server";
import { saveJob, type JobContext, type JobKind, type JobResult, type Scheduler } from "~/services/scheduler.server";
import { getStorage } from "~/services/storage.server";
import { ConflictError, type JobStop, type Page } from "~/storage/port";

export const REPORT_JOB_KIND = "report";
export const REPORT_EXPIRY_JOB = "report-files-expiry";
export const REPORTS_PAGE_SIZE = 50;
export const RUNS_PAGE_SIZE = 20;
/** Teams a staff member's report may be narrowed to, offered in the form at most. */
const TEAM_CHOICES = 500;
/** Teams looked at when resolving wallet tags at most. */
const MAX_TEAMS_SCANNED = 5_000;

export const reportJobId = (reportId: string) => `report-${reportId}`;
export const reportNowJobId = (reportId: string) => `report-now-${reportId}`;
/** The reason of a run the scheduler still had for a report stopped meanwhile (Activity). */
export const STOPPED_RUN_REASON = "reports:reasons.stopped";

function log(level: "info" | "error", msg: string, extra: Record<string, unknown>) {
  const line = JSON.stringify({ level, msg, ...extra });
  if (level === "info") console.log(line);
  else console.error(line);
}

function rowLimit(): number {
  return getEnv().REPORT_ROW_LIMIT;
}

// ---------------------------------------------------------------------------------------------
// Signed links

function signature(runId: string, expiresMs: number): string {
  return createHmac("sha256", getEnv().SESSION_SECRET).update(`report-file\n${runId}\n${expiresMs}`).digest("base64url");
}

/** The link e-mailed to recipients: the run, its expiry and their signature. */
export function reportFileLink(run: Pick<ReportRun, "id" | "expiresAt">): string | null {
  if (!run.expiresAt) return null;
  const expires = Date.parse(run.expiresAt);
  return `${getEnv().PUBLIC_URL}/report-files/${encodeURIComponent(run.id)}?${new URLSearchParams({ expires: String(expires), signature: signature(run.id, expires) })}`;
}

export interface ReportDownload {
  bytes: Uint8Array<ArrayBuffer>;
  fileName: string;
  contentType: string;
}

/** The file behind a signed link; any tampering, an expiry past or a removed file answers not found. */
export async function downloadReportFile(runId: string, expiresParam: string | null, signatureParam: string | null, now = new Date()): Promise<Result<ReportDownload>> {
  const gone = fail("not-found", "reports:linkGone");
  const expires = Number(expiresParam);
  if (!runId || !Number.isSafeInteger(expires) || !signatureParam) return gone;
  const expected = Buffer.from(signature(runId, expires));
  const given = Buffer.from(signatureParam);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return gone;
  if (expires <= now.getTime()) return gone;
  const run = await getStorage().reports.getRun(runId);
  if (!run || !run.fileKey || !run.expiresAt || Date.parse(run.expiresAt) !== expires || isExpired(run.expiresAt, now)) return gone;
  const file = await getFileStore().get(run.fileKey);
  if (!file) return gone;
  return ok({ bytes: file.bytes, fileName: run.fileName ?? "report.csv", contentType: "text/csv; charset=utf-8" });
}

// ---------------------------------------------------------------------------------------------
// Reading

export interface TimeText {
  at: string;
  text: string;
}

export interface ReportRow {
  id: string;
  name: string;
  type: ReportType;
  frequency: Frequency;
  owner: string;
  lastRun: (TimeText & { status: RunStatus }) | null;
  nextRun: TimeText | null;
  rows: string | null;
  expiry: TimeText | null;
  editable: boolean;
  /** While the report is stopped (ADR 49): since when, and why (an i18n key). */
  stopped: { since: TimeText; reason: string } | null;
}

interface Format {
  locale: string;
  timeZone: string;
}

function timeText(iso: string | null | undefined, format: Format): TimeText | null {
  if (!iso) return null;
  return { at: iso, text: dateTimeFormat(format.locale, { dateStyle: "medium", timeStyle: "short", timeZone: format.timeZone }).format(new Date(iso)) };
}

/** A stopped report's stop as shown: since when (the reader's zone) and why. */
export function stoppedText(report: Pick<Report, "stopped">, format: Format): { since: TimeText; reason: string } | null {
  return report.stopped ? { since: timeText(report.stopped.at, format)!, reason: report.stopped.reason } : null;
}

/** The next scheduled or asked-for run of a report, from its jobs. */
async function nextRunOf(reportId: string): Promise<string | null> {
  const [scheduled, now] = await Promise.all([getStorage().jobs.getOne(reportJobId(reportId)), getStorage().jobs.getOne(reportNowJobId(reportId))]);
  const times = [scheduled?.nextRunAt, now?.nextRunAt].filter((t): t is string => !!t).sort();
  return times[0] ?? null;
}

function presentReport(user: User, report: Report, next: string | null, format: Format): ReportRow {
  const last = report.lastRun;
  return {
    id: report.id,
    name: report.name,
    type: report.type,
    frequency: report.frequency,
    owner: report.ownerEmail,
    lastRun: last ? { ...timeText(last.at, format)!, status: last.status } : null,
    nextRun: timeText(next, format),
    rows: last?.rows != null ? numberFormat(format.locale).format(last.rows) : null,
    expiry: last?.expiresAt ? timeText(last.expiresAt, format) : null,
    editable: mayEditReport(user, report),
    stopped: stoppedText(report, format),
  };
}

/** The reports the user may see: everybody's for those who manage all, else their own (a supplier's on their own teams). */
export async function listReports(user: User, format: Format, after: string | null = null): Promise<Result<{ rows: ReportRow[]; next: string | null; mayCreate: boolean }>> {
  if (!can(user, "Report", "read")) return fail("forbidden", "errors.insufficientPermissions");
  const repo = getStorage().reports;
  const spec = { ownerId: managesAllReports(user) ? undefined : user.id, limit: REPORTS_PAGE_SIZE };
  let page: Page<Report>;
  try {
    page = await repo.list({ ...spec, after });
  } catch (error) {
    if (!(after && error instanceof RangeError)) throw error;
    page = await repo.list(spec);
  }
  const visible = page.items.filter((r) => mayReadReport(user, r));
  const nexts = await Promise.all(visible.map((r) => nextRunOf(r.id)));
  return ok({ rows: visible.map((r, i) => presentReport(user, r, nexts[i], format)), next: page.next, mayCreate: can(user, "Report", "create") });
}

export async function findReport(user: User, id: string): Promise<Result<Report>> {
  const report = await getStorage().reports.getOne(id);
  if (!report || !mayReadReport(user, report)) return fail("not-found", "reports:notFound");
  return ok(report);
}

export interface TeamChoice {
  id: string;
  name: string;
}

/** The teams a report may be about: a supplier's own, or (staff) every active team. */
export async function reportTeamChoices(user: User): Promise<TeamChoice[]> {
  const storage = getStorage();
  let teams: Team[];
  if (user.claims.type === "supplier") teams = (await storage.teams.getMany(Object.keys(user.roleByTeam))).filter((t) => mayCreateReportFor(user, t.id));
  else teams = (await storage.teams.list({ sort: "name", direction: "asc", limit: TEAM_CHOICES })).items;
  return teams.map((t) => ({ id: t.id, name: t.name })).sort((a, b) => a.name.localeCompare(b.name));
}

export interface ReportView {
  report: Report | null;
  editable: boolean;
  /** A stopped report: whether its owner may read it again (a save would resume it); null while it runs. */
  ownerBack: boolean | null;
  /** A stopped report its owner may not read: whether saving it on another advertiser would resume it (ADR 54). */
  movable: boolean;
  next: TimeText | null;
  teams: TeamChoice[];
  walletTags: boolean;
}

/** What the edit page needs: the report (null when new), whether it may be changed, the choices. */
export async function reportForEdit(user: User, id: string | null, format: Format): Promise<Result<ReportView>> {
  const teams = await reportTeamChoices(user);
  if (!id) {
    if (!can(user, "Report", "create") || (user.claims.type === "supplier" && !teams.length)) return fail("forbidden", "errors.insufficientPermissions");
    return ok({ report: null, editable: true, ownerBack: null, movable: false, next: null, teams, walletTags: maySetWalletTags(user) });
  }
  const found = await findReport(user, id);
  if (!found.ok) return found;
  const report = found.value;
  // The report's own team stays offered even when it is past the first choices.
  if (report.teamId && !teams.some((t) => t.id === report.teamId)) {
    const team = await getStorage().teams.getOne(report.teamId);
    if (team) teams.push({ id: team.id, name: team.name });
  }
  const owner = report.stopped ? (report.ownerId === user.id ? user : await getStorage().users.getOne(report.ownerId)) : null;
  const ownerBack = report.stopped ? ownerMayRun(owner, report) : null;
  // An owner who may still read another advertiser's figures (a supplier moved off this team).
  const movable = ownerBack === false && !!owner && Object.keys(owner.roleByTeam).some((teamId) => teamId !== report.teamId && ownerMayRun(owner, { ownerId: report.ownerId, teamId }));
  return ok({ report, editable: mayEditReport(user, report), ownerBack, movable, next: timeText(await nextRunOf(report.id), format), teams, walletTags: maySetWalletTags(user) });
}

// ---------------------------------------------------------------------------------------------
// Writing

/** What the report form sets (the stored report's own fields), with the version it was read at. */
export type ReportInput = Pick<ReportData, "name" | "type" | "period" | "interval" | "timeUnit" | "walletTags" | "teamId" | "recipients" | "format" | "frequency" | "runAt"> & { version?: number };

/** Creates (no id) or changes a report and (re)defines its job. */
export async function saveReport(user: User, id: string | null, input: ReportInput, now = new Date()): Promise<Result<Report & { resumed?: true; stillStopped?: true }>> {
  const storage = getStorage();
  const walletTags = maySetWalletTags(user) ? input.walletTags : [];
  const timeZone = user.timezone || "Europe/Paris";
  const fields = {
    name: input.name,
    type: input.type,
    period: input.period,
    interval: input.period === "custom" ? input.interval : null,
    timeUnit: input.timeUnit,
    teamId: input.teamId,
    recipients: input.recipients,
    format: input.format,
    frequency: input.frequency,
    runAt: input.runAt,
  };
  let report: Report;
  let before: Report | null = null;
  let reschedule = true;
  let resumed = false;
  let stillStopped = false;
  if (!id) {
    if (!mayCreateReportFor(user, input.teamId)) {
      return user.claims.type === "supplier" && input.teamId === null
        ? fail("invalid", "reports:validation.teamRequired", { field: "teamId" })
        : fail("forbidden", "errors.insufficientPermissions");
    }
    if (input.teamId && !(await storage.teams.getOne(input.teamId))) return fail("invalid", "reports:validation.team", { field: "teamId" });
    report = await storage.reports.create({ ...fields, walletTags, ownerId: user.id, ownerEmail: user.email, timeZone }, now);
  } else {
    const found = await findReport(user, id);
    if (!found.ok) return found;
    const existing = found.value;
    before = existing;
    if (!mayEditReport(user, existing)) return fail("forbidden", "errors.insufficientPermissions");
    // A report moved to another team is judged as one made for that team: the editor must be
    // allowed to (a manager always is), and its owner must be, since it runs with their rights.
    if (input.teamId !== existing.teamId) {
      if (!mayCreateReportFor(user, input.teamId) && !managesAllReports(user)) {
        return user.claims.type === "supplier" && input.teamId === null
          ? fail("invalid", "reports:validation.teamRequired", { field: "teamId" })
          : fail("forbidden", "errors.insufficientPermissions");
      }
      if (input.teamId && !(await storage.teams.getOne(input.teamId))) return fail("invalid", "reports:validation.team", { field: "teamId" });
      const owner = existing.ownerId === user.id ? user : await storage.users.getOne(existing.ownerId);
      if (!owner || !mayCreateReportFor(owner, input.teamId)) return fail("invalid", "reports:validation.ownerTeam", { field: "teamId" });
    }
    // A stopped report (ADR 49, 54) may be changed like any other. It resumes when its owner, as
    // they are now, may read it as it is saved; else the changes are saved and it stays stopped.
    if (existing.stopped) {
      const owner = await storage.users.getOne(existing.ownerId);
      resumed = ownerMayRun(owner, { ownerId: existing.ownerId, teamId: input.teamId });
      stillStopped = !resumed;
    }
    const resuming = resumed;
    // A report runs at its owner's local time: an edit by its owner follows their zone now; one
    // by somebody else (a manager) keeps the owner's.
    const zone = existing.ownerId === user.id ? timeZone : existing.timeZone;
    // A "once" report ran when it was made: saving it again (a new name, recipients) does not run
    // it, nor mail its recipients, again ("Run now" does). A resumed report's schedule starts again.
    reschedule =
      resuming || existing.frequency !== input.frequency || (input.frequency !== "once" && (existing.runAt !== input.runAt || existing.timeZone !== zone));
    try {
      report = await storage.reports.update(
        id,
        {
          ...fields,
          walletTags: maySetWalletTags(user) ? input.walletTags : existing.walletTags,
          timeZone: reschedule ? zone : existing.timeZone,
          ...(resuming ? { stopped: null } : {}),
        },
        input.version ?? existing.version,
        now,
      );
    } catch (error) {
      if (error instanceof ConflictError) return fail("conflict", "errors.conflict");
      throw error;
    }
  }
  await auditReport(user, before ? "update" : "create", before, report, now);
  const job = await storage.jobs.getOne(reportJobId(report.id));
  // The job follows the report's frequency; a job whose schedule is of another kind (a stopped
  // report's before ADR 54) is made anew.
  const schedule = reschedule || !job || job.schedule.type !== report.frequency ? reportSchedule(report, now) : job.schedule;
  const saved = await saveJob(storage, reportJobId(report.id), { kind: REPORT_JOB_KIND, title: report.name, params: { reportId: report.id }, schedule, stopped: jobStopOf(report) }, now);
  if (!saved.ok) return saved;
  if (resumed) {
    // A "Run now" asked before the stop does not come back with it.
    const asked = await storage.jobs.getOne(reportNowJobId(report.id));
    if (asked?.stopped && !asked.lease) await storage.jobs.remove(asked.id);
  }
  return ok(resumed ? { ...report, resumed: true as const } : stillStopped ? { ...report, stillStopped: true as const } : report);
}

/** The stop of a report's jobs: the report's own (ADR 54), null while it runs. */
function jobStopOf(report: Pick<Report, "stopped">): JobStop | null {
  return report.stopped ? { at: report.stopped.at, reason: report.stopped.reason } : null;
}

/** "Run now": the report runs at once, besides its schedule. */
export async function runReportNow(user: User, id: string, now = new Date()): Promise<Result<Report>> {
  const found = await findReport(user, id);
  if (!found.ok) return found;
  if (!mayEditReport(user, found.value)) return fail("forbidden", "errors.insufficientPermissions");
  if (found.value.stopped) return fail("invalid", "reports:stopped.resumeFirst");
  const saved = await saveJob(
    getStorage(),
    reportNowJobId(id),
    { kind: REPORT_JOB_KIND, title: found.value.name, params: { reportId: id, manual: true }, schedule: { type: "once", at: now.toISOString() } },
    now,
  );
  return saved.ok ? ok(found.value) : saved;
}

/** Deletes a report and its jobs; its runs' files stay until they expire. */
export async function deleteReport(user: User, id: string): Promise<Result<Report>> {
  const found = await findReport(user, id);
  if (!found.ok) return found;
  if (!mayEditReport(user, found.value)) return fail("forbidden", "errors.insufficientPermissions");
  const storage = getStorage();
  await storage.jobs.remove(reportJobId(id));
  await storage.jobs.remove(reportNowJobId(id));
  await storage.reports.remove(id);
  await auditReport(user, "delete", found.value, null, new Date());
  return ok(found.value);
}

/** The audit entity of a report (the Activity's "Report"). */
export const REPORT_ENTITY = "report";
const AUDITED_REPORT_FIELDS = ["name", "teamId", "frequency", "runAt", "recipients", "format"] as const;
/** A report's state in the audit trail: running, or stopped (ADR 49). */
const stateOf = (report: Pick<Report, "stopped"> | null) => (report ? (report.stopped ? "stopped" : "active") : null);

/**
 * A report's creation, edit or deletion in the audit trail, with who made it (both people while
 * an operator is logged as the user, ADR 22).
 */
async function auditReport(user: User, action: "create" | "update" | "delete", before: Report | null, after: Report | null, now: Date): Promise<void> {
  const changes = [
    ...AUDITED_REPORT_FIELDS.map((field) => ({ field, before: before ? before[field] : null, after: after ? after[field] : null })),
    ...(action === "update" ? [{ field: "state", before: stateOf(before), after: stateOf(after) }] : []),
  ].filter((c) => JSON.stringify(c.before) !== JSON.stringify(c.after));
  if (action === "update" && changes.length === 0) return;
  const report = (after ?? before)!;
  await getStorage().audit.append({ ...auditActor(user), action, entity: REPORT_ENTITY, entityId: report.id, teamId: report.teamId, changes }, now);
}

// ---------------------------------------------------------------------------------------------
// History

export interface RunRow {
  id: string;
  status: RunStatus;
  started: TimeText;
  period: string;
  rows: string | null;
  reason: string | null;
  expiry: TimeText | null;
  expired: boolean;
  manual: boolean;
  link: string | null;
  fileName: string | null;
}

export async function reportHistory(user: User, id: string, format: Format, after: string | null = null, now = new Date()): Promise<Result<{ report: Report; runs: RunRow[]; next: string | null; editable: boolean }>> {
  const found = await findReport(user, id);
  if (!found.ok) return found;
  const repo = getStorage().reports;
  let page: Page<ReportRun>;
  try {
    page = await repo.listRuns(id, { limit: RUNS_PAGE_SIZE, after });
  } catch (error) {
    if (!(after && error instanceof RangeError)) throw error;
    page = await repo.listRuns(id, { limit: RUNS_PAGE_SIZE });
  }
  const days = dateTimeFormat(format.locale, { dateStyle: "medium", timeZone: "UTC" });
  const dayText = (day: string) => days.format(new Date(`${day}T12:00:00Z`));
  const runs = page.items.map((run): RunRow => {
    const live = !!run.fileKey && !isExpired(run.expiresAt, now);
    return {
      id: run.id,
      status: run.status,
      started: timeText(run.started, format)!,
      period: run.period.from === run.period.to ? dayText(run.period.from) : `${dayText(run.period.from)} – ${dayText(run.period.to)}`,
      rows: run.rows != null ? numberFormat(format.locale).format(run.rows) : null,
      reason: run.reason,
      expiry: timeText(run.expiresAt, format),
      expired: !!run.expiresAt && !live,
      manual: run.manual,
      link: live ? reportFileLink(run) : null,
      fileName: run.fileName,
    };
  });
  return ok({ report: found.value, runs, next: page.next, editable: mayEditReport(user, found.value) });
}

// ---------------------------------------------------------------------------------------------
// A run

class RowLimitExceeded extends Error {}

interface Line {
  day: string | null;
  key: string;
  measures: Measures;
}

/** The wallets of the teams the owner may see carrying one of the tags. */
async function walletsTagged(owner: User, teamId: string | null, tags: readonly string[]): Promise<string[]> {
  const storage = getStorage();
  const teamIds: string[] = [];
  if (teamId) teamIds.push(teamId);
  else if (owner.claims.type === "supplier") teamIds.push(...owner.teamIds);
  else {
    let after: string | null = null;
    do {
      const page: Page<Team> = await storage.teams.list({ limit: 500, after });
      teamIds.push(...page.items.map((t) => t.id));
      after = teamIds.length < MAX_TEAMS_SCANNED ? page.next : null;
    } while (after);
  }
  const wanted = new Set(tags);
  const ids: string[] = [];
  for (const id of teamIds) for (const w of await storage.wallets.listForTeam(id)) if (w.tags.some((t) => wanted.has(t))) ids.push(w.id);
  return ids;
}

async function readLines(owner: User, report: Report, period: Period, limit: number): Promise<Result<Line[]>> {
  const term = TERM_OF_TYPE[report.type];
  const filters: Partial<Record<Dimension, string[]>> = {};
  if (report.teamId) filters.team = [report.teamId];
  if (report.walletTags.length && maySetWalletTags(owner)) filters.wallet = await walletsTagged(owner, report.teamId, report.walletTags);
  if (filters.wallet && !filters.wallet.length) return ok([]);
  const ask = async (from: string, to: string): Promise<Result<MetricsResponse>> => {
    const request: MetricsRequest = { dateFrom: from, dateTo: to, groups: { terms: [term], size: limit + 1 }, filters: { terms: filters } };
    return fetchMetrics(owner, request, "reports:reasons.statistics");
  };
  const lines: Line[] = [];
  const days = report.timeUnit === "daily" ? daysOf(period) : [null];
  for (const day of days) {
    const answer = await ask(day ?? period.from, day ?? period.to);
    if (!answer.ok) return answer;
    for (const row of answer.value[term] ?? []) {
      if (!row.key) continue;
      const { key: _key, ...measures } = row;
      lines.push({ day, key: row.key, measures: { ...zeroMeasures(), ...measures } });
      if (lines.length > limit) throw new RowLimitExceeded();
    }
  }
  return ok(lines);
}

/** Names of the keys of a type (teams, wallets, campaigns, products); keywords and categories are their own names. */
async function namesOf(type: ReportType, keys: string[]): Promise<Map<string, { name: string; team?: string }>> {
  const storage = getStorage();
  const unique = [...new Set(keys)];
  const out = new Map<string, { name: string; team?: string }>();
  const chunks = <T,>(list: T[], size = 300) => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, i * size + size));
  const teamNames = new Map<string, string>();
  const teamName = async (ids: string[]) => {
    const missing = [...new Set(ids)].filter((id) => !teamNames.has(id));
    for (const chunk of chunks(missing)) for (const t of await storage.teams.getMany(chunk)) teamNames.set(t.id, t.name);
  };
  switch (type) {
    case "teams":
      await teamName(unique);
      for (const k of unique) out.set(k, { name: teamNames.get(k) ?? k });
      break;
    case "wallets": {
      const wallets = (await Promise.all(chunks(unique).map((c) => storage.wallets.getMany(c)))).flat();
      await teamName(wallets.map((w) => w.teamId));
      for (const w of wallets) out.set(w.id, { name: w.label, team: teamNames.get(w.teamId) ?? "" });
      break;
    }
    case "campaigns": {
      const campaigns = (await Promise.all(chunks(unique).map((c) => storage.campaigns.getMany(c)))).flat();
      await teamName(campaigns.map((c) => c.team));
      for (const c of campaigns) out.set(c.id, { name: c.name, team: teamNames.get(c.team) ?? "" });
      break;
    }
    case "products": {
      const products = (await Promise.all(chunks(unique).map((c) => storage.catalog.getMany(c)))).flat();
      for (const p of products) out.set(p.id, { name: `${p.title} (${p.id})` });
      break;
    }
    default:
      break;
  }
  return out;
}

async function buildCsv(owner: User, report: Report, lines: Line[], period: Period): Promise<{ body: string; fileName: string }> {
  const locale = normaliseLocale(owner.locale) ?? FALLBACK_LOCALE;
  const t = await getFixedT(locale);
  const names = await namesOf(report.type, lines.map((l) => l.key));
  const withTeam = report.type === "wallets" || report.type === "campaigns";
  const head = [
    ...(report.timeUnit === "daily" ? [t("reports:csv.day")] : []),
    t(`reports:csv.name.${report.type}`),
    ...(withTeam ? [t("metrics:team")] : []),
    ...METRICS.map((m) => t(`metrics:metric.${m}`)),
  ];
  const sorted = [...lines].sort((a, b) => (a.day ?? "").localeCompare(b.day ?? "") || b.measures.costMicros - a.measures.costMicros);
  const rows = sorted.map((line) => {
    const figures = derive(line.measures);
    const named = names.get(line.key) ?? { name: line.key, team: "" };
    return [...(line.day ? [line.day] : []), named.name, ...(withTeam ? [named.team ?? ""] : []), ...METRICS.map((m) => figureCell(m, figures))];
  });
  const body = "\uFEFF" + Papa.unparse([head, ...rows], { escapeFormulae: CSV_FORMULA_PATTERN, newline: "\r\n" });
  return { body, fileName: statisticsFileName(report.name, period.from, period.to) };
}

/** The e-mail of a generated report, in its owner's language (recipients may have no account). */
export async function reportMail(owner: Pick<User, "locale" | "displayName" | "email">, report: Pick<Report, "name">, run: Pick<ReportRun, "rows" | "expiresAt" | "period">, link: string, to: string) {
  const locale = normaliseLocale(owner.locale) ?? FALLBACK_LOCALE;
  const t = await getFixedT(locale);
  // Recipients may have no account (no time zone of theirs): the retailer's, named.
  const expires = dateTimeFormat(locale, { year: "numeric", month: "long", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short", timeZone: retailerTimeZone() }).format(new Date(run.expiresAt!));
  const days = dateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" });
  const period = run.period.from === run.period.to ? days.format(new Date(`${run.period.from}T12:00:00Z`)) : `${days.format(new Date(`${run.period.from}T12:00:00Z`))} – ${days.format(new Date(`${run.period.to}T12:00:00Z`))}`;
  return {
    to,
    subject: t("reports:mail.subject", { name: report.name }),
    text: t("reports:mail.text", { name: report.name, owner: owner.displayName || owner.email, period, rows: numberFormat(locale).format(run.rows ?? 0), link, expires }),
  };
}

/** One run of a report (the `report` job's handler). */
export async function runReport(ctx: Pick<JobContext, "params" | "scheduledFor" | "now" | "signal"> & Partial<Pick<JobContext, "attempt">>): Promise<JobResult> {
  const storage = getStorage();
  const reportId = String(ctx.params.reportId ?? "");
  const manual = ctx.params.manual === true;
  const report = await storage.reports.getOne(reportId);
  if (!report) return ok(); // deleted since: nothing to make
  // Stopped since this run was due (ADR 49): nothing runs until it is resumed. Its jobs are stopped
  // with it (again, should a save have raced the stop).
  if (report.stopped) {
    await stopReportJobs(report, ctx.now);
    return { outcome: "aborted", reason: STOPPED_RUN_REASON };
  }
  const runId = runIdOf(report.id, ctx.scheduledFor, manual);
  // A run taken over after its lease was lost (ADR 21): when the attempt before it finished (file
  // stored, recipients mailed) and only its record on the job was lost, it is not made or mailed again.
  if ((ctx.attempt ?? 1) > 1) {
    const previous = await storage.reports.getRun(runId);
    if (previous && previous.status === "done") return ok();
    if (previous && previous.status === "aborted") return { outcome: "aborted", reason: previous.reason ?? ABORTED_REASON };
    if (previous && previous.status === "failed") return fail("unavailable", previous.reason ?? "reports:reasons.unexpected");
  }
  const period = reportPeriod(report, ctx.scheduledFor, retailerTimeZone());
  const started = ctx.now.toISOString();
  const startedAt = Date.now();
  await storage.reports.startRun(runId, {
    reportId: report.id,
    ownerId: report.ownerId,
    scheduledFor: ctx.scheduledFor.toISOString(),
    started,
    finished: null,
    status: "inProgress",
    reason: null,
    rows: null,
    period,
    fileKey: null,
    fileName: null,
    expiresAt: null,
    expired: false,
    manual,
  });
  await storage.reports.setLastRun(report.id, { runId, at: started, status: "inProgress", rows: null, expiresAt: null });
  const end = async (status: RunStatus, reason: string | null, extra: { rows?: number | null; fileKey?: string | null; fileName?: string | null; expiresAt?: string | null } = {}) => {
    // On the scheduler's clock (tests move it): its start plus the time the run took.
    const finished = new Date(ctx.now.getTime() + (Date.now() - startedAt)).toISOString();
    const patch = { status, reason, rows: extra.rows ?? null, finished, fileKey: extra.fileKey ?? null, fileName: extra.fileName ?? null, expiresAt: extra.expiresAt ?? null, ...(extra.expiresAt ? { removeAt: extra.expiresAt } : {}) };
    const done = await storage.reports.finishRun(runId, patch);
    await storage.reports.setLastRun(report.id, { runId, at: started, status, rows: patch.rows, expiresAt: patch.expiresAt });
    return done;
  };
  try {
    // The owner as they are now: their rights at run time, never more.
    const owner = await storage.users.getOne(report.ownerId);
    if (!ownerMayRun(owner, report)) {
      await end("failed", OWNER_RIGHTS_REASON);
      // The report stops here, once, rather than failing at every run with nobody told (ADR 49).
      await stopReport(report.id, { at: started, reason: OWNER_RIGHTS_REASON, runId }, ctx.now);
      return fail("forbidden", OWNER_RIGHTS_REASON);
    }
    const limit = rowLimit();
    let lines: Line[];
    try {
      const read = await readLines(owner, report, period, limit);
      if (!read.ok) {
        await end("failed", read.reason);
        return read;
      }
      lines = read.value;
    } catch (error) {
      if (!(error instanceof RowLimitExceeded)) throw error;
      await end("aborted", ABORTED_REASON);
      return { outcome: "aborted", reason: ABORTED_REASON };
    }
    if (ctx.signal.aborted) return { outcome: "failed", reason: "activity.jobs.reasons.interrupted" };
    const csv = await buildCsv(owner, report, lines, period);
    const fileKey = `reports/${report.id}/${runId}.csv`;
    await getFileStore().put(fileKey, new TextEncoder().encode(csv.body));
    const expiresAt = new Date(ctx.now.getTime() + getEnv().REPORT_FILE_TTL_DAYS * 86_400_000).toISOString();
    const finished = await end("done", null, { rows: lines.length, fileKey, fileName: csv.fileName, expiresAt });
    const link = reportFileLink(finished)!;
    for (const to of report.recipients) {
      try {
        await sendMail(await reportMail(owner, report, finished, link, to));
      } catch (error) {
        log("error", "Report e-mail not sent", { reportId: report.id, runId, error: error instanceof Error ? error.message : String(error) });
      }
    }
    await raise("reportGenerated", { subjectUserId: owner.id }, { report: report.name, rows: lines.length, count: lines.length }, `/reports/${report.id}/history`, { now: ctx.now, key: `report-generated:${runId}` });
    return ok();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    log("error", "Report run failed", { reportId: report.id, runId, error: reason });
    await end("failed", "reports:reasons.unexpected").catch(() => undefined);
    return fail("unavailable", "reports:reasons.unexpected");
  }
}

/**
 * Stops a report whose owner may no longer read it (ADR 49), once: a version-checked write that
 * another run (the scheduled one and "Run now" at once) or an edit may beat; only the run that
 * stops it takes the report's runs off the scheduler and tells its owner and those who can give
 * the owner their access back. Returns whether this call stopped it.
 */
export async function stopReport(reportId: string, stop: ReportStop, now: Date): Promise<boolean> {
  const storage = getStorage();
  let stopped: Report | null = null;
  for (let attempt = 0; attempt < 5 && !stopped; attempt++) {
    const current = await storage.reports.getOne(reportId);
    // Gone, already stopped, or edited meanwhile so that its owner may read it again.
    if (!current || current.stopped) return false;
    if (attempt > 0 && ownerMayRun(await storage.users.getOne(current.ownerId), current)) return false;
    try {
      stopped = await storage.reports.update(reportId, { stopped: stop }, current.version, now);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
    }
  }
  if (!stopped) return false;
  const report = stopped;
  await storage.audit.append(
    { by: "system", action: "update", entity: REPORT_ENTITY, entityId: report.id, teamId: report.teamId, changes: [{ field: "state", before: "active", after: "stopped" }] },
    now,
  );
  await stopReportJobs(report, now);
  const link = (reader: User) =>
    mayReadReport(reader, report) ? `/reports/${encodeURIComponent(report.id)}` : report.teamId && isAdminOfTeam(reader, report.teamId) ? `/teams/${encodeURIComponent(report.teamId)}/settings/members` : null;
  await raise("reportStopped", { subjectUserId: report.ownerId, teamIds: report.teamId ? [report.teamId] : [] }, { report: report.name, owner: report.ownerEmail }, link, {
    now,
    key: `report-stopped:${report.id}:${stop.runId}`,
  });
  log("info", "Report stopped: its owner may no longer read it", { reportId: report.id, runId: stop.runId });
  return true;
}

/**
 * Stops a report's jobs with the report (ADR 54): each keeps its schedule and shows, in Activity,
 * that it is stopped, since when and why, with no next run. A job whose run is under way (this
 * very run) finishes it, its outcome recorded, and nothing follows. Saving the report once its
 * owner may read it resumes its job.
 */
async function stopReportJobs(report: Pick<Report, "id" | "stopped">, now: Date): Promise<void> {
  const jobs = getStorage().jobs;
  const stopped = jobStopOf(report);
  if (!stopped) return;
  for (const id of [reportJobId(report.id), reportNowJobId(report.id)]) {
    const job = await jobs.getOne(id);
    if (!job || stableStop(job.stopped) === stableStop(stopped)) continue;
    await jobs.save(id, { kind: job.kind, title: job.title, params: job.params, schedule: job.schedule, stopped }, null, now);
  }
}

const stableStop = (stop: JobStop | null | undefined) => (stop ? `${stop.at}\n${stop.reason}` : "");

/** Removes the files whose expiry has passed (the expiry job). */
export async function removeExpiredReportFiles(now: Date): Promise<Result<number>> {
  const storage = getStorage();
  let removed = 0;
  for (;;) {
    const due = await storage.reports.listExpiring(now, 200);
    for (const run of due) {
      if (run.fileKey) await getFileStore().delete(run.fileKey);
      await storage.reports.markExpired(run.id);
      removed++;
    }
    if (due.length < 200) break;
  }
  return ok(removed);
}

export const REPORT_JOB: JobKind = { name: REPORT_JOB_KIND, catchUp: "each", run: (ctx) => runReport(ctx) };
export const REPORT_EXPIRY_JOB_KIND: JobKind = { name: REPORT_EXPIRY_JOB, catchUp: "merge", run: ({ now }) => removeExpiredReportFiles(now) };

/** Registers the report kinds and keeps the expiry job defined (boot, tests). */
export async function scheduleReportJobs(scheduler: Scheduler): Promise<void> {
  scheduler.register(REPORT_JOB);
  scheduler.register(REPORT_EXPIRY_JOB_KIND);
  const saved = await scheduler.schedule(REPORT_EXPIRY_JOB, { kind: REPORT_EXPIRY_JOB, schedule: { type: "every", seconds: 3600 } });
  if (!saved.ok) log("error", "Report expiry not scheduled", { reason: saved.reason });
}

export { DEFAULT_FILE_TTL_DAYS, DEFAULT_ROW_LIMIT };
