/**
 * Search, the /search contract of spec section 7 (app/domain/search-contract.ts). Two layers, like
 * statistics (metrics.server.ts):
 *
 * - `answerSearch`: the console's own search service, over this instance's embedded index
 *   (app/search, ADR 20): what /api/search/{kind} serves to a token holder. The index follows
 *   the catalog through the storage port (CatalogRepo.state / listChanged), whichever adapter
 *   serves it: checked at most once every SEARCH_SYNC_INTERVAL_MS (1 s) before a search, a
 *   whole rebuild when the catalog is another one, else only the products changed since. Demand
 *   (the statistics of each keyword and category) is read from the built-in statistics every
 *   minute; the sponsored products from the publication cache every minute, when asked for.
 * - `fetchSearch`: the one client the console's screens search through, from SEARCH_API_URL (a
 *   retailer's own service, with the user's identity token) or in process.
 */
import { productScopeFor, type ProductScope } from "~/domain/brand-scope";
import { categoryIdOf, categoryNodes, categoryPageType, categoryPath, categoryUrl, keywordKey, keywordUrl, type CategoryPageType } from "~/domain/categories";
import {
  conversionRate,
  demandPeriods,
  fillRate,
  floorPriceOf,
  NO_DEMAND,
  observedCpcCents,
  suggestBids,
  targetBidLimits,
  trendOf,
  type Demand,
} from "~/domain/demand";
import { MAX_GROUP_ROWS, measuresToWire } from "~/domain/metrics/contract";
import { localDay } from "~/domain/metrics/periods";
import { zeroMeasures } from "~/domain/metrics/metrics";
import { fail, ok, type Result } from "~/domain/result";
import type { FloorPrices, RetailerSettings } from "~/domain/retailer-settings";
import { queryWords } from "~/domain/search";
import {
  hitFields,
  parseSearchResponse,
  pickFields,
  searchRequestToWire,
  type ProductHit,
  type SearchKind,
  type SearchRequest,
  type SearchResponse,
  type TargetHit,
} from "~/domain/search-contract";
import { rightsAccountType } from "~/domain/permissions";
import type { AccountType, User } from "~/domain/types";
import type { DemandKind, SearchIndex } from "~/search/fts-index.server";
import { getMetricsStore } from "~/metrics/index.server";
import { getSearchIndex } from "~/search/index.server";
import { followCatalog } from "~/search/follow.server";
import { getEnv } from "~/services/env.server";
import { answerMetrics, metricsTeamsFor } from "~/services/metrics.server";
import { getFloorPrices, getRetailerSettings, retailerTimeZone } from "~/services/retailer-settings.server";
import { getStorage } from "~/services/storage.server";
import { collator } from "~/domain/intl";

/** Who searches: what an identity token says (the account type; a supplier's teams). */
export interface SearchIdentity {
  accountType: AccountType;
  /** The teams the holder may read; null: every team. */
  teams: readonly string[] | null;
}

const DEMAND_TTL_MS = 60_000;
const SPONSORED_TTL_MS = 60_000;
/** Sponsored products read from storage per page. */
const SYNC_PAGE = 500;

function syncIntervalMs(): number {
  const value = Number(process.env.SEARCH_SYNC_INTERVAL_MS);
  return Number.isFinite(value) && value >= 0 ? value : 1_000;
}

interface SyncState {
  index: SearchIndex;
  checkedAt: number;
  syncing: Promise<void> | null;
  demandAt: number;
  demanding: Promise<void> | null;
  sponsoredAt: number;
  sponsoring: Promise<void> | null;
  /** Each keyword with demand as shoppers wrote it. */
  keywordNames: Map<string, string>;
  /** What the keyword list was built from, to rebuild it when a source changes. */
  keywordsStamp: string;
}

const holder = globalThis as typeof globalThis & { __adsConsoleSearchSync?: SyncState };

function syncState(index: SearchIndex): SyncState {
  let state = holder.__adsConsoleSearchSync;
  if (!state || state.index !== index) {
    state = { index, checkedAt: 0, syncing: null, demandAt: 0, demanding: null, sponsoredAt: 0, sponsoring: null, keywordNames: new Map(), keywordsStamp: "" };
    holder.__adsConsoleSearchSync = state;
  }
  return state;
}

