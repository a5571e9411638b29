import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useMatches, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useChangeLanguage } from "remix-i18next/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Shell } from "~/components/layout/shell";
import { Toasts } from "~/components/toasts";
import { VersionCheck } from "~/components/version-check";
import { currencyForLocale } from "~/domain/money";
import { menuFor } from "~/domain/navigation";
import { can } from "~/domain/permissions";
import { LogAsBanner } from "~/components/layout/user-menu";
import { sessionRoles } from "~/services/operators.server";
import { APP_VERSION } from "~/domain/version";
import { getCurrentUser, refreshSessionIfDue } from "~/http/auth.server";
import { getLiveConfig } from "~/services/config.server";
import { getEnv } from "~/services/env.server";
import { getRequestLocale } from "~/http/i18n.server";
import { getDisplayPreferences } from "~/http/preferences.server";
import { getToast } from "~/http/toast.server";
import { toSessionUser } from "~/services/users.server";
import { unreadCount } from "~/services/notifications.server";
import stylesUrl from "~/styles/app.css";
import { useNonce } from "~/utils/nonce-provider";
import { pageTitle } from "~/utils/page-title";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesUrl },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction<typeof loader> = ({ matches }) => pageTitle(matches);

export async function loader({ request }: LoaderFunctionArgs) {
  const [{ user, mustEnrol }, { toast, headers: toastHeaders }, config, locale] = await Promise.all([
    getCurrentUser(request),
    getToast(request),
    getLiveConfig(),
    getRequestLocale(request),
  ]);
  const [display, unreadNotifications] = await Promise.all([getDisplayPreferences(request, user), user ? unreadCount(user) : 0]);
  const refreshHeaders = user ? await refreshSessionIfDue(request, user) : null;
  const headers = new Headers();
  for (const h of [toastHeaders, refreshHeaders]) h?.getSetCookie().forEach((c) => headers.append("Set-Cookie", c));
  const env = getEnv();
  return data(
    {
      user: user ? toSessionUser(user) : null,
      unreadNotifications,
      mayReadNotifications: user && !mustEnrol ? can(user, "Notification", "read") : false,
      // A user who must set up a second factor first sees no menu: enrolment is the only screen (ADR 30).
      menu: user && !mustEnrol ? menuFor(user).map(({ key, to, shortcut }) => ({ key, to, shortcut })) : [],
      /** 'Log as': the operator's name (the console is the user's); the session's roles to pick. */
      loggedAsBy: user?.loggedAsBy ? user.loggedAsBy.displayName || user.loggedAsBy.email : null,
      sessionRoles: user ? sessionRoles(user) : null,
      locale,
      display,
      toast,
      appVersion: APP_VERSION,
      liveVersion: config?.appVersion ?? null,
      configError: config === null,
      money: { currency: currencyForLocale(env.RETAILER_CURRENCY_LOCALE), retailerTimezone: env.RETAILER_TIMEZONE },
    },
    { headers },
  );
}

export type RootLoader = typeof loader;

export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRootData();
  const nonce = useNonce();
  const locale = root?.locale ?? "en-GB";
  const theme = root?.display.theme ?? "system";
  return (
    <html
      lang={locale}
      dir={root?.display.rtl ? "rtl" : "ltr"}
      data-theme={theme === "system" ? undefined : theme}
      data-build={String(APP_VERSION)}
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={theme === "system" ? "light dark" : theme} />
        <meta name="app-version" content={String(APP_VERSION)} />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { locale, user, toast, configError, liveVersion, appVersion } = useLoaderData<typeof loader>();
  const matches = useMatches();
  const { i18n } = useTranslation();
  useChangeLanguage(locale);
  const fullLayout = !user || matches.some((m) => (m.handle as { layout?: string } | undefined)?.layout === "full");
  const effectiveToast = configError ? { type: "error" as const, title: "errors.fetchConfig", description: "errors.errorOccurred" } : toast;
  return (
    <>
      {fullLayout ? (
        <>
          {/* Full-page screens (not authorized, maintenance) keep the 'Log as' banner too. */}
          <LogAsBanner />
          <main id="main" tabIndex={-1} className="full-layout">
            <Outlet />
          </main>
        </>
      ) : (
        <Shell>
          <Outlet />
        </Shell>
      )}
      <Toasts toast={effectiveToast} key={i18n.language} />
      {liveVersion !== null ? <VersionCheck appVersion={appVersion} liveVersion={liveVersion} /> : null}
    </>
  );
}

export function ErrorBoundary() {
  return (
    <main id="main" tabIndex={-1} className="full-layout">
      <GeneralErrorBoundary />
    </main>
  );
}
