/**
 * Bulk edit of selected campaigns (issue 4 section 2): a review that says, campaign by campaign,
 * what will change from what to what and which campaigns refuse the change and why (the rules of
 * app/domain/campaign-bulk.ts), then the apply step, which plans again on fresh campaigns and saves
 * each one that is still at the version the user reviewed, through the same use cases as a single
 * edit (runCampaignAction for status actions, saveSection for field edits: rights, version,
 * audit and publication in one transaction). One campaign failing never stops the others.
 *
 * A repeated apply (a reload of the result page) cannot apply twice: every campaign saved has a
 * new version, so the second attempt reports a conflict for it.
 */
import { ACTION_RULES, type CampaignAction } from "~/domain/campaigns/actions";
import { planBulkEdit, type BulkChange, type BulkContext, type BulkRow } from "~/domain/campaigns/bulk";
import { dayEdge } from "~/domain/campaigns/campaign";
import type { CampaignStatus } from "~/domain/campaigns/status";
import { formatMoney } from "~/domain/money";
import { can, isReviewer, isTeamManager } from "~/domain/permissions";
import { canSeeTeam } from "~/domain/teams";
import type { Team, User } from "~/domain/types";
import { BULK_ACTIONS, type BulkChangeChoice, type BulkEditValue } from "~/forms/campaigns/list";
import type { Campaign } from "~/storage/port";
import { withValues } from "~/domain/message";
import { failureMessage, forbidden, notFound, ok, type Failure, type Result } from "~/domain/result";
import { runCampaignAction, saveSection, type CampaignContext } from "~/services/campaigns/campaigns.server";
import { getRetailerSettings, retailerTimeZone } from "~/services/retailer-settings.server";
import { getStorage } from "~/services/storage.server";
import { retailerSettings as walletRetailerSettings } from "~/services/wallets.server";
import { dateTimeFormat } from "~/domain/intl";

// ---------------------------------------------------------------------------------------------
// Rights

function mayUseRight(user: User, right: (typeof ACTION_RULES)[CampaignAction]["right"]): boolean {
  switch (right) {
    case "update":
      return can(user, "Campaign", "lifecycle");
    case "manager":
      return isTeamManager(user.claims);
    case "reviewer":
      return isReviewer(user.claims);
  }
}

/** The changes to offer in the bulk form: the actions the user may make somewhere, and field edits with the update right. */
export function bulkChoices(user: User): BulkChangeChoice[] {
  const actions = BULK_ACTIONS.filter((a) => mayUseRight(user, ACTION_RULES[a].right)).map((a) => `action:${a}` as const);
  const fields = can(user, "Campaign", "update") ? (["endDay", "bid", "daily"] as const) : [];
  return [...actions, ...fields];
}

export function canBulkEdit(user: User): boolean {
  return bulkChoices(user).length > 0;
}

/** Forbidden ('Insufficient permissions') for a user who may change no campaign (viewers). */
export function bulkRightRefusal(user: User): Failure | null {
  return canBulkEdit(user) ? null : forbidden();
}

// ---------------------------------------------------------------------------------------------
// What the pages show

export type Shown = { kind: "status"; status: CampaignStatus } | { kind: "text"; text: string } | null;

export interface BulkRowView {
  id: string;
  name: string;
  version: number;
  field: BulkRow["field"];
  before: Shown;
  after: Shown;
  ok: boolean;
  changed: boolean;
  /** An i18n key (with values, app/utils/message.ts) when refused. */
  reason: string | null;
  problems: string[];
}

export type BulkOutcome = "saved" | "unchanged" | "failed";
export interface BulkResultView extends BulkRowView {
  outcome: BulkOutcome;
}

interface Presenter {
  locale: string;
  currency: string;
  timeZone: string;
}

function presenter(locale: string): Presenter {
  return { locale, currency: walletRetailerSettings().currency, timeZone: retailerTimeZone() };
}

function shown(field: BulkRow["field"], value: string | number | null, p: Presenter): Shown {
  if (value === null || value === "") return null;
  if (field === "status") return { kind: "status", status: value as CampaignStatus };
  if (field === "endDate") {
    const text = dateTimeFormat(p.locale, { dateStyle: "medium", timeZone: p.timeZone }).format(new Date(dayEdge(String(value), p.timeZone, "start")));
    return { kind: "text", text };
  }
  return { kind: "text", text: formatMoney(Number(value), p.currency, p.locale) };
}

/** The row's reason is its message's i18n key; a broken bid limit is its {0}, in the currency. */
function reasonMessage(row: BulkRow, p: Presenter): string | null {
  if (!row.reason) return null;
  if (row.values?.limit !== undefined) return withValues(row.reason, { 0: formatMoney(row.values.limit, p.currency, p.locale) });
  return row.reason;
}

function rowView(row: BulkRow, p: Presenter): BulkRowView {
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    field: row.field,
    before: shown(row.field, row.before, p),
    after: shown(row.field, row.after, p),
    ok: row.ok,
    changed: row.changed,
    reason: reasonMessage(row, p),
    problems: row.problems ?? [],
  };
}

// ---------------------------------------------------------------------------------------------
// Reading the selection

interface Selection {
  campaigns: Campaign[];
  teams: Map<string, Team>;
}

/**
 * The selected campaigns in the order given, each with its team; a 404 (that reveals nothing) when
 * one is missing or outside the user's scope (or, on a team's tab, of another team).
 */
