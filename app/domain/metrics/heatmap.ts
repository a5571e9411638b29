/**
 * The hour-of-day by weekday heatmap of a campaign: displays and clicks per local weekday
 * (0 = Monday) and hour of the retailer's time zone, 7 rows of 24, from a weekdayHour histogram
 * (buckets "w-h"). Each cell shows its clicks, and its clicks shade it: a level from 0 (none) to
 * HEAT_LEVELS (the most of the grid), each level a background whose contrast with the text is
 * kept in both themes (app.css, --heat-1 to --heat-5). Pure.
 */
export interface Heatmap {
  displays: number[][];
  clicks: number[][];
}

export function heatmapOf(histogram: readonly { bucket: string; displays: number; clicks: number }[]): Heatmap {
  const displays = Array.from({ length: 7 }, () => Array<number>(24).fill(0));
  const clicks = Array.from({ length: 7 }, () => Array<number>(24).fill(0));
  for (const cell of histogram) {
    const [weekday, hour] = cell.bucket.split("-").map(Number);
    if (weekday >= 0 && weekday < 7 && hour >= 0 && hour < 24) {
      displays[weekday][hour] += cell.displays;
      clicks[weekday][hour] += cell.clicks;
    }
  }
  return { displays, clicks };
}

/** How many shades a cell may take besides none. */
export const HEAT_LEVELS = 5;

/** A cell's shade: 0 for nothing, else 1 to HEAT_LEVELS by its share of the largest figure. */
export function heatLevel(value: number, max: number): number {
  if (!(value > 0) || !(max > 0)) return 0;
  return Math.min(HEAT_LEVELS, Math.max(1, Math.ceil((value / max) * HEAT_LEVELS)));
}

/** Nothing happened in the period: no display and no click in any hour. */
export function isEmptyHeatmap(heatmap: Heatmap): boolean {
  return heatmap.displays.every((row) => row.every((n) => !n)) && heatmap.clicks.every((row) => row.every((n) => !n));
}
