/**
 * The campaign aggregate of spec section 3, as stored, and the pure helpers that build it.
 * No I/O, no framework: `now` and the settings are passed in.
 *
 * Money: `bid`, `placementBids`, `spend`, `todaySpend`, every pacing value and the selected
 * wallet's balance and credit are integer cents, typed `Cents` (ADR 11: the spec's pacing fields
 * hold cents here, so the out-of-budget test compares cents with cents); the fields keep the
 * spec's names.
 * Times: ISO instants (UTC) at the boundary; `startDate` is 00:00 and `endDate` 23:59:59.999 of
 * their day in the retailer's time zone.
 */
import { TZDate } from "@date-fns/tz";
import { defaultStrategy } from "~/domain/campaigns/bidding";
import { PACING_DEVICES, PACING_PLACEMENTS, TARGET_DEVICES, type PacingDevice, type PacingPlacement, type TargetDevice } from "~/domain/campaigns/pacing";
import type { CampaignStatus } from "~/domain/campaigns/status";
import type { Party } from "~/domain/availability";
import type { Cents } from "~/domain/money";
import { DEFAULT_CAMPAIGN_TYPE, type BidStrategy, type CampaignType, type Placement, type RetailerSettings } from "~/domain/retailer-settings";
import { foldText, searchTokens } from "~/domain/search";
import type { DocMeta, TeamAccountType, WalletStatus } from "~/domain/types";
import type { TargetCounts, TargetKind } from "~/domain/campaigns/targets";
import type { CapsReached, DayDimensionSpend } from "~/domain/wallets/settlement";

export const CAPPING_TYPES = ["views", "displays", "clicks"] as const;
export type CappingType = (typeof CAPPING_TYPES)[number];
export const DEFAULT_CAPPING = { enabled: true, type: "views" as CappingType, max: 5 };

export const ASPECT_RATIOS = ["16:9", "9:16"] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

/** Days of the dayparting grid, Monday first (ISO weekday 1..7). */
export const WEEK_DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];
/** Hours (0..23, retailer's time zone) the campaign runs on each day; null = every hour of every day. */
export type Dayparting = Record<WeekDay, number[]>;

export interface CampaignOffer {
  on: boolean;
  availability: string;
  title: string;
  image_link: string;
  /** Position chosen by the user (1, 2, 3…), or null. */
  pos: number | null;
  party: Party | null;
}

export interface CampaignBanner {
  /** Path in the files store, or null. */
  image: string | null;
  href_link: string;
}

export interface CampaignCreative {
  elements: string[];
  brand: string;
  brand_image: string | null;
  background_image: string | null;
  video_file: string | null;
  video_thumb: string | null;
  video_in_loop: boolean;
  auto_slide: boolean;
  aspect_ratio: AspectRatio;
  headline: string;
  text_link: string;
  href_link: string;
}

export interface CampaignReview {
  approved: boolean;
  rejectionReason: string | null;
  by: string;
  date: string;
}

/** The chosen wallet as the campaign keeps a copy of it. */
export interface SelectedWallet {
  label: string;
  credit: Cents;
  balance: Cents;
  status: WalletStatus;
}

