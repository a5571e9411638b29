/**
 * Campaigns: the use cases behind the lists, the creation page and the editor. Routes authorize
 * first (requireUser, requirePermission); this module scopes every record again (a campaign
 * outside the user's teams answers 404), applies the domain rules and saves through the
 * repository, which audits each change and publishes to the ad server's cache in the same
 * transaction.
 */
import { data } from "@remix-run/node";
import { applyAction, availableActions, type CampaignAction } from "~/domain/campaign-actions";
import { activationProblems } from "~/domain/campaign-activation";
import { applyMinBid, bidLimits, checkBid, coerceStrategy } from "~/domain/campaign-bidding";
import { publishedCampaign } from "~/domain/campaign-publication";
import {
  PACING_DEVICES,
  PACING_FIELD,
  PACING_PLACEMENTS,
  dayEdge,
  dayOfInstant,
  duplicateCampaignData,
  newCampaignData,
  type Campaign,
  type CampaignData,
} from "~/domain/campaign";
import { validatePacing } from "~/domain/campaign-pacing";
import { deriveLiveStatus, isComplete, walletIsUnusable, type CampaignLiveStatus } from "~/domain/campaign-status";
import { formatMoney } from "~/domain/money";
import { can } from "~/domain/permissions";
import { PLACEMENTS, needsModeration, type RetailerSettings } from "~/domain/retailer-settings";
import { canSeeTeam } from "~/domain/teams";
import type { Team, User, Wallet } from "~/domain/types";
import type { CreateCampaignValue, UpdateBiddingValue, UpdateBudgetValue, UpdateGeneralValue } from "~/forms/campaigns";
import { ConflictError, NotFoundError, type Patch } from "~/storage/port";
import { withValues } from "~/utils/message";
import { getRetailerSettings, retailerTimeZone } from "./retailer-settings.server";
import { getStorage } from "./storage.server";
import { retailerSettings as walletRetailerSettings } from "./wallets.server";

// ---------------------------------------------------------------------------------------------
// Scope

/** The teams whose campaigns the user may see: undefined = all (retailers, operators). */
export function campaignTeamScope(user: User): string[] | undefined {
  return user.claims.type === "supplier" ? [...user.teamIds] : undefined;
}

export interface CampaignContext {
  campaign: Campaign;
  team: Team;
}

/** The campaign and its team, or a 404 that does not reveal whether it exists. */
export async function requireCampaign(user: User, id: string | undefined): Promise<CampaignContext> {
  const campaign = id ? await getStorage().campaigns.getOne(id) : null;
  const team = campaign ? await getStorage().teams.getOne(campaign.team) : null;
  if (!campaign || !team || !canSeeTeam(user, team)) throw data({ error: "errors.notFound" }, { status: 404 });
  return { campaign, team };
}

/** 403 'Insufficient permissions' unless the user may edit campaigns of this team. */
export function canEditCampaign(user: User, teamId: string): boolean {
  return can(user, "Campaign", "update", { teamId });
}

// ---------------------------------------------------------------------------------------------
// Publication

/** The publication callback for a save: the cache copy to write, or null to withdraw it. */
export function publisherFor(team: Pick<Team, "status"> | null, settings: RetailerSettings, now = new Date()) {
  return (campaign: Campaign) => publishedCampaign(campaign, { settings, teamStatus: team?.status ?? null, timeZone: retailerTimeZone(), now });
}

/**
 * A team suspended or archived withdraws its campaigns; restored, its active campaigns are
 * published again. Idempotent: each campaign's publication is recomputed from its state.
 */
export async function republishTeam(team: Team): Promise<number> {
  const settings = await getRetailerSettings();
  const publish = publisherFor(team, settings);
  let changed = 0;
  for (const campaign of await getStorage().campaigns.listForTeam(team.id)) {
    const payload = publish(campaign);
    const current = await getStorage().publication.getCampaign(campaign.id);
    if (!payload && !current) continue;
    await getStorage().publication.apply(campaign.id, payload);
    changed++;
  }
  return changed;
}

// ---------------------------------------------------------------------------------------------
// Results

