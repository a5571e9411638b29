import { describe, expect, it } from "vitest";
import { servingStop, deriveLiveStatus, isStoppedForToday } from "~/domain/campaigns/status";
import { isServing, publishedCampaign } from "~/domain/campaigns/publication";
import { DEFAULT_RETAILER_SETTINGS as SETTINGS } from "~/domain/retailer-settings";
import {
  addDaySpend,
  addToAccrual,
  dailyCapDay,
  isSettlementDue,
  planSettlement,
  reachesDailyCap,
  spendOfDay,
  splitMicros,
  type Accrual,
} from "~/domain/wallets/settlement";
import { FIXTURE_NOW, makeCampaign, PARIS } from "./campaign-fixture";

describe("splitMicros: whole cents, the rest carried", () => {
  it.each<[number, number, number]>([
    [0, 0, 0],
    [9_999, 0, 9_999],
    [10_000, 1, 0],
    [10_001, 1, 1],
    [123_456_789, 12_345, 6_789],
  ])("%i micros = %i cents + %i", (micros, cents, carry) => {
    expect(splitMicros(micros)).toEqual({ cents, carry });
  });

  it("refuses what is not a count of micros", () => {
    for (const bad of [-1, 1.5, Number.NaN]) expect(() => splitMicros(bad)).toThrow(RangeError);
  });
});

describe("accruals and settlement plans", () => {
  it("adds a batch's cost, and is due once the wallet or a campaign holds a cent", () => {
    let accrual = addToAccrual(null, { total: 6_000, campaigns: { a: 6_000 } });
    expect(accrual).toEqual({ unsettledMicros: 6_000, campaigns: { a: 6_000 } });
    expect(isSettlementDue(accrual)).toBe(false);
    accrual = addToAccrual(accrual, { total: 6_000, campaigns: { b: 6_000 } });
    expect(accrual).toEqual({ unsettledMicros: 12_000, campaigns: { a: 6_000, b: 6_000 } });
    expect(isSettlementDue(accrual)).toBe(true);
    expect(isSettlementDue({ unsettledMicros: 7_000, campaigns: { a: 11_000 } })).toBe(true);
  });

  it("moves whole cents of the wallet and of each campaign, each carrying its own remainder", () => {
    const plan = planSettlement({ unsettledMicros: 12_000, campaigns: { a: 6_000, b: 6_000 } });
    expect(plan).toEqual({ walletCents: 1, campaignCents: {}, after: { unsettledMicros: 2_000, campaigns: { a: 6_000, b: 6_000 } } });
    const next = planSettlement(addToAccrual(plan.after, { total: 5_000, campaigns: { a: 5_000 } }));
    expect(next).toEqual({ walletCents: 0, campaignCents: { a: 1 }, after: { unsettledMicros: 7_000, campaigns: { a: 1_000, b: 6_000 } } });
  });

  it("debits exactly the events' cost to the cent over many settlements (rounding down, carrying the rest)", () => {
    // A pseudo-random run of batches and settlements: at every step, debits x 10,000 + carry =
    // micros received, for the wallet and for each campaign.
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648), seed % n);
    let accrual: Accrual = { unsettledMicros: 0, campaigns: {} };
    let received = 0;
    let debited = 0;
    const receivedBy: Record<string, number> = {};
    const spentBy: Record<string, number> = {};
    for (let round = 0; round < 500; round++) {
      const campaign = ["a", "b", "c"][random(3)]!;
      const cost = random(25_000);
      received += cost;
      receivedBy[campaign] = (receivedBy[campaign] ?? 0) + cost;
      accrual = addToAccrual(accrual, { total: cost, campaigns: { [campaign]: cost } });
      if (random(4) === 0) {
        const plan = planSettlement(accrual);
        debited += plan.walletCents;
        for (const [id, cents] of Object.entries(plan.campaignCents)) spentBy[id] = (spentBy[id] ?? 0) + cents;
        accrual = plan.after;
        expect(accrual.unsettledMicros).toBeLessThan(10_000);
      }
      expect(debited * 10_000 + accrual.unsettledMicros).toBe(received);
      for (const id of Object.keys(receivedBy)) expect((spentBy[id] ?? 0) * 10_000 + (accrual.campaigns[id] ?? 0)).toBe(receivedBy[id]);
    }
    const last = planSettlement(accrual);
    expect(debited + last.walletCents).toBe(Math.floor(received / 10_000));
  });
});

