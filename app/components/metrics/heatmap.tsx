/**
 * The hour-of-day by weekday heatmap: a table of 7 weekdays (Monday first) by 24 hours of the
 * retailer's time zone, each cell the clicks of that hour, shaded by its displays. Shown on a
 * campaign's Statistics tab and beside the dayparting grid of its Targeting section, so a user
 * schedules from evidence.
 */
import { useTranslation } from "react-i18next";
import type { Heatmap as HeatmapFigures } from "~/domain/metrics/heatmap";
import { dateTimeFormat, numberFormat } from "~/domain/intl";

const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6];
const HOURS = Array.from({ length: 24 }, (_, h) => h);

export function Heatmap({ clicks, displays, id }: HeatmapFigures & { id: string }) {
  const { t, i18n } = useTranslation("metrics");
  const max = Math.max(1, ...displays.flat());
  const integer = numberFormat(i18n.language);
  // 2 January 2023 is a Monday: weekday names in the reader's language.
  const dayName = (w: number) => dateTimeFormat(i18n.language, { weekday: "short", timeZone: "UTC" }).format(new Date(Date.UTC(2023, 0, 2 + w)));
  return (
    <div className="table-wrap heatmap-wrap" role="region" aria-labelledby={`${id}-caption`} tabIndex={0}>
      <table className="heatmap" id={id}>
        <caption id={`${id}-caption`}>{t("campaign.heatmapCaption")}</caption>
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
