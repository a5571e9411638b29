import { describe, expect, it } from "vitest";
import {
  isKnownAddress,
  lockMinutesLeft,
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_ADDRESS,
  MAX_FAILURES_PER_PAIR,
  recordFailure,
  signInWaitMinutes,
  throttleKeys,
  type ThrottleState,
} from "~/domain/login-throttle";

const T0 = new Date("2025-03-10T09:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const MIN = 60_000;

function fail(times: number, limit: number, start: ThrottleState | null = null, stepMs = 1_000, from = T0) {
  let state = start;
  for (let i = 0; i < times; i++) state = recordFailure(state, new Date(from.getTime() + i * stepMs), limit);
  return state!;
}

describe("login throttle", () => {
  it("counts failures without locking below the limit", () => {
    const state = fail(4, 5);
    expect(state.failures).toHaveLength(4);
    expect(state.lockedUntil).toBeNull();
    expect(lockMinutesLeft(state, at(5_000))).toBe(0);
  });

  it("locks on the fifth failure for an e-mail, for 15 minutes", () => {
    const state = fail(5, 5);
    const fifth = at(4_000);
    expect(state.lockedUntil).toBe(new Date(fifth.getTime() + 15 * MIN).toISOString());
    // The counter starts again once locked.
    expect(state.failures).toEqual([]);
    expect(lockMinutesLeft(state, fifth)).toBe(15);
    expect(lockMinutesLeft(state, new Date(fifth.getTime() + 14 * MIN + 30_000))).toBe(1);
    expect(lockMinutesLeft(state, new Date(fifth.getTime() + 7 * MIN + 1))).toBe(8);
  });

  it("lets attempts through again when the lock expires", () => {
    const state = fail(5, 5);
    const until = Date.parse(state.lockedUntil!);
    expect(lockMinutesLeft(state, new Date(until - 1))).toBe(1);
    expect(lockMinutesLeft(state, new Date(until))).toBe(0);
    expect(lockMinutesLeft(state, new Date(until + MIN))).toBe(0);
    // A failure after expiry starts a fresh count: no lock.
    const after = recordFailure(state, new Date(until + MIN), 5);
    expect(after.lockedUntil).toBeNull();
    expect(after.failures).toHaveLength(1);
  });

  it("keeps an existing lock while failures go on during it", () => {
    const locked = fail(5, 5);
    const during = recordFailure(locked, at(5 * MIN), 5);
    expect(during.lockedUntil).toBe(locked.lockedUntil);
    expect(during.failures).toHaveLength(1);
  });

  it("forgets failures older than the window", () => {
    const four = fail(4, 5); // at T0 .. T0+3 s
    const later = recordFailure(four, at(15 * MIN + 3_001), 5);
    expect(later.failures).toEqual([at(15 * MIN + 3_001).toISOString()]);
    expect(later.lockedUntil).toBeNull();
    // Only those inside the window count: two of the four are still inside here.
    const partly = recordFailure(four, at(15 * MIN + 1_500), 5);
    expect(partly.failures).toHaveLength(3);
    expect(partly.lockedUntil).toBeNull();
  });

  it("five failures spread over more than the window never lock", () => {
    const state = fail(12, 5, null, 4 * MIN); // one every 4 minutes: at most 4 inside 15 minutes
    expect(state.lockedUntil).toBeNull();
    expect(state.failures.length).toBeLessThanOrEqual(4);
  });

  it("locks an address after 50 failures, not 49", () => {
    const forty9 = fail(49, MAX_FAILURES_PER_ADDRESS, null, 500);
    expect(forty9.lockedUntil).toBeNull();
    expect(lockMinutesLeft(forty9, at(49 * 500))).toBe(0);
    const fifty = recordFailure(forty9, at(49 * 500), MAX_FAILURES_PER_ADDRESS);
    expect(fifty.lockedUntil).not.toBeNull();
    expect(lockMinutesLeft(fifty, at(49 * 500))).toBe(15);
  });

  it("has no lock without state", () => {
    expect(lockMinutesLeft(null, T0)).toBe(0);
    expect(lockMinutesLeft({ failures: [], lockedUntil: null }, T0)).toBe(0);
  });
});

describe("who waits: the pair, the address, and the account for addresses it never signed in from", () => {
  const DAY = 24 * 60 * MIN;
  const lockedPair = fail(MAX_FAILURES_PER_PAIR, MAX_FAILURES_PER_PAIR);
  const lockedAddress = fail(MAX_FAILURES_PER_ADDRESS, MAX_FAILURES_PER_ADDRESS, null, 100);
  const lockedAccount = fail(MAX_FAILURES_PER_ACCOUNT, MAX_FAILURES_PER_ACCOUNT, null, 100);
  const now = at(10_000);
  const none = { pair: null, address: null, account: null, known: false };

  it("nobody waits without failures", () => {
    expect(signInWaitMinutes(none, now)).toBe(0);
  });

  it("a locked pair or address waits, known or not", () => {
    expect(signInWaitMinutes({ ...none, pair: lockedPair }, now)).toBe(15);
    expect(signInWaitMinutes({ ...none, pair: lockedPair, known: true }, now)).toBe(15);
    expect(signInWaitMinutes({ ...none, address: lockedAddress, known: true }, now)).toBe(15);
  });

  it("an account attacked from many addresses locks new addresses, not the ones the user signs in from", () => {
    expect(signInWaitMinutes({ ...none, account: lockedAccount }, now)).toBe(15);
    expect(signInWaitMinutes({ ...none, account: lockedAccount, known: true }, now)).toBe(0);
  });

  it("the account-wide count locks at 20 failures, the pair at 5", () => {
    expect(fail(MAX_FAILURES_PER_ACCOUNT - 1, MAX_FAILURES_PER_ACCOUNT).lockedUntil).toBeNull();
    expect(lockedAccount.lockedUntil).not.toBeNull();
    expect(fail(4, MAX_FAILURES_PER_PAIR).lockedUntil).toBeNull();
    expect(lockedPair.lockedUntil).not.toBeNull();
  });

  it("an address stays known for 30 days after the last sign-in from it", () => {
    const signedIn = recordFailure(null, T0, Number.MAX_SAFE_INTEGER);
    expect(isKnownAddress(signedIn, T0)).toBe(true);
    expect(isKnownAddress(signedIn, new Date(T0.getTime() + 29 * DAY))).toBe(true);
    expect(isKnownAddress(signedIn, new Date(T0.getTime() + 30 * DAY))).toBe(false);
    expect(isKnownAddress(null, T0)).toBe(false);
  });

  it("keys an account by its lower-cased e-mail, the pair by account and address", () => {
    const keys = throttleKeys("  Ops@Retailer.Example ", "10.0.0.1");
    expect(keys).toEqual({
      pair: "pair:ops@retailer.example|10.0.0.1",
      address: "ip:10.0.0.1",
      account: "account:ops@retailer.example",
      known: "known:ops@retailer.example|10.0.0.1",
    });
    expect(throttleKeys("a@b.example", "10.0.0.2").pair).not.toBe(throttleKeys("a@b.example", "10.0.0.1").pair);
  });
});
