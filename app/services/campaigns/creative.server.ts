/**
 * Banners per slot and the creative of a campaign (issue 4, section 4): what the section shows,
 * and the saves. Uploads are judged from their bytes and stored by files.server.ts
 * (saveCampaignAsset); the campaign is saved through saveSection (rights, version, audit and
 * publication in one transaction). A refused save stores no file: files stored for it are
 * deleted again.
 */
import { emptyCreative, type AspectRatio, type CampaignBanner, type CampaignCreative } from "~/domain/campaigns/campaign";
import { bannerStatus, supportedBannerSlots, takesBanners, unsupportedBanners } from "~/domain/campaigns/creative";
import { countedBanners, creativeMissingParts, enabledCreativeElements } from "~/domain/campaigns/publication";
import { checkAspectRatio, requiredBannerSize, VIDEO_TOO_LONG, type CampaignAssetKind, type MediaFailure } from "~/domain/media";
import type { RetailerSettings } from "~/domain/retailer-settings";
import type { User } from "~/domain/types";
import { bannerInputs, CREATIVE_FILE_FIELDS, bannerFields, type UpdateCreativeValue } from "~/forms/campaigns/creative";
import { withValues } from "~/domain/message";
import { campaignEditable, editRefusal, invalidFields, saveSection, type CampaignContext, type FieldErrors, type SaveResult } from "~/services/campaigns/campaigns.server";
import { fail } from "~/domain/result";
import { deleteCampaignAsset, fileUrl, getFileStore, saveCampaignAsset } from "~/services/files.server";
import { measureImage, measureVideo } from "~/services/media.server";
import { getRetailerSettings } from "~/services/retailer-settings.server";

// ---------------------------------------------------------------------------------------------
// Messages

/**
 * The i18n key (with its values) of a refused file: the spec's 'Video is longer than 20s' as is,
 * the other media reasons in this section's namespace; a banner for a slot the settings no longer
 * know is 'This banner type is no longer supported at the moment'.
 */
export function mediaMessage(failure: MediaFailure): string {
  if (failure.reason === VIDEO_TOO_LONG) return VIDEO_TOO_LONG;
  if (failure.reason === "media:errors.unknownSlot") return "campaignTargeting:banners.unsupported";
  const key = `campaignTargeting:media.${failure.reason.slice("media:errors.".length)}`;
  return failure.values ? withValues(key, failure.values) : key;
}

// ---------------------------------------------------------------------------------------------
// Reading the form

/** The file fields a creative section form may carry, and the kind of asset each holds. */
export function creativeFileFields(slots: readonly string[]): Record<string, CampaignAssetKind> {
  return {
    ...Object.fromEntries(slots.map((slot) => [bannerFields(slot).image, "banner" as const])),
    ...CREATIVE_FILE_FIELDS,
  };
}

/**
 * What the section's form may carry: the banner slots offered (the banners form's fields depend
 * on them) and the file fields with the kind of asset each holds.
 */
export async function creativeFormFields(ctx: CampaignContext): Promise<{ slots: string[]; fileFields: Record<string, CampaignAssetKind> }> {
  const settings = await getRetailerSettings();
  const slots = supportedBannerSlots(settings, ctx.campaign.campaignType).map((s) => s.slot);
  return { slots, fileFields: creativeFileFields(slots) };
}

// ---------------------------------------------------------------------------------------------
// The view

