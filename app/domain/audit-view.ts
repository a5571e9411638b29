/**
 * One recorded change (an audit entry) as a person reads it, for Activity (/health) and a
 * campaign's History alike: who (their name), when (in the reader's time zone), what (the
 * record's name, not its id) and a field-by-field change, each value formatted by its type:
 * - money stored in cents, in the retailer's currency and the reader's locale;
 * - instants in the reader's time zone, days as dates;
 * - references (team, wallet, campaign, a team's roles) by name;
 * - yes/no, numbers in the reader's locale, lists joined with commas;
 * - placements and slots by the labels the targeting screen shows, never their codes;
 * - records as "label: value" pairs, never JSON;
 * - products by their titles; keywords and categories as "name (on, bid, products)";
 * - a change of products (the campaign's, or those a target advertises) as lines saying which
 *   products were added, removed, switched on or off, or moved.
 * The CSV of a campaign's history (app/domain/campaigns/history-csv.ts) writes these same texts.
 * Pure: the words (labels, enumerations) come from the caller's translations.
 */
import { CENT_FIELDS, isCentsInRecord, isTargetAuditValue, TARGET_AUDIT_FIELD, UNAUDITED_CAMPAIGN_FIELDS, type TargetAuditValue } from "~/domain/campaigns/history-fields";
import { summariseOffersChange } from "~/domain/campaigns/history-view";
import { formatMoney } from "~/domain/money";
import type { AuditEntry } from "~/domain/types";
import { dateTimeFormat, labelled, numberFormat } from "~/domain/intl";

/** The kinds of record Activity filters on. */
export const ACTIVITY_ENTITIES = ["user", "team", "wallet", "campaign", "invitation", "config", "catalogImport", "report"] as const;
export type ActivityEntity = (typeof ACTIVITY_ENTITIES)[number];

/** What Activity shows: one kind of record, or one campaign's or one wallet's changes, from a cursor. */
export interface ActivityFilter {
  entity?: ActivityEntity;
  /** One campaign's changes (by its id). */
  campaign?: string;
  /** One wallet's changes (by its id). */
  wallet?: string;
  after?: string | null;
}

/** Reads the filter from a query string: unknown kinds are ignored, a campaign wins over a wallet. */
export function parseActivityFilter(params: URLSearchParams): ActivityFilter {
  const entity = params.get("entity") ?? "";
  const campaign = params.get("campaign")?.trim() || undefined;
  const wallet = campaign ? undefined : params.get("wallet")?.trim() || undefined;
  return {
    entity: (ACTIVITY_ENTITIES as readonly string[]).includes(entity) ? (entity as ActivityEntity) : undefined,
    campaign: campaign && campaign.length <= 200 ? campaign : undefined,
    wallet: wallet && wallet.length <= 200 ? wallet : undefined,
    after: params.get("after") || null,
  };
}

/** Values longer than this are shortened on screen, the whole text one click away. */
export const SHORT_VALUE_LENGTH = 160;

export interface AuditFormat {
  locale: string;
  /** The retailer's currency: every amount is in it. */
  currency: string;
  /** The reader's time zone: instants are shown in it. */
  timeZone: string;
}

/** Names of the records an entry may refer to, by id (users by e-mail, lower case, and by id). */
export interface AuditNames {
  teams: ReadonlyMap<string, string>;
  campaigns: ReadonlyMap<string, string>;
  wallets: ReadonlyMap<string, string>;
  users: ReadonlyMap<string, string>;
  /** Products by id: their titles. */
  products: ReadonlyMap<string, string>;
}

