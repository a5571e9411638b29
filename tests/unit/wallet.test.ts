import { describe, expect, it } from "vitest";
import type { WalletData } from "~/domain/types";
import {
  computeRunway,
  deriveWalletLiveStatus,
  isRecentlyUpdated,
  RECENTLY_UPDATED_MS,
  runwayPendingUntil,
  spentShare,
  type WalletLiveStatus,
} from "~/domain/wallets/wallet";

const PARIS = "Europe/Paris";

/** Every case runs at this instant. */
const NOW = new Date("2025-06-10T12:00:00.000Z");
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

describe("deriveWalletLiveStatus: insufficient_funds when active and the balance is 0 or less", () => {
  it.each<[WalletData["status"], number, WalletLiveStatus]>([
    ["active", 10_000, "active"],
    ["active", 1, "active"],
    ["active", 0, "insufficient_funds"],
    ["active", -250, "insufficient_funds"],
    ["test", 0, "test"],
    ["test", 500, "test"],
    ["disabled", -1, "disabled"],
    ["disabled", 500, "disabled"],
    ["archived", 0, "archived"],
    ["archived", 500, "archived"],
  ])("%s with a balance of %i -> %s", (status, balance, expected) => {
    expect(deriveWalletLiveStatus({ status, balance })).toBe(expected);
  });
});

describe("isRecentlyUpdated: the balance changed within 2 days", () => {
  it("spans exactly 2 days", () => {
    expect(RECENTLY_UPDATED_MS).toBe(2 * DAY);
  });

  it.each<[string, string | null, boolean]>([
    ["never updated", null, false],
    ["just now", NOW.toISOString(), true],
    ["a minute ago", ago(60_000), true],
    ["yesterday", ago(DAY), true],
    ["exactly 2 days ago", ago(2 * DAY), true],
    ["2 days and 1 ms ago", ago(2 * DAY + 1), false],
    ["3 days ago", ago(3 * DAY), false],
    ["a year ago", ago(365 * DAY), false],
  ])("%s -> %s", (_, balanceUpdated, expected) => {
    expect(isRecentlyUpdated({ balanceUpdated }, NOW)).toBe(expected);
  });
});

