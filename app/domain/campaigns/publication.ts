/**
 * Publication of a campaign to the ad server's cache (spec section 4): whether a campaign is
 * served, and the copy the ad server reads (computed slots, targeting, creative, bids in cents).
 * Pure: the settings, the team's status, the retailer's time zone and `now` are passed in.
 *
 * Readings:
 * - Published only when the status is active and the campaign has a wallet and a team whose
 *   status is active: a suspended or archived team withdraws its campaigns (issue 4, section 5).
 * - Withdrawn too while it cannot serve (status.ts, servingStop): flagged insufficient_funds, its
 *   spend at its total budget, or a daily cap reached today (until the next retailer day). Dates
 *   are not checked here: the copy carries them (and the pacing) and the ad server applies them.
 * - A placement or device cap reached today (capsReached, until the next retailer day): the copy
 *   leaves that placement out (of every slot, a slot left with none dropped, its bid and banner
 *   too) and that device out of the targeted devices (then always a list: the campaign's device
 *   filter, or every device events name, less the capped ones). Left with no placement, or no
 *   device, where it had some, it is withdrawn.
 * - Slots: the campaign's slots not switched off (slotsOff) that the type's settings know, each
 *   mapped to its placements (slot-to-placement mapping) kept only where the campaign runs; a slot
 *   left with no placement is dropped. Order: the settings' order, so two publications of the
 *   same campaign are equal.
 * - Published placements: those some computed slot serves, in the settings' order of the type.
 * - Banners (banner-ads only) count when the slot is chosen (a computed slot) and both the image
 *   and the link are present (spec section 5).
 * - Creative: its elements are the parts the advertiser switched on; only those are published
 *   ("Sponsored-display elements included only if enabled", spec section 5). No element switched
 *   on, or no known element: no creative (null).
 */
import { normaliseDayparting } from "~/domain/campaigns/dayparting";
import { sortProducts } from "~/domain/availability";
import { PACING_FIELD, type Campaign, type CampaignCreative, type CampaignData, type Dayparting } from "~/domain/campaigns/campaign";
import { normaliseDevices, PACING_DEVICES, PACING_PLACEMENTS } from "~/domain/campaigns/pacing";
import { PLACEMENTS, type BidStrategy, type CampaignType, type Placement, type RetailerSettings } from "~/domain/retailer-settings";
import { capsReachedToday, servingStop } from "~/domain/campaigns/status";
import { EVENT_DEVICES } from "~/domain/metrics/metrics";
import type { Cents } from "~/domain/money";
import type { TeamStatus } from "~/domain/types";
import { NO_TARGET_COUNTS, type TargetKind } from "~/domain/campaigns/targets";

/** What the ad server reads for one campaign (spec section 4, publication). */
export interface PublishedCampaign {
  campaignId: string;
  team: string;
  wallet: string;
  campaignType: CampaignType;
  bidStrategy: BidStrategy;
  bid: Cents;
  /** Only for placements the campaign is published on. */
  placementBids: Partial<Record<Placement, Cents>>;
  /** Slot -> placements, only the slots chosen and not off. */
  slots: Record<string, Placement[]>;
  placements: Placement[];
  targeting: { devices: string[] | null; dayparting: Dayparting | null; capping: CampaignData["capping"]; timeZone: string };
  creative: PublishedCreative | null;
  banners: Record<string, { image: string; href_link: string }>;
  /** Switched-on products, by position then availability. */
  productIds: string[];
  /** Keys are the stored field names (pacingTotal, pacingDaily, pacingSearch…, pacingMobile…). */
  pacing: Record<string, Cents | null>;
  startDate: string | null;
  endDate: string | null;
  published: string;
  /**
   * Keyword, category and product-category targeting (ADR 27): per kind, how many targets the
   * campaign has and over how many published chunks (cache_campaign_target/{id}_{kind}_{i}, or
   * {id}_{kind}_{gen}_{i} when `gen` is set: ADR 50) the switched-on ones are spread. Optional for
   * copies published before targeting existed.
   */
  targets?: Record<TargetKind, PublishedTargetsOfKind>;
  /** Searches the campaign must not show on (keyword keys). */
  negativeKeywords?: string[];
}

