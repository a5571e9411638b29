/**
 * 'Sign in with single sign-on' (a link of the sign-in page): off to the identity provider with an
 * AuthnRequest. A link, not a form: the pages' Content-Security-Policy (form-action 'self') would
 * stop a form's redirect to another site; the request it records expires after 15 minutes.
 */
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { safeRedirectPath } from "~/domain/navigation";
import { requireAnonymous } from "~/http/auth.server";
import { redirectWithToast } from "~/http/toast.server";
import { startSsoSignIn } from "~/services/sso/sign-in.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  // RelayState carries the path to return to: a path of this console only, else none.
  const to = safeRedirectPath(new URL(request.url).searchParams.get("to"), "");
  const started = await startSsoSignIn(to);
  if (!started.ok) {
    return redirectWithToast(to ? `/login?to=${encodeURIComponent(to)}` : "/login", { type: "error", title: "sso:unavailable.title", description: started.reason });
  }
  return redirect(started.value.redirectUrl, { status: 303 });
}