export interface CampaignData {
  name: string;
  /** Folded name: the sort key. */
  nameLower: string;
  /** Word prefixes of the name, for search (array-contains). */
  searchTokens: string[];
  status: CampaignStatus;
  campaignType: CampaignType;
  /** The team (advertiser) id. */
  team: string;
  teamInfo: { name: string; account_type: TeamAccountType };
  /** The wallet id, or null. */
  wallet: string | null;
  selectedWallet: SelectedWallet | null;
  insufficient_funds: boolean;
  /** Spent so far (settled from the ad server's events). */
  spend: Cents;
  /** Settled on the retailer's current day (absent before the first settlement). */
  todaySpend?: { day: string; amount: Cents };
  /**
   * The retailer day (yyyy-mm-dd) a daily cap was reached on: the campaign's daily pacing or its
   * wallet's daily budget. It stops serving until the next day (absent or null: not reached).
   */
  dailyCapReached?: string | null;
  /**
   * Micros settled on the retailer's current day per placement and per device (absent before the
   * first settlement), which the placement and device caps are checked against.
   */
  todaySpendMicros?: DayDimensionSpend;
  /**
   * The placement and device caps reached on a retailer day: the campaign is not served on those
   * placements and devices until the next day (absent or null: none reached).
   */
  capsReached?: CapsReached | null;
  /** Targeted devices when some but not all 4 are chosen; null = all. */
  devices: TargetDevice[] | null;
  placements: Placement[];
  slots: string[];
  slotsOff: string[];
  bidStrategy: BidStrategy;
  bid: Cents;
  /** Per placement; a missing placement uses `bid`. */
  placementBids: Partial<Record<Placement, Cents>>;
  capping: { enabled: boolean; type: CappingType; max: number };
  /** Keyed by product id. */
  offers: Record<string, CampaignOffer>;
  /** Offers not switched off, in display order. */
  productIds: string[];
  banners: Record<string, CampaignBanner>;
  creative: CampaignCreative;
  lastUploadedVideo: string | null;
  startDate: string | null;
  endDate: string | null;
  created: string;
  updated: string;
  /** E-mail of the last editor, else 'system'. */
  by: string;
  /** The total budget, or null for none. */
  pacingTotal: Cents | null;
  /** The daily budget, or null for none. */
  pacingDaily: Cents | null;
  /** The budgets per placement and per device (spec section 5), or null. */
  pacingSearch: Cents | null;
  pacingPlp: Cents | null;
  pacingHub: Cents | null;
  pacingPdp: Cents | null;
  pacingHome: Cents | null;
  pacingDevices: Record<PacingDevice, Cents | null>;
  review: CampaignReview | null;
  dayparting: Dayparting | null;
  /** The campaign this one was duplicated from. */
  sourceId: string | null;
  quick: boolean;
  /** The spec's `atmSkus` (section 3): a list of SKUs with no behaviour yet; absent reads as none (kept by a duplicate). */
  atmSkus?: string[];
  /**
   * Keyword and category targeting (ADR 27): the targets live in chunk documents beside the
   * campaign (100,000 keywords do not fit Firestore's 1 MiB document); the campaign keeps their
   * counts (spec section 3), how many chunks each kind is spread over, and its negative keywords.
   * Absent on campaigns that never had targets.
   */
  counts?: TargetCounts;
  targetBuckets?: Partial<Record<TargetKind, number>>;
  /**
   * The generation of each kind's chunks and view pages, part of their ids (ADR 50): a change too
   * large for one Firestore commit writes a new generation beside the current one, then switches
   * this pointer in a small transaction. Absent: the first ids (`{campaign}_{kind}_{n}`).
   */
  targetGens?: Partial<Record<TargetKind, string>>;
  /** Searches the campaign must not show on (keyword keys). */
  negativeKeywords?: string[];
  /** Auto targeting on (targets follow the campaign's products), and when it last acted. */
  autoTargeting?: boolean;
  auto?: { created: string | null; updated: string | null; refreshed: string | null };
}
export type Campaign = CampaignData & DocMeta;

export interface DeletedCampaignData extends CampaignData {
  deleted_by: string;
  deleted: string;
}

/** The pacing field of each placement. */
export const PACING_FIELD: Record<PacingPlacement, "pacingSearch" | "pacingPlp" | "pacingHub" | "pacingPdp" | "pacingHome"> = {
  search: "pacingSearch",
  plp: "pacingPlp",
  hub: "pacingHub",
  pdp: "pacingPdp",
  home: "pacingHome",
};

export function emptyCreative(): CampaignCreative {
  return {
    elements: [],
    brand: "",
    brand_image: null,
    background_image: null,
    video_file: null,
    video_thumb: null,
    video_in_loop: false,
    auto_slide: false,
    aspect_ratio: "16:9",
    headline: "",
    text_link: "",
    href_link: "",
  };
}

/** Derived search and sort keys of a name. */
export function nameKeys(name: string): Pick<CampaignData, "nameLower" | "searchTokens"> {
  return { nameLower: foldText(name), searchTokens: searchTokens(name) };
}

/** 00:00 today in the time zone, as an ISO instant (the default start date). */
export function todayMidnight(now: Date, timeZone: string): string {
  const local = new TZDate(now.getTime(), timeZone);
  return new Date(new TZDate(local.getFullYear(), local.getMonth(), local.getDate(), 0, 0, 0, 0, timeZone).getTime()).toISOString();
}

