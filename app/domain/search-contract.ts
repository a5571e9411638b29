/**
 * The /search contract of spec section 7: `POST /search/product`, `/search/keyword` and
 * `/search/category` (the last also for product categories), each called with an
 * `Authorization: Bearer <identity token>` header like /metrics, answering `{ hits }` with the
 * hits of spec section 3.
 *
 * Request (every field optional):
 * - `query`: what the user typed; every word must start a word of the hit (accents and case do
 *   not matter), ranked by relevance. Without it, hits are listed in their natural order.
 * - `includeIds`: the hits to look among, by id (a campaign's products, chosen keywords…).
 * - `size`: how many hits, 1 to MAX_SEARCH_SIZE (more is capped), DEFAULT_SEARCH_SIZE by default.
 * - `fields`: the hit fields wanted (id always comes); unknown names are refused.
 * - `team`: products only: the products this team may sponsor (a supplier's own team).
 * - `page_type`: categories only: 'pdp' asks for product categories (demand on product pages).
 *
 * Hits. Product: id, title, image_link, availability, link, price, stroke_price (cents), party,
 * brand, categories, rating, reviews (null where the feed gives none) and metrics (the product's
 * statistics over the demand days, the /metrics measures: cost in micro-units, sales in cents).
 * Keyword and category: id, name, level, hierarchies, volume, trend, url, page_type, floor_price
 * (cents, null with floor prices off), hits; lower_bid, suggested_bid, upper_bid (cents) when the
 * retailer has suggested bids on; products_per_page, fill_rate, conversion_rate for operators only.
 * A field the caller may not read is left out, not refused.
 */
import type { CategoryPageType } from "~/domain/categories";
import { CATEGORY_PAGE_TYPES } from "~/domain/categories";
import type { WireMeasures } from "~/domain/metrics/contract";
import type { Cents } from "~/domain/money";
import type { Product } from "~/domain/catalog";
import type { AccountType } from "~/domain/types";

export const SEARCH_KINDS = ["product", "keyword", "category"] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export const DEFAULT_SEARCH_SIZE = 20;
export const MAX_SEARCH_SIZE = 100;
export const MAX_INCLUDE_IDS = 1_000;
export const MAX_QUERY_LENGTH = 200;
const MAX_ID_LENGTH = 256;

export const PRODUCT_FIELDS = ["title", "image_link", "availability", "link", "price", "stroke_price", "party", "brand", "categories", "rating", "reviews", "metrics"] as const;
export const BID_FIELDS = ["lower_bid", "suggested_bid", "upper_bid"] as const;
export const OPERATOR_FIELDS = ["products_per_page", "fill_rate", "conversion_rate"] as const;
export const TARGET_FIELDS = ["name", "level", "hierarchies", "volume", "trend", "url", "page_type", "floor_price", "hits", ...BID_FIELDS, ...OPERATOR_FIELDS] as const;
export type ProductField = (typeof PRODUCT_FIELDS)[number];
export type TargetField = (typeof TARGET_FIELDS)[number];

export function fieldsOf(kind: SearchKind): readonly string[] {
  return kind === "product" ? PRODUCT_FIELDS : TARGET_FIELDS;
}

export interface SearchRequest {
  query?: string;
  includeIds?: string[];
  /** Always set once parsed: the default, or the size asked capped at MAX_SEARCH_SIZE. */
  size: number;
  fields?: string[];
  team?: string;
  page_type?: CategoryPageType;
}

export interface ProductHit {
  id: string;
  title?: string;
  image_link?: string;
  availability?: string;
  link?: string;
  price?: Cents;
  stroke_price?: Cents | null;
  party?: string;
  brand?: string;
  categories?: string[];
  rating?: number | null;
  reviews?: number | null;
  metrics?: WireMeasures;
}

