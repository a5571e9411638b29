/**
 * Starts Debian's clickhouse-server (18.16) for the metrics contract suite, as a plain process on
 * a free loopback port with its own configuration, data and logs in a temporary folder, and stops
 * it by its PID. Where clickhouse-server is not installed the ClickHouse half is skipped with a
 * notice (an error on CI, where `npm test` installs it: scripts/ensure-tools.mjs).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../free-port";

const READY_TIMEOUT_MS = 60_000;

function installed(): string | null {
  for (const file of ["/usr/sbin/clickhouse-server", "/usr/bin/clickhouse-server", "/usr/bin/clickhouse"]) if (fs.existsSync(file)) return file;
  try {
    return execFileSync("sh", ["-c", "command -v clickhouse-server"], { encoding: "utf8" }).trim() || null;
  } catch {
    return null;
  }
}


function config(dir: string, httpPort: number, tcpPort: number): string {
  return `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>${dir}/log/server.log</log><errorlog>${dir}/log/error.log</errorlog><console>0</console></logger>
  <http_port>${httpPort}</http_port>
  <tcp_port>${tcpPort}</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <user_files_path>${dir}/user_files/</user_files_path>
  <format_schema_path>${dir}/format/</format_schema_path>
  <users_config>${dir}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>5368709</mark_cache_size>
  <max_concurrent_queries>50</max_concurrent_queries>
  <keep_alive_timeout>3</keep_alive_timeout>
</yandex>
`;
}

const USERS = `<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>2000000000</max_memory_usage></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas>
</yandex>
`;

export interface RunningClickHouse {
  url: string;
  stop(): Promise<void>;
}

/** The running server, or null (with a notice) where none can be started outside CI. */
export async function startClickHouse(): Promise<RunningClickHouse | null> {
  if (process.env.CLICKHOUSE_URL) return { url: process.env.CLICKHOUSE_URL.replace(/\/+$/, ""), stop: async () => {} };
  const binary = installed();
  if (!binary) {
    if (process.env.CI) throw new Error("clickhouse-server required on CI (npm test installs it with apt-get as root)");
    console.warn("\n[integration] NOTICE: clickhouse-server is not installed: the ClickHouse half of the metrics contract is SKIPPED (apt-get install clickhouse-server).\n");
    return null;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ads-clickhouse-"));
  for (const sub of ["data", "tmp", "user_files", "format", "log"]) fs.mkdirSync(path.join(dir, sub));
  const [httpPort, tcpPort] = [await freePort(), await freePort()];
  fs.writeFileSync(path.join(dir, "config.xml"), config(dir, httpPort, tcpPort));
  fs.writeFileSync(path.join(dir, "users.xml"), USERS);
  const args = binary.endsWith("/clickhouse") ? ["server", `--config-file=${dir}/config.xml`] : [`--config-file=${dir}/config.xml`];
  const child: ChildProcess = spawn(binary, args, { stdio: "ignore" });
  const url = `http://127.0.0.1:${httpPort}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const force = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(force);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const response = await fetch(`${url}/ping`, { signal: AbortSignal.timeout(1_000) });
      if ((await response.text()).startsWith("Ok")) {
        console.log(`[integration] clickhouse-server (pid ${child.pid}) on ${url}`);
        return { url, stop };
      }
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const log = fs.existsSync(path.join(dir, "log/error.log")) ? fs.readFileSync(path.join(dir, "log/error.log"), "utf8").slice(-2000) : "";
  await stop();
  if (process.env.CI) throw new Error(`clickhouse-server did not start: ${log}`);
  console.warn(`\n[integration] NOTICE: clickhouse-server did not start; the ClickHouse half is SKIPPED.\n${log}\n`);
  return null;
}
