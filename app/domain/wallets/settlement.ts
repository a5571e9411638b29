/**
 * Settlement of ad spend: events cost micro-units of the currency; wallets are debited, and
 * campaigns' spend counted, in whole cents. Pure.
 *
 * - Unsettled cost is kept in micros per wallet (its total) and per campaign.
 * - A settlement moves floor(micros / 10,000) cents and carries the remainder (under one cent)
 *   to the next one, so over time the debits equal the events' costs to the cent: after any
 *   settlement, debited cents x 10,000 + carry = the micros received.
 * - The wallet and each campaign carry separately (the wallet rounds its total once; each
 *   campaign rounds its own share): the wallet's debits are exact, and so is each campaign's
 *   spend; their sums may differ by less than a cent per campaign until the carries complete.
 * - Today's spend (the retailer's day) counts what was settled that day; a daily cap is reached
 *   when it reaches the cap (a cap of null, 0 or less is none).
 * - Placement and device caps count micros per placement and device (below).
 */
import { PACING_DEVICES, PACING_PLACEMENTS, type PacingDevice, type PacingPlacement } from "~/domain/campaigns/pacing";
import { MICROS_PER_CENT, type Micros } from "~/domain/metrics/metrics";
import type { Cents } from "~/domain/money";

export interface Accrual {
  /** The wallet's unsettled micros. */
  unsettledMicros: Micros;
  /** Each campaign's unsettled micros (entries of 0 are dropped). */
  campaigns: Record<string, Micros>;
}

/** Whole cents of an amount of micros, and what is left under a cent. */
export function splitMicros(micros: Micros): { cents: Cents; carry: Micros } {
  if (!Number.isSafeInteger(micros) || micros < 0) throw new RangeError(`Not a count of micros: ${micros}`);
  const cents = Math.floor(micros / MICROS_PER_CENT);
  return { cents, carry: micros - cents * MICROS_PER_CENT };
}

/** The accrual with a batch's cost added. */
export function addToAccrual(accrual: Accrual | null | undefined, cost: { total: Micros; campaigns: Record<string, Micros> }): Accrual {
  const campaigns = { ...(accrual?.campaigns ?? {}) };
  for (const [id, micros] of Object.entries(cost.campaigns)) {
    const sum = (campaigns[id] ?? 0) + micros;
    if (sum > 0) campaigns[id] = sum;
  }
  return { unsettledMicros: (accrual?.unsettledMicros ?? 0) + cost.total, campaigns };
}

/** A settlement is due when the wallet or one of its campaigns holds at least a whole cent. */
export function isSettlementDue(accrual: Accrual): boolean {
  return accrual.unsettledMicros >= MICROS_PER_CENT || Object.values(accrual.campaigns).some((m) => m >= MICROS_PER_CENT);
}

export interface SettlementPlan {
  /** Cents to debit from the wallet (0: no ledger entry). */
  walletCents: Cents;
  /** Cents of spend to add to each campaign (only campaigns with at least one). */
  campaignCents: Record<string, Cents>;
  /** The accrual left: the carries. */
  after: Accrual;
}

/** What a settlement moves: whole cents of the wallet and of each campaign; the carries stay. */
export function planSettlement(accrual: Accrual): SettlementPlan {
  const wallet = splitMicros(accrual.unsettledMicros);
  const campaignCents: Record<string, Cents> = {};
  const carries: Record<string, Micros> = {};
  for (const [id, micros] of Object.entries(accrual.campaigns)) {
    const { cents, carry } = splitMicros(micros);
    if (cents > 0) campaignCents[id] = cents;
    if (carry > 0) carries[id] = carry;
  }
  return { walletCents: wallet.cents, campaignCents, after: { unsettledMicros: wallet.carry, campaigns: carries } };
}

/** Spend of one retailer day. */
export interface DaySpend {
  /** yyyy-mm-dd in the retailer's time zone ("" before any spend). */
  day: string;
  amount: Cents;
}

/** Today's spend after settling `cents` on `day`: a new day starts from zero. */
export function addDaySpend(current: DaySpend | null | undefined, day: string, cents: Cents): DaySpend {
  return { day, amount: (current && current.day === day ? current.amount : 0) + cents };
}

/** The spend of `day` (0 when the stored spend is of another day). */
export function spendOfDay(current: DaySpend | null | undefined, day: string): Cents {
  return current && current.day === day ? current.amount : 0;
}

