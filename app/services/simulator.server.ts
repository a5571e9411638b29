/**
 * The demo traffic simulator: every few seconds, the events the retailer's site would send for
 * the campaigns the ad server can serve (their published copies in the cache), counted through
 * the same use case as POST /api/events. On by default for the embedded demo (SIMULATE_TRAFFIC),
 * never under tests; `npm run simulate` sends the same traffic to any console's /api/events.
 */
import type { PublishedCampaign } from "~/domain/campaigns/publication";
import { MAX_EVENTS_PER_BATCH } from "~/domain/metrics/events";
import { simulateTraffic, type SimulatedEvent } from "~/domain/metrics/simulation";
import { ok, type Result } from "~/domain/result";
import { ingestEventBatch } from "~/services/events.server";
import { retailerTimeZone } from "~/services/retailer-settings.server";
import { getStorage } from "~/services/storage.server";

/** The published copies of the active campaigns: what the ad server would serve. */
export async function servableCampaigns(limit = 2_000): Promise<PublishedCampaign[]> {
  const storage = getStorage();
  const out: PublishedCampaign[] = [];
  let after: string | null = null;
  do {
    const page = await storage.campaigns.list({ statuses: ["active"], limit: 100, after });
    const published = await Promise.all(page.items.map((c) => storage.publication.getCampaign(c.id)));
    for (const p of published) if (p) out.push(p);
    after = page.next;
  } while (after && out.length < limit);
  return out;
}

/** One tick of demo traffic, counted. Returns how many events were sent. */
export async function simulateTick(now: Date, seconds: number, random: () => number = Math.random): Promise<Result<number>> {
  const campaigns = await servableCampaigns();
  if (!campaigns.length) return ok(0);
  const productIds = [...new Set(campaigns.flatMap((c) => c.productIds))];
  const products = productIds.length ? await getStorage().catalog.getMany(productIds) : [];
  const prices = new Map(products.map((p) => [p.id, p.price]));
  const events = simulateTraffic({ campaigns, now, seconds, timeZone: retailerTimeZone(), random, prices });
  for (let i = 0; i < events.length; i += MAX_EVENTS_PER_BATCH) {
    const batch: SimulatedEvent[] = events.slice(i, i + MAX_EVENTS_PER_BATCH);
    const result = await ingestEventBatch({ batchId: `sim-${now.getTime()}-${i / MAX_EVENTS_PER_BATCH}`, events: batch }, now);
    if (!result.ok) return result;
  }
  return ok(events.length);
}

/** Runs a tick every `intervalMs`; returns the function that stops it. */
export function startTrafficSimulator(intervalMs: number, clock: () => Date = () => new Date()): () => void {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      const result = await simulateTick(clock(), intervalMs / 1000);
      if (!result.ok) console.error(JSON.stringify({ level: "error", what: "traffic simulator", reason: result.reason }));
    } catch (error) {
      console.error(JSON.stringify({ level: "error", what: "traffic simulator", error: error instanceof Error ? error.message : String(error) }));
    } finally {
      running = false;
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
