/**
 * Sign-in throttling (ADR 14): pure rules over stored failure instants. Failures are counted per
 * (account, address) pair, per address and per account. The pair and the address lock; the
 * account-wide count locks only addresses the account has not signed in from, so a stranger's
 * failures never keep a user out at their usual address, while a brute force spread over many
 * addresses is still stopped.
 */

export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const THROTTLE_LOCK_MS = 15 * 60 * 1000;
/** Guesses at one account from one address. */
export const MAX_FAILURES_PER_PAIR = 5;
/** Guesses from one address, whatever the accounts. */
export const MAX_FAILURES_PER_ADDRESS = 50;
/** Guesses at one account from every address together. */
export const MAX_FAILURES_PER_ACCOUNT = 20;
/** An address the account signed in from stays known this long after the last sign-in. */
export const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60 * 1000;

export const throttleKeys = (email: string, address: string) => {
  const account = email.trim().toLowerCase();
  return {
    pair: `pair:${account}|${address}`,
    address: `ip:${address}`,
    account: `account:${account}`,
    /** Marks an address the account signed in from (its instants are sign-ins, not failures). */
    known: `known:${account}|${address}`,
  };
};

/** Whether the account signed in from this address recently (the `known` key's state). */
export function isKnownAddress(state: ThrottleState | null, now: Date): boolean {
  const last = state?.failures.at(-1);
  return last !== undefined && now.getTime() - Date.parse(last) < KNOWN_ADDRESS_MS;
}

export interface ThrottleStates {
  pair: ThrottleState | null;
  address: ThrottleState | null;
  account: ThrottleState | null;
  known: ThrottleState | null;
}

/** Minutes before this address may try this account again, or 0 when it may try now. */
export function signInWaitMinutes(states: Omit<ThrottleStates, "known"> & { known: boolean }, now: Date): number {
  const own = Math.max(lockMinutesLeft(states.pair, now), lockMinutesLeft(states.address, now));
  const accountWide = states.known ? 0 : lockMinutesLeft(states.account, now);
  return Math.max(own, accountWide);
}

export interface ThrottleState {
  failures: string[];
  lockedUntil: string | null;
}

/** Minutes left on a lock, or 0 when attempts are allowed. */
export function lockMinutesLeft(state: ThrottleState | null, now: Date): number {
  if (!state?.lockedUntil) return 0;
  const left = Date.parse(state.lockedUntil) - now.getTime();
  return left > 0 ? Math.ceil(left / 60_000) : 0;
}

/** The state after one more failure: failures older than the window are dropped. */
export function recordFailure(state: ThrottleState | null, now: Date, limit: number): ThrottleState {
  const since = now.getTime() - THROTTLE_WINDOW_MS;
  const failures = (state?.failures ?? [])
    .filter((at) => Date.parse(at) > since)
    .concat(now.toISOString())
    .slice(-limit);
  const stillLocked = state?.lockedUntil && Date.parse(state.lockedUntil) > now.getTime();
  const lockedUntil =
    failures.length >= limit
      ? new Date(now.getTime() + THROTTLE_LOCK_MS).toISOString()
      : stillLocked
        ? state!.lockedUntil
        : null;
  return { failures: failures.length >= limit ? [] : failures, lockedUntil };
}

/** Forgotten-password e-mails per account, and requests per address, in the window (ADR 14). */
export const MAX_RESET_MAILS_PER_ACCOUNT = 3;
export const MAX_RESET_REQUESTS_PER_ADDRESS = 10;

export const resetThrottleKeys = (email: string, address: string) => ({
  account: `reset-account:${email.trim().toLowerCase()}`,
  address: `reset-ip:${address}`,
});

/**
 * Wrong passwords typed to confirm a change while signed in (the password change, new recovery
 * codes, turning the second factor off): counted per account like sign-in guesses, so a session
 * in other hands cannot try passwords at full speed.
 */
export const MAX_PASSWORD_CONFIRM_FAILURES = 5;
export const passwordConfirmKey = (userId: string) => `confirm:${userId}`;