/** A daily cap (cents) is reached on `day` when that day's spend reaches it; no cap, never. */
export function reachesDailyCap(current: DaySpend | null | undefined, day: string, capCents: Cents | null | undefined): boolean {
  return typeof capCents === "number" && capCents > 0 && spendOfDay(current, day) >= capCents;
}

/**
 * The day a campaign stands stopped for (its dailyCapReached) after a cap or a spend changed:
 * today when its daily pacing or its wallet's daily budget is reached today, else null. So a cap
 * raised after it was reached lets the campaign serve again the same day, and one lowered under
 * today's spend stops it at once.
 */
export function dailyCapDay(
  campaign: { todaySpend?: DaySpend | null; pacingDaily: Cents | null },
  wallet: { todaySpend?: DaySpend | null; dailyBudget: Cents | null } | null | undefined,
  today: string,
): string | null {
  const reached = reachesDailyCap(campaign.todaySpend, today, campaign.pacingDaily) || (!!wallet && reachesDailyCap(wallet.todaySpend, today, wallet.dailyBudget));
  return reached ? today : null;
}

// ---------------------------------------------------------------------------------------------
// Placement and device caps (issue 9 §1, ADR 18's addendum)
//
// A campaign's per-placement caps (pacingSearch…pacingHome) and per-device caps (pacingDevices:
// mobile, tablet, app, unknown) are daily caps in cents. Their spend is counted in micros, not
// rounded: each event's cost goes to its placement and its device, the accrual keeps them per
// campaign until the campaign's own cents are settled, and the settlement adds them to the
// campaign's spend of the day per placement and per device. A cap is reached when that day's
// micros reach cap x 10,000, exactly. The wallet's debits and the campaigns' spend are not
// touched by any of this.

/** Micros of one campaign per placement and per device (entries of 0 are dropped). */
export interface DimensionMicros {
  placements: Record<string, Micros>;
  devices: Record<string, Micros>;
}

/** Micros per campaign and dimension (a batch's cost, or what an accrual holds unsettled). */
export type CampaignDimensions = Record<string, DimensionMicros>;

function addMicros(into: Record<string, Micros>, from: Record<string, Micros> | undefined): Record<string, Micros> {
  const out = { ...into };
  for (const [key, micros] of Object.entries(from ?? {})) {
    const sum = (out[key] ?? 0) + micros;
    if (sum > 0) out[key] = sum;
  }
  return out;
}

/** Two sets of campaign dimensions added up. */
export function addDimensions(current: CampaignDimensions | null | undefined, added: CampaignDimensions | null | undefined): CampaignDimensions {
  const out: CampaignDimensions = { ...(current ?? {}) };
  for (const [campaignId, micros] of Object.entries(added ?? {})) {
    const before = out[campaignId] ?? { placements: {}, devices: {} };
    out[campaignId] = { placements: addMicros(before.placements, micros.placements), devices: addMicros(before.devices, micros.devices) };
  }
  return out;
}

/**
 * The dimensions of the campaigns a settlement moves (those with whole cents settled), and what
 * stays in the accrual for the others. A campaign's dimensions sum to its own micros, so what
 * stays belongs to campaigns holding less than a cent.
 */
export function takeDimensions(
  dimensions: CampaignDimensions | null | undefined,
  campaignIds: readonly string[],
): { taken: CampaignDimensions; left: CampaignDimensions } {
  const moving = new Set(campaignIds);
  const taken: CampaignDimensions = {};
  const left: CampaignDimensions = {};
  for (const [campaignId, micros] of Object.entries(dimensions ?? {})) (moving.has(campaignId) ? taken : left)[campaignId] = micros;
  return { taken, left };
}

/** A campaign's spend of one retailer day per placement and per device, in micros. */
export interface DayDimensionSpend extends DimensionMicros {
  /** yyyy-mm-dd in the retailer's time zone. */
  day: string;
}

/** Today's spend per placement and device after settling `micros` on `day`: a new day starts from zero. */
export function addDayDimensions(current: DayDimensionSpend | null | undefined, day: string, micros: DimensionMicros | null | undefined): DayDimensionSpend {
  const base = current && current.day === day ? current : { placements: {}, devices: {} };
  return { day, placements: addMicros(base.placements, micros?.placements), devices: addMicros(base.devices, micros?.devices) };
}

