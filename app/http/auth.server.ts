/**
 * Sign-in (remix-auth with the form strategy), the session re-check on every request, and the
 * guard of spec section 2.
 */
import { data, redirect, type Session } from "@remix-run/node";
import { Authenticator, AuthorizationError } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { resourceForPath, safeRedirectPath } from "~/domain/navigation";
import { can, type Action, type Resource } from "~/domain/permissions";
import { ok, type Failure, type Result } from "~/domain/result";
import type { Role, User } from "~/domain/types";
import { effectiveClaims } from "~/domain/operators";
import { getLiveConfig } from "~/services/config.server";
import { signInWithPassword, type SignedIn } from "~/services/sign-in.server";
import { getSession, getSessionStorage, SESSION_REFRESH_MS, type SessionData } from "~/http/session.server";
import { getStorage } from "~/services/storage.server";

/** A refused sign-in, carried through remix-auth's error to the caller. */
class SignInRefused extends Error {
  constructor(readonly failure: Failure) {
    super(failure.reason);
  }
}

/** What the form strategy's caller passes: the form already read, and the client's address. */
interface SignInContext {
  formData: FormData;
  clientIp: string;
}

let authenticator: Authenticator<SignedIn> | undefined;
function getAuthenticator(): Authenticator<SignedIn> {
  if (authenticator) return authenticator;
  authenticator = new Authenticator<SignedIn>(getSessionStorage() as never);
  authenticator.use(
    // The use case decides (throttle, credentials, account); the strategy only reads the form.
    new FormStrategy(async ({ form, context }) => {
      const credentials = { email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") };
      const outcome = await signInWithPassword(credentials, (context as unknown as SignInContext).clientIp);
      if (!outcome.ok) throw new SignInRefused(outcome);
      return outcome.value;
    }),
    "form",
  );
  return authenticator;
}

/** The path of a request as the user sees it (single-fetch data requests carry a .data suffix). */
export function visiblePath(request: Request): string {
  const url = new URL(request.url);
  let pathname = url.pathname.replace(/\.data$/, "");
  if (pathname === "/_root") pathname = "/";
  url.searchParams.delete("_routes");
  url.searchParams.delete("index");
  const search = url.searchParams.toString();
  return pathname + (search ? `?${search}` : "");
}

export function loginRedirectUrl(request: Request): string {
  const path = visiblePath(request);
  return path === "/" ? "/login" : `/login?to=${encodeURIComponent(path)}`;
}

/**
 * Signs in with the e-mail and password of a form already read (remix-auth's form strategy, the
 * sign-in use case deciding), then opens a session: its Set-Cookie headers come with the user.
 */
export async function passwordSignIn(request: Request, formData: FormData, clientIp: string): Promise<Result<SignedIn & { headers: Headers }>> {
  let signedIn: SignedIn;
  try {
    // The body was read already: the strategy gets the form through the context.
    const bodiless = new Request(request.url, { method: "POST", headers: request.headers });
    const context: SignInContext = { formData, clientIp };
    signedIn = await getAuthenticator().authenticate("form", bodiless, { throwOnError: true, context: context as never });
  } catch (error) {
    if (!(error instanceof AuthorizationError)) throw error;
    if (error.cause instanceof SignInRefused) return error.cause.failure;
    // Anything else (storage down…) is not a refusal: it fails as itself.
    throw error.cause ?? error;
  }
  return ok({ ...signedIn, headers: await createUserSession(request, signedIn.user) });
}

/**
 * Opens a new session for a user (a new id: any session the browser held before is ended, so a
 * planted id is never signed in) and writes last_refresh_token.
 */
export async function createUserSession(request: Request, user: User): Promise<Headers> {
  const sessions = getSessionStorage();
  const previous = await getSession(request);
  if (previous.id) await sessions.destroySession(previous);
  const session = await sessions.getSession();
  fillSession(session, user);
  await getStorage().users.touchRefreshToken(user.id);
  // Expired sessions are ignored when read; a few are swept here, at each sign-in.
  await getStorage().sessions.deleteExpired(new Date(), 20);
  return new Headers({ "Set-Cookie": await sessions.commitSession(session) });
}

function fillSession(session: Session<SessionData>, user: User): void {
  session.set("userId", user.id);
  session.set("claimsType", user.claims.type);
  session.set("claimsRole", user.claims.role);
  session.set("epoch", user.sessionEpoch);
  session.set("refreshedAt", new Date().toISOString());
}

export interface CurrentUser {
  user: User | null;
  /** The session existed but is no longer valid (disabled, claims changed, password reset). */
  ended: boolean;
}

/**
 * The user of a GET or HEAD request, read once however many loaders ask (the root's and the
 * page's, ADR 25). Other methods read it afresh: an action may end or change the session.
 */
const readOnce = new WeakMap<Request, Promise<CurrentUser>>();

/** Re-checks the session against the user record. */
export function getCurrentUser(request: Request): Promise<CurrentUser> {
  if (request.method !== "GET" && request.method !== "HEAD") return readCurrentUser(request);
  let current = readOnce.get(request);
  if (!current) {
    current = readCurrentUser(request);
    readOnce.set(request, current);
  }
  return current;
}

async function readCurrentUser(request: Request): Promise<CurrentUser> {
  const session = await getSession(request);
  const userId = session.get("userId");
  // A cookie naming a session that no longer exists (signed out, ended by a password change).
  if (!userId) return { user: null, ended: session.id !== "" };
  const user = await getStorage().users.getOne(userId);
  const valid =
    user &&
    !user.disabled &&
    user.claims.type === session.get("claimsType") &&
    user.claims.role === session.get("claimsRole") &&
    user.sessionEpoch === session.get("epoch");
  if (valid) return { user: await sessionUser(session, user), ended: false };
  // Disabled, claims changed or password changed: the session ends on the server too.
  await getStorage().sessions.delete(session.id);
  return { user: null, ended: true };
}

/**
 * The user a valid session acts as: the user logged as (re-checked like the session itself: a
 * disabled user, or one whose claims changed, ends the 'Log as', back to the operator), else the
 * account itself with the role it stepped down to.
 */
async function sessionUser(session: Session<SessionData>, own: User): Promise<User> {
  const loggedAs = session.get("loggedAs");
  if (loggedAs) {
    const target = own.claims.type === "operator" ? await getStorage().users.getOne(loggedAs) : null;
    const valid =
      target &&
      !target.disabled &&
      target.claims.type !== "operator" &&
      target.claims.type === session.get("loggedAsType") &&
      target.claims.role === session.get("loggedAsRole") &&
      target.sessionEpoch === session.get("loggedAsEpoch");
    if (valid) return { ...target, loggedAsBy: { id: own.id, email: own.email, displayName: own.displayName, claims: own.claims } };
    clearLoggedAs(session);
    await getSessionStorage().commitSession(session);
    return own;
  }
  const claims = effectiveClaims(own.claims, session.get("steppedDown"));
  return claims.role === own.claims.role ? own : { ...own, claims, ownRole: own.claims.role };
}

function clearLoggedAs(session: Session<SessionData>): void {
  for (const key of ["loggedAs", "loggedAsType", "loggedAsRole", "loggedAsEpoch"] as const) session.unset(key);
}

/** Starts 'Log as' in the session (the use case has checked it): the console is then the target's. */
export async function beginLogAsSession(request: Request, target: User): Promise<Headers> {
  const session = await getSession(request);
  session.set("loggedAs", target.id);
  session.set("loggedAsType", target.claims.type);
  session.set("loggedAsRole", target.claims.role);
  session.set("loggedAsEpoch", target.sessionEpoch);
  // The operator acts with the target's rights alone: a step-down ends with it.
  session.unset("steppedDown");
  return new Headers({ "Set-Cookie": await getSessionStorage().commitSession(session) });
}

/** Ends 'Log as': back to the operator's own console. */
export async function endLogAsSession(request: Request): Promise<Headers> {
  const session = await getSession(request);
  clearLoggedAs(session);
  return new Headers({ "Set-Cookie": await getSessionStorage().commitSession(session) });
}

/** Keeps the session's role (null: one's own again); the use case has checked it. */
export async function setSessionRole(request: Request, role: Role | null): Promise<Headers> {
  const session = await getSession(request);
  if (role) session.set("steppedDown", role);
  else session.unset("steppedDown");
  return new Headers({ "Set-Cookie": await getSessionStorage().commitSession(session) });
}

export async function destroySessionHeaders(request: Request): Promise<Headers> {
  const session = await getSession(request);
  return new Headers({ "Set-Cookie": await getSessionStorage().destroySession(session) });
}

/** Refreshes the session cookie once per SESSION_REFRESH_MS, writing last_refresh_token. */
export async function refreshSessionIfDue(request: Request, user: User, now = new Date()): Promise<Headers | null> {
  const session = await getSession(request);
  const refreshedAt = Date.parse(session.get("refreshedAt") ?? "");
  if (Number.isFinite(refreshedAt) && now.getTime() - refreshedAt < SESSION_REFRESH_MS) return null;
  // Only the instant: the claims stay those the session began with (a change ends it), and the
  // token is the signed-in account's own (the operator's while logged as someone).
  session.set("refreshedAt", now.toISOString());
  await getStorage().users.touchRefreshToken(user.loggedAsBy?.id ?? user.id);
  return new Headers({ "Set-Cookie": await getSessionStorage().commitSession(session) });
}

/**
 * The guard: signed in (else /login?to=), not locked out by maintenance (operators pass), and
 * holding the read right of the screen (else /not-authorized). The screen's resource comes from
 * the route-to-resource map of app/domain/navigation.ts for the path the user opened; the
 * argument only names what the route expects, and tests/unit/permissions.test.ts checks that
 * every route's argument agrees with the map.
 */
export async function requireUser(request: Request, _expected?: Resource | null): Promise<User> {
  const resource = resourceForPath(new URL(visiblePath(request), "http://site.invalid").pathname);
  const { user, ended } = await getCurrentUser(request);
  if (!user) {
    throw redirect(loginRedirectUrl(request), ended ? { headers: await destroySessionHeaders(request) } : undefined);
  }
  if (user.claims.type !== "operator") {
    const config = await getLiveConfig();
    if (config?.maintenance) throw redirect("/under-maintenance");
  }
  if (resource && !can(user, resource, "read")) throw redirect("/not-authorized");
  return user;
}

/** For actions: a refused right answers 403 'Insufficient permissions' and changes nothing. */
export function requirePermission(user: User, resource: Resource, action: Action, scope: { teamId?: string } = {}): void {
  if (!can(user, resource, action, scope)) {
    throw data({ error: "errors.insufficientPermissions" }, { status: 403 });
  }
}

/** A signed-in user opening login or forgot-password goes home. */
export async function requireAnonymous(request: Request): Promise<void> {
  const { user } = await getCurrentUser(request);
  if (user) throw redirect("/");
}

export async function logout(request: Request, to = "/login"): Promise<Response> {
  const userId = (await getSession(request)).get("userId");
  if (userId) await getStorage().users.recordSignOut(userId);
  return redirect(safeRedirectPath(to, "/login"), { headers: await destroySessionHeaders(request) });
}
