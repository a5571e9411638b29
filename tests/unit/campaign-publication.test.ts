import { describe, expect, it } from "vitest";
import { emptyCreative, type Campaign, type CampaignCreative, type CampaignOffer } from "~/domain/campaigns/campaign";
import {
  computedSlots,
  countedBanners,
  creativeMissingParts,
  isPublishable,
  publishedCampaign,
  publishedCreative,
  publishedPlacements,
  publishedProductIds,
} from "~/domain/campaigns/publication";
import { fullDayparting } from "~/domain/campaigns/dayparting";
import { DEFAULT_RETAILER_SETTINGS as SETTINGS } from "~/domain/retailer-settings";
import type { TeamStatus } from "~/domain/types";
import { FIXTURE_NOW, makeCampaign, PARIS } from "./campaign-fixture";

const offer = (o: Partial<CampaignOffer> = {}): CampaignOffer => ({
  on: true,
  availability: "in stock",
  title: "P",
  image_link: "",
  pos: null,
  party: "1P",
  ...o,
});

describe("isPublishable: active, with a wallet and a team, the team active", () => {
  it.each<[string, Partial<Campaign>, TeamStatus | null, boolean]>([
    ["active, wallet, team active", { status: "active", wallet: "w1" }, "active", true],
    ["no wallet", { status: "active", wallet: null }, "active", false],
    ["no team", { status: "active", wallet: "w1", team: "" }, "active", false],
    ["team suspended", { status: "active", wallet: "w1" }, "suspended", false],
    ["team archived", { status: "active", wallet: "w1" }, "archived", false],
    ["team gone", { status: "active", wallet: "w1" }, null, false],
    ["paused", { status: "paused", wallet: "w1" }, "active", false],
    ["draft", { status: "draft", wallet: "w1" }, "active", false],
    ["pending_review", { status: "pending_review", wallet: "w1" }, "active", false],
    ["archived", { status: "archived", wallet: "w1" }, "active", false],
  ])("%s", (_label, overrides, teamStatus, expected) => {
    const c = makeCampaign(overrides);
    expect(isPublishable(c, teamStatus)).toBe(expected);
    expect(publishedCampaign(c, { settings: SETTINGS, teamStatus, timeZone: PARIS, now: FIXTURE_NOW }) !== null).toBe(expected);
  });
});

describe("computedSlots: chosen slots not off, mapped to the campaign's placements", () => {
  it.each<[string, Partial<Campaign>, Record<string, string[]>]>([
    ["every slot and placement", {}, { sp: ["search", "plp", "hub"], slider: ["pdp", "home"] }],
    ["slider switched off", { slotsOff: ["slider"] }, { sp: ["search", "plp", "hub"] }],
    ["slider not chosen", { slots: ["sp"] }, { sp: ["search", "plp", "hub"] }],
    ["placements narrow the slots", { placements: ["search", "pdp"] }, { sp: ["search"], slider: ["pdp"] }],
    ["a slot left without placement is dropped", { placements: ["home"] }, { slider: ["home"] }],
    ["a slot the type does not know is ignored", { slots: ["sp", "670x980", "bogus"] }, { sp: ["search", "plp", "hub"] }],
    ["nothing chosen", { slots: [] }, {}],
  ])("%s", (_label, overrides, expected) => {
    expect(computedSlots(makeCampaign(overrides), SETTINGS)).toEqual(expected);
  });

  it("publishes the placements the slots serve, in the canonical order", () => {
    expect(publishedPlacements({ slider: ["home", "pdp"], sp: ["plp"] })).toEqual(["plp", "pdp", "home"]);
    expect(publishedPlacements({})).toEqual([]);
  });
});

describe("countedBanners: banner-ads, slot chosen, image and link present", () => {
  const banners = {
    "670x980": { image: "banners/a.png", href_link: "https://shop.example/a" },
    "1560x260": { image: "banners/b.png", href_link: "  " },
    "345x140": { image: null, href_link: "https://shop.example/c" },
    "345x90": { image: "banners/d.png", href_link: "https://shop.example/d" },
  };
  it.each<[string, Partial<Campaign>, string[]]>([
    ["complete banners of chosen slots", {}, ["670x980", "345x90"]],
    ["a banner of a slot switched off", { slotsOff: ["345x90"] }, ["670x980"]],
    ["a banner of a slot left without placement", { placements: ["home", "search"] }, ["670x980"]],
    ["a banner of a slot not chosen", { slots: ["345x90"] }, ["345x90"]],
  ])("%s", (_label, overrides, expected) => {
    const c = makeCampaign({ banners, ...overrides }, "banner-ads");
    expect(Object.keys(countedBanners(c, SETTINGS))).toEqual(expected);
  });

  it("counts none for sponsored products", () => {
    expect(countedBanners(makeCampaign({ banners, slots: ["sp", "670x980"] }), SETTINGS)).toEqual({});
  });
});