export async function creativeView(user: User, ctx: CampaignContext) {
  const settings = await getRetailerSettings();
  const c = ctx.campaign;
  const slots = supportedBannerSlots(settings, c.campaignType);
  const counted = countedBanners(c, settings);
  const creative = { ...emptyCreative(), ...(c.creative ?? {}) };
  return {
    campaignId: c.id,
    version: c.version,
    canEdit: campaignEditable(user, ctx),
    campaignType: c.campaignType,
    takesBanners: takesBanners(c.campaignType),
    banners: slots.map(({ slot, placements }) => {
      const banner = c.banners?.[slot];
      const required = requiredBannerSize(slot, settings.storedBannerSizes);
      const status = bannerStatus(c, slot, settings);
      return {
        slot,
        placements,
        requiredSize: required ? `${required.width}x${required.height}` : slot,
        imageUrl: fileUrl(banner?.image ?? null),
        link: banner?.href_link ?? "",
        counted: status.counted,
        gaps: status.gaps,
      };
    }),
    countedCount: Object.keys(counted).length,
    unsupported: unsupportedBanners(c, settings).map((slot) => ({
      slot,
      imageUrl: fileUrl(c.banners[slot]?.image ?? null),
      link: c.banners[slot]?.href_link ?? "",
    })),
    creative: {
      elements: enabledCreativeElements(creative),
      brand: creative.brand,
      brandImageUrl: fileUrl(creative.brand_image),
      backgroundImageUrl: fileUrl(creative.background_image),
      videoUrl: fileUrl(creative.video_file),
      posterUrl: fileUrl(creative.video_thumb),
      videoInLoop: creative.video_in_loop,
      autoSlide: creative.auto_slide,
      aspectRatio: creative.aspect_ratio,
      headline: creative.headline,
      textLink: creative.text_link,
      hrefLink: creative.href_link,
    },
    /** Parts the switched-on elements need and lack ('Missing or Incomplete Ad Format'). */
    creativeMissing: creativeMissingParts(creative),
  };
}
export type CreativeView = Awaited<ReturnType<typeof creativeView>>;

// ---------------------------------------------------------------------------------------------
// Saving

function refused(fieldErrors: FieldErrors, formErrors: string[] = []): SaveResult {
  return invalidFields(fieldErrors, formErrors);
}

const FILES_NOT_SAVED = "campaignTargeting:errors.filesNotSaved";

/** Stores new uploads; on any refusal, deletes those already stored and reports each refusal. */
async function storeUploads(
  campaignId: string,
  uploads: { field: string; kind: CampaignAssetKind; file: File; slot?: string; aspectRatio?: AspectRatio }[],
  settings: RetailerSettings,
): Promise<{ ok: true; keys: Record<string, string> } | { ok: false; fieldErrors: FieldErrors }> {
  const keys: Record<string, string> = {};
  const fieldErrors: FieldErrors = {};
  for (const upload of uploads) {
    const saved = await saveCampaignAsset(campaignId, upload.kind, upload.file, { slot: upload.slot, aspectRatio: upload.aspectRatio, settings });
    if (saved.ok) keys[upload.field] = saved.key;
    else fieldErrors[upload.field] = [mediaMessage(saved)];
  }
  if (Object.keys(fieldErrors).length) {
    await Promise.all(Object.values(keys).map((key) => deleteCampaignAsset(campaignId, key)));
    return { ok: false, fieldErrors };
  }
  return { ok: true, keys };
}

/**
 * After a refused save, drops the files stored for it (nobody refers to them). Files replaced or
 * removed by a successful save are kept: a duplicated campaign refers to the same keys (see
 * docs/decisions/0012-campaign-targeting-and-creative.md).
 */
async function dropCreated(campaignId: string, result: SaveResult, created: string[]) {
  if (!result.ok) await Promise.all(created.map((key) => deleteCampaignAsset(campaignId, key)));
}

/** Saves the image and link of every supported banner slot; other stored banners are kept. */
export async function updateBanners(user: User, ctx: CampaignContext, value: Record<string, unknown> & { version: number }): Promise<SaveResult> {
  const denied = editRefusal(user, ctx);
  if (denied) return denied;
  const settings = await getRetailerSettings();
  const c = ctx.campaign;
  const slots = supportedBannerSlots(settings, c.campaignType).map((s) => s.slot);
  if (!slots.length) return fail("invalid", "campaignTargeting:banners.unsupported");
  const inputs = bannerInputs(value, slots);
  const stored = await storeUploads(
    c.id,
    inputs.filter((i) => i.image).map((i) => ({ field: bannerFields(i.slot).image, kind: "banner" as const, file: i.image!, slot: i.slot })),
    settings,
  );
  if (!stored.ok) return refused(stored.fieldErrors, [FILES_NOT_SAVED]);

  const banners: Record<string, CampaignBanner> = { ...(c.banners ?? {}) };
  for (const input of inputs) {
    const previous = c.banners?.[input.slot]?.image ?? null;
    const image = stored.keys[bannerFields(input.slot).image] ?? (input.remove ? null : previous);
    if (!image && !input.link) delete banners[input.slot];
    else banners[input.slot] = { image, href_link: input.link };
  }
  const result = await saveSection(user, ctx, { banners }, value.version);
  await dropCreated(c.id, result, Object.values(stored.keys));
  return result;
}

