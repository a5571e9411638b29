/**
 * The dashboard's filters (spec section 7's byWallet/byCampaign and team variants: filters team,
 * wallet, placement, campaign_type, device): how the URL names them, how they are read from it,
 * which combine, and the /metrics filter terms they become. Pure.
 *
 * - The URL names them team, wallet, placement, type and device (the campaign list's names).
 * - A value the console does not know (a placement, type or device outside the domain's lists, an
 *   id of the wrong shape) is dropped, and said so: the page stays a page, never a 400.
 * - A team or wallet the user may not see is dropped alike, with the same words whether it exists
 *   or not (a record outside the user's scope is never revealed).
 * - A wallet implies its team: with no team chosen, the wallet's team becomes the team filter;
 *   with another team chosen, the wallet is not one of its wallets and is dropped.
 * - A placement or campaign type the retailer does not offer is dropped too.
 */
import { EVENT_DEVICES, type Dimension } from "~/domain/metrics/metrics";
import { CAMPAIGN_TYPES, PLACEMENTS, type CampaignType, type Placement, type RetailerSettings } from "~/domain/retailer-settings";

/** The filters, by their names in the URL, in the order the form and the summary show them. */
export const DASHBOARD_FILTERS = ["team", "wallet", "placement", "type", "device"] as const;
export type DashboardFilterName = (typeof DASHBOARD_FILTERS)[number];

/** The devices statistics are recorded for (the ad server's events). */
export const FILTER_DEVICES = EVENT_DEVICES;
export type FilterDevice = (typeof FILTER_DEVICES)[number];

export interface DashboardFilters {
  team: string | null;
  wallet: string | null;
  placement: Placement | null;
  type: CampaignType | null;
  device: FilterDevice | null;
}

/** Why a filter of the URL was left out: a value unknown (or not the user's to see), or a wallet of another team. */
export type FilterDropReason = "unknown" | "notOfTeam";

export interface DroppedFilter {
  filter: DashboardFilterName;
  reason: FilterDropReason;
}

export interface ParsedFilters {
  filters: DashboardFilters;
  dropped: DroppedFilter[];
}

const ID = /^[A-Za-z0-9_-]{1,128}$/;

export function noFilters(): DashboardFilters {
  return { team: null, wallet: null, placement: null, type: null, device: null };
}

function isOneOf<T extends string>(list: readonly T[], value: string): value is T {
  return (list as readonly string[]).includes(value);
}

/** Reads the filters of a query: each known value typed, each other one dropped (an empty value is no filter). */
export function parseDashboardFilters(params: URLSearchParams): ParsedFilters {
  const filters = noFilters();
  const dropped: DroppedFilter[] = [];
  const read = (name: DashboardFilterName, accept: (value: string) => boolean): string | null => {
    const value = params.get(name)?.trim() ?? "";
    if (!value) return null;
    if (accept(value)) return value;
    dropped.push({ filter: name, reason: "unknown" });
    return null;
  };
  filters.team = read("team", (v) => ID.test(v));
  filters.wallet = read("wallet", (v) => ID.test(v));
  filters.placement = read("placement", (v) => isOneOf(PLACEMENTS, v)) as Placement | null;
  filters.type = read("type", (v) => isOneOf(CAMPAIGN_TYPES, v)) as CampaignType | null;
  filters.device = read("device", (v) => isOneOf(FILTER_DEVICES, v)) as FilterDevice | null;
  return { filters, dropped };
}

/** What the filters offer: the retailer's enabled campaign types and their placements, and the devices. */
export interface FilterChoices {
  placements: Placement[];
  types: CampaignType[];
  devices: FilterDevice[];
}

export function filterChoices(settings: Pick<RetailerSettings, "enabledTypes" | "types">): FilterChoices {
  const offered = new Set(settings.enabledTypes.flatMap((type) => settings.types[type]?.placements ?? []));
  return {
    placements: PLACEMENTS.filter((p) => offered.has(p)),
    types: CAMPAIGN_TYPES.filter((t) => settings.enabledTypes.includes(t)),
    devices: [...FILTER_DEVICES],
  };
}

/**
 * What the user may see of the team and wallet the filters name, as the service found them: null
 * when the record is missing or out of the user's scope (the same answer for both).
 */
export interface VisibleRecords {
  team: { id: string } | null;
  wallet: { id: string; teamId: string } | null;
}

/** The filters that apply together, and those dropped (see the rules at the top of this file). */
export function combineDashboardFilters(asked: DashboardFilters, visible: VisibleRecords, choices: FilterChoices): ParsedFilters {
  const filters = { ...asked };
  const dropped: DroppedFilter[] = [];
  const drop = (filter: DashboardFilterName, reason: FilterDropReason = "unknown") => {
    dropped.push({ filter, reason });
    (filters as Record<DashboardFilterName, string | null>)[filter] = null;
  };
  if (filters.team && visible.team?.id !== filters.team) drop("team");
  if (filters.wallet) {
    const wallet = visible.wallet?.id === filters.wallet ? visible.wallet : null;
    if (!wallet) drop("wallet");
    else if (filters.team && wallet.teamId !== filters.team) drop("wallet", "notOfTeam");
    else if (!filters.team) filters.team = wallet.teamId;
  }
  if (filters.placement && !choices.placements.includes(filters.placement)) drop("placement");
  if (filters.type && !choices.types.includes(filters.type)) drop("type");
  if (filters.device && !choices.devices.includes(filters.device)) drop("device");
  return { filters, dropped };
}

export function hasFilters(filters: DashboardFilters): boolean {
  return DASHBOARD_FILTERS.some((name) => filters[name] !== null);
}

/** The /metrics filter terms of the filters (spec section 7: team, wallet, placement, campaign_type, device). */
export function metricsFilterTerms(filters: DashboardFilters): Partial<Record<Dimension, string[]>> {
  const terms: Partial<Record<Dimension, string[]>> = {};
  if (filters.team) terms.team = [filters.team];
  if (filters.wallet) terms.wallet = [filters.wallet];
  if (filters.placement) terms.placement = [filters.placement];
  if (filters.type) terms.campaignType = [filters.type];
  if (filters.device) terms.device = [filters.device];
  return terms;
}

/** The filters as URL values, in a stable order, unset ones left out. */
export function filterParams(filters: DashboardFilters): [DashboardFilterName, string][] {
  return DASHBOARD_FILTERS.flatMap((name) => (filters[name] ? [[name, filters[name]!] as [DashboardFilterName, string]] : []));
}

/**
 * The filters of a row's drill-down: a team's row narrows to that team (its wallets), a wallet's
 * row to that wallet (its campaigns); the other filters stay.
 */
export function drillFilters(filters: DashboardFilters, to: { team: string; wallet?: string }): DashboardFilters {
  return { ...filters, team: to.team, wallet: to.wallet ?? null };
}
