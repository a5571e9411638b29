import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { SqliteMetricsStore } from "~/metrics/sqlite.server";
import { fact, runMetricsContract } from "./metrics.contract";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ads-console-metrics-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

runMetricsContract("sqlite", async () => new SqliteMetricsStore(path.join(dir, "metrics.db")));

describe("a metrics database of an earlier release", () => {
  it("is read with today's keys: a table of another key order is rebuilt with its rows, once", async () => {
    const file = path.join(dir, "earlier.db");
    const db = new Database(file);
    // m_campaign_day as release 0.9 wrote it: keyed by day first, indexed by (campaign, day).
    db.exec(
      "CREATE TABLE m_campaign_day (day TEXT NOT NULL, team TEXT NOT NULL, wallet TEXT NOT NULL, campaign TEXT NOT NULL, campaign_type TEXT NOT NULL, displays INTEGER NOT NULL DEFAULT 0, views INTEGER NOT NULL DEFAULT 0, clicks INTEGER NOT NULL DEFAULT 0, cost_micros INTEGER NOT NULL DEFAULT 0, quantity INTEGER NOT NULL DEFAULT 0, sales_cents INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (day, team, wallet, campaign, campaign_type)) WITHOUT ROWID;" +
        "CREATE INDEX m_campaign_day_i0 ON m_campaign_day (campaign, day);" +
        "INSERT INTO m_campaign_day (day, team, wallet, campaign, campaign_type, displays, clicks) VALUES ('2026-11-20', 'team-a', 'wallet-a', 'camp-a', 'sponsored-products', 42, 3);",
    );
    db.close();
    const store = new SqliteMetricsStore(file);
    const rows = await store.query({ from: "2026-11-20", to: "2026-11-20", groupBy: ["campaign"], filters: { campaign: ["camp-a"] } });
    expect(rows.map((r) => [r.keys.campaign, r.displays, r.clicks])).toEqual([["camp-a", 42, 3]]);
    await store.applyBatch("b-1", [fact("2026-11-20T10:00:00Z", { displays: 8 })], null);
    const [total] = await store.query({ from: "2026-11-20", to: "2026-11-20", filters: { campaign: ["camp-a"] } });
    expect(total.displays).toBe(50);
    await store.close();
    const check = new Database(file, { readonly: true });
    const sql = (check.prepare("SELECT sql FROM sqlite_master WHERE name = 'm_campaign_day'").get() as { sql: string }).sql;
    const index = (check.prepare("SELECT sql FROM sqlite_master WHERE name = 'm_campaign_day_i0'").get() as { sql: string }).sql;
    check.close();
    expect(sql).toContain("PRIMARY KEY (campaign, day,");
    expect(index).toBe("CREATE INDEX m_campaign_day_i0 ON m_campaign_day (day)");
    // Opened again, nothing is rebuilt: the rows stay as they are.
    const again = new SqliteMetricsStore(file);
    expect((await again.query({ from: "2026-11-20", to: "2026-11-20", filters: { campaign: ["camp-a"] } }))[0].displays).toBe(50);
    await again.close();
  });
});
