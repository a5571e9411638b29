/**
 * Rules for the media of a campaign (spec sections 5 and 9: banners per slot and the creative's
 * brand image, background image, video and poster). Pure: the bytes are measured elsewhere
 * (app/services/media.server.ts); here are the types, sizes, durations and ratios allowed.
 *
 * Decisions (see also docs/decisions/0006):
 * - Images: PNG, JPEG, WebP or GIF, up to 5 MB and 10,000 px a side. SVG is refused, as for team
 *   logos: it can carry scripts.
 * - Videos: MP4 only (H.264 in an ISO-BMFF file plays in every browser an ad is shown in), up to
 *   50 MB. WebM and QuickTime files are recognised and refused with their own message.
 * - A video is "longer than 20 s" (spec) when its measured duration exceeds 20 s by more than
 *   50 ms: encoders commonly add a few ms of audio priming to a 20 s export, and 50 ms is under
 *   two frames at 30 fps.
 * - Aspect ratio 16:9 or 9:16 within 1 % (1920x1088 coded sizes and 854x480 count as 16:9).
 * - Banner size: a banner must be exactly the slot's *stored* size. Spec section 9 lists the slots
 *   670x980, 1560x260, 345x140, 345x90 and the stored sizes 670x980, 1560x260, 690x280, 690x180:
 *   the two small slots are stored at twice their size (for high-density screens), the large ones
 *   at their own size. So the stored size of a slot is the one of `storedBannerSizes` equal to the
 *   slot or to twice the slot, else the slot's own size.
 */
import type { AspectRatio } from "~/domain/campaigns/campaign";

export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];
export const VIDEO_TYPES = ["video/mp4"] as const;
export type VideoType = (typeof VIDEO_TYPES)[number];
export type MediaType = ImageType | VideoType;
/** Types recognised from the bytes but refused, so the message can say why. */
export type RefusedType = "image/svg+xml" | "video/webm" | "video/quicktime";

export const MEDIA_EXTENSIONS: Record<MediaType, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
  "video/mp4": "mp4",
};

export const CAMPAIGN_ASSET_KINDS = ["banner", "brand_image", "background_image", "video", "poster"] as const;
export type CampaignAssetKind = (typeof CAMPAIGN_ASSET_KINDS)[number];
export type MediaClass = "image" | "video";

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_VIDEO_BYTES = 50 * 1024 * 1024;
/** Largest side of an image, in pixels (a small file can still announce a huge picture). */
export const MAX_IMAGE_SIDE = 10_000;
export const MAX_VIDEO_SECONDS = 20;
export const VIDEO_DURATION_TOLERANCE_SECONDS = 0.05;
export const ASPECT_RATIO_TOLERANCE = 0.01;

/** The spec's message, word for word in en-GB ('Video is longer than 20s'). */
export const VIDEO_TOO_LONG = "campaigns:creative.videoTooLong";

export type MediaReason =
  | typeof VIDEO_TOO_LONG
  | "media:errors.empty"
  | "media:errors.tooLarge"
  | "media:errors.unsupportedImageType"
  | "media:errors.unsupportedVideoType"
  | "media:errors.typeMismatch"
  | "media:errors.unreadableImage"
  | "media:errors.unreadableVideo"
  | "media:errors.noVideoTrack"
  | "media:errors.imageTooLarge"
  | "media:errors.aspectRatio"
  | "media:errors.aspectRatioMismatch"
  | "media:errors.bannerSize"
  | "media:errors.unknownSlot";

export type MediaValues = Record<string, string | number>;
export type MediaFailure = { ok: false; reason: MediaReason; values?: MediaValues };
/** A rule passed, or why not. */
export type MediaCheck = { ok: true } | MediaFailure;
/** A rule passed with a value, or why not. */
export type MediaResult<T> = { ok: true; value: T } | MediaFailure;

const fail = (reason: MediaReason, values?: MediaValues): MediaFailure => (values ? { ok: false, reason, values } : { ok: false, reason });

export function isCampaignAssetKind(value: string): value is CampaignAssetKind {
  return (CAMPAIGN_ASSET_KINDS as readonly string[]).includes(value);
}

/** Videos are videos; banners, brand and background images and posters are images. */
export function mediaClassOf(kind: CampaignAssetKind): MediaClass {
  return kind === "video" ? "video" : "image";
}

export function maxBytesFor(kind: CampaignAssetKind): number {
  return mediaClassOf(kind) === "video" ? MAX_VIDEO_BYTES : MAX_IMAGE_BYTES;
}

/** Empty or over the kind's limit; `maxMegabytes` is given for the message. */
export function checkUploadSize(kind: CampaignAssetKind, byteLength: number): MediaCheck {
  if (byteLength <= 0) return fail("media:errors.empty");
  const max = maxBytesFor(kind);
  if (byteLength > max) return fail("media:errors.tooLarge", { maxMegabytes: max / (1024 * 1024) });
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------
// Types, from the bytes

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  return bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);
}

