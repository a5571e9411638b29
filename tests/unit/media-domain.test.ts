import { describe, expect, it } from "vitest";
import {
  aspectRatioOf,
  checkAspectRatio,
  checkBannerSize,
  checkImageDimensions,
  checkUploadSize,
  checkVideo,
  checkVideoDuration,
  MAX_IMAGE_BYTES,
  MAX_VIDEO_BYTES,
  mediaClassOf,
  normaliseDeclaredType,
  parseSize,
  requiredBannerSize,
  resolveMediaType,
  sniffMediaType,
  VIDEO_TOO_LONG,
} from "~/domain/media";
import { DEFAULT_RETAILER_SETTINGS } from "~/domain/retailer-settings";

const bytes = (...values: number[]) => new Uint8Array(values);
const text = (value: string) => new TextEncoder().encode(value);
const ftyp = (brand: string) => new Uint8Array([0, 0, 0, 24, ...text("ftyp"), ...text(brand), 0, 0, 2, 0, ...text("isom")]);

describe("sniffMediaType", () => {
  it.each([
    ["PNG", bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0), "image/png"],
    ["JPEG", bytes(0xff, 0xd8, 0xff, 0xe1), "image/jpeg"],
    ["WebP", bytes(0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x45, 0x42, 0x50), "image/webp"],
    ["GIF89a", text("GIF89a\x01\x00"), "image/gif"],
    ["GIF87a", text("GIF87a\x01\x00"), "image/gif"],
    ["MP4 (isom)", ftyp("isom"), "video/mp4"],
    ["MP4 (mp42)", ftyp("mp42"), "video/mp4"],
    ["QuickTime", ftyp("qt  "), "video/quicktime"],
    ["WebM", bytes(0x1a, 0x45, 0xdf, 0xa3, 0x9f), "video/webm"],
    ["SVG", text('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>'), "image/svg+xml"],
    ["SVG with a BOM and a doctype", text('\uFEFF <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN"><svg width="1">'), "image/svg+xml"],
    ["text", text("hello, not media"), null],
    ["nothing", bytes(), null],
    ["a RIFF that is not WebP (WAV)", bytes(0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x41, 0x56, 0x45), null],
  ])("recognises %s from its bytes", (_name, input, expected) => {
    expect(sniffMediaType(input)).toBe(expected);
  });
});

describe("resolveMediaType", () => {
  it.each([
    // class, declared, sniffed, expected
    ["video", "video/mp4", "video/mp4", { ok: true, value: "video/mp4" }],
    ["video", "", "video/mp4", { ok: true, value: "video/mp4" }],
    ["video", "application/octet-stream", "video/mp4", { ok: true, value: "video/mp4" }],
    ["video", "video/x-m4v", "video/mp4", { ok: true, value: "video/mp4" }],
    ["video", "video/webm", "video/webm", { ok: false, reason: "media:errors.unsupportedVideoType" }],
    ["video", "video/quicktime", "video/quicktime", { ok: false, reason: "media:errors.unsupportedVideoType" }],
    ["video", "video/mp4", "image/png", { ok: false, reason: "media:errors.unsupportedVideoType" }],
    ["video", "image/png", "video/mp4", { ok: false, reason: "media:errors.typeMismatch" }],
    ["image", "image/jpg", "image/jpeg", { ok: true, value: "image/jpeg" }],
    ["image", "image/png; charset=binary", "image/png", { ok: true, value: "image/png" }],
    ["image", "image/gif", "image/gif", { ok: true, value: "image/gif" }],
    ["image", "image/png", "image/jpeg", { ok: false, reason: "media:errors.typeMismatch" }],
    ["image", "image/svg+xml", "image/svg+xml", { ok: false, reason: "media:errors.unsupportedImageType" }],
    ["image", "image/png", null, { ok: false, reason: "media:errors.unsupportedImageType" }],
    ["image", "video/mp4", "video/mp4", { ok: false, reason: "media:errors.unsupportedImageType" }],
  ] as const)("%s declared %j, content %j", (mediaClass, declared, sniffed, expected) => {
    expect(resolveMediaType(mediaClass, declared, sniffed)).toEqual(expected);
  });

  it("folds declared types", () => {
    expect(normaliseDeclaredType(" IMAGE/JPG ")).toBe("image/jpeg");
    expect(normaliseDeclaredType(null)).toBe("");
  });
});

describe("upload sizes", () => {
  it("gives videos 50 MB and images 5 MB", () => {
    expect(mediaClassOf("video")).toBe("video");
    for (const kind of ["banner", "brand_image", "background_image", "poster"] as const) expect(mediaClassOf(kind)).toBe("image");
    expect(checkUploadSize("video", MAX_VIDEO_BYTES)).toEqual({ ok: true });
    expect(checkUploadSize("video", MAX_VIDEO_BYTES + 1)).toEqual({ ok: false, reason: "media:errors.tooLarge", values: { maxMegabytes: 50 } });
    expect(checkUploadSize("banner", MAX_IMAGE_BYTES)).toEqual({ ok: true });
    expect(checkUploadSize("poster", MAX_IMAGE_BYTES + 1)).toEqual({ ok: false, reason: "media:errors.tooLarge", values: { maxMegabytes: 5 } });
    expect(checkUploadSize("brand_image", 0)).toEqual({ ok: false, reason: "media:errors.empty" });
  });

  it("refuses pictures over 10,000 px a side", () => {
    expect(checkImageDimensions(10_000, 10_000)).toEqual({ ok: true });
    expect(checkImageDimensions(10_001, 10)).toEqual({ ok: false, reason: "media:errors.imageTooLarge", values: { max: 10_000 } });
  });
});

