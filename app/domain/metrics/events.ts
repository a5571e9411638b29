/**
 * Ad events, as the ad server posts them in batches to /api/events: the shape of a batch, the
 * rules each event must pass (with a reason per refused event), and what accepted events add up
 * to: hourly facts for the metrics store and micros of cost per wallet and campaign for the
 * ledger. Pure: `now` and the retailer's time zone are passed in.
 *
 * Readings:
 * - `time` is an ISO 8601 instant with a zone (Z or ±hh:mm), fractions of a second allowed; a
 *   calendar date that does not exist (30 February) is a bad time. An event more than 5 minutes
 *   ahead of the console's clock, or more than 7 days old, is refused.
 * - `cost` is in micro-units of the currency (1 cent = 10,000), an integer from 0 to 1,000 units
 *   (the largest bid the retailer settings allow) per event; every event type may carry a cost
 *   (CPM on displays, vCPM on views, CPC on clicks).
 * - A sale counts `quantity` units (1 when absent) and `sales` cents (0 when absent); on other
 *   events these fields, when present, must be valid too but add nothing.
 * - Ids (team, wallet, campaign) are what storage names them; dimensions (campaignType,
 *   placement, slot, device, product, keyword, category, productCategory) are kept as sent, once
 *   checked: device and placement against the known values, campaignType against the campaign
 *   (in the service).
 */
import { EVENT_DEVICES, EVENT_PLACEMENTS, zeroMeasures, type Measures, type Micros } from "~/domain/metrics/metrics";
import { localDay, localHourAndWeekday, type Day } from "~/domain/metrics/periods";
import type { Cents } from "~/domain/money";
import type { CampaignDimensions } from "~/domain/wallets/settlement";

export const EVENT_TYPES = ["display", "view", "click", "sale"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** At most this many events in one batch. */
export const MAX_EVENTS_PER_BATCH = 10_000;
/** An event may be this far ahead of the console's clock (clock skew). */
export const MAX_EVENT_FUTURE_MS = 5 * 60 * 1000;
/** An event older than this is refused (late data is not accepted for ever). */
export const MAX_EVENT_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** The largest cost of one event: 1,000 currency units (the highest bid limit of spec section 9). */
export const MAX_EVENT_COST_MICROS: Micros = 1_000 * 1_000_000;
/** Sales of one event, in cents: 10 million currency units. */
export const MAX_EVENT_SALES_CENTS: Cents = 1_000_000_000;
export const MAX_EVENT_QUANTITY = 1_000_000;
/** Longest id or dimension value kept. */
export const MAX_VALUE_LENGTH = 256;
/** Batch ids: what an ad server's ids look like (a UUID, a ULID, "server-7:000123"…). */
export const BATCH_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** The ids an event must carry, checked as storage ids. */
export const EVENT_ID_FIELDS = ["team", "wallet", "campaign"] as const;
/** The dimensions an event must carry. */
export const EVENT_REQUIRED_DIMENSIONS = ["campaignType", "placement", "slot", "device"] as const;
/** The dimensions an event may carry ("" when absent). */
export const EVENT_OPTIONAL_DIMENSIONS = ["product", "keyword", "category", "productCategory"] as const;

/** Why an event was refused: stable codes of the API (README), not texts. */
export type EventRefusalReason =
  | "notAnObject"
  | "unknownType"
  | "badTime"
  | "timeInFuture"
  | "timeTooOld"
  | "missingId"
  | "badValue"
  | "unknownDevice"
  | "unknownPlacement"
  | "badCost"
  | "badQuantity"
  | "badSales"
  | "unknownCampaign"
  | "campaignMismatch";

export interface EventRefusal {
  /** Position of the event in the batch's `events`, from 0. */
  index: number;
  reason: EventRefusalReason;
  /** The field at fault, when one is. */
  field?: string;
}

/** Why a whole batch was refused (400). */
export type BatchRefusalReason = "notABatch" | "badBatchId" | "noEvents" | "tooManyEvents";

/** An accepted event, normalised. */
export interface AdEvent {
  type: EventType;
  /** The instant, in UTC ISO form. */
  time: string;
  team: string;
  wallet: string;
  campaign: string;
  campaignType: string;
  placement: string;
  slot: string;
  device: string;
  product: string;
  keyword: string;
  category: string;
  productCategory: string;
  cost: Micros;
  /** Units sold (sales only, else 0). */
  quantity: number;
  /** Cents of sales (sales only, else 0). */
  sales: Cents;
}

export type EventCheck = { ok: true; event: AdEvent } | { ok: false; reason: EventRefusalReason; field?: string };

// ---------------------------------------------------------------------------------------------
// Batches

export type BatchParse =
  | { ok: true; batchId: string; events: readonly unknown[] }
  | { ok: false; reason: BatchRefusalReason };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isContainer(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}

/**
 * An event is one object of scalar values; each is refused later, on its own, when it is not.
 * Anything nested deeper than an event's values (e.g. 200,000 nested lists) refuses the batch
 * whole, before anything (hashing, storage) walks it recursively. Checked without recursion.
 */
function tooDeep(events: readonly unknown[]): boolean {
  for (const event of events) {
    if (!isContainer(event)) continue;
    for (const value of Object.values(event)) {
      if (!isContainer(value)) continue;
      for (const inner of Object.values(value)) if (isContainer(inner)) return true;
    }
  }
  return false;
}

/** The batch's id and its list of events (each checked later, one by one). */
export function parseBatch(body: unknown): BatchParse {
  if (!isRecord(body)) return { ok: false, reason: "notABatch" };
  const { batchId, events } = body;
  if (typeof batchId !== "string" || !BATCH_ID_PATTERN.test(batchId)) return { ok: false, reason: "badBatchId" };
  if (!Array.isArray(events)) return { ok: false, reason: "notABatch" };
  if (events.length === 0) return { ok: false, reason: "noEvents" };
  if (events.length > MAX_EVENTS_PER_BATCH) return { ok: false, reason: "tooManyEvents" };
  if (tooDeep(events)) return { ok: false, reason: "notABatch" };
  return { ok: true, batchId, events };
}

// ---------------------------------------------------------------------------------------------
// Time

const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|([+-])(\d{2}):(\d{2}))$/;