/** The reader's words. */
export interface AuditWords {
  /** The label of a field of an entity ('Daily budget'). */
  field(entity: string, field: string): string;
  /** The label of a key inside a record field where it differs from the key's own ('capping', 'type' → 'Capping type'), or null. */
  nested?(field: string, key: string): string | null;
  /** The label of an action ('Edited'). */
  action(entity: string, action: string): string;
  /** The label of an entity ('Wallet'). */
  entity(entity: string): string;
  /**
   * A stored word shown in the reader's language ('active' → 'Active'), or null to show it as is.
   * Inside a record `field` is the record's field and the key ('capping.type'), then the key alone.
   */
  value(entity: string, field: string, value: string): string | null;
  /** A placement's label ('plp' → 'Category pages (PLP)'): the one the targeting screen shows. */
  placement?(code: string): string;
  /** A slot's label ('sp' → 'Sponsored products (sp)'); a slot without one is shown by its name. */
  slot?(code: string): string;
  yes: string;
  no: string;
  /** A target or a product switched on, or off ('on', 'off'). */
  on: string;
  off: string;
  /** Beyond the targets named: '+3 more'. */
  more(count: number): string;
  /** A product's position ('position 2'). */
  position(pos: number): string;
  /** A target advertising every product of the campaign. */
  allProducts: string;
  /** Which products a change added, removed, switched on or off ('Added: Phone, Tablet'). */
  offers(kind: "added" | "removed" | "switchedOn" | "switchedOff", titles: string): string;
  /** A product moved ('Phone: position 1 → 2'). */
  moved(title: string, before: string, after: string): string;
  /** The products a target advertises changed ('laptop: products added: Phone'). */
  targetOffers(kind: "added" | "removed" | "changed", target: string, titles: string): string;
  /** Who acted when no user did. */
  system: string;
  /** An operator logged as a user: both names. */
  loggedAs(operator: string, user: string): string;
}

export interface AuditValueView {
  /** Empty for nothing (null, missing, empty text). */
  text: string;
  /** The beginning of a long text, else null. */
  short: string | null;
}

export interface AuditChangeView {
  field: string;
  label: string;
  before: AuditValueView;
  after: AuditValueView;
  /** What a change of products did, product by product (empty for other changes). */
  lines: string[];
}

export interface AuditEntryView {
  id: string;
  /** ISO instant (for <time dateTime>). */
  at: string;
  atText: string;
  /** The actor as stored (an e-mail, or 'system'). */
  by: string;
  /** The actor's name when known, else what is stored. */
  byName: string;
  action: string;
  actionLabel: string;
  entity: string;
  entityLabel: string;
  entityId: string;
  /** The record's name (its id only when no name is known). */
  subject: string;
  teamId: string | null;
  /** The team's name, when the entry belongs to a team. */
  teamName: string | null;
  changes: AuditChangeView[];
}

/** Money fields stored in cents, per entity (a campaign's are the CSV module's). */
const CENTS: Record<string, ReadonlySet<string>> = {
  campaign: CENT_FIELDS,
  wallet: new Set(["balance", "credit", "debit", "dailyBudget", "amount"]),
  team: new Set(["balance", "credit"]),
};

/** Fields holding the id of another record. */
const REFERENCES: Record<string, keyof AuditNames> = {
  team: "teams",
  teamId: "teams",
  teamIds: "teams",
  wallet: "wallets",
  walletId: "wallets",
  campaign: "campaigns",
  campaignId: "campaigns",
  sourceId: "campaigns",
  userId: "users",
  productIds: "products",
};

/**
 * What a code stands for by where it sits: a campaign's or a type's placements and the placements
 * a slot or a banner size serves are placements; a campaign's slots (on or off) are slots.
 */
function vocabularyOf(field: string, parent: string | undefined): "placement" | "slot" | null {
  if (field === "placements" || parent === "slots" || parent === "bannerSizes") return "placement";
  if (field === "slots" || field === "slotsOff") return "slot";
  return null;
}

/** What the keys of a record stand for: bids per placement, slots to their placements, banners per slot. */
function keyVocabularyOf(field: string): "placement" | "slot" | null {
  if (field === "placementBids") return "placement";
  if (field === "slots" || field === "banners") return "slot";
  return null;
}

function labelOf(vocabulary: "placement" | "slot", code: string, ctx: Ctx): string {
  return (vocabulary === "placement" ? ctx.words.placement?.(code) : ctx.words.slot?.(code)) ?? code;
}

/**
 * Fields never worth a line: derived search keys, and a user's internal fields (password hashes,
 * the session epoch, the second factor's secret, codes and flags, the last refresh token).
 */
const HIDDEN_FIELDS: ReadonlySet<string> = new Set([
  "nameLower", "searchTokens", "emailLower", "labelLower",
  "passwordHash", "passwordHistory", "sessionEpoch", "totpSecret", "recoveryCodeHashes", "totpLastStep", "secondFactorExempt", "last_refresh_token",
]);
/** A campaign's fields never recorded (older entries may hold some): not a reader's concern. */
const HIDDEN_CAMPAIGN_FIELDS: ReadonlySet<string> = new Set(UNAUDITED_CAMPAIGN_FIELDS);

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function formatAuditInstant(iso: string, f: Pick<AuditFormat, "locale" | "timeZone">): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  return dateTimeFormat(f.locale, { dateStyle: "medium", timeStyle: "medium", timeZone: f.timeZone }).format(new Date(ms));
}

