/** The locale of a request (profile, cookie, Accept-Language) and remix-i18next's request instance. */
import { RemixI18Next } from "remix-i18next/server";
import { FALLBACK_LOCALE, pickLocale, SUPPORTED_LOCALES, type Locale } from "~/domain/locale";
import { i18nConfig } from "~/i18n";
import { getCurrentUser } from "~/http/auth.server";
import { localeCookie } from "~/http/session.server";
import { resources } from "~/services/i18n.server";

/** Profile when signed in, else the cookie, else Accept-Language, else en-GB. */
export async function getRequestLocale(request: Request): Promise<Locale> {
  const [{ user }, cookie] = await Promise.all([
    getCurrentUser(request),
    localeCookie.parse(request.headers.get("Cookie")) as Promise<string | null>,
  ]);
  return pickLocale({ profile: user?.locale, cookie, acceptLanguage: request.headers.get("Accept-Language") });
}

export const remixI18next = new RemixI18Next({
  detection: {
    supportedLanguages: [...SUPPORTED_LOCALES],
    fallbackLanguage: FALLBACK_LOCALE,
    findLocale: getRequestLocale,
  },
  i18next: { ...i18nConfig, resources },
});

