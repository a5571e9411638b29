import { RemixBrowser } from "@remix-run/react";
import i18next, { type BackendModule, type ReadCallback } from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { i18nConfig } from "~/i18n";

/**
 * Loads /locales/{lng}/{ns}.json (the build's version in the query, so a new release is fetched
 * anew). What i18next-http-backend did for this app, in a few lines instead of its 2.5 KiB gzip
 * on every page: a network failure or a 5xx is retried by i18next, a 4xx or bad JSON is not.
 */
const localesBackend: BackendModule = {
  type: "backend",
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    const url = `/locales/${language}/${namespace}.json?v=${document.documentElement.dataset.build ?? ""}`;
    fetch(url)
      .then(async (response) => {
        if (!response.ok) return callback(`failed loading ${url}; status code: ${response.status}`, response.status >= 500);
        let resources: unknown;
        try {
          resources = await response.json();
        } catch {
          return callback(`failed parsing ${url} to json`, false);
        }
        callback(null, resources as Parameters<ReadCallback>[1]);
      })
      .catch((error: unknown) => callback(`failed loading ${url}: ${String(error)}`, true));
  },
};

async function hydrate() {
  await i18next
    .use(initReactI18next)
    .use(localesBackend)
    .init({
      ...i18nConfig,
      lng: document.documentElement.lang,
    });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

hydrate().catch((error) => console.error(error));
