/**
 * Keyword and category demand and the bids it suggests (issue 10 section 1; spec section 3's
 * search hits: volume, trend, hits, floor_price, lower_bid, suggested_bid, upper_bid, and for
 * operators products_per_page, fill_rate, conversion_rate). The figures come from the ad
 * statistics of each keyword or category (the targeting variant of /metrics):
 *
 * - volume: displays over the last DEMAND_DAYS days; hits: clicks over the same days;
 * - trend: the change of displays over the last TREND_DAYS days against the TREND_DAYS before
 *   (0.25 = +25 %), null without displays before;
 * - observed CPC: cost / clicks over DEMAND_DAYS, when there were clicks;
 * - conversion rate: units sold / clicks; fill rate: the share of the page's products that an
 *   advertiser sponsors.
 *
 * Pure: days and figures are given. Money is in cents (bids, floors) or micro-units (cost).
 */
import { bidLimits } from "~/domain/campaigns/bidding";
import { categoryLineage } from "~/domain/categories";
import { MICROS_PER_CENT, type Micros } from "~/domain/metrics/metrics";
import { addDays, type Day, type Period } from "~/domain/metrics/periods";
import type { Cents } from "~/domain/money";
import type { FloorPrices, RetailerSettings } from "~/domain/retailer-settings";

export const DEMAND_DAYS = 28;
export const TREND_DAYS = 7;

/** One keyword's or category's statistics over the demand periods. */
export interface Demand {
  /** Over the last DEMAND_DAYS days. */
  displays: number;
  clicks: number;
  costMicros: Micros;
  quantity: number;
  /** Displays of the last TREND_DAYS days, and of the TREND_DAYS days before. */
  recent: number;
  previous: number;
}

export const NO_DEMAND: Demand = { displays: 0, clicks: 0, costMicros: 0, quantity: 0, recent: 0, previous: 0 };

/** The periods demand is read over, ending yesterday (today is not over yet). */
export function demandPeriods(today: Day): { volume: Period; recent: Period; previous: Period } {
  const last = addDays(today, -1);
  return {
    volume: { from: addDays(last, -(DEMAND_DAYS - 1)), to: last },
    recent: { from: addDays(last, -(TREND_DAYS - 1)), to: last },
    previous: { from: addDays(last, -(2 * TREND_DAYS - 1)), to: addDays(last, -TREND_DAYS) },
  };
}

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

export function trendOf(demand: Pick<Demand, "recent" | "previous">): number | null {
  return demand.previous > 0 ? round4((demand.recent - demand.previous) / demand.previous) : null;
}

/** Cents per click paid on average (fractional), or null without clicks. */
export function observedCpcCents(demand: Pick<Demand, "clicks" | "costMicros">): number | null {
  return demand.clicks > 0 && demand.costMicros > 0 ? demand.costMicros / demand.clicks / MICROS_PER_CENT : null;
}

export function conversionRate(demand: Pick<Demand, "clicks" | "quantity">): number | null {
  return demand.clicks > 0 ? round4(demand.quantity / demand.clicks) : null;
}

export function fillRate(sponsoredProducts: number, products: number): number | null {
  return products > 0 ? round4(Math.min(1, sponsoredProducts / products)) : null;
}

/** A target is bid on per click (CPC, sponsored products): its bid limits. */
export function targetBidLimits(settings: RetailerSettings): { minCents: Cents; maxCents: Cents } {
  return bidLimits(settings, "sponsored-products", "CPC");
}

export type FloorTarget = { kind: "keyword"; key: string } | { kind: "category"; id: string };

/**
 * The floor price of a target: its own, else (a category) its nearest ancestor's, else the CPC
 * minimum bid; null when the retailer has floor prices off.
 */
export function floorPriceOf(target: FloorTarget, floors: FloorPrices, settings: RetailerSettings): Cents | null {
  if (!settings.floorPrices) return null;
  if (target.kind === "keyword") {
    const own = floors.keywords.find((f) => f.keyword === target.key);
    if (own) return own.cents;
  } else {
    for (const id of categoryLineage(target.id)) {
      const own = floors.categories.find((f) => f.id === id);
      if (own) return own.cents;
    }
  }
  return targetBidLimits(settings).minCents;
}

export interface SuggestedBids {
  lower_bid: Cents;
  suggested_bid: Cents;
  upper_bid: Cents;
}

/** Of the observed CPC (or, without events, of the floor): the range suggested around it. */
const FROM_COST = { lower: 0.8, suggested: 1, upper: 1.25 };
const FROM_FLOOR = { lower: 1, suggested: 1.2, upper: 1.5 };

/**
 * Suggested bids: around the CPC observed on the target where events exist, else above its
 * floor; never under the floor (or the minimum bid when floors are off), within the bid limits,
 * lower <= suggested <= upper, whole cents rounded up.
 */
export function suggestBids(input: { floorCents: Cents | null; observedCpcCents: number | null; limits: { minCents: Cents; maxCents: Cents } }): SuggestedBids {
  const { limits } = input;
  const floor = Math.max(input.floorCents ?? limits.minCents, limits.minCents);
  const [base, factors] = input.observedCpcCents !== null ? [input.observedCpcCents, FROM_COST] : [floor, FROM_FLOOR];
  const bid = (factor: number) => Math.min(limits.maxCents, Math.max(floor, Math.ceil(base * factor - 1e-9)));
  const lower = bid(factors.lower);
  const suggested = Math.max(lower, bid(factors.suggested));
  return { lower_bid: lower, suggested_bid: suggested, upper_bid: Math.max(suggested, bid(factors.upper)) };
}
