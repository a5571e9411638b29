/**
 * The campaign preview (spec section 4): the rule (retailer flag on, live status running or
 * scheduled) for every live status, and what the preview shows of a campaign (tiles in the
 * published order with the catalog's image, title and price; counted banners at their size; the
 * creative's switched-on brand, headline and text link).
 */
import { describe, expect, it } from "vitest";
import { emptyCreative } from "~/domain/campaigns/campaign";
import { previewBanners, previewCreative, previewTiles } from "~/domain/campaigns/preview";
import { CAMPAIGN_STATUSES, DERIVED_LIVE_STATUSES, canPreview, previewRefusal, type CampaignLiveStatus } from "~/domain/campaigns/status";
import { DEFAULT_RETAILER_SETTINGS } from "~/domain/retailer-settings";
import { makeCampaignData, makeProductInput } from "../factories";

const ON = { preview: true };
const OFF = { preview: false };
const LIVE_STATUSES: CampaignLiveStatus[] = [...new Set([...CAMPAIGN_STATUSES.filter((s) => s !== "active"), ...DERIVED_LIVE_STATUSES])] as CampaignLiveStatus[];

describe("canPreview", () => {
  it("allows running and scheduled campaigns while the retailer has preview on", () => {
    expect(canPreview(ON, "running")).toBe(true);
    expect(canPreview(ON, "scheduled")).toBe(true);
    expect(previewRefusal(ON, "running")).toBeNull();
  });

  it.each(LIVE_STATUSES.filter((s) => s !== "running" && s !== "scheduled"))("refuses a campaign whose live status is %s", (status) => {
    expect(canPreview(ON, status)).toBe(false);
    expect(previewRefusal(ON, status)).toBe("notLive");
  });

  it.each(LIVE_STATUSES)("refuses every campaign (%s) while the retailer has preview off", (status) => {
    expect(canPreview(OFF, status)).toBe(false);
    expect(previewRefusal(OFF, status)).toBe("previewOff");
  });

  it("is off with the spec's default settings", () => {
    expect(canPreview(DEFAULT_RETAILER_SETTINGS, "running")).toBe(false);
  });
});

const offer = (over: Partial<{ on: boolean; pos: number | null; title: string; image_link: string; availability: string }> = {}) => ({
  on: true,
  availability: "in stock",
  title: "Kept title",
  image_link: "/images/products/kept.svg",
  pos: null,
  party: "1P" as const,
  ...over,
});

describe("previewTiles", () => {
  it("shows the switched-on products in the published order, with the catalog's image, title, price and link", () => {
    const a = makeProductInput({ id: "SKU-A", title: "Coffee A", price: 499 });
    const b = makeProductInput({ id: "SKU-B", title: "Coffee B", price: 1250, link: "javascript:alert(1)" });
    const campaign = makeCampaignData({
      offers: {
        "SKU-A": offer({ pos: 2 }),
        "SKU-B": offer({ pos: 1 }),
        "SKU-OFF": offer({ on: false, pos: 3 }),
      },
    });
    const tiles = previewTiles(campaign, new Map([a, b].map((p) => [p.id, p])));
    expect(tiles.map((t) => t.id)).toEqual(["SKU-B", "SKU-A"]);
    expect(tiles[1]).toEqual({ id: "SKU-A", title: "Coffee A", image: "/images/products/SKU-A.svg", price: 499, link: "https://shop.example.com/p/SKU-A" });
    // Only http(s) links lead anywhere.
    expect(tiles[0]!.link).toBeNull();
  });

  it("falls back to the copy the campaign kept, without a price, for a product the catalog no longer has; images from other hosts are not shown", () => {
    const campaign = makeCampaignData({ offers: { "SKU-GONE": offer(), "SKU-CDN": offer({ image_link: "https://cdn.example.net/x.jpg" }) } });
    const tiles = previewTiles(campaign, new Map());
    expect(tiles.find((t) => t.id === "SKU-GONE")).toMatchObject({ title: "Kept title", image: "/images/products/kept.svg", price: null, link: null });
    expect(tiles.find((t) => t.id === "SKU-CDN")!.image).toBeNull();
    expect(previewTiles(campaign, new Map(), ["https://cdn.example.net"]).find((t) => t.id === "SKU-CDN")!.image).toBe("https://cdn.example.net/x.jpg");
  });

  it("is empty without products switched on", () => {
    expect(previewTiles(makeCampaignData({ offers: { X: offer({ on: false }) } }), new Map())).toEqual([]);
  });
});

describe("previewBanners", () => {
  const banner = (image: string | null, href_link: string) => ({ image, href_link });

  it("shows the banners that count, at their slot's size, with their link", () => {
    const campaign = makeCampaignData({
      input: { campaignType: "banner-ads" },
      banners: {
        "1560x260": banner("campaign/c1/banner-1560x260.png", "https://shop.example.com/acme"),
        "345x140": banner(null, "https://shop.example.com/acme"),
        "345x90": banner("campaign/c1/banner-345x90.png", ""),
      },
    });
    expect(previewBanners(campaign, DEFAULT_RETAILER_SETTINGS)).toEqual([
      { slot: "1560x260", width: 1560, height: 260, image: "campaign/c1/banner-1560x260.png", link: "https://shop.example.com/acme" },
    ]);
  });

  it("shows none for a slot switched off, nor on a sponsored-products campaign", () => {
    const banners = { "1560x260": banner("campaign/c1/b.png", "https://shop.example.com/acme") };
    expect(previewBanners(makeCampaignData({ input: { campaignType: "banner-ads" }, banners, slotsOff: ["1560x260"] }), DEFAULT_RETAILER_SETTINGS)).toEqual([]);
    expect(previewBanners(makeCampaignData({ banners }), DEFAULT_RETAILER_SETTINGS)).toEqual([]);
  });
});

describe("previewCreative", () => {
  it("shows the switched-on brand, headline and text link only", () => {
    const creative = { ...emptyCreative(), elements: ["headline", "link"], brand: "Acme", headline: "New roast", text_link: "Shop now", href_link: "https://shop.example.com/acme" };
    expect(previewCreative(creative)).toEqual({ brand: null, brandImage: null, headline: "New roast", textLink: "Shop now", href: "https://shop.example.com/acme" });
  });

  it("is null when none of them is switched on", () => {
    expect(previewCreative(emptyCreative())).toBeNull();
    expect(previewCreative({ ...emptyCreative(), elements: ["background"], background_image: "x.png", headline: "Hidden" })).toBeNull();
  });
});
