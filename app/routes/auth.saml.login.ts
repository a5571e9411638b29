/** 'Sign in with single sign-on' (the sign-in page's form): off to the identity provider with an AuthnRequest. */
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { safeRedirectPath } from "~/domain/navigation";
import { requireAnonymous } from "~/http/auth.server";
import { redirectWithToast } from "~/http/toast.server";
import { unknownIntent } from "~/http/reply.server";
import { ssoSignInIntent } from "~/forms/sso";
import { startSsoSignIn } from "~/services/sso/sign-in.server";

/** Nothing to show here: the sign-in page holds the form. */
export async function loader() {
  return redirect("/login");
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const formData = await request.formData();
  if (formData.get("intent") !== ssoSignInIntent) return unknownIntent();
  // RelayState carries the path to return to: a path of this console only, else none.
  const to = safeRedirectPath(formData.get("to"), "");
  const started = await startSsoSignIn(to);
  if (!started.ok) {
    return redirectWithToast(to ? `/login?to=${encodeURIComponent(to)}` : "/login", { type: "error", title: "sso:unavailable.title", description: started.reason });
  }
  return redirect(started.value.redirectUrl, { status: 303 });
}
