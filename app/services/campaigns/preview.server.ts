/**
 * The campaign preview (spec section 4): the ad as shoppers would see it, for anyone who may read
 * the campaign, only while the retailer has preview switched on and the campaign's live status is
 * running or scheduled. The route has checked the read right and the scope (requireCampaign); a
 * refusal here is 'forbidden' with the reason as its message, so a forged URL says why.
 */
import { previewBanners, previewCreative, previewTiles } from "~/domain/campaigns/preview";
import { previewRefusal } from "~/domain/campaigns/status";
import { formatMoney } from "~/domain/money";
import { fail, ok } from "~/domain/result";
import type { User } from "~/domain/types";
import { campaignViewContext, liveStatusOf, type CampaignContext } from "~/services/campaigns/campaigns.server";
import { fileUrl } from "~/services/files.server";
import { getProductImageHosts } from "~/services/image-hosts.server";
import { getRetailerSettings } from "~/services/retailer-settings.server";
import { getStorage } from "~/services/storage.server";

/** The refusals' messages (campaignPreview namespace), by reason. */
export const PREVIEW_REFUSED = {
  previewOff: "campaignPreview:refused.previewOff",
  notLive: "campaignPreview:refused.notLive",
} as const;

export async function campaignPreview(user: User, ctx: CampaignContext, locale: string, now = new Date()) {
  const c = ctx.campaign;
  const [settings, wallet] = await Promise.all([getRetailerSettings(), c.wallet ? getStorage().wallets.getOne(c.wallet) : null]);
  const liveStatus = liveStatusOf(c, wallet, now);
  const refusal = previewRefusal(settings, liveStatus);
  if (refusal) return fail("forbidden", PREVIEW_REFUSED[refusal]);

  const view = campaignViewContext(user, locale, now);
  const tiles =
    c.campaignType === "sponsored-products"
      ? previewTiles(c, new Map((await getStorage().catalog.getMany(Object.keys(c.offers ?? {}))).map((p) => [p.id, p])), await getProductImageHosts())
      : [];
  const creative = previewCreative(c.creative);
  return ok({
    campaign: { id: c.id, name: c.name, campaignType: c.campaignType, liveStatus, team: ctx.team.name },
    products: tiles.map((tile) => ({ ...tile, price: tile.price === null ? null : formatMoney(tile.price, view.currency, locale) })),
    banners: previewBanners(c, settings).map((b) => ({ slot: b.slot, width: b.width, height: b.height, imageUrl: fileUrl(b.image)!, link: b.link })),
    creative: creative ? { ...creative, brandImage: fileUrl(creative.brandImage) } : null,
  });
}
export type CampaignPreview = Extract<Awaited<ReturnType<typeof campaignPreview>>, { ok: true }>["value"];

