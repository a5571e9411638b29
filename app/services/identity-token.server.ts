/**
 * Identity tokens: short-lived JWTs (ES256) the console mints for a signed-in user to call the
 * /metrics contract, verifiable by any service from the published JWKS
 * (/.well-known/jwks.json). The signing keys live in storage, shared by every instance, and
 * rotate: a new key signs after ROTATE_AFTER; retired keys stay published until every token they
 * signed has expired.
 *
 * A token carries what its holder may read: the user's account type and, for a supplier, the
 * teams listing them at minting time (a token lives 5 minutes).
 */
import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, createLocalJWKSet, type JWK } from "jose";
import { rightsAccountType } from "~/domain/permissions";
import type { User } from "~/domain/types";
import type { SigningKey } from "~/storage/port";
import { getEnv } from "~/services/env.server";
import { metricsTeamsFor } from "~/services/metrics.server";
import { getStorage } from "~/services/storage.server";

export const TOKEN_TTL_SECONDS = 300;
export const ROTATE_AFTER_MS = 30 * 24 * 3_600_000;
/** A retired key stays published this long after it was made (well past its last token). */
export const KEEP_KEYS_MS = 2 * ROTATE_AFTER_MS;
const CACHE_MS = 60_000;
export const TOKEN_AUDIENCE = "ads-console:metrics";

export interface IdentityClaims {
  userId: string;
  accountType: User["claims"]["type"];
  /** The teams the holder may read; null: every team. */
  teams: string[] | null;
}

let cache: { keys: SigningKey[]; at: number } | null = null;
/**
 * When a token naming an unknown key last made the keys be read again from storage: at most once
 * per FRESH_READ_MS, so tokens with made-up key ids (anyone can send them) never cost a storage
 * read each; a key another instance has just made is found within that time.
 */
let freshReadAt = Number.NEGATIVE_INFINITY;
export const FRESH_READ_MS = 5_000;

async function newKey(now: Date): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const kid = randomUUID();
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: "ES256", use: "sig" };
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" };
  return { kid, alg: "ES256", privateJwk, publicJwk, created: now.toISOString() };
}

/** The published keys, newest first, rotating when the newest is too old. */
export async function signingKeys(now = new Date(), { fresh = false } = {}): Promise<SigningKey[]> {
  if (!fresh && cache && now.getTime() - cache.at < CACHE_MS) return cache.keys;
  const repo = getStorage().signingKeys;
  let keys = await repo.list();
  if (!keys[0] || now.getTime() - Date.parse(keys[0].created) >= ROTATE_AFTER_MS) {
    keys = await repo.rotate(await newKey(now), now, ROTATE_AFTER_MS, KEEP_KEYS_MS);
  }
  cache = { keys, at: now.getTime() };
  return keys;
}

/** Forget the cached keys (tests move time). */
export function resetSigningKeyCache(): void {
  cache = null;
  freshReadAt = Number.NEGATIVE_INFINITY;
}

function issuer(): string {
  return getEnv().PUBLIC_URL;
}

export async function mintIdentityToken(user: Pick<User, "id" | "claims" | "teamIds">, now = new Date()): Promise<string> {
  const [key] = await signingKeys(now);
  const privateKey = await importJWK(key.privateJwk as JWK, "ES256");
  // The type whose rights the session carries: a stepped-down operator's token says retailer (ADR 40).
  return new SignJWT({ typ: rightsAccountType(user.claims), teams: metricsTeamsFor(user) })
    .setProtectedHeader({ alg: "ES256", kid: key.kid, typ: "JWT" })
    .setIssuer(issuer())
    .setAudience(TOKEN_AUDIENCE)
    .setSubject(user.id)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(now.getTime() / 1000) + TOKEN_TTL_SECONDS)
    .sign(privateKey);
}

/** The JWKS every verifier reads: public keys only. */
export async function publicJwks(now = new Date()): Promise<{ keys: Record<string, unknown>[] }> {
  return { keys: (await signingKeys(now)).map((k) => k.publicJwk) };
}

/** The token's claims, or null when it is missing, malformed, forged, expired or not for us. */
export async function verifyIdentityToken(token: string | null | undefined, now = new Date()): Promise<IdentityClaims | null> {
  if (!token || token.length > 4096) return null;
  for (const fresh of [false, true]) {
    const jwks = createLocalJWKSet({ keys: (await signingKeys(now, { fresh })).map((k) => k.publicJwk as JWK) });
    try {
      const { payload } = await jwtVerify(token, jwks, {
        issuer: issuer(),
        audience: TOKEN_AUDIENCE,
        algorithms: ["ES256"],
        currentDate: now,
        maxTokenAge: TOKEN_TTL_SECONDS + 60,
      });
      const type = payload.typ;
      const teams = payload.teams;
      if (typeof payload.sub !== "string" || (type !== "operator" && type !== "retailer" && type !== "supplier")) return null;
      if (!(teams === null || (Array.isArray(teams) && teams.every((t) => typeof t === "string")))) return null;
      if (type === "supplier" && teams === null) return null;
      return { userId: payload.sub, accountType: type, teams: teams as string[] | null };
    } catch (error) {
      // An unknown key id may be a key another instance has just made: read the keys again once.
      if ((error as { code?: string }).code === "ERR_JWKS_NO_MATCHING_KEY" && !fresh && Date.now() - freshReadAt >= FRESH_READ_MS) {
        freshReadAt = Date.now();
        continue;
      }
      return null;
    }
  }
  return null;
}
