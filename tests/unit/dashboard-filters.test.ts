import { describe, expect, it } from "vitest";
import { parseDashboardQuery } from "~/domain/metrics/dashboard";
import {
  combineDashboardFilters,
  drillFilters,
  filterChoices,
  filterParams,
  hasFilters,
  metricsFilterTerms,
  noFilters,
  parseDashboardFilters,
  type DashboardFilters,
} from "~/domain/metrics/dashboard-filters";
import { DEFAULT_RETAILER_SETTINGS } from "~/domain/retailer-settings";

const q = (query: string) => new URLSearchParams(query);
const choices = filterChoices(DEFAULT_RETAILER_SETTINGS);
const filters = (over: Partial<DashboardFilters>): DashboardFilters => ({ ...noFilters(), ...over });

describe("reading the dashboard's filters from its address", () => {
  it("types each known value: team and wallet ids, a placement, a campaign type, a device", () => {
    expect(parseDashboardFilters(q("team=acme-brand&wallet=w_1&placement=search&type=banner-ads&device=app"))).toEqual({
      filters: { team: "acme-brand", wallet: "w_1", placement: "search", type: "banner-ads", device: "app" },
      dropped: [],
    });
  });

  it("treats an empty or missing value as no filter, silently", () => {
    expect(parseDashboardFilters(q("team=&wallet=%20&placement="))).toEqual({ filters: noFilters(), dropped: [] });
    expect(parseDashboardFilters(q(""))).toEqual({ filters: noFilters(), dropped: [] });
  });

  it("drops unknown placements, types and devices and ids of the wrong shape, and says which", () => {
    const parsed = parseDashboardFilters(q("team=a/b&wallet=x%20y&placement=footer&type=sponsored-everything&device=fridge"));
    expect(parsed.filters).toEqual(noFilters());
    expect(parsed.dropped).toEqual([
      { filter: "team", reason: "unknown" },
      { filter: "wallet", reason: "unknown" },
      { filter: "placement", reason: "unknown" },
      { filter: "type", reason: "unknown" },
      { filter: "device", reason: "unknown" },
    ]);
  });

  it("reads the tab, the sort and the filters together, with their defaults", () => {
    expect(parseDashboardQuery(q("tab=wallets&sort=clicks&dir=asc&device=mobile"))).toMatchObject({ tab: "wallets", sort: "clicks", dir: "asc", filters: { device: "mobile" }, dropped: [] });
    expect(parseDashboardQuery(q("tab=nope&sort=nope&dir=up"))).toMatchObject({ tab: "teams", sort: "cost", dir: "desc", filters: noFilters() });
  });
});

describe("which filters combine", () => {
  const teamA = { id: "team-a" };
  const walletA = { id: "wallet-a", teamId: "team-a" };

  it("keeps a team and its own wallet", () => {
    const asked = filters({ team: "team-a", wallet: "wallet-a", device: "mobile" });
    expect(combineDashboardFilters(asked, { team: teamA, wallet: walletA }, choices)).toEqual({ filters: asked, dropped: [] });
  });

  it("drops a wallet of another team than the one chosen, keeping the team", () => {
    const asked = filters({ team: "team-b", wallet: "wallet-a" });
    expect(combineDashboardFilters(asked, { team: { id: "team-b" }, wallet: walletA }, choices)).toEqual({
      filters: filters({ team: "team-b" }),
      dropped: [{ filter: "wallet", reason: "notOfTeam" }],
    });
  });

  it("takes the wallet's team as the team filter when no team is chosen", () => {
    expect(combineDashboardFilters(filters({ wallet: "wallet-a" }), { team: null, wallet: walletA }, choices).filters).toEqual(filters({ team: "team-a", wallet: "wallet-a" }));
  });

  it("drops a team or a wallet the user may not see (not found and out of scope read alike)", () => {
    const outcome = combineDashboardFilters(filters({ team: "team-x", wallet: "wallet-x", placement: "plp" }), { team: null, wallet: null }, choices);
    expect(outcome.filters).toEqual(filters({ placement: "plp" }));
    expect(outcome.dropped).toEqual([
      { filter: "team", reason: "unknown" },
      { filter: "wallet", reason: "unknown" },
    ]);
    // A lookup of another id than the one asked does not count.
    expect(combineDashboardFilters(filters({ team: "team-x" }), { team: teamA, wallet: null }, choices).filters.team).toBeNull();
  });

  it("drops a placement or campaign type the retailer does not offer", () => {
    const bannersOnly = filterChoices({ ...DEFAULT_RETAILER_SETTINGS, enabledTypes: ["banner-ads"] });
    expect(bannersOnly.types).toEqual(["banner-ads"]);
    expect(bannersOnly.placements).toEqual(["search", "plp", "home"]);
    const outcome = combineDashboardFilters(filters({ placement: "pdp", type: "sponsored-products", device: "tablet" }), { team: null, wallet: null }, bannersOnly);
    expect(outcome.filters).toEqual(filters({ device: "tablet" }));
    expect(outcome.dropped.map((d) => d.filter)).toEqual(["placement", "type"]);
  });

  it("offers by default every placement, both enabled types and the devices statistics are recorded for", () => {
    expect(choices).toEqual({
      placements: ["search", "plp", "pdp", "hub", "home"],
      types: ["sponsored-products", "banner-ads"],
      devices: ["desktop", "mobile", "tablet", "app", "unknown"],
    });
  });
});

describe("what the filters become", () => {
  it("are the /metrics filter terms of spec section 7 (campaign type as campaignType inside the console)", () => {
    expect(metricsFilterTerms(filters({ team: "t", wallet: "w", placement: "hub", type: "banner-ads", device: "unknown" }))).toEqual({
      team: ["t"],
      wallet: ["w"],
      placement: ["hub"],
      campaignType: ["banner-ads"],
      device: ["unknown"],
    });
    expect(metricsFilterTerms(noFilters())).toEqual({});
  });

  it("are URL values in a stable order, and a row's drill-down narrows to its team or wallet keeping the rest", () => {
    const current = filters({ device: "mobile", wallet: "w-old", team: "t-old" });
    expect(filterParams(current)).toEqual([
      ["team", "t-old"],
      ["wallet", "w-old"],
      ["device", "mobile"],
    ]);
    expect(drillFilters(current, { team: "t-new" })).toEqual(filters({ team: "t-new", device: "mobile" }));
    expect(drillFilters(current, { team: "t-new", wallet: "w-new" })).toEqual(filters({ team: "t-new", wallet: "w-new", device: "mobile" }));
    expect(hasFilters(noFilters())).toBe(false);
    expect(hasFilters(filters({ device: "app" }))).toBe(true);
  });
});
