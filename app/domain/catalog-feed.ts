/**
 * A retailer's catalog feed (issue 10 §4): a CSV or JSON file of products, read into the catalog's
 * products (app/domain/catalog.ts) with each bad row and its reasons. Pure: no I/O; papaparse
 * reads the CSV. The import use case (app/services/catalog-import.server.ts) writes the good rows.
 *
 * The columns (CSV header names, or JSON keys; case, spaces and dashes aside):
 *
 * | column | required | value |
 * |---|---|---|
 * | id | yes | the product's identifier (SKU), 1-256 characters, no "/" |
 * | title | yes | up to 500 characters |
 * | availability | yes | in stock, in store, preorder, out of stock, not found, not eligible, missing category (in_stock, In-Stock… too) |
 * | party | yes | 1P, 3P or 1P_3P |
 * | brand | yes | up to 200 characters |
 * | price | yes | in currency units, "12.99" or "12,99" (a currency code or sign beside it is ignored); above 0 |
 * | stroke_price | no | the former price, same format; empty: none |
 * | image_link | no | an https or http address, or a path on this site |
 * | link | no | the product's page: an https or http address |
 * | categories | no | category paths "Grocery > Coffee & tea > Coffee", several separated by "|" (JSON: a list, or one such text) |
 * | seller_id | no | the marketplace seller, where the product has one |
 *
 * Other columns are ignored (and named in the report). JSON: a list of products, or an object
 * whose `products` is that list.
 */
import Papa from "papaparse";
import { AVAILABILITIES, PARTIES, type Availability, type Party } from "~/domain/availability";
import type { ProductInput } from "~/domain/catalog";
import type { MessageValues } from "~/domain/message";
import { MAX_AMOUNT_MINOR, type Cents } from "~/domain/money";

export const FEED_COLUMNS = ["id", "title", "availability", "party", "brand", "price", "stroke_price", "image_link", "link", "categories", "seller_id"] as const;
export type FeedColumn = (typeof FEED_COLUMNS)[number];
export const REQUIRED_FEED_COLUMNS: readonly FeedColumn[] = ["id", "title", "availability", "party", "brand", "price"];

/** The largest feed file read (a catalog of 100,000 products of about 200 bytes). */
export const FEED_MAX_BYTES = 20 * 1024 * 1024;
/** Products in one feed at most. */
export const FEED_MAX_ROWS = 100_000;
/** Bad rows listed in a report at most (all are counted). */
export const MAX_REPORTED_BAD_ROWS = 200;

export const MAX_ID_LENGTH = 256;
export const MAX_TITLE_LENGTH = 500;
export const MAX_BRAND_LENGTH = 200;
export const MAX_LINK_LENGTH = 2048;
export const MAX_SELLER_ID_LENGTH = 128;
export const MAX_CATEGORIES = 20;

export type FeedFormat = "csv" | "json";

/** Why a row was left out (i18n keys of the catalog namespace). */
export const ROW_REASONS = {
  idMissing: "catalog:import.reasons.idMissing",
  idInvalid: "catalog:import.reasons.idInvalid",
  idDuplicate: "catalog:import.reasons.idDuplicate",
  titleMissing: "catalog:import.reasons.titleMissing",
  titleTooLong: "catalog:import.reasons.titleTooLong",
  availabilityInvalid: "catalog:import.reasons.availabilityInvalid",
  partyInvalid: "catalog:import.reasons.partyInvalid",
  brandMissing: "catalog:import.reasons.brandMissing",
  brandTooLong: "catalog:import.reasons.brandTooLong",
  priceMissing: "catalog:import.reasons.priceMissing",
  priceInvalid: "catalog:import.reasons.priceInvalid",
  strokePriceInvalid: "catalog:import.reasons.strokePriceInvalid",
  imageLinkInvalid: "catalog:import.reasons.imageLinkInvalid",
  linkInvalid: "catalog:import.reasons.linkInvalid",
  categoriesInvalid: "catalog:import.reasons.categoriesInvalid",
  sellerIdInvalid: "catalog:import.reasons.sellerIdInvalid",
  notAnObject: "catalog:import.reasons.notAnObject",
} as const;
export type RowReason = (typeof ROW_REASONS)[keyof typeof ROW_REASONS];

/** Why a whole feed was refused (nothing of it is imported). */
export const FEED_REASONS = {
  empty: "catalog:import.errors.empty",
  tooLarge: "catalog:import.errors.tooLarge",
  tooManyRows: "catalog:import.errors.tooManyRows",
  unreadable: "catalog:import.errors.unreadable",
  notJson: "catalog:import.errors.notJson",
  notAList: "catalog:import.errors.notAList",
  missingColumns: "catalog:import.errors.missingColumns",
  /** Bytes that are not UTF-8 (nor UTF-16 with its mark): app/domain/text-file.ts. */
  notUtf8: "catalog:import.errors.notUtf8",
} as const;
export type FeedReason = (typeof FEED_REASONS)[keyof typeof FEED_REASONS];

