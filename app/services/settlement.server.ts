/**
 * Spend out (ADR 18): the ad spend counted from events is settled into the wallets' ledger in
 * batches, never one debit per event, and the spec's rules follow: a wallet at 0 or below flags
 * its campaigns insufficient_funds, a campaign at its total budget is out of budget, and a daily
 * cap reached (the campaign's daily pacing, the wallet's daily budget) stops serving until the
 * next day of the retailer's time zone, and so does a placement's or a device's cap on that
 * placement or device. Campaigns that cannot serve are withdrawn from the ad server's cache, and
 * a campaign capped on a placement or device is republished without it.
 *
 * `settleSpend(now)` is one run; the scheduler (ADR 21, started at boot) runs it every
 * SETTLEMENT_INTERVAL_SECONDS as the job `settlement`. Several processes may run it at once: every step is a
 * transaction or idempotent, so a wallet is settled once per settlement number whoever runs it.
 */
import type { Campaign } from "~/domain/campaigns/campaign";
import { publishedCampaign } from "~/domain/campaigns/publication";
import { localDay } from "~/domain/metrics/periods";
import { ok, type Result } from "~/domain/result";
import type { RetailerSettings } from "~/domain/retailer-settings";
import type { Page, SpendAccrual, SpendFollowUp } from "~/storage/port";
import { refreshWalletCampaignsOrThrow } from "~/services/campaigns/wallets.server";
import { getRetailerSettings, retailerTimeZone } from "~/services/retailer-settings.server";
import { getStorage } from "~/services/storage.server";
import type { Cents } from "~/domain/money";
import type { JobKind } from "~/services/scheduler.server";

/** Batches are kept this long for idempotency: past it, their events would be refused anyway. */
export const BATCH_RETENTION_MS = 8 * 24 * 60 * 60 * 1000;
const PAGE = 100;
/** Wallets settled per run at most (the rest wait for the next run). */
const MAX_WALLETS_PER_RUN = 2_000;

export interface SettlementRun {
  /** Wallets settled, and the cents debited from them in all. */
  settled: number;
  debitedCents: Cents;
  /** Follow-ups done (after this run's settlements, or left by an earlier run). */
  followUps: number;
  /** Campaigns serving again after a daily, placement or device cap of an earlier day. */
  reopened: number;
  /** Steps that failed (logged; they are tried again on the next run). */
  failures: number;
}

function logFailure(msg: string, extra: Record<string, unknown>, error: unknown) {
  console.error(JSON.stringify({ level: "error", msg, ...extra, error: error instanceof Error ? error.message : String(error) }));
}

/** Publishes a campaign as its current state says (team status and settings read now). */
function publisher(settings: RetailerSettings, teamStatus: Parameters<typeof publishedCampaign>[1]["teamStatus"], now: Date) {
  return (campaign: Campaign) => publishedCampaign(campaign, { settings, teamStatus, timeZone: retailerTimeZone(), now });
}

async function teamStatusOf(teamId: string) {
  return (await getStorage().teams.getOne(teamId))?.status ?? null;
}

/** Every page of a listing, following the cursor (bounded). */
async function eachPage<T>(list: (after: string | null) => Promise<Page<T>>, max: number, fn: (item: T) => Promise<void>): Promise<void> {
  let after: string | null = null;
  let seen = 0;
  do {
    const page: Page<T> = await list(after);
    for (const item of page.items) {
      if (seen++ >= max) return;
      await fn(item);
    }
    after = page.next;
  } while (after);
}

/**
 * What a settlement leaves for after its transaction, each step idempotent: withdraw campaigns
 * that stopped serving, flag the wallet's campaigns when its funds ran out, stop them for the
 * day when its daily budget was reached; then mark the follow-up done.
 */
async function runFollowUp(walletId: string, followUp: SpendFollowUp, now: Date): Promise<void> {
  const storage = getStorage();
  const settings = await getRetailerSettings();
  for (const campaignId of followUp.campaigns) {
    const campaign = await storage.campaigns.getOne(campaignId);
    if (!campaign) continue;
    await storage.spend.republish(campaignId, publisher(settings, await teamStatusOf(campaign.team), now));
  }
  if (followUp.walletFunds) await refreshWalletCampaignsOrThrow(walletId, { flagOnly: true });
  const day = followUp.walletCapDay;
  if (day && day === localDay(now, retailerTimeZone())) {
    await eachPage(
      (after) => storage.campaigns.list({ walletId, limit: PAGE, after, sort: "created", direction: "asc" }),
      Number.MAX_SAFE_INTEGER,
      async (campaign) => void (await storage.spend.stopForToday(campaign.id, day)),
    );
  }
  await storage.spend.completeFollowUp(walletId, followUp.seq);
}

