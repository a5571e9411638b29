/** i18next settings shared by the server and the browser. */
import { TEXT_FORMATS } from "~/domain/elision";
import { numberFormat } from "~/domain/intl";
import { FALLBACK_LOCALE, SUPPORTED_LOCALES } from "~/domain/locale";

export const i18nConfig = {
  supportedLngs: [...SUPPORTED_LOCALES],
  fallbackLng: FALLBACK_LOCALE,
  defaultNS: "common",
  /** A key missing from an area's namespace is looked up in common (shared messages such as errors.conflict, which services return to every form). */
  fallbackNS: "common",
  /** One namespace per area, so areas can be translated (and edited) independently. */
  ns: ["common", "teams", "wallets", "users", "campaigns", "campaignList", "campaignEditor", "campaignTargeting", "campaignProducts", "retailer", "media", "metrics", "operators", "catalog", "sso", "reports", "profile", "secondFactor", "campaignProductPicker", "campaignKeywords", "quickBuilder", "pickers", "catalogImport", "imageHosts", "campaignPreview", "titles"],
  interpolation: {
    escapeValue: false,
    /** `{{value, name}}`: the formats of app/domain (e.g. French "de" elided: `{{team, de}}`); `{{count, number}}` groups digits in the language's way. */
    format: (value: unknown, format?: string, lng?: string): string => {
      if (format === "number" && typeof value === "number") return numberFormat(lng).format(value);
      return format && TEXT_FORMATS[format] && typeof value === "string" ? TEXT_FORMATS[format](value) : String(value);
    },
  },
  react: { useSuspense: false },
  load: "currentOnly" as const,
};
