import { parseWithZod } from "@conform-to/zod/v4";
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { safeRedirectPath } from "~/domain/navigation";
import { EndLogAsSchema } from "~/forms/operators";
import { endLogAsSession, requireUser } from "~/http/auth.server";
import { orThrow, validOrThrow } from "~/http/reply.server";
import { redirectWithToast } from "~/http/toast.server";
import { endLogAs } from "~/services/operators.server";

export async function loader() {
  return redirect("/");
}

/** The banner's one button back (intent end-log-as): ends 'Log as' and returns to the operator's own console. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, null);
  validOrThrow(parseWithZod(await request.formData(), { schema: EndLogAsSchema }));
  orThrow(endLogAs(user));
  const headers = await endLogAsSession(request);
  const to = user.loggedAsBy ? `/users/${encodeURIComponent(user.id)}` : "/";
  return redirectWithToast(safeRedirectPath(to), { type: "success", title: "operators:logAs.ended" }, { headers });
}