export type FeedProduct = ProductInput & { id: string };

export interface BadRow {
  /** CSV: the line of the file (the header is line 1); JSON: the product's place in the list (1 first). */
  line: number;
  /** The row's id when it has a usable one. */
  id: string | null;
  reasons: RowReason[];
}

export interface ParsedFeed {
  format: FeedFormat;
  products: FeedProduct[];
  bad: BadRow[];
  /** Rows read (good and bad). */
  rows: number;
  /** Columns of the file that are not feed columns (left out). */
  ignoredColumns: string[];
}

export type FeedParse = { ok: true; value: ParsedFeed } | { ok: false; reason: FeedReason; values?: MessageValues };

/** The format a file is in: its extension, else its first character ("[" or "{": JSON). */
export function feedFormatOf(fileName: string, text: string): FeedFormat {
  const name = fileName.trim().toLowerCase();
  if (name.endsWith(".json")) return "json";
  if (name.endsWith(".csv") || name.endsWith(".txt") || name.endsWith(".tsv")) return "csv";
  const first = text.replace(/^\uFEFF/, "").trimStart()[0];
  return first === "[" || first === "{" ? "json" : "csv";
}

/** A header or key as a feed column: "Stroke Price", "stroke-price" and "STROKE_PRICE" are stroke_price. */
export function columnOf(header: string): FeedColumn | null {
  const key = header.replace(/^\uFEFF/, "").trim().toLowerCase().replace(/[\s-]+/g, "_");
  return (FEED_COLUMNS as readonly string[]).includes(key) ? (key as FeedColumn) : null;
}

/** Availability as the spec writes it, from a feed's spelling (in_stock, In-Stock, "IN STOCK"), or null. */
export function normaliseAvailability(value: string): Availability | null {
  const key = value.trim().toLowerCase().replace(/[_-]+/g, " ").replace(/\s+/g, " ");
  return (AVAILABILITIES as readonly string[]).includes(key) ? (key as Availability) : null;
}

/** 1P, 3P or 1P_3P, from "1p", "1P-3P", "1P/3P", "1P 3P"…, or null. */
export function normaliseParty(value: string): Party | null {
  const key = value.trim().toUpperCase().replace(/[\s/+-]+/g, "_");
  return (PARTIES as readonly string[]).includes(key) ? (key as Party) : null;
}

/**
 * A feed price in currency units ("12.99", "12,99", "1 299.00 EUR", "€5") as cents, exactly; null
 * when it is no price above 0.
 */
export function parseFeedPrice(value: string): Cents | null {
  // The usual case first, without the slower Unicode clean-up: "12.99".
  const simple = /^(\d{1,13})(?:[.,](\d{1,2}))?$/.exec(value);
  if (simple) {
    const cents = Number(simple[1]) * 100 + Number((simple[2] ?? "").padEnd(2, "0"));
    return cents > 0 && cents <= MAX_AMOUNT_MINOR ? cents : null;
  }
  // A currency code or sign beside the amount ("12.99 EUR", "€5", "5 zł") is no part of it.
  const compact = value
    .replace(/^[\p{L}\p{Sc}\s]+|[\p{L}\p{Sc}\s]+$/gu, "")
    .replace(/[\s\u00a0\u202f]/g, "");
  let units: string;
  let fraction: string;
  const plain = /^(\d+)(?:[.,](\d{1,2}))?$/.exec(compact);
  if (plain) {
    units = plain[1]!;
    fraction = plain[2] ?? "";
  } else {
    // Thousands separated ("1,299.00", "1.299,00"): only with decimals after the other separator.
    const grouped = /^(\d{1,3}(?:([.,])\d{3})+)([.,])(\d{2})$/.exec(compact);
    if (!grouped || grouped[2] === grouped[3]) return null;
    units = grouped[1]!.split(grouped[2]!).join("");
    fraction = grouped[4]!;
  }
  if (units.length > 13) return null;
  const cents = Number(units) * 100 + Number(fraction.padEnd(2, "0"));
  return cents > 0 && cents <= MAX_AMOUNT_MINOR ? cents : null;
}

const CONTROL = /[\u0000-\u001f\u007f]/;

function isProductId(id: string): boolean {
  return id.length <= MAX_ID_LENGTH && !id.includes("/") && id !== "." && id !== ".." && !/^__.*__$/.test(id) && !CONTROL.test(id);
}