/** The placement and device caps reached on a day, in the canonical orders. */
export interface CapsReached {
  day: string;
  placements: PacingPlacement[];
  devices: PacingDevice[];
}

/** What the caps are read from: the campaign's caps (cents) and its spend of the day per dimension. */
export interface DimensionCaps {
  pacingSearch: Cents | null;
  pacingPlp: Cents | null;
  pacingHub: Cents | null;
  pacingPdp: Cents | null;
  pacingHome: Cents | null;
  pacingDevices: Partial<Record<PacingDevice, Cents | null>> | null | undefined;
  todaySpendMicros?: DayDimensionSpend | null;
}

const PLACEMENT_CAP_FIELD = {
  search: "pacingSearch",
  plp: "pacingPlp",
  hub: "pacingHub",
  pdp: "pacingPdp",
  home: "pacingHome",
} as const satisfies Record<PacingPlacement, keyof DimensionCaps>;

function capReached(micros: Micros | undefined, capCents: Cents | null | undefined): boolean {
  return typeof capCents === "number" && capCents > 0 && (micros ?? 0) >= capCents * MICROS_PER_CENT;
}

/**
 * The placement and device caps reached on `day`: each whose spend of that day (micros) reaches
 * its cap (cents; null, 0 or less is none). Null when none is. Computed from the caps as they
 * stand, so a cap raised above the day's spend serves again, and one lowered under it stops.
 */
export function capsReachedOn(campaign: DimensionCaps, day: string): CapsReached | null {
  const spend = campaign.todaySpendMicros?.day === day ? campaign.todaySpendMicros : null;
  const placements = PACING_PLACEMENTS.filter((p) => capReached(spend?.placements[p], campaign[PLACEMENT_CAP_FIELD[p]]));
  const devices = PACING_DEVICES.filter((d) => capReached(spend?.devices[d], campaign.pacingDevices?.[d]));
  return placements.length || devices.length ? { day, placements, devices } : null;
}

/** Two records of caps reached say the same (null and an empty record alike). */
export function sameCapsReached(a: CapsReached | null | undefined, b: CapsReached | null | undefined): boolean {
  const empty = (c: CapsReached | null | undefined) => !c || (c.placements.length === 0 && c.devices.length === 0);
  if (empty(a) || empty(b)) return empty(a) && empty(b);
  return a!.day === b!.day && a!.placements.join() === b!.placements.join() && a!.devices.join() === b!.devices.join();
}

/** One placement's or device's spend of the day against its cap, as the pacing view shows it. */
export interface DimensionPacing<K extends string> {
  key: K;
  spentMicros: Micros;
  /** Cents, or null for no cap. */
  capCents: Cents | null;
  reached: boolean;
}

/**
 * The spend of `day` per placement and per device against their caps: every placement and
 * device with a cap or with spend that day, in the canonical orders.
 */
export function dimensionPacingOn(
  campaign: DimensionCaps,
  day: string,
): { placements: DimensionPacing<PacingPlacement>[]; devices: DimensionPacing<PacingDevice>[] } {
  const spend = campaign.todaySpendMicros?.day === day ? campaign.todaySpendMicros : null;
  const row = <K extends string>(key: K, micros: Micros | undefined, cap: Cents | null | undefined): DimensionPacing<K> => {
    const capCents = typeof cap === "number" && cap > 0 ? cap : null;
    return { key, spentMicros: micros ?? 0, capCents, reached: capReached(micros, capCents) };
  };
  const shown = (r: DimensionPacing<string>) => r.capCents !== null || r.spentMicros > 0;
  return {
    placements: PACING_PLACEMENTS.map((p) => row(p, spend?.placements[p], campaign[PLACEMENT_CAP_FIELD[p]])).filter(shown),
    devices: PACING_DEVICES.map((d) => row(d, spend?.devices[d], campaign.pacingDevices?.[d])).filter(shown),
  };
}

/** The reference of a settlement's ledger debit: SPEND- and its number in the wallet's accrual. */
export function settlementReference(seq: number): string {
  return `SPEND-${String(seq).padStart(6, "0")}`;
}

/** A ledger entry the settlement posted (by the system, under a settlement's reference). */
export function isSettlementEntry(entry: { by: string; reference: string }): boolean {
  return entry.by === "system" && /^SPEND-\d{6,}$/.test(entry.reference);
}
