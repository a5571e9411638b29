/**
 * The hour-of-day by weekday heatmap of a campaign: displays and clicks per local weekday
 * (0 = Monday) and hour of the retailer's time zone, 7 rows of 24, from a weekdayHour histogram
 * (buckets "w-h"). Pure.
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