/** Forget when the index was last brought up to date (tests change the catalog, the demand). */
export function resetSearchSyncForTests(): void {
  holder.__adsConsoleSearchSync = undefined;
}

// ---------------------------------------------------------------------------------------------
// Following the catalog

/** The index, up to date with the catalog (checked at most once per SEARCH_SYNC_INTERVAL_MS). */
export async function syncSearchIndex({ force = false }: { force?: boolean } = {}): Promise<SearchIndex> {
  const index = getSearchIndex();
  const state = syncState(index);
  while (state.syncing) {
    await state.syncing;
    if (!force) return index;
  }
  if (!force && Date.now() - state.checkedAt < syncIntervalMs()) return index;
  state.syncing = (async () => {
    try {
      await followCatalog(index, getStorage().catalog);
      state.checkedAt = Date.now();
    } finally {
      state.syncing = null;
    }
  })();
  await state.syncing;
  return index;
}

/** Builds the index in the background at boot, so the first search does not wait for it. */
export function warmSearchIndex(): void {
  syncSearchIndex({ force: true }).catch((error) => {
    console.error(JSON.stringify({ level: "error", what: "search index", error: error instanceof Error ? error.message : String(error) }));
  });
}

// ---------------------------------------------------------------------------------------------
// Demand, keywords, sponsored products

/** Each key's demand out of the statistics of three periods (the rows of one term each). */
async function readDemand(now: Date): Promise<{ demand: Record<DemandKind, Map<string, Demand>>; keywordNames: Map<string, string> }> {
  const periods = demandPeriods(localDay(now, retailerTimeZone()));
  const ask = (period: { from: string; to: string }) =>
    answerMetrics({ dateFrom: period.from, dateTo: period.to, groups: { terms: ["category"], size: MAX_GROUP_ROWS } });
  const [volume, recent, previous] = await Promise.all([ask(periods.volume), ask(periods.recent), ask(periods.previous)]);
  const out: Record<DemandKind, Map<string, Demand>> = { keyword: new Map(), category: new Map(), productCategory: new Map() };
  // A keyword is shown as shoppers wrote it most (the rows come by cost, the largest first).
  const keywordNames = new Map<string, string>();
  for (const row of volume.keyword ?? []) {
    const key = keywordKey(row.key);
    if (key && !keywordNames.has(key)) keywordNames.set(key, row.key);
  }
  for (const kind of ["keyword", "category", "productCategory"] as const) {
    const map = out[kind];
    // Keywords are reported as shoppers typed them: "Café" and "cafe" are one keyword.
    const keyOf = kind === "keyword" ? keywordKey : (key: string) => key;
    const entry = (key: string) => {
      let demand = map.get(key);
      if (!demand) map.set(key, (demand = { ...NO_DEMAND }));
      return demand;
    };
    for (const row of volume[kind] ?? []) {
      const key = keyOf(row.key);
      if (!key) continue;
      const d = entry(key);
      d.displays += row.displays;
      d.clicks += row.clicks;
      d.costMicros += row.costMicros;
      d.quantity += row.quantity;
    }
    for (const row of recent[kind] ?? []) if (keyOf(row.key)) entry(keyOf(row.key)).recent += row.displays;
    for (const row of previous[kind] ?? []) if (keyOf(row.key)) entry(keyOf(row.key)).previous += row.displays;
  }
  return { demand: out, keywordNames };
}

/**
 * The keywords searches suggest: those shoppers searched (with demand), those with a floor
 * price, and the catalog's category names and brands (what shoppers search most).
 */
function rebuildKeywords(index: SearchIndex, floors: FloorPrices, names: ReadonlyMap<string, string>): void {
  const entries = new Map<string, string>();
  const add = (text: string) => {
    const key = keywordKey(text);
    if (key && !entries.has(key)) entries.set(key, text.toLocaleLowerCase("en").replace(/\s+/g, " ").trim());
  };
  for (const floor of floors.keywords) add(floor.label || floor.keyword);
  for (const key of index.demandKeys("keyword")) add(names.get(key) ?? key);
  for (const category of index.allCategories()) add(category.name);
  for (const brand of index.brands()) add(brand);
  index.replaceKeywords([...entries].map(([key, name]) => ({ key, name })));
}