const fourCC = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));

/** The type of a file from its first bytes, never from its name or the browser's claim. */
export function sniffMediaType(bytes: Uint8Array): MediaType | RefusedType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return "image/gif";
  // ISO base media file: a first box "ftyp" whose major brand says QuickTime or not.
  if (bytes.length >= 12 && fourCC(bytes, 4) === "ftyp") return fourCC(bytes, 8) === "qt  " ? "video/quicktime" : "video/mp4";
  // EBML header (Matroska / WebM).
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return "video/webm";
  const head = new TextDecoder("utf-8", { fatal: false }).decode(bytes.subarray(0, 1024)).replace(/^\uFEFF/, "").trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head)) return "image/svg+xml";
  return null;
}

/** The browser's claimed type, lower-cased, without parameters; common aliases folded. */
export function normaliseDeclaredType(declared: string | null | undefined): string {
  const type = (declared ?? "").split(";")[0]!.trim().toLowerCase();
  const aliases: Record<string, string> = { "image/jpg": "image/jpeg", "image/pjpeg": "image/jpeg", "video/x-m4v": "video/mp4", "video/x-matroska": "video/webm" };
  return aliases[type] ?? type;
}

/** Declared types that say nothing (no JS, unknown extension): the content alone decides. */
const UNINFORMATIVE_TYPES = new Set(["", "application/octet-stream", "binary/octet-stream"]);

/**
 * The type a file of this class (image or video) is stored as: what its bytes are, if that is allowed for the kind.
 * A declared type that names another type than the content is refused (a renamed file, or a file
 * that is not what it says).
 */
export function resolveMediaType(mediaClass: MediaClass, declared: string | null | undefined, sniffed: MediaType | RefusedType | null): MediaResult<MediaType> {
  const unsupported = mediaClass === "video" ? "media:errors.unsupportedVideoType" : "media:errors.unsupportedImageType";
  const allowed: readonly string[] = mediaClass === "video" ? VIDEO_TYPES : IMAGE_TYPES;
  if (!sniffed || !allowed.includes(sniffed)) return fail(unsupported);
  const claimed = normaliseDeclaredType(declared);
  if (!UNINFORMATIVE_TYPES.has(claimed) && claimed !== sniffed) return fail("media:errors.typeMismatch");
  return { ok: true, value: sniffed as MediaType };
}

// ---------------------------------------------------------------------------------------------
// Dimensions and duration

/** 16:9 or 9:16 when width / height is within the tolerance (relative) of one of them, else null. */
export function aspectRatioOf(width: number, height: number, tolerance = ASPECT_RATIO_TOLERANCE): AspectRatio | null {
  if (!(width > 0) || !(height > 0) || !Number.isFinite(width) || !Number.isFinite(height)) return null;
  const ratio = width / height;
  const near = (target: number) => Math.abs(ratio - target) / target <= tolerance;
  if (near(16 / 9)) return "16:9";
  if (near(9 / 16)) return "9:16";
  return null;
}

/** 16:9 or 9:16, and the creative's chosen ratio when one is given. */
export function checkAspectRatio(width: number, height: number, expected?: AspectRatio | null): MediaResult<AspectRatio> {
  const ratio = aspectRatioOf(width, height);
  if (!ratio) return fail("media:errors.aspectRatio", { width, height });
  if (expected && ratio !== expected) return fail("media:errors.aspectRatioMismatch", { actual: ratio, expected });
  return { ok: true, value: ratio };
}

/** Spec: 'Video is longer than 20s'. */
export function checkVideoDuration(seconds: number): MediaCheck {
  if (!Number.isFinite(seconds) || seconds > MAX_VIDEO_SECONDS + VIDEO_DURATION_TOLERANCE_SECONDS) return fail(VIDEO_TOO_LONG);
  return { ok: true };
}

/**
 * The largest side an image of each use needs: a picture announcing more is refused from its
 * header, before anything decodes it (a small file can unpack into gigabytes of pixels, in the
 * browsers that show it too). Banners must in addition be exactly their slot's stored size;
 * team logos are shown at most 256 px wide, at twice that for high-density screens and more.
 */
export const MAX_IMAGE_SIDE_BY_USE: Record<Exclude<CampaignAssetKind, "video"> | "logo", number> = {
  banner: 4_000,
  brand_image: 2_048,
  background_image: 3_840,
  poster: 3_840,
  logo: 1_024,
};

