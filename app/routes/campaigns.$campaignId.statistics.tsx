import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormAlert } from "~/components/forms";
import { BreakdownChart, TimeChart, TopChart } from "~/components/metrics/chart";
import { Heatmap } from "~/components/metrics/heatmap";
import { ExportLink, FiguresTable, Freshness, KpiTiles, PeriodForm, useFigureFormat, periodProps } from "~/components/metrics/statistics";
import { BREAKDOWNS, type Breakdown, type Derived } from "~/domain/metrics/metrics";
import { CAMPAIGN_PRESETS, campaignPresetContext, endsBeforeToday, hourBucketLabels, periodFromSearch } from "~/domain/metrics/periods";
import { isEmptyHeatmap } from "~/domain/metrics/heatmap";
import { requireUser } from "~/http/auth.server";
import { orThrow } from "~/http/reply.server";
import { requireCampaign } from "~/services/campaigns/campaigns.server";
import { campaignStatistics } from "~/services/campaigns/statistics.server";
import { retailerTimeZone } from "~/services/retailer-settings.server";
import { dateTimeFormat } from "~/domain/intl";
import { TableWrap } from "~/components/table-wrap";
import { labelDefault, placementLabelKey, slotLabelKey } from "~/domain/placement-labels";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "statistics");

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  const timeZone = retailerTimeZone();
  const search = new URL(request.url).searchParams;
  if (!params.campaignId?.trim()) {
    // Statistics asked for without a campaign (spec section 8's 'No campaign ID'): said, not thrown.
    return { campaignId: "", choice: periodFromSearch(search, { now: new Date(), timeZone }, CAMPAIGN_PRESETS), retailerTimeZone: timeZone, endsBeforeToday: false, statistics: null, failure: "metrics:errors.noCampaignId" };
  }
  const ctx = orThrow(await requireCampaign(user, params.campaignId));
  const now = new Date();
  const choice = periodFromSearch(
    search,
    { now, timeZone, ...campaignPresetContext(ctx.campaign) },
    CAMPAIGN_PRESETS,
  );
  const statistics = await campaignStatistics(user, ctx, { period: choice.period, previous: choice.previous });
  return {
    campaignId: ctx.campaign.id,
    choice,
    retailerTimeZone: timeZone,
    endsBeforeToday: endsBeforeToday(choice.period, now, timeZone),
    statistics: statistics.ok ? statistics.value : null,
    failure: statistics.ok ? null : statistics.reason,
  };
}

