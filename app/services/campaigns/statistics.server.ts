/**
 * A campaign's statistics for a period: its totals (against the comparison period when asked),
 * its figures over time (by hour for one day, else by day), its breakdowns by device, slot,
 * placement and campaign type (spec section 2), its products (the products variant of /metrics)
 * and an hour-of-day by weekday heatmap to schedule from evidence (also on its own, for the
 * Targeting section). Read through fetchMetrics,
 * so the user's scope applies; the caller has checked the campaign is the user's to see.
 */
import { MAX_GROUP_ROWS, type MetricsRequest } from "~/domain/metrics/contract";
import { heatmapOf, type Heatmap } from "~/domain/metrics/heatmap";
import { EXPORT_WARNING_ROWS } from "~/domain/metrics/csv";
import { BREAKDOWNS, derive, type Breakdown, type Derived, type Measures } from "~/domain/metrics/metrics";
import { histogramUnit, type Period } from "~/domain/metrics/periods";
import { ok, type Result } from "~/domain/result";
import type { User } from "~/domain/types";
import type { CampaignContext } from "~/services/campaigns/campaigns.server";
import { fetchComparison, fetchMetrics } from "~/services/metrics.server";
import { getStorage } from "~/services/storage.server";
import { comparisonWalletsCurrency, singleCurrency } from "~/services/wallet-statistics.server";

/** Products listed at most (the most spent first). */
export const CAMPAIGN_PRODUCT_ROWS = 200;

export interface CampaignStatistics {
  totals: Derived;
  previousTotals: Derived | null;
  /** When the period is still under way: the instant the compared part of the previous period ends (ISO). */
  comparedUntil: string | null;
  /**
   * The comparison's money's currency (its wallets'; null when several): the campaign's own
   * unless it spent through a wallet of another currency then (it moved wallets).
   */
  previousCurrency: string | null;
  unit: "hour" | "day";
  /** Each bucket of the period that has figures: a UTC hour (ISO) or a local day. */
  overTime: { bucket: string; figures: Derived }[];
  breakdowns: Record<Breakdown, { key: string; figures: Derived }[]>;
  products: { id: string; name: string; figures: Derived }[];
  /** Products with figures, counted up to just past the export warning's threshold. */
  productCount: number;
  /** Clicks and displays per local weekday (0 = Monday) and hour: 7 rows of 24. */
  heatmap: Heatmap;
  newestEvent: string | null;
  /** The currency of its money: its wallet's (NOTES: each wallet has one), else the retailer's. */
  currency: string;
}

const TITLE = "metrics:errors.fetchCampaign";

/** The currency of a campaign's money (spend, sales): its wallet's (NOTES: each wallet has one), else the retailer's. */
export async function campaignCurrency(campaign: Pick<CampaignContext["campaign"], "wallet">): Promise<string> {
  const wallet = campaign.wallet ? await getStorage().wallets.getOne(campaign.wallet) : null;
  return wallet?.currency ?? singleCurrency([])!;
}

function heatmapRequest(ctx: CampaignContext, period: Period): MetricsRequest {
  return { dateFrom: period.from, dateTo: period.to, filters: { terms: { campaign: [ctx.campaign.id] } }, histogram: "weekdayHour" };
}

/**
 * The campaign's heatmap of a period alone (the Targeting section, beside the dayparting grid),
 * with the time of the newest event.
 */
export async function campaignHeatmap(user: User, ctx: CampaignContext, period: Period): Promise<Result<{ heatmap: Heatmap; newestEvent: string | null }>> {
  const heat = await fetchMetrics(user, heatmapRequest(ctx, period), TITLE);
  if (!heat.ok) return heat;
  return ok({ heatmap: heatmapOf(heat.value.histogram ?? []), newestEvent: heat.value.newestEvent });
}

export async function campaignStatistics(
  user: User,
  ctx: CampaignContext,
  input: { period: Period; previous: Period | null; productRows?: number },
): Promise<Result<CampaignStatistics>> {
  const filters = { terms: { campaign: [ctx.campaign.id] } };
  const range = { dateFrom: input.period.from, dateTo: input.period.to };
  const unit = histogramUnit(input.period);
  const shown = input.productRows ?? CAMPAIGN_PRODUCT_ROWS;
  // Asked for past the export warning's threshold, so the page knows when to warn.
  const asked = Math.min(MAX_GROUP_ROWS, Math.max(shown, EXPORT_WARNING_ROWS + 1));
  const [main, products, heat, previous] = await Promise.all([
    fetchMetrics(user, { ...range, filters, histogram: unit, groups: { terms: [...BREAKDOWNS] } }, TITLE),
    fetchMetrics(user, { ...range, filters, groups: { terms: ["product"], size: asked } }, TITLE),
    fetchMetrics(user, heatmapRequest(ctx, input.period), TITLE),
    // A period still under way is compared with the same elapsed part of the previous one.
    input.previous ? fetchComparison(user, { filters }, input.period, TITLE, undefined, { wallets: true }) : Promise.resolve(null),
  ]);
  for (const result of [main, products, heat, previous]) if (result && !result.ok) return result;
  if (!main.ok || !products.ok || !heat.ok) throw new Error("unreachable");
  const breakdowns = {} as CampaignStatistics["breakdowns"];
  for (const term of BREAKDOWNS) {
    breakdowns[term] = (main.value[term] ?? []).map((row) => ({ key: row.key, figures: derive(row) }));
  }
  const allProducts = products.value.product ?? [];
  const productRows = allProducts.slice(0, shown);
  const [catalogRows, currency] = await Promise.all([
    getStorage().catalog.getMany(productRows.map((row) => row.key)),
    campaignCurrency(ctx.campaign),
  ]);
  const catalog = new Map(catalogRows.map((p) => [p.id, p.title]));
  const previousCurrency = previous && previous.ok ? await comparisonWalletsCurrency(previous.value.wallets, currency) : currency;
  return ok({
    totals: derive(main.value.summary),
    previousTotals: previous && previous.ok ? derive(previous.value.summary) : null,
    comparedUntil: previous && previous.ok ? previous.value.until : null,
    previousCurrency,
    unit,
    overTime: (main.value.histogram ?? []).map((row) => ({ bucket: row.bucket, figures: derive(row as Measures) })),
    breakdowns,
    products: productRows.map((row) => ({ id: row.key, name: catalog.get(row.key) ?? row.key, figures: derive(row) })),
    productCount: allProducts.length,
    heatmap: heatmapOf(heat.value.histogram ?? []),
    newestEvent: main.value.newestEvent,
    // Events cost in the wallet's currency (the dashboard's row of this campaign says so too).
    currency,
  });
}
