import { describe, expect, it } from "vitest";
import {
  CAMPAIGN_LIST_COLUMNS,
  DEFAULT_LIST_COLUMNS,
  defaultListState,
  hasFilters,
  LIVE_FILTER_TO_STORED,
  listQuery,
  matchesStatusFilter,
  nextDay,
  parseListState,
  startRange,
  storedStatusesForQuery,
  viewQuery,
  type CampaignListState,
} from "~/domain/campaigns/list";

const parse = (q: string) => parseListState(new URLSearchParams(q));
const state = (s: Partial<CampaignListState>): CampaignListState => ({ ...defaultListState(), ...s });

describe("parseListState: the list's state from the URL", () => {
  it.each<[string, string, Partial<CampaignListState>]>([
    ["nothing: the defaults", "", {}],
    ["repeated statuses, canonical order, duplicates dropped", "status=paused&status=active&status=paused", { statuses: ["active", "paused"] }],
    ["comma-separated statuses", "status=draft,archived", { statuses: ["draft", "archived"] }],
    ["unknown statuses dropped", "status=running&status=bogus&status=draft", { statuses: ["draft"] }],
    ["derived live statuses", "live=running,ended&live=bogus&live=paused", { live: ["ended", "running"] }],
    ["type", "type=banner-ads", { type: "banner-ads" }],
    ["unknown type dropped", "type=sponsored-display", { type: null }],
    ["team and wallet ids", "team=acme-brand&wallet=w_1", { team: "acme-brand", wallet: "w_1" }],
    ["malformed ids dropped", "team=a%2Fb&wallet=%20", { team: null, wallet: null }],
    ["search trimmed, spaces folded", "q=%20%20spring%20%20sale%20", { q: "spring sale" }],
    ["search cut at 100 characters", `q=${"x".repeat(150)}`, { q: "x".repeat(100) }],
    ["start range", "startFrom=2026-03-01&startTo=2026-03-31", { startFrom: "2026-03-01", startTo: "2026-03-31" }],
    ["impossible days dropped", "startFrom=2026-02-30&startTo=2026-13-01", { startFrom: null, startTo: null }],
    ["badly written days dropped", "startFrom=1/3/2026&startTo=2026-3-1", { startFrom: null, startTo: null }],
    ["leap day kept", "startFrom=2028-02-29", { startFrom: "2028-02-29" }],
    ["sort by name: ascending by default", "sort=name", { sort: "name", dir: "asc" }],
    ["sort by spend: descending by default", "sort=spend", { sort: "spend", dir: "desc" }],
    ["explicit direction", "sort=name&dir=desc", { sort: "name", dir: "desc" }],
    ["unknown sort and direction dropped", "sort=teamName&dir=up", { sort: "updated", dir: "desc" }],
    ["columns subset in the list's order", "columns=spend&columns=name&columns=team", { columns: ["name", "team", "spend"] }],
    ["the name column always stays", "columns=spend,bogus", { columns: ["name", "spend"] }],
    ["only unknown columns: the default ones", "columns=bogus", { columns: [...DEFAULT_LIST_COLUMNS] }],
    ["a statistics column and its period", "columns=clicks&period=last7", { columns: ["name", "clicks"], period: "last7" }],
    ["an unknown period: today", "period=forever", { period: "today" }],
    ["a custom period and its days", "period=custom&from=2026-11-01&to=2026-11-03", { period: "custom", custom: { from: "2026-11-01", to: "2026-11-03" } }],
    ["custom days without the custom period: dropped", "period=last7&from=2026-11-01&to=2026-11-03", { period: "last7" }],
    ["impossible custom days dropped", "period=custom&from=2026-02-30&to=x", { period: "custom" }],
    ["Views and the period's spend", "columns=views&columns=cost", { columns: ["name", "views", "cost"] }],
    ["cursor", "after=abc123", { after: "abc123" }],
    ["over-long cursor dropped", `after=${"c".repeat(1001)}`, { after: null }],
  ])("%s", (_label, query, expected) => {
    expect(parse(query)).toEqual(state(expected));
  });
});

