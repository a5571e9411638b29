/**
 * One recorded change (an audit entry) as a person reads it, for Activity (/health) and a
 * campaign's History alike: who (their name), when (in the reader's time zone), what (the
 * record's name, not its id) and a field-by-field change, each value formatted by its type:
 * - money stored in cents, in the retailer's currency and the reader's locale;
 * - instants in the reader's time zone, days as dates;
 * - references (team, wallet, campaign, a team's roles) by name;
 * - yes/no, numbers in the reader's locale, lists joined with commas;
 * - placements and slots by the labels the targeting screen shows, never their codes;
 * - records as "label: value" pairs, never JSON.
 * Pure: the words (labels, enumerations) come from the caller's translations.
 */
import { CENT_FIELDS, isCentsInRecord } from "~/domain/campaigns/history-csv";
import { summariseOffersChange, type OffersChangeSummary } from "~/domain/campaigns/history-view";
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
  /** For a campaign's products: what changed, product by product. */
  offers: OffersChangeSummary | null;
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

/** A value as text; `field` is the field (or record key) it sits under, `parent` the record's field. */
function text(field: string, value: unknown, ctx: Ctx, depth = 0, parent?: string): string {
  if (value === null || value === undefined || value === "") return "";
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
  if (typeof value === "object") return record(field, value as Record<string, unknown>, ctx, depth);
  return String(value);
}

/** A record as "label: value" pairs; a team's roles ({teamId: role}) by team name. */
function record(field: string, value: Record<string, unknown>, ctx: Ctx, depth: number): string {
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
          ? key
          : keys
            ? labelOf(keys, key, ctx)
            : (ctx.words.nested?.(field, key) ?? ctx.words.field(ctx.entity, key));
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
      .filter((c) => !HIDDEN_FIELDS.has(c.field))
      .map((c) => ({
        field: c.field,
        label: words.field(entry.entity, c.field),
        before: shown(c.field, c.before, ctx),
        after: shown(c.field, c.after, ctx),
        offers: entry.entity === "campaign" && c.field === "offers" ? summariseOffersChange(c.before, c.after) : null,
      }))
      // Nothing a reader could see changed (e.g. an empty field of a new record).
      .filter((c) => c.before.text !== c.after.text || c.offers !== null),
  };
}

/** The ids an entry refers to, by kind, so the caller can fetch their names once per page. */
export function auditReferences(entries: readonly AuditEntry[]): Record<keyof AuditNames, Set<string>> {
  const refs: Record<keyof AuditNames, Set<string>> = { teams: new Set(), campaigns: new Set(), wallets: new Set(), users: new Set() };
  const visit = (field: string, value: unknown) => {
    const kind = REFERENCES[field];
    if (kind && typeof value === "string" && value) refs[kind].add(value);
    if (kind && Array.isArray(value)) for (const id of value) if (typeof id === "string" && id) refs[kind].add(id);
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