/** An address a product may link to: http(s), or (images) a path on this site. */
function isLink(value: string, allowPath: boolean): boolean {
  if (value.length > MAX_LINK_LENGTH || CONTROL.test(value)) return false;
  if (allowPath && value.startsWith("/") && !value.startsWith("//")) return true;
  // An absolute http(s) address with a host and no spaces (what a browser would follow).
  return /^https?:\/\/[^\s/?#@]+(?:[/?#][^\s]*)?$/i.test(value);
}

/** A cell as text: numbers (JSON) written out, absent values empty. */
function text(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "string") return value.trim();
  return "\u0000"; // anything else is no valid text
}

function categoriesOf(value: unknown): string[] | null {
  const list = Array.isArray(value) ? value : text(value).split("|");
  const paths: string[] = [];
  for (const item of list) {
    if (typeof item !== "string" || CONTROL.test(item)) return null;
    const path = item.trim();
    if (path) paths.push(path);
  }
  return paths.length <= MAX_CATEGORIES && paths.every((p) => p.length <= 1000) ? paths : null;
}

/** One row (CSV cells or a JSON object, by feed column) as a product, or the reasons it is bad. */
export function readFeedRow(row: Partial<Record<FeedColumn, unknown>>): { ok: true; value: FeedProduct } | { ok: false; id: string | null; reasons: RowReason[] } {
  const reasons: RowReason[] = [];
  const id = text(row.id);
  let goodId: string | null = null;
  if (!id) reasons.push(ROW_REASONS.idMissing);
  else if (!isProductId(id)) reasons.push(ROW_REASONS.idInvalid);
  else goodId = id;

  // Line breaks inside a quoted cell are spaces in a title.
  const title = text(row.title).replace(/\s+/g, " ");
  if (!title || CONTROL.test(title)) reasons.push(ROW_REASONS.titleMissing);
  else if (title.length > MAX_TITLE_LENGTH) reasons.push(ROW_REASONS.titleTooLong);

  const availability = normaliseAvailability(text(row.availability));
  if (!availability) reasons.push(ROW_REASONS.availabilityInvalid);

  const party = normaliseParty(text(row.party));
  if (!party) reasons.push(ROW_REASONS.partyInvalid);

  const brand = text(row.brand).replace(/\s+/g, " ");
  if (!brand || CONTROL.test(brand)) reasons.push(ROW_REASONS.brandMissing);
  else if (brand.length > MAX_BRAND_LENGTH) reasons.push(ROW_REASONS.brandTooLong);

  const priceText = text(row.price);
  const price = priceText ? parseFeedPrice(priceText) : null;
  if (!priceText) reasons.push(ROW_REASONS.priceMissing);
  else if (price === null) reasons.push(ROW_REASONS.priceInvalid);

  const strokeText = text(row.stroke_price);
  const strokePrice = strokeText ? parseFeedPrice(strokeText) : null;
  if (strokeText && strokePrice === null) reasons.push(ROW_REASONS.strokePriceInvalid);

  const imageLink = text(row.image_link);
  if (imageLink && !isLink(imageLink, true)) reasons.push(ROW_REASONS.imageLinkInvalid);
  const link = text(row.link);
  if (link && !isLink(link, false)) reasons.push(ROW_REASONS.linkInvalid);

  const categories = categoriesOf(row.categories);
  if (!categories) reasons.push(ROW_REASONS.categoriesInvalid);

  const sellerId = text(row.seller_id);
  if (sellerId && (sellerId.length > MAX_SELLER_ID_LENGTH || CONTROL.test(sellerId))) reasons.push(ROW_REASONS.sellerIdInvalid);

  if (reasons.length) return { ok: false, id: goodId, reasons };
  return {
    ok: true,
    value: {
      id: goodId!,
      title,
      image_link: imageLink,
      link,
      availability: availability!,
      party: party!,
      brand,
      price: price!,
      stroke_price: strokePrice,
      categories: categories!,
      ...(sellerId ? { seller_id: sellerId } : {}),
    },
  };
}

/** Reads rows (numbered as the file counts them) into products and bad rows; a repeated id is bad (the first is kept). */
function readRows(rows: Iterable<{ line: number; row: Partial<Record<FeedColumn, unknown>> | null }>): Pick<ParsedFeed, "products" | "bad" | "rows"> {
  const products: FeedProduct[] = [];
  const bad: BadRow[] = [];
  const seen = new Set<string>();
  let count = 0;
  for (const { line, row } of rows) {
    count++;
    if (!row) {
      bad.push({ line, id: null, reasons: [ROW_REASONS.notAnObject] });
      continue;
    }
    const read = readFeedRow(row);
    if (!read.ok) {
      bad.push({ line, id: read.id, reasons: read.reasons });
      continue;
    }
    if (seen.has(read.value.id)) {
      bad.push({ line, id: read.value.id, reasons: [ROW_REASONS.idDuplicate] });
      continue;
    }
    seen.add(read.value.id);
    products.push(read.value);
  }
  return { products, bad, rows: count };
}

