import { useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SUPPORTED_LOCALES } from "~/domain/locale";
import { setLocaleIntent } from "~/forms/preferences-intents";
import { useRootData } from "~/root";
import { PreferenceForm } from "~/components/layout/user-menu";

/** Language choice on public pages (kept in a cookie until the user signs in). */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const root = useRootData();
  const location = useLocation();
  return (
    <PreferenceForm here={location.pathname + location.search} intent={setLocaleIntent} legend={t("userMenu.language")}>
      {SUPPORTED_LOCALES.map((l) => (
        <button key={l} name="locale" value={l} aria-pressed={root?.locale === l} lang={l}>
          {t(`languages.${l}`)}
        </button>
      ))}
    </PreferenceForm>
  );
}