function formatDay(day: string, locale: string): string {
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(ms) ? day : dateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(ms));
}

interface Ctx {
  entity: string;
  format: AuditFormat;
  names: AuditNames;
  words: AuditWords;
}

function isCents(entity: string, field: string): boolean {
  return CENTS[entity]?.has(field) ?? false;
}

function money(value: number, ctx: Ctx): string {
  return formatMoney(value, ctx.format.currency, ctx.format.locale);
}

const TARGET_FIELDS: ReadonlySet<string> = new Set(Object.values(TARGET_AUDIT_FIELD));

function productTitle(id: string, ctx: Ctx): string {
  return ctx.names.products.get(id) ?? id;
}

function titles(ids: readonly string[], ctx: Ctx): string {
  return ids.map((id) => productTitle(id, ctx)).join(", ");
}

/** Keywords or categories: "laptop (on, €0.50, Products: Phone)", "; " between, "+3 more" past those named. */
function targetsText(value: TargetAuditValue, ctx: Ctx): string {
  const shown = value.targets.map((t) => {
    const details = [t.on ? ctx.words.on : ctx.words.off];
    if (t.bid !== null && Number.isSafeInteger(t.bid)) details.push(money(t.bid, ctx));
    if (t.offers) details.push(labelled(ctx.format.locale, ctx.words.field("campaign", "offers"), titles(t.offers, ctx)));
    return `${t.name} (${details.join(", ")})`;
  });
  if (value.more > 0) shown.push(ctx.words.more(value.more));
  return shown.join("; ");
}

/** A campaign's products: "Phone (on, position 1); Tablet (off)", by title. */
function offersText(value: Record<string, unknown>, ctx: Ctx): string {
  return Object.entries(value)
    .map(([id, offer]) => {
      const o = (offer && typeof offer === "object" ? offer : {}) as { on?: unknown; pos?: unknown; title?: unknown };
      const title = typeof o.title === "string" && o.title ? o.title : productTitle(id, ctx);
      // A product kept records only what changed (ADR 48): its state, its position, or both.
      const details = "on" in o || !("pos" in o) ? [o.on ? ctx.words.on : ctx.words.off] : [];
      if (typeof o.pos === "number") details.push(ctx.words.position(o.pos));
      return details.length ? `${title} (${details.join(", ")})` : title;
    })
    .join("; ");
}

/** What a change of products did, line by line: the campaign's products, or those each target advertises. */
function offerLines(field: string, before: unknown, after: unknown, ctx: Ctx): string[] {
  if (ctx.entity !== "campaign") return [];
  if (field === "offers") {
    const o = summariseOffersChange(before, after);
    const titled = (ids: string[]) => titles(ids, ctx);
    return [
      o.added.length ? ctx.words.offers("added", titled(o.added)) : null,
      o.removed.length ? ctx.words.offers("removed", titled(o.removed)) : null,
      o.switchedOn.length ? ctx.words.offers("switchedOn", titled(o.switchedOn)) : null,
      o.switchedOff.length ? ctx.words.offers("switchedOff", titled(o.switchedOff)) : null,
      ...o.moved.map((m) => ctx.words.moved(productTitle(m.id, ctx), m.before === null ? "—" : String(m.before), m.after === null ? "—" : String(m.after))),
    ].filter((line): line is string => !!line);
  }
  if (TARGET_FIELDS.has(field) && isTargetAuditValue(before) && isTargetAuditValue(after)) {
    const was = new Map(before.targets.map((t) => [t.key, t]));
    const lines: string[] = [];
    for (const t of after.targets) {
      const b = was.get(t.key);
      if (!b) continue;
      if (b.offers === null || t.offers === null) {
        if (b.offers !== t.offers) lines.push(ctx.words.targetOffers("changed", t.name, t.offers ? titles(t.offers, ctx) : ctx.words.allProducts));
        continue;
      }
      const added = t.offers.filter((id) => !b.offers!.includes(id));
      const removed = b.offers.filter((id) => !t.offers!.includes(id));
      if (added.length) lines.push(ctx.words.targetOffers("added", t.name, titles(added, ctx)));
      if (removed.length) lines.push(ctx.words.targetOffers("removed", t.name, titles(removed, ctx)));
    }
    return lines;
  }
  return [];
}

