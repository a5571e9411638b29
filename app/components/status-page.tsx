import { useTranslation } from "react-i18next";

/** The public information pages (not found, not authorized, maintenance, error). */
export function StatusPage({ titleKey, messageKey, home = true }: { titleKey: string; messageKey: string; home?: boolean }) {
  const { t } = useTranslation();
  return (
    <section className="error-page">
      <h1>{t(titleKey)}</h1>
      <p>{t(messageKey)}</p>
      {home ? (
        <p>
          <a href="/">{t("errors.backHome")}</a>
        </p>
      ) : null}
    </section>
  );
}
