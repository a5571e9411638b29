/**
 * The HTTP side shared by a campaign's Keywords and Categories sections (issue 10 §2): what their
 * loaders read first (the user, the campaign, the period), what their actions read first (the
 * campaign, or 'No fetched campaign'), and the replies of the forms both sections have (a row's
 * change, a removal, 'Apply min bid to all'), each section with its own failure titles and kinds.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { campaignCurrency } from "~/services/campaigns/statistics.server";
import { data } from "@remix-run/node";
import type { RowRefusal } from "~/components/campaigns/targets-table";
import type { TargetKind } from "~/domain/campaigns/targets";
import { CAMPAIGN_PRESETS, campaignPresetContext, periodFromSearch } from "~/domain/metrics/periods";
import type { Failure } from "~/domain/result";
import type { User } from "~/domain/types";
import { ApplyMinBidTargetsSchema, RemoveTargetsSchema, UpdateTargetSchema } from "~/forms/campaigns/keywords";
import { requireUser } from "~/http/auth.server";
import { getRequestLocale } from "~/http/i18n.server";
import { orThrow, statusOf } from "~/http/reply.server";
import { redirectWithToast } from "~/http/toast.server";
import { requireCampaign, type CampaignContext } from "~/services/campaigns/campaigns.server";
import { TARGET_FAILURE, applyMinBidToTargets, removeTargets, updateTarget, type TargetFailure } from "~/services/campaigns/keywords.server";
import { retailerTimeZone } from "~/services/retailer-settings.server";

/** A section of targets: its path under the campaign, the kinds it shows, its failure titles. */
export interface TargetsSection {
  path: "keywords" | "categories";
  kinds: TargetKind[];
  /** A row's change refused before its use case (a bad form). */
  rowTitle: string;
  /** A list's change refused before its use case. */
  listTitle: string;
}

export const KEYWORDS_SECTION: TargetsSection = { path: "keywords", kinds: ["keyword"], rowTitle: TARGET_FAILURE.keyword, listTitle: TARGET_FAILURE.keywordList };
export const CATEGORIES_SECTION: TargetsSection = { path: "categories", kinds: ["category", "productCategory"], rowTitle: TARGET_FAILURE.category, listTitle: TARGET_FAILURE.categoryList };

export type ListFailure = { form: "list"; failure: string; message: string };

/** A refusal shown above the lists. */
export function listFailure(failure: string, message = "campaignKeywords:errors.badRequest", status = 400) {
  return data({ form: "list", failure, message } satisfies ListFailure, { status });
}

/** A use case's refusal shown above the lists. */
export function refused(outcome: TargetFailure) {
  return data({ form: "list" as const, failure: outcome.failure, message: outcome.message }, { status: statusOf(outcome) });
}

/** Whether the refusal offers 'Apply min bid' (a bid under the floor). */
export function offersApplyMin(outcome: Failure): boolean {
  return (outcome.details ?? []).includes("campaignKeywords:errors.applyMinOffer");
}

/** What both loaders read first: the user, the campaign they may see, the period asked for (last 30 days by default). */
export async function targetsLoaderContext(request: Request, campaignId: string | undefined) {
  const user = await requireUser(request, "Campaign");
  const ctx = orThrow(await requireCampaign(user, campaignId));
  const search = new URL(request.url).searchParams;
  const now = new Date();
  const choice = periodFromSearch(search, { now, timeZone: retailerTimeZone(), ...campaignPresetContext(ctx.campaign) }, CAMPAIGN_PRESETS, { defaultPreset: "last30" });
  const [locale, currency] = await Promise.all([getRequestLocale(request), campaignCurrency(ctx.campaign)]);
  // The figures' money is in the campaign's wallet's currency (its bids in the retailer's).
  return { user, ctx, search, now, choice, locale, currency };
}

/**
 * What both actions read first: the user and the campaign (spec section 8: a change without a
 * loaded campaign is 'No fetched campaign'), the section's path and the locale.
 */
