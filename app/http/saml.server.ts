/**
 * Single sign-on's HTTP side (ADR 31): a remix-auth strategy for the identity provider's answer
 * (the SAML POST binding), which hands the form to the SSO use case (app/services/sso), then the
 * session opened as for any sign-in, and the replies of spec sections 4 and 8.
 */
import { redirect } from "@remix-run/node";
import { Authenticator, AuthorizationError, Strategy, type AuthenticateOptions } from "remix-auth";
import type { SessionStorage } from "@remix-run/server-runtime";
import { safeRedirectPath } from "~/domain/navigation";
import type { Failure } from "~/domain/result";
import { destroySessionHeaders, openSignInStep } from "~/http/auth.server";
import { getSessionStorage } from "~/http/session.server";
import { createToastHeaders, type ToastInput } from "~/http/toast.server";
import { finishSsoSignIn, SSO_UNAUTHORIZED, SSO_UNKNOWN_USER, type SsoSignedIn } from "~/services/sso/sign-in.server";

/** What the IdP posted. */
export interface SamlPost {
  SAMLResponse: string | null;
  RelayState: string | null;
}

class SsoRefused extends Error {
  constructor(readonly failure: Failure) {
    super(failure.reason);
  }
}

/** remix-auth's strategy for a SAML response: reads the POST binding's form, the verify callback decides. */
export class SamlStrategy extends Strategy<SsoSignedIn, { post: SamlPost }> {
  name = "saml";

  async authenticate(request: Request, sessionStorage: SessionStorage, options: AuthenticateOptions): Promise<SsoSignedIn> {
    const form = options.context?.formData instanceof FormData ? options.context.formData : await request.formData();
    const field = (name: string) => {
      const value = form.get(name);
      return typeof value === "string" ? value : null;
    };
    try {
      const user = await this.verify({ post: { SAMLResponse: field("SAMLResponse"), RelayState: field("RelayState") } });
      return this.success(user, request, sessionStorage, options);
    } catch (error) {
      return this.failure(error instanceof Error ? error.message : String(error), request, sessionStorage, options, error instanceof Error ? error : undefined);
    }
  }
}

let authenticator: Authenticator<SsoSignedIn> | undefined;
function getSamlAuthenticator(): Authenticator<SsoSignedIn> {
  if (authenticator) return authenticator;
  authenticator = new Authenticator<SsoSignedIn>(getSessionStorage() as never);
  authenticator.use(
    new SamlStrategy(async ({ post }) => {
      const outcome = await finishSsoSignIn(post);
      if (!outcome.ok) throw new SsoRefused(outcome);
      return outcome.value;
    }),
    "saml",
  );
  return authenticator;
}

function mergeHeaders(...all: Headers[]): Headers {
  const headers = new Headers();
  for (const h of all) for (const cookie of h.getSetCookie()) headers.append("Set-Cookie", cookie);
  return headers;
}

/**
 * The assertion consumer: signed in, the user lands on the RelayState path (this site's only) or
 * their landing page (a second factor's code form first, when one is due); an unknown user is signed out and sent to login; any other failure shows
 * 'Unauthorized Access' (spec section 8), a disabled account the sign-in's own message.
 */
export async function consumeSamlResponse(request: Request, formData: FormData): Promise<Response> {
  let signedIn: SsoSignedIn;
  try {
    const bodiless = new Request(request.url, { method: "POST", headers: request.headers });
    signedIn = await getSamlAuthenticator().authenticate("saml", bodiless, { throwOnError: true, context: { formData } as never });
  } catch (error) {
    if (!(error instanceof AuthorizationError)) throw error;
    if (!(error.cause instanceof SsoRefused)) throw error.cause ?? error;
    const failure = error.cause.failure;
    const toast: ToastInput =
      failure.reason === SSO_UNAUTHORIZED
        ? { type: "error", title: "sso:unauthorized.title", description: SSO_UNAUTHORIZED }
        : failure.reason === SSO_UNKNOWN_USER
          ? { type: "error", title: "errors.authenticationError", description: SSO_UNKNOWN_USER }
          : { type: "error", title: "errors.authenticationError", description: failure.reason };
    // Signed out: whatever session the browser held ends (spec section 4).
    return redirect("/login", { headers: mergeHeaders(await destroySessionHeaders(request), await createToastHeaders(toast)) });
  }
  // A second factor still due (its code form, or enrolment) comes first; the path asked for is kept for after it (ADR 30).
  const to = safeRedirectPath(signedIn.relayState, "") || undefined;
  const opened = await openSignInStep(request, signedIn.step, to);
  return redirect(opened.stepDue ? opened.landing : (to ?? opened.landing), { status: 303, headers: opened.headers });
}
