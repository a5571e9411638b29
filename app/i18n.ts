/** i18next settings shared by the server and the browser. */
import { FALLBACK_LOCALE, SUPPORTED_LOCALES } from "~/domain/locale";

export const i18nConfig = {
  supportedLngs: [...SUPPORTED_LOCALES],
  fallbackLng: FALLBACK_LOCALE,
  defaultNS: "common",
  ns: ["common"],
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
  load: "currentOnly" as const,
};
