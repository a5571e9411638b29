/** The retailer settings' way to the identity provider's settings (operators only). */
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

export function SsoSettingsLink() {
  const { t } = useTranslation("sso");
  return (
    <section className="panel" aria-labelledby="sso-link-title">
      <h2 id="sso-link-title">{t("settings.title")}</h2>
      <p className="muted">{t("settings.linkHelp")}</p>
      <p>
        <Link to="/settings/retailer/sso">{t("settings.link")}</Link>
      </p>
    </section>
  );
}
