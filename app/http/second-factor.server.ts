/**
 * The second factor's part of the session (ADR 30): a pending sign-in (identity known, code
 * still due), the mark of a session that passed its second factor, the secret being enrolled
 * and the recovery codes shown once. Session fields only; the decisions are the use cases'.
 */
import type { Session } from "@remix-run/node";
import { isPendingOpen } from "~/domain/second-factor";
import type { User } from "~/domain/types";
import type { SignInMethod } from "~/services/sign-in.server";
import { getSession, getSessionStorage, type SessionData } from "~/http/session.server";

export { ENROL_PATH, SECOND_FACTOR_PATH } from "~/domain/second-factor";

const PENDING_KEYS = ["pendingUserId", "pendingEpoch", "pendingMethod", "pendingSince", "pendingTo"] as const;
const SIGNED_IN_KEYS = ["userId", "claimsType", "claimsRole", "epoch", "refreshedAt", "loggedAs", "loggedAsType", "loggedAsRole", "loggedAsEpoch", "steppedDown", "secondFactor", "enrolSecret", "recoveryCodes"] as const;

/** Turns a session into a pending sign-in of this user: signed in to nothing but the code form. */
export function fillPending(session: Session<SessionData>, user: User, method: SignInMethod, to: string | undefined, now = new Date()): void {
  for (const key of SIGNED_IN_KEYS) session.unset(key);
  session.set("pendingUserId", user.id);
  session.set("pendingEpoch", user.sessionEpoch);
  session.set("pendingMethod", method);
  session.set("pendingSince", now.toISOString());
  if (to) session.set("pendingTo", to);
  else session.unset("pendingTo");
}

export interface PendingSignIn {
  userId: string;
  epoch: number;
  method: SignInMethod;
  to: string | undefined;
}

/** The session's pending sign-in: open, expired (the code came too late), or none. */
export function readPending(session: Session<SessionData>, now = new Date()): { state: "open"; pending: PendingSignIn } | { state: "expired" } | { state: "none" } {
  const userId = session.get("pendingUserId");
  if (!userId || session.get("userId")) return { state: "none" };
  if (!isPendingOpen(session.get("pendingSince"), now)) return { state: "expired" };
  return {
    state: "open",
    pending: { userId, epoch: session.get("pendingEpoch") ?? -1, method: session.get("pendingMethod") ?? "password", to: session.get("pendingTo") },
  };
}

export function clearPending(session: Session<SessionData>): void {
  for (const key of PENDING_KEYS) session.unset(key);
}

async function commit(session: Session<SessionData>): Promise<Headers> {
  return new Headers({ "Set-Cookie": await getSessionStorage().commitSession(session) });
}

/** Enrolment: the secret being shown, kept in the (server-side) session until confirmed. */
export async function getEnrolSecret(request: Request): Promise<string | undefined> {
  return (await getSession(request)).get("enrolSecret");
}

export async function keepEnrolSecret(request: Request, secret: string): Promise<Headers> {
  const session = await getSession(request);
  session.set("enrolSecret", secret);
  return commit(session);
}

/**
 * After enrolling: the secret is the user's now, this session counts as having passed its
 * second factor, and the recovery codes wait to be shown once.
 */
export async function markEnrolled(request: Request, recoveryCodes: string[]): Promise<Headers> {
  const session = await getSession(request);
  session.unset("enrolSecret");
  session.set("secondFactor", "enrolled");
  session.set("recoveryCodes", recoveryCodes);
  return commit(session);
}

export async function keepRecoveryCodes(request: Request, recoveryCodes: string[]): Promise<Headers> {
  const session = await getSession(request);
  session.set("recoveryCodes", recoveryCodes);
  return commit(session);
}

/** The recovery codes to show, once: read and forgotten. */
export async function takeRecoveryCodes(request: Request): Promise<{ codes: string[]; headers: Headers | null }> {
  const session = await getSession(request);
  const codes = session.get("recoveryCodes");
  if (!codes?.length) return { codes: [], headers: null };
  session.unset("recoveryCodes");
  return { codes, headers: await commit(session) };
}
