/**
 * A page's browser-tab title in the reader's language ("Statistiques · Console publicitaire"):
 * route `meta` functions run on the server and in the browser without i18next, so they read the
 * reader's locale from the root loader's data (in `matches`) and the words from the "titles"
 * namespace, imported here once for every route.
 */
import type { MetaDescriptor } from "@remix-run/node";
import en from "../../locales/en-GB/titles.json";
import fr from "../../locales/fr/titles.json";
import { FALLBACK_LOCALE, normaliseLocale, type Locale } from "~/domain/locale";

export type TitleKey = keyof typeof en;
const TITLES: Record<Locale, Record<TitleKey, string>> = { "en-GB": en, fr };

interface MatchLike {
  id: string;
  data?: unknown;
}

/** The reader's locale, as the root loader found it. */
export function localeOfMatches(matches: readonly MatchLike[]): Locale {
  const root = matches.find((m) => m.id === "root")?.data as { locale?: string } | undefined;
  return normaliseLocale(root?.locale) ?? FALLBACK_LOCALE;
}

/** One word of the titles, in a locale. */
export function titleWord(locale: Locale, key: TitleKey): string {
  return TITLES[locale][key];
}

/** The title: each part (a title key, or a record's own name as `{ name }`), then the console's name. */
export function pageTitle(matches: readonly MatchLike[], ...parts: Array<TitleKey | { name: string }>): MetaDescriptor[] {
  const locale = localeOfMatches(matches);
  const words = parts.map((p) => (typeof p === "string" ? titleWord(locale, p) : p.name));
  return [{ title: [...words, titleWord(locale, "app")].join(" · ") }];
}
