/**
 * Statistics tables as CSV downloads: the dashboard's tab, each table of a campaign's statistics,
 * a team's wallets and the campaign lists' statistics columns, with the same figures the screen
 * shows, every row (up to EXPORT_MAX_ROWS, far past the 10,000 rows the screens warn about),
 * headers in the user's language.
 */
import Papa from "papaparse";
import { EXPORT_MAX_ROWS, figuresCsvRows, statisticsFileName, type FiguresCsvRow } from "~/domain/metrics/csv";
import type { DashboardTab } from "~/domain/metrics/dashboard";
import { noFilters, type ParsedFilters } from "~/domain/metrics/dashboard-filters";
import { BREAKDOWNS, METRICS, type Breakdown } from "~/domain/metrics/metrics";
import { hourBucketLabels, type Period } from "~/domain/metrics/periods";
import { WEEK_DAYS } from "~/domain/campaigns/campaign";
import { hourTime, HOURS } from "~/domain/campaigns/dayparting";
import { labelDefault, placementLabelKey, slotLabelKey } from "~/domain/placement-labels";
import { CSV_FORMULA_PATTERN } from "~/domain/wallets/ledger-csv";
import { fail, ok, type Result } from "~/domain/result";
import type { Team, User } from "~/domain/types";
import { parseListState } from "~/domain/campaigns/list";
import type { CampaignContext } from "~/services/campaigns/campaigns.server";
import { campaignHeatmap, campaignStatistics } from "~/services/campaigns/statistics.server";
import { dashboardStatistics, resolveDashboardFilters } from "~/services/dashboard.server";
import { CAMPAIGN_EXPORT_PAGE_SIZE, listCampaigns, listPeriod } from "~/services/campaigns/list.server";
import { teamWalletStatistics } from "~/services/wallet-statistics.server";
import { getFixedT } from "~/services/i18n.server";
import { dateTimeFormat } from "~/domain/intl";

export interface CsvFile {
  fileName: string;
  body: string;
  rows: number;
}

function toCsv(rows: string[][]): string {
  return "\uFEFF" + Papa.unparse(rows, { escapeFormulae: CSV_FORMULA_PATTERN, newline: "\r\n" });
}

function csvFile(subject: string, period: Period, lines: string[][], rows: number): CsvFile {
  return { fileName: statisticsFileName(subject, period.from, period.to), body: toCsv(lines), rows };
}

async function metricHeaders(locale: string) {
  const t = await getFixedT(locale);
  return { t, metrics: Object.fromEntries(METRICS.map((m) => [m, t(`metrics:metric.${m}`)])) };
}

/** The dashboard's tab with the filters of its query (resolved as the page resolves them: a filter the user may not use is left out). */
export async function exportDashboardCsv(user: User, tab: DashboardTab, period: Period, locale: string, asked: ParsedFilters = { filters: noFilters(), dropped: [] }): Promise<Result<CsvFile>> {
  const resolved = await resolveDashboardFilters(user, asked);
  if (!resolved.ok) return resolved;
  const result = await dashboardStatistics(user, { tab, period, previous: null, sort: "cost", dir: "desc", limit: EXPORT_MAX_ROWS, filters: resolved.value.filters });
  if (!result.ok) return result;
  const { t, metrics } = await metricHeaders(locale);
  const name = tab === "teams" ? t("metrics:dashboard.teams") : tab === "wallets" ? t("metrics:dashboard.wallet") : t("metrics:dashboard.campaign");
  const rows: FiguresCsvRow[] = result.value.rows.map((row) => ({ name: row.name, team: row.teamName, figures: row.figures, currency: row.currency }));
  const lines = figuresCsvRows({ name, team: tab === "teams" ? undefined : t("metrics:team"), currency: t("metrics:currency"), metrics }, rows);
  return ok(csvFile(t(`metrics:dashboard.${tab}`), period, lines, rows.length));
}

export const CAMPAIGN_TABLES = ["overTime", ...BREAKDOWNS, "products", "heatmap"] as const;
export type CampaignTable = (typeof CAMPAIGN_TABLES)[number];

/** The i18n key of a breakdown row's name (the Statistics tab's tables use the same). */
const BREAKDOWN_LABEL: Record<Breakdown, (key: string) => string> = {
  campaignType: (key) => `campaigns:types.${key}`,
  device: (key) => `campaignTargeting:devices.${key}`,
  placement: placementLabelKey,
  slot: slotLabelKey,
};