/** Milliseconds of an ISO instant with a zone, or null when it is not one (or names no real date). */
export function parseInstant(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const m = ISO_INSTANT.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]));
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > daysInMonth) return null;
  const millis = m[7] ? Number(m[7].slice(0, 3).padEnd(3, "0")) : 0;
  let offsetMinutes = 0;
  if (m[8] !== "Z") {
    const [h, mm] = [Number(m[10]), Number(m[11])];
    if (h > 23 || mm > 59) return null;
    offsetMinutes = (m[9] === "-" ? -1 : 1) * (h * 60 + mm);
  }
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, millis) - offsetMinutes * 60_000;
  return Number.isFinite(utc) ? utc : null;
}

// ---------------------------------------------------------------------------------------------
// One event

function text(value: unknown): string | null {
  return typeof value === "string" ? value.trim() : null;
}

/** A storage id: not blank, no "/", not "." or "..", not "__x__", not too long, no control character. */
function isIdValue(value: string): boolean {
  return (
    value.length > 0 &&
    value.length <= MAX_VALUE_LENGTH &&
    !value.includes("/") &&
    value !== "." &&
    value !== ".." &&
    !/^__.*__$/.test(value) &&
    !/[\u0000-\u001f\u007f]/.test(value)
  );
}

function isDimensionValue(value: string): boolean {
  return value.length <= MAX_VALUE_LENGTH && !/[\u0000-\u001f\u007f]/.test(value);
}

function isCount(value: unknown, max: number): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 && value <= max;
}

/**
 * The event's own rules, whatever the time (a batch retried later is read again with these): its
 * type, time format, ids, dimensions and amounts.
 */
