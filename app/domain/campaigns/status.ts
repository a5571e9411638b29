/**
 * Campaign live status, completeness and preview of spec section 4. Pure: `now` is passed in.
 *
 * Readings:
 * - Money is in cents, as storage holds it: the total budget is reached when the spend reaches
 *   the pacing total. A pacing total of null, 0 or less is no budget (pacing values must be above
 *   0, otherwise dropped).
 * - `startDate` and `endDate` are ISO instants; the end is the moment it stops, already computed
 *   as 23:59:59(.999) of its day in the retailer's time zone, and the campaign has ended once `now`
 *   is after it. A bare day (yyyy-mm-dd) is accepted too and is read in `timeZone` (default
 *   Europe/Paris): the start at 00:00 of that day, the end at 23:59:59.999 of it.
 * - A daily cap (the campaign's daily pacing, or its wallet's daily budget) reached today stops
 *   the campaign until the next day of the retailer's time zone: the settlement stores the day it
 *   was reached (`dailyCapReached`), and the live status is daily_cap_reached while that day is
 *   today, after the spec's four (a campaign out of budget says so first).
 * - A placement's or device's cap reached today stops the campaign on that placement or device
 *   only (`capsReached`, until the next retailer day): the live status stays running, and the
 *   cap notices say which cap stopped what until tomorrow (capNotices).
 */
import { TZDate } from "@date-fns/tz";
import { localDay } from "~/domain/metrics/periods";
import type { PacingDevice, PacingPlacement } from "~/domain/campaigns/pacing";
import type { Cents } from "~/domain/money";
import type { BidStrategy, RetailerSettings } from "~/domain/retailer-settings";
import type { WalletData } from "~/domain/types";
import { reachesDailyCap, type CapsReached, type DaySpend } from "~/domain/wallets/settlement";

export const CAMPAIGN_STATUSES = [
  "draft",
  "active",
  "paused",
  "archived",
  "deleted",
  "disabled",
  "suspended",
  "test",
  "locked",
  "pending",
  "scheduled",
  "completed",
  "pending_review",
  "approved",
  "rejected",
  "incomplete",
] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const DERIVED_LIVE_STATUSES = ["scheduled", "ended", "insufficient_funds", "out_of_budget", "daily_cap_reached", "running"] as const;
export type CampaignLiveStatus = Exclude<CampaignStatus, "active"> | (typeof DERIVED_LIVE_STATUSES)[number];

export const DEFAULT_RETAILER_TIME_ZONE = "Europe/Paris";

export interface CampaignLiveInput {
  status: CampaignStatus;
  startDate: string | null;
  endDate: string | null;
  /** The stored flag, set when the campaign was saved with an unusable wallet. */
  insufficient_funds?: boolean;
  spendCents: Cents;
  /** The total budget, or null for none. */
  pacingTotalCents: Cents | null;
  /** The retailer day a daily cap was reached on (yyyy-mm-dd), or null. */
  dailyCapReached?: string | null;
}

export type CampaignWallet = Pick<WalletData, "status" | "balance">;

const DAY_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

function instant(value: string, timeZone: string, edge: "start" | "end"): number {
  const m = DAY_ONLY.exec(value);
  if (!m) return Date.parse(value);
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  return edge === "start"
    ? new TZDate(y, mo, d, 0, 0, 0, 0, timeZone).getTime()
    : new TZDate(y, mo, d, 23, 59, 59, 999, timeZone).getTime();
}

/** The wallet makes the campaign insufficient_funds: none, balance 0 or less, archived or disabled. */
export function walletIsUnusable(wallet: CampaignWallet | null | undefined): boolean {
  return !wallet || wallet.balance <= 0 || wallet.status === "archived" || wallet.status === "disabled";
}

/** Spec section 4, in order: scheduled, ended, insufficient_funds, out_of_budget, running. */
export function deriveLiveStatus(
  campaign: CampaignLiveInput,
  wallet: CampaignWallet | null | undefined,
  now: Date,
  timeZone: string = DEFAULT_RETAILER_TIME_ZONE,
): CampaignLiveStatus {
  if (campaign.status !== "active") return campaign.status;
  const t = now.getTime();
  if (campaign.startDate && instant(campaign.startDate, timeZone, "start") > t) return "scheduled";
  if (campaign.endDate && instant(campaign.endDate, timeZone, "end") < t) return "ended";
  if (campaign.insufficient_funds || walletIsUnusable(wallet)) return "insufficient_funds";
  if (isOutOfBudget(campaign.spendCents, campaign.pacingTotalCents)) return "out_of_budget";
  if (isStoppedForToday(campaign.dailyCapReached, now, timeZone)) return "daily_cap_reached";
  return "running";
}

/** The spend has reached the total budget (cents; a budget of null, 0 or less is none). */
export function isOutOfBudget(spendCents: Cents, pacingTotalCents: Cents | null | undefined): boolean {
  return pacingTotalCents != null && pacingTotalCents > 0 && spendCents >= pacingTotalCents;
}

/** A daily cap was reached today (the retailer's day): the campaign serves again tomorrow. */
export function isStoppedForToday(dailyCapReached: string | null | undefined, now: Date, timeZone: string = DEFAULT_RETAILER_TIME_ZONE): boolean {
  return !!dailyCapReached && dailyCapReached === localDay(now, timeZone);
}

