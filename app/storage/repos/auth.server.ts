/** Password-reset tokens and sign-in throttling counters. */
import { createHash } from "node:crypto";
import { recordFailure } from "~/domain/login-throttle";
import type { LoginThrottleData, PasswordResetTokenData } from "~/domain/types";
import { COLLECTIONS, type ConsumeTokenResult, type DocumentStore, type LoginThrottleRepo, type PasswordResetRepo } from "~/storage/port";

/** Whether a stored reset token may still be used at `now` (unknown, used, expired), with its user and epoch. */
export function judgeResetToken(token: PasswordResetTokenData | null, now: Date): ConsumeTokenResult {
  if (!token) return { ok: false, reason: "token.invalid" } as const;
  if (token.usedAt) return { ok: false, reason: "token.used" } as const;
  if (Date.parse(token.expiresAt) <= now.getTime()) return { ok: false, reason: "token.expired" } as const;
  return token.passwordEpoch === undefined ? { ok: true, userId: token.userId } : { ok: true, userId: token.userId, passwordEpoch: token.passwordEpoch };
}

export function createPasswordResetRepo(store: DocumentStore): PasswordResetRepo {
  const C = COLLECTIONS.passwordReset;
  const judge = judgeResetToken;
  return {
    async create(tokenHash, userId, expiresAt, now, passwordEpoch) {
      return store.create<PasswordResetTokenData>(C, tokenHash, {
        userId,
        expiresAt: expiresAt.toISOString(),
        usedAt: null,
        created: now.toISOString(),
        ...(passwordEpoch === undefined ? {} : { passwordEpoch }),
      });
    },
    async peek(tokenHash, now) {
      return judge(await store.get<PasswordResetTokenData>(C, tokenHash), now);
    },
  };
}

/** Keys may hold any character; document ids may not, so they are hashed. */
function throttleId(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export function createLoginThrottleRepo(store: DocumentStore): LoginThrottleRepo {
  const C = COLLECTIONS.loginThrottle;
  return {
    async get(key) {
      return store.get<LoginThrottleData>(C, throttleId(key));
    },
    async recordFailure(key, now, limit) {
      const id = throttleId(key);
      return store.transaction(async (tx) => {
        const current = await tx.get<LoginThrottleData>(C, id);
        const next = recordFailure(current, now, limit);
        tx.set<LoginThrottleData>(C, id, next);
        return { ...next, id, version: (current?.version ?? 0) + 1 };
      });
    },
    async clear(key) {
      await store.delete(C, throttleId(key));
    },
  };
}