export function normaliseEvent(raw: unknown): EventCheck {
  if (!isRecord(raw)) return { ok: false, reason: "notAnObject" };
  const type = raw.type;
  if (typeof type !== "string" || !(EVENT_TYPES as readonly string[]).includes(type)) return { ok: false, reason: "unknownType", field: "type" };
  const time = parseInstant(raw.time);
  if (time === null) return { ok: false, reason: "badTime", field: "time" };

  const values: Record<string, string> = {};
  for (const field of [...EVENT_ID_FIELDS, ...EVENT_REQUIRED_DIMENSIONS]) {
    const value = text(raw[field]);
    if (value === null || value === "") return { ok: false, reason: "missingId", field };
    const valid = (EVENT_ID_FIELDS as readonly string[]).includes(field) ? isIdValue(value) : isDimensionValue(value);
    if (!valid) return { ok: false, reason: "badValue", field };
    values[field] = value;
  }
  for (const field of EVENT_OPTIONAL_DIMENSIONS) {
    const given = raw[field];
    if (given === undefined || given === null) {
      values[field] = "";
      continue;
    }
    const value = text(given);
    if (value === null || !isDimensionValue(value)) return { ok: false, reason: "badValue", field };
    values[field] = value;
  }
  if (!(EVENT_DEVICES as readonly string[]).includes(values.device!)) return { ok: false, reason: "unknownDevice", field: "device" };
  if (!(EVENT_PLACEMENTS as readonly string[]).includes(values.placement!)) return { ok: false, reason: "unknownPlacement", field: "placement" };

  if (!isCount(raw.cost, MAX_EVENT_COST_MICROS)) return { ok: false, reason: "badCost", field: "cost" };
  if (raw.quantity !== undefined && raw.quantity !== null && !isCount(raw.quantity, MAX_EVENT_QUANTITY)) {
    return { ok: false, reason: "badQuantity", field: "quantity" };
  }
  if (raw.sales !== undefined && raw.sales !== null && !isCount(raw.sales, MAX_EVENT_SALES_CENTS)) {
    return { ok: false, reason: "badSales", field: "sales" };
  }
  const sale = type === "sale";
  return {
    ok: true,
    event: {
      type: type as EventType,
      time: new Date(time).toISOString(),
      team: values.team!,
      wallet: values.wallet!,
      campaign: values.campaign!,
      campaignType: values.campaignType!,
      placement: values.placement!,
      slot: values.slot!,
      device: values.device!,
      product: values.product!,
      keyword: values.keyword!,
      category: values.category!,
      productCategory: values.productCategory!,
      cost: raw.cost,
      quantity: sale ? ((raw.quantity as number | null | undefined) ?? 1) : 0,
      sales: sale ? ((raw.sales as number | null | undefined) ?? 0) : 0,
    },
  };
}

/** Every rule of one event at `now`: its own, then its time window (5 minutes ahead, 7 days back). */
export function validateEvent(raw: unknown, now: Date): EventCheck {
  const checked = normaliseEvent(raw);
  if (!checked.ok) return checked;
  const time = Date.parse(checked.event.time);
  if (time > now.getTime() + MAX_EVENT_FUTURE_MS) return { ok: false, reason: "timeInFuture", field: "time" };
  if (time < now.getTime() - MAX_EVENT_AGE_MS) return { ok: false, reason: "timeTooOld", field: "time" };
  return checked;
}

/** What storage knows of an event's campaign. */
export interface EventCampaign {
  team: string;
  wallet: string | null;
  campaignType: string;
}

/** The event against its campaign: it must exist and name the campaign's team, wallet and type. */
export function checkEventCampaign(
  event: Pick<AdEvent, "team" | "wallet" | "campaignType">,
  campaign: EventCampaign | null | undefined,
): { reason: "unknownCampaign" | "campaignMismatch"; field?: string } | null {
  if (!campaign) return { reason: "unknownCampaign", field: "campaign" };
  if (campaign.team !== event.team) return { reason: "campaignMismatch", field: "team" };
  if (campaign.wallet !== event.wallet) return { reason: "campaignMismatch", field: "wallet" };
  if (campaign.campaignType !== event.campaignType) return { reason: "campaignMismatch", field: "campaignType" };
  return null;
}

// ---------------------------------------------------------------------------------------------
// What accepted events add up to

/**
 * One UTC hour of one combination of dimensions (the metrics store's MetricsFact, app/metrics/port.ts,
 * has this shape): the day, hour of day and weekday are the retailer's, of the hour's start.
 */
