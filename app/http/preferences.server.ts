/**
 * Display preferences (theme, right-to-left, menu collapsed) and language: on the user's
 * profile when signed in (the user-preferences use case), in a cookie when not.
 */
import { createCookie } from "@remix-run/node";
import * as z from "zod";
import type { DisplayPreferences, User } from "~/domain/types";
import { localeCookie } from "~/http/session.server";
import { orThrow } from "~/http/reply.server";
import { updateUserPreferences } from "~/services/users.server";

export const DEFAULT_DISPLAY: DisplayPreferences = { theme: "system", menuCollapsed: true, rtl: false };

const prefsCookie = createCookie("prefs", { path: "/", sameSite: "lax", httpOnly: true, maxAge: 60 * 60 * 24 * 365 });

const DisplaySchema = z.object({
  theme: z.enum(["system", "light", "dark"]).catch("system"),
  menuCollapsed: z.boolean().catch(true),
  rtl: z.boolean().catch(false),
});

export async function getDisplayPreferences(request: Request, user: User | null): Promise<DisplayPreferences> {
  if (user) return { ...DEFAULT_DISPLAY, ...user.preferences };
  const parsed = DisplaySchema.safeParse(await prefsCookie.parse(request.headers.get("Cookie")));
  return parsed.success ? parsed.data : DEFAULT_DISPLAY;
}

/** Saves display preferences; returns the Set-Cookie headers when signed out. */
export async function saveDisplayPreferences(
  request: Request,
  user: User | null,
  change: Partial<DisplayPreferences>,
): Promise<Headers> {
  const next = { ...(await getDisplayPreferences(request, user)), ...change };
  if (user) {
    orThrow(await updateUserPreferences(user, { preferences: next }));
    return new Headers();
  }
  return new Headers({ "Set-Cookie": await prefsCookie.serialize(next) });
}

export async function saveLocale(user: User | null, locale: string): Promise<Headers> {
  const headers = new Headers({ "Set-Cookie": await localeCookie.serialize(locale) });
  if (user) orThrow(await updateUserPreferences(user, { locale }));
  return headers;
}
