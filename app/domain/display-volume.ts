/**
 * 'Campaign display volume down' (spec section 8, issue 11 §3): a running campaign whose displays
 * yesterday are under a share (NOTIFY_DISPLAY_DROP_RATIO, default a half) of the average of the
 * same weekday over the four weeks before. Pure: the days are the retailer's.
 */
import { addDays, type Day } from "~/domain/metrics/periods";

export const REFERENCE_WEEKS = 4;
export const DEFAULT_DROP_RATIO = 0.5;

/** Yesterday's day and the same weekday of the four weeks before it (oldest last). */
export function referenceDays(yesterday: Day): Day[] {
  return Array.from({ length: REFERENCE_WEEKS }, (_, i) => addDays(yesterday, -7 * (i + 1)));
}

/** The average of the reference days (days without displays count as 0). */
export function referenceAverage(displaysByDay: readonly number[]): number {
  return displaysByDay.reduce((a, b) => a + b, 0) / REFERENCE_WEEKS;
}

/** Whether yesterday's displays are down: under the ratio of a positive average. */
export function isDisplayVolumeDown(yesterday: number, average: number, ratio = DEFAULT_DROP_RATIO): boolean {
  return average > 0 && yesterday < ratio * average;
}
