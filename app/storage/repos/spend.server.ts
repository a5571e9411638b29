/**
 * Ad spend (ADR 18): the batches of events received, each wallet's unsettled spend in micros, and
 * its settlement into the ledger and the campaigns' spend. Every write that must hold together
 * runs in one transaction, so a retried batch or a repeated settlement counts once, and a failure
 * between two steps converges when the step runs again.
 */
import { createHash } from "node:crypto";
import type { CampaignData } from "~/domain/campaigns/campaign";
import type { EventRefusal } from "~/domain/metrics/events";
import { servingStop } from "~/domain/campaigns/status";
import { localDay } from "~/domain/metrics/periods";
import type { LedgerEntry, TeamData, WalletData } from "~/domain/types";
import {
  addDayDimensions,
  addDaySpend,
  addDimensions,
  addToAccrual,
  capsReachedOn,
  isSettlementDue,
  planSettlement,
  reachesDailyCap,
  sameCapsReached,
  takeDimensions,
} from "~/domain/wallets/settlement";
import {
  COLLECTIONS,
  NotFoundError,
  type Campaign,
  type DocumentStore,
  type EventBatch,
  type EventBatchData,
  type Patch,
  type PublishedCampaign,
  type SpendAccrualData,
  type SpendFollowUp,
  type SpendRepo,
  type Stored,
} from "~/storage/port";
import { spendWrite, toCampaign, type StoredCampaignData } from "~/storage/repos/campaigns.server";
import { preparePublication, preparePublications } from "~/storage/repos/publication.server";
import { entryId, postInTransaction } from "~/storage/repos/wallets.server";
import { settlementReference } from "~/domain/wallets/settlement";

const B = COLLECTIONS.eventBatch;
const A = COLLECTIONS.spendAccrual;
const C = COLLECTIONS.campaign;

/** A batch id as a document id: any id the API accepts, hashed to a fixed, safe length. */
export function batchDocumentId(batchId: string): string {
  return `b-${createHash("sha256").update(batchId).digest("hex").slice(0, 40)}`;
}

/**
 * A batch as stored: its refusals as compact strings ("index:reason[:field]"), so that 10,000
 * refused events stay far under Firestore's 1 MiB per document.
 */
type StoredBatch = Omit<EventBatchData, "refused"> & { refused: string[] };

function encodeRefusals(refused: readonly EventRefusal[]): string[] {
  return refused.map((r) => [r.index, r.reason, ...(r.field ? [r.field] : [])].join(":"));
}

function decodeRefusals(refused: readonly string[]): EventRefusal[] {
  return refused.map((code) => {
    const [index, reason, field] = code.split(":");
    return { index: Number(index), reason: reason as EventRefusal["reason"], ...(field ? { field } : {}) };
  });
}

function toBatch(doc: Stored<StoredBatch>): EventBatch {
  return { ...doc, refused: decodeRefusals(doc.refused) };
}

/** What the settlement writes to a campaign (spendWrite's fields). */
type CampaignSpendFields = Parameters<typeof spendWrite>[1];

function emptyAccrual(walletId: string, now: string): SpendAccrualData {
  return { walletId, unsettledMicros: 0, campaigns: {}, due: false, settlements: 0, followUp: null, followUpPending: false, updated: now };
}

/** A follow-up merged into the one still pending (a later settlement's number). */
function mergeFollowUp(pending: SpendFollowUp | null, next: SpendFollowUp): SpendFollowUp {
  if (!pending) return next;
  return {
    seq: next.seq,
    campaigns: [...new Set([...pending.campaigns, ...next.campaigns])].sort(),
    walletFunds: pending.walletFunds || next.walletFunds,
    walletCapDay: next.walletCapDay ?? pending.walletCapDay,
  };
}

function stopOf(campaign: CampaignData, now: Date, timeZone: string) {
  return servingStop(
    { insufficient_funds: campaign.insufficient_funds, spendCents: campaign.spend, pacingTotalCents: campaign.pacingTotal, dailyCapReached: campaign.dailyCapReached },
    now,
    timeZone,
  );
}

