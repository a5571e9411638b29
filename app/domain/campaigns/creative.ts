/**
 * Banners per slot and the creative, as the editor shows them (issue 4, section 4). Pure: the
 * retailer settings are passed in. What counts and what is published is decided by
 * ./campaign-publication.ts (countedBanners, creativeMissingParts); this file says which banner
 * slots a campaign is offered and why a banner does or does not count.
 *
 * Readings of 'This banner type is no longer supported at the moment' (spec section 8):
 * - Banners per slot are a banner-ads ad format. A banner slot is supported when it is a slot of
 *   the banner-ads type in the retailer settings *and* one of the settings' banner sizes (the
 *   media rules need its size). Everything else is "no longer supported":
 *   - on a sponsored-products campaign, the banners panel says so (and lists any banner stored
 *     on it, e.g. from a campaign whose type was changed, so it can be removed);
 *   - on a banner-ads campaign, a stored banner whose slot the settings no longer list (or no
 *     longer give a size) is shown with the message, is not counted, and can be removed;
 *   - an upload for such a slot is refused with the message (media:errors.unknownSlot).
 * - The creative (brand, background, video, headline, link) is offered for both types: the
 *   publication and the activation rules treat it for any type.
 */
import type { Campaign } from "~/domain/campaigns/campaign";
import { computedSlots } from "~/domain/campaigns/publication";
import type { CampaignType, Placement, RetailerSettings } from "~/domain/retailer-settings";

/** Whether the type takes banners per slot. */
export function takesBanners(type: CampaignType): boolean {
  return type === "banner-ads";
}

/** The banner slots a campaign of the type is offered, in the settings' order, with their placements. */
export function supportedBannerSlots(settings: RetailerSettings, type: CampaignType): { slot: string; placements: Placement[] }[] {
  if (!takesBanners(type)) return [];
  return Object.entries(settings.types[type].slots)
    .filter(([slot]) => Object.hasOwn(settings.bannerSizes, slot))
    .map(([slot, placements]) => ({ slot, placements: [...placements] }));
}

/** Stored banners (with an image or a link) whose slot is not supported for the campaign any more. */
export function unsupportedBanners(campaign: Pick<Campaign, "campaignType" | "banners">, settings: RetailerSettings): string[] {
  const supported = new Set(supportedBannerSlots(settings, campaign.campaignType).map((s) => s.slot));
  return Object.entries(campaign.banners ?? {})
    .filter(([slot, banner]) => !supported.has(slot) && (!!banner?.image || !!banner?.href_link?.trim()))
    .map(([slot]) => slot);
}

export type BannerGap = "slotOff" | "imageMissing" | "linkMissing";

/**
 * Whether a slot's banner counts (spec section 5: the slot is chosen and both the image and the
 * link are present), and if not, every reason why, in that order.
 */
export function bannerStatus(
  campaign: Pick<Campaign, "campaignType" | "slots" | "slotsOff" | "placements" | "banners">,
  slot: string,
  settings: RetailerSettings,
): { counted: boolean; gaps: BannerGap[] } {
  const gaps: BannerGap[] = [];
  if (!Object.hasOwn(computedSlots(campaign, settings), slot)) gaps.push("slotOff");
  const banner = campaign.banners?.[slot];
  if (!banner?.image?.trim()) gaps.push("imageMissing");
  if (!banner?.href_link?.trim()) gaps.push("linkMissing");
  return { counted: takesBanners(campaign.campaignType) && gaps.length === 0, gaps };
}

/** A link a click may lead to: an absolute http(s) URL. */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && !!url.hostname;
  } catch {
    return false;
  }
}
