/**
 * The search index of one console instance (ADR 20): an embedded SQLite database with FTS5
 * tables, in its own file (SEARCH_INDEX_PATH, default $DATA_DIR/search-index.db), built from the
 * catalog read through the storage port, whichever adapter serves it. It holds:
 *
 * - products: a row each (its hit, brand key, seller id) and its full-text entry (title, brand,
 *   id, category names), folded like app/domain/search.ts folds, so that accents and case do not
 *   matter; prefix indexes of 1 to 3 characters make prefix queries cheap;
 * - categories: every level of every product's category paths, each with its products;
 * - keywords: the keywords searches can suggest (given by the service);
 * - demand: each keyword's and category's statistics (given by the service);
 * - sponsored: the products at least one published campaign sponsors.
 *
 * Everything here is derived and can be rebuilt: nothing is written anywhere else. Every value
 * is bound as a parameter; only placeholders are built into SQL.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { categoryNodes, type CategoryNode } from "~/domain/categories";
import type { Product } from "~/domain/catalog";
import type { Demand } from "~/domain/demand";
import { availabilityRank } from "~/domain/availability";
import { allWordsQuery, foldText, prefixMatchQuery, prefixScore, queryWords } from "~/domain/search";
import { productHitOf, type ProductHit } from "~/domain/search-contract";
import type { ProductScope } from "~/domain/brand-scope";

/** Bump when the schema changes: an index of another version is rebuilt from scratch. */
const SCHEMA_VERSION = "3";

/** The ranking weights of a product's columns (its scope tokens do not count). */
const PRODUCT_WEIGHT = { title: 10, brand: 4, ident: 6, category: 1 };
const PRODUCT_WEIGHTS = `${PRODUCT_WEIGHT.title}.0, ${PRODUCT_WEIGHT.brand}.0, ${PRODUCT_WEIGHT.ident}.0, ${PRODUCT_WEIGHT.category}.0, 0.0`;
/** The columns a user's words are looked for in. */
const PRODUCT_TEXT_COLUMNS = "{title brand ident category}";
/**
 * Matches ranked at most: past this many (a query of one or two letters on a large catalog),
 * the hits are the most relevant of the first CANDIDATES matches, so that no query costs more
 * than ranking this many.
 */
export const CANDIDATES = 1_000;
/** Words shorter than this are checked on the candidates of the longer ones (see withShortWords). */
const SHORT_WORD = 3;
/** Of a category's: its own name, its whole path. */
const CATEGORY_WEIGHTS = "4.0, 1.0";

export type DemandKind = "keyword" | "category" | "productCategory";

/** The products a keyword finds or a category holds, and how many of them are sponsored. */
export interface PageCounts {
  products: number;
  sponsored: number;
}

export interface CategoryRow {
  id: string;
  name: string;
  segments: string[];
  level: number;
}

export interface KeywordEntry {
  /** keywordKey of the keyword. */
  key: string;
  /** As shown. */
  name: string;
}

export interface ProductQuery {
  words: string[];
  includeIds?: readonly string[];
  scope: ProductScope;
  limit: number;
}

