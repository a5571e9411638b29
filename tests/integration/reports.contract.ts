/**
 * The reports half of the storage contract (issue 11 §2, ADR 29), run inside runStorageContract
 * on every adapter: reports by name, a user's own only when asked; a stale version refused; runs
 * newest first per report, restarted under their id; files due for removal found by their expiry
 * and forgotten once removed. Every query is served by firestore.indexes.json.
 */
import fs from "node:fs";
import { expect, it } from "vitest";
import type { ReportRunData } from "~/domain/reports";
import { ConflictError, type NewReport, type Storage } from "~/storage/port";
import { servedByIndexes } from "./campaigns.contract";

const T0 = new Date("2026-11-20T08:00:00.000Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

const report = (ownerId: string, name: string): NewReport => ({
  ownerId,
  ownerEmail: `${ownerId}@example.com`,
  name,
  type: "campaigns",
  period: "yesterday",
  interval: null,
  timeUnit: "cumulative",
  walletTags: [],
  teamId: "team-a",
  recipients: ["a@example.com"],
  format: "csv",
  frequency: "daily",
  runAt: "08:00",
  timeZone: "Europe/Paris",
});

const run = (reportId: string, minutes: number, extra: Partial<ReportRunData> = {}): ReportRunData => ({
  reportId,
  ownerId: "u-ann",
  scheduledFor: at(minutes).toISOString(),
  started: at(minutes).toISOString(),
  finished: null,
  status: "inProgress",
  reason: null,
  rows: null,
  period: { from: "2026-11-19", to: "2026-11-19" },
  fileKey: null,
  fileName: null,
  expiresAt: null,
  expired: false,
  manual: false,
  ...extra,
});

export function runReportsContract(storageOf: () => Storage): void {
  const repo = () => storageOf().reports;

  it("stops a report once (ADR 49): the stop is kept, a second stop at the version read before is refused, and a resume clears it", async () => {
    const created = await repo().create(report("u-ann", "Stopping"), T0);
    expect(created.stopped ?? null).toBeNull();
    const stop = { at: at(5).toISOString(), reason: "reports:reasons.ownerRights", runId: "run-1" };
    const stopped = await repo().update(created.id, { stopped: stop }, created.version, at(5));
    expect((await repo().getOne(created.id))!.stopped).toEqual(stop);
    await expect(repo().update(created.id, { stopped: { ...stop, runId: "run-2" } }, created.version, at(6))).rejects.toBeInstanceOf(ConflictError);
    await repo().update(created.id, { stopped: null }, stopped.version, at(7));
    expect((await repo().getOne(created.id))!.stopped).toBeNull();
  });

  it("lists reports by name in cursor pages, a user's own when asked, and refuses a stale version", async () => {
    const zed = await repo().create(report("u-ann", "Zed"), T0);
    await repo().create(report("u-ann", "alpha"), T0);
    await repo().create(report("u-bob", "Middle"), T0);
    const first = await repo().list({ limit: 2 });
    const second = await repo().list({ limit: 2, after: first.next });
    expect([...first.items, ...second.items].map((r) => r.name)).toEqual(["alpha", "Middle", "Zed"]);
    expect((await repo().list({ ownerId: "u-ann" })).items.map((r) => r.name)).toEqual(["alpha", "Zed"]);
    const renamed = await repo().update(zed.id, { name: "Renamed" }, zed.version, at(1));
    expect(renamed).toMatchObject({ name: "Renamed", nameLower: "renamed", updated: at(1).toISOString(), lastRun: null });
    await expect(repo().update(zed.id, { name: "Stale" }, zed.version, at(2))).rejects.toBeInstanceOf(ConflictError);
    await repo().setLastRun(zed.id, { runId: "r-1", at: at(3).toISOString(), status: "done", rows: 5, expiresAt: at(60).toISOString() });
    expect((await repo().getOne(zed.id))?.lastRun).toMatchObject({ runId: "r-1", rows: 5 });
    await repo().remove(zed.id);
    expect(await repo().getOne(zed.id)).toBeNull();
    // The last run of a deleted report is not recorded (nor does it fail).
    await repo().setLastRun(zed.id, { runId: "r-2", at: at(4).toISOString(), status: "done", rows: 1, expiresAt: null });
    expect(await repo().getOne(zed.id)).toBeNull();
    const indexes = JSON.parse(fs.readFileSync(new URL("../../firestore.indexes.json", import.meta.url), "utf8")).indexes;
    expect(servedByIndexes("report", { where: [["ownerId", "==", "u"]], orderBy: { field: "nameLower", direction: "asc" } }, indexes)).toBe(true);
    expect(servedByIndexes("report_run", { where: [["reportId", "==", "r"]], orderBy: { field: "started", direction: "desc" } }, indexes)).toBe(true);
  });

  it("keeps runs newest first per report, restarts one under its id, and finds files due for removal", async () => {
    for (let i = 1; i <= 3; i++) await repo().startRun(`rep-1-r${i}`, run("rep-1", i));
    await repo().startRun("rep-2-r1", run("rep-2", 10));
    const page = await repo().listRuns("rep-1", { limit: 2 });
    const rest = await repo().listRuns("rep-1", { limit: 2, after: page.next });
    expect([...page.items, ...rest.items].map((r) => r.id)).toEqual(["rep-1-r3", "rep-1-r2", "rep-1-r1"]);
    // A run taken over starts again under the same id: one document.
    await repo().startRun("rep-1-r3", run("rep-1", 3));
    expect((await repo().listRuns("rep-1", {})).items).toHaveLength(3);
    await repo().finishRun("rep-1-r1", { status: "done", reason: null, rows: 4, finished: at(1).toISOString(), fileKey: "reports/rep-1/rep-1-r1.csv", fileName: "a.csv", expiresAt: at(30).toISOString(), removeAt: at(30).toISOString() });
    await repo().finishRun("rep-1-r2", { status: "done", reason: null, rows: 4, finished: at(2).toISOString(), fileKey: "reports/rep-1/rep-1-r2.csv", fileName: "b.csv", expiresAt: at(90).toISOString(), removeAt: at(90).toISOString() });
    await repo().finishRun("rep-1-r3", { status: "aborted", reason: "reports:aborted", rows: null, finished: at(3).toISOString(), fileKey: null, fileName: null, expiresAt: null });
    expect((await repo().listExpiring(at(29), 10)).map((r) => r.id)).toEqual([]);
    expect((await repo().listExpiring(at(100), 10)).map((r) => r.id)).toEqual(["rep-1-r1", "rep-1-r2"]);
    await repo().markExpired("rep-1-r1");
    expect(await repo().getRun("rep-1-r1")).toMatchObject({ fileKey: null, expired: true, expiresAt: at(30).toISOString() });
    expect((await repo().listExpiring(at(100), 10)).map((r) => r.id)).toEqual(["rep-1-r2"]);
  });
}
