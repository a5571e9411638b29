import { describe, expect, it } from "vitest";
import {
  aggregateFacts,
  checkEventCampaign,
  costByWallet,
  MAX_EVENT_COST_MICROS,
  MAX_EVENTS_PER_BATCH,
  newestEventTime,
  normaliseEvent,
  parseBatch,
  parseInstant,
  validateEvent,
  type AdEvent,
} from "~/domain/metrics/events";

const NOW = new Date("2026-03-10T10:00:00.000Z");
const PARIS = "Europe/Paris";

function raw(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: "click",
    time: "2026-03-10T09:15:00Z",
    team: "team-1",
    wallet: "wallet-1",
    campaign: "camp-1",
    campaignType: "sponsored-products",
    placement: "search",
    slot: "sp",
    device: "mobile",
    cost: 450_000,
    ...overrides,
  };
}

function accepted(overrides: Record<string, unknown> = {}): AdEvent {
  const checked = validateEvent(raw(overrides), NOW);
  if (!checked.ok) throw new Error(`refused: ${checked.reason}`);
  return checked.event;
}

describe("parseBatch", () => {
  it("takes a batch id and a list of 1 to 10,000 events", () => {
    expect(parseBatch({ batchId: "srv-7:000123", events: [{}] })).toEqual({ ok: true, batchId: "srv-7:000123", events: [{}] });
    expect(parseBatch({ batchId: "b".repeat(128), events: [1] }).ok).toBe(true);
    // Shapes refused event by event later (notAnObject, badValue), not the whole batch.
    expect(parseBatch({ batchId: "b1", events: [["click"], { type: "click", product: ["p1"] }] }).ok).toBe(true);
  });

  it.each<[string, unknown, string]>([
    ["not an object", [], "notABatch"],
    ["null", null, "notABatch"],
    ["no batch id", { events: [{}] }, "badBatchId"],
    ["a blank batch id", { batchId: "", events: [{}] }, "badBatchId"],
    ["a batch id with a slash", { batchId: "a/b", events: [{}] }, "badBatchId"],
    ["a batch id too long", { batchId: "b".repeat(129), events: [{}] }, "badBatchId"],
    ["a numeric batch id", { batchId: 12, events: [{}] }, "badBatchId"],
    ["events not a list", { batchId: "b1", events: {} }, "notABatch"],
    ["no events", { batchId: "b1", events: [] }, "noEvents"],
    ["too many events", { batchId: "b1", events: new Array(MAX_EVENTS_PER_BATCH + 1).fill({}) }, "tooManyEvents"],
    ["events nested in lists of lists", { batchId: "b1", events: [[[["x"]]]] }, "notABatch"],
    ["an event's field nested twice", { batchId: "b1", events: [{ type: "click", product: { a: { b: 1 } } }] }, "notABatch"],
  ])("refuses %s", (_label, body, reason) => {
    expect(parseBatch(body)).toEqual({ ok: false, reason });
  });
});

describe("parseInstant", () => {
  it.each<[string, string]>([
    ["2026-03-10T09:15:00Z", "2026-03-10T09:15:00.000Z"],
    ["2026-03-10T10:15:00+01:00", "2026-03-10T09:15:00.000Z"],
    ["2026-03-10T04:15:00.5-05:00", "2026-03-10T09:15:00.500Z"],
    ["2026-03-10T09:15:00.123456789Z", "2026-03-10T09:15:00.123Z"],
    ["2024-02-29T00:00:00Z", "2024-02-29T00:00:00.000Z"],
  ])("reads %s", (value, iso) => {
    expect(new Date(parseInstant(value)!).toISOString()).toBe(iso);
  });

  it.each(["2026-03-10", "2026-03-10T09:15:00", "2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z", "2026-03-10T24:00:00Z", "2026-13-01T00:00:00Z", "2026-03-10T09:15:00+24:00", "yesterday", "", 1_773_133_200_000, null])(
    "refuses %s",
    (value) => {
      expect(parseInstant(value)).toBeNull();
    },
  );
});

