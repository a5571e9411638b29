/** 'Sign in with single sign-on' on the sign-in page: a plain form, so it works without JavaScript. */
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ssoSignInIntent } from "~/forms/sso";

export function SsoSignInForm({ to }: { to: string }) {
  const { t } = useTranslation("sso");
  return (
    <div className="sso-sign-in">
      <p className="sso-or" aria-hidden="true">
        <span>{t("login.or")}</span>
      </p>
      {/* A document submission: the answer sends the browser on to the identity provider. */}
      <Form method="post" action="/auth/saml/login" reloadDocument>
        <input type="hidden" name="intent" value={ssoSignInIntent} />
        <input type="hidden" name="to" value={to} />
        <button type="submit" className="button">
          {t("login.button")}
        </button>
      </Form>
      <p className="field-help">{t("login.help")}</p>
    </div>
  );
}
