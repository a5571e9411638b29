/**
 * The four app servers of an e2e run, each with its own port and its own fresh DATA_DIR
 * (database, session secret, mail outbox): one for the JS-on specs, one for the JS-off specs,
 * and one each for their stateful specs (*.stateful.spec.ts: a password reset, maintenance mode,
 * the language), which change what every signed-in test relies on. With servers of their own
 * those run, one at a time, from the start of the run beside the parallel specs, instead of
 * after them on the same server with a core left idle.
 *
 * The runner process picks the ports and creates the folders once and publishes them in
 * environment variables (E2E_<NAME>_PORT, E2E_<NAME>_DATA_DIR); worker processes inherit them, so
 * every process agrees on the same servers. Set them yourself to reuse a server you started.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../free-port";

export const SERVER_NAMES = ["js-on", "js-off", "js-on-stateful", "js-off-stateful"] as const;
export type ServerName = (typeof SERVER_NAMES)[number];

export interface E2EServer {
  name: ServerName;
  port: number;
  baseURL: string;
  /** DATA_DIR of the server; the outbox is DATA_DIR/outbox. */
  dataDir: string;
  /** Where the setup project stores each role's signed-in state for this server. */
  authDir: string;
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const AUTH_ROOT = path.join(here, ".auth");

const envKey = (name: ServerName, what: "PORT" | "DATA_DIR") => `E2E_${name.replaceAll("-", "_").toUpperCase()}_${what}`;


function describe(name: ServerName): E2EServer {
  const port = Number(process.env[envKey(name, "PORT")]);
  const dataDir = process.env[envKey(name, "DATA_DIR")]!;
  return {
    name,
    port,
    baseURL: `http://127.0.0.1:${port}`,
    dataDir,
    authDir: path.join(AUTH_ROOT, `${name}-${port}`),
  };
}

/**
 * Called by the config in every process: the first one (the runner) picks free ports and makes
 * temporary data folders; later ones (workers) read what it published.
 */
export async function prepareServers(): Promise<Record<ServerName, E2EServer>> {
  const created: string[] = [];
  for (const name of SERVER_NAMES) {
    const portKey = envKey(name, "PORT");
    const dirKey = envKey(name, "DATA_DIR");
    if (!process.env[portKey]) process.env[portKey] = String(await freePort());
    if (!process.env[dirKey]) {
      process.env[dirKey] = fs.mkdtempSync(path.join(os.tmpdir(), `ads-console-e2e-${name}-`));
      created.push(process.env[dirKey]!);
    }
  }
  const servers = Object.fromEntries(SERVER_NAMES.map((n) => [n, describe(n)])) as Record<ServerName, E2EServer>;
  if (created.length && !process.env.E2E_KEEP_DATA) {
    // The runner removes what it created once the run is over (the servers are stopped by then).
    // E2E_KEEP_DATA=1 keeps the databases and outboxes for a look after a failure.
    process.once("exit", () => {
      for (const dir of created) fs.rmSync(dir, { recursive: true, force: true });
      for (const server of Object.values(servers)) fs.rmSync(server.authDir, { recursive: true, force: true });
    });
  }
  return servers;
}

/** The server a worker's project talks to (from the environment the runner published). */
export function serverFromEnv(name: ServerName): E2EServer {
  if (!process.env[envKey(name, "PORT")]) throw new Error(`${envKey(name, "PORT")} is not set: run the tests through playwright.config.ts`);
  return describe(name);
}
