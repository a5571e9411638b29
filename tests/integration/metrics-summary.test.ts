/**
 * The summary of a statistics answer is every fact's total, however it is worked out: from the
 * histogram's buckets, from the rows of a dimension every fact has (when none was cut by the
 * size), or by its own query (a cut list, or a dimension only some facts have).
 */
import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteMetricsStore } from "~/metrics/sqlite.server";
import { setMetricsStoreForTests } from "~/metrics/index.server";
import { answerMetrics } from "~/services/metrics.server";
import { fact } from "./metrics.contract";

const DAY = "2026-11-24";
let store: SqliteMetricsStore;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "metrics-summary-"));
  store = new SqliteMetricsStore(path.join(dir, "metrics.db"));
  setMetricsStoreForTests(store);
  await store.applyBatch(
    "b-1",
    [
      fact(`${DAY}T08:00:00Z`, { campaign: "camp-a", displays: 1 }),
      fact(`${DAY}T09:00:00Z`, { campaign: "camp-b", displays: 20 }),
      fact(`${DAY}T10:00:00Z`, { campaign: "camp-c", displays: 300, keyword: "tv" }),
    ],
    `${DAY}T10:00:00.000Z`,
  );
});

afterAll(async () => {
  setMetricsStoreForTests(undefined);
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the summary of a statistics answer", () => {
  const base = { dateFrom: DAY, dateTo: DAY };
  it("is every fact's total, whichever rows were asked for", async () => {
    const cases = [
      {},
      { histogram: "day" as const },
      { histogram: "hour" as const },
      { groups: { terms: ["campaign" as const] } },
      { groups: { terms: ["campaign" as const], size: 3 } },
      { groups: { terms: ["campaign" as const], size: 1 } },
      { groups: { terms: ["keyword" as const] } },
      { groups: { terms: ["keyword" as const, "device" as const], size: 5 } },
      { filters: { terms: { campaign: ["camp-a", "camp-c"] } }, groups: { terms: ["campaign" as const], size: 2 } },
    ];
    const totals = [];
    for (const extra of cases) totals.push((await answerMetrics({ ...base, ...extra })).summary.displays);
    expect(totals).toEqual([321, 321, 321, 321, 321, 321, 321, 321, 301]);
    // The cut list shows one row, the summary still counts all three campaigns.
    expect((await answerMetrics({ ...base, groups: { terms: ["campaign"], size: 1 } })).campaign).toHaveLength(1);
  });
});
