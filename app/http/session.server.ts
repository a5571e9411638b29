/**
 * Sessions kept in storage (the signed cookie holds only a random id), so signing out, a
 * password change or a disabled account ends a session on every server instance; and the small
 * cookies for toasts, language and theme.
 */
import { randomBytes } from "node:crypto";
import { createCookie, createSessionStorage, type SessionStorage } from "@remix-run/node";
import type { AccountType, Role } from "~/domain/types";
import { getEnv } from "~/services/env.server";
import { getStorage } from "~/services/storage.server";

export interface SessionData {
  userId: string;
  claimsType: AccountType;
  claimsRole: Role;
  epoch: number;
  /** When the session was created or last refreshed (ISO). */
  refreshedAt: string;
  /** 'Log as': the user the operator acts as, and that user's claims and epoch when it began. */
  loggedAs?: string;
  loggedAsType?: AccountType;
  loggedAsRole?: Role;
  loggedAsEpoch?: number;
  /** The role an operator or ADMIN stepped down to for this session. */
  steppedDown?: Role;
  /** How this session passed the second factor (ADR 30): a code, a recovery code, or enrolling in it. */
  secondFactor?: "totp" | "recovery" | "enrolled";
  /**
   * A pending sign-in (ADR 30): the identity is known (password or SSO), a code is still due.
   * Such a session has no `userId`: it is signed in to nothing but the code form.
   */
  pendingUserId?: string;
  pendingEpoch?: number;
  pendingMethod?: "password" | "saml";
  /** When the identity was checked (ISO): the code must come within PENDING_SECOND_FACTOR_MS. */
  pendingSince?: string;
  /** The page asked for before signing in (checked again when used). */
  pendingTo?: string;
  /** A secret shown for enrolment, kept here (server side) until a first code confirms it. */
  enrolSecret?: string;
  /** Recovery codes just made, shown once by the next page and then forgotten. */
  recoveryCodes?: string[];
}

export const SESSION_MAX_AGE_S = 60 * 60 * 24 * 14;
/** How often an active session is refreshed (and last_refresh_token written). */
export const SESSION_REFRESH_MS = 60 * 60 * 1000;

let storage: SessionStorage<SessionData> | undefined;

const expiryOf = (expires: Date | undefined) => expires ?? new Date(Date.now() + SESSION_MAX_AGE_S * 1000);

export function getSessionStorage(): SessionStorage<SessionData> {
  if (storage) return storage;
  const env = getEnv();
  storage = createSessionStorage<SessionData>({
    cookie: {
      name: "__session",
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: env.COOKIE_SECURE,
      secrets: [env.SESSION_SECRET],
      maxAge: SESSION_MAX_AGE_S,
    },
    async createData(data, expires) {
      const id = randomBytes(32).toString("base64url");
      await getStorage().sessions.create(id, data as Record<string, unknown>, expiryOf(expires), new Date());
      return id;
    },
    async readData(id) {
      const record = await getStorage().sessions.get(id, new Date());
      return (record?.data as Partial<SessionData> | undefined) ?? null;
    },
    async updateData(id, data, expires) {
      // A session ended meanwhile (signed out in another tab) is not brought back.
      await getStorage().sessions.update(id, data as Record<string, unknown>, expiryOf(expires));
    },
    async deleteData(id) {
      await getStorage().sessions.delete(id);
    },
  });
  return storage;
}

/** The session of a request, read from storage once per request. */
const sessionsOfRequests = new WeakMap<Request, ReturnType<SessionStorage<SessionData>["getSession"]>>();

export async function getSession(request: Request) {
  let session = sessionsOfRequests.get(request);
  if (!session) {
    session = getSessionStorage().getSession(request.headers.get("Cookie"));
    sessionsOfRequests.set(request, session);
  }
  return session;
}

/** Ends every session of a user, on every server instance (e.g. when the account is disabled). */
export async function endUserSessions(userId: string): Promise<void> {
  await getStorage().sessions.deleteForUser(userId);
}

/** The language chosen while signed out. */
export const localeCookie = createCookie("lng", { path: "/", sameSite: "lax", httpOnly: true, maxAge: 60 * 60 * 24 * 365 });