describe("viewQuery and listQuery: stable links", () => {
  it.each<[string, Partial<CampaignListState>, string]>([
    ["defaults: empty", {}, ""],
    ["the cursor is not part of a view", { after: "xyz" }, ""],
    [
      "fixed order of keys and values",
      { q: "spring", statuses: ["paused", "active"], live: ["running", "scheduled"], type: "banner-ads", sort: "name", dir: "desc" },
      "status=active&status=paused&live=scheduled&live=running&type=banner-ads&q=spring&sort=name&dir=desc",
    ],
    ["default direction left out", { sort: "name", dir: "asc" }, "sort=name"],
    ["columns in the list's order", { columns: ["spend", "name"] }, "columns=name&columns=spend"],
    ["the default columns left out", { columns: [...DEFAULT_LIST_COLUMNS] }, ""],
    ["every column, statistics included, and a period", { columns: [...CAMPAIGN_LIST_COLUMNS], period: "last30" }, CAMPAIGN_LIST_COLUMNS.map((c) => `columns=${c}`).join("&") + "&period=last30"],
    ["a custom period writes its days", { period: "custom", custom: { from: "2026-11-01", to: "2026-11-03" } }, "period=custom&from=2026-11-01&to=2026-11-03"],
    ["another period leaves custom days out", { period: "last7", custom: { from: "2026-11-01", to: "2026-11-03" } }, "period=last7"],
    ["dates, team, wallet", { startTo: "2026-03-31", startFrom: "2026-03-01", wallet: "w1", team: "t1" }, "team=t1&wallet=w1&startFrom=2026-03-01&startTo=2026-03-31"],
  ])("%s", (_label, s, expected) => {
    expect(viewQuery(state(s))).toBe(expected);
  });

  it("keeps the cursor in the list's own link", () => {
    expect(listQuery(state({ statuses: ["draft"], after: "c1" }))).toBe("status=draft&after=c1");
  });

  it.each([
    "status=paused&status=active&live=running&sort=spend&dir=asc&columns=name,spend&q=a%20b&startFrom=2026-01-02",
    "type=sponsored-products&team=acme-brand&wallet=w-9",
    "",
  ])("parses back what it writes: %s", (query) => {
    const parsed = parse(query);
    expect(parse(viewQuery(parsed))).toEqual({ ...parsed, after: null });
    // Two links to the same view are the same text.
    expect(viewQuery(parse(viewQuery(parsed)))).toBe(viewQuery(parsed));
  });
});

describe("stored and live statuses: one facet", () => {
  it("maps every live filter to active", () => {
    expect(Object.values(LIVE_FILTER_TO_STORED)).toEqual(["active", "active", "active", "active", "active", "active"]);
  });

  it.each<[string, Partial<CampaignListState>, string[] | undefined]>([
    ["no filter", {}, undefined],
    ["stored only", { statuses: ["paused", "draft"] }, ["draft", "paused"]],
    ["live only: active", { live: ["running"] }, ["active"]],
    ["both", { statuses: ["paused"], live: ["ended", "scheduled"] }, ["active", "paused"]],
  ])("asks storage for: %s", (_label, s, expected) => {
    expect(storedStatusesForQuery(state(s))).toEqual(expected);
  });

  it.each<[string, Partial<CampaignListState>, string, string, boolean]>([
    ["no filter keeps all", {}, "paused", "paused", true],
    ["running asked, running", { live: ["running"] }, "active", "running", true],
    ["running asked, scheduled", { live: ["running"] }, "active", "scheduled", false],
    ["stored scheduled is not live scheduled", { live: ["scheduled"] }, "scheduled", "scheduled", false],
    ["stored active keeps every active one", { statuses: ["active"], live: ["running"] }, "active", "ended", true],
    ["paused or running: paused", { statuses: ["paused"], live: ["running"] }, "paused", "paused", true],
    ["paused or running: out of budget", { statuses: ["paused"], live: ["running"] }, "active", "out_of_budget", false],
  ])("filters the page: %s", (_label, s, status, live, expected) => {
    expect(matchesStatusFilter(state(s), status as never, live)).toBe(expected);
  });
});

describe("startRange: days in the retailer's time zone, both included", () => {
  it.each<[string, Partial<CampaignListState>, { startFrom?: string; startTo?: string }]>([
    ["none", {}, {}],
    ["winter", { startFrom: "2026-01-10", startTo: "2026-01-10" }, { startFrom: "2026-01-09T23:00:00.000Z", startTo: "2026-01-10T23:00:00.000Z" }],
    ["across spring forward", { startFrom: "2026-03-28", startTo: "2026-03-29" }, { startFrom: "2026-03-27T23:00:00.000Z", startTo: "2026-03-29T22:00:00.000Z" }],
    ["end of year", { startTo: "2026-12-31" }, { startTo: "2026-12-31T23:00:00.000Z" }],
  ])("%s", (_label, s, expected) => {
    expect(startRange(state(s), "Europe/Paris")).toEqual(expected);
  });

  it("steps to the next day across months and leap years", () => {
    expect([nextDay("2026-01-31"), nextDay("2028-02-28"), nextDay("2026-02-28"), nextDay("2026-12-31")]).toEqual([
      "2026-02-01",
      "2028-02-29",
      "2026-03-01",
      "2027-01-01",
    ]);
  });
});

it("knows when a filter is set", () => {
  expect(hasFilters(parse("sort=name&columns=name&after=x"))).toBe(false);
  expect(hasFilters(parse("q=x"))).toBe(true);
  expect(hasFilters(parse("live=ended"))).toBe(true);
});
