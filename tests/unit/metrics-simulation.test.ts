import { describe, expect, it } from "vitest";
import type { PublishedCampaign } from "~/domain/campaigns/publication";
import { hourlyShare, simulateTraffic } from "~/domain/metrics/simulation";

/** A seeded random source (mulberry32), so each run draws the same traffic. */
function seeded(seed: number) {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function campaign(overrides: Partial<PublishedCampaign> = {}): PublishedCampaign {
  return {
    campaignId: "c1",
    team: "t1",
    wallet: "w1",
    campaignType: "sponsored-products",
    bidStrategy: "CPC",
    bid: 50,
    placementBids: {},
    slots: { sp: ["search", "plp"] },
    placements: ["search", "plp"],
    targeting: { devices: null, dayparting: null, capping: { enabled: false, type: "views", max: 5 }, timeZone: "Europe/Paris" },
    creative: null,
    banners: {},
    productIds: ["SKU-1", "SKU-2"],
    pacing: {},
    startDate: "2026-01-01T00:00:00.000Z",
    endDate: null,
    published: "2026-01-01T00:00:00.000Z",
    ...overrides,
  } as PublishedCampaign;
}

const noon = new Date("2026-11-24T12:00:00Z"); // 13:00 in Paris
const base = { now: noon, seconds: 3600, timeZone: "Europe/Paris", peakDisplaysPerHour: 2000 };

describe("demo traffic", () => {
  it("is busier at lunchtime than at night", () => {
    expect(hourlyShare(13)).toBeGreaterThan(hourlyShare(3) * 5);
    const day = simulateTraffic({ ...base, campaigns: [campaign()], random: seeded(1) }).length;
    const night = simulateTraffic({ ...base, now: new Date("2026-11-24T02:00:00Z"), campaigns: [campaign()], random: seeded(1) }).length;
    expect(day).toBeGreaterThan(night * 3);
  });

  it("sends only what a campaign can serve: its dates, placements, devices and products", () => {
    const events = simulateTraffic({ ...base, random: seeded(2), campaigns: [campaign({ targeting: { ...campaign().targeting, devices: ["mobile"] } }), campaign({ campaignId: "later", startDate: "2027-01-01T00:00:00.000Z" })] });
    expect(events.length).toBeGreaterThan(100);
    expect(new Set(events.map((e) => e.campaign))).toEqual(new Set(["c1"]));
    expect(new Set(events.map((e) => e.device))).toEqual(new Set(["mobile"]));
    expect(new Set(events.map((e) => e.placement))).toEqual(new Set(["search", "plp"]));
    expect(new Set(events.map((e) => e.product))).toEqual(new Set(["SKU-1", "SKU-2"]));
    for (const e of events) expect(Date.parse(e.time)).toBeLessThanOrEqual(noon.getTime());
  });

  it("costs by strategy: CPC on clicks within the bid, CPM on displays, vCPM on views", () => {
    const cpc = simulateTraffic({ ...base, random: seeded(3), campaigns: [campaign()] });
    const clicks = cpc.filter((e) => e.type === "click");
    expect(clicks.length).toBeGreaterThan(0);
    for (const e of cpc) {
      if (e.type === "click") expect(e.cost).toBeGreaterThanOrEqual(0.6 * 50 * 10_000 - 1), expect(e.cost).toBeLessThanOrEqual(50 * 10_000);
      else expect(e.cost).toBe(0);
    }
    const cpm = simulateTraffic({ ...base, random: seeded(4), campaigns: [campaign({ bidStrategy: "CPM", bid: 300 })] });
    for (const e of cpm) expect(e.cost).toBe(e.type === "display" ? 3_000 : 0);
    const vcpm = simulateTraffic({ ...base, random: seeded(5), campaigns: [campaign({ bidStrategy: "vCPM", bid: 200 })] });
    for (const e of vcpm) expect(e.cost).toBe(e.type === "view" ? 2_000 : 0);
  });

  it("gives a CTR by placement near the retailer's norms, and sales at the product's price", () => {
    const events = simulateTraffic({ ...base, peakDisplaysPerHour: 40_000, random: seeded(6), prices: new Map([["SKU-1", 1999]]), campaigns: [campaign()] });
    const ctr = (placement: string) => events.filter((e) => e.placement === placement && e.type === "click").length / events.filter((e) => e.placement === placement && e.type === "display").length;
    expect(ctr("search")).toBeGreaterThan(0.02);
    expect(ctr("search")).toBeLessThan(0.05);
    expect(ctr("plp")).toBeLessThan(ctr("search"));
    const sales = events.filter((e) => e.type === "sale" && e.product === "SKU-1");
    expect(sales.length).toBeGreaterThan(0);
    for (const s of sales) expect(s.sales).toBe(1999 * (s.quantity ?? 1));
  });
});
