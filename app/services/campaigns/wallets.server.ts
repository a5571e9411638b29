/**
 * Keeps campaigns in step with their wallet. A campaign stores a snapshot of its wallet (label,
 * credit, balance, status) and the insufficient_funds flag of spec section 4; when the wallet
 * changes (a posting, a reversal, a status change) every campaign on it gets the new snapshot and
 * flag, so a topped-up wallet clears the flag and an emptied, archived or disabled one sets it.
 * Each campaign is saved like any edit: version-checked, audited (by 'system'), republished. Its
 * history shows the wallet details as the wallet was just before the change (the caller says
 * how it was), never the campaign's stored copy: the settlement moves the balance without
 * refreshing the copies, so a copy is usually behind the wallet.
 * The wallet's daily budget is kept in step too: a campaign stops for the day when it is reached,
 * and serves again the same day when it is raised (dailyCapReached, ADR 18).
 */
import { walletFields } from "~/domain/campaigns/activation";
import type { SelectedWallet } from "~/domain/campaigns/campaign";
import { publishedCampaign } from "~/domain/campaigns/publication";
import { localDay } from "~/domain/metrics/periods";
import { dailyCapDay } from "~/domain/wallets/settlement";
import type { Campaign } from "~/domain/campaigns/campaign";
import { ConflictError, NotFoundError, type Page } from "~/storage/port";
import { getRetailerSettings, retailerTimeZone } from "~/services/retailer-settings.server";
import { getStorage } from "~/services/storage.server";
import { notifyCampaign } from "~/services/notifications.server";

const PAGE = 200;
const ATTEMPTS = 3;

function sameSnapshot(campaign: Campaign, fields: ReturnType<typeof walletFields>): boolean {
  return (
    campaign.insufficient_funds === fields.insufficient_funds &&
    JSON.stringify(campaign.selectedWallet) === JSON.stringify(fields.selectedWallet)
  );
}

export interface RefreshOptions {
  /**
   * Only campaigns whose insufficient_funds flag changes are saved (the settlement's case: the
   * balance moves every few seconds, and the snapshot's balance is not worth a save and an audit
   * entry each time; the flag is).
   */
  flagOnly?: boolean;
  /**
   * The wallet details as they were just before the change (before a posting, or the settings
   * saved): the Before of the campaigns' history. Unknown (the settlement's case), the history
   * shows no change of the details, only of what the refresh changed besides (the flag).
   */
  walletBefore?: SelectedWallet | null;
}

async function refreshOne(campaignId: string, walletId: string, options: RefreshOptions): Promise<boolean> {
  const storage = getStorage();
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const [campaign, wallet] = await Promise.all([storage.campaigns.getOne(campaignId), storage.wallets.getOne(walletId)]);
    if (!campaign || !wallet || campaign.wallet !== walletId) return false;
    const fields = walletFields(wallet);
    // A wallet's daily budget changed: its campaigns stop, or serve again, today (ADR 18).
    const capDay = dailyCapDay(campaign, wallet, localDay(new Date(), retailerTimeZone()));
    const capChanged = !options.flagOnly && capDay !== (campaign.dailyCapReached ?? null);
    if (options.flagOnly ? campaign.insufficient_funds === fields.insufficient_funds : sameSnapshot(campaign, fields) && !capChanged) return false;
    const [team, settings] = await Promise.all([storage.teams.getOne(campaign.team), getRetailerSettings()]);
    try {
      await storage.campaigns.update(
        campaign.id,
        { selectedWallet: fields.selectedWallet, insufficient_funds: fields.insufficient_funds, ...(capChanged ? { dailyCapReached: capDay } : {}) },
        { by: "system" },
        {
          expectVersion: campaign.version,
          action: "wallet",
          walletBefore: options.walletBefore !== undefined ? options.walletBefore : fields.selectedWallet,
          publish: (next) => publishedCampaign(next, { settings, teamStatus: team?.status ?? null, timeZone: retailerTimeZone(), now: new Date() }),
        },
      );
      // A serving campaign stopped for want of funds (settlement, manual debit, wallet disabled or
      // archived): its people are told once, when the flag turns on (the key is this transition's).
      if (fields.insufficient_funds && !campaign.insufficient_funds && campaign.status === "active") {
        await notifyCampaign("insufficientFunds", campaign, { key: `insufficient-funds:${campaign.id}:${campaign.version}` });
      }
      return true;
    } catch (error) {
      if (error instanceof NotFoundError) return false;
      if (!(error instanceof ConflictError)) throw error;
      // Someone saved the campaign meanwhile: read it again and retry.
    }
  }
  return false;
}

/** Refreshes every campaign on the wallet; returns how many changed. Failures are thrown. */
export async function refreshWalletCampaignsOrThrow(walletId: string, options: RefreshOptions = {}): Promise<number> {
  let changed = 0;
  let after: string | null = null;
  do {
    const page: Page<Campaign> = await getStorage().campaigns.list({ walletId, limit: PAGE, after, sort: "created", direction: "asc" });
    for (const campaign of page.items) if (await refreshOne(campaign.id, walletId, options)) changed++;
    after = page.next;
  } while (after);
  return changed;
}

/** Refreshes every campaign on the wallet; returns how many changed. Failures are logged, not thrown. */
export async function refreshWalletCampaigns(walletId: string, options: RefreshOptions = {}): Promise<number> {
  try {
    return await refreshWalletCampaignsOrThrow(walletId, options);
  } catch (error) {
    console.error(JSON.stringify({ level: "error", msg: "Wallet campaigns not refreshed", walletId, error: String(error) }));
    return 0;
  }
}