describe("today's spend and daily caps (the retailer's day)", () => {
  it("adds to the day's spend and starts a new day from zero", () => {
    expect(addDaySpend(undefined, "2026-03-10", 500)).toEqual({ day: "2026-03-10", amount: 500 });
    expect(addDaySpend({ day: "2026-03-10", amount: 500 }, "2026-03-10", 250)).toEqual({ day: "2026-03-10", amount: 750 });
    expect(addDaySpend({ day: "2026-03-09", amount: 500 }, "2026-03-10", 250)).toEqual({ day: "2026-03-10", amount: 250 });
    expect(spendOfDay({ day: "2026-03-09", amount: 500 }, "2026-03-10")).toBe(0);
  });

  it("reaches a cap when the day's spend reaches it; no cap (null, 0) is never reached", () => {
    expect(reachesDailyCap({ day: "2026-03-10", amount: 1_000 }, "2026-03-10", 1_000)).toBe(true);
    expect(reachesDailyCap({ day: "2026-03-10", amount: 999 }, "2026-03-10", 1_000)).toBe(false);
    expect(reachesDailyCap({ day: "2026-03-09", amount: 5_000 }, "2026-03-10", 1_000)).toBe(false);
    expect(reachesDailyCap({ day: "2026-03-10", amount: 5_000 }, "2026-03-10", null)).toBe(false);
    expect(reachesDailyCap({ day: "2026-03-10", amount: 5_000 }, "2026-03-10", 0)).toBe(false);
  });

  it("keeps a campaign stopped today while its daily pacing or its wallet's daily budget is reached", () => {
    const day = "2026-03-10";
    const spent = (amount: number, on = day) => ({ day: on, amount });
    expect(dailyCapDay({ todaySpend: spent(120), pacingDaily: 100 }, { todaySpend: spent(120), dailyBudget: null }, day)).toBe(day);
    expect(dailyCapDay({ todaySpend: spent(120), pacingDaily: 500 }, { todaySpend: spent(320), dailyBudget: 300 }, day)).toBe(day);
    // Raised above today's spend: serving again today.
    expect(dailyCapDay({ todaySpend: spent(120), pacingDaily: 500 }, { todaySpend: spent(320), dailyBudget: 1_000 }, day)).toBeNull();
    // Yesterday's spend reaches nothing today; no wallet, no caps.
    expect(dailyCapDay({ todaySpend: spent(120, "2026-03-09"), pacingDaily: 100 }, null, day)).toBeNull();
    expect(dailyCapDay({ pacingDaily: null }, { dailyBudget: null }, day)).toBeNull();
  });

  it("stops a campaign for the retailer's day it was reached on, not the next", () => {
    // 2026-03-10T10:00Z is 11:00 in Paris; 23:30Z is already the 11th there.
    expect(isStoppedForToday("2026-03-10", FIXTURE_NOW, PARIS)).toBe(true);
    expect(isStoppedForToday("2026-03-09", FIXTURE_NOW, PARIS)).toBe(false);
    expect(isStoppedForToday("2026-03-10", new Date("2026-03-10T23:30:00Z"), PARIS)).toBe(false);
    expect(isStoppedForToday(null, FIXTURE_NOW, PARIS)).toBe(false);
  });
});

describe("what stops a campaign from serving, and its publication", () => {
  const ctx = { settings: SETTINGS, teamStatus: "active" as const, timeZone: PARIS, now: FIXTURE_NOW };
  const active = (overrides: Parameters<typeof makeCampaign>[0] = {}) => makeCampaign({ status: "active", wallet: "w1", ...overrides });

  it.each<[string, Parameters<typeof makeCampaign>[0], ReturnType<typeof servingStop>, string]>([
    ["nothing", {}, null, "running"],
    ["its wallet's funds", { insufficient_funds: true }, "insufficient_funds", "insufficient_funds"],
    ["its total budget spent", { spend: 10_000, pacingTotal: 10_000 }, "out_of_budget", "out_of_budget"],
    ["not quite its total budget", { spend: 9_999, pacingTotal: 10_000 }, null, "running"],
    ["a daily cap reached today", { dailyCapReached: "2026-03-10" }, "daily_cap_reached", "daily_cap_reached"],
    ["a daily cap reached yesterday", { dailyCapReached: "2026-03-09" }, null, "running"],
    ["out of budget and capped: out of budget first", { spend: 10_000, pacingTotal: 10_000, dailyCapReached: "2026-03-10" }, "out_of_budget", "out_of_budget"],
  ])("%s", (_label, overrides, stop, live) => {
    const c = active(overrides);
    const input = { status: c.status, startDate: c.startDate, endDate: c.endDate, insufficient_funds: c.insufficient_funds, spendCents: c.spend, pacingTotalCents: c.pacingTotal, dailyCapReached: c.dailyCapReached };
    expect(servingStop(input, FIXTURE_NOW, PARIS)).toBe(stop);
    expect(deriveLiveStatus(input, { status: "active", balance: 1_000 }, FIXTURE_NOW, PARIS)).toBe(live);
    // A campaign that cannot serve is withdrawn from the ad server's cache.
    expect(isServing(c, ctx)).toBe(stop === null);
    expect(publishedCampaign(c, ctx) === null).toBe(stop !== null);
  });
});
