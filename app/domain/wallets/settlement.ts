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
 */
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
