import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { i18nConfig } from "~/i18n";
import { I18nLite, type LoadBundle } from "~/i18n-lite";

/**
 * Loads /locales/{lng}/{ns}.json (the build's version in the query, so a new release is fetched
 * anew). A network failure or a 5xx is retried, a 4xx or bad JSON is not (as
 * i18next-http-backend did).
 */
const loadBundle: LoadBundle = async (language, namespace) => {
  const url = `/locales/${language}/${namespace}.json?v=${document.documentElement.dataset.build ?? ""}`;
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw { retry: true, error };
  }
  if (!response.ok) throw { retry: response.status >= 500, error: `failed loading ${url}; status code: ${response.status}` };
  try {
    return await response.json();
  } catch {
    throw { retry: false, error: `failed parsing ${url} to json` };
  }
};

async function hydrate() {
  // The browser's translator gives i18next's text (the server's) at a tenth of its weight:
  // app/i18n-lite.ts, docs/decisions/0015.
  const i18n = new I18nLite({ ...i18nConfig }, loadBundle);
  initReactI18next.init(i18n as never);
  await i18n.init(document.documentElement.lang);
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18n as never}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

hydrate().catch((error) => console.error(error));
