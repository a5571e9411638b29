import { NavLink, useFetcher, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { toggleMenuIntent } from "~/forms/preferences-intents";
import { useRootData } from "~/root";
import { Icon } from "~/components/icons";
import { KeyboardShortcuts } from "~/components/keyboard-shortcuts";
import { LogAsBanner, UserMenu } from "~/components/layout/user-menu";

/** Signed-in layout: sticky navbar, vertical main menu (collapsible), boxed content. */
export function Shell({ children }: { children: React.ReactNode }) {
  const root = useRootData()!;
  const { t } = useTranslation();
  const location = useLocation();
  const menuFetcher = useFetcher();
  const here = location.pathname + location.search;
  const pendingCollapsed = menuFetcher.formData?.get("collapsed");
  const collapsed = pendingCollapsed ? pendingCollapsed === "true" : root.display.menuCollapsed;

  return (
    <>
      <a className="skip-link" href="#main">
        {t("shell.skipToContent")}
      </a>
      <LogAsBanner />
      <div className="layout" data-menu={collapsed ? "collapsed" : "expanded"}>
        <header className="navbar">
          <menuFetcher.Form method="post" action="/preferences" className="inline-form">
            <input type="hidden" name="intent" value={toggleMenuIntent} />
            <input type="hidden" name="redirectTo" value={here} />
            <input type="hidden" name="collapsed" value={collapsed ? "false" : "true"} />
            <button
              type="submit"
              className="icon-button"
              aria-controls="main-menu"
              aria-expanded={!collapsed}
              data-shortcut="menu"
              title={t(collapsed ? "shell.expandMenu" : "shell.collapseMenu")}
            >
              <Icon name="menu" />
              <span className="visually-hidden">{t(collapsed ? "shell.expandMenu" : "shell.collapseMenu")}</span>
            </button>
          </menuFetcher.Form>
          <a href="/" className="brand">
            {t("app.name")}
          </a>
          <span className="navbar-spacer" />
          {root.mayReadNotifications ? (
            <NavLink to="/notifications" className="icon-button notifications-link" title={t("notifications.topBar", { count: root.unreadNotifications })}>
              <Icon name="notifications" />
              {root.unreadNotifications > 0 ? (
                <span className="notifications-count" aria-hidden="true">
                  {root.unreadNotifications > 99 ? "99+" : root.unreadNotifications}
                </span>
              ) : null}
              <span className="visually-hidden">{t("notifications.topBar", { count: root.unreadNotifications })}</span>
            </NavLink>
          ) : null}
          <a href="#shortcuts" className="icon-button shortcut-link" data-shortcuts-open title={t("shortcuts.title")}>
            <span aria-hidden="true">?</span>
            <span className="visually-hidden">{t("shortcuts.title")}</span>
          </a>
          <UserMenu />
        </header>
        <nav id="main-menu" className="sidebar" aria-label={t("shell.mainMenu")}>
          <ul>
            {root.menu.map((item) => (
              <li key={item.key}>
                <NavLink to={item.to} end={item.to === "/"} prefetch="intent" title={collapsed ? t(`menu.${item.key}`) : undefined}>
                  <Icon name={item.key} />
                  <span className="label">{t(`menu.${item.key}`)}</span>
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1} className="content">
          <div className="boxed">{children}</div>
        </main>
      </div>
      <KeyboardShortcuts menu={root.menu} />
    </>
  );
}