export interface PublicationContext {
  settings: RetailerSettings;
  /** The campaign's team status; null when the team is gone. */
  teamStatus: TeamStatus | null;
  /** The retailer's time zone: dayparting hours are read in it. */
  timeZone: string;
  now: Date;
}

// ---------------------------------------------------------------------------------------------
// Creative

/**
 * The parts of a creative an advertiser switches on (CampaignCreative.elements), with the fields
 * each one needs before the campaign can be enabled and the fields it publishes.
 */
export const CREATIVE_ELEMENTS = ["brand", "background", "video", "headline", "link"] as const;
export type CreativeElement = (typeof CREATIVE_ELEMENTS)[number];

type CreativeField = Exclude<keyof CampaignCreative, "elements">;

export const CREATIVE_ELEMENT_FIELDS: Record<CreativeElement, { required: CreativeField[]; published: CreativeField[] }> = {
  brand: { required: ["brand", "brand_image"], published: ["brand", "brand_image"] },
  background: { required: ["background_image"], published: ["background_image"] },
  video: { required: ["video_file", "video_thumb"], published: ["video_file", "video_thumb", "video_in_loop", "aspect_ratio"] },
  headline: { required: ["headline"], published: ["headline"] },
  link: { required: ["text_link"], published: ["text_link"] },
};

/** Every creative with an element needs the link a click leads to. */
const CREATIVE_ALWAYS_REQUIRED: CreativeField[] = ["href_link"];
const CREATIVE_ALWAYS_PUBLISHED: CreativeField[] = ["href_link", "auto_slide"];

export type PublishedCreative = { elements: CreativeElement[] } & Partial<Omit<CampaignCreative, "elements">>;

function filled(value: unknown): boolean {
  if (typeof value === "string") return value.trim() !== "";
  return value !== null && value !== undefined;
}

/** The known elements switched on, in the canonical order. */
export function enabledCreativeElements(creative: Pick<CampaignCreative, "elements"> | null | undefined): CreativeElement[] {
  const on = new Set(creative?.elements ?? []);
  return CREATIVE_ELEMENTS.filter((e) => on.has(e));
}

/** The fields an enabled element needs and lacks; empty when complete (or without element). */
export function creativeMissingParts(creative: CampaignCreative | null | undefined): CreativeField[] {
  const elements = enabledCreativeElements(creative);
  if (!creative || elements.length === 0) return [];
  const required = new Set<CreativeField>(CREATIVE_ALWAYS_REQUIRED);
  for (const e of elements) for (const f of CREATIVE_ELEMENT_FIELDS[e].required) required.add(f);
  return [...required].filter((f) => !filled(creative[f]));
}

/** The creative as published: only the enabled elements' fields; null when none is enabled. */
export function publishedCreative(creative: CampaignCreative | null | undefined): PublishedCreative | null {
  const elements = enabledCreativeElements(creative);
  if (!creative || elements.length === 0) return null;
  const out: PublishedCreative = { elements };
  const fields = new Set<CreativeField>(CREATIVE_ALWAYS_PUBLISHED);
  for (const e of elements) for (const f of CREATIVE_ELEMENT_FIELDS[e].published) fields.add(f);
  for (const f of fields) (out as Record<string, unknown>)[f] = creative[f];
  return out;
}

// ---------------------------------------------------------------------------------------------
// Slots and banners

type SlotInput = Pick<Campaign, "campaignType" | "slots" | "slotsOff" | "placements">;