describe("computeRunway: average daily ad spend since the first spend, days to go and end date", () => {
  type RunwayWallet = Pick<WalletData, "spend" | "balance" | "dailyBudget" | "firstSpendAt">;
  const wallet = (overrides: Partial<RunwayWallet>): RunwayWallet => ({
    spend: 10_000,
    balance: 50_000,
    dailyBudget: null,
    firstSpendAt: ago(10 * DAY),
    ...overrides,
  });

  it.each<[string, Partial<RunwayWallet>, { averageDailySpendCents: number; dailyRateCents: number; daysToGo: number; shouldEndBy: string }]>([
    // 10 000 over 10 days = 1 000 a day; 50 000 lasts 50 days.
    ["no daily budget: the average", {}, { averageDailySpendCents: 1_000, dailyRateCents: 1_000, daysToGo: 50, shouldEndBy: "2025-07-30" }],
    ["a daily budget above the average: the average", { dailyBudget: 5_000 }, { averageDailySpendCents: 1_000, dailyRateCents: 1_000, daysToGo: 50, shouldEndBy: "2025-07-30" }],
    ["a daily budget below the average: the budget", { dailyBudget: 500 }, { averageDailySpendCents: 1_000, dailyRateCents: 500, daysToGo: 100, shouldEndBy: "2025-09-18" }],
    ["a daily budget of 0 counts as none", { dailyBudget: 0 }, { averageDailySpendCents: 1_000, dailyRateCents: 1_000, daysToGo: 50, shouldEndBy: "2025-07-30" }],
    ["days to go are whole days, rounded down", { balance: 2_999 }, { averageDailySpendCents: 1_000, dailyRateCents: 1_000, daysToGo: 2, shouldEndBy: "2025-06-12" }],
    ["an empty wallet ends today", { balance: 0 }, { averageDailySpendCents: 1_000, dailyRateCents: 1_000, daysToGo: 0, shouldEndBy: "2025-06-10" }],
    ["an overdrawn wallet ends today", { balance: -700 }, { averageDailySpendCents: 1_000, dailyRateCents: 1_000, daysToGo: 0, shouldEndBy: "2025-06-10" }],
    ["a full day after the first spend: one day", { firstSpendAt: ago(DAY), spend: 3_000, balance: 9_000 }, { averageDailySpendCents: 3_000, dailyRateCents: 3_000, daysToGo: 3, shouldEndBy: "2025-06-13" }],
    ["partial days are not counted", { firstSpendAt: ago(2 * DAY - 1), spend: 3_000, balance: 9_000 }, { averageDailySpendCents: 3_000, dailyRateCents: 3_000, daysToGo: 3, shouldEndBy: "2025-06-13" }],
    ["the shown average is rounded to the cent", { firstSpendAt: ago(3 * DAY), spend: 1_000, balance: 1_000 }, { averageDailySpendCents: 333, dailyRateCents: 333, daysToGo: 3, shouldEndBy: "2025-06-13" }],
  ])("%s", (_, overrides, expected) => {
    expect(computeRunway(wallet(overrides), NOW, PARIS)).toEqual(expected);
  });

  it.each<[string, Partial<RunwayWallet>]>([
    ["before a first debit", { firstSpendAt: null, spend: 0 }],
    ["a first spend time but nothing spent", { spend: 0 }],
    // ADR 44: a few minutes of spend counted as a day's would project years.
    ["before a full day of spend", { firstSpendAt: ago(DAY - 1), spend: 3_000, balance: 9_000 }],
    ["a first spend a few minutes ago", { firstSpendAt: ago(5 * 60_000), spend: 66, balance: 1_000_000 }],
    ["a first spend ahead of this clock", { firstSpendAt: new Date(NOW.getTime() + HOUR).toISOString(), spend: 3_000 }],
    ["an unreadable first spend time", { firstSpendAt: "not a time" }],
  ])("shows nothing %s", (_, overrides) => {
    expect(computeRunway(wallet(overrides), NOW, PARIS)).toBeNull();
  });

  it("on a wallet's first day of spend, says when its runway shows: a full day after the first spend (ADR 44)", () => {
    // 0.66 spent in the first 5 minutes of a 10,000.00 wallet: no "15,150 days to go", but from tomorrow at this time.
    expect(runwayPendingUntil(wallet({ firstSpendAt: ago(5 * 60_000), spend: 66 }), NOW)).toBe("2025-06-11T11:55:00.000Z");
    expect(runwayPendingUntil(wallet({ firstSpendAt: ago(DAY - 1), spend: 66 }), NOW)).toBe("2025-06-10T12:00:00.001Z");
    // Projected once the day is full; nothing to wait for without ad spend.
    expect(runwayPendingUntil(wallet({ firstSpendAt: ago(DAY), spend: 66 }), NOW)).toBeNull();
    expect(computeRunway(wallet({ firstSpendAt: ago(DAY), spend: 66, balance: 1_000_000 }), NOW, PARIS)?.daysToGo).toBe(15_151);
    expect(runwayPendingUntil(wallet({ firstSpendAt: null, spend: 0 }), NOW)).toBeNull();
    expect(runwayPendingUntil(wallet({ spend: 0 }), NOW)).toBeNull();
  });

  it("counts from today in the retailer's days: at 00:30 in Paris, today is Paris's day, not UTC's", () => {
    // 2025-06-10T22:30Z is 00:30 on 11 June in Paris (summer time); UTC still says 10 June.
    const halfPastMidnight = new Date("2025-06-10T22:30:00.000Z");
    expect(computeRunway(wallet({ firstSpendAt: "2025-06-09T22:30:00.000Z", spend: 1_000, balance: 1_000 }), halfPastMidnight, PARIS)).toEqual({
      averageDailySpendCents: 1_000,
      dailyRateCents: 1_000,
      daysToGo: 1,
      shouldEndBy: "2025-06-12",
    });
    // Nothing left: the balance runs out today, Paris's today.
    expect(computeRunway(wallet({ firstSpendAt: "2025-06-09T22:30:00.000Z", spend: 1_000, balance: 0 }), halfPastMidnight, PARIS)?.shouldEndBy).toBe("2025-06-11");
    // In winter too (00:30 in Paris is 23:30 UTC the day before).
    expect(computeRunway(wallet({ firstSpendAt: "2025-01-14T23:30:00.000Z", spend: 1_000, balance: 0 }), new Date("2025-01-15T23:30:00.000Z"), PARIS)?.shouldEndBy).toBe("2025-01-16");
  });

  it("counts ad spend only: no runway from a reversed credit or a manual debit (ADR 41)", () => {
    // Credit 400, reverse it, credit 40: the ledger's debit is 400, the ad spend 0.
    expect(computeRunway({ spend: 0, firstSpendAt: null, balance: 4_000, dailyBudget: null }, NOW, PARIS)).toBeNull();
  });
});

describe("spentShare: ad spend versus funding, between 0 and 1", () => {
  it.each<[number, number, number]>([
    [10_000, 0, 0],
    [10_000, 2_500, 0.25],
    [10_000, 10_000, 1],
    [10_000, 15_000, 1],
    [0, 0, 0],
    [0, 5, 1],
    [-100, 0, 0],
  ])("funded %i, spend %i -> %d", (funded, spend, expected) => {
    expect(spentShare({ funded, spend })).toBe(expected);
  });
});
