// The HTTP server: static files, request ids, the origin check, then the body checks and Remix
// (app/http/request-body.server.ts: every body bounded and held to a form before it is read).
import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@remix-run/node";
import compression from "compression";
import fs from "node:fs";
import express from "express";

try {
  process.loadEnvFile(".env");
} catch {
  /* no .env: defaults and the environment apply */
}
process.env.NODE_ENV ??= "production";
const here = path.dirname(fileURLToPath(import.meta.url));
const build = await import(path.join(here, "build/index.js"));
await build.entry.module.boot();

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", process.env.TRUST_PROXY ?? "loopback");
app.use(compression());

app.use((req, res, next) => {
  req.id = req.get("x-request-id")?.slice(0, 64) || randomUUID();
  res.setHeader("X-Request-Id", req.id);
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  if (req.secure) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  next();
});

const publicOrigin = process.env.PUBLIC_URL ? new URL(process.env.PUBLIC_URL).origin : null;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
// Every non-GET request must come from a page of this site (Origin, else Referer).
app.use((req, res, next) => {
  if (SAFE_METHODS.has(req.method)) return next();
  // The JSON APIs (the ad server's events, the statistics and search contracts) authenticate each
  // call by a bearer token, which a browser never sends by itself, and never read the session
  // cookie: a cross-site request cannot forge one, so they are not held to the origin check, and a
  // call without a token gets the API's own 401. Other /api/ routes (signed-in pages') keep it.
  if (build.entry.module.isTokenApiPath(req.path)) return next();
  // The identity provider's page posts its signed SAML response here (ADR 31): it is checked by
  // its signature, never by its origin, which is the IdP's by design.
  if (req.path === "/auth/saml/acs") return next();
  const own = `${req.protocol}://${req.get("host")}`;
  let origin = req.get("origin");
  if (!origin || origin === "null") {
    const referer = req.get("referer");
    try {
      origin = referer ? new URL(referer).origin : undefined;
    } catch {
      origin = undefined;
    }
  }
  if (origin && (origin === own || origin === publicOrigin)) return next();
  res.status(403).type("text/plain").send("Forbidden: cross-origin request");
});

app.use("/build", express.static(path.join(here, "public/build"), { immutable: true, maxAge: "1y" }));
app.use("/locales", express.static(path.join(here, "locales"), { maxAge: "5m" }));
// The other files of public/ (the favicon), looked up only for their own paths: a page's path
// never costs a file system look-up.
const publicFiles = new Set(fs.readdirSync(path.join(here, "public")).filter((name) => name !== "build").map((name) => `/${name}`));
const servePublic = express.static(path.join(here, "public"), { maxAge: "1h" });
app.use((req, res, next) => (publicFiles.has(req.path) ? servePublic(req, res, next) : next()));

const handleRemix = createRequestHandler(build, process.env.NODE_ENV);
app.all(
  "*",
  build.entry.module.createRemixHandler(handleRemix, (req) => ({ requestId: req.id, clientIp: req.ip ?? "unknown" })),
);
// A request Express cannot route (a broken percent-escape in the path): 400 in words, not logged.
app.use(build.entry.module.answerClientErrors);

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "0.0.0.0";
app.listen(port, host, () => console.log(`Ads console listening on http://localhost:${port}`));
