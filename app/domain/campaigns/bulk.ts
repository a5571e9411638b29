/**
 * Bulk edit of selected campaigns (issue 4 section 2): one change (a status action, an end date,
 * a bid or a daily budget) planned for each campaign with the rules a single edit uses, so the
 * review step lists what will change and which campaigns refuse it. Pure: the service saves the
 * rows that are ok and changed (each with its version), and reports the others.
 *
 * Rules, per campaign:
 * - action: applyAction with the campaign's moderation and completeness (the actions
 *   table of actions.ts and the user's rights); enable also runs activationProblems and refuses a campaign of a
 *   suspended or archived team.
 * - bid: the campaign update right; the bid limits of the campaign's type and strategy (the
 *   strategy coerced to one the type allows for the team's account type, and saved with the bid
 *   when it changes); a FIXED-strategy bid is not checked against limits, as in the editor.
 * - daily: validatePacing against the campaign's total and placement budgets (cents); 0, less or
 *   empty removes the daily budget.
 * - end day: a real day, not before the start day (both in the retailer's time zone), saved as
 *   23:59:59.999 of that day.
 * - Field edits (end day, bid, daily) are refused on archived and deleted campaigns (reading: an
 *   archived campaign is read-only).
 */
import { dayEdge, dayOfInstant, type Campaign, type CampaignData } from "~/domain/campaigns/campaign";
import { campaignEditRefusal } from "~/domain/campaigns/editing";
import { activationProblems, ACTIVATION_TITLE, type ActivationRefusal } from "~/domain/campaigns/activation";
import { applyAction, type ActionOutcome, type CampaignAction } from "~/domain/campaigns/actions";
import { bidLimits, checkBid, coerceStrategy } from "~/domain/campaigns/bidding";
import { isDay } from "~/domain/campaigns/list";
import { validatePacing } from "~/domain/campaigns/pacing";
import { isComplete } from "~/domain/campaigns/status";
import type { Subject } from "~/domain/permissions";
import { needsModeration, type RetailerSettings } from "~/domain/retailer-settings";
import type { Cents } from "~/domain/money";
import type { TeamAccountType, TeamStatus } from "~/domain/types";

export type BulkChange =
  | { kind: "action"; action: CampaignAction; rejectionReason?: string | null }
  | { kind: "endDay"; day: string }
  | { kind: "bid"; cents: Cents }
  | { kind: "daily"; cents: Cents | null };

export interface BulkContext {
  settings: RetailerSettings;
  actor: Subject;
  /** The retailer's time zone (end days). */
  timeZone: string;
  /** Account type of each team; a campaign's teamInfo is used when its team is missing here. */
  teamAccountTypes?: Record<string, TeamAccountType>;
  /** Status of each team: a campaign of a suspended or archived team cannot be enabled. */
  teamStatuses?: Record<string, TeamStatus>;
}

export type BulkField = "status" | "endDate" | "bid" | "pacingDaily";

export type BulkRefusal =
  | "errors.insufficientPermissions"
  | "campaigns:actions.notAllowed"
  | "campaigns:errors.onlyDraftDelete"
  | "campaigns:activation.incompleteCampaign"
  | "campaigns:actions.reasonRequired"
  | "campaigns:form.bidNotPositive"
  | "campaigns:bidding.minBid"
  | "campaigns:bidding.maxBid"
  | "campaigns:budget.dailyNotBelowTotal"
  | "campaigns:budget.placementNotBelowDaily"
  | "campaigns:form.dayInvalid"
  | "campaigns:form.endBeforeStart"
  | "campaigns:campaign.edit.archived"
  | typeof ACTIVATION_TITLE;

export interface BulkRow {
  id: string;
  name: string;
  /** The version the plan was made on: save with expectVersion. */
  version: number;
  field: BulkField;
  /** Status, day (yyyy-mm-dd) or cents, as shown on the review step. */
  before: string | number | null;
  after: string | number | null;
  ok: boolean;
  /** False when the value is already the one asked for: nothing to save. */
  changed: boolean;
  reason?: BulkRefusal;
  /** Values of the reason's message (a limit in cents). */
  values?: Record<string, number>;
  /** Activation refusals of an enable (under 'Incomplete Campaign'). */
  problems?: ActivationRefusal[];
  /** What to save for a field edit. */
  patch?: Partial<CampaignData>;
  /** The outcome of an action (status, review, pending-review list). */
  outcome?: ActionOutcome;
}

export type BulkCampaign = Campaign;

function row(c: BulkCampaign, field: BulkField, before: BulkRow["before"], after: BulkRow["after"]): BulkRow {
  return { id: c.id, name: c.name, version: c.version, field, before, after, ok: true, changed: before !== after };
}