/** Removes a stored banner (e.g. one whose slot is no longer supported). */
export async function removeBanner(user: User, ctx: CampaignContext, slot: string, version: number): Promise<SaveResult> {
  const denied = editRefusal(user, ctx);
  if (denied) return denied;
  const c = ctx.campaign;
  if (!Object.hasOwn(c.banners ?? {}, slot)) return fail("invalid", "campaignTargeting:banners.notFound");
  const { [slot]: _removed, ...banners } = c.banners;
  return saveSection(user, ctx, { banners }, version);
}

/** The aspect ratio of a stored video or poster, measured again from its bytes; null if unreadable. */
async function storedRatio(key: string | null, kind: "video" | "poster"): Promise<AspectRatio | null> {
  if (!key) return null;
  const file = await getFileStore().get(key);
  if (!file) return null;
  const measured = kind === "video" ? measureVideo(file.bytes, file.contentType) : measureImage(file.bytes, file.contentType);
  if (!measured.ok) return null;
  const ratio = checkAspectRatio(measured.width, measured.height);
  return ratio.ok ? ratio.value : null;
}

/** Saves the creative: its elements, texts, links, options and media. */
export async function updateCreative(user: User, ctx: CampaignContext, value: UpdateCreativeValue): Promise<SaveResult> {
  const denied = editRefusal(user, ctx);
  if (denied) return denied;
  const settings = await getRetailerSettings();
  const c = ctx.campaign;
  const before: CampaignCreative = { ...emptyCreative(), ...(c.creative ?? {}) };
  const ratio = value.aspectRatio;

  // A video or poster kept from before must still have the ratio chosen now.
  if (ratio !== before.aspect_ratio) {
    const fieldErrors: FieldErrors = {};
    if (!value.video && !value.removeVideo) {
      const stored = await storedRatio(before.video_file, "video");
      if (stored && stored !== ratio) fieldErrors.aspectRatio = [withValues("campaignTargeting:errors.storedVideoRatio", { actual: stored, expected: ratio })];
    }
    if (!fieldErrors.aspectRatio && !value.poster && !value.removePoster) {
      const stored = await storedRatio(before.video_thumb, "poster");
      if (stored && stored !== ratio) fieldErrors.aspectRatio = [withValues("campaignTargeting:errors.storedPosterRatio", { actual: stored, expected: ratio })];
    }
    if (fieldErrors.aspectRatio) return refused(fieldErrors);
  }

  const uploads = (Object.keys(CREATIVE_FILE_FIELDS) as (keyof typeof CREATIVE_FILE_FIELDS)[])
    .filter((field) => value[field])
    .map((field) => ({
      field,
      kind: CREATIVE_FILE_FIELDS[field],
      file: value[field]!,
      aspectRatio: field === "video" || field === "poster" ? ratio : undefined,
    }));
  const stored = await storeUploads(c.id, uploads, settings);
  if (!stored.ok) return refused(stored.fieldErrors, [FILES_NOT_SAVED]);

  const pick = (field: keyof typeof CREATIVE_FILE_FIELDS, remove: boolean, previous: string | null) => stored.keys[field] ?? (remove ? null : previous);
  const creative: CampaignCreative = {
    elements: [...value.elements],
    brand: value.brand,
    brand_image: pick("brandImage", value.removeBrandImage, before.brand_image),
    background_image: pick("backgroundImage", value.removeBackgroundImage, before.background_image),
    video_file: pick("video", value.removeVideo, before.video_file),
    video_thumb: pick("poster", value.removePoster, before.video_thumb),
    video_in_loop: value.videoInLoop,
    auto_slide: value.autoSlide,
    aspect_ratio: ratio,
    headline: value.headline,
    text_link: value.textLink,
    href_link: value.hrefLink,
  };
  // lastUploadedVideo follows the video: the new upload, or none once it is removed.
  const videoChanged = creative.video_file !== before.video_file;
  const patch = { creative, ...(videoChanged ? { lastUploadedVideo: creative.video_file } : {}) };
  const result = await saveSection(user, ctx, patch, value.version);
  await dropCreated(c.id, result, Object.values(stored.keys));
  return result;
}
