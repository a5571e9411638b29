/** Sign-in throttling: pure rules over stored failure instants. */

export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const THROTTLE_LOCK_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_ADDRESS = 50;

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
