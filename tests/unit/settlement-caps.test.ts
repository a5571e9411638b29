/**
 * Placement and device caps (issue 9 §1): spend counted per placement and device in micros, the
 * caps it reaches on the retailer's day, what the ad server's copy leaves out until the next day,
 * and what the user is told.
 */
import { describe, expect, it } from "vitest";
import { publishedCampaign, servedDevices } from "~/domain/campaigns/publication";
import { capNoticeKey, capNotices, capsReachedToday, type CapNotice } from "~/domain/campaigns/status";
import { localDay } from "~/domain/metrics/periods";
import { DEFAULT_RETAILER_SETTINGS as SETTINGS } from "~/domain/retailer-settings";
import {
  addDayDimensions,
  addDimensions,
  addToAccrual,
  capsReachedOn,
  dimensionPacingOn,
  planSettlement,
  sameCapsReached,
  takeDimensions,
  type Accrual,
  type CampaignDimensions,
  type DayDimensionSpend,
} from "~/domain/wallets/settlement";
import { FIXTURE_NOW, makeCampaign, PARIS } from "./campaign-fixture";

const DAY = "2026-03-10";
const spendOn = (day: string, placements: Record<string, number>, devices: Record<string, number> = {}): DayDimensionSpend => ({ day, placements, devices });

describe("spend per placement and device: accrued, then moved with the campaign's cents", () => {
  it("adds a batch's micros per campaign, placement and device", () => {
    const first = addDimensions(null, { a: { placements: { search: 6_000 }, devices: { mobile: 6_000 } } });
    const both = addDimensions(first, {
      a: { placements: { search: 1_000, plp: 2_000 }, devices: { mobile: 3_000 } },
      b: { placements: { home: 5 }, devices: { app: 5 } },
    });
    expect(both).toEqual({
      a: { placements: { search: 7_000, plp: 2_000 }, devices: { mobile: 9_000 } },
      b: { placements: { home: 5 }, devices: { app: 5 } },
    });
    // What was there is not changed in place (a transaction may run again).
    expect(first).toEqual({ a: { placements: { search: 6_000 }, devices: { mobile: 6_000 } } });
    // A batch stored before placements were counted adds nothing.
    expect(addDimensions(both, undefined)).toEqual(both);
  });

  it("moves every micro of the campaigns settled, keeps the others', and loses none over many settlements", () => {
    let seed = 11;
    const random = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648), seed % n);
    let accrual: Accrual = { unsettledMicros: 0, campaigns: {} };
    let dims: CampaignDimensions = {};
    const received: Record<string, Record<string, number>> = {};
    const counted: Record<string, DayDimensionSpend> = {};
    for (let round = 0; round < 400; round++) {
      const campaign = ["a", "b", "c"][random(3)]!;
      const placement = ["search", "plp", "home"][random(3)]!;
      const device = ["mobile", "desktop", "app"][random(3)]!;
      const cost = random(15_000);
      accrual = addToAccrual(accrual, { total: cost, campaigns: { [campaign]: cost } });
      dims = addDimensions(dims, { [campaign]: { placements: { [placement]: cost }, devices: { [device]: cost } } });
      const mine = (received[campaign] ??= {});
      mine[placement] = (mine[placement] ?? 0) + cost;
      if (random(3) === 0) {
        const plan = planSettlement(accrual);
        const moved = takeDimensions(dims, Object.keys(plan.campaignCents));
        for (const [id, micros] of Object.entries(moved.taken)) counted[id] = addDayDimensions(counted[id], DAY, micros);
        // Only campaigns holding less than a cent keep micros in the accrual.
        for (const id of Object.keys(moved.left)) expect(plan.after.campaigns[id] ?? 0).toBeLessThan(10_000);
        accrual = plan.after;
        dims = moved.left;
      }
      // Counted + still accrued = received, per campaign and placement, to the micro.
      for (const [id, byPlacement] of Object.entries(received)) {
        for (const [p, micros] of Object.entries(byPlacement)) {
          expect((counted[id]?.placements[p] ?? 0) + (dims[id]?.placements[p] ?? 0)).toBe(micros);
        }
      }
    }
  });

  it("adds to the day's spend per placement and device, and starts a new day from zero", () => {
    const today = addDayDimensions(spendOn(DAY, { search: 100 }, { mobile: 100 }), DAY, { placements: { search: 50, plp: 5 }, devices: { mobile: 55 } });
    expect(today).toEqual(spendOn(DAY, { search: 150, plp: 5 }, { mobile: 155 }));
    expect(addDayDimensions(today, "2026-03-11", { placements: { plp: 7 }, devices: { app: 7 } })).toEqual(spendOn("2026-03-11", { plp: 7 }, { app: 7 }));
    expect(addDayDimensions(undefined, DAY, undefined)).toEqual(spendOn(DAY, {}, {}));
  });
});