export type FieldErrors = Record<string, string[]>;
export type SaveResult =
  | { ok: true; campaign: Campaign; warnings: string[] }
  | { ok: false; status: 400 | 403 | 409; formErrors: string[]; fieldErrors: FieldErrors; values?: Record<string, string> };

function refused(status: 400 | 403 | 409, formErrors: string[], fieldErrors: FieldErrors = {}): SaveResult {
  return { ok: false, status, formErrors, fieldErrors };
}

async function save(
  user: User,
  ctx: CampaignContext,
  patch: Patch<CampaignData>,
  version: number,
  action = "update",
  warnings: string[] = [],
): Promise<SaveResult> {
  const settings = await getRetailerSettings();
  try {
    const campaign = await getStorage().campaigns.update(ctx.campaign.id, patch, { by: user.email }, {
      expectVersion: version,
      action,
      publish: publisherFor(ctx.team, settings),
    });
    return { ok: true, campaign, warnings };
  } catch (error) {
    if (error instanceof ConflictError) return refused(409, ["errors.conflict"]);
    if (error instanceof NotFoundError) throw data({ error: "errors.notFound" }, { status: 404 });
    throw error;
  }
}

function requireEdit(user: User, ctx: CampaignContext): SaveResult | null {
  return canEditCampaign(user, ctx.team.id) ? null : refused(403, ["errors.insufficientPermissions"]);
}

// ---------------------------------------------------------------------------------------------
// Creation

export async function createCampaign(user: User, team: Team, value: CreateCampaignValue): Promise<Campaign> {
  const settings = await getRetailerSettings();
  const draft = newCampaignData(
    { name: value.name, startDay: value.startDay, endDay: value.endDay, campaignType: value.campaignType, team },
    settings,
    user.email,
    new Date(),
    retailerTimeZone(),
  );
  return getStorage().campaigns.create(draft, { by: user.email });
}

/** What the creation form starts from: today in the retailer's time zone. */
export function creationDefaults(now = new Date()) {
  return { startDay: dayOfInstant(now.toISOString(), retailerTimeZone()) };
}

// ---------------------------------------------------------------------------------------------
// Editor sections

export async function teamWallets(teamId: string): Promise<Wallet[]> {
  return getStorage().wallets.listForTeam(teamId);
}

export async function updateGeneral(user: User, ctx: CampaignContext, value: UpdateGeneralValue): Promise<SaveResult> {
  const denied = requireEdit(user, ctx);
  if (denied) return denied;
  const tz = retailerTimeZone();
  const patch: Patch<CampaignData> = {
    name: value.name,
    startDate: dayEdge(value.startDay, tz, "start"),
    endDate: value.endDay ? dayEdge(value.endDay, tz, "end") : null,
  };
  const warnings: string[] = [];
  if (value.wallet) {
    const wallet = await getStorage().wallets.getOne(value.wallet);
    // Only the campaign's team's wallets, checked here whatever the form offered.
    if (!wallet || wallet.teamId !== ctx.team.id) return refused(400, [], { wallet: ["campaigns:general.walletNotOfTeam"] });
    patch.wallet = wallet.id;
    patch.selectedWallet = { label: wallet.label, credit: wallet.credit, balance: wallet.balance, status: wallet.status };
    patch.insufficient_funds = walletIsUnusable(wallet);
    if (patch.insufficient_funds) warnings.push("campaigns:general.walletUnusable");
    if (ctx.campaign.pacingTotal !== null && ctx.campaign.pacingTotal > wallet.balance) warnings.push("campaigns:budget.aboveBalance");
  } else {
    patch.wallet = null;
    patch.selectedWallet = null;
    patch.insufficient_funds = true;
  }
  return save(user, ctx, patch, value.version, "update", warnings);
}

