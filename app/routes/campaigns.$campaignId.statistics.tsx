import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormAlert } from "~/components/forms";
import { BreakdownChart, TimeChart } from "~/components/metrics/chart";
import { ExportLink, FiguresTable, Freshness, KpiTiles, PeriodForm, useFigureFormat } from "~/components/metrics/statistics";
import { BREAKDOWNS, type Breakdown, type Derived } from "~/domain/metrics/metrics";
import { periodFromSearch, PRESETS, type Preset } from "~/domain/metrics/periods";
import { requireUser } from "~/http/auth.server";
import { orThrow } from "~/http/reply.server";
import { requireCampaign } from "~/services/campaigns/campaigns.server";
import { campaignStatistics } from "~/services/campaigns/statistics.server";
import { retailerTimeZone } from "~/services/retailer-settings.server";

export const meta: MetaFunction = () => [{ title: "Statistics · Ads console" }];

/** A campaign's statistics have no wallet lifetime of their own to show. */
const CAMPAIGN_PRESETS: readonly Preset[] = PRESETS.filter((p) => p !== "walletLifetime");

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  const ctx = orThrow(await requireCampaign(user, params.campaignId));
  const timeZone = retailerTimeZone();
  const choice = periodFromSearch(
    new URL(request.url).searchParams,
    { now: new Date(), timeZone, campaign: { startDate: ctx.campaign.startDate, endDate: ctx.campaign.endDate, created: ctx.campaign.created } },
    CAMPAIGN_PRESETS,
  );
  const statistics = await campaignStatistics(user, ctx, { period: choice.period, previous: choice.previous });
  return {
    campaignId: ctx.campaign.id,
    choice,
    retailerTimeZone: timeZone,
    statistics: statistics.ok ? statistics.value : null,
    failure: statistics.ok ? null : statistics.reason,
  };
}

const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6];
const HOURS = Array.from({ length: 24 }, (_, h) => h);

