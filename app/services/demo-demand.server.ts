/**
 * Demo keyword and category demand (demo data only, issue 10 section 1): the statistics that the
 * demo's running campaign would have gathered on search, category and product pages since it
 * started, so that keyword and category searches show volume, trend, hits and suggested bids
 * on a fresh `npm start`. Written into the metrics store as the ad server's events would be (one
 * batch a day, idempotent: a day already seeded is not added twice). Their cost is the campaign's
 * spend of those days: debited from its wallet, one settlement entry a day dated at the day's end,
 * and counted in the campaign's total spend when the demo campaigns are created, so that the
 * statistics, the ledger, the budgets and the total spend tell the same story.
 *
 * Deterministic: a seeded PRNG, the same figures on every machine for the same days of a campaign
 * started on the same day.
 */
import { categoryNodes } from "~/domain/categories";
import { addDays, dayCount, dayStart, localDay, localHourAndWeekday, type Day } from "~/domain/metrics/periods";
import { hourlyShare } from "~/domain/metrics/simulation";
import type { MetricsFact } from "~/metrics/port";
import type { Storage } from "~/storage/port";
import { getMetricsStore } from "~/metrics/index.server";
import { DEMO_CATALOG_SIZE, demoCatalog, mulberry32 } from "~/services/catalog-seed.server";
import { DEMO_TEAM_ID } from "~/services/seed.server";

/** What shoppers search on the demo shop, with a day's displays of an ad on their results and the CPC paid. */
const KEYWORDS: readonly [keyword: string, displays: number, cpcCents: number][] = [
  ["coffee", 1800, 42],
  ["ground coffee", 650, 38],
  ["coffee beans", 520, 45],
  ["espresso", 700, 51],
  ["decaf", 180, 33],
  ["green tea", 340, 27],
  ["tea", 900, 24],
  ["breakfast cereal", 410, 22],
  ["spaghetti", 380, 18],
  ["basmati rice", 260, 19],
  ["olive oil", 590, 35],
  ["dark chocolate", 470, 29],
  ["sparkling water", 520, 16],
  ["shampoo", 1250, 44],
  ["conditioner", 480, 39],
  ["day cream", 620, 66],
  ["face serum", 540, 82],
  ["mascara", 410, 58],
  ["lipstick", 380, 61],
  ["toothpaste", 700, 21],
  ["laundry detergent", 810, 47],
  ["dishwasher tablets", 560, 41],
  ["frying pan", 330, 55],
  ["bath towel", 290, 37],
  ["scented candle", 240, 34],
  ["wireless earbuds", 960, 88],
  ["bluetooth speaker", 610, 74],
  ["usb-c charger", 520, 43],
  ["power bank", 450, 49],
  ["smart tv", 780, 95],
  ["4k tv", 430, 97],
  ["smartwatch", 690, 86],
  ["hdmi cable", 350, 23],
  ["acme", 520, 31],
  ["crème", 150, 48],
  ["café", 210, 40],
];

/** A category page's displays a day: a department's hub, a category's list, its product pages. */
const CATEGORY_DISPLAYS = { hub: 900, plp: 320, pdp: 180 } as const;
const CATEGORY_CPC_CENTS = { hub: 30, plp: 36, pdp: 28 } as const;

const CTR = { search: 0.034, plp: 0.018, hub: 0.015, pdp: 0.012 } as const;
const VIEW_RATE = 0.7;
const CONVERSION = 0.06;
const AVERAGE_SALE_CENTS = 1_450;