/** Why an active campaign cannot serve now, whatever its dates: funds, total budget, daily cap. */
export type ServingStop = "insufficient_funds" | "out_of_budget" | "daily_cap_reached";

/**
 * What stops the campaign from serving: the insufficient_funds flag (kept from its wallet), its
 * spend at the total budget, or a daily cap reached today; null when nothing does.
 */
export function servingStop(
  campaign: Pick<CampaignLiveInput, "insufficient_funds" | "spendCents" | "pacingTotalCents" | "dailyCapReached">,
  now: Date,
  timeZone: string = DEFAULT_RETAILER_TIME_ZONE,
): ServingStop | null {
  if (campaign.insufficient_funds) return "insufficient_funds";
  if (isOutOfBudget(campaign.spendCents, campaign.pacingTotalCents)) return "out_of_budget";
  if (isStoppedForToday(campaign.dailyCapReached, now, timeZone)) return "daily_cap_reached";
  return null;
}

/** The placement and device caps that stand today (the retailer's day), or null. */
export function capsReachedToday(
  capsReached: CapsReached | null | undefined,
  now: Date,
  timeZone: string = DEFAULT_RETAILER_TIME_ZONE,
): CapsReached | null {
  return capsReached && capsReached.day === localDay(now, timeZone) ? capsReached : null;
}

/** A cap reached today, as the user is told: which cap stopped what, until tomorrow. */
export type CapNotice =
  /** The whole campaign: its own daily pacing, or its wallet's daily budget. */
  | { cap: "daily"; by: "campaign" | "wallet" }
  | { cap: "placement"; placement: PacingPlacement }
  | { cap: "device"; device: PacingDevice };

export interface CapNoticeInput {
  dailyCapReached?: string | null;
  capsReached?: CapsReached | null;
  /** Cents settled today, and the daily pacing (cents): tell the campaign's cap from the wallet's. */
  todaySpend?: DaySpend | null;
  pacingDaily: Cents | null;
}

/**
 * The caps that stop the campaign today, for a campaign whose live status is running or
 * daily_cap_reached (any other status says more than a cap would): the daily cap first (the
 * campaign's own pacing when its spend of today reached it, else its wallet's daily budget), then
 * each placement and each device, in the canonical orders. Empty when none stands today.
 */
export function capNotices(
  campaign: CapNoticeInput,
  liveStatus: CampaignLiveStatus,
  now: Date,
  timeZone: string = DEFAULT_RETAILER_TIME_ZONE,
): CapNotice[] {
  if (liveStatus !== "running" && liveStatus !== "daily_cap_reached") return [];
  const out: CapNotice[] = [];
  if (isStoppedForToday(campaign.dailyCapReached, now, timeZone)) {
    const own = reachesDailyCap(campaign.todaySpend, localDay(now, timeZone), campaign.pacingDaily);
    out.push({ cap: "daily", by: own ? "campaign" : "wallet" });
  }
  const caps = capsReachedToday(campaign.capsReached, now, timeZone);
  for (const placement of caps?.placements ?? []) out.push({ cap: "placement", placement });
  for (const device of caps?.devices ?? []) out.push({ cap: "device", device });
  return out;
}

/** The i18n key (campaigns namespace) of a cap notice: its full sentence, or its short form for lists. */
export function capNoticeKey(notice: CapNotice, form: "full" | "short" = "full"): string {
  const base = form === "short" ? "caps.short" : "caps";
  if (notice.cap === "daily") return notice.by === "campaign" ? `${base}.daily` : `${base}.walletDaily`;
  return notice.cap === "placement" ? `${base}.placement.${notice.placement}` : `${base}.device.${notice.device}`;
}

export interface CampaignCompletenessInput {
  name: string | null | undefined;
  startDate: string | null | undefined;
  bidStrategy: BidStrategy | null | undefined;
  bid: Cents | null | undefined;
}

/** A name, a start date and either the FIXED strategy or a bid above zero. */
export function isComplete(campaign: CampaignCompletenessInput): boolean {
  if (!campaign.name || campaign.name.trim() === "") return false;
  if (!campaign.startDate) return false;
  return campaign.bidStrategy === "FIXED" || (typeof campaign.bid === "number" && campaign.bid > 0);
}

/** The live statuses a campaign may be previewed in (spec section 4). */
export const PREVIEW_LIVE_STATUSES: readonly CampaignLiveStatus[] = ["running", "scheduled"];

/** Why a preview is refused: the retailer has it switched off, or the campaign is not running or scheduled. */
export type PreviewRefusal = "previewOff" | "notLive";

/**
 * Spec section 4: "Preview only when the retailer enables preview and live status is running or
 * scheduled." The retailer's switch is checked first: with it off, no campaign has a preview.
 */
export function previewRefusal(settings: Pick<RetailerSettings, "preview">, liveStatus: CampaignLiveStatus): PreviewRefusal | null {
  if (!settings.preview) return "previewOff";
  return PREVIEW_LIVE_STATUSES.includes(liveStatus) ? null : "notLive";
}

/** The campaign may be previewed now (see previewRefusal). */
export function canPreview(settings: Pick<RetailerSettings, "preview">, liveStatus: CampaignLiveStatus): boolean {
  return previewRefusal(settings, liveStatus) === null;
}
