/**
 * Service credentials: machine callers (the ad server posting events) authenticate with
 * `Authorization: Bearer <key>`, not with a user session. Keys are compared in constant time
 * (their SHA-256 digests, so neither the length nor a prefix leaks through timing).
 */
import { createHash, timingSafeEqual } from "node:crypto";

export type BearerCheck =
  | { ok: true }
  /** 401: no bearer token, or not the key. */
  | { ok: false; status: 401; error: "unauthorized" }
  /** 503: no key is configured, so nothing can be accepted. */
  | { ok: false; status: 503; error: "notConfigured" };

/** The bearer token of a request, or null without one. */
export function bearerToken(request: Request): string | null {
  const header = request.headers.get("Authorization") ?? "";
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match ? match[1]! : null;
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/** Whether two secrets are equal, in time independent of where they differ. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** The request carries the expected key; `expected` null means none is configured. */
export function checkBearer(request: Request, expected: string | null): BearerCheck {
  if (!expected) return { ok: false, status: 503, error: "notConfigured" };
  const token = bearerToken(request);
  if (!token || !sameSecret(token, expected)) return { ok: false, status: 401, error: "unauthorized" };
  return { ok: true };
}
