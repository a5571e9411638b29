/** Flash toasts in their own cookie: set before a redirect, read once by the root loader. */
import { createCookieSessionStorage, redirect } from "@remix-run/node";
import * as z from "zod";
import { getEnv } from "~/services/env.server";

export const ToastSchema = z.object({
  type: z.enum(["success", "error"]).default("success"),
  /** i18n keys. */
  title: z.string(),
  description: z.string().optional(),
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type Toast = z.infer<typeof ToastSchema>;
export type ToastInput = z.input<typeof ToastSchema>;

let storage: ReturnType<typeof createToastStorage> | undefined;
function createToastStorage() {
  const env = getEnv();
  return createCookieSessionStorage({
    cookie: {
      name: "toast",
      sameSite: "lax",
      path: "/",
      httpOnly: true,
      secure: env.COOKIE_SECURE,
      secrets: [env.SESSION_SECRET],
    },
  });
}
function toastStorage() {
  storage ??= createToastStorage();
  return storage;
}

export async function createToastHeaders(toast: ToastInput): Promise<Headers> {
  const session = await toastStorage().getSession();
  session.flash("toast", ToastSchema.parse(toast));
  return new Headers({ "Set-Cookie": await toastStorage().commitSession(session) });
}

export async function redirectWithToast(url: string, toast: ToastInput, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  for (const cookie of (await createToastHeaders(toast)).getSetCookie()) headers.append("Set-Cookie", cookie);
  return redirect(url, { ...init, headers });
}

/** Reads (and so clears) the flashed toast. */
export async function getToast(request: Request): Promise<{ toast: Toast | null; headers: Headers | null }> {
  const session = await toastStorage().getSession(request.headers.get("Cookie"));
  const parsed = ToastSchema.safeParse(session.get("toast"));
  const toast = parsed.success ? parsed.data : null;
  return {
    toast,
    headers: toast ? new Headers({ "Set-Cookie": await toastStorage().destroySession(session) }) : null,
  };
}
