/**
 * The Banners and creative section's schemas (app/forms/campaign-creative.ts) and its domain
 * helpers (app/domain/campaign-creative.ts): which banner slots are offered, why a banner counts
 * or not (the same answer as the publication's countedBanners), links and uploads.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { emptyCreative } from "~/domain/campaigns/campaign";
import { bannerStatus, isHttpUrl, supportedBannerSlots, unsupportedBanners } from "~/domain/campaigns/creative";
import { countedBanners } from "~/domain/campaigns/publication";
import { MAX_IMAGE_BYTES } from "~/domain/media";
import { DEFAULT_RETAILER_SETTINGS, type RetailerSettings } from "~/domain/retailer-settings";
import {
  bannerFields,
  bannerInputs,
  makeUpdateBannersSchema,
  RemoveBannerSchema,
  removeBannerIntent,
  updateBannersIntent,
  UpdateCreativeSchema,
  updateCreativeIntent,
} from "~/forms/campaigns/creative";

const settings = DEFAULT_RETAILER_SETTINGS;
const SLOTS = ["670x980", "1560x260", "345x140", "345x90"];

function form(entries: [string, string | File][]): FormData {
  const data = new FormData();
  for (const [k, v] of entries) data.append(k, v);
  return data;
}

describe("banner slots", () => {
  it("offers banner-ads campaigns the type's slots that are banner sizes, none to sponsored products", () => {
    expect(supportedBannerSlots(settings, "banner-ads").map((s) => s.slot)).toEqual(SLOTS);
    expect(supportedBannerSlots(settings, "banner-ads")[0]).toEqual({ slot: "670x980", placements: ["search", "plp"] });
    expect(supportedBannerSlots(settings, "sponsored-products")).toEqual([]);
    const withoutSize: RetailerSettings = { ...settings, bannerSizes: { "670x980": ["search", "plp"] } };
    expect(supportedBannerSlots(withoutSize, "banner-ads").map((s) => s.slot)).toEqual(["670x980"]);
  });

  it("lists stored banners of slots no longer supported", () => {
    const banners = {
      "670x980": { image: "campaigns/c1/banner-a.png", href_link: "https://shop.example/a" },
      "300x250": { image: "campaigns/c1/banner-b.png", href_link: "" },
      "728x90": { image: null, href_link: "" },
    };
    expect(unsupportedBanners({ campaignType: "banner-ads", banners }, settings)).toEqual(["300x250"]);
    expect(unsupportedBanners({ campaignType: "sponsored-products", banners }, settings)).toEqual(["670x980", "300x250"]);
  });

  it("counts a banner only when its slot is chosen and both image and link are present, like the publication", () => {
    const campaign = {
      campaignType: "banner-ads" as const,
      slots: ["670x980", "1560x260", "345x140"],
      slotsOff: ["345x140"],
      placements: ["home", "search", "plp"] as ("home" | "search" | "plp")[],
      banners: {
        "670x980": { image: "campaigns/c1/a.png", href_link: "https://shop.example" },
        "1560x260": { image: "campaigns/c1/b.png", href_link: "  " },
        "345x140": { image: "campaigns/c1/c.png", href_link: "https://shop.example" },
        "345x90": { image: "campaigns/c1/d.png", href_link: "https://shop.example" },
      },
    };
    expect(bannerStatus(campaign, "670x980", settings)).toEqual({ counted: true, gaps: [] });
    expect(bannerStatus(campaign, "1560x260", settings)).toEqual({ counted: false, gaps: ["linkMissing"] });
    expect(bannerStatus(campaign, "345x140", settings)).toEqual({ counted: false, gaps: ["slotOff"] });
    expect(bannerStatus(campaign, "345x90", settings)).toEqual({ counted: false, gaps: ["slotOff"] });
    expect(bannerStatus({ ...campaign, banners: {} }, "670x980", settings)).toEqual({ counted: false, gaps: ["imageMissing", "linkMissing"] });
    const counted = Object.keys(countedBanners(campaign, settings));
    expect(SLOTS.filter((s) => bannerStatus(campaign, s, settings).counted)).toEqual(counted);
  });

  it("accepts absolute http(s) links only", () => {
    expect(isHttpUrl("https://shop.example/brand?x=1")).toBe(true);
    expect(isHttpUrl("http://shop.example")).toBe(true);
    expect(isHttpUrl("javascript:alert(1)")).toBe(false);
    expect(isHttpUrl("shop.example")).toBe(false);
    expect(isHttpUrl("https://")).toBe(false);
  });
});

describe("the banners form", () => {
  const schema = makeUpdateBannersSchema(SLOTS);
  const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "b.png", { type: "image/png" });

  it("reads a link, an image and a removal per slot", () => {
    const f = bannerFields("670x980");
    const submission = parseWithZod(
      form([
        ["intent", updateBannersIntent],
        ["version", "2"],
        [f.link, " https://shop.example/a "],
        [f.image, png],
        [bannerFields("1560x260").remove, "on"],
      ]),
      { schema },
    );
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    const inputs = bannerInputs(submission.value as Record<string, unknown>, SLOTS);
    expect(inputs[0]).toMatchObject({ slot: "670x980", link: "https://shop.example/a", remove: false });
    expect(inputs[0]!.image).toBeInstanceOf(File);
    expect(inputs[1]).toEqual({ slot: "1560x260", image: undefined, link: "", remove: true });
    expect(inputs[3]).toEqual({ slot: "345x90", image: undefined, link: "", remove: false });
  });

  it("refuses a link that is not an http(s) address, and an image over 5 MB", () => {
    const f = bannerFields("345x90");
    const big = new File([new Uint8Array(MAX_IMAGE_BYTES + 1)], "big.png", { type: "image/png" });
    const submission = parseWithZod(
      form([
        ["intent", updateBannersIntent],
        ["version", "2"],
        [f.link, "javascript:alert(1)"],
        [f.image, big],
      ]),
      { schema },
    );
    expect(submission.status).toBe("error");
    if (submission.status !== "error") return;
    expect(submission.error?.[f.link]).toEqual(["campaignTargeting:errors.linkInvalid"]);
    expect(submission.error?.[f.image]).toEqual(["campaignTargeting:errors.imageTooLarge"]);
  });

  it("removes one stored banner by its slot", () => {
    const ok = parseWithZod(form([["intent", removeBannerIntent], ["version", "4"], ["slot", "300x250"]]), { schema: RemoveBannerSchema });
    expect(ok.status === "success" && ok.value).toEqual({ intent: removeBannerIntent, version: 4, slot: "300x250" });
    expect(parseWithZod(form([["intent", removeBannerIntent], ["version", "4"]]), { schema: RemoveBannerSchema }).status).toBe("error");
  });
});

describe("the creative form", () => {
  const entries = (extra: [string, string | File][] = []): [string, string | File][] => [
    ["intent", updateCreativeIntent],
    ["version", "5"],
    ["elements", "brand"],
    ["elements", "video"],
    ["brand", " Acme "],
    ["aspectRatio", "9:16"],
    ["videoInLoop", "on"],
    ["headline", "Spring sale"],
    ["textLink", "Shop now"],
    ["hrefLink", "https://shop.example/acme"],
    ...extra,
  ];

  it("reads the elements, texts, options and the aspect ratio", () => {
    const submission = parseWithZod(form(entries()), { schema: UpdateCreativeSchema });
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    expect(submission.value).toMatchObject({
      elements: ["brand", "video"],
      brand: "Acme",
      aspectRatio: "9:16",
      videoInLoop: true,
      autoSlide: false,
      removeVideo: false,
      headline: "Spring sale",
      textLink: "Shop now",
      hrefLink: "https://shop.example/acme",
    });
    expect(submission.value.video).toBeUndefined();
    // Every field of the stored creative has its form field.
    const fields = Object.keys(emptyCreative());
    expect(fields).toHaveLength(12);
  });

  it("refuses an aspect ratio other than 16:9 or 9:16, unknown elements, a bad link and texts too long", () => {
    const submission = parseWithZod(
      form([
        ...entries().filter(([k]) => !["aspectRatio", "hrefLink", "headline"].includes(k)),
        ["aspectRatio", "4:3"],
        ["elements", "sticker"],
        ["hrefLink", "ftp://shop.example"],
        ["headline", "x".repeat(91)],
      ]),
      { schema: UpdateCreativeSchema },
    );
    expect(submission.status).toBe("error");
    if (submission.status !== "error") return;
    expect(submission.error?.aspectRatio).toEqual(["campaignTargeting:errors.aspectRatio"]);
    expect(submission.error?.hrefLink).toEqual(["campaignTargeting:errors.linkInvalid"]);
    expect(submission.error?.headline).toEqual(["campaignTargeting:errors.tooLong"]);
    expect(Object.keys(submission.error ?? {}).some((k) => k.startsWith("elements"))).toBe(true);
  });

  it("takes an empty file field as no upload", () => {
    const empty = new File([], "", { type: "application/octet-stream" });
    const submission = parseWithZod(form(entries([["video", empty]])), { schema: UpdateCreativeSchema });
    expect(submission.status === "success" && submission.value.video).toBeUndefined();
  });
});
