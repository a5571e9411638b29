/**
 * Campaigns: the use cases behind the lists, the creation page and the editor. Routes authorize
 * first (requireUser, requirePermission); this module scopes every record again (a campaign
 * outside the user's teams is not-found), applies the domain rules and saves through the
 * repository, which audits each change and publishes to the ad server's cache in the same
 * transaction. Every use case returns a Result (app/domain/result.ts) whose failure reason is the
 * i18n key of the message; it knows nothing of HTTP (app/http/reply.server.ts answers).
 */
import { apportionCents } from "~/domain/apportion";
import { auditActor } from "~/domain/operators";
import { applyAction, availableActions, type CampaignAction } from "~/domain/campaigns/actions";
import type { CampaignHistoryAction } from "~/domain/campaigns/history-fields";
import { ACTIVATION_TITLE, activationProblems, budgetWarning, walletFields, walletSnapshot, type ActivationRefusal } from "~/domain/campaigns/activation";
import { allowedStrategies, applyMinBid, bidLimits, checkBid, coerceStrategy } from "~/domain/campaigns/bidding";
import { budgetProgress, centsToInput, completenessGaps, hasBidBelowMinimum } from "~/domain/campaigns/editor";
import { publishedCampaign } from "~/domain/campaigns/publication";
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
  type SelectedWallet,
} from "~/domain/campaigns/campaign";
import { validatePacing } from "~/domain/campaigns/pacing";
import { canPreview, capNotices, deriveLiveStatus, isComplete, walletIsUnusable, type CampaignLiveStatus } from "~/domain/campaigns/status";
import { localDay } from "~/domain/metrics/periods";
import { formatMoney } from "~/domain/money";
import {
  capsReachedOn,
  dailyCapDay,
  dimensionPacingOn,
  sameCapsReached,
  spendOfDay,
  type DimensionPacing,
} from "~/domain/wallets/settlement";
import { microsToCents } from "~/domain/metrics/metrics";
import { can, hasOperatorRights, isReviewer, isTeamManager } from "~/domain/permissions";
import { isEnabledType, needsModeration, type BidStrategy, type Placement, type RetailerSettings } from "~/domain/retailer-settings";
import { canSeeTeam } from "~/domain/teams";
import type { Team, User, Wallet } from "~/domain/types";
import type { CreateCampaignValue, UpdateBiddingValue, UpdateBudgetValue, UpdateGeneralValue } from "~/forms/campaigns/campaigns";
import { ConflictError, NotFoundError, type Patch } from "~/storage/port";
import { withValues } from "~/domain/message";
import { fail, forbidden, notFound, ok, type Failure, type Result } from "~/domain/result";
import { campaignEditRefusal, isCampaignEditable } from "~/domain/campaigns/editing";
import { getRetailerSettings, retailerTimeZone } from "~/services/retailer-settings.server";
import { getStorage } from "~/services/storage.server";
import { campaignStartedKey, hasStarted, notifyCampaign } from "~/services/notifications.server";
import { retailerSettings as walletRetailerSettings } from "~/services/wallets.server";
import { collator, dateTimeFormat } from "~/domain/intl";

// ---------------------------------------------------------------------------------------------
// Scope

/** The teams whose campaigns the user may see: undefined = all (retailers, operators). */
/** Sorts by label in the locale's order (one collator for the whole sort). */
function byLabel(locale: string | undefined): (a: { label: string }, b: { label: string }) => number {
  const compare = collator(locale).compare;
  return (a, b) => compare(a.label, b.label);
}

export function campaignTeamScope(user: User): string[] | undefined {
  return user.claims.type === "supplier" ? [...user.teamIds] : undefined;
}

export interface CampaignContext {
  campaign: Campaign;
  team: Team;
}

