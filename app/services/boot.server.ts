/**
 * What the server does once before it listens: open (and migrate) storage, seed demo data, start
 * the scheduler's worker loop (ADR 21; SCHEDULER=off turns it off, and it never starts under
 * tests, which run their own with a fake clock) with the settlement of ad spend as a job every
 * SETTLEMENT_INTERVAL_SECONDS, and the notification alerts (issue 11 §3).
 */
import { getEnv } from "~/services/env.server";
import { seedDemoCampaigns } from "~/services/demo-campaigns.server";
import { seedDemoDemand } from "~/services/demo-demand.server";
import { warmSearchIndex } from "~/services/search.server";
import { DEMO_PASSWORD, DEMO_USERS, seedDemoData } from "~/services/seed.server";
import { scheduleNotificationJobs } from "~/services/notifications.server";
import { processScheduler } from "~/services/scheduler.server";
import { scheduleReportJobs } from "~/services/reports.server";
import { scheduleDisplayVolumeJob } from "~/services/display-volume.server";
import { scheduleTargetSweepJob } from "~/services/campaigns/target-sweep.server";
import { SETTLEMENT_JOB_ID, settlementJob } from "~/services/settlement.server";
import { CATALOG_IMPORT_JOB } from "~/services/catalog-import.server";
import { startTrafficSimulator } from "~/services/simulator.server";
import { initStorage } from "~/services/storage.server";

let schedulerStarted = false;
let stopSimulator: (() => void) | null = null;
/** Demo traffic every 5 s: numbers move on the screens within a minute of `npm start`. */
const SIMULATOR_INTERVAL_MS = 5_000;

function underTests(): boolean {
  return process.env.NODE_ENV === "test" || !!process.env.VITEST;
}

export async function boot(): Promise<void> {
  const env = getEnv();
  const storage = await initStorage();
  await storage.config.get();
  // Wallets and teams stored before ADR 41 get their spend figures and per-currency totals.
  const completed = await storage.wallets.completeOldRecords();
  if (completed.wallets || completed.teams) console.log(`Completed ${completed.wallets} wallets and ${completed.teams} teams stored before ADR 41.`);
  if (env.SCHEDULER && !underTests() && !schedulerStarted) {
    schedulerStarted = true;
    await startScheduler(env.SETTLEMENT_INTERVAL_SECONDS);
  }
  if (env.SIMULATE_TRAFFIC && !underTests() && !stopSimulator) {
    stopSimulator = startTrafficSimulator(SIMULATOR_INTERVAL_MS);
    console.log("Demo traffic simulator on (SIMULATE_TRAFFIC=false turns it off).");
  }
  if (!env.EVENTS_API_KEY) console.log("POST /api/events is closed: set EVENTS_API_KEY (32 characters or more).");
  else if (env.EVENTS_API_KEY_FILE) console.log(`POST /api/events: the demo's key is in ${env.EVENTS_API_KEY_FILE}.`);
  if (!env.SEED_DEMO_DATA) {
    if (!underTests()) warmSearchIndex();
    return;
  }
  let created = await seedDemoData(storage);
  if (env.SEED_DEMO_CAMPAIGNS) {
    created += await seedDemoCampaigns(storage, new Date());
    created += await seedDemoDemand(storage, new Date(), env.RETAILER_TIMEZONE);
  }
  // The search index follows the catalog just seeded; built in the background.
  if (!underTests()) warmSearchIndex();
  const lines = [
    created ? `Seeded ${created} demo records.` : "Demo data already present.",
    `Demo sign-ins (password ${DEMO_PASSWORD}, demo data only):`,
    ...DEMO_USERS.map((u) => `  ${u.email.padEnd(30)} ${u.claims.type} ${u.claims.role}`),
  ];
  console.log(lines.join("\n"));
}

/** Registers the kinds of work this process runs, keeps their jobs defined, and starts the loop. */
async function startScheduler(settlementSeconds: number): Promise<void> {
  const scheduler = processScheduler();
  // SETTLEMENT_INTERVAL_SECONDS=0: this process does not settle (another instance may).
  if (settlementSeconds > 0) {
    scheduler.register(settlementJob);
    const saved = await scheduler.schedule(SETTLEMENT_JOB_ID, { kind: settlementJob.name, schedule: { type: "every", seconds: settlementSeconds } });
    if (!saved.ok) console.error(JSON.stringify({ level: "error", msg: "Settlement not scheduled", reason: saved.reason }));
  }
  // Notifications on a schedule (campaigns soon started, wallet alerts), merged after downtime.
  await scheduleNotificationJobs(scheduler);
  // Reports at their owners' times, and the removal of expired report files (ADR 29).
  await scheduleReportJobs(scheduler);
  // 'Campaign display volume down', checked daily on the retailer's time.
  await scheduleDisplayVolumeJob(scheduler);
  // Catalog imports: one job per uploaded feed, run at once (ADR 34).
  scheduler.register(CATALOG_IMPORT_JOB);
  // The daily sweep of target chunks whose campaign is gone (ADR 33).
  await scheduleTargetSweepJob(scheduler);
  // No stop on exit: a run cut short keeps its lease until it expires, then is run again.
  scheduler.start();
}
