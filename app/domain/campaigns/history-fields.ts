/**
 * What a campaign's history can record: every action an entry may carry and every field (and key
 * of a record field) a change may name, so each has a label in every language
 * (tests/unit/campaign-history-labels.test.ts) and none reaches a reader as a code.
 *
 * The lists are typed against the campaign's own shape: a new field of CampaignData, or a new
 * action given to the storage, does not compile until it is listed here.
 */
import type { CampaignCreative, CampaignData, CampaignReview, SelectedWallet, WeekDay } from "~/domain/campaigns/campaign";
import { CAMPAIGN_ACTIONS } from "~/domain/campaigns/actions";
import type { TargetCounts, TargetKind } from "~/domain/campaigns/targets";

/** Derived keys, storage details and what the settlement keeps: never history. */
export const UNAUDITED_CAMPAIGN_FIELDS = [
  "updated",
  "targetBuckets",
  "targetGens",
  "nameLower",
  "searchTokens",
  "by",
  "endSort",
  "spendRevision",
  "todaySpend",
  "dailyCapReached",
  "todaySpendMicros",
  "capsReached",
] as const;
type Unaudited = (typeof UNAUDITED_CAMPAIGN_FIELDS)[number];

/** The fields the targets' changes are recorded under, per kind. */
export const TARGET_AUDIT_FIELD = { keyword: "tKeywords", category: "tCategories", productCategory: "tProductCategories" } as const satisfies Record<TargetKind, string>;
export type TargetAuditField = (typeof TARGET_AUDIT_FIELD)[TargetKind];

/** Every field of a campaign a change may name (the stored fields, the targets, the deleted mark). */
const FIELDS = {
  name: true,
  status: true,
  campaignType: true,
  team: true,
  teamInfo: true,
  wallet: true,
  selectedWallet: true,
  insufficient_funds: true,
  spend: true,
  devices: true,
  placements: true,
  slots: true,
  slotsOff: true,
  bidStrategy: true,
  bid: true,
  placementBids: true,
  capping: true,
  offers: true,
  productIds: true,
  banners: true,
  creative: true,
  lastUploadedVideo: true,
  startDate: true,
  endDate: true,
  created: true,
  pacingTotal: true,
  pacingDaily: true,
  pacingSearch: true,
  pacingPlp: true,
  pacingHub: true,
  pacingPdp: true,
  pacingHome: true,
  pacingDevices: true,
  review: true,
  dayparting: true,
  sourceId: true,
  quick: true,
  atmSkus: true,
  counts: true,
  negativeKeywords: true,
  autoTargeting: true,
  auto: true,
  tKeywords: true,
  tCategories: true,
  tProductCategories: true,
} as const satisfies Record<Exclude<keyof CampaignData, Unaudited> | TargetAuditField, true>;
export type CampaignHistoryField = keyof typeof FIELDS;
export const CAMPAIGN_HISTORY_FIELDS = Object.keys(FIELDS) as CampaignHistoryField[];

/**
 * The keys inside a record field that are named by a label of their own (history.nested.<field>.<key>).
 * Records keyed by something else are named otherwise: bids per placement and banners per slot by
 * the placement's or slot's label, budgets per device by the device, products by their title.
 */
const NESTED = {
  capping: { enabled: true, type: true, max: true },
  teamInfo: { name: true, account_type: true },
  selectedWallet: { label: true, credit: true, balance: true, status: true },
  creative: {
    elements: true,
    brand: true,
    brand_image: true,
    background_image: true,
    video_file: true,
    video_thumb: true,
    video_in_loop: true,
    auto_slide: true,
    aspect_ratio: true,
    headline: true,
    text_link: true,
    href_link: true,
  } satisfies Record<keyof CampaignCreative, true>,
  review: { approved: true, rejectionReason: true, by: true, date: true } satisfies Record<keyof CampaignReview, true>,
  dayparting: { mon: true, tue: true, wed: true, thu: true, fri: true, sat: true, sun: true } satisfies Record<WeekDay, true>,
  auto: { created: true, updated: true, refreshed: true } satisfies Record<keyof NonNullable<CampaignData["auto"]>, true>,
  counts: { keywords: true, categories: true, hubs: true, productCategories: true } satisfies Record<keyof TargetCounts, true>,
  banners: { image: true, href_link: true },
} as const satisfies { selectedWallet: Record<keyof SelectedWallet, true>; capping: Record<keyof CampaignData["capping"], true> } & Partial<Record<CampaignHistoryField, Record<string, true>>>;
export const CAMPAIGN_HISTORY_NESTED: ReadonlyMap<string, readonly string[]> = new Map(Object.entries(NESTED).map(([field, keys]) => [field, Object.keys(keys)]));

/** Money in a campaign's changes: these fields hold cents, shown in the retailer's currency. */
export const CENT_FIELDS: ReadonlySet<string> = new Set([
  "bid",
  "spend",
  "pacingTotal",
  "pacingDaily",
  "pacingSearch",
  "pacingPlp",
  "pacingHub",
  "pacingPdp",
  "pacingHome",
]);
/** Fields holding a record with cents: every key (null), or only the listed ones (a wallet snapshot's amounts). */
export const CENT_RECORD_FIELDS: ReadonlyMap<string, ReadonlySet<string> | null> = new Map([
  ["placementBids", null],
  ["pacingDevices", null],
  ["selectedWallet", new Set(["credit", "balance", "debit"])],
]);

/** Whether `key` of the record stored under `field` holds cents. */
export function isCentsInRecord(field: string, key: string): boolean {
  if (!CENT_RECORD_FIELDS.has(field)) return false;
  const keys = CENT_RECORD_FIELDS.get(field);
  return !keys || keys.has(key);
}

/** Every action an entry of a campaign's history may carry. */
export const CAMPAIGN_HISTORY_ACTIONS = ["create", "update", ...CAMPAIGN_ACTIONS, "wallet", "apply-min-bid", "auto-targeting"] as const;
export type CampaignHistoryAction = (typeof CAMPAIGN_HISTORY_ACTIONS)[number];

/**
 * A change of targets as recorded: the targets changed (at most TARGET_AUDIT_LIMIT named) as they
 * were before, or after, the change; null when none of them existed on that side. Older entries
 * hold a text instead, shown as is.
 */
export interface TargetAuditValue {
  targets: { key: string; name: string; on: boolean; bid: number | null; offers: string[] | null }[];
  /** Changed targets on this side beyond those named. */
  more: number;
}
export const TARGET_AUDIT_LIMIT = 20;

export function isTargetAuditValue(value: unknown): value is TargetAuditValue {
  return !!value && typeof value === "object" && Array.isArray((value as TargetAuditValue).targets) && typeof (value as TargetAuditValue).more === "number";
}
