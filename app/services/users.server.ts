/** What the browser may know of the signed-in user: never hashes or session internals. */
import { auditActor } from "~/domain/operators";
import { canSeeSensitive } from "~/domain/permissions";
import { conflict, ok, type Result } from "~/domain/result";
import type { DisplayPreferences, User } from "~/domain/types";
import { getStorage } from "~/services/storage.server";
import { ConflictError } from "~/storage/port";

export function toSessionUser(user: User) {
  return {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    firstname: user.firstname,
    lastname: user.lastname,
    photoURL: user.photoURL,
    locale: user.locale,
    timezone: user.timezone,
    claims: user.claims,
    roleByTeam: user.roleByTeam,
    preferences: user.preferences,
    notificationPrefs: user.notificationPrefs,
    lastSignIn: user.lastSignIn,
    seesSensitive: canSeeSensitive(user.claims),
  };
}
export type SessionUser = ReturnType<typeof toSessionUser>;

export interface ProfileInput {
  version: number;
  displayName: string;
  firstname: string;
  lastname: string;
  locale: string;
  timezone: string;
  notificationPrefs: User["notificationPrefs"];
}

/** The signed-in user's own profile; a stale version (another tab saved first) is a conflict. */
export async function updateProfile(user: User, input: ProfileInput): Promise<Result<User>> {
  const { version, ...patch } = input;
  try {
    return ok(await getStorage().users.update(user.id, patch, auditActor(user), { expectVersion: version }));
  } catch (error) {
    if (error instanceof ConflictError) return conflict();
    throw error;
  }
}

/**
 * The user's own display preferences (theme, right-to-left, menu collapsed) and language, kept
 * on their profile; the last change wins (no version: each is one click).
 */
export async function updateUserPreferences(user: User, change: { preferences?: DisplayPreferences; locale?: string }): Promise<Result<User>> {
  return ok(await getStorage().users.update(user.id, change, auditActor(user)));
}