/** Within the use's largest side (MAX_IMAGE_SIDE when no use is given). */
export function checkImageDimensions(width: number, height: number, use?: keyof typeof MAX_IMAGE_SIDE_BY_USE): MediaCheck {
  const max = use ? MAX_IMAGE_SIDE_BY_USE[use] : MAX_IMAGE_SIDE;
  if (width > max || height > max) return fail("media:errors.imageTooLarge", { max });
  return { ok: true };
}

/**
 * Whether an image file is whole, from its structure alone (nothing is decoded): a PNG is a
 * chain of chunks from IHDR through at least one IDAT to IEND at the end of the file; a JPEG has a
 * frame header and ends with its end-of-image marker; a GIF ends with its trailer; a WebP's RIFF
 * size is the file's. A signature alone, or a file cut short, is not an image.
 */
export function isCompleteImage(bytes: Uint8Array, type: ImageType): boolean {
  switch (type) {
    case "image/png":
      return isCompletePng(bytes);
    case "image/jpeg":
      return isCompleteJpeg(bytes);
    case "image/gif":
      return bytes.length > 13 + 1 && bytes[bytes.length - 1] === 0x3b;
    case "image/webp": {
      if (bytes.length < 20) return false;
      const riffSize = (bytes[4] | (bytes[5] << 8) | (bytes[6] << 16) | (bytes[7] << 24)) >>> 0;
      return riffSize + 8 === bytes.length || riffSize + 9 === bytes.length;
    }
  }
}

function u32be(bytes: Uint8Array, at: number): number {
  return ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
}

function isCompletePng(bytes: Uint8Array): boolean {
  let at = 8;
  let index = 0;
  let sawData = false;
  while (at + 12 <= bytes.length) {
    const length = u32be(bytes, at);
    const type = fourCC(bytes, at + 4);
    const end = at + 12 + length;
    if (end > bytes.length) return false;
    if (index === 0 && (type !== "IHDR" || length !== 13)) return false;
    if (type === "IDAT") sawData = true;
    if (type === "IEND") return sawData && end === bytes.length;
    at = end;
    index++;
  }
  return false;
}

function isCompleteJpeg(bytes: Uint8Array): boolean {
  if (bytes.length < 4 || bytes[bytes.length - 2] !== 0xff || bytes[bytes.length - 1] !== 0xd9) return false;
  // A frame header (SOF0..SOF15 but DHT, JPG and DAC) among the segments before the scan.
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return false;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return true;
    if (marker === 0xda || marker === 0xd9) return false;
    at += 2 + ((bytes[at + 2] << 8) | bytes[at + 3]);
  }
  return false;
}

export interface VideoMeasure {
  durationSeconds: number;
  width: number;
  height: number;
}

/** Every rule on a measured video: duration, then aspect ratio (and the creative's when given). */
export function checkVideo(measure: VideoMeasure, expected?: AspectRatio | null): MediaResult<AspectRatio> {
  const duration = checkVideoDuration(measure.durationSeconds);
  if (!duration.ok) return duration;
  return checkAspectRatio(measure.width, measure.height, expected);
}

// ---------------------------------------------------------------------------------------------
// Banner sizes

export interface Size {
  width: number;
  height: number;
}

/** "670x980" -> { width: 670, height: 980 }; null for anything else. */
export function parseSize(text: string): Size | null {
  const match = /^(\d{1,5})x(\d{1,5})$/.exec(text.trim());
  if (!match) return null;
  const width = Number(match[1]);
  const height = Number(match[2]);
  return width > 0 && height > 0 ? { width, height } : null;
}

export const formatSize = (size: Size) => `${size.width}x${size.height}`;

/** The size a banner image for the slot must have: the stored size at 1x or 2x the slot, else the slot's. */
export function requiredBannerSize(slot: string, storedSizes: readonly string[]): Size | null {
  const slotSize = parseSize(slot);
  if (!slotSize) return null;
  for (const scale of [1, 2]) {
    const candidate = formatSize({ width: slotSize.width * scale, height: slotSize.height * scale });
    if (storedSizes.includes(candidate)) return parseSize(candidate);
  }
  return slotSize;
}

/** The banner settings the check needs (RetailerSettings has them). */
export interface BannerSettings {
  /** Banner slot (WxH) -> placements. */
  bannerSizes: Record<string, unknown>;
  storedBannerSizes: readonly string[];
}

/** A banner for `slot` must be exactly the slot's stored size; the slot must take banners. */
export function checkBannerSize(slot: string, width: number, height: number, settings: BannerSettings): MediaResult<Size> {
  const required = Object.hasOwn(settings.bannerSizes, slot) ? requiredBannerSize(slot, settings.storedBannerSizes) : null;
  if (!required) return fail("media:errors.unknownSlot", { slot });
  if (width !== required.width || height !== required.height) {
    return fail("media:errors.bannerSize", { slot, width: required.width, height: required.height, actualWidth: width, actualHeight: height });
  }
  return { ok: true, value: required };
}
