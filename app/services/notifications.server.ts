/**
 * Notifications (issue 11 §3): raised by the use cases (a new user, a new team, a campaign
 * activated after its start or archived, a campaign stopped for want of funds) and by scheduled
 * jobs (campaigns about to start, campaigns whose start passed, the weekly and daily wallet alerts, ADR 21 with the `merge` catch-up), each to
 * the users who may see what it is about and whose preferences let it through
 * (app/domain/notifications.ts), stored in the user's centre and, for some types, e-mailed in the
 * user's language. The centre's reading and marking are here too. No HTTP.
 *
 * Raising never fails the use case that raised it: a failure is logged.
 */
import { dateTimeFormat } from "~/domain/intl";
import type { MessageValues } from "~/domain/message";
import {
  EMAILED,
  messageKey,
  receives,
  renderNotification,
  subjectKey,
  walletAlertOf,
  wants,
  startsWithin,
  type Notification,
  type NotificationType,
  type WalletAlert,
} from "~/domain/notifications";
import { can } from "~/domain/permissions";
import { fail, ok, type Result } from "~/domain/result";
import type { Schedule } from "~/domain/schedule";
import { FALLBACK_LOCALE, normaliseLocale } from "~/domain/locale";
import type { Team, User, Wallet } from "~/domain/types";
import type { Campaign } from "~/domain/campaigns/campaign";
import type { Page } from "~/storage/port";
import { getEnv } from "~/services/env.server";
import { getFixedT } from "~/services/i18n.server";
import { sendMail } from "~/services/mail.server";
import { retailerTimeZone } from "~/services/retailer-settings.server";
import type { JobKind, Scheduler } from "~/services/scheduler.server";
import { getStorage } from "~/services/storage.server";

const PAGE = 200;
/** Users, teams or campaigns looked at per raise at most. */
const MAX_SCAN = 20_000;
/** Names listed in a wallet alert's message at most (then "and N more"). */
const MAX_NAMED = 5;

function logFailure(msg: string, extra: Record<string, unknown>, error: unknown) {
  console.error(JSON.stringify({ level: "error", msg, ...extra, error: error instanceof Error ? error.message : String(error) }));
}

async function eachPage<T>(list: (after: string | null) => Promise<Page<T>>, fn: (item: T) => Promise<void> | void): Promise<void> {
  let after: string | null = null;
  let seen = 0;
  do {
    const page: Page<T> = await list(after);
    for (const item of page.items) {
      if (seen++ >= MAX_SCAN) return;
      await fn(item);
    }
    after = page.next;
  } while (after);
}

/** Retailer and operator users (who may see every team). */
async function staffUsers(): Promise<User[]> {
  const users: User[] = [];
  await eachPage((after) => getStorage().users.list({ types: ["retailer", "operator"], limit: PAGE, after }), (u) => void users.push(u));
  return users;
}

/** Everybody who might receive a notification about these teams: their members, and the staff. */
async function candidates(teamIds: readonly string[]): Promise<User[]> {
  const byId = new Map<string, User>();
  for (const u of await staffUsers()) byId.set(u.id, u);
  for (const teamId of teamIds) for (const u of await getStorage().users.listByTeam(teamId)) byId.set(u.id, u);
  return [...byId.values()];
}

/** The e-mail of a notification, in the recipient's language. */
export async function notificationMail(user: Pick<User, "email" | "locale" | "displayName">, type: NotificationType, values: MessageValues, link: string | null) {
  const t = await getFixedT(normaliseLocale(user.locale) ?? FALLBACK_LOCALE);
  const { subject, message } = renderNotification(t as (key: string, values?: Record<string, unknown>) => string, { type, values });
  const url = `${getEnv().PUBLIC_URL}${link ?? "/notifications"}`;
  return { to: user.email, subject, text: t("notifications.mail.text", { name: user.displayName || user.email, message, link: url }) };
}

/** Stores the notification for one user (once under `id`) and mails it when its type is mailed. */
async function deliver(user: User, type: NotificationType, values: MessageValues, link: string | null, now: Date, id?: string): Promise<boolean> {
  const created = await getStorage().notifications.create({ userId: user.id, type, values, link }, now, id);
  if (!created) return false;
  if (EMAILED.has(type)) {
    try {
      await sendMail(await notificationMail(user, type, values, link));
    } catch (error) {
      logFailure("Notification e-mail not sent", { userId: user.id, type }, error);
    }
  }
  return true;
}