/** A value as text; `field` is the field (or record key) it sits under, `parent` the record's field. */
function text(field: string, value: unknown, ctx: Ctx, depth = 0, parent?: string): string {
  if (value === null || value === undefined || value === "") return "";
  if (depth === 0 && ctx.entity === "campaign" && TARGET_FIELDS.has(field) && isTargetAuditValue(value)) return targetsText(value, ctx);
  if (depth === 0 && ctx.entity === "campaign" && field === "offers" && typeof value === "object" && !Array.isArray(value)) return offersText(value as Record<string, unknown>, ctx);
  if (typeof value === "number" && Number.isSafeInteger(value) && isCents(ctx.entity, field)) return money(value, ctx);
  const ref = REFERENCES[field];
  if (ref && typeof value === "string") return ctx.names[ref].get(value) ?? value;
  if (typeof value === "boolean") return value ? ctx.words.yes : ctx.words.no;
  if (typeof value === "number") return Number.isFinite(value) ? numberFormat(ctx.format.locale).format(value) : String(value);
  if (typeof value === "string") {
    if (INSTANT.test(value)) return formatAuditInstant(value, ctx.format);
    if (DAY.test(value)) return formatDay(value, ctx.format.locale);
    const vocabulary = vocabularyOf(field, parent);
    if (vocabulary) return labelOf(vocabulary, value, ctx);
    return (parent ? ctx.words.value(ctx.entity, `${parent}.${field}`, value) : null) ?? ctx.words.value(ctx.entity, field, value) ?? value;
  }
  if (Array.isArray(value)) {
    const parts = value.map((v) => text(field, v, ctx, depth + 1, parent)).filter(Boolean);
    return parts.join(value.every((v) => v === null || typeof v !== "object") ? ", " : "; ");
  }
  if (typeof value === "object") return record(field, value as Record<string, unknown>, ctx, depth, parent);
  return String(value);
}

/** A record as "label: value" pairs; a team's roles ({teamId: role}) by team name. */
function record(field: string, value: Record<string, unknown>, ctx: Ctx, depth: number, parent?: string): string {
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (!entries.length) return "";
  const keys = keyVocabularyOf(field);
  const pairs = entries.map(([key, v]) => {
    // A team's roles are named by team; products (offers) by their own identifier, as the catalog
    // shows it; placements and slots by their labels.
    const label =
      field === "roleByTeam"
        ? (ctx.names.teams.get(key) ?? key)
        : field === "offers"
          ? productTitle(key, ctx)
          : keys
            ? labelOf(keys, key, ctx)
            : (ctx.words.nested?.(field, key) ?? (parent ? ctx.words.nested?.(parent, key) : null) ?? ctx.words.field(ctx.entity, key));
    const shown =
      ctx.entity === "campaign" && isCentsInRecord(field, key) && typeof v === "number" && Number.isSafeInteger(v)
        ? money(v, ctx)
        : field === "roleByTeam" && typeof v === "string"
          ? (ctx.words.value(ctx.entity, "role", v) ?? v)
          : text(key, v, ctx, depth + 1, field);
    return labelled(ctx.format.locale, label, shown || "—");
  });
  return depth === 0 ? pairs.join(", ") : `(${pairs.join(", ")})`;
}

function shown(field: string, value: unknown, ctx: Ctx): AuditValueView {
  const t = text(field, value, ctx);
  return { text: t, short: t.length > SHORT_VALUE_LENGTH ? `${t.slice(0, SHORT_VALUE_LENGTH)}…` : null };
}

/** The name of what an entry is about: its record's name, else its id. */
function subjectOf(entry: AuditEntry, names: AuditNames): string {
  const byEntity: Record<string, keyof AuditNames> = { team: "teams", campaign: "campaigns", wallet: "wallets", user: "users" };
  const map = byEntity[entry.entity];
  const known = map ? names[map].get(entry.entityId) : undefined;
  if (known) return known;
  // A created record's name is in its first change.
  const name = entry.changes.find((c) => c.field === "name" || c.field === "label" || c.field === "displayName" || c.field === "email" || c.field === "file");
  const after = name?.after ?? name?.before;
  return typeof after === "string" && after ? after : entry.entityId;
}

