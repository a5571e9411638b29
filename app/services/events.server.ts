/**
 * Events in (ADR 18): the ad server's batches of events, counted once each. No HTTP here: the
 * route (app/routes/api.events.ts) authenticates the service credential and parses the JSON.
 *
 * A batch goes through three idempotent steps, so a retry after any failure converges on one
 * count:
 * 1. Opened: each event checked (its own rules, then its campaign in storage); what was accepted
 *    and refused, and the cost per wallet and campaign, stored as a pending batch. A retry finds
 *    that record and keeps its verdicts (an event that was accepted stays accepted).
 * 2. Metrics: the accepted events, rolled up by UTC hour and every dimension (days cut in the
 *    retailer's time zone), applied to the metrics store once per batch id.
 * 3. Recorded: the cost added to each wallet's unsettled spend and the batch marked recorded, in
 *    one storage transaction. Settlement (settlement.server.ts) turns it into ledger debits.
 * A batch already recorded answers its first summary again, with `duplicate: true`.
 */
import { createHash } from "node:crypto";
import {
  aggregateFacts,
  checkEventCampaign,
  costByWallet,
  newestEventTime,
  normaliseEvent,
  parseBatch,
  validateEvent,
  type AdEvent,
  type EventCampaign,
  type EventRefusal,
} from "~/domain/metrics/events";
import { conflict, fail, ok, type Result } from "~/domain/result";
import { getMetricsStore } from "~/metrics/index.server";
import type { EventBatch } from "~/storage/port";
import { retailerTimeZone } from "~/services/retailer-settings.server";
import { getStorage } from "~/services/storage.server";

export interface EventsSummary {
  batchId: string;
  /** Events counted. */
  accepted: number;
  /** Each refused event's index in the batch and why (not counted). */
  refused: EventRefusal[];
  /** The batch was counted before: nothing was counted again. */
  duplicate: boolean;
}

/** Campaigns read from storage per round trip. */
const CAMPAIGN_CHUNK = 300;

function eventsHash(events: readonly unknown[]): string {
  return createHash("sha256").update(JSON.stringify(events)).digest("hex");
}

function summaryOf(batch: Pick<EventBatch, "batchId" | "accepted" | "refused">, duplicate: boolean): EventsSummary {
  return { batchId: batch.batchId, accepted: batch.accepted, refused: batch.refused, duplicate };
}

async function campaignsById(ids: readonly string[]): Promise<Map<string, EventCampaign>> {
  const found = new Map<string, EventCampaign>();
  for (let i = 0; i < ids.length; i += CAMPAIGN_CHUNK) {
    for (const c of await getStorage().campaigns.getMany(ids.slice(i, i + CAMPAIGN_CHUNK))) {
      found.set(c.id, { team: c.team, wallet: c.wallet, campaignType: c.campaignType });
    }
  }
  return found;
}

/** Step 1: the verdict on every event at `now`, and the accepted ones. */
async function judge(raw: readonly unknown[], now: Date): Promise<{ accepted: AdEvent[]; refused: EventRefusal[] }> {
  const refused: EventRefusal[] = [];
  const valid: { index: number; event: AdEvent }[] = [];
  raw.forEach((item, index) => {
    const checked = validateEvent(item, now);
    if (checked.ok) valid.push({ index, event: checked.event });
    else refused.push({ index, reason: checked.reason, ...(checked.field ? { field: checked.field } : {}) });
  });
  const campaigns = await campaignsById([...new Set(valid.map((v) => v.event.campaign))]);
  const accepted: AdEvent[] = [];
  for (const { index, event } of valid) {
    const problem = checkEventCampaign(event, campaigns.get(event.campaign));
    if (problem) refused.push({ index, reason: problem.reason, ...(problem.field ? { field: problem.field } : {}) });
    else accepted.push(event);
  }
  refused.sort((a, b) => a.index - b.index);
  return { accepted, refused };
}

/** The accepted events of a batch opened earlier: every event its record did not refuse. */
function acceptedOf(raw: readonly unknown[], batch: EventBatch): AdEvent[] {
  const refused = new Set(batch.refused.map((r) => r.index));
  const accepted: AdEvent[] = [];
  raw.forEach((item, index) => {
    if (refused.has(index)) return;
    // The same events (same hash) pass their own rules again; the time window is not asked
    // again: the verdict stands as it was given when the batch arrived.
    const checked = normaliseEvent(item);
    if (checked.ok) accepted.push(checked.event);
  });
  return accepted;
}

/**
 * Counts a batch of events (the body of POST /api/events, parsed): metrics, and unsettled spend
 * per wallet and campaign. A batch that is not one is refused whole ('invalid', reason
 * `events.<code>`); a batch id sent again with other events is a conflict.
 */
export async function ingestEventBatch(body: unknown, now = new Date()): Promise<Result<EventsSummary>> {
  const parsed = parseBatch(body);
  if (!parsed.ok) return fail("invalid", `events.${parsed.reason}`);
  const { batchId, events } = parsed;
  const storage = getStorage();
  const hash = eventsHash(events);

  let batch = await storage.spend.getBatch(batchId);
  if (batch?.state === "recorded") {
    return batch.eventsHash === hash ? ok(summaryOf(batch, true)) : conflict("events.batchIdReused");
  }
  let accepted: AdEvent[];
  if (!batch) {
    const verdict = await judge(events, now);
    const opened = await storage.spend.openBatch({
      batchId,
      eventsHash: hash,
      accepted: verdict.accepted.length,
      refused: verdict.refused,
      cost: costByWallet(verdict.accepted),
      newestEvent: newestEventTime(verdict.accepted),
      received: now.toISOString(),
    });
    batch = opened.batch;
    // Another request with this batch id opened it first: its verdicts stand.
    accepted = opened.created ? verdict.accepted : acceptedOf(events, batch);
  } else {
    accepted = acceptedOf(events, batch);
  }
  if (batch.eventsHash !== hash) return conflict("events.batchIdReused");

  // Step 2, then 3. Each is once per batch id, so running them again after a failure is safe.
  await getMetricsStore().applyBatch(batchId, aggregateFacts(accepted, retailerTimeZone()), batch.newestEvent);
  const { recorded } = await storage.spend.recordBatch(batchId, now);
  return ok(summaryOf(batch, !recorded));
}