/** The instant a day (yyyy-mm-dd) starts, or ends (23:59:59.999), in the time zone. */
export function dayEdge(day: string, timeZone: string, edge: "start" | "end"): string {
  const [y, m, d] = day.split("-").map(Number);
  const local =
    edge === "start" ? new TZDate(y!, m! - 1, d!, 0, 0, 0, 0, timeZone) : new TZDate(y!, m! - 1, d!, 23, 59, 59, 999, timeZone);
  // TZDate's toISOString keeps the zone's offset: store UTC ("…Z") so instants sort as text.
  return new Date(local.getTime()).toISOString();
}

/** The day (yyyy-mm-dd) of an instant in the time zone, for date inputs. */
export function dayOfInstant(iso: string | null, timeZone: string): string {
  if (!iso) return "";
  const local = new TZDate(new Date(iso).getTime(), timeZone);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}`;
}

export interface NewCampaignInput {
  name: string;
  /** yyyy-mm-dd in the retailer's time zone; today when missing. */
  startDay?: string | null;
  endDay?: string | null;
  campaignType?: CampaignType;
  team: { id: string; name: string; account_type: TeamAccountType };
  /** Made by the quick campaign builder (default false: the creation form's). */
  quick?: boolean;
}

/** A new campaign with the defaults of spec section 9 (type, strategy, devices, capping): always a draft. */
export function newCampaignData(
  input: NewCampaignInput,
  settings: RetailerSettings,
  by: string,
  now: Date,
  timeZone: string,
): CampaignData {
  const type = input.campaignType ?? DEFAULT_CAMPAIGN_TYPE;
  const typeSettings = settings.types[type];
  const iso = now.toISOString();
  return {
    name: input.name.trim(),
    ...nameKeys(input.name),
    status: "draft",
    campaignType: type,
    team: input.team.id,
    teamInfo: { name: input.team.name, account_type: input.team.account_type },
    wallet: null,
    selectedWallet: null,
    insufficient_funds: false,
    spend: 0,
    devices: null,
    placements: [...typeSettings.placements],
    slots: Object.keys(typeSettings.slots),
    slotsOff: [],
    bidStrategy: defaultStrategy(settings, type, input.team.account_type),
    bid: 0,
    placementBids: {},
    capping: { ...DEFAULT_CAPPING },
    offers: {},
    productIds: [],
    banners: {},
    creative: emptyCreative(),
    lastUploadedVideo: null,
    startDate: input.startDay ? dayEdge(input.startDay, timeZone, "start") : todayMidnight(now, timeZone),
    endDate: input.endDay ? dayEdge(input.endDay, timeZone, "end") : null,
    created: iso,
    updated: iso,
    by,
    pacingTotal: null,
    pacingDaily: null,
    pacingSearch: null,
    pacingPlp: null,
    pacingHub: null,
    pacingPdp: null,
    pacingHome: null,
    pacingDevices: Object.fromEntries(PACING_DEVICES.map((d) => [d, null])) as Record<PacingDevice, Cents | null>,
    review: null,
    dayparting: null,
    sourceId: null,
    quick: input.quick === true,
  };
}

/** A draft copy of a campaign (duplicate): same settings, no spend, no review, new name. */
export function duplicateCampaignData(source: Campaign, copyName: string, by: string, now: Date): CampaignData {
  // The copy has spent nothing: no spend of the day, no daily cap reached.
  const {
    id,
    version,
    todaySpend: _todaySpend,
    dailyCapReached: _dailyCapReached,
    todaySpendMicros: _todaySpendMicros,
    capsReached: _capsReached,
    // Targets live in their campaign's chunks: the storage copies them, with these (ADR 33).
    counts: _counts,
    targetBuckets: _targetBuckets,
    targetGens: _targetGens,
    ...data
  } = source;
  const iso = now.toISOString();
  return {
    ...structuredClone(data),
    name: copyName,
    ...nameKeys(copyName),
    status: "draft",
    spend: 0,
    insufficient_funds: data.insufficient_funds,
    review: null,
    created: iso,
    updated: iso,
    by,
    sourceId: id,
  };
}

export { PACING_PLACEMENTS, PACING_DEVICES, TARGET_DEVICES };