export interface TargetQuery {
  words: string[];
  includeIds?: readonly string[];
  limit: number;
  /** The demand the hits are ranked by (and returned with). */
  demand: DemandKind;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS product (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    brand TEXT NOT NULL,
    brand_key TEXT NOT NULL,
    seller_id TEXT,
    avail_rank INTEGER NOT NULL,
    title_key TEXT NOT NULL,
    category_key TEXT NOT NULL,
    hit TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS product_brand ON product (brand_key);
  CREATE INDEX IF NOT EXISTS product_seller ON product (seller_id) WHERE seller_id IS NOT NULL;
  CREATE INDEX IF NOT EXISTS product_order ON product (avail_rank DESC, title_key);
  CREATE VIRTUAL TABLE IF NOT EXISTS product_fts USING fts5(
    title, brand, ident, category, scope,
    content = '', contentless_delete = 1, prefix = '1 2 3',
    tokenize = 'unicode61 remove_diacritics 2'
  );
  CREATE TABLE IF NOT EXISTS product_category (
    category_id TEXT NOT NULL,
    product INTEGER NOT NULL,
    PRIMARY KEY (category_id, product)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS product_category_product ON product_category (product);
  CREATE TABLE IF NOT EXISTS category (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    segments TEXT NOT NULL,
    path_key TEXT NOT NULL,
    level INTEGER NOT NULL
  );
  CREATE VIRTUAL TABLE IF NOT EXISTS category_fts USING fts5(
    name, path,
    content = '', contentless_delete = 1, prefix = '1 2 3',
    tokenize = 'unicode61 remove_diacritics 2'
  );
  CREATE TABLE IF NOT EXISTS keyword (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL
  );
  CREATE VIRTUAL TABLE IF NOT EXISTS keyword_fts USING fts5(
    name,
    content = '', contentless_delete = 1, prefix = '1 2 3',
    tokenize = 'unicode61 remove_diacritics 2'
  );
  CREATE TABLE IF NOT EXISTS demand (
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    displays INTEGER NOT NULL,
    clicks INTEGER NOT NULL,
    cost_micros INTEGER NOT NULL,
    quantity INTEGER NOT NULL,
    recent INTEGER NOT NULL,
    previous INTEGER NOT NULL,
    PRIMARY KEY (kind, key)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS sponsored (id TEXT PRIMARY KEY) WITHOUT ROWID;
`;

const TABLES = ["product", "product_fts", "product_category", "category", "category_fts", "keyword", "keyword_fts", "demand", "sponsored", "meta"];

/**
 * A product's scope as FTS tokens (letters and digits only), so that a supplier's search is one
 * full-text query: its words AND one of its brands or seller ids.
 */
function brandToken(brandKey: string): string {
  return `zb${createHash("sha1").update(brandKey).digest("hex").slice(0, 20)}`;
}
function sellerToken(sellerId: string): string {
  return `zs${createHash("sha1").update(sellerId).digest("hex").slice(0, 20)}`;
}

/** The FTS5 condition of a scope; null for every product, "" for none. */
function scopeMatch(scope: ProductScope): string | null {
  if (scope === null) return null;
  const tokens = [...scope.brands.map(brandToken), ...scope.sellerIds.map(sellerToken)];
  return tokens.length ? `scope : (${tokens.map((t) => `"${t}"`).join(" OR ")})` : "";
}

function placeholders(count: number): string {
  return Array.from({ length: count }, () => "?").join(", ");
}

interface DemandRow {
  key: string;
  displays: number;
  clicks: number;
  cost_micros: number;
  quantity: number;
  recent: number;
  previous: number;
}

function demandOfRow(row: DemandRow): Demand {
  return { displays: row.displays, clicks: row.clicks, costMicros: row.cost_micros, quantity: row.quantity, recent: row.recent, previous: row.previous };
}

export class SearchIndex {
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  /**
   * Products and sponsored products per keyword and category, counted once until the products
   * or the sponsored ones change (operators' figures: counting a broad keyword reads its matches).
   */
  private readonly pages = { keyword: new Map<string, PageCounts>(), category: new Map<string, PageCounts>() };

  private forgetPages(): void {
    this.pages.keyword.clear();
    this.pages.category.clear();
  }

  constructor(readonly filename: string) {
    if (filename !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(filename)), { recursive: true });
    this.db = new Database(filename);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("busy_timeout = 5000");
    this.db.pragma("synchronous = NORMAL");
    this.db.pragma("cache_size = -32768");
    // An index of another schema is dropped before anything of this one is created on it.
    this.db.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID");
    if (this.getMeta("schema") !== SCHEMA_VERSION) {
      this.db.exec(TABLES.map((t) => `DROP TABLE IF EXISTS ${t};`).join("\n"));
      this.db.exec(SCHEMA);
      this.setMeta("schema", SCHEMA_VERSION);
    } else {
      this.db.exec(SCHEMA);
    }
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      if (this.statements.size < 300) this.statements.set(sql, statement);
    }
    return statement;
  }

  close(): void {
    this.db.close();
  }

  // -------------------------------------------------------------------------------------------
  // State

  getMeta(key: string): string | null {
    const row = this.statement("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined;
    return row?.value ?? null;
  }

  setMeta(key: string, value: string | null): void {
    if (value === null) this.statement("DELETE FROM meta WHERE key = ?").run(key);
    else this.statement("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(key, value);
  }

  /** Runs `fn` in one write transaction (a batch of products, a refresh). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /** Forgets every product and category (a rebuild starts from here). */
  clearCatalog(): void {
    this.forgetPages();
    this.transaction(() => {
      for (const table of ["product", "product_fts", "product_category", "category", "category_fts"]) this.db.exec(`DELETE FROM ${table}`);
    });
  }

  // -------------------------------------------------------------------------------------------
  // Products

  /** Adds or replaces products, in one transaction. */
  upsertProducts(products: readonly Product[]): void {
    const find = this.statement("SELECT rowid FROM product WHERE id = ?");
    const insert = this.statement(
      "INSERT INTO product (id, brand, brand_key, seller_id, avail_rank, title_key, category_key, hit) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    const update = this.statement(
      "UPDATE product SET brand = ?, brand_key = ?, seller_id = ?, avail_rank = ?, title_key = ?, category_key = ?, hit = ? WHERE rowid = ?",
    );
    const unindex = this.statement("DELETE FROM product_fts WHERE rowid = ?");
    const uncategorise = this.statement("DELETE FROM product_category WHERE product = ?");
    const index = this.statement("INSERT INTO product_fts (rowid, title, brand, ident, category, scope) VALUES (?, ?, ?, ?, ?, ?)");
    const categorise = this.statement("INSERT OR IGNORE INTO product_category (category_id, product) VALUES (?, ?)");
    if (products.length) this.forgetPages();
    this.transaction(() => {
      for (const product of products) {
        const nodes = new Map<string, CategoryNode>();
        for (const path of product.categories ?? []) for (const node of categoryNodes(path)) nodes.set(node.id, node);
        const categoryText = [...new Set([...nodes.values()].map((n) => foldText(n.name)))].join(" ");
        const values = [
          product.brand,
          foldText(product.brand),
          product.seller_id ? product.seller_id : null,
          availabilityRank(product.availability),
          foldText(product.title),
          categoryText,
          JSON.stringify(productHitOf(product)),
        ];
        const existing = find.get(product.id) as { rowid: number } | undefined;
        let rowid: number;
        if (existing) {
          rowid = existing.rowid;
          update.run(...values, rowid);
          unindex.run(rowid);
          uncategorise.run(rowid);
        } else {
          rowid = Number(insert.run(product.id, ...values).lastInsertRowid);
        }
        const scope = [brandToken(foldText(product.brand)), ...(product.seller_id ? [sellerToken(product.seller_id)] : [])].join(" ");
        index.run(rowid, foldText(product.title), foldText(product.brand), foldText(product.id), categoryText, scope);
        for (const node of nodes.values()) {
          categorise.run(node.id, rowid);
          this.addCategory(node);
        }
      }
    });
  }

  private addCategory(node: CategoryNode): void {
    const added = this.statement(
      "INSERT OR IGNORE INTO category (id, name, name_key, segments, path_key, level) VALUES (?, ?, ?, ?, ?, ?)",
    ).run(node.id, node.name, foldText(node.name), JSON.stringify(node.segments), foldText(node.segments.join(" ")), node.level);
    if (added.changes) {
      this.statement("INSERT INTO category_fts (rowid, name, path) VALUES (?, ?, ?)").run(added.lastInsertRowid, foldText(node.name), foldText(node.segments.join(" ")));
    }
  }

  productCount(): number {
    return (this.statement("SELECT count(*) AS n FROM product").get() as { n: number }).n;
  }

  private scopeSql(scope: ProductScope): { sql: string; params: string[] } | null {
    if (scope === null) return null;
    const parts: string[] = [];
    if (scope.brands.length) parts.push(`p.brand_key IN (${placeholders(scope.brands.length)})`);
    if (scope.sellerIds.length) parts.push(`p.seller_id IN (${placeholders(scope.sellerIds.length)})`);
    return { sql: parts.length ? `(${parts.join(" OR ")})` : "0", params: [...scope.brands, ...scope.sellerIds] };
  }

  /**
   * The products that match every word's prefix, the most relevant first (words in the title
   * weigh most, then in the id, the brand, the categories; then the better availability and the
   * title); without words, by availability and title; with ids, among those (without words, in
   * the order given). A scope keeps the products it allows.
   */
  searchProducts(query: ProductQuery): ProductHit[] {
    const words = prefixMatchQuery(query.words);
    if (query.includeIds && !query.includeIds.length) return [];
    let rows: { id: string; hit: string }[];
    if (words) {
      const scope = scopeMatch(query.scope);
      if (scope === "") return [];
      const match = scope ? `${PRODUCT_TEXT_COLUMNS} : (${words}) AND ${scope}` : `${PRODUCT_TEXT_COLUMNS} : (${words})`;
      if (query.includeIds) {
        // Among a few ids (a seek per id in the full-text index costs more than this): the same
        // prefix rule and column weights, scored here.
        const inScope = this.scopeSql(query.scope);
        const products = this.statement(
          `SELECT p.id, p.hit, p.avail_rank, p.title_key, p.brand_key, p.category_key FROM product p
           WHERE p.id IN (${placeholders(query.includeIds.length)})${inScope ? ` AND ${inScope.sql}` : ""}`,
        ).all(...query.includeIds, ...(inScope?.params ?? [])) as { id: string; hit: string; avail_rank: number; title_key: string; brand_key: string; category_key: string }[];
        rows = products
          .flatMap((p) => {
            const score = prefixScore(query.words, [
              { text: p.title_key, weight: PRODUCT_WEIGHT.title },
              { text: foldText(p.id), weight: PRODUCT_WEIGHT.ident },
              { text: p.brand_key, weight: PRODUCT_WEIGHT.brand },
              { text: p.category_key, weight: PRODUCT_WEIGHT.category },
            ]);
            return score === null ? [] : [{ ...p, score }];
          })
          .sort((a, b) => b.score - a.score || b.avail_rank - a.avail_rank || (a.title_key < b.title_key ? -1 : a.title_key > b.title_key ? 1 : 0))
          .slice(0, query.limit);
      } else {
        rows = this.withShortWords(query, scope) ?? (this.statement(
          `SELECT p.id, p.hit FROM (
             SELECT rowid, bm25(product_fts, ${PRODUCT_WEIGHTS}) AS score FROM product_fts WHERE product_fts MATCH ? LIMIT ${CANDIDATES}
           ) f CROSS JOIN product p ON p.rowid = f.rowid
           ORDER BY f.score, p.avail_rank DESC, p.title_key LIMIT ?`,
        ).all(match, query.limit) as { id: string; hit: string }[]);
      }
    } else {
      const where: string[] = [];
      const params: unknown[] = [];
      const scope = this.scopeSql(query.scope);
      if (scope) {
        where.push(scope.sql);
        params.push(...scope.params);
      }
      if (query.includeIds) {
        where.push(`p.id IN (${placeholders(query.includeIds.length)})`);
        params.push(...query.includeIds);
      }
      rows = this.statement(
        `SELECT p.id, p.hit FROM product p${where.length ? ` WHERE ${where.join(" AND ")}` : ""}
         ORDER BY p.avail_rank DESC, p.title_key LIMIT ?`,
      ).all(...params, query.includeIds ? query.includeIds.length : query.limit) as { id: string; hit: string }[];
      if (query.includeIds) {
        const byId = new Map(rows.map((r) => [r.id, r]));
        rows = query.includeIds.flatMap((id) => byId.get(id) ?? []).slice(0, query.limit);
      }
    }
    return rows.map((row) => JSON.parse(row.hit) as ProductHit);
  }

  /**
   * Words of one or two letters beside longer ones ("usb-c charger", "nordic ha") make the index
   * walk the long lists of every word those letters start: the longer words are looked up, the
   * short ones checked on their candidates. Null (the whole query is run instead) when that does
   * not fill the page, so no product is ever missed.
   */
  private withShortWords(query: ProductQuery, scope: string | null): { id: string; hit: string }[] | null {
    const long = query.words.filter((w) => w.length >= SHORT_WORD);
    const short = query.words.filter((w) => w.length < SHORT_WORD);
    if (!long.length || !short.length) return null;
    const words = prefixMatchQuery(long)!;
    const match = scope ? `${PRODUCT_TEXT_COLUMNS} : (${words}) AND ${scope}` : `${PRODUCT_TEXT_COLUMNS} : (${words})`;
    const candidates = this.statement(
      `SELECT p.id, p.title_key, p.brand_key, p.category_key FROM (
         SELECT rowid, bm25(product_fts, ${PRODUCT_WEIGHTS}) AS score FROM product_fts WHERE product_fts MATCH ? LIMIT ${CANDIDATES}
       ) f CROSS JOIN product p ON p.rowid = f.rowid
       ORDER BY f.score, p.avail_rank DESC, p.title_key`,
    ).all(match) as { id: string; title_key: string; brand_key: string; category_key: string }[];
    const kept: string[] = [];
    for (const c of candidates) {
      if (prefixScore(short, [{ text: c.title_key, weight: 1 }, { text: foldText(c.id), weight: 1 }, { text: c.brand_key, weight: 1 }, { text: c.category_key, weight: 1 }]) === null) continue;
      kept.push(c.id);
      if (kept.length === query.limit) break;
    }
    if (kept.length < query.limit) return null;
    const hits = new Map(
      (this.statement(`SELECT id, hit FROM product WHERE id IN (${placeholders(kept.length)})`).all(...kept) as { id: string; hit: string }[]).map((r) => [r.id, r]),
    );
    return kept.map((id) => hits.get(id)!);
  }

  // -------------------------------------------------------------------------------------------
  // Categories

  /** Categories with products, matching every word's prefix: exact names first, then by demand, relevance, level. */
  searchCategories(query: TargetQuery): (CategoryRow & { demand: Demand | null })[] {
    return this.searchTargets("category", query) as (CategoryRow & { demand: Demand | null })[];
  }

  /** How many products each category holds (its subcategories' included), and how many of them are sponsored. */
  categoryProducts(ids: readonly string[]): Map<string, PageCounts> {
    const products = this.statement("SELECT count(*) AS n FROM product_category WHERE category_id = ?");
    const sponsored = this.statement(
      "SELECT count(*) AS n FROM sponsored s JOIN product p ON p.id = s.id JOIN product_category pc ON pc.product = p.rowid AND pc.category_id = ?",
    );
    return this.counted("category", ids, (id) => ({ products: (products.get(id) as { n: number }).n, sponsored: (sponsored.get(id) as { n: number }).n }));
  }

  private counted(kind: "keyword" | "category", keys: readonly string[], count: (key: string) => PageCounts): Map<string, PageCounts> {
    const cache = this.pages[kind];
    const out = new Map<string, PageCounts>();
    for (const key of keys) {
      let counts = cache.get(key);
      if (!counts) {
        counts = count(key);
        if (cache.size >= 10_000) cache.clear();
        cache.set(key, counts);
      }
      out.set(key, counts);
    }
    return out;
  }

  /** Every category, for the keywords their names suggest (and the floor price form's choices). */
  allCategories(): CategoryRow[] {
    return (this.statement("SELECT id, name, segments, level FROM category ORDER BY path_key").all() as { id: string; name: string; segments: string; level: number }[]).map((r) => ({
      ...r,
      segments: JSON.parse(r.segments) as string[],
    }));
  }

  getCategories(ids: readonly string[]): CategoryRow[] {
    if (!ids.length) return [];
    return (this.statement(`SELECT id, name, segments, level FROM category WHERE id IN (${placeholders(ids.length)})`).all(...ids) as { id: string; name: string; segments: string; level: number }[]).map((r) => ({
      ...r,
      segments: JSON.parse(r.segments) as string[],
    }));
  }

  // -------------------------------------------------------------------------------------------
  // Keywords

  /** The brands of the catalog, one spelling each. */
  brands(): string[] {
    return (this.statement("SELECT max(brand) AS brand FROM product GROUP BY brand_key").all() as { brand: string }[]).map((r) => r.brand);
  }

  /** Replaces the keywords searches suggest. */
  replaceKeywords(entries: readonly KeywordEntry[]): void {
    this.transaction(() => {
      this.db.exec("DELETE FROM keyword; DELETE FROM keyword_fts;");
      const insert = this.statement("INSERT OR IGNORE INTO keyword (id, name) VALUES (?, ?)");
      const index = this.statement("INSERT INTO keyword_fts (rowid, name) VALUES (?, ?)");
      for (const entry of entries) {
        if (!entry.key) continue;
        const added = insert.run(entry.key, entry.name);
        if (added.changes) index.run(added.lastInsertRowid, entry.key);
      }
    });
  }

  searchKeywords(query: TargetQuery): (KeywordEntry & { demand: Demand | null })[] {
    return this.searchTargets("keyword", query) as (KeywordEntry & { demand: Demand | null })[];
  }

  /** How many products each keyword finds (every word, whole), and how many of them are sponsored. */
  keywordProducts(keys: readonly string[]): Map<string, PageCounts> {
    const products = this.statement("SELECT count(*) AS n FROM product_fts WHERE product_fts MATCH ?");
    const sponsored = this.statement(
      // The keyword's matches first (a seek per sponsored product in the full-text index costs more).
      "SELECT count(*) AS n FROM product_fts f CROSS JOIN product p ON p.rowid = f.rowid WHERE product_fts MATCH ? AND EXISTS (SELECT 1 FROM sponsored s WHERE s.id = p.id)",
    );
    return this.counted("keyword", keys, (key) => {
      const match = allWordsQuery(queryWords(key));
      if (!match) return { products: 0, sponsored: 0 };
      const column = `${PRODUCT_TEXT_COLUMNS} : (${match})`;
      return { products: (products.get(column) as { n: number }).n, sponsored: (sponsored.get(column) as { n: number }).n };
    });
  }

  private searchTargets(kind: "keyword" | "category", query: TargetQuery): ((CategoryRow | KeywordEntry) & { demand: Demand | null })[] {
    const table = kind;
    const fts = `${kind}_fts`;
    const match = prefixMatchQuery(query.words);
    const where: string[] = [];
    const params: unknown[] = [query.demand];
    if (kind === "category") where.push("EXISTS (SELECT 1 FROM product_category pc WHERE pc.category_id = t.id)");
    if (query.includeIds) {
      if (!query.includeIds.length) return [];
      where.push(`t.id IN (${placeholders(query.includeIds.length)})`);
      params.push(...query.includeIds);
    }
    const columns =
      kind === "category"
        ? "t.id, t.name, t.segments, t.level"
        : "t.id AS key, t.name";
    const demandColumns = "d.key AS d_key, d.displays, d.clicks, d.cost_micros, d.quantity, d.recent, d.previous";
    const exactKey = kind === "category" ? "t.name_key" : "t.id";
    const tail = kind === "category" ? ", t.level, t.path_key" : ", t.id";
    let sql: string;
    const all: unknown[] = [];
    if (match) {
      const weights = kind === "category" ? `, ${CATEGORY_WEIGHTS}` : "";
      sql = `SELECT ${columns}, ${demandColumns} FROM ${fts} f JOIN ${table} t ON t.rowid = f.rowid
        LEFT JOIN demand d ON d.kind = ? AND d.key = t.id
        WHERE ${fts} MATCH ?${where.map((w) => ` AND ${w}`).join("")}
        ORDER BY (${exactKey} = ?) DESC, COALESCE(d.displays, 0) DESC, bm25(${fts}${weights})${tail} LIMIT ?`;
      all.push(params[0], match, ...params.slice(1), query.words.join(" "), query.limit);
    } else {
      sql = `SELECT ${columns}, ${demandColumns} FROM ${table} t
        LEFT JOIN demand d ON d.kind = ? AND d.key = t.id
        ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
        ORDER BY COALESCE(d.displays, 0) DESC${tail} LIMIT ?`;
      all.push(...params, query.limit);
    }
    const rows = this.statement(sql).all(...all) as (Record<string, unknown> & Partial<DemandRow> & { d_key: string | null })[];
    return rows.map((row) => {
      const demand = row.d_key === null ? null : demandOfRow(row as unknown as DemandRow);
      if (kind === "category") {
        return { id: row.id as string, name: row.name as string, segments: JSON.parse(row.segments as string) as string[], level: row.level as number, demand };
      }
      return { key: row.key as string, name: row.name as string, demand };
    });
  }

  // -------------------------------------------------------------------------------------------
  // Demand and sponsorship

  /** Replaces the demand of every keyword, category or product category. */
  replaceDemand(kind: DemandKind, demand: ReadonlyMap<string, Demand>): void {
    this.transaction(() => {
      this.statement("DELETE FROM demand WHERE kind = ?").run(kind);
      const insert = this.statement(
        "INSERT INTO demand (kind, key, displays, clicks, cost_micros, quantity, recent, previous) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      );
      for (const [key, d] of demand) insert.run(kind, key, d.displays, d.clicks, d.costMicros, d.quantity, d.recent, d.previous);
    });
  }

  /** The keys that have demand of a kind. */
  demandKeys(kind: DemandKind): string[] {
    return (this.statement("SELECT key FROM demand WHERE kind = ?").all(kind) as { key: string }[]).map((r) => r.key);
  }

  /** Replaces the set of sponsored products. */
  replaceSponsored(ids: Iterable<string>): void {
    this.forgetPages();
    this.transaction(() => {
      this.db.exec("DELETE FROM sponsored");
      const insert = this.statement("INSERT OR IGNORE INTO sponsored (id) VALUES (?)");
      for (const id of ids) insert.run(id);
    });
  }
}
