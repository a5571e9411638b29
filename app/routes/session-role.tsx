import { parseWithZod } from "@conform-to/zod/v4";
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { safeRedirectPath } from "~/domain/navigation";
import { SessionRoleSchema } from "~/forms/operators";
import { requireUser, setSessionRole } from "~/http/auth.server";
import { orThrow, validOrThrow } from "~/http/reply.server";
import { redirectWithToast } from "~/http/toast.server";
import { changeSessionRole } from "~/services/operators.server";

export async function loader() {
  return redirect("/");
}

/**
 * The user menu's role for the session (intent session-role): a step down (or back) applies at once to the menu and
 * every right; a forged step up answers 403 'Insufficient permissions'-like and changes nothing.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, null);
  const form = validOrThrow(parseWithZod(await request.formData(), { schema: SessionRoleSchema }));
  const role = orThrow(changeSessionRole(user, form.role));
  const headers = await setSessionRole(request, role);
  // The page one was on may no longer be open to the lower role: the guard then says so.
  return redirectWithToast(safeRedirectPath(form.redirectTo), { type: "success", title: role ? "operators:stepDown.done" : "operators:stepDown.back" }, { headers });
}
