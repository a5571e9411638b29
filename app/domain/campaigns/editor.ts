/**
 * Small pure rules of the campaign editor's sections (issue 4, section 4): what a campaign still
 * lacks to be complete, whether its bids sit below the minimum (the 'Apply min bid' offer), how
 * stored cents go back into a form field, and the pacing view's progress. No I/O, no framework.
 */
import type { Cents } from "~/domain/money";
import type { Campaign } from "~/domain/campaigns/campaign";
import type { BidLimit } from "~/domain/retailer-settings";

/** The parts of isComplete (spec section 4) a campaign lacks, in the order the form shows them. */
export type CompletenessGap = "name" | "startDate" | "bid";

export function completenessGaps(campaign: Pick<Campaign, "name" | "startDate" | "bidStrategy" | "bid">): CompletenessGap[] {
  const gaps: CompletenessGap[] = [];
  if (!campaign.name || campaign.name.trim() === "") gaps.push("name");
  if (!campaign.startDate) gaps.push("startDate");
  if (campaign.bidStrategy !== "FIXED" && !(typeof campaign.bid === "number" && campaign.bid > 0)) gaps.push("bid");
  return gaps;
}

/**
 * Whether 'Apply min bid' would change something: the bid (unless the strategy is FIXED, which has
 * no bid to check) or a placement bid below the minimum.
 */
export function hasBidBelowMinimum(
  campaign: Pick<Campaign, "bidStrategy" | "bid" | "placementBids">,
  limits: BidLimit,
): boolean {
  if (campaign.bidStrategy !== "FIXED" && campaign.bid < limits.minCents) return true;
  return Object.values(campaign.placementBids ?? {}).some((b) => typeof b === "number" && b < limits.minCents);
}

/** Cents as a form field's value in currency units ("12.50"); "" for none. */
export function centsToInput(cents: Cents | null | undefined): string {
  if (typeof cents !== "number" || !Number.isFinite(cents)) return "";
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.round(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

export interface BudgetProgress {
  /** Spent so far. */
  spent: Cents;
  /** The budget, or null when there is none. */
  budget: Cents | null;
  /** Left (never below 0), or null without a budget. */
  remaining: Cents | null;
  /** Whole percent of the budget spent (may pass 100), or null without a budget. */
  percent: number | null;
  /** The budget has been reached (the live status turns out_of_budget when active). */
  reached: boolean;
}

/** Spend to date against a budget (a budget of 0 or less is no budget). */
export function budgetProgress(spentCents: Cents, budgetCents: Cents | null | undefined): BudgetProgress {
  const spent = Math.max(0, Math.round(spentCents || 0));
  const budget = typeof budgetCents === "number" && budgetCents > 0 ? budgetCents : null;
  if (budget === null) return { spent, budget: null, remaining: null, percent: null, reached: false };
  return {
    spent,
    budget,
    remaining: Math.max(0, budget - spent),
    percent: Math.floor((spent * 100) / budget),
    reached: spent >= budget,
  };
}