/** The campaign and its team, or not-found that does not reveal whether it exists. */
export async function requireCampaign(user: User, id: string | undefined): Promise<Result<CampaignContext>> {
  const campaign = id ? await getStorage().campaigns.getOne(id) : null;
  const team = campaign ? await getStorage().teams.getOne(campaign.team) : null;
  if (!campaign || !team || !canSeeTeam(user, team)) return notFound();
  return ok({ campaign, team });
}

/** The user may change this campaign's sections now (the one rule: rights and status). */
export function campaignEditable(user: User, ctx: CampaignContext): boolean {
  return isCampaignEditable(user, ctx.campaign);
}

/** Why the user may not edit this campaign's sections now (forbidden, or archived), or null. */
export function editRefusal(user: User, ctx: CampaignContext): Failure | null {
  const refusal = campaignEditRefusal(user, ctx.campaign);
  if (!refusal) return null;
  return refusal === "errors.insufficientPermissions" ? forbidden() : fail("invalid", refusal);
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
    // One campaign failing to publish must not undo the team's change or stop the others.
    try {
      const payload = publish(campaign);
      const current = await getStorage().publication.getCampaign(campaign.id);
      if (!payload && !current) continue;
      await getStorage().publication.apply(campaign.id, payload);
      changed++;
    } catch (error) {
      logFailure("Publish campaign error", campaign.id, error, { teamId: team.id, teamStatus: team.status });
    }
  }
  return changed;
}

// ---------------------------------------------------------------------------------------------
// Results

export type FieldErrors = Record<string, string[]>;
/** A section's save: the saved campaign (with warnings to show beside 'Changes Saved'), or why not. */
export type SaveResult = Result<Campaign>;

/** Refused input, reported on its fields: the first field carries the reason, the others follow. */
export function invalidFields(fieldErrors: FieldErrors, formErrors: string[] = []): SaveResult {
  const [field, messages] = Object.entries(fieldErrors)[0] ?? [];
  if (!field || !messages?.length) return fail("invalid", formErrors[0] ?? "errors.errorOccurred");
  const rest: FieldErrors = { ...fieldErrors, [field]: messages.slice(1) };
  if (!rest[field]!.length) delete rest[field];
  // The form's own messages (e.g. 'files not saved') ride along as the whole form's.
  if (formErrors.length) rest[""] = formErrors;
  return fail("invalid", messages[0]!, { field, fieldErrors: rest });
}

/** 'Publish campaign error' is for super-admins only (spec section 8); others read 'Error occurred'. */
function publishFailureMessage(user: User): string {
  return hasOperatorRights(user.claims) ? "campaigns:errors.publishError" : "errors.errorOccurred";
}

function logFailure(msg: string, campaignId: string, error: unknown, extra: Record<string, unknown> = {}) {
  console.error(JSON.stringify({ level: "error", msg, campaignId, ...extra, error: error instanceof Error ? error.message : String(error) }));
}

async function save(
  user: User,
  ctx: CampaignContext,
  patch: Patch<CampaignData>,
  version: number,
  action: CampaignHistoryAction = "update",
  warnings: string[] = [],
  options: { walletBefore?: SelectedWallet | null } = {},
): Promise<SaveResult> {
  const settings = await getRetailerSettings();
  try {
    const campaign = await getStorage().campaigns.update(ctx.campaign.id, patch, auditActor(user), {
      expectVersion: version,
      action,
      publish: publisherFor(ctx.team, settings),
      ...options,
    });
    return ok(campaign, warnings);
  } catch (error) {
    if (error instanceof ConflictError) return fail("conflict", "errors.conflict");
    if (error instanceof NotFoundError) return notFound();
    // The save and its publication are one transaction: nothing was written.
    logFailure("Campaign save failed", ctx.campaign.id, error, { action });
    return fail("invalid", publishFailureMessage(user)); // 400 as before: the user may try again
  }
}

function requireEdit(user: User, ctx: CampaignContext): SaveResult | null {
  return editRefusal(user, ctx);
}

// ---------------------------------------------------------------------------------------------
// Creation