export interface TargetHit {
  id: string;
  name?: string;
  level?: number | null;
  hierarchies?: string[];
  volume?: number;
  trend?: number | null;
  url?: string;
  page_type?: string;
  floor_price?: Cents | null;
  hits?: number;
  lower_bid?: Cents;
  suggested_bid?: Cents;
  upper_bid?: Cents;
  products_per_page?: number;
  fill_rate?: number | null;
  conversion_rate?: number | null;
}

export type SearchHit<K extends SearchKind = SearchKind> = K extends "product" ? ProductHit : TargetHit;

export interface SearchResponse<K extends SearchKind = SearchKind> {
  hits: SearchHit<K>[];
}

export type ParsedSearchRequest = { ok: true; value: SearchRequest } | { ok: false; reason: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isSearchKind(value: unknown): value is SearchKind {
  return typeof value === "string" && (SEARCH_KINDS as readonly string[]).includes(value);
}

const isId = (value: unknown): value is string => typeof value === "string" && value.length > 0 && value.length <= MAX_ID_LENGTH;

/** Checks a request body strictly (it may come from any service holding a token); the reason says what is wrong. */
export function parseSearchRequest(kind: SearchKind, body: unknown): ParsedSearchRequest {
  if (!isRecord(body)) return { ok: false, reason: "body must be an object" };
  const { query, includeIds, size, fields, team, page_type } = body;
  const request: SearchRequest = { size: DEFAULT_SEARCH_SIZE };
  if (query !== undefined && query !== null) {
    if (typeof query !== "string") return { ok: false, reason: "query must be a string" };
    if (query.length > MAX_QUERY_LENGTH) return { ok: false, reason: `query is ${MAX_QUERY_LENGTH} characters at most` };
    request.query = query;
  }
  if (includeIds !== undefined && includeIds !== null) {
    if (!Array.isArray(includeIds) || !includeIds.every(isId)) return { ok: false, reason: "includeIds must list ids (strings)" };
    if (includeIds.length > MAX_INCLUDE_IDS) return { ok: false, reason: `includeIds lists ${MAX_INCLUDE_IDS} ids at most` };
    request.includeIds = [...new Set(includeIds)];
  }
  if (size !== undefined && size !== null) {
    if (typeof size !== "number" || !Number.isInteger(size) || size < 1) return { ok: false, reason: "size must be a whole number of 1 or more" };
    request.size = Math.min(size, MAX_SEARCH_SIZE);
  }
  if (fields !== undefined && fields !== null) {
    const known = fieldsOf(kind);
    if (!Array.isArray(fields) || !fields.every((f) => typeof f === "string")) return { ok: false, reason: "fields must list field names" };
    const unknown = fields.find((f) => f !== "id" && !known.includes(f));
    if (unknown !== undefined) return { ok: false, reason: `unknown field ${String(unknown).slice(0, 40)}` };
    request.fields = [...new Set(fields as string[])].filter((f) => f !== "id");
  }
  if (team !== undefined && team !== null) {
    if (kind !== "product") return { ok: false, reason: "team applies to products only" };
    if (!isId(team)) return { ok: false, reason: "team must be a team id" };
    request.team = team;
  }
  if (page_type !== undefined && page_type !== null) {
    if (kind !== "category") return { ok: false, reason: "page_type applies to categories only" };
    if (!(CATEGORY_PAGE_TYPES as readonly unknown[]).includes(page_type)) return { ok: false, reason: `page_type must be one of ${CATEGORY_PAGE_TYPES.join(", ")}` };
    request.page_type = page_type as CategoryPageType;
  }
  return { ok: true, value: request };
}

/**
 * The fields a caller's hits carry: those asked (all by default), less the operators' own for
 * anyone else, and less the suggested bids when the retailer has them off.
 */
export function hitFields(kind: SearchKind, asked: readonly string[] | undefined, accountType: AccountType, suggestedBids: boolean): Set<string> {
  const fields = new Set(asked ?? fieldsOf(kind));
  if (kind !== "product") {
    if (accountType !== "operator") for (const f of OPERATOR_FIELDS) fields.delete(f);
    if (!suggestedBids) for (const f of BID_FIELDS) fields.delete(f);
  }
  return fields;
}

/** A request as the console sends it to a search service. */
export function searchRequestToWire(request: SearchRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { size: request.size };
  if (request.query !== undefined) body.query = request.query;
  if (request.includeIds) body.includeIds = request.includeIds;
  if (request.fields) body.fields = request.fields;
  if (request.team !== undefined) body.team = request.team;
  if (request.page_type !== undefined) body.page_type = request.page_type;
  return body;
}

const PRODUCT_TYPES: Record<ProductField, (v: unknown) => boolean> = {
  title: (v) => typeof v === "string",
  image_link: (v) => typeof v === "string",
  availability: (v) => typeof v === "string",
  link: (v) => typeof v === "string",
  price: (v) => Number.isSafeInteger(v),
  stroke_price: (v) => v === null || Number.isSafeInteger(v),
  party: (v) => typeof v === "string",
  brand: (v) => typeof v === "string",
  categories: (v) => Array.isArray(v) && v.every((c) => typeof c === "string"),
  rating: (v) => v === null || typeof v === "number",
  reviews: (v) => v === null || Number.isSafeInteger(v),
  metrics: (v) => isRecord(v) && ["displays", "views", "clicks", "cost", "quantity", "sales"].every((k) => Number.isSafeInteger(v[k] ?? 0)),
};

const count = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
const ratio = (v: unknown) => v === null || (typeof v === "number" && Number.isFinite(v));
const TARGET_TYPES: Record<TargetField, (v: unknown) => boolean> = {
  name: (v) => typeof v === "string",
  level: (v) => v === null || Number.isSafeInteger(v),
  hierarchies: (v) => Array.isArray(v) && v.every((c) => typeof c === "string"),
  volume: count,
  trend: ratio,
  url: (v) => typeof v === "string",
  page_type: (v) => typeof v === "string",
  floor_price: (v) => v === null || count(v),
  hits: count,
  lower_bid: count,
  suggested_bid: count,
  upper_bid: count,
  products_per_page: count,
  fill_rate: ratio,
  conversion_rate: ratio,
};

/**
 * Reads a search service's answer: `{ hits }` whose every hit has an id and known fields of the
 * right types (unknown ones are dropped); null when it is not a search answer.
 */
export function parseSearchResponse<K extends SearchKind>(kind: K, body: unknown): SearchResponse<K> | null {
  if (!isRecord(body) || !Array.isArray(body.hits)) return null;
  const types: Record<string, (v: unknown) => boolean> = kind === "product" ? PRODUCT_TYPES : TARGET_TYPES;
  const hits: Record<string, unknown>[] = [];
  for (const raw of body.hits) {
    if (!isRecord(raw) || !isId(raw.id)) return null;
    const hit: Record<string, unknown> = { id: raw.id };
    for (const [name, check] of Object.entries(types)) {
      if (raw[name] === undefined) continue;
      if (!check(raw[name])) return null;
      hit[name] = raw[name];
    }
    hits.push(hit);
  }
  return { hits: hits as unknown as SearchHit<K>[] };
}

/** A catalog product as a product hit (without its metrics, added per caller). The feed gives no rating or reviews yet. */
export function productHitOf(product: Pick<Product, "id" | "title" | "image_link" | "availability" | "link" | "price" | "stroke_price" | "party" | "brand" | "categories">): ProductHit {
  return {
    id: product.id,
    title: product.title,
    image_link: product.image_link,
    availability: product.availability,
    link: product.link,
    price: product.price,
    stroke_price: product.stroke_price ?? null,
    party: product.party,
    brand: product.brand,
    categories: [...product.categories],
    rating: null,
    reviews: null,
  };
}

/** Only the fields asked (and the id). */
export function pickFields<T extends { id: string }>(hit: T, fields: ReadonlySet<string>): T {
  const out: Record<string, unknown> = { id: hit.id };
  for (const [name, value] of Object.entries(hit)) if (fields.has(name) && value !== undefined) out[name] = value;
  return out as T;
}
