/** A stored campaign for unit tests of the campaign rules: a complete draft, overridable. */
import { newCampaignData, type Campaign } from "~/domain/campaigns/campaign";
import { DEFAULT_RETAILER_SETTINGS, type RetailerSettings } from "~/domain/retailer-settings";

export const FIXTURE_NOW = new Date("2026-03-10T10:00:00.000Z");
export const PARIS = "Europe/Paris";

/** Settings with a change applied to a deep copy of the defaults. */
export function settingsWith(change: (s: RetailerSettings) => void = () => {}): RetailerSettings {
  const s = structuredClone(DEFAULT_RETAILER_SETTINGS);
  change(s);
  return s;
}

export function makeCampaign(overrides: Partial<Campaign> = {}, type: Campaign["campaignType"] = "sponsored-products"): Campaign {
  const data = newCampaignData(
    { name: "Spring sale", startDay: "2026-03-01", endDay: null, campaignType: type, team: { id: "team-1", name: "Acme", account_type: "brand" } },
    DEFAULT_RETAILER_SETTINGS,
    "editor@example.com",
    FIXTURE_NOW,
    PARIS,
  );
  return { ...data, id: "camp-1", version: 3, bid: 50, bidStrategy: type === "banner-ads" ? "CPM" : "CPC", ...overrides };
}