/**
 * Demand read again every minute (a search waits only for the first read; later ones answer with
 * the demand read before while it is read again); keywords rebuilt when the catalog, the demand
 * or the floors changed.
 */
async function refreshTargets(index: SearchIndex, floors: FloorPrices, now: Date): Promise<void> {
  const state = syncState(index);
  if (Date.now() - state.demandAt >= DEMAND_TTL_MS && !state.demanding) {
    const first = state.demandAt === 0;
    state.demanding = (async () => {
      try {
        const { demand, keywordNames } = await readDemand(now);
        state.keywordNames = keywordNames;
        index.transaction(() => {
          for (const kind of ["keyword", "category", "productCategory"] as const) index.replaceDemand(kind, demand[kind]);
        });
        index.setMeta("demandRead", new Date().toISOString());
      } catch (error) {
        // Statistics unavailable: search goes on with the demand read before.
        console.error(JSON.stringify({ level: "error", what: "search demand", error: error instanceof Error ? error.message : String(error) }));
      } finally {
        state.demandAt = Date.now();
        state.demanding = null;
      }
    })();
    if (first) await state.demanding;
  } else if (state.demandAt === 0 && state.demanding) {
    await state.demanding;
  }
  const stamp = [index.getMeta("catalogChanged"), index.getMeta("demandRead"), JSON.stringify(floors.keywords.map((f) => f.keyword))].join("|");
  if (stamp !== state.keywordsStamp) {
    rebuildKeywords(index, floors, state.keywordNames);
    state.keywordsStamp = stamp;
  }
}

async function readSponsored(index: SearchIndex): Promise<void> {
  const ids: string[] = [];
  let after: string | null = null;
  do {
    const page: Awaited<ReturnType<ReturnType<typeof getStorage>["publication"]["listSponsoredProducts"]>> = await getStorage().publication.listSponsoredProducts({ limit: SYNC_PAGE, after });
    ids.push(...page.items);
    after = page.next;
  } while (after);
  index.replaceSponsored(ids);
}

/** The products published campaigns sponsor (for the fill rate), read again every minute when asked for, the same way. */
async function refreshSponsored(index: SearchIndex): Promise<void> {
  const state = syncState(index);
  if (Date.now() - state.sponsoredAt < SPONSORED_TTL_MS || state.sponsoring) {
    if (state.sponsoredAt === 0 && state.sponsoring) await state.sponsoring;
    return;
  }
  const first = state.sponsoredAt === 0;
  state.sponsoring = readSponsored(index)
    .catch((error) => {
      console.error(JSON.stringify({ level: "error", what: "search sponsored products", error: error instanceof Error ? error.message : String(error) }));
    })
    .finally(() => {
      state.sponsoredAt = Date.now();
      state.sponsoring = null;
    });
  if (first) await state.sponsoring;
}

// ---------------------------------------------------------------------------------------------
// The built-in service

/** The products a caller may sponsor: a supplier its teams' (or the one team asked for, if its own). */
async function productScope(identity: SearchIdentity, team: string | undefined): Promise<ProductScope> {
  if (identity.accountType !== "supplier") return null;
  const ids = (identity.teams ?? []).filter((id) => team === undefined || id === team);
  const teams = ids.length ? await getStorage().teams.getMany(ids) : [];
  return productScopeFor(identity.accountType, teams);
}

/** The products' statistics over the demand days (the caller's teams only): one read of the products roll-up. */
async function productMetrics(ids: readonly string[], identity: SearchIdentity, now: Date): Promise<Map<string, ProductHit["metrics"]>> {
  const period = demandPeriods(localDay(now, retailerTimeZone())).volume;
  const rows = await getMetricsStore().query({
    from: period.from,
    to: period.to,
    groupBy: ["product"],
    filters: { product: ids, ...(identity.teams ? { team: identity.teams } : {}) },
  });
  return new Map(rows.map((row) => [row.keys.product ?? "", measuresToWire(row)]));
}

