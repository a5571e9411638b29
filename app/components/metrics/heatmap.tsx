/**
 * The hour-of-day by weekday heatmap: a table of 7 weekdays (Monday first) by 24 hours of the
 * retailer's time zone, each cell the clicks of that hour, its background shaded by them (the
 * number stays in the cell as text; every shade keeps the text's contrast, in both themes). Its
 * day and hour headings are the dayparting grid's, so the two read side by side. A period with
 * no display and no click shows a line saying so, not an empty grid. Shown on a campaign's
 * Statistics tab and beside the dayparting grid of its Targeting section, so a user schedules
 * from evidence.
 */
import { useTranslation } from "react-i18next";
import { WEEK_DAYS } from "~/domain/campaigns/campaign";
import { hourLabel, hourTime, HOURS } from "~/domain/campaigns/dayparting";
import { heatLevel, isEmptyHeatmap, type Heatmap as HeatmapFigures } from "~/domain/metrics/heatmap";
import type { Period } from "~/domain/metrics/periods";
import { dateTimeFormat, numberFormat } from "~/domain/intl";

export function Heatmap({
  clicks,
  displays,
  id,
  period,
  endsBeforeToday,
}: HeatmapFigures & {
  id: string;
  /** The days the figures cover, named by the empty-state line. */
  period: Period;
  /** The period ends before the retailer's today (the Targeting tab's default ends yesterday). */
  endsBeforeToday: boolean;
}) {
  const { t, i18n } = useTranslation(["metrics", "campaignTargeting"]);
  if (isEmptyHeatmap({ clicks, displays })) {
    const days = dateTimeFormat(i18n.language, { dateStyle: "medium", timeZone: "UTC" });
    const values = {
      from: days.format(new Date(`${period.from}T00:00:00Z`)),
      to: days.format(new Date(`${period.to}T00:00:00Z`)),
      today: t("metrics:presets.today"),
      lifetime: t("metrics:presets.campaignLifetime"),
    };
    return (
      <p className="empty-state heatmap-empty" id={id}>
        {t(endsBeforeToday ? "metrics:campaign.heatmapEmptyBeforeToday" : "metrics:campaign.heatmapEmpty", values)}
      </p>
    );
  }
  const max = Math.max(0, ...clicks.flat());
  const integer = numberFormat(i18n.language);
  return (
    <div className="table-wrap heatmap-wrap" role="region" aria-labelledby={`${id}-caption`} tabIndex={0}>
      <table className="heatmap" id={id}>
        <caption id={`${id}-caption`}>{t("metrics:campaign.heatmapCaption")}</caption>
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">{t("campaignTargeting:dayparting.dayHeader")}</span>
            </th>
            {HOURS.map((h) => (
              <th key={h} scope="col">
                <span aria-hidden="true">{hourLabel(h)}</span>
                <span className="visually-hidden">{hourTime(h)}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {WEEK_DAYS.map((day, w) => (
            <tr key={day}>
              <th scope="row">{t(`campaignTargeting:days.${day}`)}</th>
              {HOURS.map((h) => (
                <td
                  key={h}
                  className={`heat-${heatLevel(clicks[w]![h]!, max)}`}
                  title={t("metrics:campaign.heatCell", { displays: integer.format(displays[w]![h]!), clicks: integer.format(clicks[w]![h]!) })}
                >
                  {displays[w]![h] || clicks[w]![h] ? integer.format(clicks[w]![h]!) : ""}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