describe("validateEvent: each refused event has a reason", () => {
  it("accepts a well-formed event and normalises it", () => {
    expect(validateEvent(raw({ time: "2026-03-10T10:15:00+01:00", team: " team-1 " }), NOW)).toEqual({
      ok: true,
      event: {
        type: "click",
        time: "2026-03-10T09:15:00.000Z",
        team: "team-1",
        wallet: "wallet-1",
        campaign: "camp-1",
        campaignType: "sponsored-products",
        placement: "search",
        slot: "sp",
        device: "mobile",
        product: "",
        keyword: "",
        category: "",
        productCategory: "",
        cost: 450_000,
        quantity: 0,
        sales: 0,
      },
    });
  });

  it("counts a sale's units (1 when not given) and sales in cents; other events count none", () => {
    expect(accepted({ type: "sale", quantity: 3, sales: 2_997, cost: 0 })).toMatchObject({ quantity: 3, sales: 2_997 });
    expect(accepted({ type: "sale", cost: 0 })).toMatchObject({ quantity: 1, sales: 0 });
    expect(accepted({ type: "view", quantity: 3, sales: 2_997 })).toMatchObject({ quantity: 0, sales: 0 });
    expect(accepted({ product: "SKU-000001", keyword: "coffee beans", category: "Grocery > Coffee" })).toMatchObject({
      product: "SKU-000001",
      keyword: "coffee beans",
      category: "Grocery > Coffee",
      productCategory: "",
    });
  });

  it("accepts the edges of the time window: 5 minutes ahead, 7 days back", () => {
    expect(validateEvent(raw({ time: "2026-03-10T10:05:00Z" }), NOW).ok).toBe(true);
    expect(validateEvent(raw({ time: "2026-03-03T10:00:00Z" }), NOW).ok).toBe(true);
    expect(validateEvent(raw({ cost: 0 }), NOW).ok).toBe(true);
    expect(validateEvent(raw({ cost: MAX_EVENT_COST_MICROS }), NOW).ok).toBe(true);
  });

  it.each<[string, unknown, string, string | undefined]>([
    ["not an object", "click", "notAnObject", undefined],
    ["an unknown type", raw({ type: "impression" }), "unknownType", "type"],
    ["no type", raw({ type: undefined }), "unknownType", "type"],
    ["a bad time", raw({ time: "10/03/2026 09:15" }), "badTime", "time"],
    ["a time without zone", raw({ time: "2026-03-10T09:15:00" }), "badTime", "time"],
    ["a time over 5 minutes ahead", raw({ time: "2026-03-10T10:05:00.001Z" }), "timeInFuture", "time"],
    ["a time over 7 days old", raw({ time: "2026-03-03T09:59:59.999Z" }), "timeTooOld", "time"],
    ["no team", raw({ team: undefined }), "missingId", "team"],
    ["a blank wallet", raw({ wallet: "  " }), "missingId", "wallet"],
    ["a numeric campaign", raw({ campaign: 42 }), "missingId", "campaign"],
    ["no slot", raw({ slot: "" }), "missingId", "slot"],
    ["no device", raw({ device: undefined }), "missingId", "device"],
    ["a campaign id with a slash", raw({ campaign: "a/b" }), "badValue", "campaign"],
    ["a campaign id reserved by Firestore", raw({ campaign: "__x__" }), "badValue", "campaign"],
    ["a keyword that is not text", raw({ keyword: 12 }), "badValue", "keyword"],
    ["a category too long", raw({ category: "c".repeat(257) }), "badValue", "category"],
    ["an unknown device", raw({ device: "watch" }), "unknownDevice", "device"],
    ["an unknown placement", raw({ placement: "footer" }), "unknownPlacement", "placement"],
    ["a negative cost", raw({ cost: -1 }), "badCost", "cost"],
    ["a cost in decimals", raw({ cost: 0.45 }), "badCost", "cost"],
    ["a cost as text", raw({ cost: "450000" }), "badCost", "cost"],
    ["no cost", raw({ cost: undefined }), "badCost", "cost"],
    ["a cost above 1,000 units", raw({ cost: MAX_EVENT_COST_MICROS + 1 }), "badCost", "cost"],
    ["a quantity in decimals", raw({ type: "sale", quantity: 1.5 }), "badQuantity", "quantity"],
    ["a negative sale", raw({ type: "sale", sales: -100 }), "badSales", "sales"],
  ])("refuses %s", (_label, event, reason, field) => {
    expect(validateEvent(event, NOW)).toEqual(field ? { ok: false, reason, field } : { ok: false, reason });
  });

  it("checks an event's own rules whatever the time (a retried batch)", () => {
    expect(normaliseEvent(raw({ time: "2020-01-01T00:00:00Z" })).ok).toBe(true);
    expect(normaliseEvent(raw({ cost: -1 }))).toEqual({ ok: false, reason: "badCost", field: "cost" });
  });
});

