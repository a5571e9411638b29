/**
 * The catalog imports half of the storage contract (ADR 34), run inside runStorageContract on
 * every adapter: an import is created queued with nothing written, records its progress and
 * outcome, and imports are listed newest first in cursor pages.
 */
import { expect, it } from "vitest";
import type { Storage } from "~/storage/port";

const T0 = new Date("2026-11-20T08:00:00.000Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

export function runCatalogImportsContract(storageOf: () => Storage): void {
  const repo = () => storageOf().catalogImports;

  it("creates an import queued, records its progress and report, and lists imports newest first", async () => {
    const first = await repo().create("imp-1", { fileName: "feed.csv", fileKey: "catalog-imports/imp-1/feed.csv", byteLength: 120, by: "op@example.com" }, at(1));
    expect(first).toMatchObject({ id: "imp-1", status: "queued", batchesDone: 0, imported: 0, updated: 0, rows: null, bad: [], created: at(1).toISOString(), finished: null });
    await repo().create("imp-2", { fileName: "b.json", fileKey: null, byteLength: 10, by: "system" }, at(2));
    await repo().create("imp-3", { fileName: "c.csv", fileKey: null, byteLength: 10, by: "system" }, at(3));
    await repo().update("imp-1", { status: "running", rows: 3, toWrite: 2, format: "csv", badCount: 1, bad: [{ line: 3, id: "X", reasons: ["catalog:import.reasons.titleMissing"] }], started: at(4).toISOString() });
    await repo().update("imp-1", { batchesDone: 1, imported: 1, updated: 1 });
    const done = await repo().update("imp-1", { status: "done", fileKey: null, finished: at(5).toISOString() });
    expect(done).toMatchObject({ status: "done", rows: 3, batchesDone: 1, imported: 1, updated: 1, badCount: 1, fileKey: null, fileName: "feed.csv", by: "op@example.com" });
    expect(done.bad).toEqual([{ line: 3, id: "X", reasons: ["catalog:import.reasons.titleMissing"] }]);
    const page = await repo().list({ limit: 2 });
    const rest = await repo().list({ limit: 2, after: page.next });
    expect([...page.items, ...rest.items].map((i) => i.id)).toEqual(["imp-3", "imp-2", "imp-1"]);
    expect(await repo().getOne("imp-9")).toBeNull();
  });
}
