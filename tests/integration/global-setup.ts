/**
 * Integration-test global setup: starts clickhouse-server for the metrics contract
 * (clickhouse-server.ts) and the official Firestore emulator (the jar installed by
 * the Debian package google-cloud-cli-firestore-emulator, run directly on Java, not through
 * gcloud) unless FIRESTORE_EMULATOR_HOST already points at one, and stops it by its PID.
 *
 * Where no emulator can be found the Firestore half is skipped with a notice
 * (SKIP_FIRESTORE=1); on CI (CI set) that is an error instead.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import type { TestProject } from "vitest/node";
import { startClickHouse } from "./clickhouse-server";
import { freePort } from "../free-port";

const DEFAULT_JAR = "/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud-firestore-emulator.jar";
const MAIN_CLASS = "com.google.cloud.datastore.emulator.firestore.CloudFirestore";
const READY_TIMEOUT_MS = 60_000;

declare module "vitest" {
  export interface ProvidedContext {
    firestoreEmulatorHost: string | null;
    /** The ClickHouse server of the metrics contract (tests/integration/clickhouse-server.ts). */
    clickhouseUrl: string | null;
  }
}

function findJar(): string | null {
  const candidates: string[] = [];
  if (process.env.FIRESTORE_EMULATOR_JAR) candidates.push(process.env.FIRESTORE_EMULATOR_JAR);
  try {
    const listed = execFileSync("dpkg", ["-L", "google-cloud-cli-firestore-emulator"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    candidates.push(...listed.split("\n").filter((line) => line.endsWith("emulator.jar")));
  } catch {
    // Not a Debian system, or the package is not installed.
  }
  candidates.push(DEFAULT_JAR);
  return candidates.find((file) => fs.existsSync(file)) ?? null;
}

function javaAvailable(): boolean {
  try {
    execFileSync("java", ["-version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}


const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntilReady(child: ChildProcess, host: string, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The Firestore emulator exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
    }
    try {
      const response = await fetch(`http://${host}/`, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      return;
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`The Firestore emulator did not answer on ${host} within ${READY_TIMEOUT_MS / 1000}s:\n${output()}`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  const pid = child.pid;
  return new Promise((resolve) => {
    const force = setTimeout(() => {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }, 5_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      clearTimeout(force);
      resolve();
    }
  });
}

function unavailable(reason: string, project: TestProject): undefined {
  if (process.env.CI) {
    throw new Error(`Firestore emulator required on CI: ${reason}`);
  }
  console.warn(
    `\n[integration] NOTICE: ${reason}. The Firestore half of the storage contract is SKIPPED.\n` +
      "[integration] Install google-cloud-cli-firestore-emulator (and Java 17), set FIRESTORE_EMULATOR_JAR,\n" +
      "[integration] or point FIRESTORE_EMULATOR_HOST at a running emulator to run it.\n",
  );
  process.env.SKIP_FIRESTORE = "1";
  project.provide("firestoreEmulatorHost", null);
  return undefined;
}

/** Starts the Firestore emulator and clickhouse-server; the teardown stops both. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const clickhouse = await startClickHouse();
  project.provide("clickhouseUrl", clickhouse?.url ?? null);
  let stopFirestore: (() => Promise<void>) | undefined;
  try {
    stopFirestore = await setupFirestore(project);
  } catch (error) {
    await clickhouse?.stop();
    throw error;
  }
  return async () => {
    await stopFirestore?.();
    await clickhouse?.stop();
  };
}

async function setupFirestore(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  // Against the emulator, Google's auth library need not probe for a GCE metadata server (it
  // only prints warnings here); test workers inherit this environment.
  process.env.METADATA_SERVER_DETECTION ??= "none";
  if (process.env.FIRESTORE_EMULATOR_HOST) {
    delete process.env.SKIP_FIRESTORE;
    project.provide("firestoreEmulatorHost", process.env.FIRESTORE_EMULATOR_HOST);
    return undefined;
  }
  const jar = findJar();
  if (!jar) return unavailable("no Firestore emulator jar found", project);
  if (!javaAvailable()) return unavailable(`found ${jar} but no java to run it`, project);

  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  let log = "";
  const child = spawn("java", ["-cp", jar, MAIN_CLASS, "start", "--host=127.0.0.1", `--port=${port}`], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const collect = (chunk: Buffer) => {
    log = (log + chunk.toString("utf8")).slice(-20_000);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const spawnError = new Promise<never>((_, reject) => child.once("error", reject));
  try {
    await Promise.race([waitUntilReady(child, host, () => log), spawnError]);
  } catch (error) {
    await stop(child);
    if (process.env.CI) throw error;
    return unavailable(`the Firestore emulator did not start (${(error as Error).message})`, project);
  }
  spawnError.catch(() => {});

  process.env.FIRESTORE_EMULATOR_HOST = host;
  delete process.env.SKIP_FIRESTORE;
  project.provide("firestoreEmulatorHost", host);
  console.log(`[integration] Firestore emulator (pid ${child.pid}) on ${host}`);

  return async () => {
    await stop(child);
    delete process.env.FIRESTORE_EMULATOR_HOST;
  };
}