/**
 * A new draft for the team: the user needs the create right there, the type must be enabled.
 * `quick` marks a draft of the quick builder (the spec's Campaign field `quick`).
 */
export async function createCampaign(user: User, team: Team, value: CreateCampaignValue, options: { quick?: boolean } = {}): Promise<Result<Campaign>> {
  if (!can(user, "Campaign", "create", { teamId: team.id })) return forbidden();
  const settings = await getRetailerSettings();
  if (!isEnabledType(settings, value.campaignType)) return fail("invalid", "campaigns:form.typeInvalid", { field: "campaignType" });
  const draft = newCampaignData(
    { name: value.name, startDay: value.startDay, endDay: value.endDay, campaignType: value.campaignType, team, quick: options.quick === true },
    settings,
    user.email,
    new Date(),
    retailerTimeZone(),
  );
  return ok(await getStorage().campaigns.create(draft, auditActor(user)));
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

function money(cents: number, locale: string): string {
  return formatMoney(cents, walletRetailerSettings().currency, locale);
}

export async function updateGeneral(user: User, ctx: CampaignContext, value: UpdateGeneralValue, locale = "en-GB"): Promise<SaveResult> {
  const denied = requireEdit(user, ctx);
  if (denied) return denied;
  const tz = retailerTimeZone();
  const patch: Patch<CampaignData> = {
    name: value.name,
    startDate: dayEdge(value.startDay, tz, "start"),
    endDate: value.endDay ? dayEdge(value.endDay, tz, "end") : null,
  };
  const warnings: string[] = [];
  // The history's Before of the wallet details: the campaign's wallet as it is now, not the
  // campaign's copy of it (which the settlement leaves behind).
  const current = ctx.campaign.wallet ? await getStorage().wallets.getOne(ctx.campaign.wallet) : null;
  const walletBefore = current ? walletSnapshot(current) : ctx.campaign.selectedWallet;
  if (value.wallet) {
    const wallet = value.wallet === current?.id ? current : await getStorage().wallets.getOne(value.wallet);
    // Only the campaign's team's wallets, checked here whatever the form offered.
    if (!wallet || wallet.teamId !== ctx.team.id) return fail("invalid", "campaigns:general.walletNotOfTeam", { field: "wallet" });
    Object.assign(patch, walletFields(wallet));
    if (patch.insufficient_funds) warnings.push("campaigns:general.walletUnusable");
    const over = budgetWarning(ctx.campaign, wallet);
    if (over) warnings.push(withValues("campaigns:budget.aboveBalance", { budget: money(over.budgetCents, locale), balance: money(over.balanceCents, locale) }));
  } else {
    // No wallet: the campaign cannot run (spec section 4: insufficient_funds).
    Object.assign(patch, walletFields(null));
  }
  return save(user, ctx, patch, value.version, "update", warnings, { walletBefore });
}

/**
 * Saves the Bidding form. With `raiseToMinimum` ('Apply min bid' pressed after a typed bid was
 * refused), the bids the user typed below the minimum (the bid, each placement bid) are raised to
 * it and the rest of their input is saved as typed.
 */
export async function updateBidding(
  user: User,
  ctx: CampaignContext,
  value: UpdateBiddingValue,
  locale: string,
  options: { raiseToMinimum?: boolean } = {},
): Promise<SaveResult> {
  const denied = requireEdit(user, ctx);
  if (denied) return denied;
  const settings = await getRetailerSettings();
  const type = ctx.campaign.campaignType;
  // A strategy the type (or the team's account type) does not allow becomes the first allowed one.
  const strategy = coerceStrategy(settings, type, ctx.team.account_type, value.bidStrategy);
  const limits = bidLimits(settings, type, strategy);
  const fieldErrors: FieldErrors = {};
  const check = (field: string, cents: number) => {
    const result = checkBid(cents, limits);
    if (result.ok) return;
    fieldErrors[field] = [result.limitCents === undefined ? result.reason : withValues(result.reason, { 0: money(result.limitCents, locale) })];
  };
  const raise = (cents: number) => (options.raiseToMinimum ? applyMinBid(cents, limits) : cents);
  const bid = strategy === "FIXED" ? value.bid : raise(value.bid);
  if (strategy !== "FIXED") check("bid", bid);
  const placementBids: Partial<Record<Placement, number>> = {};
  for (const p of settings.types[type].placements) {
    const typed = value[`bid_${p}`];
    if (typed !== null && typed !== undefined) {
      const cents = raise(typed);
      check(`bid_${p}`, cents);
      placementBids[p] = cents;
    }
  }
  if (Object.keys(fieldErrors).length) return invalidFields(fieldErrors);
  return save(user, ctx, { bidStrategy: strategy, bid, placementBids }, value.version, options.raiseToMinimum ? "apply-min-bid" : "update");
}

/**
 * 'Apply min bid': every stored bid below the minimum (the bid, each placement bid) is raised to
 * it. With a strategy (the one the user had chosen when the bid was refused), it is saved too and
 * its minimum applies.
 */
export async function applyMinimumBid(user: User, ctx: CampaignContext, version: number, chosenStrategy?: BidStrategy | null): Promise<SaveResult> {
  const denied = requireEdit(user, ctx);
  if (denied) return denied;
  const settings = await getRetailerSettings();
  const c = ctx.campaign;
  const strategy = coerceStrategy(settings, c.campaignType, ctx.team.account_type, chosenStrategy ?? c.bidStrategy);
  const limits = bidLimits(settings, c.campaignType, strategy);
  const placementBids = Object.fromEntries(
    Object.entries(c.placementBids ?? {})
      .filter((entry): entry is [string, number] => typeof entry[1] === "number")
      .map(([p, b]) => [p, applyMinBid(b, limits)]),
  );
  const bid = strategy === "FIXED" ? c.bid : applyMinBid(c.bid, limits);
  return save(user, ctx, { bidStrategy: strategy, bid, placementBids }, version, "apply-min-bid");
}

export async function updateBudget(user: User, ctx: CampaignContext, value: UpdateBudgetValue, locale = "en-GB"): Promise<SaveResult> {
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
    return fail("invalid", checked.reason, { field });
  }
  const p = checked.value;
  const patch: Patch<CampaignData> = { pacingTotal: p.total, pacingDaily: p.daily, pacingDevices: p.devices };
  for (const placement of PACING_PLACEMENTS) patch[PACING_FIELD[placement]] = p.placements[placement];
  const warnings: string[] = [];
  const wallet = ctx.campaign.wallet ? await getStorage().wallets.getOne(ctx.campaign.wallet) : null;
  // A daily pacing raised above today's spend lets the campaign serve again today; one lowered
  // under it stops the campaign until tomorrow (ADR 18). So does a placement's or a device's cap
  // on its placement or device.
  const today = localDay(new Date(), retailerTimeZone());
  const capDay = dailyCapDay({ todaySpend: ctx.campaign.todaySpend, pacingDaily: p.daily }, wallet, today);
  if (capDay !== (ctx.campaign.dailyCapReached ?? null)) patch.dailyCapReached = capDay;
  const placementCaps = Object.fromEntries(PACING_PLACEMENTS.map((placement) => [PACING_FIELD[placement], p.placements[placement]]));
  const caps = capsReachedOn({ ...ctx.campaign, ...placementCaps, pacingDevices: p.devices }, today);
  if (!sameCapsReached(caps, ctx.campaign.capsReached)) patch.capsReached = caps;
  const over = budgetWarning({ pacingTotal: p.total }, wallet);
  if (over) warnings.push(withValues("campaigns:budget.aboveBalance", { budget: money(over.budgetCents, locale), balance: money(over.balanceCents, locale) }));
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
// What the sections show

export interface WalletOption {
  id: string;
  label: string;
  status: Wallet["status"];
  credit: string;
  balance: string;
  /** Balance 0 or less, archived or disabled: choosing it flags insufficient_funds. */
  unusable: boolean;
}

/** A warning of the General and Budget sections: an i18n key and its values. */
export interface SectionNotice {
  key: string;
  values?: Record<string, string>;
}

/** What is missing before the campaign may be activated, and what to be warned about. */
export async function campaignReadiness(ctx: CampaignContext, locale: string, wallet?: Wallet | null) {
  const settings = await getRetailerSettings();
  const c = ctx.campaign;
  const current = wallet !== undefined ? wallet : c.wallet ? await getStorage().wallets.getOne(c.wallet) : null;
  const problems: ActivationRefusal[] = activationProblems(c, settings, { teamStatus: ctx.team.status });
  const warnings: SectionNotice[] = [];
  if (!c.wallet) warnings.push({ key: "campaignEditor:readiness.noWallet" });
  else if (walletIsUnusable(current) || c.insufficient_funds) warnings.push({ key: "campaignEditor:readiness.walletUnusable" });
  const over = budgetWarning(c, current);
  if (over) warnings.push({ key: "campaigns:budget.aboveBalance", values: { budget: money(over.budgetCents, locale), balance: money(over.balanceCents, locale) } });
  return {
    complete: isComplete(c),
    gaps: completenessGaps(c),
    /** Besides the gaps (campaigns:activation.incomplete), what blocks enabling. */
    problems: problems.filter((p) => p !== "campaigns:activation.incomplete"),
    warnings,
  };
}

/**
 * The General section's data: the form's raw values, the team's wallets, readiness. 'Ready to
 * activate?' is only asked where Activate is offered to this user (`offersActivation`).
 */
export async function generalSection(user: User, ctx: CampaignContext, locale: string) {
  const c = ctx.campaign;
  const tz = retailerTimeZone();
  const wallets = await teamWallets(ctx.team.id);
  const current = wallets.find((w) => w.id === c.wallet) ?? null;
  return {
    values: {
      version: String(c.version),
      name: c.name,
      startDay: dayOfInstant(c.startDate, tz),
      endDay: dayOfInstant(c.endDate, tz),
      wallet: c.wallet ?? "",
    },
    version: c.version,
    campaignType: c.campaignType,
    timeZone: tz,
    wallets: wallets
      .sort(byLabel(locale))
      .map(
        (w): WalletOption => ({
          id: w.id,
          label: w.label,
          status: w.status,
          credit: formatMoney(w.credit, w.currency, locale),
          balance: formatMoney(w.balance, w.currency, locale),
          unusable: walletIsUnusable(w),
        }),
      ),
    readiness: await campaignReadiness(ctx, locale, current),
    offersActivation: (await offeredActions(user, ctx)).includes("enable"),
  };
}

/** The Bidding section's data: allowed strategies with their limits, raw values, the min-bid offer. */
export async function biddingSection(ctx: CampaignContext, locale: string) {
  const settings = await getRetailerSettings();
  const c = ctx.campaign;
  const type = c.campaignType;
  const strategies = allowedStrategies(settings, type, ctx.team.account_type);
  const strategy = coerceStrategy(settings, type, ctx.team.account_type, c.bidStrategy);
  const limits = bidLimits(settings, type, strategy);
  const placements = settings.types[type].placements;
  return {
    values: {
      version: String(c.version),
      bidStrategy: strategy,
      bid: c.bid > 0 ? centsToInput(c.bid) : "",
      ...Object.fromEntries(placements.map((p) => [`bid_${p}`, centsToInput(c.placementBids?.[p])])),
    } as Record<string, string>,
    version: c.version,
    strategy,
    storedStrategy: c.bidStrategy,
    strategies: strategies.map((s) => {
      const l = bidLimits(settings, type, s);
      return { strategy: s, min: money(l.minCents, locale), max: money(l.maxCents, locale), minInput: centsToInput(l.minCents), maxInput: centsToInput(l.maxCents) };
    }),
    limits: { min: money(limits.minCents, locale), max: money(limits.maxCents, locale) },
    placements: [...placements],
    belowMinimum: hasBidBelowMinimum({ ...c, bidStrategy: strategy }, limits),
    sellerOnlyCpc: ctx.team.account_type === "marketplace_seller",
  };
}

/** The Budget section's data: raw values and the pacing view (spend to date against the budgets). */
export async function budgetSection(ctx: CampaignContext, locale: string) {
  const c = ctx.campaign;
  const total = budgetProgress(c.spend, c.pacingTotal);
  const fmt = (cents: number | null) => (cents === null ? null : money(cents, locale));
  const wallet = c.wallet ? await getStorage().wallets.getOne(c.wallet) : null;
  const now = new Date();
  const today = localDay(now, retailerTimeZone());
  const byDimension = dimensionPacingOn(c, today);
  const todayCents = spendOfDay(c.todaySpend, today);
  // Parts shown beside today's total add up to it (apportionCents), when they are all of it; a
  // part rounded on its own could make the column read a cent off the total above it.
  const dimensionRows = <K extends string>(rows: DimensionPacing<K>[]) => {
    const micros = rows.map((r) => r.spentMicros);
    const ownTotal = microsToCents(micros.reduce((s, m) => s + m, 0));
    const cents = apportionCents(micros, Math.abs(ownTotal - todayCents) <= rows.length ? todayCents : ownTotal);
    return rows.map((r, i) => ({ key: r.key, spent: money(cents[i], locale), cap: fmt(r.capCents), reached: r.reached }));
  };
  return {
    values: {
      version: String(c.version),
      pacingTotal: centsToInput(c.pacingTotal),
      pacingDaily: centsToInput(c.pacingDaily),
      ...Object.fromEntries(PACING_PLACEMENTS.map((p) => [`pacing_${p}`, centsToInput(c[PACING_FIELD[p]])])),
      ...Object.fromEntries(PACING_DEVICES.map((d) => [`device_${d}`, centsToInput(c.pacingDevices?.[d])])),
    } as Record<string, string>,
    version: c.version,
    pacing: {
      spent: money(total.spent, locale),
      total: fmt(total.budget),
      remaining: fmt(total.remaining),
      percent: total.percent,
      reached: total.reached,
      spentCents: total.spent,
      totalCents: total.budget,
      daily: fmt(c.pacingDaily),
      /** Spend settled today (the retailer's day), per placement and per device against their caps. */
      today: money(todayCents, locale),
      placements: dimensionRows(byDimension.placements),
      devices: dimensionRows(byDimension.devices),
      /** The caps that stop the campaign today, each until tomorrow. */
      caps: capNotices(c, liveStatusOf(c, wallet, now), now, retailerTimeZone()),
    },
    wallet: wallet ? { label: wallet.label, balance: formatMoney(wallet.balance, wallet.currency, locale) } : null,
    warnings: (await campaignReadiness(ctx, locale, wallet)).warnings.filter((w) => w.key === "campaigns:budget.aboveBalance"),
  };
}

// ---------------------------------------------------------------------------------------------
// Lifecycle

/** A lifecycle action's outcome: the saved campaign (null once deleted) and the toast's key. */
export interface ActionOutcome {
  campaign: Campaign | null;
  deleted: boolean;
  message: string;
}

export async function actionContext(ctx: CampaignContext, settings?: RetailerSettings) {
  const s = settings ?? (await getRetailerSettings());
  return { moderation: needsModeration(s, ctx.campaign.campaignType), complete: isComplete(ctx.campaign), settings: s };
}

/** Whether the user holds any campaign action right on the team (else every action is a 403). */
function mayActOnCampaigns(user: User, teamId: string): boolean {
  return can(user, "Campaign", "lifecycle", { teamId }) || isTeamManager(user.claims) || isReviewer(user.claims);
}

/** The actions to offer the user for this campaign (what runCampaignAction would accept). */
export async function offeredActions(user: User, ctx: CampaignContext): Promise<CampaignAction[]> {
  const { moderation } = await actionContext(ctx);
  // Enable is offered while incomplete (the refusal then says what is missing), never for a
  // withdrawn team (a suspended or archived team's campaigns cannot be enabled).
  const offered = availableActions(ctx.campaign.status, { subject: user, teamId: ctx.team.id }, { moderation, complete: true });
  return offered.filter((a) => a !== "enable" || ctx.team.status === "active");
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
): Promise<Result<ActionOutcome>> {
  if (!mayActOnCampaigns(user, ctx.team.id)) return forbidden();
  const { moderation, settings } = await actionContext(ctx);
  const campaign = ctx.campaign;
  const actor = { subject: user, teamId: ctx.team.id };
  // Completeness is checked below with every other activation rule, so the refusal lists them all.
  const result = applyAction(action, campaign.status, actor, { moderation, complete: true }, reason);
  if (!result.ok) return fail(result.reason === "errors.insufficientPermissions" ? "forbidden" : "invalid", result.reason);
  if (action === "enable") {
    const problems = activationProblems(campaign, settings, { teamStatus: ctx.team.status });
    if (problems.includes("campaigns:activation.teamInactive")) return fail("invalid", "campaigns:activation.teamInactive");
    if (problems.length) return fail("invalid", ACTIVATION_TITLE, { details: problems });
  }
  const now = new Date();
  try {
    if (action === "delete") {
      await getStorage().campaigns.delete(campaign.id, auditActor(user), now, { expectVersion: version });
      await refreshTeamCampaignCounters(ctx.team.id, campaign.id, "remove");
      return ok({ campaign: null, deleted: true, message: "campaigns:toast.deleted" });
    }
    const patch: Patch<CampaignData> = { status: result.value.status };
    if (result.value.review) {
      patch.review = { ...result.value.review, by: user.email, date: now.toISOString() };
    }
    const saved = await getStorage().campaigns.update(campaign.id, patch, auditActor(user), {
      expectVersion: version,
      action,
      publish: publisherFor(ctx.team, settings, now),
    });
    // The team's pending-review list holds the campaigns waiting for a reviewer.
    const pending = result.value.addToPendingReview
      ? "add"
      : campaign.status === "pending_review" || ctx.team.pending_review_campaigns?.includes(campaign.id)
        ? "remove"
        : "keep";
    await refreshTeamCampaignCounters(ctx.team.id, campaign.id, pending);
    // "Started" when it serves: now if its start has passed, else the hourly check tells it at its start.
    if (saved.status === "active" && campaign.status !== "active") {
      if (hasStarted(saved, now)) await notifyCampaign("campaignStarted", saved, { now, actorId: user.id, key: campaignStartedKey(saved) });
    }
    else if (saved.status === "archived" && campaign.status !== "archived") await notifyCampaign("campaignArchived", saved, { now, actorId: user.id });
    return ok({ campaign: saved, deleted: false, message: `campaigns:toast.action.${action}${result.value.addToPendingReview ? "Review" : ""}` });
  } catch (error) {
    if (error instanceof ConflictError) return fail("conflict", "errors.conflict");
    if (error instanceof NotFoundError) return notFound();
    logFailure("Campaign action failed", campaign.id, error, { action });
    return fail("invalid", ACTION_ERROR[action] ?? publishFailureMessage(user));
  }
}

/**
 * Keeps the team's derived campaign fields after a status change: its pending-review list
 * (moderation) and its count of active campaigns (the teams list's "live campaigns"), recounted
 * so it heals itself. A failure here is logged: the campaign's own change is already saved.
 */
async function refreshTeamCampaignCounters(teamId: string, campaignId: string, pending: "add" | "remove" | "keep"): Promise<void> {
  try {
    const live = (await getStorage().campaigns.listForTeam(teamId)).filter((c) => c.status === "active").length;
    const pendingReview = pending === "add" ? { add: campaignId } : pending === "remove" ? { remove: campaignId } : undefined;
    await getStorage().teams.updateCampaignCounters(teamId, { liveCampaigns: live, pendingReview });
  } catch (error) {
    logFailure("Team campaign counters not updated", campaignId, error, { teamId });
  }
}

/**
 * Duplicate: a new draft copy with the campaign's keyword, category and product-category targets
 * (bids, on/off, offers) and negative keywords, in one transaction; returns its id (no toast,
 * spec section 8).
 */
export async function duplicateCampaign(user: User, ctx: CampaignContext, copyName: string): Promise<Result<string>> {
  if (!can(user, "Campaign", "create", { teamId: ctx.team.id })) return forbidden();
  const copy = duplicateCampaignData(ctx.campaign, copyName, user.email, new Date());
  try {
    const created = await getStorage().campaigns.create(copy, auditActor(user), undefined, { targetsOf: ctx.campaign.id });
    return ok(created.id);
  } catch (error) {
    if (error instanceof NotFoundError) return notFound();
    throw error;
  }
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
    {
      status: campaign.status,
      startDate: campaign.startDate,
      endDate: campaign.endDate,
      insufficient_funds: campaign.insufficient_funds,
      spendCents: campaign.spend,
      pacingTotalCents: campaign.pacingTotal,
      dailyCapReached: campaign.dailyCapReached,
    },
    wallet,
    now,
    retailerTimeZone(),
  );
}

