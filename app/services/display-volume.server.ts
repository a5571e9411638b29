/**
 * The daily check behind 'campaign display volume down' (issue 11 §3): every running campaign
 * whose displays yesterday (the retailer's day) are under NOTIFY_DISPLAY_DROP_RATIO of the average
 * of the same weekday over the last four weeks is notified, once per campaign and day, to those
 * who may see its team (app/domain/notifications.ts). A scheduled job (ADR 21, `merge`): after
 * downtime one run checks the latest yesterday. A system check over the metrics store: no user's
 * figures are read or shown, only the campaign's name and two counts in the notification.
 */
import { isDisplayVolumeDown, referenceAverage, referenceDays } from "~/domain/display-volume";
import { addDays, localDay, type Day } from "~/domain/metrics/periods";
import { ok, type Result } from "~/domain/result";
import { getMetricsStore } from "~/metrics/index.server";
import { getEnv } from "~/services/env.server";
import { raise } from "~/services/notifications.server";
import { retailerTimeZone } from "~/services/retailer-settings.server";
import type { JobKind, Scheduler } from "~/services/scheduler.server";
import { getStorage } from "~/services/storage.server";

export const DISPLAY_VOLUME_JOB = "alert-campaignDisplayVolumeDown";

async function displaysByCampaign(day: Day): Promise<Map<string, number>> {
  const rows = await getMetricsStore().query({ from: day, to: day, groupBy: ["campaign"] });
  return new Map(rows.filter((r) => r.keys.campaign).map((r) => [r.keys.campaign!, r.displays]));
}

/** Checks yesterday (of `now`, in the retailer's days) and notifies; returns how many campaigns were down. */
export async function checkDisplayVolume(now: Date, ratio = getEnv().NOTIFY_DISPLAY_DROP_RATIO): Promise<Result<number>> {
  const yesterday = addDays(localDay(now, retailerTimeZone()), -1);
  const references = referenceDays(yesterday);
  const [last, ...before] = await Promise.all([yesterday, ...references].map(displaysByCampaign));
  const candidates = new Set(before.flatMap((m) => [...m.keys()]));
  const down: { id: string; displays: number; average: number }[] = [];
  for (const id of candidates) {
    const average = referenceAverage(before.map((m) => m.get(id) ?? 0));
    const displays = last.get(id) ?? 0;
    if (isDisplayVolumeDown(displays, average, ratio)) down.push({ id, displays, average });
  }
  if (!down.length) return ok(0);
  const campaigns = new Map((await getStorage().campaigns.getMany(down.map((d) => d.id))).map((c) => [c.id, c]));
  let count = 0;
  for (const d of down) {
    const campaign = campaigns.get(d.id);
    // Running: active, and not ended before yesterday.
    if (!campaign || campaign.status !== "active") continue;
    if (campaign.endDate && localDay(new Date(campaign.endDate), retailerTimeZone()) < yesterday) continue;
    await raise(
      "campaignDisplayVolumeDown",
      { teamIds: [campaign.team] },
      { campaign: campaign.name, displays: d.displays, average: Math.round(d.average), percent: Math.round(ratio * 100) },
      `/campaigns/${campaign.id}/statistics`,
      { now, key: `display-down:${campaign.id}:${yesterday}` },
    );
    count++;
  }
  return ok(count);
}

export const DISPLAY_VOLUME_KIND: JobKind = { name: DISPLAY_VOLUME_JOB, catchUp: "merge", run: ({ now }) => checkDisplayVolume(now) };

/** Registers the daily check (09:00, the retailer's time) and keeps its job defined (boot, tests). */
export async function scheduleDisplayVolumeJob(scheduler: Scheduler): Promise<void> {
  scheduler.register(DISPLAY_VOLUME_KIND);
  const saved = await scheduler.schedule(DISPLAY_VOLUME_JOB, { kind: DISPLAY_VOLUME_JOB, schedule: { type: "daily", time: "09:00", timeZone: retailerTimeZone() } });
  if (!saved.ok) console.error(JSON.stringify({ level: "error", msg: "Display volume check not scheduled", reason: saved.reason }));
}