export interface RaiseOptions {
  now?: Date;
  /** The user who caused it (not told of their own act). */
  actorId?: string | null;
  /** A stable key: raised twice under one key (a job run again), each user gets it once. */
  key?: string;
}

/**
 * Raises a notification about teams (or a user) to everybody who receives it and wants it;
 * returns how many got it. Never throws: a failure is logged.
 */
export async function raise(
  type: NotificationType,
  about: { teamIds?: readonly string[]; subjectUserId?: string },
  values: MessageValues,
  /** A path, or one per reader when readers may open different pages (never one they are refused). */
  link: string | null | ((user: User) => string | null),
  options: RaiseOptions = {},
): Promise<number> {
  const now = options.now ?? new Date();
  try {
    const users = (type === "welcome" || type === "reportGenerated") && about.subjectUserId ? [await getStorage().users.getOne(about.subjectUserId)].filter((u): u is User => !!u) : await candidates(about.teamIds ?? []);
    // The subject of a report stopped (its owner) may no longer be on the team or on the staff.
    if (type === "reportStopped" && about.subjectUserId && !users.some((u) => u.id === about.subjectUserId)) {
      const subject = await getStorage().users.getOne(about.subjectUserId);
      if (subject) users.push(subject);
    }
    let sent = 0;
    for (const user of users) {
      if (!receives(user, type, { ...about, actorId: options.actorId }) || !wants(user, type)) continue;
      const path = typeof link === "function" ? link(user) : link;
      if (await deliver(user, type, values, path, now, options.key ? `${options.key}:${user.id}` : undefined)) sent++;
    }
    return sent;
  } catch (error) {
    logFailure("Notification not raised", { type, ...about }, error);
    return 0;
  }
}

// ---------------------------------------------------------------------------------------------
// Raised by the use cases

/** A new account: a welcome to its user, and "new user" to the admins of its teams (or the user managers). */
export async function notifyNewUser(user: User, teamIds: readonly string[], options: RaiseOptions = {}): Promise<void> {
  const name = user.displayName || user.email;
  await raise("welcome", { subjectUserId: user.id }, { name }, "/profile", { ...options, key: `welcome:${user.id}` });
  // A team's admins see the newcomer among the team's members (/users is for user managers only).
  const link = (reader: User) => (can(reader, "User", "read") ? `/users/${user.id}` : teamIds[0] ? `/teams/${teamIds[0]}/settings/members` : null);
  await raise("newUser", { subjectUserId: user.id, teamIds }, { name, email: user.email }, link, { ...options, key: `new-user:${user.id}` });
}

export async function notifyTeamCreated(team: Team, options: RaiseOptions = {}): Promise<void> {
  await raise("teamCreated", { teamIds: [team.id] }, { team: team.name }, `/teams/${team.id}`, { ...options, key: `team-created:${team.id}` });
}

/** A campaign started, was archived, or was stopped for want of funds. */
export async function notifyCampaign(type: "campaignStarted" | "campaignArchived" | "insufficientFunds" | "campaignSoonStarted", campaign: Pick<Campaign, "id" | "name" | "team">, options: RaiseOptions = {}): Promise<number> {
  const values: MessageValues = { campaign: campaign.name };
  if (type === "campaignSoonStarted") values.hours = getEnv().NOTIFY_SOON_STARTED_HOURS;
  return raise(type, { teamIds: [campaign.team] }, values, `/campaigns/${campaign.id}`, options);
}

/** Whether a campaign has reached its start (no start date: at once). */
export function hasStarted(campaign: Pick<Campaign, "startDate">, now: Date): boolean {
  return !campaign.startDate || Date.parse(campaign.startDate) <= now.getTime();
}

/**
 * The key of a campaign's "campaign started": one per start date, whether it is raised by the
 * activation of a campaign whose start has passed or by the hourly check once a scheduled start
 * passes (a pause and resume does not tell it again).
 */
export function campaignStartedKey(campaign: Pick<Campaign, "id" | "startDate">): string {
  return `started:${campaign.id}:${campaign.startDate ?? "now"}`;
}

// ---------------------------------------------------------------------------------------------
// The centre

