/** Server-side i18n: the locale of a request and translation functions for e-mails. */
import { createInstance, type TFunction } from "i18next";
import { RemixI18Next } from "remix-i18next/server";
import enCampaignList from "../../locales/en-GB/campaignList.json";
import frCampaignList from "../../locales/fr/campaignList.json";
import enCampaignEditor from "../../locales/en-GB/campaignEditor.json";
import frCampaignEditor from "../../locales/fr/campaignEditor.json";
import enCampaignTargeting from "../../locales/en-GB/campaignTargeting.json";
import frCampaignTargeting from "../../locales/fr/campaignTargeting.json";
import enCampaignProducts from "../../locales/en-GB/campaignProducts.json";
import frCampaignProducts from "../../locales/fr/campaignProducts.json";
import enCampaigns from "../../locales/en-GB/campaigns.json";
import enRetailer from "../../locales/en-GB/retailer.json";
import frRetailer from "../../locales/fr/retailer.json";
import enCommon from "../../locales/en-GB/common.json";
import enMedia from "../../locales/en-GB/media.json";
import frMedia from "../../locales/fr/media.json";
import enTeams from "../../locales/en-GB/teams.json";
import enUsers from "../../locales/en-GB/users.json";
import enWallets from "../../locales/en-GB/wallets.json";
import frCampaigns from "../../locales/fr/campaigns.json";
import frCommon from "../../locales/fr/common.json";
import frTeams from "../../locales/fr/teams.json";
import frUsers from "../../locales/fr/users.json";
import frWallets from "../../locales/fr/wallets.json";
import { FALLBACK_LOCALE, pickLocale, SUPPORTED_LOCALES, type Locale } from "~/domain/locale";
import { i18nConfig } from "~/i18n";
import { getCurrentUser } from "./auth.server";
import { localeCookie } from "./session.server";

export const resources = {
  "en-GB": { common: enCommon, media: enMedia, teams: enTeams, wallets: enWallets, users: enUsers, campaigns: enCampaigns, campaignList: enCampaignList, campaignEditor: enCampaignEditor, campaignTargeting: enCampaignTargeting, campaignProducts: enCampaignProducts, retailer: enRetailer },
  fr: { common: frCommon, media: frMedia, teams: frTeams, wallets: frWallets, users: frUsers, campaigns: frCampaigns, campaignList: frCampaignList, campaignEditor: frCampaignEditor, campaignTargeting: frCampaignTargeting, campaignProducts: frCampaignProducts, retailer: frRetailer },
} as const;

/** Profile when signed in, else the cookie, else Accept-Language, else en-GB. */
export async function getRequestLocale(request: Request): Promise<Locale> {
  const [{ user }, cookie] = await Promise.all([
    getCurrentUser(request),
    localeCookie.parse(request.headers.get("Cookie")) as Promise<string | null>,
  ]);
  return pickLocale({ profile: user?.locale, cookie, acceptLanguage: request.headers.get("Accept-Language") });
}

export const remixI18next = new RemixI18Next({
  detection: {
    supportedLanguages: [...SUPPORTED_LOCALES],
    fallbackLanguage: FALLBACK_LOCALE,
    findLocale: getRequestLocale,
  },
  i18next: { ...i18nConfig, resources },
});

const fixed = new Map<string, Promise<TFunction>>();

/** A translation function for a fixed locale (e-mails, server messages). */
export function getFixedT(locale: string): Promise<TFunction> {
  let t = fixed.get(locale);
  if (!t) {
    const instance = createInstance();
    t = instance.init({ ...i18nConfig, lng: locale, resources }).then(() => instance.t);
    fixed.set(locale, t);
  }
  return t;
}
