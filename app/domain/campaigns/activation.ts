/**
 * What blocks enabling a campaign (spec section 5, issue 4 section 5) and the wallet rules of a
 * saved campaign (spec section 4). Pure: no I/O, no framework.
 *
 * Every refusal is shown under the title 'Incomplete Campaign' (activation.incompleteCampaign) with its own
 * message (the spec's words where it has them); each refusal is the i18n key of its message:
 * - incomplete (isComplete: name, start date, FIXED or a bid above zero);
 * - LM retailer: a banner-ads campaign with fewer than 1 sales-attribution product ('Missing
 *   Products for Sales Attribution'); a FIXED-strategy campaign without end date ('Missing End
 *   Date');
 * - 'Missing or Incomplete Ad Format': a banner-ads campaign without any counted banner, or a
 *   creative with elements switched on but missing a part they need;
 * - a campaign with an ad format (a counted banner or a creative element) and no product ('A
 *   campaign with an ad format needs at least one product.'); not repeated when the LM rule
 *   already reports the missing product;
 * - the team is suspended or archived (its campaigns are withdrawn and cannot be enabled), when
 *   the caller passes the team's status.
 *
 * Sales-attribution products are the campaign's switched-on products (productIds).
 */
import type { Cents } from "~/domain/money";
import type { Campaign, SelectedWallet } from "~/domain/campaigns/campaign";
import { countedBanners, creativeMissingParts, enabledCreativeElements } from "~/domain/campaigns/publication";
import { isComplete, walletIsUnusable, type CampaignWallet } from "~/domain/campaigns/status";
import type { RetailerSettings } from "~/domain/retailer-settings";
import type { TeamStatus, WalletData } from "~/domain/types";

/** The title every activation refusal is shown under: 'Incomplete Campaign'. */
export const ACTIVATION_TITLE = "campaigns:activation.incompleteCampaign";

/** What blocks enabling: each is the i18n key of its message (shown alike in the editor and the bulk review). */
export type ActivationRefusal =
  | "campaigns:activation.incomplete"
  | "campaigns:activation.missingSalesProducts"
  | "campaigns:activation.missingEndDate"
  | "campaigns:activation.adFormat"
  | "campaigns:activation.adFormatNeedsProduct"
  | "campaigns:activation.teamInactive";

export type ActivationInput = Pick<
  Campaign,
  | "name"
  | "startDate"
  | "endDate"
  | "bidStrategy"
  | "bid"
  | "campaignType"
  | "productIds"
  | "slots"
  | "slotsOff"
  | "placements"
  | "banners"
  | "creative"
>;

/** The refusals that block enabling, in the order they are shown; empty when it may be enabled. */
export function activationProblems(
  campaign: ActivationInput,
  settings: RetailerSettings,
  options: { teamStatus?: TeamStatus | null } = {},
): ActivationRefusal[] {
  const problems: ActivationRefusal[] = [];
  if (options.teamStatus !== undefined && options.teamStatus !== "active") problems.push("campaigns:activation.teamInactive");
  if (!isComplete(campaign)) problems.push("campaigns:activation.incomplete");

  const products = (campaign.productIds ?? []).length;
  const isBanner = campaign.campaignType === "banner-ads";
  if (settings.lmRetailer) {
    if (isBanner && products < 1) problems.push("campaigns:activation.missingSalesProducts");
    if (campaign.bidStrategy === "FIXED" && !campaign.endDate) problems.push("campaigns:activation.missingEndDate");
  }

  const banners = Object.keys(countedBanners(campaign, settings)).length;
  const creativeElements = enabledCreativeElements(campaign.creative).length;
  const bannerMissing = isBanner && banners === 0;
  const creativeIncomplete = creativeElements > 0 && creativeMissingParts(campaign.creative).length > 0;
  if (bannerMissing || creativeIncomplete) problems.push("campaigns:activation.adFormat");

  const hasAdFormat = banners > 0 || creativeElements > 0;
  if (hasAdFormat && products < 1 && !problems.includes("campaigns:activation.missingSalesProducts")) {
    problems.push("campaigns:activation.adFormatNeedsProduct");
  }
  return problems;
}

export interface BudgetWarning {
  reason: "campaigns:budget.aboveBalance";
  budgetCents: Cents;
  balanceCents: Cents;
}

/**
 * A total budget above the wallet's balance is warned about (not refused). No wallet or no total
 * budget (null, 0 or less): no warning.
 */
export function budgetWarning(
  campaign: Pick<Campaign, "pacingTotal">,
  wallet: Pick<WalletData, "balance"> | null | undefined,
): BudgetWarning | null {
  const budgetCents = campaign.pacingTotal;
  if (!wallet || budgetCents === null || budgetCents === undefined || !(budgetCents > 0)) return null;
  return budgetCents > wallet.balance ? { reason: "campaigns:budget.aboveBalance", budgetCents, balanceCents: wallet.balance } : null;
}

/**
 * The insufficient_funds flag of a campaign saved with this wallet: no wallet, a balance of 0 or
 * less, or an archived or disabled wallet (spec section 4).
 */
export function walletFlag(wallet: CampaignWallet | null | undefined): boolean {
  return walletIsUnusable(wallet);
}

/** The copy of a wallet a campaign keeps (its wallet details), or null without a wallet. */
export function walletSnapshot(wallet: Pick<WalletData, "label" | "credit" | "balance" | "status"> | null | undefined): SelectedWallet | null {
  return wallet ? { label: wallet.label, credit: wallet.credit, balance: wallet.balance, status: wallet.status } : null;
}

/** The wallet fields a campaign stores when a wallet is chosen (or cleared). */
export function walletFields(
  wallet: (Pick<WalletData, "label" | "credit" | "balance" | "status"> & { id: string }) | null,
): Pick<Campaign, "wallet" | "selectedWallet" | "insufficient_funds"> {
  if (!wallet) return { wallet: null, selectedWallet: null, insufficient_funds: walletFlag(null) };
  return {
    wallet: wallet.id,
    selectedWallet: walletSnapshot(wallet),
    insufficient_funds: walletFlag(wallet),
  };
}