describe("checkEventCampaign: the campaign exists and the event names its team, wallet and type", () => {
  const campaign = { team: "team-1", wallet: "wallet-1", campaignType: "sponsored-products" };
  it.each<[string, Parameters<typeof checkEventCampaign>[1], ReturnType<typeof checkEventCampaign>]>([
    ["matching", campaign, null],
    ["unknown", null, { reason: "unknownCampaign", field: "campaign" }],
    ["another team's", { ...campaign, team: "team-2" }, { reason: "campaignMismatch", field: "team" }],
    ["on another wallet", { ...campaign, wallet: "wallet-2" }, { reason: "campaignMismatch", field: "wallet" }],
    ["without wallet", { ...campaign, wallet: null }, { reason: "campaignMismatch", field: "wallet" }],
    ["of another type", { ...campaign, campaignType: "banner-ads" }, { reason: "campaignMismatch", field: "campaignType" }],
  ])("%s", (_label, stored, expected) => {
    expect(checkEventCampaign(accepted(), stored)).toEqual(expected);
  });
});

describe("aggregateFacts: by UTC hour and every dimension, days of the retailer", () => {
  it("adds events of one hour and one combination into one fact, each type into its measure", () => {
    const facts = aggregateFacts(
      [
        accepted({ type: "display", time: "2026-03-10T09:00:00Z", cost: 1_500 }),
        accepted({ type: "display", time: "2026-03-10T09:59:59.999Z", cost: 1_500 }),
        accepted({ type: "view", time: "2026-03-10T09:10:00Z", cost: 0 }),
        accepted({ type: "click", time: "2026-03-10T09:20:00Z", cost: 450_000 }),
        accepted({ type: "sale", time: "2026-03-10T09:30:00Z", cost: 0, quantity: 2, sales: 1_998 }),
      ],
      PARIS,
    );
    expect(facts).toEqual([
      {
        hour: "2026-03-10T09:00:00.000Z",
        day: "2026-03-10",
        localHour: 10,
        weekday: 1,
        team: "team-1",
        wallet: "wallet-1",
        campaign: "camp-1",
        campaignType: "sponsored-products",
        placement: "search",
        slot: "sp",
        device: "mobile",
        product: "",
        keyword: "",
        category: "",
        productCategory: "",
        displays: 2,
        views: 1,
        clicks: 1,
        costMicros: 453_000,
        quantity: 2,
        salesCents: 1_998,
      },
    ]);
  });

  it("keeps hours and dimensions apart, and cuts days where the retailer's day ends", () => {
    const facts = aggregateFacts(
      [
        accepted({ time: "2026-03-09T22:59:00Z" }),
        accepted({ time: "2026-03-09T23:01:00Z" }),
        accepted({ time: "2026-03-09T23:02:00Z", device: "desktop" }),
        accepted({ time: "2026-03-09T23:03:00Z", product: "SKU-1" }),
      ],
      PARIS,
    );
    expect(facts.map((f) => [f.hour, f.day, f.localHour, f.device, f.product, f.clicks])).toEqual([
      ["2026-03-09T22:00:00.000Z", "2026-03-09", 23, "mobile", "", 1],
      ["2026-03-09T23:00:00.000Z", "2026-03-10", 0, "desktop", "", 1],
      ["2026-03-09T23:00:00.000Z", "2026-03-10", 0, "mobile", "", 1],
      ["2026-03-09T23:00:00.000Z", "2026-03-10", 0, "mobile", "SKU-1", 1],
    ]);
  });

  it("sums cost per wallet and campaign, and per campaign's placement and device, and finds the newest event", () => {
    const events = [
      accepted({ cost: 4_000 }),
      accepted({ cost: 7_000, time: "2026-03-10T09:40:00Z", placement: "plp", device: "desktop" }),
      accepted({ cost: 5_000, campaign: "camp-2" }),
      accepted({ cost: 0, campaign: "camp-3" }),
      accepted({ cost: 1, wallet: "wallet-2", campaign: "camp-9", device: "app" }),
    ];
    expect(costByWallet(events)).toEqual({
      "wallet-1": {
        total: 16_000,
        campaigns: { "camp-1": 11_000, "camp-2": 5_000 },
        dimensions: {
          "camp-1": { placements: { search: 4_000, plp: 7_000 }, devices: { mobile: 4_000, desktop: 7_000 } },
          "camp-2": { placements: { search: 5_000 }, devices: { mobile: 5_000 } },
        },
      },
      "wallet-2": { total: 1, campaigns: { "camp-9": 1 }, dimensions: { "camp-9": { placements: { search: 1 }, devices: { app: 1 } } } },
    });
    expect(newestEventTime(events)).toBe("2026-03-10T09:40:00.000Z");
    expect(newestEventTime([])).toBeNull();
    expect(aggregateFacts([], PARIS)).toEqual([]);
  });
});