async function searchProducts(request: SearchRequest, identity: SearchIdentity, now: Date): Promise<ProductHit[]> {
  const index = await syncSearchIndex();
  const fields = hitFields("product", request.fields, identity.accountType, false);
  const hits = index.searchProducts({
    words: queryWords(request.query ?? ""),
    includeIds: request.includeIds,
    scope: await productScope(identity, request.team),
    limit: request.size,
  });
  if (fields.has("metrics") && hits.length) {
    const metrics = await productMetrics(
      hits.map((h) => h.id),
      identity,
      now,
    );
    for (const hit of hits) hit.metrics = metrics.get(hit.id) ?? measuresToWire(zeroMeasures());
  }
  return hits.map((hit) => pickFields(hit, fields));
}

interface TargetContext {
  settings: RetailerSettings;
  floors: FloorPrices;
  fields: Set<string>;
  siteUrl: string;
}

/** The figures every keyword and category hit carries, from its demand and floor. */
function targetFigures(ctx: TargetContext, demand: Demand, floor: number | null, pages: { products: number; sponsored: number } | undefined): Partial<TargetHit> {
  const figures: Partial<TargetHit> = { volume: demand.displays, trend: trendOf(demand), floor_price: floor, hits: demand.clicks };
  if (ctx.fields.has("lower_bid") || ctx.fields.has("suggested_bid") || ctx.fields.has("upper_bid")) {
    Object.assign(figures, suggestBids({ floorCents: floor, observedCpcCents: observedCpcCents(demand), limits: targetBidLimits(ctx.settings) }));
  }
  if (pages) {
    figures.products_per_page = pages.products;
    figures.fill_rate = fillRate(pages.sponsored, pages.products);
  }
  figures.conversion_rate = conversionRate(demand);
  return figures;
}

const wantsPages = (fields: ReadonlySet<string>) => fields.has("products_per_page") || fields.has("fill_rate");

async function searchKeywords(request: SearchRequest, ctx: TargetContext, now: Date): Promise<TargetHit[]> {
  const index = await syncSearchIndex();
  await refreshTargets(index, ctx.floors, now);
  const rows = index.searchKeywords({
    words: queryWords(request.query ?? ""),
    includeIds: request.includeIds?.map(keywordKey),
    limit: request.size,
    demand: "keyword",
  });
  let pages: Map<string, { products: number; sponsored: number }> | null = null;
  if (wantsPages(ctx.fields)) {
    await refreshSponsored(index);
    pages = index.keywordProducts(rows.map((r) => r.key));
  }
  return rows.map((row) => {
    const hit: TargetHit = {
      id: row.key,
      name: row.name,
      level: null,
      hierarchies: [],
      url: keywordUrl(ctx.siteUrl, row.name),
      page_type: "search",
      ...targetFigures(ctx, row.demand ?? NO_DEMAND, floorPriceOf({ kind: "keyword", key: row.key }, ctx.floors, ctx.settings), pages?.get(row.key)),
    };
    return pickFields(hit, ctx.fields);
  });
}

async function searchCategories(request: SearchRequest, ctx: TargetContext, now: Date): Promise<TargetHit[]> {
  const index = await syncSearchIndex();
  await refreshTargets(index, ctx.floors, now);
  const asked: CategoryPageType | undefined = request.page_type;
  const rows = index.searchCategories({
    words: queryWords(request.query ?? ""),
    includeIds: request.includeIds,
    limit: request.size,
    demand: asked === "pdp" ? "productCategory" : "category",
  });
  let pages: Map<string, { products: number; sponsored: number }> | null = null;
  if (wantsPages(ctx.fields)) {
    await refreshSponsored(index);
    pages = index.categoryProducts(rows.map((r) => r.id));
  }
  return rows.map((row) => {
    const hit: TargetHit = {
      id: row.id,
      name: row.name,
      level: row.level,
      hierarchies: row.segments,
      url: categoryUrl(ctx.siteUrl, row.id),
      page_type: categoryPageType(row.level, asked),
      ...targetFigures(ctx, row.demand ?? NO_DEMAND, floorPriceOf({ kind: "category", id: row.id }, ctx.floors, ctx.settings), pages?.get(row.id)),
    };
    return pickFields(hit, ctx.fields);
  });
}