function parseCsv(text: string): FeedParse {
  // Each record with the file line it starts on (records may span lines inside quotes; empty
  // lines are skipped): counted from papaparse's cursor, one step at a time.
  const records: { line: number; cells: string[] }[] = [];
  let unreadable = false;
  let cursor = 0;
  let line = 1;
  Papa.parse<string[]>(text, {
    skipEmptyLines: "greedy",
    delimitersToGuess: [",", ";", "\t", "|"],
    step(result) {
      let start = cursor;
      while (start < text.length && (text[start] === "\n" || text[start] === "\r")) start++;
      for (let i = cursor; i < start; i++) if (text[i] === "\n" || (text[i] === "\r" && text[i + 1] !== "\n")) line++;
      records.push({ line, cells: result.data });
      const end = result.meta.cursor;
      for (let i = start; i < end; i++) if (text[i] === "\n" || (text[i] === "\r" && text[i + 1] !== "\n")) line++;
      cursor = end;
      // A quote never closed swallows the rest of the file: that file cannot be read.
      if (result.errors.some((e) => e.code === "MissingQuotes")) unreadable = true;
    },
  });
  if (unreadable) return { ok: false, reason: FEED_REASONS.unreadable };
  if (!records.length) return { ok: false, reason: FEED_REASONS.empty };
  const header = records[0]!.cells;
  const columns = header.map(columnOf);
  const ignoredColumns = header.filter((h, i) => columns[i] === null && h.trim() !== "").map((h) => h.trim());
  const missing = REQUIRED_FEED_COLUMNS.filter((c) => !columns.includes(c));
  if (missing.length) return { ok: false, reason: FEED_REASONS.missingColumns, values: { columns: missing.join(", ") } };
  if (records.length - 1 > FEED_MAX_ROWS) return { ok: false, reason: FEED_REASONS.tooManyRows, values: { max: FEED_MAX_ROWS } };
  if (records.length === 1) return { ok: false, reason: FEED_REASONS.empty };
  const rows = function* () {
    for (let i = 1; i < records.length; i++) {
      const { line, cells } = records[i]!;
      const row: Partial<Record<FeedColumn, unknown>> = {};
      columns.forEach((column, c) => {
        if (column && row[column] === undefined) row[column] = cells[c] ?? "";
      });
      yield { line, row };
    }
  };
  return { ok: true, value: { format: "csv", ...readRows(rows()), ignoredColumns } };
}

function parseJson(text: string): FeedParse {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, reason: FEED_REASONS.notJson };
  }
  const list = Array.isArray(body) ? body : typeof body === "object" && body !== null && Array.isArray((body as { products?: unknown }).products) ? (body as { products: unknown[] }).products : null;
  if (!list) return { ok: false, reason: FEED_REASONS.notAList };
  if (!list.length) return { ok: false, reason: FEED_REASONS.empty };
  if (list.length > FEED_MAX_ROWS) return { ok: false, reason: FEED_REASONS.tooManyRows, values: { max: FEED_MAX_ROWS } };
  const ignored = new Set<string>();
  const rows = function* () {
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      if (typeof item !== "object" || item === null || Array.isArray(item)) {
        yield { line: i + 1, row: null };
        continue;
      }
      const row: Partial<Record<FeedColumn, unknown>> = {};
      for (const [key, value] of Object.entries(item)) {
        const column = columnOf(key);
        if (column) row[column] = value;
        else if (ignored.size < 50) ignored.add(key);
      }
      yield { line: i + 1, row };
    }
  };
  const read = readRows(rows());
  return { ok: true, value: { format: "json", ...read, ignoredColumns: [...ignored] } };
}

/** Reads a feed file's text (its name says the format, else its first character). */
export function parseCatalogFeed(fileName: string, content: string): FeedParse {
  if (content.length > FEED_MAX_BYTES) return { ok: false, reason: FEED_REASONS.tooLarge, values: { max: FEED_MAX_BYTES / (1024 * 1024) } };
  const text = content.replace(/^\uFEFF/, "");
  if (!text.trim()) return { ok: false, reason: FEED_REASONS.empty };
  return feedFormatOf(fileName, text) === "json" ? parseJson(text) : parseCsv(text);
}