export async function updateBidding(user: User, ctx: CampaignContext, value: UpdateBiddingValue, locale: string): Promise<SaveResult> {
  const denied = requireEdit(user, ctx);
  if (denied) return denied;
  const settings = await getRetailerSettings();
  const type = ctx.campaign.campaignType;
  const strategy = coerceStrategy(settings, type, ctx.team.account_type, value.bidStrategy);
  const limits = bidLimits(settings, type, strategy);
  const fieldErrors: FieldErrors = {};
  const currency = walletRetailerSettings().currency;
  const check = (field: string, cents: number) => {
    const result = checkBid(cents, limits);
    if (result.ok) return;
    const key = result.reason === "campaign.bid.tooHigh" ? "campaigns:bidding.maxBid" : "campaigns:bidding.minBid";
    fieldErrors[field] = [withValues(key, { 0: formatMoney(result.limitCents ?? 0, currency, locale) })];
  };
  if (strategy !== "FIXED") check("bid", value.bid);
  const placementBids: Partial<Record<(typeof PLACEMENTS)[number], number>> = {};
  for (const p of PLACEMENTS) {
    const cents = value[`bid_${p}`];
    if (cents !== null && cents !== undefined) {
      check(`bid_${p}`, cents);
      placementBids[p] = cents;
    }
  }
  if (Object.keys(fieldErrors).length) return refused(400, [], fieldErrors);
  return save(user, ctx, { bidStrategy: strategy, bid: value.bid, placementBids }, value.version);
}

/** 'Apply min bid': every bid below the minimum is raised to it. */
export async function applyMinimumBid(user: User, ctx: CampaignContext, version: number): Promise<SaveResult> {
  const denied = requireEdit(user, ctx);
  if (denied) return denied;
  const settings = await getRetailerSettings();
  const c = ctx.campaign;
  const strategy = coerceStrategy(settings, c.campaignType, ctx.team.account_type, c.bidStrategy);
  const limits = bidLimits(settings, c.campaignType, strategy);
  const placementBids = Object.fromEntries(Object.entries(c.placementBids).map(([p, b]) => [p, applyMinBid(b ?? 0, limits)]));
  return save(user, ctx, { bidStrategy: strategy, bid: applyMinBid(c.bid, limits), placementBids }, version);
}

export async function updateBudget(user: User, ctx: CampaignContext, value: UpdateBudgetValue): Promise<SaveResult> {
  const denied = requireEdit(user, ctx);
  if (denied) return denied;
  const checked = validatePacing({
    total: value.pacingTotal,
    daily: value.pacingDaily,
    placements: Object.fromEntries(PACING_PLACEMENTS.map((p) => [p, value[`pacing_${p}`]])),
    devices: Object.fromEntries(PACING_DEVICES.map((d) => [d, value[`device_${d}`]])),
  });
  if (!checked.ok) {
    const field = checked.field === "daily" ? "pacingDaily" : `pacing_${checked.field}`;
    return refused(400, [], { [field]: [`campaigns:${checked.reason === "campaign.pacing.dailyNotBelowTotal" ? "budget.dailyNotBelowTotal" : "budget.placementNotBelowDaily"}`] });
  }
  const p = checked.value;
  const patch: Patch<CampaignData> = { pacingTotal: p.total, pacingDaily: p.daily, pacingDevices: p.devices };
  for (const placement of PACING_PLACEMENTS) patch[PACING_FIELD[placement]] = p.placements[placement];
  const warnings: string[] = [];
  if (p.total !== null && ctx.campaign.wallet) {
    const wallet = await getStorage().wallets.getOne(ctx.campaign.wallet);
    if (wallet && p.total > wallet.balance) warnings.push("campaigns:budget.aboveBalance");
  }
  return save(user, ctx, patch, value.version, "update", warnings);
}

/** Any other section's patch (targeting, banners, creative, products): rights, version, publication. */
export async function saveSection(
  user: User,
  ctx: CampaignContext,
  patch: Patch<CampaignData>,
  version: number,
  warnings: string[] = [],
): Promise<SaveResult> {
  const denied = requireEdit(user, ctx);
  if (denied) return denied;
  return save(user, ctx, patch, version, "update", warnings);
}

// ---------------------------------------------------------------------------------------------
// Lifecycle

export type ActionOutcome =
  | { ok: true; campaign: Campaign | null; deleted: boolean; message: string }
  | { ok: false; status: 400 | 403 | 409; message: string; problems?: string[] };

export async function actionContext(ctx: CampaignContext, settings?: RetailerSettings) {
  const s = settings ?? (await getRetailerSettings());
  return { moderation: needsModeration(s, ctx.campaign.campaignType), complete: isComplete(ctx.campaign), settings: s };
}

