/** 'Sign in with single sign-on' on the sign-in page: a plain link, so it works without JavaScript. */
import { useTranslation } from "react-i18next";

export function SsoSignIn({ to }: { to: string }) {
  const { t } = useTranslation("sso");
  const href = `/auth/saml/login${to ? `?to=${encodeURIComponent(to)}` : ""}`;
  return (
    <div className="sso-sign-in">
      <p className="sso-or" aria-hidden="true">
        <span>{t("login.or")}</span>
      </p>
      {/* A document navigation (never a client-side one): the answer sends the browser on to the identity provider. */}
      <a className="button" href={href} aria-describedby="sso-sign-in-help">
        {t("login.button")}
      </a>
      <p id="sso-sign-in-help" className="field-help">
        {t("login.help")}
      </p>
    </div>
  );
}
