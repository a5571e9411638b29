// The machine parts `npm test` needs beyond npm packages: a Chromium for the browser tests, Java
// for the Firestore emulator and clickhouse-server for the metrics store's contract suite. Where one is missing it is installed: with apt-get when this is
// Debian/Ubuntu and we are root, else with Playwright's own installer for the browser. Where that
// cannot be done, one line says what to run, and `npm test` stops.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

function onPath(name) {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const hasApt = !!onPath("apt-get");
let aptUpdated = false;

function aptInstall(packages) {
  if (!isRoot || !hasApt) return false;
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  if (!aptUpdated) {
    console.log("apt-get update");
    spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    aptUpdated = true;
  }
  console.log(`apt-get install ${packages.join(" ")}`);
  const result = spawnSync("apt-get", ["install", "-y", "-qq", ...packages], { stdio: ["ignore", "ignore", "inherit"], env });
  return result.status === 0;
}

/** Each entry: is it here, how to get it, and the one line to print when it cannot be got. */
const tools = [
  {
    name: "Chromium (browser tests)",
    present: () =>
      !!(process.env.CHROMIUM_PATH && fs.existsSync(process.env.CHROMIUM_PATH)) ||
      !!onPath("chromium") ||
      !!onPath("chromium-browser"),
    install: () =>
      aptInstall(["chromium"]) ||
      spawnSync("npx", ["playwright", "install", "chromium"], { stdio: "inherit" }).status === 0,
    hint: "Install a Chromium: `sudo apt-get install chromium` (or `npx playwright install chromium`, or set CHROMIUM_PATH).",
  },
  {
    name: "Java (Firestore emulator)",
    present: () => !!onPath("java"),
    install: () => aptInstall(["openjdk-17-jre-headless"]),
    hint: "Install Java 17: `sudo apt-get install openjdk-17-jre-headless`.",
  },
  {
    name: "clickhouse-server (metrics store contract)",
    present: () => !!onPath("clickhouse-server") || fs.existsSync("/usr/sbin/clickhouse-server") || !!process.env.CLICKHOUSE_URL,
    install: () => aptInstall(["clickhouse-server"]),
    hint: "Install ClickHouse: `sudo apt-get install clickhouse-server` (or set CLICKHOUSE_URL to a running server).",
  },
];

let missing = 0;
for (const tool of tools) {
  if (tool.present()) continue;
  console.log(`${tool.name} is missing: installing it`);
  // Playwright's installer succeeds without putting anything on PATH; its browser is found by
  // tests/e2e/browser.ts, so its exit status is what counts for the browser.
  const installed = tool.install();
  if (!installed && !tool.present()) {
    console.error(tool.hint);
    missing += 1;
  }
}
process.exit(missing ? 1 : 0);
