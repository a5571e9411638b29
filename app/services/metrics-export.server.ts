/**
 * Statistics tables as CSV downloads: the dashboard's tab and each table of a campaign's
 * statistics, with the same figures the screen shows, every row (up to the contract's limit),
 * headers in the user's language.
 */
import Papa from "papaparse";
import { EXPORT_WARNING_ROWS, figuresCsvRows, statisticsFileName, type FiguresCsvRow } from "~/domain/metrics/csv";
import type { DashboardTab } from "~/domain/metrics/dashboard";
import { MAX_GROUP_ROWS } from "~/domain/metrics/contract";
import { BREAKDOWNS, METRICS, type Breakdown } from "~/domain/metrics/metrics";
import type { Period } from "~/domain/metrics/periods";
import { CSV_FORMULA_PATTERN } from "~/domain/wallets/ledger-csv";
import { ok, type Result } from "~/domain/result";
import type { User } from "~/domain/types";
import type { CampaignContext } from "~/services/campaigns/campaigns.server";
import { campaignStatistics } from "~/services/campaigns/statistics.server";
import { dashboardStatistics } from "~/services/dashboard.server";
import { getFixedT } from "~/services/i18n.server";

export interface CsvFile {
  fileName: string;
  body: string;
  rows: number;
  /** More rows than a spreadsheet comfortably opens (spec section 9's export warning). */
  large: boolean;
}

function toCsv(rows: string[][]): string {
  return "\uFEFF" + Papa.unparse(rows, { escapeFormulae: CSV_FORMULA_PATTERN, newline: "\r\n" });
}

async function metricHeaders(locale: string) {
  const t = await getFixedT(locale);
  return { t, metrics: Object.fromEntries(METRICS.map((m) => [m, t(`metrics:metric.${m}`)])) };
}

export async function exportDashboardCsv(user: User, tab: DashboardTab, period: Period, locale: string): Promise<Result<CsvFile>> {
  const result = await dashboardStatistics(user, { tab, period, previous: null, sort: "cost", dir: "desc", limit: MAX_GROUP_ROWS });
  if (!result.ok) return result;
  const { t, metrics } = await metricHeaders(locale);
  const name = tab === "teams" ? t("metrics:dashboard.teams") : tab === "wallets" ? t("metrics:dashboard.wallet") : t("metrics:dashboard.campaign");
  const rows: FiguresCsvRow[] = result.value.rows.map((row) => ({ name: row.name, team: row.teamName, figures: row.figures }));
  const lines = figuresCsvRows({ name, team: tab === "teams" ? undefined : t("metrics:team"), metrics }, rows);
  return ok({ fileName: statisticsFileName(t(`metrics:dashboard.${tab}`), period.from, period.to), body: toCsv(lines), rows: rows.length, large: rows.length > EXPORT_WARNING_ROWS });
}

export const CAMPAIGN_TABLES = ["overTime", ...BREAKDOWNS, "products"] as const;
export type CampaignTable = (typeof CAMPAIGN_TABLES)[number];

export async function exportCampaignCsv(user: User, ctx: CampaignContext, table: CampaignTable, period: Period, locale: string, timeZone: string): Promise<Result<CsvFile>> {
  const result = await campaignStatistics(user, ctx, { period, previous: null });
  if (!result.ok) return result;
  const { t, metrics } = await metricHeaders(locale);
  const stats = result.value;
  let name: string;
  let rows: FiguresCsvRow[];
  if (table === "overTime") {
    name = stats.unit === "hour" ? t("metrics:campaign.hour") : t("metrics:campaign.day");
    const hour = new Intl.DateTimeFormat("en-GB", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    rows = stats.overTime.map((row) => ({ name: stats.unit === "hour" ? hour.format(new Date(row.bucket)) : row.bucket, figures: row.figures }));
  } else if (table === "products") {
    name = t("metrics:campaign.product");
    rows = stats.products.map((row) => ({ name: `${row.name} (${row.id})`, figures: row.figures }));
  } else {
    name = t(`metrics:breakdown.${table satisfies Breakdown}`);
    rows = stats.breakdowns[table].map((row) => ({ name: row.key, figures: row.figures }));
  }
  const lines = figuresCsvRows({ name, metrics }, rows);
  return ok({ fileName: statisticsFileName(`${ctx.campaign.name}-${table}`, period.from, period.to), body: toCsv(lines), rows: rows.length, large: rows.length > EXPORT_WARNING_ROWS });
}