export async function targetsActionContext(request: Request, campaignId: string | undefined, section: TargetsSection) {
  const user = await requireUser(request, "Campaign");
  if (!campaignId) return { refusal: listFailure(TARGET_FAILURE.noFetchedCampaign, "campaigns:errors.noCampaignId") } as const;
  const ctx = orThrow(await requireCampaign(user, campaignId));
  const here = `/campaigns/${encodeURIComponent(ctx.campaign.id)}/${section.path}`;
  const locale = await getRequestLocale(request);
  return { refusal: null, user, ctx, here, locale } as const;
}

interface FormContext {
  user: User;
  ctx: CampaignContext;
  formData: FormData;
  here: string;
  locale: string;
}

/** A row's on/off, bid (and 'Apply min bid'), offers and placement; a refusal stays on its row. */
export async function updateTargetReply(section: TargetsSection, { user, ctx, formData, here, locale }: FormContext) {
  const submission = parseWithZod(formData, { schema: UpdateTargetSchema });
  // The Keywords section changes keywords only; the Categories section never does.
  const wrongKind = section === CATEGORIES_SECTION && submission.status === "success" && submission.value.kind === "keyword";
  if (submission.status !== "success" || wrongKind) {
    const key = String(formData.get("key") ?? "");
    const message = submission.status === "success" ? "campaignKeywords:errors.badRequest" : (Object.values(submission.error ?? {}).flat()[0] ?? "campaignKeywords:errors.badRequest");
    return data({ form: "row" as const, refusal: { key, failure: section.rowTitle, message, applyMin: false, values: { on: formData.get("on") === "yes", bid: String(formData.get("bid") ?? "") } } satisfies RowRefusal }, { status: 400 });
  }
  const v = submission.value;
  const kind = section === KEYWORDS_SECTION ? "keyword" : v.kind;
  const outcome = await updateTarget(
    user,
    ctx,
    // The offers are read only when the row's products were edited; a keyword has no placement.
    { version: v.version, kind, key: v.key, on: v.on, bid: v.bid, placement: kind === "keyword" ? undefined : v.placement, offers: v.editOffers ? v.offers : [], keepOffers: !v.editOffers, applyMin: v.applyMin },
    locale,
  );
  if (!outcome.ok) {
    const refusal: RowRefusal = { key: v.key, failure: outcome.failure, message: outcome.message, applyMin: offersApplyMin(outcome), values: { on: v.on, bid: String(formData.get("bid") ?? "") } };
    return data({ form: "row" as const, refusal }, { status: statusOf(outcome) });
  }
  return redirectWithToast(here, { type: "success", title: v.applyMin ? "campaignKeywords:toast.minApplied" : "campaignKeywords:toast.saved", values: { name: v.key } });
}

/** Removes one target or those selected. */
export async function removeTargetsReply(section: TargetsSection, { user, ctx, formData, here }: FormContext) {
  const submission = parseWithZod(formData, { schema: RemoveTargetsSchema });
  const wrongKind = section === CATEGORIES_SECTION && submission.status === "success" && submission.value.kind === "keyword";
  if (submission.status !== "success" || wrongKind) {
    return listFailure(section.listTitle, submission.status === "success" ? undefined : (submission.error?.keys?.[0] ?? undefined));
  }
  const kind = section === KEYWORDS_SECTION ? "keyword" : submission.value.kind;
  const outcome = await removeTargets(user, ctx, { version: submission.value.version, kind, keys: submission.value.keys });
  if (!outcome.ok) return refused(outcome);
  return redirectWithToast(here, { type: "success", title: "campaignKeywords:toast.removed", values: { count: submission.value.keys.length } });
}

/** 'Apply min bid to all': every bid of the section's kinds under its floor raised to it. */
export async function applyMinBidAllReply(section: TargetsSection, { user, ctx, formData, here }: FormContext) {
  const submission = parseWithZod(formData, { schema: ApplyMinBidTargetsSchema });
  if (submission.status !== "success") return listFailure(section.listTitle);
  const outcome = await applyMinBidToTargets(user, ctx, { version: submission.value.version, kinds: section.kinds });
  if (!outcome.ok) return refused(outcome);
  return redirectWithToast(here, { type: "success", title: "campaignKeywords:toast.minAppliedAll" });
}
