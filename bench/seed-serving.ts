/**
 * Bench data for the serving bench (bench/serving.mjs): `campaigns` running campaigns on the demo
 * wallet of the demo team, made through the storage port and the domain's campaign rules, and 30
 * days of hourly statistics for each (through the metrics store's applyBatch) up to the current
 * hour, so that the campaign list's metric columns have figures for every period. Bundled and run
 * by bench/serving.mjs against a stopped server's data folder.
 */
import { newCampaignData, dayOfInstant } from "~/domain/campaigns/campaign";
import { localDay, localHourAndWeekday } from "~/domain/metrics/periods";
import { DEFAULT_RETAILER_SETTINGS } from "~/domain/retailer-settings";
import { createMetricsStore } from "~/metrics/index.server";
import type { MetricsFact } from "~/metrics/port";
import { DEMO_WALLET_ID } from "~/services/demo-campaigns.server";
import { DEMO_TEAM_ID } from "~/services/seed.server";
import { closeStorage, initStorage } from "~/storage/index.server";

export async function seedServing(env: Record<string, string>, campaigns: number): Promise<{ campaigns: { id: string; team: string; wallet: string; campaignType: string }[]; facts: number }> {
  Object.assign(process.env, env);
  const storage = await initStorage(env);
  const now = new Date();
  const timeZone = env.RETAILER_TIMEZONE ?? "Europe/Paris";
  const settings = (await storage.config.get()).retailerSettings ?? DEFAULT_RETAILER_SETTINGS;
  const team = await storage.teams.getOne(DEMO_TEAM_ID);
  const wallet = await storage.wallets.getOne(DEMO_WALLET_ID);
  if (!team || !wallet) throw new Error("The demo team and wallet must be seeded first (SEED_DEMO_CAMPAIGNS)");
  const today = dayOfInstant(now.toISOString(), timeZone);
  const selectedWallet = { label: wallet.label, credit: wallet.credit, balance: wallet.balance, status: wallet.status };
  const campaignIds: string[] = [];
  const seeded: { id: string; team: string; wallet: string; campaignType: string }[] = [];
  for (let i = 0; i < campaigns; i++) {
    const data = newCampaignData(
      { name: `Bench campaign ${String(i + 1).padStart(4, "0")}`, startDay: today, endDay: null, campaignType: i % 4 === 0 ? "banner-ads" : "sponsored-products", team },
      settings,
      "system",
      now,
      timeZone,
    );
    const campaign = await storage.campaigns.create({ ...data, status: i % 10 === 0 ? "paused" : "active", bid: 40 + (i % 30), wallet: wallet.id, selectedWallet, pacingTotal: 100_000 }, { by: "system" });
    campaignIds.push(campaign.id);
    seeded.push({ id: campaign.id, team: campaign.team, wallet: wallet.id, campaignType: campaign.campaignType });
  }
  await closeStorage();

  const store = createMetricsStore(env);
  const hourMs = 3_600_000;
  const thisHour = Math.floor(now.getTime() / hourMs) * hourMs;
  let facts = 0;
  // The last campaign stays without statistics: the bench's event-to-screen probe counts on it.
  const withFacts = campaignIds.slice(0, -1);
  for (let d = 29; d >= 0; d--) {
    const batch: MetricsFact[] = [];
    for (let h = 23; h >= 0; h--) {
      const at = thisHour - (d * 24 + h) * hourMs;
      const hour = new Date(at);
      const { hour: localHour, weekday } = localHourAndWeekday(hour, timeZone);
      withFacts.forEach((campaign, c) => {
        const displays = 20 + ((c * 7 + localHour * 13) % 90);
        const clicks = displays % 5;
        batch.push({
          hour: hour.toISOString(), day: localDay(hour, timeZone), localHour, weekday,
          team: team.id, wallet: wallet.id, campaign, campaignType: c % 4 === 0 ? "banner-ads" : "sponsored-products",
          placement: "search", slot: "sp", device: ["mobile", "desktop", "tablet"][c % 3]!, product: "", keyword: "", category: "", productCategory: "",
          displays, views: Math.floor(displays * 0.7), clicks, costMicros: clicks * 450_000, quantity: clicks % 2, salesCents: (clicks % 2) * 2_999,
        });
      });
    }
    await store.applyBatch(`bench-serving-${d}`, batch, new Date(thisHour).toISOString());
    facts += batch.length;
  }
  await store.close();
  return { campaigns: seeded, facts };
}
