/**
 * Demo wallet and campaigns for `npm start` (demo data only; idempotent: seeded once, when the
 * demo team has no campaign). Built through the same repositories and rules as the console:
 * the running campaign is published to the ad server's cache like any other.
 */
import { dayOfInstant, newCampaignData, type Campaign, type CampaignData, type CampaignOffer } from "~/domain/campaigns/campaign";
import { newTarget } from "~/domain/campaigns/targets";
import { keywordKey } from "~/domain/categories";
import { publishedCampaign } from "~/domain/campaigns/publication";
import { DEFAULT_RETAILER_SETTINGS } from "~/domain/retailer-settings";
import type { Storage } from "~/storage/port";
import { getEnv } from "~/services/env.server";
import { DEMO_TEAM_ID } from "~/services/seed.server";
import { dayStart } from "~/domain/metrics/periods";
import { demoHistoryCents } from "~/services/demo-demand.server";

export const DEMO_WALLET_ID = "acme-brand-main";

/** The running demo campaign's keywords and their own bids (cents; null: the campaign's bid). */
const DEMO_KEYWORDS: readonly [name: string, bid: number | null][] = [
  ["coffee", 60],
  ["ground coffee", null],
  ["coffee beans", 55],
  ["espresso", 70],
  ["acme", null],
];

function addDays(day: string, days: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * Seeds the demo wallet (credited €25,000 the day before its running campaign started, its daily
 * budget €800) and four campaigns; returns how many records it made. The running campaign's
 * two weeks of history (seedDemoDemand, about €450 a day) are within its budgets, and its total
 * spend counts them.
 */
export async function seedDemoCampaigns(storage: Storage, now: Date): Promise<number> {
  const team = await storage.teams.getOne(DEMO_TEAM_ID);
  if (!team) return 0;
  if ((await storage.campaigns.listForTeam(team.id)).length > 0) return 0;
  const actor = { by: "system" };
  const timeZone = getEnv().RETAILER_TIMEZONE;
  const settings = (await storage.config.get()).retailerSettings ?? DEFAULT_RETAILER_SETTINGS;
  let created = 0;

  const today = dayOfInstant(now.toISOString(), timeZone);
  const runningStart = addDays(today, -14);
  let wallet = await storage.wallets.getOne(DEMO_WALLET_ID);
  if (!wallet) {
    wallet = await storage.wallets.create(
      team.id,
      { label: "Acme 2026 budget", currency: "EUR", status: "active", dailyBudget: 80_000, budgetEditing: true, external_id: "", tags: [] },
      actor,
      DEMO_WALLET_ID,
    );
    const posted = await storage.ledger.post(
      { walletId: wallet.id, type: "credit", amount: 2_500_000, reference: "DEMO-PO-1", comment: "Demo funding", by: "system", idempotencyKey: "00000000-0000-4000-8000-000000000001" },
      // Funded before the running campaign's history, whose spend is debited day by day.
      new Date(Math.min(now.getTime(), dayStart(addDays(runningStart, -1), timeZone).getTime() + 9 * 3_600_000)),
    );
    if (posted.ok) wallet = posted.wallet;
    created++;
  }

  const acme = await storage.catalog.list({ brand: "Acme", party: "1P", limit: 12 });
  const offers = (count: number): Pick<CampaignData, "offers" | "productIds"> => {
    const picked = acme.items.slice(0, count);
    const entries: [string, CampaignOffer][] = picked.map((p, i) => [
      p.id,
      { on: true, availability: p.availability, title: p.title, image_link: p.image_link, pos: i + 1, party: p.party },
    ]);
    return { offers: Object.fromEntries(entries), productIds: picked.map((p) => p.id) };
  };
  const selectedWallet = { label: wallet.label, credit: wallet.credit, balance: wallet.balance, status: wallet.status };
  const base = (name: string, startDay: string, endDay: string | null, type: "sponsored-products" | "banner-ads" = "sponsored-products") =>
    newCampaignData({ name, startDay, endDay, campaignType: type, team }, settings, "system", now, timeZone);

  const demos: CampaignData[] = [
    {
      ...base("Acme everyday essentials", runningStart, null),
      status: "active",
      bid: 45,
      wallet: wallet.id,
      selectedWallet,
      pacingTotal: 3_000_000,
      pacingDaily: 65_000,
      ...offers(6),
      spend: demoHistoryCents(runningStart, now, timeZone, offers(6).productIds),
    },
    {
      ...base("Acme Christmas push", addDays(today, 18), addDays(today, 32)),
      status: "active",
      bid: 60,
      wallet: wallet.id,
      selectedWallet,
      pacingTotal: 200_000,
      ...offers(4),
    },
    { ...base("Acme new launches", today, null), bid: 30, ...offers(3) },
    {
      ...base("Acme home banners", addDays(today, -30), addDays(today, 60), "banner-ads"),
      status: "paused",
      bid: 400,
      wallet: wallet.id,
      selectedWallet,
      ...offers(2),
    },
  ];
  const publish = (campaign: Campaign) => publishedCampaign(campaign, { settings, teamStatus: team.status, timeZone, now });
  for (const data of demos) {
    let campaign = await storage.campaigns.create(data, actor);
    // The running campaign bids on searches its demo history has statistics for (seedDemoDemand),
    // so that its Keywords section shows figures; some keywords at the campaign's bid (no own bid).
    if (campaign.name === "Acme everyday essentials") {
      const upsert = Object.fromEntries(DEMO_KEYWORDS.map(([name, bid]) => [keywordKey(name), newTarget({ name, bid }, now)]));
      campaign = (await storage.targets.change(campaign.id, { kinds: [{ kind: "keyword", upsert }] }, actor, { publish })).campaign;
    }
    const payload = publish(campaign);
    if (payload) await storage.publication.apply(campaign.id, payload);
    created++;
  }
  // The teams list's "live campaigns" (active ones), kept by the campaign service from now on.
  await storage.teams.updateCampaignCounters(team.id, { liveCampaigns: demos.filter((d) => d.status === "active").length });
  return created;
}