/**
 * The /search contract over this instance's index, for an identity (a verified token, or the
 * signed-in user in process). The request is parsed already (parseSearchRequest).
 */
export async function answerSearch<K extends SearchKind>(kind: K, request: SearchRequest, identity: SearchIdentity, now = new Date()): Promise<SearchResponse<K>> {
  if (kind === "product") return { hits: (await searchProducts(request, identity, now)) as SearchResponse<K>["hits"] };
  const settings = await getRetailerSettings();
  const ctx: TargetContext = {
    settings,
    floors: await getFloorPrices(),
    fields: hitFields(kind, request.fields, identity.accountType, settings.suggestedBids),
    siteUrl: getEnv().RETAILER_SITE_URL,
  };
  const hits = kind === "keyword" ? await searchKeywords(request, ctx, now) : await searchCategories(request, ctx, now);
  return { hits: hits as SearchResponse<K>["hits"] };
}

// ---------------------------------------------------------------------------------------------
// Catalog categories and product scope, for other use cases

/** The catalog's categories, every level, by path (the floor price form's choices). */
export async function catalogCategories(): Promise<{ id: string; path: string; level: number }[]> {
  const index = await syncSearchIndex();
  return index.allCategories().map((c) => ({ id: c.id, path: categoryPath(c.segments), level: c.level }));
}

/** The catalog's brands as written in the catalog, in alphabetical order (the catalog screen's filter). */
export async function catalogBrands(): Promise<string[]> {
  const index = await syncSearchIndex();
  return index.brands().sort(collator("en", { sensitivity: "base" }).compare);
}

/** The catalog category a typed path names ("grocery > coffee & TEA" names Grocery > Coffee & tea), or null. */
export async function findCategory(path: string): Promise<{ id: string; path: string } | null> {
  const nodes = categoryNodes(path);
  const last = nodes[nodes.length - 1];
  if (!last) return null;
  const index = await syncSearchIndex();
  const [found] = index.getCategories([categoryIdOf(last.segments)]);
  return found ? { id: found.id, path: categoryPath(found.segments) } : null;
}

// ---------------------------------------------------------------------------------------------
// The client

/** A retailer's own search service (SEARCH_API_URL + "/" + kind), called with the user's identity token. */
async function callSearchApi<K extends SearchKind>(base: string, user: Pick<User, "id" | "claims" | "teamIds">, kind: K, request: SearchRequest): Promise<SearchResponse<K>> {
  const { mintIdentityToken } = await import("~/services/identity-token.server");
  const url = `${base.replace(/\/+$/, "")}/${kind}`;
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${await mintIdentityToken(user)}` },
    body: JSON.stringify(searchRequestToWire(request)),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const body = parseSearchResponse(kind, await response.json());
  if (!body) throw new Error(`${url} answered no search hits`);
  return body;
}

/**
 * Searches for a user: SEARCH_API_URL when set (a retailer's own service, the same contract),
 * else the built-in service in process. `title` is the failure title of the screen asking (an
 * i18n key, e.g. 'Fetch campaign products data'); a failure leaves the screen usable.
 */
export async function fetchSearch<K extends SearchKind>(
  user: Pick<User, "id" | "claims" | "teamIds">,
  kind: K,
  request: SearchRequest,
  title: string,
): Promise<Result<SearchResponse<K>>> {
  try {
    const url = process.env.SEARCH_API_URL?.trim();
    if (url) return ok(await callSearchApi(url, user, kind, request));
    return ok(await answerSearch(kind, request, { accountType: rightsAccountType(user.claims), teams: metricsTeamsFor(user) }));
  } catch (error) {
    console.error(JSON.stringify({ level: "error", what: "search", kind, title, error: error instanceof Error ? error.message : String(error) }));
    return fail("unavailable", title, { details: ["errors.errorOccurred"] });
  }
}