function formatDay(iso: string | null, ctx: CampaignViewContext): string | null {
  if (!iso) return null;
  return dateTimeFormat(ctx.locale, { dateStyle: "medium", timeZone: ctx.retailerTimeZone }).format(new Date(iso));
}

function formatInstant(iso: string | null, ctx: CampaignViewContext): string | null {
  if (!iso) return null;
  return dateTimeFormat(ctx.locale, { dateStyle: "medium", timeStyle: "short", timeZone: ctx.userTimeZone }).format(new Date(iso));
}

/** One campaign as the lists and the editor header show it. */
export function presentCampaign(campaign: Campaign, wallet: Wallet | null, ctx: CampaignViewContext) {
  const money = (cents: number | null) => (cents === null ? null : formatMoney(cents, ctx.currency, ctx.locale));
  const liveStatus = liveStatusOf(campaign, wallet, ctx.now);
  return {
    id: campaign.id,
    version: campaign.version,
    name: campaign.name,
    status: campaign.status,
    liveStatus,
    /** The caps that stop it today (daily, placement, device), each until tomorrow. */
    caps: capNotices(campaign, liveStatus, ctx.now, ctx.retailerTimeZone),
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

/** The editor's frame: the campaign as its header shows it, the actions offered, the user's rights. */
export async function campaignFrame(user: User, ctx: CampaignContext, locale: string) {
  const [wallet, settings] = await Promise.all([ctx.campaign.wallet ? getStorage().wallets.getOne(ctx.campaign.wallet) : null, getRetailerSettings()]);
  const campaign = presentCampaign(ctx.campaign, wallet, campaignViewContext(user, locale));
  return {
    campaign,
    team: { id: ctx.team.id, name: ctx.team.name, status: ctx.team.status },
    actions: await offeredActions(user, ctx),
    canEdit: campaignEditable(user, ctx),
    canDuplicate: can(user, "Campaign", "create", { teamId: ctx.team.id }),
    /** The header's 'Preview' link: the retailer enables preview and the campaign runs or is scheduled (spec section 4). */
    canPreview: canPreview(settings, campaign.liveStatus),
  };
}

/** The wallets of a page of campaigns, by id, in one read. */
export async function walletsOf(campaigns: readonly Campaign[]): Promise<Map<string, Wallet>> {
  const ids = [...new Set(campaigns.map((c) => c.wallet).filter((w): w is string => !!w))];
  const wallets = ids.length ? await getStorage().wallets.getMany(ids) : [];
  return new Map(wallets.map((w) => [w.id, w]));
}