export interface HourlyFact extends Measures {
  hour: string;
  day: Day;
  localHour: number;
  weekday: number;
  team: string;
  wallet: string;
  campaign: string;
  campaignType: string;
  placement: string;
  slot: string;
  device: string;
  product: string;
  keyword: string;
  category: string;
  productCategory: string;
}

const HOUR_MS = 60 * 60 * 1000;

function measuresOf(event: AdEvent): Measures {
  const m = zeroMeasures();
  if (event.type === "display") m.displays = 1;
  else if (event.type === "view") m.views = 1;
  else if (event.type === "click") m.clicks = 1;
  else {
    m.quantity = event.quantity;
    m.salesCents = event.sales;
  }
  m.costMicros = event.cost;
  return m;
}

/** Accepted events rolled up by UTC hour and every dimension, in a stable order. */
export function aggregateFacts(events: readonly AdEvent[], timeZone: string): HourlyFact[] {
  const facts = new Map<string, HourlyFact>();
  // The local day, hour and weekday of each UTC hour, worked out once per hour of the batch.
  const hours = new Map<number, { hour: string; day: string; localHour: number; weekday: number }>();
  for (const event of events) {
    const hourStart = Math.floor(Date.parse(event.time) / HOUR_MS) * HOUR_MS;
    let local = hours.get(hourStart);
    if (!local) {
      const { hour: localHour, weekday } = localHourAndWeekday(hourStart, timeZone);
      local = { hour: new Date(hourStart).toISOString(), day: localDay(hourStart, timeZone), localHour, weekday };
      hours.set(hourStart, local);
    }
    const hour = local.hour;
    const key = [
      hour,
      event.team,
      event.wallet,
      event.campaign,
      event.campaignType,
      event.placement,
      event.slot,
      event.device,
      event.product,
      event.keyword,
      event.category,
      event.productCategory,
    ].join("\u0000");
    let fact = facts.get(key);
    if (!fact) {
      fact = {
        hour,
        day: local.day,
        localHour: local.localHour,
        weekday: local.weekday,
        team: event.team,
        wallet: event.wallet,
        campaign: event.campaign,
        campaignType: event.campaignType,
        placement: event.placement,
        slot: event.slot,
        device: event.device,
        product: event.product,
        keyword: event.keyword,
        category: event.category,
        productCategory: event.productCategory,
        ...zeroMeasures(),
      };
      facts.set(key, fact);
    }
    const m = measuresOf(event);
    fact.displays += m.displays;
    fact.views += m.views;
    fact.clicks += m.clicks;
    fact.costMicros += m.costMicros;
    fact.quantity += m.quantity;
    fact.salesCents += m.salesCents;
  }
  return [...facts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, fact]) => fact);
}

/** Micros of cost of one wallet: in total, per campaign, and per campaign's placement and device. */
export interface WalletCost {
  total: Micros;
  campaigns: Record<string, Micros>;
  /** Per campaign, its micros by placement and by device (for their daily caps; absent in batches stored before them). */
  dimensions?: CampaignDimensions;
}

/** The cost of accepted events per wallet and campaign, and per placement and device (events without cost add nothing). */
export function costByWallet(events: readonly AdEvent[]): Record<string, WalletCost> {
  const out: Record<string, WalletCost> = {};
  for (const event of events) {
    if (event.cost === 0) continue;
    const wallet = (out[event.wallet] ??= { total: 0, campaigns: {}, dimensions: {} });
    wallet.total += event.cost;
    wallet.campaigns[event.campaign] = (wallet.campaigns[event.campaign] ?? 0) + event.cost;
    const dims = (wallet.dimensions![event.campaign] ??= { placements: {}, devices: {} });
    dims.placements[event.placement] = (dims.placements[event.placement] ?? 0) + event.cost;
    dims.devices[event.device] = (dims.devices[event.device] ?? 0) + event.cost;
  }
  return out;
}

/** The newest event's time (ISO), or null without events. */
export function newestEventTime(events: readonly AdEvent[]): string | null {
  let newest: string | null = null;
  for (const event of events) if (newest === null || event.time > newest) newest = event.time;
  return newest;
}
