/**
 * The campaign preview: what a shopper would see of the campaign on the retailer's site, built
 * from what the ad server is given (publication.ts), so the preview never shows more or less than
 * the published copy would. Pure: the catalog products, the image hosts and the settings are
 * passed in. Whether a preview may be shown at all is status.ts's previewRefusal (spec section 4).
 *
 * Readings:
 * - Sponsored products: the offers switched on, in the published order (position, then
 *   availability); each tile takes the catalog's image, title, price and link where the catalog
 *   has the product, else the copy the campaign kept when the product was added (no price).
 * - Banners: the banners that count (banner-ads only: the slot chosen, an image and a link),
 *   each shown at its slot's size (a WxH slot name) with its link.
 * - The creative: its switched-on elements among brand, headline and text link (what a shopper
 *   reads); null when none of them is on.
 */
import { publishedProductIds, countedBanners, enabledCreativeElements } from "~/domain/campaigns/publication";
import type { Campaign } from "~/domain/campaigns/campaign";
import type { ProductInput } from "~/domain/catalog";
import { displayableImage } from "~/domain/catalog-view";
import { parseSize } from "~/domain/media";
import type { Cents } from "~/domain/money";
import type { RetailerSettings } from "~/domain/retailer-settings";

export interface PreviewTile {
  id: string;
  title: string;
  /** An image the page may load, or null (a blank tile). */
  image: string | null;
  /** Cents, or null when the catalog has no price for it. */
  price: Cents | null;
  /** The product page on the retailer's site (http(s) only), or null. */
  link: string | null;
}

export interface PreviewBanner {
  slot: string;
  width: number;
  height: number;
  /** The stored image's key in the files store. */
  image: string;
  link: string;
}

export interface PreviewCreative {
  brand: string | null;
  /** The brand image's key in the files store, or null. */
  brandImage: string | null;
  headline: string | null;
  textLink: string | null;
  /** Where the text link leads, or null when it is not an http(s) URL. */
  href: string | null;
}

type CatalogEntry = Pick<ProductInput, "title" | "image_link" | "price" | "link">;

const httpLink = (value: string | null | undefined): string | null => (value && /^https?:\/\/[^\s]+$/i.test(value.trim()) ? value.trim() : null);

/** The campaign's product tiles, in the order the ad server shows them. */
export function previewTiles(
  campaign: Pick<Campaign, "offers">,
  catalog: ReadonlyMap<string, CatalogEntry>,
  imageHosts: readonly string[] = [],
): PreviewTile[] {
  return publishedProductIds(campaign.offers).map((id) => {
    const offer = campaign.offers[id]!;
    const product = catalog.get(id);
    const imageLink = product?.image_link || offer.image_link || "";
    return {
      id,
      title: product?.title || offer.title || id,
      image: imageLink && displayableImage(imageLink, imageHosts) ? imageLink : null,
      price: product && Number.isSafeInteger(product.price) && product.price >= 0 ? product.price : null,
      link: httpLink(product?.link),
    };
  });
}

/** The banners a shopper would see, each at its slot's size, in the settings' order. */
export function previewBanners(campaign: Pick<Campaign, "campaignType" | "slots" | "slotsOff" | "placements" | "banners">, settings: RetailerSettings): PreviewBanner[] {
  return Object.entries(countedBanners(campaign, settings)).flatMap(([slot, banner]) => {
    const size = parseSize(slot);
    return size ? [{ slot, width: size.width, height: size.height, image: banner.image, link: banner.href_link }] : [];
  });
}

/** The creative's brand, headline and text link where switched on and filled; null when none is. */
export function previewCreative(creative: Campaign["creative"] | null | undefined): PreviewCreative | null {
  if (!creative) return null;
  const on = new Set(enabledCreativeElements(creative));
  const text = (value: string | null | undefined) => (value && value.trim() ? value.trim() : null);
  const out: PreviewCreative = {
    brand: on.has("brand") ? text(creative.brand) : null,
    brandImage: on.has("brand") ? text(creative.brand_image) : null,
    headline: on.has("headline") ? text(creative.headline) : null,
    textLink: on.has("link") ? text(creative.text_link) : null,
    href: httpLink(creative.href_link),
  };
  return out.brand || out.brandImage || out.headline || out.textLink ? out : null;
}
