/**
 * Signing in, whatever the way in: the e-mail and password check with its throttle (ADR 14)
 * here, and what every sign-in does once the user is known (`completeSignIn`), which a SAML or
 * token path calls too. No HTTP: the caller opens the session (app/http/auth.server.ts).
 */
import {
  isKnownAddress,
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_ADDRESS,
  MAX_FAILURES_PER_PAIR,
  signInWaitMinutes,
  throttleKeys,
} from "~/domain/login-throttle";
import { fail, ok, type Failure, type Result } from "~/domain/result";
import type { User } from "~/domain/types";
import { getDummyHash, verifyPassword } from "~/services/passwords.server";
import { getStorage } from "~/services/storage.server";
import { loadTeamsOnSignIn } from "~/services/users-admin.server";

/** A signed-in user and the page they land on when no other was asked for. */
export interface SignedIn {
  user: User;
  landing: string;
}

/** Too many attempts: the reason says how many minutes to wait. */
const tooManyAttempts = (minutes: number): Failure => fail("too-many", "auth.tooManyAttempts", { values: { minutes } });

/**
 * Checks the throttle of this account from this address, then the credentials and the account.
 * A refusal counts against the pair, the address and the account; a sign-in makes the address
 * known to the account (its account-wide lock no longer keeps that address out).
 */
export async function signInWithPassword(
  credentials: { email: string; password: string },
  address: string,
  now = new Date(),
): Promise<Result<SignedIn>> {
  const storage = getStorage();
  const throttle = storage.loginThrottle;
  const keys = throttleKeys(credentials.email, address);
  const [pair, byAddress, account, known] = await Promise.all([
    throttle.get(keys.pair),
    throttle.get(keys.address),
    throttle.get(keys.account),
    throttle.get(keys.known),
  ]);
  const knownAddress = isKnownAddress(known, now);
  const wait = signInWaitMinutes({ pair, address: byAddress, account, known: knownAddress }, now);
  if (wait > 0) return tooManyAttempts(wait);

  const user = await storage.users.getByEmail(credentials.email);
  // Verified against a dummy hash when there is no user, so timing reveals nothing.
  const valid = await verifyPassword(credentials.password, user?.passwordHash ?? (await getDummyHash()));
  if (!user || !valid || user.disabled) {
    const [pairState, addressState, accountState] = await Promise.all([
      throttle.recordFailure(keys.pair, now, MAX_FAILURES_PER_PAIR),
      throttle.recordFailure(keys.address, now, MAX_FAILURES_PER_ADDRESS),
      throttle.recordFailure(keys.account, now, MAX_FAILURES_PER_ACCOUNT),
    ]);
    const minutes = signInWaitMinutes({ pair: pairState, address: addressState, account: accountState, known: knownAddress }, now);
    if (minutes > 0) return tooManyAttempts(minutes);
    return fail("unauthenticated", user && valid ? "auth.disabled" : "auth.invalidCredentials");
  }
  await Promise.all([throttle.clear(keys.pair), throttle.recordFailure(keys.known, now, Number.MAX_SAFE_INTEGER)]);
  return completeSignIn(user, "password", now);
}

/**
 * What every sign-in does once the user is known: refuses a disabled account, records the
 * sign-in, loads the user's teams (a pending user becomes active) and picks where they land.
 */
export async function completeSignIn(user: User, method: "password" | "saml", now = new Date()): Promise<Result<SignedIn>> {
  if (user.disabled) return fail("unauthenticated", "auth.disabled");
  const signedIn = await getStorage().users.recordSignIn(user.id, method, now);
  const { user: active, landing } = await loadTeamsOnSignIn(signedIn);
  return ok({ user: active, landing });
}