function refuse(r: BulkRow, reason: BulkRefusal, extra: Partial<BulkRow> = {}): BulkRow {
  return { ...r, ...extra, ok: false, changed: false, reason };
}

function planAction(c: BulkCampaign, change: Extract<BulkChange, { kind: "action" }>, ctx: BulkContext): BulkRow {
  const base = row(c, "status", c.status, c.status);
  const result = applyAction(
    change.action,
    c.status,
    { subject: ctx.actor, teamId: c.team },
    { moderation: needsModeration(ctx.settings, c.campaignType), complete: isComplete(c) },
    change.rejectionReason,
  );
  if (!result.ok) return refuse(base, result.reason);
  if (change.action === "enable") {
    const teamStatus = ctx.teamStatuses?.[c.team];
    const problems = activationProblems(c, ctx.settings, teamStatus === undefined ? {} : { teamStatus });
    if (problems.length > 0) return refuse(base, ACTIVATION_TITLE, { problems });
  }
  return { ...row(c, "status", c.status, result.value.status), changed: true, outcome: result.value };
}

function planEndDay(c: BulkCampaign, day: string, ctx: BulkContext): BulkRow {
  const before = c.endDate ? dayOfInstant(c.endDate, ctx.timeZone) : null;
  const base = row(c, "endDate", before, day);
  if (!isDay(day)) return refuse({ ...base, after: null }, "campaigns:form.dayInvalid");
  const startDay = c.startDate ? dayOfInstant(c.startDate, ctx.timeZone) : null;
  if (startDay && day < startDay) return refuse(base, "campaigns:form.endBeforeStart");
  return { ...base, patch: { endDate: new Date(dayEdge(day, ctx.timeZone, "end")).toISOString() } };
}

function planBid(c: BulkCampaign, cents: Cents, ctx: BulkContext): BulkRow {
  const base = row(c, "bid", c.bid, cents);
  if (!Number.isInteger(cents) || cents <= 0) return refuse(base, "campaigns:form.bidNotPositive");
  const accountType = ctx.teamAccountTypes?.[c.team] ?? c.teamInfo?.account_type ?? null;
  const strategy = coerceStrategy(ctx.settings, c.campaignType, accountType, c.bidStrategy);
  if (strategy !== "FIXED") {
    const check = checkBid(cents, bidLimits(ctx.settings, c.campaignType, strategy));
    if (!check.ok) return refuse(base, check.reason, check.limitCents === undefined ? {} : { values: { limit: check.limitCents } });
  }
  const patch: Partial<CampaignData> = { bid: cents };
  if (strategy !== c.bidStrategy) patch.bidStrategy = strategy;
  return { ...base, changed: base.changed || strategy !== c.bidStrategy, patch };
}

function planDaily(c: BulkCampaign, cents: Cents | null): BulkRow {
  const checked = validatePacing({
    total: c.pacingTotal,
    daily: cents,
    placements: { search: c.pacingSearch, plp: c.pacingPlp, hub: c.pacingHub, pdp: c.pacingPdp, home: c.pacingHome },
  });
  const daily = checked.ok ? checked.value.daily : cents;
  const base = row(c, "pacingDaily", c.pacingDaily, daily);
  if (!checked.ok) return refuse(base, checked.reason);
  return { ...base, patch: { pacingDaily: daily } };
}

/** One row per campaign, in the order given. */
export function planBulkEdit(campaigns: readonly BulkCampaign[], change: BulkChange, ctx: BulkContext): BulkRow[] {
  return campaigns.map((c) => {
    if (change.kind === "action") return planAction(c, change, ctx);
    const field: BulkField = change.kind === "endDay" ? "endDate" : change.kind === "bid" ? "bid" : "pacingDaily";
    const before = field === "endDate" ? (c.endDate ? dayOfInstant(c.endDate, ctx.timeZone) : null) : field === "bid" ? c.bid : c.pacingDaily;
    const refusal = campaignEditRefusal(ctx.actor, c);
    if (refusal) return refuse(row(c, field, before, before), refusal);
    switch (change.kind) {
      case "endDay":
        return planEndDay(c, change.day, ctx);
      case "bid":
        return planBid(c, change.cents, ctx);
      case "daily":
        return planDaily(c, change.cents);
    }
  });
}

/** Counts for the result page: saved (or to save), refused, already as asked. */
export function bulkSummary(rows: readonly Pick<BulkRow, "ok" | "changed">[]): { changed: number; refused: number; unchanged: number } {
  return {
    changed: rows.filter((r) => r.ok && r.changed).length,
    refused: rows.filter((r) => !r.ok).length,
    unchanged: rows.filter((r) => r.ok && !r.changed).length,
  };
}
