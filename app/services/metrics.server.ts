/**
 * Statistics, read side. Two layers:
 *
 * - `answerMetrics`: the console's own implementation of the /metrics contract (spec section 7),
 *   over the metrics store: what /api/metrics serves to a token holder.
 * - `fetchMetrics`: the one client the console's screens read statistics through. It narrows the
 *   request to the teams the user may see and calls the built-in service in process (no HTTP
 *   hop); a failure comes back as a Result so a screen shows the spec's title and stays usable.
 */
import type { MetricsRequest, MetricsResponse } from "~/domain/metrics/contract";
import { answeredTerms, MAX_GROUP_ROWS, parseMetricsResponse, requestToWire, scopeRequest } from "~/domain/metrics/contract";
import { MEASURE_KEYS, type Dimension, type Measures, zeroMeasures } from "~/domain/metrics/metrics";
import { comparisonOf, fillHistogram, sumHoursUntil, type Period } from "~/domain/metrics/periods";
import { fail, ok, type Result } from "~/domain/result";
import type { User } from "~/domain/types";
import { SPARSE_DIMENSIONS } from "~/metrics/grains";
import { getMetricsStore } from "~/metrics/index.server";
import type { MetricsRow } from "~/metrics/port";
import { retailerTimeZone } from "~/services/retailer-settings.server";
import { getStorage } from "~/services/storage.server";

function measuresOf(row: MetricsRow | Measures | undefined): Measures {
  const out = zeroMeasures();
  if (row) for (const key of MEASURE_KEYS) out[key] = row[key];
  return out;
}

function sumOf(rows: readonly MetricsRow[]): Measures {
  const out = zeroMeasures();
  for (const row of rows) for (const key of MEASURE_KEYS) out[key] += row[key];
  return out;
}

/**
 * The /metrics contract over the metrics store. The request is trusted to be scoped already;
 * `excludeTeams` (never read from a request: the caller's scope) are left out of every figure.
 */
export async function answerMetrics(request: MetricsRequest, scope: { excludeTeams?: readonly string[] } = {}): Promise<MetricsResponse> {
  const store = getMetricsStore();
  const exclude = scope.excludeTeams?.length ? { team: scope.excludeTeams } : undefined;
  const base = { from: request.dateFrom, to: request.dateTo, filters: request.filters?.terms, ...(exclude ? { exclude } : {}) };
  const terms = answeredTerms(request.groups?.terms ?? []);
  const limit = request.groups?.size;
  const [histogramRows, newestEvent, ...groups] = await Promise.all([
    request.histogram ? store.query({ ...base, histogram: request.histogram }) : Promise.resolve(null),
    store.newestEvent(),
    ...terms.map((term) => store.query({ ...base, groupBy: [term], limit })),
  ]);
  // The summary is the sum of rows already read when they cover every fact (the histogram's
  // buckets, or every row of a dimension each fact has); else one more query.
  // A group is cut by its size only when it could have more rows than that: not when a filter on
  // its own dimension names no more values than the size (a campaign list's page of campaigns).
  const uncut = (rows: readonly MetricsRow[], term: Dimension) => {
    const named = request.filters?.terms?.[term];
    return limit === undefined || rows.length < limit || (named !== undefined && new Set(named).size <= limit);
  };
  const whole = histogramRows ?? groups.find((rows, i) => !SPARSE_DIMENSIONS.includes(terms[i]) && uncut(rows, terms[i]));
  const summary = whole ? sumOf(whole) : measuresOf((await store.query(base))[0]);
  const response: MetricsResponse = { summary, newestEvent };
  if (histogramRows) response.histogram = histogramRows.map((row) => ({ bucket: row.bucket ?? "", ...measuresOf(row) }));
  terms.forEach((term, i) => {
    response[term] = groups[i].map((row) => ({ key: row.keys[term] ?? "", ...measuresOf(row) }));
  });
  return response;
}

/** The teams whose figures a user may read: every team for retailers and operators, else their own. */
export function metricsTeamsFor(user: Pick<User, "claims" | "teamIds">): string[] | null {
  return user.claims.type === "supplier" ? [...user.teamIds] : null;
}

/** What an identity token reads through POST /api/metrics: these teams only (null: any), less `excludeTeams`. */
export interface TokenScope {
  teams: string[] | null;
  excludeTeams: string[];
}

/**
 * The scope of an identity token's call of POST /api/metrics, read when the call is made (so a
 * team archived or unarchived after the token was minted counts as it is now): an operator, every
 * team (or the token's); a supplier, the token's teams less the archived ones; a retailer, every
 * team less the archived ones (retailers and suppliers do not see an archived advertiser:
 * app/domain/teams.ts, ADR 51). One read of the archived teams' ids, not cached: another
 * instance may have archived one a moment ago (ADR 51's addendum).
 */
export async function tokenScope(claims: { accountType: User["claims"]["type"]; teams: readonly string[] | null }): Promise<TokenScope> {
  if (claims.accountType === "operator") return { teams: claims.teams ? [...claims.teams] : null, excludeTeams: [] };
  const archived = await getStorage().teams.idsWithStatus("archived");
  if (claims.teams) {
    const left = new Set(archived);
    return { teams: claims.teams.filter((id) => !left.has(id)), excludeTeams: [] };
  }
  // A supplier's token always names its teams (verifyIdentityToken): only a retailer gets here.
  return { teams: null, excludeTeams: archived };
}

