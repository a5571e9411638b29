import { describe, expect, it } from "vitest";
import { dayEdge, dayOfInstant, duplicateCampaignData, newCampaignData, todayMidnight } from "~/domain/campaigns/campaign";
import { DEFAULT_RETAILER_SETTINGS } from "~/domain/retailer-settings";

const team = { id: "t1", name: "Acme Brand", account_type: "brand" as const };
const seller = { id: "t2", name: "Seller", account_type: "marketplace_seller" as const };

describe("dayEdge and todayMidnight", () => {
  it.each([
    ["2026-03-01", "start", "2026-02-28T23:00:00.000Z"],
    ["2026-03-01", "end", "2026-03-01T22:59:59.999Z"],
    ["2026-07-14", "start", "2026-07-13T22:00:00.000Z"],
    ["2026-03-29", "end", "2026-03-29T21:59:59.999Z"],
  ] as const)("%s %s in Paris is %s, in UTC", (day, edge, expected) => {
    expect(dayEdge(day, "Europe/Paris", edge)).toBe(expected);
  });

  it("starts today at midnight in the retailer's time zone", () => {
    expect(todayMidnight(new Date("2026-11-22T23:30:00Z"), "Europe/Paris")).toBe("2026-11-22T23:00:00.000Z");
    expect(todayMidnight(new Date("2026-11-22T22:30:00Z"), "Europe/Paris")).toBe("2026-11-21T23:00:00.000Z");
  });

  it("reads the day of an instant back in the time zone", () => {
    expect(dayOfInstant("2026-02-28T23:00:00.000Z", "Europe/Paris")).toBe("2026-03-01");
    expect(dayOfInstant(null, "Europe/Paris")).toBe("");
  });
});

describe("newCampaignData", () => {
  const now = new Date("2026-11-22T10:00:00Z");
  it("is a draft with the spec's defaults", () => {
    const c = newCampaignData({ name: "  Winter  ", team }, DEFAULT_RETAILER_SETTINGS, "a@b.c", now, "Europe/Paris");
    expect(c).toMatchObject({
      name: "Winter",
      status: "draft",
      campaignType: "sponsored-products",
      bidStrategy: "CPC",
      devices: null,
      capping: { enabled: true, type: "views", max: 5 },
      startDate: "2026-11-21T23:00:00.000Z",
      endDate: null,
      by: "a@b.c",
      wallet: null,
    });
    expect(c.searchTokens).toContain("win");
  });

  it("uses CPM for banner ads and CPC for marketplace sellers", () => {
    expect(newCampaignData({ name: "B", team, campaignType: "banner-ads" }, DEFAULT_RETAILER_SETTINGS, "x", now, "Europe/Paris").bidStrategy).toBe("CPM");
    expect(newCampaignData({ name: "S", team: seller }, DEFAULT_RETAILER_SETTINGS, "x", now, "Europe/Paris").bidStrategy).toBe("CPC");
  });

  it("takes the typed days in the retailer's time zone, the end inclusive", () => {
    const c = newCampaignData({ name: "D", team, startDay: "2026-12-01", endDay: "2026-12-31" }, DEFAULT_RETAILER_SETTINGS, "x", now, "Europe/Paris");
    expect(c.startDate).toBe("2026-11-30T23:00:00.000Z");
    expect(c.endDate).toBe("2026-12-31T22:59:59.999Z");
  });
});

describe("newCampaignData, quick", () => {
  it("marks a quick builder's draft quick, and any other draft not", () => {
    const now = new Date("2026-11-22T10:00:00Z");
    expect(newCampaignData({ name: "Q", team, quick: true }, DEFAULT_RETAILER_SETTINGS, "x", now, "Europe/Paris").quick).toBe(true);
    expect(newCampaignData({ name: "F", team }, DEFAULT_RETAILER_SETTINGS, "x", now, "Europe/Paris").quick).toBe(false);
  });
});

describe("duplicateCampaignData", () => {
  it("is a new draft copy without spend or review, pointing to its source", () => {
    const now = new Date("2026-11-22T10:00:00Z");
    const source = {
      ...newCampaignData({ name: "Src", team }, DEFAULT_RETAILER_SETTINGS, "x", now, "Europe/Paris"),
      status: "active" as const,
      spend: 1234,
      review: { approved: true, rejectionReason: null, by: "r", date: "d" },
      atmSkus: ["SKU-000001", "SKU-000002"],
      id: "c1",
      version: 7,
    };
    const copy = duplicateCampaignData(source, "Src (copy)", "me@x.y", now);
    expect(copy).toMatchObject({ name: "Src (copy)", status: "draft", spend: 0, review: null, sourceId: "c1", by: "me@x.y" });
    // The spec's atmSkus (no behaviour yet) goes with the copy.
    expect(copy.atmSkus).toEqual(["SKU-000001", "SKU-000002"]);
    expect(copy).not.toHaveProperty("id");
    expect(copy).not.toHaveProperty("version");
  });
});
