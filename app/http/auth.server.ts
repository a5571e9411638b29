/**
 * Sign-in (remix-auth with the form strategy), the session re-check on every request, and the
 * guard of spec section 2.
 */
import { data, redirect, type Session } from "@remix-run/node";
import { Authenticator, AuthorizationError } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { resourceForPath, safeRedirectPath } from "~/domain/navigation";
import { can, type Action, type Resource } from "~/domain/permissions";
import { fail, ok, type Failure, type Result } from "~/domain/result";
import type { Role, User } from "~/domain/types";
import { effectiveClaims } from "~/domain/operators";
import { getLiveConfig } from "~/services/config.server";
import { completeSecondFactor, signInWithPassword, type SignedIn, type SignInStep } from "~/services/sign-in.server";
import { getSession, getSessionStorage, SESSION_REFRESH_MS, type SessionData } from "~/http/session.server";
import { getStorage } from "~/services/storage.server";
import { secondFactorStep } from "~/domain/second-factor";
import { getAccessSettings } from "~/services/access-settings.server";
import { ENROL_PATH, fillPending, readPending, SECOND_FACTOR_PATH } from "~/http/second-factor.server";

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

let authenticator: Authenticator<SignInStep> | undefined;
function getAuthenticator(): Authenticator<SignInStep> {
  if (authenticator) return authenticator;
  authenticator = new Authenticator<SignInStep>(getSessionStorage() as never);
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
 * When a step is still due (ADR 30) `stepDue` is true and `landing` is its screen: the code form
 * of a pending session (the form's `to` is kept for after the code), or enrolment.
 */
export async function passwordSignIn(
  request: Request,
  formData: FormData,
  clientIp: string,
): Promise<Result<SignedIn & { headers: Headers; stepDue: boolean }>> {
  let signedIn: SignInStep;
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
  const to = String(formData.get("to") ?? "") || undefined;
  return ok(await openSignInStep(request, signedIn, to));
}

/**
 * Opens the session a sign-in step calls for, whatever the way in (password, SSO): pending with
 * the code form as landing, or signed in (a user who must enrol lands on the enrolment screen).
 */
export async function openSignInStep(request: Request, step: SignInStep, to?: string): Promise<SignedIn & { headers: Headers; stepDue: boolean }> {
  if (step.kind === "second-factor") {
    const sessions = getSessionStorage();
    const previous = await getSession(request);
    if (previous.id) await sessions.destroySession(previous);
    const session = await sessions.getSession();
    fillPending(session, step.user, step.method, to);
    return { user: step.user, landing: SECOND_FACTOR_PATH, stepDue: true, headers: new Headers({ "Set-Cookie": await sessions.commitSession(session) }) };
  }
  const headers = await createUserSession(request, step.user);
  return { user: step.user, landing: step.mustEnrol ? ENROL_PATH : step.landing, stepDue: step.mustEnrol, headers };
}

/**
 * The code form's submission: the session's pending sign-in completes with a right code (a new
 * session, marked as having passed its second factor) and goes where the user first asked.
 */
export async function completePendingSignIn(request: Request, code: string, clientIp: string): Promise<Result<{ headers: Headers; to: string }>> {
  const found = readPending(await getSession(request));
  if (found.state !== "open") return fail("unauthenticated", "secondFactor:errors.expired");
  const done = await completeSecondFactor(found.pending, code, clientIp);
  if (!done.ok) return done;
  const headers = await createUserSession(request, done.value.user, done.value.secondFactor);
  return ok({ headers, to: safeRedirectPath(found.pending.to, done.value.landing) });
}

/**
 * Opens a new session for a user (a new id: any session the browser held before is ended, so a
 * planted id is never signed in) and writes last_refresh_token.
 */
export async function createUserSession(request: Request, user: User, secondFactor?: SessionData["secondFactor"]): Promise<Headers> {
  const sessions = getSessionStorage();
  const previous = await getSession(request);
  // A renewed session (password change) keeps the second factor its user passed.
  const passed = secondFactor ?? (previous.get("userId") === user.id ? previous.get("secondFactor") : undefined);
  if (previous.id) await sessions.destroySession(previous);
  const session = await sessions.getSession();
  fillSession(session, user);
  if (passed) session.set("secondFactor", passed);
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
  /** A pending sign-in (ADR 30): no user yet, only the code form is open. */
  pending?: boolean;
  /** The user must set up a second factor before anything else (ADR 30). */
  mustEnrol?: boolean;
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
  if (!userId && readPending(session).state === "open") return { user: null, ended: false, pending: true };
  // A cookie naming a session that no longer exists (signed out, ended by a password change).
  if (!userId) return { user: null, ended: session.id !== "" };
  const user = await getStorage().users.getOne(userId);
  const valid =
    user &&
    !user.disabled &&
    user.claims.type === session.get("claimsType") &&
    user.claims.role === session.get("claimsRole") &&
    user.sessionEpoch === session.get("epoch");
  if (valid) {
    const step = await pendingSecondFactor(session, user);
    if (step === "verify") return { user: null, ended: false, pending: true };
    return { user: await sessionUser(session, user), ended: false, mustEnrol: step === "enrol" };
  }
  // Disabled, claims changed or password changed: the session ends on the server too.
  await getStorage().sessions.delete(session.id);
  return { user: null, ended: true };
}

/**
 * What the signed-in account still owes of its second factor in this session (ADR 30), checked
 * on every request so a setting turned on, or a factor enrolled in another session, applies at
 * once: a session that never passed a factor its user now has becomes a pending sign-in.
 */
async function pendingSecondFactor(session: Session<SessionData>, own: User) {
  if (own.claims.type !== "operator" && !own.totpSecret) return null;
  const step = secondFactorStep(own, await getAccessSettings(), Boolean(session.get("secondFactor")));
  if (step === "verify") {
    fillPending(session, own, "password", undefined);
    await getSessionStorage().commitSession(session);
  }
  return step;
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
  const { user, ended, pending, mustEnrol } = await getCurrentUser(request);
  // A pending sign-in reaches nothing but its code form; a user who must enrol, only enrolment.
  if (pending) throw redirect(SECOND_FACTOR_PATH);
  if (!user) {
    throw redirect(loginRedirectUrl(request), ended ? { headers: await destroySessionHeaders(request) } : undefined);
  }
  if (mustEnrol && new URL(visiblePath(request), "http://site.invalid").pathname !== ENROL_PATH) throw redirect(ENROL_PATH);
  await refuseDuringMaintenance(user);
  if (resource && !can(user, resource, "read")) throw redirect("/not-authorized");
  return user;
}

/**
 * Maintenance locks out everyone but operators: the signed-in screens (through requireUser) and
 * the public pages that change data, such as accepting an invitation (which creates accounts and
 * memberships).
 */
export async function refuseDuringMaintenance(user: User | null): Promise<void> {
  if (user?.claims.type === "operator") return;
  const config = await getLiveConfig();
  if (config?.maintenance) throw redirect("/under-maintenance");
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
