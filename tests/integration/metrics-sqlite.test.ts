import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { SqliteMetricsStore } from "~/metrics/sqlite.server";
import { runMetricsContract } from "./metrics.contract";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ads-console-metrics-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

runMetricsContract("sqlite", async () => new SqliteMetricsStore(path.join(dir, "metrics.db")));
