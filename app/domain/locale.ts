/** Which language a request is served in (the profile's language, then the cookie, then Accept-Language). */

export const SUPPORTED_LOCALES = ["en-GB", "fr"] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];
export const FALLBACK_LOCALE: Locale = "en-GB";

export function normaliseLocale(value: string | null | undefined): Locale | null {
  if (!value) return null;
  const lower = value.trim().toLowerCase();
  if (lower === "fr" || lower.startsWith("fr-")) return "fr";
  if (lower === "en" || lower.startsWith("en-")) return "en-GB";
  return null;
}

/** Picks the first supported language of an Accept-Language header, honouring q-values. */
export function localeFromAcceptLanguage(header: string | null): Locale | null {
  if (!header) return null;
  const ranked = header
    .split(",")
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { tag, q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((entry) => entry.tag && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const locale = normaliseLocale(tag);
    if (locale) return locale;
  }
  return null;
}

export function pickLocale(input: {
  profile?: string | null;
  cookie?: string | null;
  acceptLanguage?: string | null;
}): Locale {
  return (
    normaliseLocale(input.profile) ??
    normaliseLocale(input.cookie) ??
    localeFromAcceptLanguage(input.acceptLanguage ?? null) ??
    FALLBACK_LOCALE
  );
}