/** Who made a change; while an operator was logged as the user, both ('Olivia, logged as Sam'). */
function byNameOf(entry: AuditEntry, names: AuditNames, words: AuditWords): string {
  const by = entry.by || "system";
  const user = by === "system" ? words.system : (names.users.get(by.toLowerCase()) ?? by);
  if (!entry.realBy) return user;
  return words.loggedAs(names.users.get(entry.realBy.toLowerCase()) ?? entry.realBy, user);
}

/** One entry as the reader sees it. */
export function presentAuditEntry(entry: AuditEntry, format: AuditFormat, names: AuditNames, words: AuditWords): AuditEntryView {
  const ctx: Ctx = { entity: entry.entity, format, names, words };
  const by = entry.by || "system";
  return {
    id: entry.id,
    at: entry.at,
    atText: formatAuditInstant(entry.at, format),
    by,
    byName: byNameOf(entry, names, words),
    action: entry.action,
    actionLabel: words.action(entry.entity, entry.action),
    entity: entry.entity,
    entityLabel: words.entity(entry.entity),
    entityId: entry.entityId,
    subject: subjectOf(entry, names),
    teamId: entry.teamId,
    teamName: entry.teamId ? (names.teams.get(entry.teamId) ?? null) : null,
    changes: entry.changes
      .filter((c) => !HIDDEN_FIELDS.has(c.field) && !(entry.entity === "campaign" && HIDDEN_CAMPAIGN_FIELDS.has(c.field)))
      .map((c) => ({
        field: c.field,
        label: words.field(entry.entity, c.field),
        before: shown(c.field, c.before, ctx),
        after: shown(c.field, c.after, ctx),
        lines: offerLines(c.field, c.before, c.after, ctx),
      }))
      // Nothing a reader could see changed (e.g. an empty field of a new record).
      .filter((c) => c.before.text !== c.after.text || c.lines.length > 0),
  };
}

/** Product titles the entries hold themselves (a campaign's products keep their titles), by id. */
export function productTitlesIn(entries: readonly AuditEntry[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of entries) {
    for (const c of e.changes) {
      if (c.field !== "offers") continue;
      for (const value of [c.before, c.after]) {
        if (!value || typeof value !== "object" || Array.isArray(value)) continue;
        for (const [id, offer] of Object.entries(value as Record<string, { title?: unknown }>)) {
          if (offer && typeof offer.title === "string" && offer.title && !out.has(id)) out.set(id, offer.title);
        }
      }
    }
  }
  return out;
}

/** The ids an entry refers to, by kind, so the caller can fetch their names once per page. */
export function auditReferences(entries: readonly AuditEntry[]): Record<keyof AuditNames, Set<string>> {
  const refs: Record<keyof AuditNames, Set<string>> = { teams: new Set(), campaigns: new Set(), wallets: new Set(), users: new Set(), products: new Set() };
  const visit = (field: string, value: unknown) => {
    const kind = REFERENCES[field];
    if (kind && typeof value === "string" && value) refs[kind].add(value);
    if (kind && Array.isArray(value)) for (const v of value) if (typeof v === "string" && v) refs[kind].add(v);
    if (field === "offers" && value && typeof value === "object" && !Array.isArray(value)) for (const id of Object.keys(value)) refs.products.add(id);
    if (TARGET_FIELDS.has(field) && isTargetAuditValue(value)) for (const t of value.targets) for (const id of t.offers ?? []) refs.products.add(id);
    if (field === "roleByTeam" && value && typeof value === "object") for (const id of Object.keys(value)) refs.teams.add(id);
  };
  for (const e of entries) {
    if (e.by && e.by !== "system") refs.users.add(e.by.toLowerCase());
    if (e.realBy) refs.users.add(e.realBy.toLowerCase());
    if (e.teamId) refs.teams.add(e.teamId);
    const own: Record<string, keyof AuditNames> = { team: "teams", campaign: "campaigns", wallet: "wallets", user: "users" };
    if (own[e.entity]) refs[own[e.entity]!].add(e.entityId);
    for (const c of e.changes) {
      visit(c.field, c.before);
      visit(c.field, c.after);
    }
  }
  return refs;
}