describe("the creative: only enabled elements, null when none", () => {
  const full: CampaignCreative = {
    ...emptyCreative(),
    brand: "Acme",
    brand_image: "c/brand.png",
    background_image: "c/bg.png",
    video_file: "c/v.mp4",
    video_thumb: "c/v.jpg",
    video_in_loop: true,
    auto_slide: true,
    aspect_ratio: "9:16",
    headline: "New range",
    text_link: "Shop now",
    href_link: "https://shop.example/acme",
  };
  it.each<[string, string[], Record<string, unknown> | null]>([
    ["no element", [], null],
    ["unknown elements only", ["sd-gif"], null],
    ["video", ["video"], { elements: ["video"], href_link: full.href_link, auto_slide: true, video_file: "c/v.mp4", video_thumb: "c/v.jpg", video_in_loop: true, aspect_ratio: "9:16" }],
    ["brand and headline, canonical order", ["headline", "brand", "headline"], { elements: ["brand", "headline"], href_link: full.href_link, auto_slide: true, brand: "Acme", brand_image: "c/brand.png", headline: "New range" }],
  ])("%s", (_label, elements, expected) => {
    expect(publishedCreative({ ...full, elements })).toEqual(expected);
  });

  it.each<[string, Partial<CampaignCreative>, string[]]>([
    ["nothing enabled needs nothing", { elements: [], href_link: "" }, []],
    ["complete video", { elements: ["video"] }, []],
    ["video without poster", { elements: ["video"], video_thumb: null }, ["video_thumb"]],
    ["brand without image nor link", { elements: ["brand"], brand_image: null, href_link: " " }, ["href_link", "brand_image"]],
    ["link without its text", { elements: ["link"], text_link: "" }, ["text_link"]],
  ])("missing parts: %s", (_label, change, expected) => {
    expect(creativeMissingParts({ ...full, ...change })).toEqual(expected);
  });
});

describe("publishedCampaign", () => {
  const active = (overrides: Partial<Campaign> = {}) =>
    makeCampaign({
      status: "active",
      wallet: "w1",
      bid: 120,
      placementBids: { search: 150, pdp: 200, home: 0 },
      slotsOff: ["slider"],
      offers: {
        a: offer({ availability: "out of stock" }),
        b: offer({ on: false }),
        c: offer({ availability: "in stock" }),
        d: offer({ pos: 1, availability: "preorder" }),
      },
      productIds: ["a", "c", "d"],
      devices: ["mobile", "tablet"],
      pacingTotal: 100_000,
      pacingDaily: 5_000,
      pacingSearch: 0,
      pacingDevices: { mobile: 1_000, tablet: null, app: null, unknown: null },
      ...overrides,
    });
  const ctx = { settings: SETTINGS, teamStatus: "active" as const, timeZone: PARIS, now: FIXTURE_NOW };

  it("computes slots, bids in cents, targeting and products", () => {
    const p = publishedCampaign(active(), ctx)!;
    expect(p).toMatchObject({
      campaignId: "camp-1",
      team: "team-1",
      wallet: "w1",
      campaignType: "sponsored-products",
      bidStrategy: "CPC",
      bid: 120,
      slots: { sp: ["search", "plp", "hub"] },
      placements: ["search", "plp", "hub"],
      // pdp is not served once slider is off; 0 is no bid.
      placementBids: { search: 150 },
      productIds: ["d", "c", "a"],
      creative: null,
      banners: {},
      targeting: { devices: ["mobile", "tablet"], dayparting: null, capping: { enabled: true, type: "views", max: 5 }, timeZone: PARIS },
      // Written in UTC whatever offset the stored instant has.
      startDate: "2026-02-28T23:00:00.000Z",
      endDate: null,
      published: FIXTURE_NOW.toISOString(),
    });
    expect(p.pacing).toEqual({
      pacingTotal: 100_000,
      pacingDaily: 5_000,
      pacingSearch: null,
      pacingPlp: null,
      pacingHub: null,
      pacingPdp: null,
      pacingHome: null,
      pacingMobile: 1_000,
      pacingTablet: null,
      pacingApp: null,
      pacingUnknown: null,
    });
  });

  it("is the same for the same campaign (idempotent)", () => {
    expect(publishedCampaign(active(), ctx)).toEqual(publishedCampaign(structuredClone(active()), ctx));
  });

  it.each<[string, Partial<Campaign>, Record<string, unknown>]>([
    ["a grid with every hour is no restriction", { dayparting: fullDayparting() }, { dayparting: null }],
    [
      "a restricted grid is kept",
      { dayparting: { ...fullDayparting(), sun: [] } },
      { dayparting: { ...fullDayparting(), sun: [] } },
    ],
    ["all 4 devices is no filter", { devices: ["desktop", "mobile", "tablet", "unknown"] }, { devices: null }],
  ])("targeting: %s", (_label, overrides, expected) => {
    expect(publishedCampaign(active(overrides), ctx)!.targeting).toMatchObject(expected);
  });

  it("publishes only counted banners of a banner-ads campaign", () => {
    const c = makeCampaign(
      {
        status: "active",
        wallet: "w1",
        banners: {
          "670x980": { image: "b/a.png", href_link: "https://x.example/a" },
          "1560x260": { image: "b/b.png", href_link: "" },
        },
      },
      "banner-ads",
    );
    const p = publishedCampaign(c, ctx)!;
    expect(p.banners).toEqual({ "670x980": { image: "b/a.png", href_link: "https://x.example/a" } });
    expect(p.slots).toEqual({ "670x980": ["search", "plp"], "1560x260": ["home", "plp"], "345x140": ["home"], "345x90": ["plp"] });
  });

  it("sorts switched-on products by position then availability", () => {
    expect(
      publishedProductIds({
        x: offer({ availability: "not found" }),
        y: offer({ availability: "in store" }),
        z: offer({ pos: 2, availability: "out of stock" }),
        w: offer({ pos: 1, availability: "out of stock" }),
        off: offer({ on: false, pos: 0 }),
      }),
    ).toEqual(["w", "z", "y", "x"]);
  });
});
