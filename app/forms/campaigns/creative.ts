/**
 * The Banners and creative section of the campaign editor: schemas shared by the browser (conform)
 * and the action. Uploads are multipart forms; a file is only looked at here for its presence and
 * size (the browser's answer before sending), its bytes are judged on the server by
 * app/domain/media.ts through app/services/files.server.ts. Messages are i18n keys.
 */
import * as z from "zod/mini";
import { ASPECT_RATIOS } from "~/domain/campaigns/campaign";
import { isHttpUrl } from "~/domain/campaigns/creative";
import { CREATIVE_ELEMENTS } from "~/domain/campaigns/publication";
import { MAX_IMAGE_BYTES, MAX_VIDEO_BYTES, type CampaignAssetKind } from "~/domain/media";

export const updateBannersIntent = "update-banners";
export const removeBannerIntent = "remove-banner";
export const updateCreativeIntent = "update-creative";

const version = z.coerce.number().check(z.int(), z.gte(1));
const checkbox = z.pipe(
  z.optional(z.boolean()),
  z.transform((v) => v === true),
);

/** An optional text: empty is "". */
const text = (max: number) =>
  z.pipe(
    z.optional(z.string().check(z.trim(), z.maxLength(max, "campaignTargeting:errors.tooLong"))),
    z.transform((v) => v ?? ""),
  );

/** An optional link a click leads to: an absolute http(s) URL, or "". */
export const optionalLink = z
  .pipe(
    z.optional(z.string().check(z.trim(), z.maxLength(2000, "campaignTargeting:errors.tooLong"))),
    z.transform((v) => v ?? ""),
  )
  .check(z.refine((v) => v === "" || isHttpUrl(v), "campaignTargeting:errors.linkInvalid"));

const upload = (maxBytes: number, tooLarge: string) => z.optional(z.file({ error: "campaignTargeting:errors.fileInvalid" }).check(z.maxSize(maxBytes, tooLarge)));
const imageUpload = upload(MAX_IMAGE_BYTES, "campaignTargeting:errors.imageTooLarge");
const videoUpload = upload(MAX_VIDEO_BYTES, "campaignTargeting:errors.videoTooLarge");

// ---------------------------------------------------------------------------------------------
// Banners: one image and one link per banner slot of the campaign's type

/** The form fields of a slot's banner. */
export function bannerFields(slot: string) {
  return { image: `image_${slot}`, link: `link_${slot}`, remove: `remove_${slot}` } as const;
}

/** The banners form's schema for the slots offered (they come from the retailer settings). */
export function makeUpdateBannersSchema(slots: readonly string[]) {
  const shape: Record<string, z.ZodMiniType> = {};
  for (const slot of slots) {
    const f = bannerFields(slot);
    shape[f.image] = imageUpload;
    shape[f.link] = optionalLink;
    shape[f.remove] = checkbox;
  }
  return z.object({ intent: z.literal(updateBannersIntent), version, ...shape });
}

export interface BannerInput {
  slot: string;
  /** A new image to check and store, if one was chosen. */
  image: File | undefined;
  link: string;
  /** Remove the stored image (ignored when a new one is chosen). */
  remove: boolean;
}

/** The banners form's value, slot by slot. */
export function bannerInputs(value: Record<string, unknown>, slots: readonly string[]): BannerInput[] {
  return slots.map((slot) => {
    const f = bannerFields(slot);
    const image = value[f.image];
    return {
      slot,
      image: typeof File !== "undefined" && image instanceof File && image.size > 0 ? image : undefined,
      link: typeof value[f.link] === "string" ? (value[f.link] as string) : "",
      remove: value[f.remove] === true,
    };
  });
}

export const RemoveBannerSchema = z.object({
  intent: z.literal(removeBannerIntent),
  version,
  slot: z.string().check(z.trim(), z.minLength(1), z.maxLength(40)),
});

// ---------------------------------------------------------------------------------------------
// The creative

export const CREATIVE_FILE_FIELDS = {
  brandImage: "brand_image",
  backgroundImage: "background_image",
  video: "video",
  poster: "poster",
} as const satisfies Record<string, CampaignAssetKind>;
export type CreativeFileField = keyof typeof CREATIVE_FILE_FIELDS;

export const MAX_BRAND = 60;
export const MAX_HEADLINE = 90;
export const MAX_TEXT_LINK = 60;

export const UpdateCreativeSchema = z.object({
  intent: z.literal(updateCreativeIntent),
  version,
  elements: z.array(z.enum(CREATIVE_ELEMENTS, { error: "campaignTargeting:errors.elementUnknown" })).check(z.maxLength(CREATIVE_ELEMENTS.length)),
  brand: text(MAX_BRAND),
  brandImage: imageUpload,
  removeBrandImage: checkbox,
  backgroundImage: imageUpload,
  removeBackgroundImage: checkbox,
  video: videoUpload,
  removeVideo: checkbox,
  poster: imageUpload,
  removePoster: checkbox,
  videoInLoop: checkbox,
  autoSlide: checkbox,
  aspectRatio: z.enum(ASPECT_RATIOS, { error: "campaignTargeting:errors.aspectRatio" }),
  headline: text(MAX_HEADLINE),
  textLink: text(MAX_TEXT_LINK),
  hrefLink: optionalLink,
});
export type UpdateCreativeValue = z.infer<typeof UpdateCreativeSchema>;