describe("capsReachedOn: a placement's or device's spend of the day (micros) against its cap (cents)", () => {
  const caps = { pacingSearch: 100, pacingPlp: 300, pacingHub: null, pacingPdp: 0, pacingHome: null, pacingDevices: { mobile: 200, tablet: null, app: null, unknown: null } };

  it("is reached at cap x 10,000 micros exactly, not a micro before", () => {
    expect(capsReachedOn({ ...caps, todaySpendMicros: spendOn(DAY, { search: 999_999 }) }, DAY)).toBeNull();
    expect(capsReachedOn({ ...caps, todaySpendMicros: spendOn(DAY, { search: 1_000_000 }) }, DAY)).toEqual({ day: DAY, placements: ["search"], devices: [] });
    expect(capsReachedOn({ ...caps, todaySpendMicros: spendOn(DAY, { plp: 3_000_000, search: 2_000_000 }, { mobile: 2_000_000, desktop: 9e9 }) }, DAY)).toEqual({
      day: DAY,
      placements: ["search", "plp"],
      devices: ["mobile"],
    });
  });

  it("never reaches a placement or device without a cap (null, 0), nor with another day's spend", () => {
    expect(capsReachedOn({ ...caps, todaySpendMicros: spendOn(DAY, { hub: 9e9, pdp: 9e9 }, { tablet: 9e9 }) }, DAY)).toBeNull();
    expect(capsReachedOn({ ...caps, todaySpendMicros: spendOn("2026-03-09", { search: 9e9 }) }, DAY)).toBeNull();
    expect(capsReachedOn({ ...caps, pacingDevices: null }, DAY)).toBeNull();
  });

  it("follows the caps as they stand: raised above the day's spend, served again; lowered under it, stopped", () => {
    const spent = spendOn(DAY, { search: 1_500_000 }, { mobile: 1_500_000 });
    expect(capsReachedOn({ ...caps, todaySpendMicros: spent }, DAY)?.placements).toEqual(["search"]);
    expect(capsReachedOn({ ...caps, pacingSearch: 200, todaySpendMicros: spent }, DAY)).toBeNull();
    expect(capsReachedOn({ ...caps, pacingSearch: 200, pacingDevices: { ...caps.pacingDevices, mobile: 150 }, todaySpendMicros: spent }, DAY)).toEqual({
      day: DAY,
      placements: [],
      devices: ["mobile"],
    });
  });

  it("tells two records apart only by what they stop, and on which day", () => {
    const search = { day: DAY, placements: ["search" as const], devices: [] };
    expect(sameCapsReached(search, { ...search })).toBe(true);
    expect(sameCapsReached(null, undefined)).toBe(true);
    expect(sameCapsReached(null, { day: DAY, placements: [], devices: [] })).toBe(true);
    expect(sameCapsReached(search, { ...search, day: "2026-03-09" })).toBe(false);
    expect(sameCapsReached(search, { ...search, devices: ["app"] })).toBe(false);
    expect(sameCapsReached(search, null)).toBe(false);
  });

  it("lists today's spend per placement and device with a cap or a spend, for the pacing view", () => {
    const rows = dimensionPacingOn({ ...caps, todaySpendMicros: spendOn(DAY, { search: 1_000_000, home: 5 }, { desktop: 7, mobile: 1 }) }, DAY);
    expect(rows.placements).toEqual([
      { key: "search", spentMicros: 1_000_000, capCents: 100, reached: true },
      { key: "plp", spentMicros: 0, capCents: 300, reached: false },
      { key: "home", spentMicros: 5, capCents: null, reached: false },
    ]);
    // Desktop has no cap of its own (pacing per device: mobile, tablet, app, unknown).
    expect(rows.devices).toEqual([{ key: "mobile", spentMicros: 1, capCents: 200, reached: false }]);
  });
});

describe("until the next day of the retailer's time zone, 23- and 25-hour days included", () => {
  it.each<[string, string, string, boolean]>([
    // 29 March 2026 in Paris has 23 hours (02:00 CET -> 03:00 CEST): it ends at 22:00Z.
    ["the spring day, its last minute", "2026-03-29", "2026-03-29T21:59:00Z", true],
    ["the spring day's next midnight", "2026-03-29", "2026-03-29T22:00:00Z", false],
    // 25 October 2026 has 25 hours (03:00 CEST -> 02:00 CET): it ends at 23:00Z, not 22:00Z.
    ["the autumn day, an hour past a 24-hour day", "2026-10-25", "2026-10-25T22:30:00Z", true],
    ["the autumn day's next midnight", "2026-10-25", "2026-10-25T23:00:00Z", false],
  ])("%s", (_label, day, at, stands) => {
    const now = new Date(at);
    const campaign = makeCampaign({ status: "active", wallet: "w1", capsReached: { day, placements: ["search"], devices: ["mobile"] } });
    expect(capsReachedToday(campaign.capsReached, now, PARIS) !== null).toBe(stands);
    const published = publishedCampaign(campaign, { settings: SETTINGS, teamStatus: "active", timeZone: PARIS, now })!;
    expect(published.placements.includes("search")).toBe(!stands);
    expect(published.targeting.devices?.includes("mobile") ?? true).toBe(!stands);
  });

  it("counts a settlement's spend on the retailer's day it settles in", () => {
    // 23:30 on the 29th in Paris (CEST) is 21:30Z; 00:30 on the 26th of October (CET) is 23:30Z.
    expect(localDay(new Date("2026-03-29T21:30:00Z"), PARIS)).toBe("2026-03-29");
    expect(localDay(new Date("2026-10-25T23:30:00Z"), PARIS)).toBe("2026-10-26");
  });
});

