/**
 * Demo traffic: the ad events a retailer's site would send for the campaigns the ad server can
 * serve (their published copies), over one tick of time. Realistic enough to read: a daily curve
 * (quiet at night, peaks at lunch and in the evening), busier weekends, CTR by placement and
 * device, conversions, and cost by the campaign's strategy (CPC pays per click at a second price
 * under the bid; CPM per thousand displays; vCPM per thousand views). Pure: the clock and the
 * random source are given.
 */
import type { PublishedCampaign } from "~/domain/campaigns/publication";
import type { AdEvent } from "~/domain/metrics/events";
import { MICROS_PER_CENT } from "~/domain/metrics/metrics";
import type { Cents } from "~/domain/money";
import { localHourAndWeekday } from "~/domain/metrics/periods";

/** An event as POST /api/events takes it (the optional dimensions and sale fields left out when empty). */
export type SimulatedEvent = Omit<AdEvent, "product" | "keyword" | "category" | "productCategory" | "quantity" | "sales"> & {
  product?: string;
  quantity?: number;
  sales?: Cents;
};

export interface SimulationInput {
  campaigns: readonly PublishedCampaign[];
  /** The tick ends at `now` and lasts `seconds`. */
  now: Date;
  seconds: number;
  timeZone: string;
  /** Uniform in [0, 1). */
  random: () => number;
  /** Product prices in cents, for sales; a product without one sells at 25.00. */
  prices?: ReadonlyMap<string, number>;
  /** Displays per hour of one placement of one campaign at the busiest hour. */
  peakDisplaysPerHour?: number;
}

const CTR: Record<string, number> = { search: 0.035, plp: 0.018, pdp: 0.012, hub: 0.015, home: 0.006 };
const DEVICES: readonly [string, number, number][] = [
  // device, share of displays, CTR multiplier
  ["mobile", 0.55, 0.85],
  ["desktop", 0.35, 1.1],
  ["tablet", 0.08, 1],
  ["unknown", 0.02, 0.7],
];
const VIEW_RATE = 0.7;
const CONVERSION = 0.06;

/** Share of the peak traffic at a local hour: quiet at night, peaks at 13:00 and 20:00. */
export function hourlyShare(hour: number): number {
  const peak = (centre: number, width: number) => Math.exp(-((hour - centre) ** 2) / (2 * width ** 2));
  return Math.min(1, 0.08 + 0.75 * peak(13, 2.5) + 0.9 * peak(20.5, 2));
}

/** Weekends are busier on a retailer's site. */
export function weekdayShare(weekday: number): number {
  return weekday >= 5 ? 1.15 : 1;
}

/** A count with the expected value `mean` (its fraction decided by chance). */
function draw(mean: number, random: () => number): number {
  const whole = Math.floor(mean);
  return whole + (random() < mean - whole ? 1 : 0);
}

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length) % items.length];
}

export function simulateTraffic(input: SimulationInput): SimulatedEvent[] {
  const { random, now, seconds } = input;
  const events: SimulatedEvent[] = [];
  const { hour, weekday } = localHourAndWeekday(now, input.timeZone);
  const share = hourlyShare(hour) * weekdayShare(weekday);
  const peak = input.peakDisplaysPerHour ?? 600;
  const at = () => new Date(now.getTime() - Math.floor(random() * seconds * 1000)).toISOString();
  for (const campaign of input.campaigns) {
    const start = campaign.startDate ? Date.parse(campaign.startDate) : -Infinity;
    const end = campaign.endDate ? Date.parse(campaign.endDate) : Infinity;
    if (now.getTime() < start || now.getTime() > end) continue;
    const devices = DEVICES.filter(([d]) => !campaign.targeting.devices || campaign.targeting.devices.includes(d));
    const slots = Object.entries(campaign.slots);
    if (!devices.length || !slots.length) continue;
    for (const [slot, placements] of slots) {
      for (const placement of placements) {
        const bid = campaign.placementBids[placement] ?? campaign.bid;
        for (const [device, deviceShare, ctrFactor] of devices) {
          const displays = draw(((peak * share * seconds) / 3600) * deviceShare, random);
          const base = { team: campaign.team, wallet: campaign.wallet, campaign: campaign.campaignId, campaignType: campaign.campaignType, placement, slot, device };
          for (let i = 0; i < displays; i++) {
            const product = campaign.productIds.length ? pick(campaign.productIds, random) : undefined;
            const withProduct = product ? { ...base, product } : base;
            const cpm = campaign.bidStrategy === "CPM" || campaign.bidStrategy === "FIXED" ? Math.round((bid * MICROS_PER_CENT) / 1000) : 0;
            events.push({ type: "display", time: at(), ...withProduct, cost: cpm });
            if (random() >= VIEW_RATE) continue;
            const vcpm = campaign.bidStrategy === "vCPM" ? Math.round((bid * MICROS_PER_CENT) / 1000) : 0;
            events.push({ type: "view", time: at(), ...withProduct, cost: vcpm });
            if (random() >= ((CTR[placement] ?? 0.01) * ctrFactor) / VIEW_RATE) continue;
            // Second price: a click costs between 60 % and 100 % of the bid.
            const cpc = campaign.bidStrategy === "CPC" ? Math.round(bid * MICROS_PER_CENT * (0.6 + 0.4 * random())) : 0;
            events.push({ type: "click", time: at(), ...withProduct, cost: cpc });
            if (random() >= CONVERSION) continue;
            const quantity = random() < 0.8 ? 1 : 2;
            const price = (product && input.prices?.get(product)) || 2500;
            events.push({ type: "sale", time: at(), ...withProduct, cost: 0, quantity, sales: price * quantity });
          }
        }
      }
    }
  }
  return events;
}
