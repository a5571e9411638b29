import { parseWithZod } from "@conform-to/zod/v4";
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { safeRedirectPath } from "~/domain/navigation";
import { PreferencesSchema } from "~/forms/preferences";
import { getCurrentUser } from "~/http/auth.server";
import { saveDisplayPreferences, saveLocale } from "~/http/preferences.server";

export async function loader() {
  return redirect("/");
}

/** Menu, theme, direction and language, for signed-in users and visitors alike. */
export async function action({ request }: ActionFunctionArgs) {
  const { user } = await getCurrentUser(request);
  const submission = parseWithZod(await request.formData(), { schema: PreferencesSchema });
  if (submission.status !== "success") throw new Response("Bad request", { status: 400 });
  const form = submission.value;
  let headers: Headers;
  switch (form.intent) {
    case "toggle-menu":
      headers = await saveDisplayPreferences(request, user, { menuCollapsed: form.collapsed === "true" });
      break;
    case "set-theme":
      headers = await saveDisplayPreferences(request, user, { theme: form.theme });
      break;
    case "set-direction":
      headers = await saveDisplayPreferences(request, user, { rtl: form.rtl === "true" });
      break;
    case "set-locale":
      headers = await saveLocale(user, form.locale);
      break;
  }
  return redirect(safeRedirectPath(form.redirectTo), { headers });
}