export interface CentreItem {
  id: string;
  type: NotificationType;
  subjectKey: string;
  messageKey: string;
  values: MessageValues;
  link: string | null;
  read: boolean;
  created: string;
  createdText: string;
}

export interface Centre {
  items: CentreItem[];
  next: string | null;
  unread: number;
  /** The newest notification when read: what "mark all read" from this page covers. */
  latestSeq: number;
}

function mayRead(user: User): boolean {
  return can(user, "Notification", "read");
}

/** One page of the user's own notifications, newest first, dates in the user's time zone. */
export async function notificationCentre(user: User, format: { locale: string; timeZone: string }, after: string | null = null, limit = 20): Promise<Result<Centre>> {
  if (!mayRead(user)) return fail("forbidden", "errors.insufficientPermissions");
  const storage = getStorage();
  let page: Page<Notification> & { latestSeq: number };
  try {
    page = await storage.notifications.list(user.id, { limit, after });
  } catch (error) {
    if (error instanceof RangeError) page = await storage.notifications.list(user.id, { limit });
    else throw error;
  }
  const dates = dateTimeFormat(format.locale, { dateStyle: "medium", timeStyle: "short", timeZone: format.timeZone });
  return ok({
    items: page.items.map((n) => ({
      id: n.id,
      type: n.type,
      subjectKey: subjectKey(n.type),
      messageKey: messageKey(n.type),
      values: n.values,
      link: n.link,
      read: n.read,
      created: n.created,
      createdText: dates.format(new Date(n.created)),
    })),
    next: page.next,
    unread: await storage.notifications.countUnread(user.id),
    latestSeq: page.latestSeq,
  });
}

/** The count in the top bar (0 for those who may not read notifications). */
export async function unreadCount(user: User): Promise<number> {
  if (!mayRead(user)) return 0;
  try {
    return await getStorage().notifications.countUnread(user.id);
  } catch (error) {
    logFailure("Unread notifications not counted", { userId: user.id }, error);
    return 0;
  }
}

/** Marks one of the user's own notifications read; another user's answers not found. */
export async function markNotificationRead(user: User, id: string): Promise<Result<Notification>> {
  if (!can(user, "Notification", "update")) return fail("forbidden", "errors.insufficientPermissions");
  const marked = await getStorage().notifications.markRead(user.id, id);
  return marked ? ok(marked) : fail("not-found", "notifications.notFound");
}

/** Marks the user's notifications read, up to the newest they were shown (`throughSeq`) when given. */
export async function markAllNotificationsRead(user: User, throughSeq?: number): Promise<Result<number>> {
  if (!can(user, "Notification", "update")) return fail("forbidden", "errors.insufficientPermissions");
  return ok(await getStorage().notifications.markAllRead(user.id, throughSeq));
}

// ---------------------------------------------------------------------------------------------
// Scheduled (ADR 21): merged after downtime, keyed by their run so a run taken over raises nothing twice

/** Campaigns starting within NOTIFY_SOON_STARTED_HOURS: each told once per start date. */
export async function campaignsSoonStarted(now: Date, withinHours = getEnv().NOTIFY_SOON_STARTED_HOURS): Promise<Result<number>> {
  const withinMs = withinHours * 3_600_000;
  let sent = 0;
  await eachPage(
    (after) => getStorage().campaigns.list({ statuses: ["active"], startFrom: now.toISOString(), startTo: new Date(now.getTime() + withinMs + 1).toISOString(), limit: PAGE, after }),
    async (campaign) => {
      if (!startsWithin(campaign.startDate, now, withinMs)) return;
      sent += await notifyCampaign("campaignSoonStarted", campaign, { now, key: `soon:${campaign.id}:${campaign.startDate}` });
    },
  );
  return ok(sent);
}

/**
 * Active campaigns whose start fell in (since, now]: "campaign started", once per start date
 * (ADR 24). An activated campaign whose start had passed was told at its activation under the
 * same key, so it is not told again.
 */