/** Chosen slot -> the placements it serves for this campaign (see the readings above). */
export function computedSlots(campaign: SlotInput, settings: RetailerSettings): Record<string, Placement[]> {
  const typeSlots = settings.types[campaign.campaignType]?.slots ?? {};
  const chosen = new Set(campaign.slots ?? []);
  const off = new Set(campaign.slotsOff ?? []);
  const placements = new Set(campaign.placements ?? []);
  const out: Record<string, Placement[]> = {};
  for (const [slot, served] of Object.entries(typeSlots)) {
    if (!chosen.has(slot) || off.has(slot)) continue;
    const kept = served.filter((p) => placements.has(p));
    if (kept.length > 0) out[slot] = [...kept];
  }
  return out;
}

/** The placements the computed slots serve, in the canonical order. */
export function publishedPlacements(slots: Record<string, Placement[]>): Placement[] {
  const served = new Set(Object.values(slots).flat());
  return PLACEMENTS.filter((p) => served.has(p));
}

/**
 * Banners that count (banner-ads only): the slot is chosen and both the image and the link are
 * present. Keyed by slot, in the settings' order.
 */
export function countedBanners(
  campaign: SlotInput & Pick<Campaign, "banners">,
  settings: RetailerSettings,
): Record<string, { image: string; href_link: string }> {
  if (campaign.campaignType !== "banner-ads") return {};
  const out: Record<string, { image: string; href_link: string }> = {};
  for (const slot of Object.keys(computedSlots(campaign, settings))) {
    const banner = campaign.banners?.[slot];
    const image = banner?.image?.trim() ?? "";
    const href = banner?.href_link?.trim() ?? "";
    if (image && href) out[slot] = { image, href_link: href };
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The publication

/** Served: active, with a wallet and a team, and the team active. */
export function isPublishable(
  campaign: Pick<Campaign, "status" | "wallet" | "team">,
  teamStatus: TeamStatus | null,
): boolean {
  return campaign.status === "active" && !!campaign.wallet && !!campaign.team && teamStatus === "active";
}

/** Switched-on products, sorted by position then availability (spec sections 4 and 9). */
export function publishedProductIds(offers: Campaign["offers"]): string[] {
  const on = Object.entries(offers ?? {})
    .filter(([, offer]) => offer.on)
    .map(([id, offer]) => ({ id, pos: offer.pos, availability: offer.availability }));
  return sortProducts(on).map((o) => o.id);
}

function cents(value: number | null | undefined): Cents | null {
  return typeof value === "number" && Number.isFinite(value) ? Math.round(value) : null;
}

const DEVICE_PACING_FIELD = {
  mobile: "pacingMobile",
  tablet: "pacingTablet",
  app: "pacingApp",
  unknown: "pacingUnknown",
} as const;

/** The campaign's budgets in cents (a value of 0 or less is no budget). */
export function publishedPacing(campaign: Campaign): Record<string, Cents | null> {
  const positive = (v: number | null | undefined) => {
    const c = cents(v);
    return c !== null && c > 0 ? c : null;
  };
  const out: Record<string, Cents | null> = {
    pacingTotal: positive(campaign.pacingTotal),
    pacingDaily: positive(campaign.pacingDaily),
  };
  for (const p of PACING_PLACEMENTS) out[PACING_FIELD[p]] = positive(campaign[PACING_FIELD[p]]);
  for (const d of PACING_DEVICES) out[DEVICE_PACING_FIELD[d]] = positive(campaign.pacingDevices?.[d]);
  return out;
}

/** An ISO instant written in UTC ("…Z"), whatever offset it was stored with; null stays null. */
export function utcInstant(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** Active, publishable, and nothing stops it from serving now (funds, total budget, daily cap). */
export function isServing(campaign: Campaign, ctx: Pick<PublicationContext, "teamStatus" | "timeZone" | "now">): boolean {
  if (!isPublishable(campaign, ctx.teamStatus)) return false;
  const stop = servingStop(
    {
      insufficient_funds: campaign.insufficient_funds,
      spendCents: campaign.spend,
      pacingTotalCents: campaign.pacingTotal,
      dailyCapReached: campaign.dailyCapReached,
    },
    ctx.now,
    ctx.timeZone,
  );
  return stop === null;
}

/**
 * The devices the copy targets: the campaign's filter (null: every device), less the devices
 * whose cap is reached today; then a list of every device events name but those.
 */
export function servedDevices(devices: Campaign["devices"], capped: readonly string[]): string[] | null {
  const filter = normaliseDevices(devices);
  if (capped.length === 0) return filter;
  const off = new Set(capped);
  return (filter ?? EVENT_DEVICES).filter((d) => !off.has(d));
}

/** The copy the ad server reads, or null when the campaign must be withdrawn. */
export function publishedCampaign(campaign: Campaign, ctx: PublicationContext): PublishedCampaign | null {
  if (!isServing(campaign, ctx)) return null;
  const capped = capsReachedToday(campaign.capsReached, ctx.now, ctx.timeZone);
  const cappedPlacements = new Set<string>(capped?.placements ?? []);
  // The placements still served today (a capped one is left out of every slot).
  const serving = cappedPlacements.size ? { ...campaign, placements: (campaign.placements ?? []).filter((p) => !cappedPlacements.has(p)) } : campaign;
  const slots = computedSlots(serving, ctx.settings);
  const placements = publishedPlacements(slots);
  const devices = servedDevices(campaign.devices, capped?.devices ?? []);
  if (cappedPlacements.size && placements.length === 0 && publishedPlacements(computedSlots(campaign, ctx.settings)).length > 0) return null;
  if (devices !== null && devices.length === 0) return null;
  const placementBids: Partial<Record<Placement, Cents>> = {};
  for (const p of placements) {
    const bid = cents(campaign.placementBids?.[p]);
    if (bid !== null && bid > 0) placementBids[p] = bid;
  }
  return {
    campaignId: campaign.id,
    team: campaign.team,
    wallet: campaign.wallet!,
    campaignType: campaign.campaignType,
    bidStrategy: campaign.bidStrategy,
    bid: cents(campaign.bid) ?? 0,
    placementBids,
    slots,
    placements,
    targeting: {
      devices,
      dayparting: normaliseDayparting(campaign.dayparting),
      capping: { ...campaign.capping },
      timeZone: ctx.timeZone,
    },
    creative: publishedCreative(campaign.creative),
    banners: countedBanners(serving, ctx.settings),
    productIds: publishedProductIds(campaign.offers),
    pacing: publishedPacing(campaign),
    startDate: utcInstant(campaign.startDate),
    endDate: utcInstant(campaign.endDate),
    published: ctx.now.toISOString(),
    targets: publishedTargets(campaign),
    negativeKeywords: [...(campaign.negativeKeywords ?? [])],
  };
}

/**
 * A kind's published targets: how many, over how many chunks, and the chunks' generation when
 * they have one (ADR 50: a large change writes a new generation and switches to it; the chunk
 * ids then read `{campaign}_{kind}_{gen}_{n}` instead of `{campaign}_{kind}_{n}`).
 */
export interface PublishedTargetsOfKind {
  count: number;
  buckets: number;
  gen?: string;
}

/** Each kind's count and published chunks (the chunks themselves are written with the targets). */
export function publishedTargets(campaign: Pick<Campaign, "counts" | "targetBuckets" | "targetGens">): Record<TargetKind, PublishedTargetsOfKind> {
  const c = { ...NO_TARGET_COUNTS, ...campaign.counts };
  const b = campaign.targetBuckets ?? {};
  const g = campaign.targetGens ?? {};
  const of = (count: number, kind: TargetKind): PublishedTargetsOfKind => ({ count, buckets: b[kind] ?? 0, ...(g[kind] ? { gen: g[kind] } : {}) });
  return {
    keyword: of(c.keywords, "keyword"),
    category: of(c.categories + c.hubs, "category"),
    productCategory: of(c.productCategories, "productCategory"),
  };
}
