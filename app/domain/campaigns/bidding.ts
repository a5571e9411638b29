/**
 * Bidding rules: bid limits and the minimum bid, placement bids, fixed CPC. The default strategy
 * is CPC where the campaign type allows it, else FIXED where allowed, else the type's first
 * allowed strategy (banner ads: CPM). Pure: no I/O, no framework. Bids are in cents.
 */
import type { Cents } from "~/domain/money";
import {
  FALLBACK_MAX_BID_CENTS,
  FALLBACK_MIN_BID_CENTS,
  type BidLimit,
  type BidStrategy,
  type CampaignType,
  type RetailerSettings,
} from "~/domain/retailer-settings";
import type { TeamAccountType } from "~/domain/types";

/** The strategies the type allows for the team's account type, in the settings' order. */
export function allowedStrategies(
  settings: RetailerSettings,
  type: CampaignType,
  accountType?: TeamAccountType | null,
): BidStrategy[] {
  const typeSettings = settings.types[type];
  const byAccount = accountType ? typeSettings.strategiesByAccountType[accountType] : undefined;
  return [...(byAccount ?? typeSettings.strategies)];
}

/** CPC where allowed, else FIXED where allowed, else the type's first allowed strategy. */
export function defaultStrategy(
  settings: RetailerSettings,
  type: CampaignType,
  accountType?: TeamAccountType | null,
): BidStrategy {
  const allowed = allowedStrategies(settings, type, accountType);
  if (allowed.includes("CPC")) return "CPC";
  if (allowed.includes("FIXED")) return "FIXED";
  // A type with no strategy at all is a misconfiguration; CPC keeps the form usable.
  return allowed[0] ?? "CPC";
}

/** The strategy if the type allows it, otherwise the first allowed one (spec section 5). */
export function coerceStrategy(
  settings: RetailerSettings,
  type: CampaignType,
  accountType: TeamAccountType | null | undefined,
  strategy: string | null | undefined,
): BidStrategy {
  const allowed = allowedStrategies(settings, type, accountType);
  const found = allowed.find((s) => s === strategy);
  return found ?? allowed[0] ?? defaultStrategy(settings, type, accountType);
}

/**
 * The bid range of the type and strategy; without a configured limit the minimum is the
 * retailer's global minimum bid (0.15), else 0.01, and the maximum is 1000 (spec section 9).
 */
export function bidLimits(settings: RetailerSettings, type: CampaignType, strategy: BidStrategy): BidLimit {
  const limit = settings.types[type].bidLimits[strategy];
  return {
    minCents: limit?.minCents ?? settings.globalMinBidCents ?? FALLBACK_MIN_BID_CENTS,
    maxCents: limit?.maxCents ?? FALLBACK_MAX_BID_CENTS,
  };
}

export type BidRefusal = "campaigns:form.bidNotPositive" | "campaigns:bidding.minBid" | "campaigns:bidding.maxBid";
export type BidCheck =
  | { ok: true; value: Cents }
  | { ok: false; reason: BidRefusal; /** The limit broken ({0} of the message). */ limitCents?: Cents };

/** 'Minimum allowed bid: {0}' / 'Maximum allowed bid: {0}'; both ends are allowed. */
export function checkBid(bidCents: Cents, limits: BidLimit): BidCheck {
  if (!Number.isInteger(bidCents)) return { ok: false, reason: "campaigns:form.bidNotPositive" };
  if (bidCents < limits.minCents) return { ok: false, reason: "campaigns:bidding.minBid", limitCents: limits.minCents };
  if (bidCents > limits.maxCents) return { ok: false, reason: "campaigns:bidding.maxBid", limitCents: limits.maxCents };
  return { ok: true, value: bidCents };
}

/** 'Apply min bid': a bid below the minimum is raised to it; any other bid is kept. */
export function applyMinBid(bidCents: Cents, limits: BidLimit): Cents {
  return Number.isFinite(bidCents) && bidCents >= limits.minCents ? bidCents : limits.minCents;
}