export async function campaignsStarted(now: Date, since: Date): Promise<Result<number>> {
  let sent = 0;
  await eachPage(
    (after) => getStorage().campaigns.list({ statuses: ["active"], startFrom: new Date(since.getTime() + 1).toISOString(), startTo: new Date(now.getTime() + 1).toISOString(), limit: PAGE, after }),
    async (campaign) => {
      if (!campaign.startDate || !hasStarted(campaign, now) || Date.parse(campaign.startDate) <= since.getTime()) return;
      sent += await notifyCampaign("campaignStarted", campaign, { now, key: campaignStartedKey(campaign) });
    },
  );
  return ok(sent);
}

/**
 * One wallet alert: every user gets one notification naming the active wallets of the teams they
 * may see that the alert concerns (none: nothing sent).
 */
export async function walletAlert(alert: WalletAlert, now: Date, key: string, depletionDays = getEnv().NOTIFY_DEPLETION_DAYS): Promise<Result<number>> {
  const storage = getStorage();
  const byTeam = new Map<string, { team: Team; wallets: Wallet[] }>();
  await eachPage(
    (after) => storage.teams.list({ statuses: ["active", "suspended"], limit: PAGE, after }),
    async (team) => {
      const wallets = (await storage.wallets.listForTeam(team.id)).filter((w) => walletAlertOf(w, alert, now, depletionDays));
      if (wallets.length) byTeam.set(team.id, { team, wallets });
    },
  );
  if (!byTeam.size) return ok(0);
  let sent = 0;
  for (const user of await candidates([...byTeam.keys()])) {
    if (!wants(user, alert)) continue;
    const seen = [...byTeam.values()].filter(({ team }) => receives(user, alert, { teamIds: [team.id] }));
    const wallets = seen.flatMap(({ team, wallets }) => wallets.map((w) => `${w.label} (${team.name})`));
    if (!wallets.length) continue;
    const named = wallets.slice(0, MAX_NAMED).join(", ");
    const values: MessageValues = { count: wallets.length, wallets: named, more: Math.max(0, wallets.length - MAX_NAMED), days: depletionDays };
    const link = seen.length === 1 ? `/teams/${seen[0]!.team.id}/wallets` : null;
    if (await deliver(user, alert, values, link, now, `${key}:${user.id}`)) sent++;
  }
  return ok(sent);
}

/** The job kinds and their jobs (ids, schedules on the retailer's time zone). */
export const NOTIFICATION_JOBS: { id: string; kind: JobKind; schedule: () => Schedule }[] = [
  ...(
    [
      ["walletsDepleting", { type: "weekly", weekday: 1, time: "09:00" }],
      ["walletsUsedUpThisWeek", { type: "weekly", weekday: 1, time: "09:00" }],
      ["emptyWallets", { type: "daily", time: "09:00" }],
    ] as const
  ).map(([alert, schedule]) => ({
    id: `alert-${alert}`,
    schedule: () => ({ ...schedule, timeZone: retailerTimeZone() }) as Schedule,
    kind: {
      name: `alert-${alert}`,
      catchUp: "merge",
      run: ({ jobId, scheduledFor, now }) => walletAlert(alert, now, `${jobId}:${scheduledFor.toISOString()}`),
    } satisfies JobKind,
  })),
  {
    id: "alert-campaignSoonStarted",
    schedule: () => ({ type: "every", seconds: 3600 }),
    kind: { name: "alert-campaignSoonStarted", catchUp: "merge", run: ({ now }) => campaignsSoonStarted(now) },
  },
  {
    // Campaigns activated before their start are told "started" when the start passes: every
    // start since the first of the runs this one stands for (merged after downtime).
    id: "alert-campaignStarted",
    schedule: () => ({ type: "every", seconds: 3600 }),
    kind: {
      name: "alert-campaignStarted",
      catchUp: "merge",
      run: ({ now, scheduledFor, runs }) => campaignsStarted(now, new Date(scheduledFor.getTime() - Math.max(1, runs) * 3_600_000)),
    },
  },
];

/** Registers the notification jobs on a scheduler and keeps them defined (boot, tests). */
export async function scheduleNotificationJobs(scheduler: Scheduler): Promise<void> {
  for (const job of NOTIFICATION_JOBS) {
    scheduler.register(job.kind);
    const saved = await scheduler.schedule(job.id, { kind: job.kind.name, schedule: job.schedule() });
    if (!saved.ok) console.error(JSON.stringify({ level: "error", msg: "Notification job not scheduled", jobId: job.id, reason: saved.reason }));
  }
}