function Heatmap({ clicks, displays }: { clicks: number[][]; displays: number[][] }) {
  const { t, i18n } = useTranslation("metrics");
  const max = Math.max(1, ...displays.flat());
  const integer = new Intl.NumberFormat(i18n.language);
  // Monday 2 January 2023 is a Monday: weekday names in the reader's language.
  const dayName = (w: number) => new Intl.DateTimeFormat(i18n.language, { weekday: "short", timeZone: "UTC" }).format(new Date(Date.UTC(2023, 0, 2 + w)));
  return (
    <div className="table-wrap heatmap-wrap">
      <table className="heatmap">
        <caption>{t("campaign.heatmapCaption")}</caption>
        <thead>
          <tr>
            <td />
            {HOURS.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {WEEKDAYS.map((w) => (
            <tr key={w}>
              <th scope="row">{dayName(w)}</th>
              {HOURS.map((h) => {
                const share = displays[w][h] / max;
                return (
                  <td key={h} style={{ ["--heat" as string]: share.toFixed(2) }} title={t("campaign.heatCell", { displays: integer.format(displays[w][h]), clicks: integer.format(clicks[w][h]) })}>
                    {displays[w][h] ? integer.format(clicks[w][h]) : ""}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default function CampaignStatisticsRoute() {
  const { t, i18n } = useTranslation("metrics");
  const { t: tc } = useTranslation();
  const { choice, retailerTimeZone: zone, statistics, failure, campaignId } = useLoaderData<typeof loader>();
  const csvPath = `/campaigns/${encodeURIComponent(campaignId)}/statistics.csv`;
  const format = useFigureFormat();
  const bucketLabel = (bucket: string) =>
    statistics?.unit === "hour"
      ? new Intl.DateTimeFormat(i18n.language, { hour: "2-digit", minute: "2-digit", timeZone: zone }).format(new Date(bucket))
      : new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(`${bucket}T00:00:00Z`));
  const names: Record<string, string> = { campaignType: "campaigns:types", device: "campaignTargeting:devices", placement: "campaignTargeting:placements", slot: "campaignTargeting:slots" };
  const breakdownName = (term: string, key: string) => tc(`${names[term]}.${key}`, { defaultValue: key });
  return (
    <section className="panel" aria-labelledby="statistics-title">
      <h2 id="statistics-title">{t("title")}</h2>
      <PeriodForm presets={CAMPAIGN_PRESETS} preset={choice.preset} period={choice.period} custom={choice.custom} compare={choice.previous !== null} />
      {failure ? <FormAlert title={t(failure)} message={tc("errors.errorOccurred")} /> : null}
      {statistics ? (
        <>
          <KpiTiles totals={statistics.totals} previous={statistics.previousTotals} />
          <Freshness newestEvent={statistics.newestEvent} />
          <h3>{statistics.unit === "hour" ? t("campaign.byHour", { zone }) : t("campaign.byDay")}</h3>
          <TimeChart points={statistics.overTime.map((row) => ({ label: bucketLabel(row.bucket), figures: row.figures as Derived }))} />
          {statistics.overTime.length === 0 ? (
            <p className="empty-state">{t("campaign.empty")}</p>
          ) : (
            <FiguresTable
              caption={statistics.unit === "hour" ? t("campaign.byHour", { zone }) : t("campaign.byDay")}
              nameLabel={statistics.unit === "hour" ? t("campaign.hour") : t("campaign.day")}
              rows={statistics.overTime.map((row) => ({ id: row.bucket, name: bucketLabel(row.bucket), figures: row.figures as Derived }))}
            />
          )}
          {statistics.overTime.length ? (
            <p>
              <ExportLink path={csvPath} extra={{ table: "overTime" }} label={t("exportTable", { table: statistics.unit === "hour" ? t("campaign.hour") : t("campaign.day") })} />
            </p>
          ) : null}
          <h3>{t("campaign.breakdowns")}</h3>
          <BreakdownChart breakdowns={statistics.breakdowns as Record<Breakdown, { key: string; figures: Derived }[]>} nameOf={breakdownName} />
          <div className="breakdowns">
            {BREAKDOWNS.map((term) => (
              <div key={term} className="breakdown">
                <h4 id={`breakdown-${term}`}>{t(`breakdown.${term}`)}</h4>
                {statistics.breakdowns[term].length === 0 ? (
                  <p className="muted">{t("campaign.empty")}</p>
                ) : (
                  <div className="table-wrap">
                    <table className="figures-table compact" aria-labelledby={`breakdown-${term}`}>
                      <thead>
                        <tr>
                          <th scope="col">{t(`breakdown.${term}`)}</th>
                          <th scope="col" className="num">{t("metric.displays")}</th>
                          <th scope="col" className="num">{t("metric.clicks")}</th>
                          <th scope="col" className="num">{t("metric.ctr")}</th>
                          <th scope="col" className="num">{t("metric.cost")}</th>
                        </tr>
                      </thead>
                      <tbody>
                        {statistics.breakdowns[term].map((row) => (
                          <tr key={row.key}>
                            <th scope="row">{breakdownName(term, row.key)}</th>
                            <td className="num">{format("displays", row.figures as Derived)}</td>
                            <td className="num">{format("clicks", row.figures as Derived)}</td>
                            <td className="num">{format("ctr", row.figures as Derived)}</td>
                            <td className="num">{format("cost", row.figures as Derived)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                )}
                {statistics.breakdowns[term].length ? <ExportLink path={csvPath} extra={{ table: term }} label={t("exportTable", { table: t(`breakdown.${term}`) })} /> : null}
              </div>
            ))}
          </div>
          <h3>{t("campaign.products")}</h3>
          {statistics.products.length === 0 ? (
            <p className="muted">{t("campaign.noProducts")}</p>
          ) : (
            <>
              <FiguresTable caption={t("campaign.products")} nameLabel={t("campaign.product")} rows={statistics.products.map((p) => ({ ...p, figures: p.figures as Derived }))} />
              <p>
                <ExportLink path={csvPath} extra={{ table: "products" }} label={t("exportTable", { table: t("campaign.products") })} />
              </p>
            </>
          )}
          <h3>{t("campaign.heatmap")}</h3>
          <p className="field-help">{t("campaign.heatmapHelp", { zone })}</p>
          <Heatmap clicks={statistics.heatmap.clicks} displays={statistics.heatmap.displays} />
        </>
      ) : null}
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
