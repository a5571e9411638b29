/**
 * Notifications (spec sections 3 and 8, issue 11 §3): their types, what a stored one holds, who
 * receives each type and which preference silences it. Pure: the use case
 * (app/services/notifications.server.ts) reads users and teams and asks these rules.
 *
 * A notification stores its type and the values of its message, never a rendered text: the
 * reader's locale renders `notifications.types.<type>.subject` and `.message` when it is shown
 * (or mailed, in the recipient's locale).
 */
import type { MessageValues } from "~/domain/message";
import { can, effectiveTeamRole } from "~/domain/permissions";
import type { DocMeta, NotificationPreferences, User } from "~/domain/types";
import { DEPLETION_ALERT_DAYS, runwayPace } from "~/domain/wallets/wallet";
import type { WalletData } from "~/domain/types";

/**
 * The types of spec section 8 raised by this console: each is raised by its event or schedule.
 */
export const NOTIFICATION_TYPES = [
  "welcome",
  "newUser",
  "teamCreated",
  "campaignSoonStarted",
  "campaignStarted",
  "campaignArchived",
  "insufficientFunds",
  "walletsDepleting",
  "walletsUsedUpThisWeek",
  "emptyWallets",
  "catalogProcessingFailed",
  "reportGenerated",
  "campaignDisplayVolumeDown",
  // Not of spec section 8: a scheduled report stopped because its owner lost their rights (ADR 49).
  "reportStopped",
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export interface NotificationData {
  /** The one user who reads it. */
  userId: string;
  type: NotificationType;
  /** Values of the type's subject and message (names, counts), rendered in the reader's locale. */
  values: MessageValues;
  /** A path in the console about the thing it is about, or null. */
  link: string | null;
  /** The user's own sequence (1, 2, …): the order of the list and of "mark all read". */
  seq: number;
  /** Marked read one by one (read is also implied by a later "mark all read", see `isRead`). */
  read: boolean;
  created: string;
}
export type Notification = NotificationData & DocMeta;

/** One document per user: unread count and the seq up to which everything was marked read. */
export interface NotificationInboxData {
  userId: string;
  seq: number;
  unread: number;
  readThroughSeq: number;
}

export function isRead(notification: Pick<NotificationData, "read" | "seq">, readThroughSeq: number): boolean {
  return notification.read || notification.seq <= readThroughSeq;
}

export function subjectKey(type: NotificationType): string {
  return `notifications.types.${type}.subject`;
}

export function messageKey(type: NotificationType): string {
  return `notifications.types.${type}.message`;
}

/** The preference (spec section 3's four) that turns a type off; null: always sent. */
export const PREFERENCE_OF: Record<NotificationType, keyof NotificationPreferences | null> = {
  welcome: null,
  newUser: null,
  teamCreated: null,
  campaignSoonStarted: "campaignStarts",
  campaignStarted: "campaignStarts",
  campaignArchived: "campaignArchived",
  insufficientFunds: null,
  walletsDepleting: "walletsDepleting",
  walletsUsedUpThisWeek: "walletsDepleting",
  emptyWallets: "walletsDepleting",
  catalogProcessingFailed: null,
  reportGenerated: "reportGenerated",
  // No preference of spec section 3 names it: always sent (in the centre; not mailed).
  campaignDisplayVolumeDown: null,
  // Its recipients no longer get the report: those who can act are always told.
  reportStopped: null,
};

/**
 * Types also sent by e-mail. The profile asks "Notify me, here and by e-mail, when" for the four preferences, so every
 * type a preference governs is mailed (only while it is on); of the others, the welcome,
 * insufficient funds (a campaign stopped) and report stopped are mailed, new user and team created
 * stay in the centre.
 */
export const EMAILED: ReadonlySet<NotificationType> = new Set(
  NOTIFICATION_TYPES.filter((type) => PREFERENCE_OF[type] !== null || type === "welcome" || type === "insufficientFunds" || type === "reportStopped"),
);

type Recipient = Pick<User, "claims" | "roleByTeam" | "disabled" | "notificationPrefs">;

/** Whether the user's preferences let this type through (disabled users receive nothing). */
export function wants(user: Recipient, type: NotificationType): boolean {
  if (user.disabled) return false;
  const preference = PREFERENCE_OF[type];
  return preference === null || user.notificationPrefs?.[preference] !== false;
}

/** Whether the user may see a team's campaigns and wallets: suppliers their own teams, retailers and operators all. */
export function maySeeTeam(user: Pick<User, "claims" | "roleByTeam">, teamId: string): boolean {
  if (user.claims.type !== "supplier") return can(user, "Campaign", "read");
  return effectiveTeamRole(user, teamId) !== null && can(user, "Campaign", "read", { teamId });
}

/** Team admins of a team (for "new user"): suppliers whose effective role in it is ADMIN. */
export function isAdminOfTeam(user: Pick<User, "claims" | "roleByTeam">, teamId: string): boolean {
  return user.claims.type === "supplier" && effectiveTeamRole(user, teamId) === "ADMIN";
}

/** Those who manage users and teams (retailer ADMIN, operator ADMIN): told of new teams, and of new users of no team. */
export function isUserManager(user: Pick<User, "claims" | "roleByTeam">): boolean {
  return user.claims.type !== "supplier" && can(user, "User", "create");
}

/**
 * Who receives a type about a thing, before preferences: `teamId` is the team it is about (a
 * campaign's, a new user's), `actorId` the user who caused it (not told of their own act).
 */
export function receives(user: Pick<User, "id" | "claims" | "roleByTeam">, type: NotificationType, about: { teamIds?: readonly string[]; actorId?: string | null; subjectUserId?: string }): boolean {
  if (about.actorId && user.id === about.actorId && type !== "welcome") return false;
  switch (type) {
    case "welcome":
      return user.id === about.subjectUserId;
    case "newUser":
      if (user.id === about.subjectUserId) return false;
      return about.teamIds?.length ? about.teamIds.some((teamId) => isAdminOfTeam(user, teamId)) : isUserManager(user);
    case "teamCreated":
      return isUserManager(user);
    case "catalogProcessingFailed":
      // About the catalog, not a team: those who may read the catalog (retailers, operators).
      return can(user, "Catalog", "read");
    case "reportGenerated":
      // The report's owner (the recipients have the file by e-mail).
      return user.id === about.subjectUserId;
    case "reportStopped":
      // Its owner, and who can give them their access back: the admins of the report's team, or
      // for a report about every team, those who manage users.
      if (user.id === about.subjectUserId) return true;
      return about.teamIds?.length ? about.teamIds.some((teamId) => isAdminOfTeam(user, teamId)) : isUserManager(user);
    default:
      return (about.teamIds ?? []).some((teamId) => maySeeTeam(user, teamId));
  }
}

/** The wallet alerts: which of a wallet's states each alert names (active wallets only). */
export type WalletAlert = "walletsDepleting" | "walletsUsedUpThisWeek" | "emptyWallets";
export const WALLET_ALERTS: readonly WalletAlert[] = ["walletsDepleting", "walletsUsedUpThisWeek", "emptyWallets"];

/** Days within which a wallet counts as "used up this week". */
export const THIS_WEEK_DAYS = 7;

/**
 * Whether an active wallet is in the alert's state: empty at a balance of 0 or less; depleting or
 * used up this week by its runway, which counts ad spend only (ADR 41: a reversed credit or a
 * manual debit never makes a wallet look as if it were spending).
 */
export function walletAlertOf(
  wallet: Pick<WalletData, "status" | "balance" | "spend" | "dailyBudget" | "firstSpendAt">,
  alert: WalletAlert,
  now: Date,
  depletionDays = DEPLETION_ALERT_DAYS,
): boolean {
  if (wallet.status !== "active") return false;
  if (alert === "emptyWallets") return wallet.balance <= 0;
  if (wallet.balance <= 0) return false;
  const runway = runwayPace(wallet, now);
  if (!runway) return false;
  return alert === "walletsDepleting" ? runway.daysToGo < depletionDays : runway.daysToGo <= THIS_WEEK_DAYS;
}

/** Whether a campaign starting at `start` is "soon started" at `now` (within the threshold, not yet begun). */
export function startsWithin(start: string | null | undefined, now: Date, withinMs: number): boolean {
  if (!start) return false;
  const at = Date.parse(start);
  return Number.isFinite(at) && at > now.getTime() && at - now.getTime() <= withinMs;
}

/** The subject and message of a notification in a reader's language (`t` of that language). */
export function renderNotification(
  t: (key: string, values?: Record<string, unknown>) => string,
  notification: { type: NotificationType; values: MessageValues },
): { subject: string; message: string } {
  const values = notification.values;
  const more = typeof values.more === "number" && values.more > 0 ? t("notifications.more", { count: values.more }) : "";
  return { subject: t(subjectKey(notification.type), values), message: t(messageKey(notification.type), { ...values, moreText: more }) };
}
