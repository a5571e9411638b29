import { Form, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SUPPORTED_LOCALES } from "~/domain/locale";
import { setDirectionIntent, setLocaleIntent, setThemeIntent } from "~/forms/preferences-intents";
import { useRootData } from "~/root";
import { Icon } from "~/components/icons";
import { endLogAsIntent, sessionRoleIntent } from "~/forms/operators";

/** The navbar's user menu: a native disclosure, so it opens by keyboard and without JS. */
export function UserMenu() {
  const root = useRootData()!;
  const user = root.user!;
  const { t } = useTranslation();
  const location = useLocation();
  const here = location.pathname + location.search;
  return (
    <details className="user-menu">
      <summary aria-label={t("userMenu.label", { name: user.displayName || user.email })}>
        {user.photoURL ? <img src={user.photoURL} alt="" width={28} height={28} className="user-photo" /> : <Icon name="user" />}
        <span className="user-name">{user.displayName || user.email}</span>
      </summary>
      <div className="user-menu-panel">
        <p className="user-menu-who">
          <strong>{user.displayName}</strong>
          <br />
          <span className="muted">{user.email}</span>
          <br />
          <span className="muted">
            {t(`accountTypes.${user.claims.type}`)} · {t(`roles.${user.claims.role}`)}
          </span>
        </p>
        <a href="/profile">{t("userMenu.profile")}</a>
        {root.sessionRoles ? (
          <Form method="post" action="/session-role" reloadDocument>
            <fieldset className="segmented">
              <legend>{t("operators:stepDown.legend")}</legend>
              <input type="hidden" name="intent" value={sessionRoleIntent} />
              <input type="hidden" name="redirectTo" value={here} />
              {root.sessionRoles.choices.map((role) => (
                <button key={role} name="role" value={role} aria-pressed={root.sessionRoles!.current === role}>
                  {t(`roles.${role}`)}
                </button>
              ))}
            </fieldset>
          </Form>
        ) : null}
        <PreferenceForm here={here} intent={setLocaleIntent} legend={t("userMenu.language")}>
          {SUPPORTED_LOCALES.map((l) => (
            <button key={l} name="locale" value={l} aria-pressed={root.locale === l} lang={l}>
              {t(`languages.${l}`)}
            </button>
          ))}
        </PreferenceForm>
        <ThemeChoice here={here} legend={t("userMenu.theme")} />
        <DirectionChoice here={here} legend={t("userMenu.direction")} />
        <Form method="post" action="/logout">
          <button type="submit" className="link-button">
            {t("userMenu.signOut")}
          </button>
        </Form>
      </div>
    </details>
  );
}

export function PreferenceForm({
  here,
  intent,
  legend,
  children,
}: {
  here: string;
  intent: string;
  legend: string;
  children: React.ReactNode;
}) {
  return (
    <Form method="post" action="/preferences" reloadDocument>
      <fieldset className="segmented">
        <legend>{legend}</legend>
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="redirectTo" value={here} />
        {children}
      </fieldset>
    </Form>
  );
}

/** While an operator is logged as a user: who is who, on every page, and the one button back. */
export function LogAsBanner() {
  const root = useRootData();
  const { t } = useTranslation();
  if (!root?.user || !root.loggedAsBy) return null;
  const user = root.user.displayName || root.user.email;
  return (
    <div className="log-as-banner" role="region" aria-label={t("operators:logAs.bannerLabel")}>
      <p>{t("operators:logAs.banner", { operator: root.loggedAsBy, user })}</p>
      <Form method="post" action="/log-as" reloadDocument>
        <input type="hidden" name="intent" value={endLogAsIntent} />
        <button type="submit">{t("operators:logAs.back")}</button>
      </Form>
    </div>
  );
}

/** The theme buttons (light, dark, system), in the user menu and on /profile. */
export function ThemeChoice({ here, legend }: { here: string; legend: string }) {
  const { t } = useTranslation();
  const root = useRootData()!;
  return (
    <PreferenceForm here={here} intent={setThemeIntent} legend={legend}>
      {(["system", "light", "dark"] as const).map((theme) => (
        <button key={theme} name="theme" value={theme} aria-pressed={root.display.theme === theme}>
          {t(`themes.${theme}`)}
        </button>
      ))}
    </PreferenceForm>
  );
}

/** The text direction buttons (left to right, right to left), in the user menu and on /profile. */
export function DirectionChoice({ here, legend }: { here: string; legend: string }) {
  const { t } = useTranslation();
  const root = useRootData()!;
  return (
    <PreferenceForm here={here} intent={setDirectionIntent} legend={legend}>
      <button name="rtl" value="false" aria-pressed={!root.display.rtl}>
        {t("directions.ltr")}
      </button>
      <button name="rtl" value="true" aria-pressed={root.display.rtl}>
        {t("directions.rtl")}
      </button>
    </PreferenceForm>
  );
}
