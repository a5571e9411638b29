/**
 * Signing in, whatever the way in: the e-mail and password check with its throttle (ADR 14)
 * here, and what every sign-in does once the user is known: `continueSignIn` decides whether a
 * second factor is still needed (ADR 30), and a SAML or token path calls it too;
 * `completeSecondFactor` is the second step; `completeSignIn` what every sign-in does at the end.
 * No HTTP: the caller opens the session (app/http/auth.server.ts).
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
import { secondFactorStep } from "~/domain/second-factor";
import type { User } from "~/domain/types";
import { getAccessSettings } from "~/services/access-settings.server";
import { getDummyHash, verifyPassword } from "~/services/passwords.server";
import { getStorage } from "~/services/storage.server";
import { checkSecondFactorCode, type SecondFactorMethod } from "~/services/second-factor.server";
import { loadTeamsOnSignIn } from "~/services/users-admin.server";

/** A signed-in user and the page they land on when no other was asked for. */
export interface SignedIn {
  user: User;
  landing: string;
}

export type SignInMethod = "password" | "saml";

/**
 * Where a sign-in stands once the user's identity is known (password checked, or an identity
 * provider's assertion): signed in, possibly with enrolment still to do (`mustEnrol`: the
 * setting requires a second factor the user has not set up; the console then shows only the
 * enrolment screen), or waiting for a code of the user's second factor (nothing recorded yet:
 * the caller opens a pending session, not a signed-in one).
 */
export type SignInStep =
  | ({ kind: "signed-in"; mustEnrol: boolean } & SignedIn)
  | { kind: "second-factor"; user: User; method: SignInMethod };

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
): Promise<Result<SignInStep>> {
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
  return continueSignIn(user, "password", now);
}

/**
 * Every way in calls this once the user is known: a user with a second factor (or who must use
 * one: an operator while the setting is on, unless exempt) is asked for a code before anything
 * is recorded; anyone else is signed in (and one who must still enrol is told so).
 */
export async function continueSignIn(user: User, method: SignInMethod, now = new Date()): Promise<Result<SignInStep>> {
  if (user.disabled) return fail("unauthenticated", "auth.disabled");
  const step = secondFactorStep(user, await getAccessSettings());
  if (step === "verify") return ok({ kind: "second-factor", user, method });
  const done = await completeSignIn(user, method, now);
  return done.ok ? ok({ kind: "signed-in", mustEnrol: step === "enrol", ...done.value }) : done;
}

/**
 * The second step of a pending sign-in: the user (still the same account: not disabled, no
 * password change since, `epoch`) gives a code of their app or a recovery code; then the sign-in
 * completes. Wrong codes are throttled (app/services/second-factor.server.ts).
 */
export async function completeSecondFactor(
  pending: { userId: string; epoch: number; method: SignInMethod },
  code: string,
  address: string,
  now = new Date(),
): Promise<Result<SignedIn & { secondFactor: SecondFactorMethod }>> {
  const user = await getStorage().users.getOne(pending.userId);
  if (!user || user.disabled || user.sessionEpoch !== pending.epoch || !user.totpSecret) {
    return fail("unauthenticated", "secondFactor:errors.expired");
  }
  const checked = await checkSecondFactorCode(user, code, address, now);
  if (!checked.ok) return checked;
  const done = await completeSignIn(user, pending.method, now);
  return done.ok ? ok({ ...done.value, secondFactor: checked.value }) : done;
}

/**
 * What every sign-in does once the user is known: refuses a disabled account, records the
 * sign-in, loads the user's teams (a pending user becomes active) and picks where they land.
 */
export async function completeSignIn(user: User, method: SignInMethod, now = new Date()): Promise<Result<SignedIn>> {
  if (user.disabled) return fail("unauthenticated", "auth.disabled");
  const signedIn = await getStorage().users.recordSignIn(user.id, method, now);
  const { user: active, landing } = await loadTeamsOnSignIn(signedIn);
  return ok({ user: active, landing });
}