/** The actions to offer the user for this campaign (what runCampaignAction would accept). */
export async function offeredActions(user: User, ctx: CampaignContext): Promise<CampaignAction[]> {
  const { moderation, settings } = await actionContext(ctx);
  const offered = availableActions(ctx.campaign.status, { subject: user, teamId: ctx.team.id }, { moderation, complete: true });
  // Enable is offered while incomplete (so the user learns why it is refused), never for a withdrawn team.
  return offered.filter((a) => a !== "enable" || ctx.team.status === "active").filter(() => !!settings);
}

const ACTION_ERROR: Partial<Record<CampaignAction, string>> = {
  delete: "campaigns:errors.deleteError",
  archive: "campaigns:errors.archiveError",
};

export async function runCampaignAction(
  user: User,
  ctx: CampaignContext,
  action: CampaignAction,
  version: number,
  reason?: string | null,
): Promise<ActionOutcome> {
  const { moderation, complete, settings } = await actionContext(ctx);
  const campaign = ctx.campaign;
  if (action === "enable" && ctx.team.status !== "active") return { ok: false, status: 400, message: "campaigns:actions.teamWithdrawn" };
  const result = applyAction(action, campaign.status, { subject: user, teamId: ctx.team.id }, { moderation, complete }, reason);
  if (!result.ok) {
    const status = result.reason === "campaign.action.forbidden" ? 403 : 400;
    const message =
      result.reason === "campaign.action.forbidden"
        ? "errors.insufficientPermissions"
        : result.reason === "campaign.delete.onlyDraft"
          ? "campaigns:errors.onlyDraftDelete"
          : result.reason === "campaign.incomplete"
            ? "campaigns:activation.incompleteCampaign"
            : result.reason === "campaign.reject.reasonRequired"
              ? "campaigns:actions.reasonRequired"
              : "campaigns:actions.notAllowed";
    return { ok: false, status, message };
  }
  if (action === "enable") {
    const problems = activationProblems(campaign, settings);
    if (problems.length) return { ok: false, status: 400, message: "campaigns:activation.incompleteCampaign", problems };
  }
  const now = new Date();
  try {
    if (action === "delete") {
      await getStorage().campaigns.delete(campaign.id, { by: user.email }, now, { expectVersion: version });
      return { ok: true, campaign: null, deleted: true, message: "campaigns:toast.deleted" };
    }
    const patch: Patch<CampaignData> = { status: result.value.status };
    if (result.value.review) {
      patch.review = { ...result.value.review, by: user.email, date: now.toISOString() };
    }
    const saved = await getStorage().campaigns.update(campaign.id, patch, { by: user.email }, {
      expectVersion: version,
      action,
      publish: publisherFor(ctx.team, settings, now),
    });
    if (result.value.addToPendingReview && !ctx.team.pending_review_campaigns.includes(campaign.id)) {
      await addPendingReview(ctx.team.id, campaign.id, true);
    } else if (action === "approve" || action === "reject") {
      await addPendingReview(ctx.team.id, campaign.id, false);
    }
    return { ok: true, campaign: saved, deleted: false, message: `campaigns:toast.action.${action}` };
  } catch (error) {
    if (error instanceof ConflictError) return { ok: false, status: 409, message: "errors.conflict" };
    if (error instanceof NotFoundError) throw data({ error: "errors.notFound" }, { status: 404 });
    console.error(JSON.stringify({ level: "error", msg: "Campaign action failed", action, campaignId: campaign.id, error: String(error) }));
    const publishFailure = user.claims.type === "operator" ? "campaigns:errors.publishError" : "errors.generic";
    return { ok: false, status: 400, message: ACTION_ERROR[action] ?? publishFailure };
  }
}

/** Keeps the team's pending-review list (moderation). */
async function addPendingReview(teamId: string, campaignId: string, add: boolean): Promise<void> {
  await getStorage().documents.transaction(async (tx) => {
    const team = await tx.get<Team>("team", teamId);
    if (!team) return;
    const list = team.pending_review_campaigns ?? [];
    const next = add ? [...new Set([...list, campaignId])] : list.filter((id) => id !== campaignId);
    if (next.length !== list.length) tx.update<Team>("team", teamId, { pending_review_campaigns: next });
  });
}