export default function CampaignStatisticsRoute() {
  const { t, i18n } = useTranslation("metrics");
  const { t: tc } = useTranslation();
  const { choice, retailerTimeZone: zone, endsBeforeToday, statistics, failure, campaignId } = useLoaderData<typeof loader>();
  const csvPath = `/campaigns/${encodeURIComponent(campaignId)}/statistics.csv`;
  // Money in the campaign's wallet's currency.
  const format = useFigureFormat(statistics?.currency);
  const hourOf = (bucket: string) => dateTimeFormat(i18n.language, { hour: "2-digit", minute: "2-digit", timeZone: zone }).format(new Date(bucket));
  const dayOf = (bucket: string) => dateTimeFormat(i18n.language, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(`${bucket}T00:00:00Z`));
  // Each row's name; the two hours named alike when the clocks go back also name their UTC offset.
  const buckets = statistics?.overTime.map((row) => row.bucket) ?? [];
  const bucketNames = statistics?.unit === "hour" ? hourBucketLabels(buckets, hourOf, i18n.language, zone) : buckets.map(dayOf);
  const nameOfBucket = new Map(buckets.map((bucket, i) => [bucket, bucketNames[i]!]));
  const bucketLabel = (bucket: string) => nameOfBucket.get(bucket) ?? bucket;
  const names: Record<string, (key: string) => string> = {
    campaignType: (key) => `campaigns:types.${key}`,
    device: (key) => `campaignTargeting:devices.${key}`,
    placement: placementLabelKey,
    slot: slotLabelKey,
  };
  const overTimeEmpty = !statistics || statistics.overTime.every(({ figures: f }) => !f.displays && !f.views && !f.clicks && !f.cost && !f.sales && !f.quantity);
  const breakdownName = (term: string, key: string) => tc(names[term]!(key), labelDefault(key));
  return (
    <section className="panel" aria-labelledby="statistics-title">
      <h2 id="statistics-title">{t("title")}</h2>
      {campaignId ? <PeriodForm presets={CAMPAIGN_PRESETS} {...periodProps(choice)} /> : null}
      {failure ? <FormAlert title={t(failure)} message={tc("errors.errorOccurred")} /> : null}
      {statistics ? (
        <>
          <KpiTiles totals={statistics.totals} previous={statistics.previousTotals} currency={statistics.currency} previousCurrency={statistics.previousCurrency} comparedUntil={statistics.comparedUntil} />
          <Freshness newestEvent={statistics.newestEvent} />
          <h3>{statistics.unit === "hour" ? t("campaign.byHour", { zone }) : t("campaign.byDay")}</h3>
          {/* Every bucket of the period is listed (zeros included); a period without any figure says so instead. */}
          {overTimeEmpty ? null : <TimeChart currency={statistics.currency} points={statistics.overTime.map((row) => ({ label: bucketLabel(row.bucket), figures: row.figures as Derived }))} />}
          {overTimeEmpty ? (
            <p className="empty-state">{t("campaign.empty")}</p>
          ) : (
            <FiguresTable
              caption={statistics.unit === "hour" ? t("campaign.byHour", { zone }) : t("campaign.byDay")}
              nameLabel={statistics.unit === "hour" ? t("campaign.hour") : t("campaign.day")}
              rows={statistics.overTime.map((row) => ({ id: row.bucket, name: bucketLabel(row.bucket), figures: row.figures as Derived, currency: statistics.currency }))}
            />
          )}
          {!overTimeEmpty ? (
            <p>
              <ExportLink path={csvPath} extra={{ table: "overTime" }} label={t("exportTable", { table: statistics.unit === "hour" ? t("campaign.hour") : t("campaign.day") })} />
            </p>
          ) : null}
          <h3>{t("campaign.breakdowns")}</h3>
          <BreakdownChart currency={statistics.currency} breakdowns={statistics.breakdowns as Record<Breakdown, { key: string; figures: Derived }[]>} nameOf={breakdownName} />
          <div className="breakdowns">
            {BREAKDOWNS.map((term) => (
              <div key={term} className="breakdown">
                <h4 id={`breakdown-${term}`}>{t(`breakdown.${term}`)}</h4>
                {statistics.breakdowns[term].length === 0 ? (
                  <p className="muted">{t("campaign.empty")}</p>
                ) : (
                  <TableWrap labelledBy={`breakdown-${term}`}>
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
                  </TableWrap>
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
              <TopChart currency={statistics.currency} label={(metric, count) => t("chart.topProducts", { metric, count })} points={statistics.products.map((p) => ({ label: p.name, figures: p.figures as Derived }))} />
              <FiguresTable caption={t("campaign.products")} nameLabel={t("campaign.product")} rows={statistics.products.map((p) => ({ ...p, figures: p.figures as Derived, currency: statistics.currency }))} />
              {statistics.productCount > statistics.products.length ? (
                <p className="muted">{t("campaign.productsTruncated", { count: statistics.products.length })}</p>
              ) : null}
              <p>
                <ExportLink path={csvPath} extra={{ table: "products" }} label={t("exportTable", { table: t("campaign.products") })} rows={statistics.productCount} />
              </p>
            </>
          )}
          <h3>{t("campaign.heatmap")}</h3>
          <p className="field-help">{t("campaign.heatmapHelp", { zone })}</p>
          <Heatmap
            id="statistics-heatmap"
            clicks={statistics.heatmap.clicks}
            displays={statistics.heatmap.displays}
            period={choice.period}
            endsBeforeToday={endsBeforeToday}
          />
          {isEmptyHeatmap(statistics.heatmap) ? null : (
            <p>
              <ExportLink path={csvPath} extra={{ table: "heatmap" }} label={t("exportTable", { table: t("campaign.heatmapTable") })} />
            </p>
          )}
        </>
      ) : null}
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