/**
 * Campaigns stopped by a daily cap, or capped on a placement or device, on an earlier day serve
 * again (published as they stand).
 */
async function reopenCampaigns(now: Date, run: SettlementRun): Promise<void> {
  const storage = getStorage();
  const today = localDay(now, retailerTimeZone());
  const settings = await getRetailerSettings();
  const reopen = async (campaign: Campaign) => {
    try {
      if (await storage.spend.reopen(campaign.id, today, publisher(settings, await teamStatusOf(campaign.team), now))) run.reopened++;
    } catch (error) {
      run.failures++;
      logFailure("Campaign not reopened after its daily cap", { campaignId: campaign.id }, error);
    }
  };
  await eachPage((after) => storage.spend.listStoppedBefore(today, { limit: PAGE, after }), MAX_WALLETS_PER_RUN, reopen);
  await eachPage((after) => storage.spend.listCapsReachedBefore(today, { limit: PAGE, after }), MAX_WALLETS_PER_RUN, reopen);
}

async function followUp(accrual: Pick<SpendAccrual, "walletId">, item: SpendFollowUp, now: Date, run: SettlementRun): Promise<void> {
  try {
    await runFollowUp(accrual.walletId, item, now);
    run.followUps++;
  } catch (error) {
    run.failures++;
    logFailure("Settlement follow-up failed", { walletId: accrual.walletId, seq: item.seq }, error);
  }
}

/**
 * One settlement run: campaigns stopped on an earlier day reopen, follow-ups left undone are
 * done, then every wallet with at least a cent of unsettled spend is settled (one debit each)
 * and its follow-up done; old batch records are purged. Failures are logged and counted, and
 * what failed is tried again on the next run.
 */
export async function settleSpend(now = new Date()): Promise<Result<SettlementRun>> {
  const storage = getStorage();
  const run: SettlementRun = { settled: 0, debitedCents: 0, followUps: 0, reopened: 0, failures: 0 };
  await reopenCampaigns(now, run);
  const settings = await getRetailerSettings();
  // A campaign capped on a placement or device is republished in the settlement's transaction.
  const publish = (campaign: Campaign, teamStatus: Parameters<typeof publisher>[1]) => publisher(settings, teamStatus, now)(campaign);
  await eachPage(
    (after) => storage.spend.listFollowUps({ limit: PAGE, after }),
    MAX_WALLETS_PER_RUN,
    async (accrual) => {
      if (accrual.followUp) await followUp(accrual, accrual.followUp, now, run);
    },
  );
  await eachPage(
    (after) => storage.spend.listDue({ limit: PAGE, after }),
    MAX_WALLETS_PER_RUN,
    async (accrual) => {
      try {
        const settlement = await storage.spend.settle(accrual.walletId, { now, timeZone: retailerTimeZone(), publish });
        if (!settlement) return;
        run.settled++;
        run.debitedCents += settlement.debitCents;
        if (settlement.followUp) await followUp(accrual, settlement.followUp, now, run);
      } catch (error) {
        run.failures++;
        logFailure("Wallet not settled", { walletId: accrual.walletId }, error);
      }
    },
  );
  try {
    await storage.spend.purgeBatches(new Date(now.getTime() - BATCH_RETENTION_MS), 500);
  } catch (error) {
    run.failures++;
    logFailure("Old event batches not purged", {}, error);
  }
  return ok(run);
}

// ---------------------------------------------------------------------------------------------
// On the scheduler (ADR 21)

/** The settlement's job: one per store, whichever instance runs it. */
export const SETTLEMENT_JOB_ID = "settlement";

/**
 * The settlement as scheduled work, every SETTLEMENT_INTERVAL_SECONDS: after downtime the missed
 * runs merge into one (a run settles everything due). What failed inside a run is logged and
 * tried again on the next; the run itself is done.
 */
export const settlementJob: JobKind = {
  name: "settlement",
  catchUp: "merge",
  async run({ now }) {
    const result = await settleSpend(now);
    const run = result.ok ? result.value : null;
    if (run && (run.settled || run.failures || run.reopened)) console.log(JSON.stringify({ level: "info", msg: "Spend settled", ...run }));
    return result;
  },
};
