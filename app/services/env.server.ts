/** The process environment, checked once with zod. Every variable is documented in README.md. */
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import * as z from "zod";

const bool = z
  .enum(["true", "false", "1", "0"])
  .transform((v) => v === "true" || v === "1");

const EnvSchema = z.object({
  NODE_ENV: z.enum(["production", "development", "test"]).default("production"),
  PORT: z.coerce.number().int().positive().default(3000),
  PUBLIC_URL: z.string().url().optional(),
  STORAGE: z.enum(["sqlite", "firestore"]).default("sqlite"),
  DATABASE_URL: z.string().default("./data/console.db"),
  FIRESTORE_PROJECT_ID: z.string().default("ads-console"),
  DATA_DIR: z.string().default("./data"),
  SESSION_SECRET: z.string().min(32).optional(),
  COOKIE_SECURE: bool.optional(),
  SEED_DEMO_DATA: bool.optional(),
  /** Demo wallet and campaigns on top of the demo data (default: with it); browser tests turn it off. */
  SEED_DEMO_CAMPAIGNS: bool.optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default("Ads console <no-reply@example.com>"),
  RETAILER_CURRENCY_LOCALE: z.string().default("fr-FR"),
  RETAILER_TIMEZONE: z.string().default("Europe/Paris"),
  /** The retailer's shop, for the addresses of its search and category pages (search hits' url). */
  RETAILER_SITE_URL: z.string().url().default("https://shop.example.com"),
  PASSWORD_RESET_TTL_MINUTES: z.coerce.number().int().positive().default(60),
  TRUST_PROXY: z.string().default("loopback"),
  /** The ad server's credential for POST /api/events (Authorization: Bearer …). */
  EVENTS_API_KEY: z.string().min(32).optional(),
  /** Seconds between two settlements of ad spend into the wallets (0: none in this process). */
  SETTLEMENT_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(10),
  /** "Campaign soon started": a campaign starting within this many hours (checked every hour). */
  NOTIFY_SOON_STARTED_HOURS: z.coerce.number().positive().default(24),
  /** Reports (spec section 9): a run past this many rows is aborted; a generated file lasts this many days. */
  REPORT_ROW_LIMIT: z.coerce.number().int().positive().default(10_000),
  REPORT_FILE_TTL_DAYS: z.coerce.number().positive().default(7),
  /** 'Campaign display volume down': yesterday's displays under this share of the same weekday's average over four weeks. */
  NOTIFY_DISPLAY_DROP_RATIO: z.coerce.number().gt(0).lt(1).default(0.5),
  /** "Wallets depleting": wallets whose runway is under this many days (spec section 9: 45). */
  NOTIFY_DEPLETION_DAYS: z.coerce.number().int().positive().default(45),
  /** The scheduler's worker loop in this process (off: this instance runs no scheduled work). */
  SCHEDULER: z.enum(["on", "off", "true", "false", "1", "0"]).default("on").transform((v) => v === "on" || v === "true" || v === "1"),
  /** The demo traffic simulator (default: on with the demo campaigns on the embedded database). */
  SIMULATE_TRAFFIC: bool.optional(),
});

export type Env = Omit<z.infer<typeof EnvSchema>, "EVENTS_API_KEY"> & {
  PUBLIC_URL: string;
  SESSION_SECRET: string;
  COOKIE_SECURE: boolean;
  SEED_DEMO_DATA: boolean;
  SEED_DEMO_CAMPAIGNS: boolean;
  SIMULATE_TRAFFIC: boolean;
  OUTBOX_DIR: string;
  /** Null when no key is set and none is generated: /api/events answers 503. */
  EVENTS_API_KEY: string | null;
  /** Where a generated events key was written (the embedded demo), else null. */
  EVENTS_API_KEY_FILE: string | null;
};

let cached: Env | undefined;

/** A secret kept in the data folder so that `npm start` works without configuration. */
function localSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString("hex");
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

export function getEnv(): Env {
  if (cached) return cached;
  const parsed = EnvSchema.safeParse(process.env);
  if (!parsed.success) {
    throw new Error(`Invalid environment: ${z.prettifyError(parsed.error)}`);
  }
  const env = parsed.data;
  const publicUrl = env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
  if (!env.SESSION_SECRET && env.STORAGE === "firestore") {
    throw new Error("SESSION_SECRET (32 characters or more) is required when STORAGE=firestore");
  }
  const seedDemoData = env.SEED_DEMO_DATA ?? env.STORAGE === "sqlite";
  // The embedded demo (SQLite with demo data) gets an events key generated into its data folder,
  // so an ad server (or the demo's traffic) can post events without configuration; anywhere else
  // the key must be set, and /api/events is closed (503) until it is.
  const generateEventsKey = !env.EVENTS_API_KEY && env.STORAGE === "sqlite" && seedDemoData;
  cached = {
    ...env,
    PUBLIC_URL: publicUrl.replace(/\/$/, ""),
    SESSION_SECRET: env.SESSION_SECRET ?? localSecret(env.DATA_DIR, "session-secret"),
    COOKIE_SECURE: env.COOKIE_SECURE ?? publicUrl.startsWith("https:"),
    SEED_DEMO_DATA: seedDemoData,
    SEED_DEMO_CAMPAIGNS: env.SEED_DEMO_CAMPAIGNS ?? env.SEED_DEMO_DATA ?? env.STORAGE === "sqlite",
    SIMULATE_TRAFFIC: env.SIMULATE_TRAFFIC ?? (env.SEED_DEMO_CAMPAIGNS ?? env.SEED_DEMO_DATA ?? env.STORAGE === "sqlite"),
    OUTBOX_DIR: path.join(env.DATA_DIR, "outbox"),
    EVENTS_API_KEY: env.EVENTS_API_KEY ?? (generateEventsKey ? localSecret(env.DATA_DIR, "events-api-key") : null),
    EVENTS_API_KEY_FILE: generateEventsKey ? path.join(env.DATA_DIR, "events-api-key") : null,
  };
  return cached;
}

/** Tests change the environment between cases. */
export function resetEnvForTests(): void {
  cached = undefined;
}