/** Duplicate: a new draft copy; returns its id (no toast, spec section 8). */
export async function duplicateCampaign(user: User, ctx: CampaignContext, copyName: string): Promise<string> {
  if (!can(user, "Campaign", "create", { teamId: ctx.team.id })) throw data({ error: "errors.insufficientPermissions" }, { status: 403 });
  const copy = duplicateCampaignData(ctx.campaign, copyName, user.email, new Date());
  const created = await getStorage().campaigns.create(copy, { by: user.email });
  return created.id;
}

// ---------------------------------------------------------------------------------------------
// Presentation

export interface CampaignViewContext {
  locale: string;
  userTimeZone: string;
  retailerTimeZone: string;
  currency: string;
  now: Date;
}

export function campaignViewContext(user: User, locale: string, now = new Date()): CampaignViewContext {
  return { locale, userTimeZone: user.timezone || "Europe/Paris", retailerTimeZone: retailerTimeZone(), currency: walletRetailerSettings().currency, now };
}

export function liveStatusOf(campaign: Campaign, wallet: Pick<Wallet, "status" | "balance"> | null, now: Date): CampaignLiveStatus {
  return deriveLiveStatus(
    { status: campaign.status, startDate: campaign.startDate, endDate: campaign.endDate, insufficient_funds: campaign.insufficient_funds, spend: campaign.spend, pacingTotal: campaign.pacingTotal === null ? null : campaign.pacingTotal / 100 },
    wallet,
    now,
    retailerTimeZone(),
  );
}

function formatDay(iso: string | null, ctx: CampaignViewContext): string | null {
  if (!iso) return null;
  return new Intl.DateTimeFormat(ctx.locale, { dateStyle: "medium", timeZone: ctx.retailerTimeZone }).format(new Date(iso));
}

function formatInstant(iso: string | null, ctx: CampaignViewContext): string | null {
  if (!iso) return null;
  return new Intl.DateTimeFormat(ctx.locale, { dateStyle: "medium", timeStyle: "short", timeZone: ctx.userTimeZone }).format(new Date(iso));
}

/** One campaign as the lists and the editor header show it. */
export function presentCampaign(campaign: Campaign, wallet: Wallet | null, ctx: CampaignViewContext) {
  const money = (cents: number | null) => (cents === null ? null : formatMoney(cents, ctx.currency, ctx.locale));
  return {
    id: campaign.id,
    version: campaign.version,
    name: campaign.name,
    status: campaign.status,
    liveStatus: liveStatusOf(campaign, wallet, ctx.now),
    campaignType: campaign.campaignType,
    team: { id: campaign.team, name: campaign.teamInfo.name },
    wallet: campaign.wallet ? { id: campaign.wallet, label: wallet?.label ?? campaign.selectedWallet?.label ?? "" } : null,
    bidStrategy: campaign.bidStrategy,
    bid: money(campaign.bid),
    bidCents: campaign.bid,
    start: formatDay(campaign.startDate, ctx),
    end: formatDay(campaign.endDate, ctx),
    startDay: dayOfInstant(campaign.startDate, ctx.retailerTimeZone),
    endDay: dayOfInstant(campaign.endDate, ctx.retailerTimeZone),
    spend: money(campaign.spend),
    pacingTotal: money(campaign.pacingTotal),
    pacingDaily: money(campaign.pacingDaily),
    updated: formatInstant(campaign.updated, ctx),
    updatedIso: campaign.updated,
    by: campaign.by || "system",
    insufficient_funds: campaign.insufficient_funds,
    productCount: campaign.productIds.length,
    complete: isComplete(campaign),
    review: campaign.review,
  };
}
export type CampaignRow = ReturnType<typeof presentCampaign>;

/** The wallets of a page of campaigns, by id, in one read. */
export async function walletsOf(campaigns: readonly Campaign[]): Promise<Map<string, Wallet>> {
  const ids = [...new Set(campaigns.map((c) => c.wallet).filter((w): w is string => !!w))];
  const wallets = ids.length ? await getStorage().wallets.getMany(ids) : [];
  return new Map(wallets.map((w) => [w.id, w]));
}