function demoCategories(): ReturnType<typeof categoryNodes> {
  const nodes = new Map<string, ReturnType<typeof categoryNodes>[number]>();
  for (const product of demoCatalog(DEMO_CATALOG_SIZE)) for (const path of product.categories) for (const node of categoryNodes(path)) nodes.set(node.id, node);
  return [...nodes.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
}

/**
 * The hours of a local day (23 or 25 on the days clocks change), each with its share of the
 * day's traffic by the simulator's curve (quiet at night, busy at lunch and in the evening).
 */
function hoursOf(day: Day, timeZone: string): { hour: Date; localHour: number; weight: number }[] {
  const start = dayStart(day, timeZone).getTime();
  const end = dayStart(addDays(day, 1), timeZone).getTime();
  const hours = [];
  for (let at = start; at < end; at += 3_600_000) {
    const { hour: localHour } = localHourAndWeekday(at, timeZone);
    hours.push({ hour: new Date(at), localHour, weight: hourlyShare(localHour) });
  }
  return hours;
}

/**
 * The facts of one demo day: each keyword's or category's figures at an hour drawn by the day's
 * traffic curve (so the campaign screen's weekday-by-hour grid shows when shoppers come), on one of
 * the campaign's products (so its products table has figures).
 */
export function demoDemandFacts(
  day: Day,
  campaign: { id: string; team: string; wallet: string; productIds?: readonly string[]; startDay?: Day },
  timeZone: string,
  categories = demoCategories(),
): MetricsFact[] {
  const random = mulberry32(Number(day.replaceAll("-", "")) ^ 0x0de3a4d);
  const hours = hoursOf(day, timeZone);
  const totalWeight = hours.reduce((sum, h) => sum + h.weight, 0);
  const drawHour = () => {
    let left = random() * totalWeight;
    for (const h of hours) if ((left -= h.weight) < 0) return h;
    return hours[hours.length - 1]!;
  };
  const products = campaign.productIds ?? [];
  const noon = new Date(dayStart(day, timeZone).getTime() + 12 * 3_600_000);
  const { weekday } = localHourAndWeekday(noon, timeZone);
  // Busier weekends, and demand growing since the campaign started (a rising trend to show):
  // up to 30 % more after four weeks.
  const weeks = campaign.startDay && campaign.startDay <= day ? (dayCount({ from: campaign.startDay, to: day }) - 1) / 7 : 0;
  const factor = (weekday >= 5 ? 1.2 : 1) * (1 + Math.min(weeks / 4, 1) * 0.3);
  const facts: MetricsFact[] = [];
  const fact = (placement: keyof typeof CTR, slot: string, target: Partial<Pick<MetricsFact, "keyword" | "category" | "productCategory">>, base: number, cpcCents: number) => {
    const displays = Math.max(1, Math.round(base * factor * (0.85 + random() * 0.3)));
    const clicks = Math.round(displays * CTR[placement] * (0.8 + random() * 0.4));
    const quantity = Math.round(clicks * CONVERSION * (0.5 + random()));
    const { hour, localHour } = drawHour();
    facts.push({
      hour: hour.toISOString(),
      day,
      localHour,
      weekday,
      team: campaign.team,
      wallet: campaign.wallet,
      campaign: campaign.id,
      campaignType: "sponsored-products",
      placement,
      slot,
      device: random() < 0.6 ? "mobile" : "desktop",
      product: products.length ? products[Math.floor(random() * products.length)]! : "",
      keyword: target.keyword ?? "",
      category: target.category ?? "",
      productCategory: target.productCategory ?? "",
      displays,
      views: Math.round(displays * VIEW_RATE),
      clicks,
      costMicros: Math.round(clicks * cpcCents * (0.85 + random() * 0.3)) * 10_000,
      quantity,
      salesCents: quantity * AVERAGE_SALE_CENTS,
    });
  };
  for (const [keyword, displays, cpc] of KEYWORDS) fact("search", "sp", { keyword }, displays, cpc);
  for (const node of categories) {
    const page = node.level === 1 ? "hub" : "plp";
    fact(page, "sp", { category: node.id }, CATEGORY_DISPLAYS[page] / node.level, CATEGORY_CPC_CENTS[page]);
    fact("pdp", "slider", { productCategory: node.id }, CATEGORY_DISPLAYS.pdp / node.level, CATEGORY_CPC_CENTS.pdp);
  }
  return facts;
}

/**
 * The days of demo history of a campaign started on `startDay` and seeded on `seededDay`: from its
 * start (28 days at most) to the day before it was seeded. Days after that are the live
 * simulator's, never seeded again on a later start of the server.
 */
export function demoHistoryDays(startDay: Day, seededDay: Day): Day[] {
  const days: Day[] = [];
  for (let day = [startDay, addDays(seededDay, -28)].sort()[1]!; day < seededDay; day = addDays(day, 1)) days.push(day);
  return days;
}

/** Cents a day's facts cost (each fact's cost is whole cents). */
export function factsCents(facts: readonly MetricsFact[]): number {
  return facts.reduce((sum, f) => sum + f.costMicros, 0) / 10_000;
}

/**
 * What the demo history of the running campaign costs in all, in cents: the campaign's total
 * spend when the demo campaigns are created (the same facts seedDemoDemand writes).
 */
export function demoHistoryCents(startDay: Day, now: Date, timeZone: string, productIds: readonly string[]): number {
  const categories = demoCategories();
  const campaign = { id: "", team: "", wallet: "", productIds, startDay };
  return demoHistoryDays(startDay, localDay(now, timeZone)).reduce((sum, day) => sum + factsCents(demoDemandFacts(day, campaign, timeZone, categories)), 0);
}

/**
 * Seeds the demand of the days the demo's running campaign ran before it was seeded (28 at
 * most), and debits each day's cost from its wallet as that day's settlement; returns how many
 * days it added (0 when seeded before, or without that campaign).
 */
export async function seedDemoDemand(storage: Storage, now: Date, timeZone: string): Promise<number> {
  const campaign = (await storage.campaigns.listForTeam(DEMO_TEAM_ID)).find((c) => c.status === "active" && c.wallet && c.campaignType === "sponsored-products" && c.startDate && Date.parse(c.startDate) < now.getTime());
  if (!campaign?.wallet || !campaign.startDate) return 0;
  const seededDay = localDay(new Date(Math.min(Date.parse(campaign.created), now.getTime())), timeZone);
  const startDay = localDay(new Date(campaign.startDate), timeZone);
  const categories = demoCategories();
  const store = getMetricsStore();
  let added = 0;
  for (const day of demoHistoryDays(startDay, seededDay)) {
    const facts = demoDemandFacts(day, { id: campaign.id, team: campaign.team, wallet: campaign.wallet, productIds: campaign.productIds, startDay }, timeZone, categories);
    const result = await store.applyBatch(`demo-demand-${campaign.id}-${day}`, facts, null);
    if (!result.applied) continue;
    added++;
    // The day's spend, settled at its end as the settlement would have (isSettlementEntry).
    const cents = factsCents(facts);
    if (cents > 0) {
      const posted = await storage.ledger.post(
        { walletId: campaign.wallet, type: "debit", amount: cents, reference: `SPEND-${day.replaceAll("-", "")}`, comment: "Ad spend settled", by: "system", idempotencyKey: `demo-spend-${campaign.id}-${day}` },
        new Date(dayStart(addDays(day, 1), timeZone).getTime() - 60_000),
      );
      if (!posted.ok) throw new Error(`Demo spend of ${day} not debited: ${posted.reason}`);
    }
  }
  return added;
}
