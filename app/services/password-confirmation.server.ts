/**
 * The current password typed by a signed-in user to confirm a change (ADR 57): checked under a
 * throttle per account, as sign-in is (ADR 14). Five wrong passwords in 15 minutes lock the check
 * for 15 minutes; a right one clears the count. No HTTP.
 */
import { lockMinutesLeft, MAX_PASSWORD_CONFIRM_FAILURES, passwordConfirmKey } from "~/domain/login-throttle";
import { fail, ok, type Failure, type Result } from "~/domain/result";
import type { User } from "~/domain/types";
import { getStorage } from "~/services/storage.server";
import { verifyPassword } from "~/services/passwords.server";

const locked = (minutes: number, field: string): Failure => fail("too-many", "password.tooManyAttempts", { field, values: { minutes } });

/**
 * Whether `password` is the user's; `wrong` is the failure to give for a wrong one (its field is
 * the form's). While locked the password is not even checked.
 */
export async function confirmPassword(user: Pick<User, "id" | "passwordHash">, password: string, wrong: Failure, now = new Date()): Promise<Result<void>> {
  const throttle = getStorage().loginThrottle;
  const key = passwordConfirmKey(user.id);
  const field = wrong.field ?? "password";
  const wait = lockMinutesLeft(await throttle.get(key), now);
  if (wait > 0) return locked(wait, field);
  if (await verifyPassword(password, user.passwordHash)) {
    await throttle.clear(key);
    return ok();
  }
  const state = await throttle.recordFailure(key, now, MAX_PASSWORD_CONFIRM_FAILURES);
  const minutes = lockMinutesLeft(state, now);
  return minutes > 0 ? locked(minutes, field) : wrong;
}