describe("video duration (spec: 'Video is longer than 20s')", () => {
  it.each([
    [2, true],
    [19.99, true],
    [20, true],
    [20.04, true], // a 20 s export with audio priming
    [20.06, false],
    [20.5, false],
    [25, false],
    [Number.NaN, false],
    [Number.POSITIVE_INFINITY, false],
  ])("%s s accepted: %s", (seconds, accepted) => {
    expect(checkVideoDuration(seconds)).toEqual(accepted ? { ok: true } : { ok: false, reason: VIDEO_TOO_LONG });
  });
});

describe("aspectRatioOf", () => {
  it.each([
    [1920, 1080, "16:9"],
    [1280, 720, "16:9"],
    [854, 480, "16:9"],
    [1920, 1088, "16:9"], // coded size of a 1080p H.264 stream
    [1080, 1920, "9:16"],
    [720, 1280, "9:16"],
    [480, 854, "9:16"],
    [1080, 1080, null],
    [1080, 1350, null], // 4:5
    [1440, 1080, null], // 4:3
    [2560, 1080, null], // 21:9
    [1850, 1000, null], // 1.85:1, 4 % off
    [0, 1080, null],
    [1920, 0, null],
    [-1920, -1080, null],
  ])("%s x %s is %s", (width, height, expected) => {
    expect(aspectRatioOf(width, height)).toBe(expected);
  });

  it("takes another tolerance", () => {
    expect(aspectRatioOf(1850, 1000, 0.05)).toBe("16:9");
  });

  it("checks against the creative's chosen ratio", () => {
    expect(checkAspectRatio(1080, 1920)).toEqual({ ok: true, value: "9:16" });
    expect(checkAspectRatio(1080, 1920, "16:9")).toEqual({ ok: false, reason: "media:errors.aspectRatioMismatch", values: { actual: "9:16", expected: "16:9" } });
    expect(checkAspectRatio(1000, 1000, "16:9")).toEqual({ ok: false, reason: "media:errors.aspectRatio", values: { width: 1000, height: 1000 } });
  });
});

describe("checkVideo", () => {
  it("refuses a long video before looking at its ratio", () => {
    expect(checkVideo({ durationSeconds: 25, width: 1000, height: 1000 })).toEqual({ ok: false, reason: VIDEO_TOO_LONG });
    expect(checkVideo({ durationSeconds: 2, width: 1000, height: 1000 }).ok).toBe(false);
    expect(checkVideo({ durationSeconds: 2, width: 1920, height: 1080 })).toEqual({ ok: true, value: "16:9" });
    expect(checkVideo({ durationSeconds: 2, width: 1920, height: 1080 }, "9:16").ok).toBe(false);
  });
});

describe("banner sizes", () => {
  const settings = DEFAULT_RETAILER_SETTINGS;

  it("parses WxH", () => {
    expect(parseSize("670x980")).toEqual({ width: 670, height: 980 });
    expect(parseSize("670X980")).toBeNull();
    expect(parseSize("0x10")).toBeNull();
    expect(parseSize("sp")).toBeNull();
  });

  it.each([
    // slot, stored size required (spec section 9: stored sizes 670x980, 1560x260, 690x280, 690x180)
    ["670x980", { width: 670, height: 980 }],
    ["1560x260", { width: 1560, height: 260 }],
    ["345x140", { width: 690, height: 280 }],
    ["345x90", { width: 690, height: 180 }],
  ])("a banner for slot %s must be %j", (slot, size) => {
    expect(requiredBannerSize(slot, settings.storedBannerSizes)).toEqual(size);
    expect(checkBannerSize(slot, size.width, size.height, settings)).toEqual({ ok: true, value: size });
  });

  it("uses the slot's own size when no stored size fits it", () => {
    expect(requiredBannerSize("300x250", settings.storedBannerSizes)).toEqual({ width: 300, height: 250 });
    expect(checkBannerSize("300x250", 300, 250, { bannerSizes: { "300x250": ["home"] }, storedBannerSizes: [] })).toEqual({
      ok: true,
      value: { width: 300, height: 250 },
    });
  });

  it("refuses another size, naming the one required", () => {
    expect(checkBannerSize("670x980", 1340, 1960, settings)).toEqual({
      ok: false,
      reason: "media:errors.bannerSize",
      values: { slot: "670x980", width: 670, height: 980, actualWidth: 1340, actualHeight: 1960 },
    });
    // The small slots are stored at twice their size: their 1x picture is refused.
    expect(checkBannerSize("345x140", 345, 140, settings)).toMatchObject({ ok: false, reason: "media:errors.bannerSize", values: { width: 690, height: 280 } });
  });

  it("refuses a slot that takes no banners", () => {
    expect(checkBannerSize("sp", 670, 980, settings)).toEqual({ ok: false, reason: "media:errors.unknownSlot", values: { slot: "sp" } });
    expect(checkBannerSize("100x100", 100, 100, settings)).toEqual({ ok: false, reason: "media:errors.unknownSlot", values: { slot: "100x100" } });
    expect(checkBannerSize("constructor", 1, 1, settings).ok).toBe(false);
  });
});
