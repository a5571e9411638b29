import { describe, expect, it } from "vitest";
import {
  deriveLiveStatus,
  isComplete,
  type CampaignCompletenessInput,
  type CampaignLiveInput,
  type CampaignLiveStatus,
  type CampaignWallet,
} from "~/domain/campaigns/status";

const NOW = new Date("2025-06-10T12:00:00.000Z");
const BASE: CampaignLiveInput = {
  status: "active",
  startDate: "2025-06-01T00:00:00.000Z",
  endDate: null,
  spendCents: 0,
  pacingTotalCents: null,
};
const WALLET: CampaignWallet = { status: "active", balance: 10_000 };

describe("deriveLiveStatus (spec section 4)", () => {
  it.each<[string, Partial<CampaignLiveInput>, CampaignWallet | null, CampaignLiveStatus]>([
    ["running", {}, WALLET, "running"],
    ["start in the future", { startDate: "2025-06-10T12:00:00.001Z" }, WALLET, "scheduled"],
    ["start right now", { startDate: "2025-06-10T12:00:00.000Z" }, WALLET, "running"],
    ["no start date", { startDate: null }, WALLET, "running"],
    ["end passed", { endDate: "2025-06-10T11:59:59.999Z" }, WALLET, "ended"],
    ["end right now (inclusive)", { endDate: "2025-06-10T12:00:00.000Z" }, WALLET, "running"],
    ["end later", { endDate: "2025-06-30T21:59:59.999Z" }, WALLET, "running"],
    ["scheduled wins over ended", { startDate: "2025-07-01T00:00:00Z", endDate: "2025-06-01T00:00:00Z" }, WALLET, "scheduled"],
    ["ended wins over no wallet", { endDate: "2025-06-09T00:00:00Z" }, null, "ended"],
    ["no wallet", {}, null, "insufficient_funds"],
    ["wallet balance 0", {}, { status: "active", balance: 0 }, "insufficient_funds"],
    ["wallet balance negative", {}, { status: "active", balance: -1 }, "insufficient_funds"],
    ["wallet archived", {}, { status: "archived", balance: 500 }, "insufficient_funds"],
    ["wallet disabled", {}, { status: "disabled", balance: 500 }, "insufficient_funds"],
    ["wallet test", {}, { status: "test", balance: 500 }, "running"],
    ["flag set", { insufficient_funds: true }, WALLET, "insufficient_funds"],
    ["funds win over budget", { spendCents: 99_999, pacingTotalCents: 1_000 }, null, "insufficient_funds"],
    // spend in cents, pacingTotal in currency units
    ["budget reached", { spendCents: 5_000, pacingTotalCents: 5_000 }, WALLET, "out_of_budget"],
    ["budget passed", { spendCents: 5_001, pacingTotalCents: 5_000 }, WALLET, "out_of_budget"],
    ["budget not reached", { spendCents: 4_999, pacingTotalCents: 5_000 }, WALLET, "running"],
    ["budget 0 is no budget", { spendCents: 5_000, pacingTotalCents: 0 }, WALLET, "running"],
    ["paused shown as is", { status: "paused" }, null, "paused"],
    ["draft shown as is", { status: "draft", startDate: "2030-01-01T00:00:00Z" }, WALLET, "draft"],
    ["pending_review as is", { status: "pending_review" }, WALLET, "pending_review"],
  ])("%s", (_label, patch, wallet, expected) => {
    expect(deriveLiveStatus({ ...BASE, ...patch }, wallet, NOW)).toBe(expected);
  });

  it.each<[string, string, CampaignLiveStatus]>([
    // Paris is UTC+2 in June: 2025-06-10 ends at 21:59:59.999Z.
    ["day-only end, same day in Paris", "2025-06-10", "running"],
    ["day-only end, the day before", "2025-06-09", "ended"],
  ])("%s", (_label, endDate, expected) => {
    expect(deriveLiveStatus({ ...BASE, endDate }, WALLET, NOW, "Europe/Paris")).toBe(expected);
  });

  it("day-only end read in the retailer's time zone", () => {
    const late = new Date("2025-06-10T22:30:00.000Z"); // 00:30 on the 11th in Paris, 23:30 on the 10th in London
    expect(deriveLiveStatus({ ...BASE, endDate: "2025-06-10" }, WALLET, late, "Europe/Paris")).toBe("ended");
    expect(deriveLiveStatus({ ...BASE, endDate: "2025-06-10" }, WALLET, late, "Europe/London")).toBe("running");
  });

  it("day-only start in the future is scheduled until local midnight", () => {
    const before = new Date("2025-06-10T21:59:00.000Z");
    const after = new Date("2025-06-10T22:00:00.000Z");
    expect(deriveLiveStatus({ ...BASE, startDate: "2025-06-11" }, WALLET, before, "Europe/Paris")).toBe("scheduled");
    expect(deriveLiveStatus({ ...BASE, startDate: "2025-06-11" }, WALLET, after, "Europe/Paris")).toBe("running");
  });
});

describe("isComplete: name, start date and FIXED or a bid above zero", () => {
  const C: CampaignCompletenessInput = { name: "Summer", startDate: "2025-06-01", bidStrategy: "CPC", bid: 50 };
  it.each<[string, Partial<CampaignCompletenessInput>, boolean]>([
    ["complete", {}, true],
    ["no name", { name: "" }, false],
    ["blank name", { name: "   " }, false],
    ["no start date", { startDate: null }, false],
    ["bid zero", { bid: 0 }, false],
    ["no bid", { bid: null }, false],
    ["FIXED without bid", { bidStrategy: "FIXED", bid: null }, true],
    ["FIXED without name", { bidStrategy: "FIXED", name: "" }, false],
    ["CPM bid 1 cent", { bidStrategy: "CPM", bid: 1 }, true],
  ])("%s -> %s", (_label, patch, expected) => {
    expect(isComplete({ ...C, ...patch })).toBe(expected);
  });
});
