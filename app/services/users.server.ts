/** What the browser may know of the signed-in user: never hashes or session internals. */
import { canSeeSensitive } from "~/domain/permissions";
import type { User } from "~/domain/types";

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