describe("the ad server's copy without a capped placement or device", () => {
  const ctx = { settings: SETTINGS, teamStatus: "active" as const, timeZone: PARIS, now: FIXTURE_NOW };
  const active = (overrides: Parameters<typeof makeCampaign>[0] = {}) =>
    makeCampaign({ status: "active", wallet: "w1", placementBids: { search: 80, plp: 60 }, ...overrides });
  const capped = (placements: ("search" | "plp" | "hub" | "pdp" | "home")[], devices: ("mobile" | "tablet" | "app" | "unknown")[] = [], day = DAY) => ({
    capsReached: { day, placements, devices },
  });

  it("leaves a capped placement out of its slots, placements and bids; the others still serve", () => {
    const before = publishedCampaign(active(), ctx)!;
    expect(before.slots).toEqual({ sp: ["search", "plp", "hub"], slider: ["pdp", "home"] });
    const after = publishedCampaign(active(capped(["search"])), ctx)!;
    expect(after.slots).toEqual({ sp: ["plp", "hub"], slider: ["pdp", "home"] });
    expect(after.placements).toEqual(before.placements.filter((p) => p !== "search"));
    expect(after.placementBids).toEqual({ plp: 60 });
    expect(after.targeting.devices).toBeNull();
  });

  it("drops a slot left with no placement", () => {
    const after = publishedCampaign(active(capped(["pdp", "home"])), ctx)!;
    expect(Object.keys(after.slots)).toEqual(["sp"]);
  });

  it("targets every device but a capped one, or the campaign's own devices but it", () => {
    expect(publishedCampaign(active(capped([], ["mobile"])), ctx)!.targeting.devices).toEqual(["desktop", "tablet", "app", "unknown"]);
    expect(publishedCampaign(active({ devices: ["desktop", "mobile"], ...capped([], ["mobile", "app"]) }), ctx)!.targeting.devices).toEqual(["desktop"]);
    expect(servedDevices(["mobile"], [])).toEqual(["mobile"]);
    expect(servedDevices(null, [])).toBeNull();
  });

  it("is withdrawn when no placement or no device is left to serve", () => {
    expect(publishedCampaign(active(capped(["search", "plp", "hub", "pdp", "home"])), ctx)).toBeNull();
    expect(publishedCampaign(active({ devices: ["mobile"], ...capped([], ["mobile"]) }), ctx)).toBeNull();
  });

  it("serves everywhere again once the caps are of an earlier day", () => {
    expect(publishedCampaign(active(capped(["search"], ["mobile"], "2026-03-09")), ctx)).toEqual(publishedCampaign(active(), ctx));
  });
});

describe("what the user is told: which cap stopped what, until tomorrow", () => {
  const input = (overrides: Partial<Parameters<typeof capNotices>[0]> = {}) => ({ pacingDaily: 1_000, ...overrides });

  it("names the campaign's daily budget, or its wallet's, then each placement and device", () => {
    const own = capNotices(input({ dailyCapReached: DAY, todaySpend: { day: DAY, amount: 1_000 } }), "daily_cap_reached", FIXTURE_NOW, PARIS);
    expect(own).toEqual([{ cap: "daily", by: "campaign" }]);
    const wallets = capNotices(input({ dailyCapReached: DAY, todaySpend: { day: DAY, amount: 400 } }), "daily_cap_reached", FIXTURE_NOW, PARIS);
    expect(wallets).toEqual([{ cap: "daily", by: "wallet" }]);
    const both = capNotices(input({ capsReached: { day: DAY, placements: ["search", "home"], devices: ["app"] } }), "running", FIXTURE_NOW, PARIS);
    expect(both).toEqual<CapNotice[]>([
      { cap: "placement", placement: "search" },
      { cap: "placement", placement: "home" },
      { cap: "device", device: "app" },
    ]);
    expect(both.map((c) => capNoticeKey(c))).toEqual(["caps.placement.search", "caps.placement.home", "caps.device.app"]);
    expect(both.map((c) => capNoticeKey(c, "short"))).toEqual(["caps.short.placement.search", "caps.short.placement.home", "caps.short.device.app"]);
    expect(capNoticeKey({ cap: "daily", by: "wallet" })).toBe("caps.walletDaily");
  });

  it("says nothing of yesterday's caps, nor of caps of a campaign that does not run", () => {
    expect(capNotices(input({ dailyCapReached: "2026-03-09", capsReached: { day: "2026-03-09", placements: ["search"], devices: [] } }), "running", FIXTURE_NOW, PARIS)).toEqual([]);
    expect(capNotices(input({ capsReached: { day: DAY, placements: ["search"], devices: [] } }), "paused", FIXTURE_NOW, PARIS)).toEqual([]);
    expect(capNotices(input({ capsReached: { day: DAY, placements: ["search"], devices: [] } }), "out_of_budget", FIXTURE_NOW, PARIS)).toEqual([]);
  });
});