async function readSelection(user: User, ids: readonly string[], fixedTeamId: string | null): Promise<Selection | null> {
  const found = await getStorage().campaigns.getMany(ids);
  const byId = new Map(found.map((c) => [c.id, c]));
  const teamIds = [...new Set(found.map((c) => c.team))];
  const teams = new Map((teamIds.length ? await getStorage().teams.getMany(teamIds) : []).map((t) => [t.id, t]));
  const campaigns: Campaign[] = [];
  for (const id of ids) {
    const campaign = byId.get(id);
    const team = campaign ? teams.get(campaign.team) : undefined;
    if (!campaign || !team || !canSeeTeam(user, team) || (fixedTeamId !== null && campaign.team !== fixedTeamId)) {
      return null;
    }
    campaigns.push(campaign);
  }
  return { campaigns, teams };
}

async function plan(user: User, selection: Selection, change: BulkChange): Promise<BulkRow[]> {
  const settings = await getRetailerSettings();
  const teams = [...selection.teams.values()];
  const ctx: BulkContext = {
    settings,
    actor: user,
    timeZone: retailerTimeZone(),
    teamAccountTypes: Object.fromEntries(teams.map((t) => [t.id, t.account_type])),
    teamStatuses: Object.fromEntries(teams.map((t) => [t.id, t.status])),
  };
  return planBulkEdit(selection.campaigns, change, ctx);
}

export interface BulkReview {
  rows: BulkRowView[];
  summary: { changed: number; refused: number; unchanged: number };
}

function summarise(rows: readonly { ok: boolean; changed: boolean }[]) {
  return {
    changed: rows.filter((r) => r.ok && r.changed).length,
    refused: rows.filter((r) => !r.ok).length,
    unchanged: rows.filter((r) => r.ok && !r.changed).length,
  };
}

/** The review step: what will change, what will not and why. Nothing is saved. */
export async function reviewBulkEdit(user: User, value: BulkEditValue, fixedTeamId: string | null, locale: string): Promise<Result<BulkReview>> {
  const refused = bulkRightRefusal(user);
  if (refused) return refused;
  const selection = await readSelection(user, value.campaignIds, fixedTeamId);
  if (!selection) return notFound();
  const rows = (await plan(user, selection, value.change)).map((r) => rowView(r, presenter(locale)));
  return ok({ rows, summary: summarise(rows) });
}

export interface BulkResult {
  rows: BulkResultView[];
  summary: { saved: number; failed: number; unchanged: number };
}

/**
 * The confirmed edit: each campaign still at its reviewed version and accepted by the rules is
 * saved on its own; the others are reported with their reason.
 */
export async function applyBulkEdit(user: User, value: BulkEditValue, fixedTeamId: string | null, locale: string): Promise<Result<BulkResult>> {
  const refused = bulkRightRefusal(user);
  if (refused) return refused;
  const p = presenter(locale);
  const selection = await readSelection(user, value.campaignIds, fixedTeamId);
  if (!selection) return notFound();
  const planned = await plan(user, selection, value.change);
  const rows: BulkResultView[] = [];
  for (const [index, row] of planned.entries()) {
    const campaign = selection.campaigns[index]!;
    const team = selection.teams.get(campaign.team)!;
    const view = rowView(row, p);
    const reviewed = value.versions[campaign.id];
    if (reviewed === undefined || reviewed !== campaign.version) {
      rows.push({ ...view, ok: false, changed: false, outcome: "failed", reason: "errors.conflict", problems: [] });
      continue;
    }
    if (!row.ok) {
      rows.push({ ...view, outcome: "failed" });
      continue;
    }
    if (!row.changed) {
      rows.push({ ...view, outcome: "unchanged" });
      continue;
    }
    rows.push(await applyOne(user, { campaign, team }, row, value.change, view));
  }
  return ok({
    rows,
    summary: {
      saved: rows.filter((r) => r.outcome === "saved").length,
      failed: rows.filter((r) => r.outcome === "failed").length,
      unchanged: rows.filter((r) => r.outcome === "unchanged").length,
    },
  });
}

async function applyOne(user: User, ctx: CampaignContext, row: BulkRow, change: BulkChange, view: BulkRowView): Promise<BulkResultView> {
  try {
    if (change.kind === "action") {
      const outcome = await runCampaignAction(user, ctx, change.action, row.version, change.rejectionReason ?? null);
      if (outcome.ok) return { ...view, outcome: "saved" };
      return {
        ...view,
        ok: false,
        outcome: "failed",
        reason: failureMessage(outcome),
        problems: outcome.details ?? [],
      };
    }
    const saved = await saveSection(user, ctx, row.patch ?? {}, row.version);
    if (saved.ok) return { ...view, outcome: "saved" };
    // A campaign deleted meanwhile: this row fails, the others go on.
    if (saved.kind === "not-found") return { ...view, ok: false, outcome: "failed", reason: "campaignList:bulk.reason.gone", problems: [] };
    return { ...view, ok: false, outcome: "failed", reason: failureMessage(saved), problems: [] };
  } catch (error) {
    // A storage failure: this row fails, the others go on.
    console.error(JSON.stringify({ level: "error", msg: "Bulk campaign edit failed", campaignId: row.id, error: String(error) }));
    return { ...view, ok: false, outcome: "failed", reason: "errors.tryAgain", problems: [] };
  }
}
