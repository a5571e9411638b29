/** The signed session cookie, and the small cookies for toasts, language and theme. */
import { createCookie, createCookieSessionStorage, type SessionStorage } from "@remix-run/node";
import type { AccountType, Role } from "~/domain/types";
import { getEnv } from "~/services/env.server";

export interface SessionData {
  userId: string;
  claimsType: AccountType;
  claimsRole: Role;
  epoch: number;
  /** When the session was created or last refreshed (ISO). */
  refreshedAt: string;
}

export const SESSION_MAX_AGE_S = 60 * 60 * 24 * 14;
/** How often an active session is refreshed (and last_refresh_token written). */
export const SESSION_REFRESH_MS = 60 * 60 * 1000;

let storage: SessionStorage<SessionData> | undefined;

export function getSessionStorage(): SessionStorage<SessionData> {
  if (storage) return storage;
  const env = getEnv();
  storage = createCookieSessionStorage<SessionData>({
    cookie: {
      name: "__session",
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: env.COOKIE_SECURE,
      secrets: [env.SESSION_SECRET],
      maxAge: SESSION_MAX_AGE_S,
    },
  });
  return storage;
}

export async function getSession(request: Request) {
  return getSessionStorage().getSession(request.headers.get("Cookie"));
}

/** The language chosen while signed out. */
export const localeCookie = createCookie("lng", { path: "/", sameSite: "lax", httpOnly: true, maxAge: 60 * 60 * 24 * 365 });