export function createSpendRepo(store: DocumentStore): SpendRepo {
  /** Campaigns whose day field (a cap's day) is before `day`, by that day. */
  async function campaignsWithDayBefore(field: string, day: string, spec: { limit?: number; after?: string | null }) {
    const page = await store.query<StoredCampaignData>(C, {
      where: [[field, "<", day]],
      orderBy: { field, direction: "asc" },
      limit: spec.limit,
      after: spec.after,
    });
    return { items: page.items.map((doc) => toCampaign(doc) as Campaign), next: page.next };
  }

  return {
    async getBatch(batchId) {
      const doc = await store.get<StoredBatch>(B, batchDocumentId(batchId));
      return doc ? toBatch(doc) : null;
    },

    async openBatch(data) {
      const id = batchDocumentId(data.batchId);
      return store.transaction(async (tx) => {
        const existing = await tx.get<StoredBatch>(B, id);
        if (existing) return { batch: toBatch(existing), created: false };
        const doc: StoredBatch = { ...data, refused: encodeRefusals(data.refused), state: "pending", recorded: null };
        tx.create<StoredBatch>(B, id, doc);
        return { batch: toBatch({ ...doc, id, version: 1 }), created: true };
      });
    },

    async recordBatch(batchId, now) {
      const id = batchDocumentId(batchId);
      const nowIso = now.toISOString();
      return store.transaction(async (tx) => {
        const stored = await tx.get<StoredBatch>(B, id);
        if (!stored) throw new NotFoundError(B, id);
        const batch = toBatch(stored);
        if (batch.state === "recorded") return { recorded: false, batch };
        const walletIds = Object.keys(batch.cost).sort();
        const accruals = await Promise.all(walletIds.map((walletId) => tx.get<SpendAccrualData>(A, walletId)));
        walletIds.forEach((walletId, i) => {
          const current = accruals[i];
          const cost = batch.cost[walletId]!;
          const sum = addToAccrual(current, cost);
          const fields = {
            unsettledMicros: sum.unsettledMicros,
            campaigns: sum.campaigns,
            dimensions: addDimensions(current?.dimensions, cost.dimensions),
            due: isSettlementDue(sum),
            updated: nowIso,
          };
          if (current) tx.update<SpendAccrualData>(A, walletId, fields);
          else tx.create<SpendAccrualData>(A, walletId, { ...emptyAccrual(walletId, nowIso), ...fields });
        });
        tx.update<StoredBatch>(B, id, { state: "recorded", recorded: nowIso });
        return { recorded: true, batch: { ...batch, state: "recorded", recorded: nowIso, version: batch.version + 1 } };
      });
    },

    async purgeBatches(before, limit) {
      const page = await store.query<StoredBatch>(B, { where: [["received", "<", before.toISOString()]], limit });
      for (const batch of page.items) await store.delete(B, batch.id);
      return page.items.length;
    },

    async getAccrual(walletId) {
      return store.get<SpendAccrualData>(A, walletId);
    },

    async listDue(spec) {
      return store.query<SpendAccrualData>(A, { where: [["due", "==", true]], limit: spec.limit, after: spec.after });
    },

    async listFollowUps(spec) {
      return store.query<SpendAccrualData>(A, { where: [["followUpPending", "==", true]], limit: spec.limit, after: spec.after });
    },

    async settle(walletId, ctx) {
      const day = localDay(ctx.now, ctx.timeZone);
      const nowIso = ctx.now.toISOString();
      return store.transaction(async (tx) => {
        // Reads first (as Firestore demands): the accrual, the wallet, the campaigns; the ledger's
        // own reads (wallet, entry, team) follow, then every write.
        const accrual = await tx.get<SpendAccrualData>(A, walletId);
        if (!accrual) return null;
        const plan = planSettlement(accrual);
        const campaignIds = Object.keys(plan.campaignCents).sort();
        if (plan.walletCents === 0 && campaignIds.length === 0) {
          if (accrual.due) tx.update<SpendAccrualData>(A, walletId, { due: false, updated: nowIso });
          return null;
        }
        const wallet = await tx.get<WalletData>(COLLECTIONS.wallet, walletId);
        if (!wallet) return null;
        const campaigns = await Promise.all(campaignIds.map((id) => tx.get<StoredCampaignData>(C, id)));
        const seq = accrual.settlements + 1;
        // Each settled campaign's micros per placement and device move to its spend of the day.
        const dimensions = takeDimensions(accrual.dimensions, campaignIds);

        // What each campaign's write will be (pure), and the cache copies of campaigns whose
        // placement or device caps changed: their reads come before any write.
        const stopped: string[] = [];
        const campaignWrites: { campaign: Stored<StoredCampaignData>; fields: CampaignSpendFields }[] = [];
        const publications: { campaignId: string; payload: PublishedCampaign | null }[] = [];
        for (const [i, campaign] of campaigns.entries()) {
          if (!campaign) continue;
          const cents = plan.campaignCents[campaignIds[i]!]!;
          const todaySpend = addDaySpend(campaign.todaySpend, day, cents);
          const todaySpendMicros = addDayDimensions(campaign.todaySpendMicros, day, dimensions.taken[campaign.id]);
          const fields: CampaignSpendFields = { spend: campaign.spend + cents, todaySpend, todaySpendMicros };
          if (campaign.dailyCapReached !== day && reachesDailyCap(todaySpend, day, campaign.pacingDaily)) fields.dailyCapReached = day;
          const caps = capsReachedOn({ ...campaign, todaySpendMicros }, day);
          const capsChanged = !sameCapsReached(caps, campaign.capsReached);
          if (capsChanged) fields.capsReached = caps;
          const after = { ...campaign, ...fields };
          const stops = stopOf(campaign, ctx.now, ctx.timeZone) === null && stopOf(after, ctx.now, ctx.timeZone) !== null;
          if (capsChanged && ctx.publish) {
            // Not served on a capped placement or device from now on: the copy without them.
            const team = await tx.get<TeamData>(COLLECTIONS.team, campaign.team);
            publications.push({ campaignId: campaign.id, payload: ctx.publish(toCampaign(after) as Campaign, team?.status ?? null) });
          } else if (stops || capsChanged) {
            stopped.push(campaign.id);
          }
          campaignWrites.push({ campaign, fields });
        }
        // One write per product, whichever of the campaigns link or unlink it.
        const publish = publications.length ? await preparePublications(tx, publications) : () => {};

        let entry: LedgerEntry | null = null;
        let settled: Stored<WalletData> = wallet;
        if (plan.walletCents > 0) {
          const todaySpend = addDaySpend(wallet.todaySpend, day, plan.walletCents);
          const posted = await postInTransaction(
            tx,
            {
              walletId,
              type: "debit",
              amount: plan.walletCents,
              reference: settlementReference(seq),
              // Shown translated ('wallets:entry.spendSettled'): see isSettlementEntry.
              comment: "Ad spend settled",
              by: "system",
              id: entryId(walletId, `settlement:${seq}`),
              reversalOf: null,
              settlement: true,
              walletPatch: { todaySpend },
            },
            ctx.now,
          );
          if (!posted.ok) throw new Error(`Settlement of wallet ${walletId} refused: ${posted.reason}`);
          // The key is the settlement's number, which this transaction moves on: an entry found
          // under it was posted by this very settlement before a retry, never by another.
          entry = posted.entry;
          settled = posted.wallet;
        }

        for (const { campaign, fields } of campaignWrites) tx.update<StoredCampaignData>(C, campaign.id, spendWrite(campaign, fields));
        publish();

        const walletFunds = wallet.balance > 0 && settled.balance <= 0;
        const capBefore = reachesDailyCap(wallet.todaySpend, day, wallet.dailyBudget);
        const capAfter = reachesDailyCap(settled.todaySpend, day, settled.dailyBudget);
        const walletCapDay = !capBefore && capAfter ? day : null;
        const asked: SpendFollowUp | null =
          stopped.length || walletFunds || walletCapDay ? { seq, campaigns: stopped, walletFunds, walletCapDay } : null;
        const followUp = asked ? mergeFollowUp(accrual.followUp, asked) : accrual.followUp;
        const accrualPatch: Patch<SpendAccrualData> = {
          unsettledMicros: plan.after.unsettledMicros,
          campaigns: plan.after.campaigns,
          dimensions: dimensions.left,
          due: isSettlementDue(plan.after),
          settlements: seq,
          followUp,
          followUpPending: followUp !== null,
          updated: nowIso,
        };
        tx.update<SpendAccrualData>(A, walletId, accrualPatch);
        return {
          seq,
          walletId,
          debitCents: plan.walletCents,
          entry,
          wallet: settled,
          campaignCents: plan.campaignCents,
          followUp,
        };
      });
    },

    async completeFollowUp(walletId, seq) {
      await store.transaction(async (tx) => {
        const accrual = await tx.get<SpendAccrualData>(A, walletId);
        if (!accrual?.followUp || accrual.followUp.seq !== seq) return;
        tx.update<SpendAccrualData>(A, walletId, { followUp: null, followUpPending: false });
      });
    },

    async stopForToday(campaignId, day) {
      return store.transaction(async (tx) => {
        const campaign = await tx.get<StoredCampaignData>(C, campaignId);
        if (!campaign || campaign.dailyCapReached === day) return false;
        const write = await preparePublication(tx, campaignId, null);
        tx.update<StoredCampaignData>(C, campaignId, spendWrite(campaign, { dailyCapReached: day }));
        write();
        return true;
      });
    },

    async listStoppedBefore(day, spec) {
      return campaignsWithDayBefore("dailyCapReached", day, spec);
    },

    async listCapsReachedBefore(day, spec) {
      return campaignsWithDayBefore("capsReached.day", day, spec);
    },

    async reopen(campaignId, day, publish) {
      return store.transaction(async (tx) => {
        const campaign = await tx.get<StoredCampaignData>(C, campaignId);
        if (!campaign) return false;
        const fields: CampaignSpendFields = {};
        if (campaign.dailyCapReached && campaign.dailyCapReached < day) fields.dailyCapReached = null;
        if (campaign.capsReached && campaign.capsReached.day < day) fields.capsReached = null;
        if (Object.keys(fields).length === 0) return false;
        const next = toCampaign({ ...campaign, ...fields }) as Campaign;
        const write = await preparePublication(tx, campaignId, publish(next));
        tx.update<StoredCampaignData>(C, campaignId, spendWrite(campaign, fields));
        write();
        return true;
      });
    },

    async republish(campaignId, publish) {
      return store.transaction(async (tx) => {
        const campaign = await tx.get<StoredCampaignData>(C, campaignId);
        if (!campaign) return false;
        const write = await preparePublication(tx, campaignId, publish(toCampaign(campaign) as Campaign));
        write();
        return true;
      });
    },
  };
}
