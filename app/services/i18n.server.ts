/** Translations for the server: the resources and a translation function for a fixed locale (e-mails, exports). */
import { createInstance, type TFunction } from "i18next";
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
import enMetrics from "../../locales/en-GB/metrics.json";
import frMetrics from "../../locales/fr/metrics.json";
import enOperators from "../../locales/en-GB/operators.json";
import enCampaignKeywords from "../../locales/en-GB/campaignKeywords.json";
import frCampaignKeywords from "../../locales/fr/campaignKeywords.json";
import frOperators from "../../locales/fr/operators.json";
import { i18nConfig } from "~/i18n";

export const resources = {
  "en-GB": { common: enCommon, media: enMedia, teams: enTeams, wallets: enWallets, users: enUsers, campaigns: enCampaigns, campaignList: enCampaignList, campaignEditor: enCampaignEditor, campaignTargeting: enCampaignTargeting, campaignProducts: enCampaignProducts, campaignKeywords: enCampaignKeywords, retailer: enRetailer, metrics: enMetrics, operators: enOperators },
  fr: { common: frCommon, media: frMedia, teams: frTeams, wallets: frWallets, users: frUsers, campaigns: frCampaigns, campaignList: frCampaignList, campaignEditor: frCampaignEditor, campaignTargeting: frCampaignTargeting, campaignProducts: frCampaignProducts, campaignKeywords: frCampaignKeywords, retailer: frRetailer, metrics: frMetrics, operators: frOperators },
} as const;

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
