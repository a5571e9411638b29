/** i18next settings shared by the server and the browser. */
import { FALLBACK_LOCALE, SUPPORTED_LOCALES } from "~/domain/locale";

export const i18nConfig = {
  supportedLngs: [...SUPPORTED_LOCALES],
  fallbackLng: FALLBACK_LOCALE,
  defaultNS: "common",
  /** One namespace per area, so areas can be translated (and edited) independently. */
  ns: ["common", "teams", "wallets", "users", "campaigns", "campaignList", "campaignEditor", "campaignTargeting", "campaignProducts", "retailer", "media"],
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
  load: "currentOnly" as const,
};