/** The weekday-by-hour heatmap: one line per weekday (Monday first) and hour of the retailer's time zone, with its displays and clicks. */
async function exportHeatmapCsv(user: User, ctx: CampaignContext, period: Period, locale: string): Promise<Result<CsvFile>> {
  const result = await campaignHeatmap(user, ctx, period);
  if (!result.ok) return result;
  const t = await getFixedT(locale);
  const { displays, clicks } = result.value.heatmap;
  const lines: string[][] = [[t("metrics:campaign.weekday"), t("metrics:campaign.hour"), t("metrics:metric.displays"), t("metrics:metric.clicks")]];
  WEEK_DAYS.forEach((day, w) => {
    for (const h of HOURS) lines.push([t(`campaignTargeting:days.${day}`), hourTime(h), String(displays[w]![h]!), String(clicks[w]![h]!)]);
  });
  return ok(csvFile(`${ctx.campaign.name}-heatmap`, period, lines, lines.length - 1));
}

export async function exportCampaignCsv(user: User, ctx: CampaignContext, table: CampaignTable, period: Period, locale: string, timeZone: string): Promise<Result<CsvFile>> {
  if (table === "heatmap") return exportHeatmapCsv(user, ctx, period, locale);
  const result = await campaignStatistics(user, ctx, { period, previous: null, productRows: table === "products" ? EXPORT_MAX_ROWS : undefined });
  if (!result.ok) return result;
  const { t, metrics } = await metricHeaders(locale);
  const stats = result.value;
  let name: string;
  let rows: FiguresCsvRow[];
  if (table === "overTime") {
    name = stats.unit === "hour" ? t("metrics:campaign.hour") : t("metrics:campaign.day");
    const hour = dateTimeFormat("en-GB", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    const buckets = stats.overTime.map((row) => row.bucket);
    const names = stats.unit === "hour" ? hourBucketLabels(buckets, (bucket) => hour.format(new Date(bucket)), "en-GB", timeZone) : buckets;
    rows = stats.overTime.map((row, i) => ({ name: names[i]!, figures: row.figures }));
  } else if (table === "products") {
    name = t("metrics:campaign.product");
    rows = stats.products.map((row) => ({ name: `${row.name} (${row.id})`, figures: row.figures }));
  } else {
    name = t(`metrics:breakdown.${table satisfies Breakdown}`);
    // Each row named as the screen's table names it ("Unknown devices", "Sponsored products (sp)").
    rows = stats.breakdowns[table].map((row) => ({ name: t(BREAKDOWN_LABEL[table](row.key), labelDefault(row.key)), figures: row.figures }));
  }
  // Its money is in its wallet's currency, said in a column as in the other exports.
  const lines = figuresCsvRows({ name, currency: t("metrics:currency"), metrics }, rows.map((row) => ({ ...row, currency: stats.currency })));
  return ok(csvFile(`${ctx.campaign.name}-${table}`, period, lines, rows.length));
}


/** A team's Wallets tab: each wallet's figures for the period. The caller has checked the team is the user's to see. */
export async function exportTeamWalletsCsv(user: User, team: Team, period: Period, locale: string): Promise<Result<CsvFile>> {
  const result = await teamWalletStatistics(user, team, period);
  if (!result.ok) return result;
  const { t, metrics } = await metricHeaders(locale);
  const rows: FiguresCsvRow[] = result.value.rows.map((row) => ({ name: row.name, figures: row.figures, currency: row.currency }));
  const lines = figuresCsvRows({ name: t("metrics:dashboard.wallet"), currency: t("metrics:currency"), metrics }, rows);
  return ok(csvFile(`${team.name}-${t("metrics:dashboard.wallets")}`, period, lines, rows.length));
}

/**
 * A campaign list's statistics columns: every campaign the list's query selects (every page, in
 * the list's order, the user's scope; a team's Campaigns tab names its team), with its advertiser
 * and its figures for the list's period.
 */
export async function exportCampaignListCsv(user: User, params: URLSearchParams, locale: string): Promise<Result<CsvFile>> {
  const state = parseListState(params);
  state.after = null;
  const rows: FiguresCsvRow[] = [];
  do {
    const page = await listCampaigns(user, state, { locale, pageSize: CAMPAIGN_EXPORT_PAGE_SIZE, withFigures: true });
    if (!page.ok) return fail("unavailable", "campaigns:errors.fetchCampaign");
    if (page.metricsFailed) return fail("unavailable", "metrics:errors.fetchOverall");
    for (const row of page.rows) if (row.figures && rows.length < EXPORT_MAX_ROWS) rows.push({ name: row.name, team: row.team.name, figures: row.figures, currency: row.currency });
    state.after = rows.length < EXPORT_MAX_ROWS ? page.next : null;
  } while (state.after);
  const { t, metrics } = await metricHeaders(locale);
  const lines = figuresCsvRows({ name: t("metrics:dashboard.campaign"), team: t("metrics:team"), currency: t("metrics:currency"), metrics }, rows);
  return ok(csvFile(t("metrics:dashboard.campaigns"), listPeriod(state), lines, rows.length));
}
