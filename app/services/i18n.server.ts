/** Translations for the server: the resources and a translation function for a fixed locale (e-mails, exports). */
import { createInstance, type TFunction } from "i18next";
import enCommon from "../../locales/en-GB/common.json";
import frCommon from "../../locales/fr/common.json";
import enTeams from "../../locales/en-GB/teams.json";
import frTeams from "../../locales/fr/teams.json";
import enWallets from "../../locales/en-GB/wallets.json";
import frWallets from "../../locales/fr/wallets.json";
import enUsers from "../../locales/en-GB/users.json";
import frUsers from "../../locales/fr/users.json";
import enCampaigns from "../../locales/en-GB/campaigns.json";
import frCampaigns from "../../locales/fr/campaigns.json";
import enCampaignList from "../../locales/en-GB/campaignList.json";
import frCampaignList from "../../locales/fr/campaignList.json";
import enCampaignEditor from "../../locales/en-GB/campaignEditor.json";
import frCampaignEditor from "../../locales/fr/campaignEditor.json";
import enCampaignTargeting from "../../locales/en-GB/campaignTargeting.json";
import frCampaignTargeting from "../../locales/fr/campaignTargeting.json";
import enCampaignProducts from "../../locales/en-GB/campaignProducts.json";
import frCampaignProducts from "../../locales/fr/campaignProducts.json";
import enRetailer from "../../locales/en-GB/retailer.json";
import frRetailer from "../../locales/fr/retailer.json";
import enMedia from "../../locales/en-GB/media.json";
import frMedia from "../../locales/fr/media.json";
import enMetrics from "../../locales/en-GB/metrics.json";
import frMetrics from "../../locales/fr/metrics.json";
import enOperators from "../../locales/en-GB/operators.json";
import frOperators from "../../locales/fr/operators.json";
import enCatalog from "../../locales/en-GB/catalog.json";
import frCatalog from "../../locales/fr/catalog.json";
import enSso from "../../locales/en-GB/sso.json";
import frSso from "../../locales/fr/sso.json";
import enReports from "../../locales/en-GB/reports.json";
import frReports from "../../locales/fr/reports.json";
import enProfile from "../../locales/en-GB/profile.json";
import frProfile from "../../locales/fr/profile.json";
import enSecondFactor from "../../locales/en-GB/secondFactor.json";
import frSecondFactor from "../../locales/fr/secondFactor.json";
import enCampaignProductPicker from "../../locales/en-GB/campaignProductPicker.json";
import frCampaignProductPicker from "../../locales/fr/campaignProductPicker.json";
import enCampaignKeywords from "../../locales/en-GB/campaignKeywords.json";
import frCampaignKeywords from "../../locales/fr/campaignKeywords.json";
import enQuickBuilder from "../../locales/en-GB/quickBuilder.json";
import frQuickBuilder from "../../locales/fr/quickBuilder.json";
import enPickers from "../../locales/en-GB/pickers.json";
import frPickers from "../../locales/fr/pickers.json";
import enCatalogImport from "../../locales/en-GB/catalogImport.json";
import frCatalogImport from "../../locales/fr/catalogImport.json";
import enCampaignPreview from "../../locales/en-GB/campaignPreview.json";
import frCampaignPreview from "../../locales/fr/campaignPreview.json";
import enImageHosts from "../../locales/en-GB/imageHosts.json";
import frImageHosts from "../../locales/fr/imageHosts.json";
import enTitles from "../../locales/en-GB/titles.json";
import frTitles from "../../locales/fr/titles.json";
import { i18nConfig } from "~/i18n";

export const resources = {
  "en-GB": {
    common: enCommon,
    teams: enTeams,
    wallets: enWallets,
    users: enUsers,
    campaigns: enCampaigns,
    campaignList: enCampaignList,
    campaignEditor: enCampaignEditor,
    campaignTargeting: enCampaignTargeting,
    campaignProducts: enCampaignProducts,
    retailer: enRetailer,
    media: enMedia,
    metrics: enMetrics,
    operators: enOperators,
    catalog: enCatalog,
    sso: enSso,
    reports: enReports,
    profile: enProfile,
    secondFactor: enSecondFactor,
    campaignProductPicker: enCampaignProductPicker,
    campaignKeywords: enCampaignKeywords,
    quickBuilder: enQuickBuilder,
    pickers: enPickers,
    catalogImport: enCatalogImport,
    imageHosts: enImageHosts,
    campaignPreview: enCampaignPreview,
    titles: enTitles,
  },
  fr: {
    common: frCommon,
    teams: frTeams,
    wallets: frWallets,
    users: frUsers,
    campaigns: frCampaigns,
    campaignList: frCampaignList,
    campaignEditor: frCampaignEditor,
    campaignTargeting: frCampaignTargeting,
    campaignProducts: frCampaignProducts,
    retailer: frRetailer,
    media: frMedia,
    metrics: frMetrics,
    operators: frOperators,
    catalog: frCatalog,
    sso: frSso,
    reports: frReports,
    profile: frProfile,
    secondFactor: frSecondFactor,
    campaignProductPicker: frCampaignProductPicker,
    campaignKeywords: frCampaignKeywords,
    quickBuilder: frQuickBuilder,
    pickers: frPickers,
    catalogImport: frCatalogImport,
    imageHosts: frImageHosts,
    campaignPreview: frCampaignPreview,
    titles: frTitles,
  },
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