/** The retailer's own statistics service, when METRICS_API_URL names one: called over HTTP with the user's identity token. */
async function callMetricsApi(url: string, user: Pick<User, "id" | "claims" | "teamIds">, request: MetricsRequest): Promise<MetricsResponse> {
  const { mintIdentityToken } = await import("~/services/identity-token.server");
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${await mintIdentityToken(user)}` },
    body: JSON.stringify(requestToWire(request)),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const body = parseMetricsResponse(await response.json());
  if (!body) throw new Error(`${url} answered no statistics object`);
  return body;
}

/**
 * Reads statistics for a user: from METRICS_API_URL when set (a retailer's own service, the same
 * contract), else from the built-in service in process. `title` is the spec's failure title of
 * the screen asking ('metrics:errors.fetchCampaign', '…fetchTeam', '…fetchOverall').
 */
export async function fetchMetrics(user: Pick<User, "id" | "claims" | "teamIds">, request: MetricsRequest, title: string): Promise<Result<MetricsResponse>> {
  try {
    const scoped = scopeRequest(request, metricsTeamsFor(user));
    const url = process.env.METRICS_API_URL?.trim();
    const response = url ? await callMetricsApi(url, user, scoped) : await answerMetrics(scoped);
    return ok(withEveryBucket(response, scoped));
  } catch (error) {
    console.error(JSON.stringify({ level: "error", what: "metrics", title, error: error instanceof Error ? error.message : String(error) }));
    return fail("unavailable", title, { details: ["errors.errorOccurred"] });
  }
}

/**
 * A response whose hour or day histogram has every bucket of the period, zeros where the service
 * had no figures: every screen reads through fetchMetrics, so none draws an hour without data as
 * missing (a chart would space the others evenly and a table skip the row).
 */
export function withEveryBucket(response: MetricsResponse, request: MetricsRequest): MetricsResponse {
  const unit = request.histogram;
  if (!response.histogram || (unit !== "hour" && unit !== "day")) return response;
  const period = { from: request.dateFrom, to: request.dateTo };
  return { ...response, histogram: fillHistogram(response.histogram, period, unit, retailerTimeZone(), (bucket) => ({ bucket, ...zeroMeasures() }), Date.now()) };
}

/** The rows of one group of a response, by key. */
export function rowsByKey(response: MetricsResponse, term: Dimension): Map<string, Measures> {
  return new Map((response[term] ?? []).map((row) => [row.key, measuresOf(row)]));
}

/** When the built-in statistics last received an event (Activity's freshness line); null when unknown. */
export async function newestEventReceived(): Promise<string | null> {
  try {
    return await getMetricsStore().newestEvent();
  } catch {
    return null;
  }
}

/**
 * The figures a period is compared with (comparisonOf): the whole previous period when the period
 * is over; when it is still under way, the same elapsed part of the previous one (its whole days,
 * plus its last day by the hour up to the same time). `until` says where that part ends (null for
 * a whole period), for the page to say what it compares with.
 * With `wallets`, also the wallets whose money (spend or sales) the comparison adds up, so a screen
 * knows its currencies (null when there were too many to list); on a period under way, the
 * compared part's last day counts whole for this (a wallet spending after `until` that day only
 * makes money's change unshown, never wrong).
 */
export async function fetchComparison(
  user: Pick<User, "id" | "claims" | "teamIds">,
  request: Pick<MetricsRequest, "filters">,
  period: Period,
  title: string,
  now: Date = new Date(),
  options: { wallets?: boolean } = {},
): Promise<Result<{ summary: Measures; until: string | null; wallets?: string[] | null }>> {
  const { previous, partial } = comparisonOf(period, now, retailerTimeZone());
  const base = {
    ...(request.filters ? { filters: request.filters } : {}),
    ...(options.wallets ? { groups: { terms: ["wallet" as const], size: MAX_GROUP_ROWS } } : {}),
  };
  const responses: MetricsResponse[] = [];
  let summary: Measures;
  let until: string | null = null;
  if (!partial) {
    const whole = await fetchMetrics(user, { dateFrom: previous.from, dateTo: previous.to, ...base }, title);
    if (!whole.ok) return whole;
    responses.push(whole.value);
    summary = whole.value.summary;
  } else {
    const [whole, lastDay] = await Promise.all([
      partial.whole ? fetchMetrics(user, { dateFrom: partial.whole.from, dateTo: partial.whole.to, ...base }, title) : Promise.resolve(null),
      fetchMetrics(user, { dateFrom: partial.lastDay, dateTo: partial.lastDay, histogram: "hour", ...base }, title),
    ]);
    if (whole && !whole.ok) return whole;
    if (!lastDay.ok) return lastDay;
    summary = sumHoursUntil(lastDay.value.histogram ?? [], partial.until, MEASURE_KEYS, zeroMeasures);
    if (whole) for (const key of MEASURE_KEYS) summary[key] += whole.value.summary[key];
    responses.push(lastDay.value, ...(whole ? [whole.value] : []));
    until = partial.until;
  }
  if (!options.wallets) return ok({ summary, until });
  return ok({ summary, until, wallets: walletsWithMoney(responses) });
}

/** The wallets with spend or sales in these responses' wallet groups; null when a group may have been cut. */
function walletsWithMoney(responses: readonly MetricsResponse[]): string[] | null {
  const wallets = new Set<string>();
  for (const response of responses) {
    const rows = response.wallet ?? [];
    if (rows.length >= MAX_GROUP_ROWS) return null;
    for (const row of rows) if (row.key && (row.costMicros > 0 || row.salesCents > 0)) wallets.add(row.key);
  }
  return [...wallets];
}
