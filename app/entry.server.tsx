import { randomBytes, randomUUID } from "node:crypto";
import type { ActionFunctionArgs, AppLoadContext, EntryContext, LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { i18nConfig } from "~/i18n";
import { I18nLite, type LiteBundle } from "~/i18n-lite";
import { boot } from "~/services/boot.server";
import { remixI18next } from "~/http/i18n.server";
import { resources } from "~/services/i18n.server";
import { NonceProvider } from "~/utils/nonce-provider";
import { pageSecurityHeaders } from "~/http/security-headers.server";
import { LowPriorityScripts } from "~/http/script-priority.server";

/** Called by server.mjs before it listens. */
export { boot };
/** server.mjs's handler in front of Remix: request bodies bounded and checked. */
export { answerClientErrors, createRemixHandler, isTokenApiPath } from "~/http/request-body.server";

const ABORT_DELAY = 5_000;

const translators = new Map<string, Promise<I18nLite>>();

/**
 * The pages' translator for a language: the browser's (app/i18n-lite.ts, which gives i18next's
 * text, tests/unit/i18n-lite.test.ts) over the bundled resources, one per language for the
 * server's life, so that its remembered lookups serve every request (bench/RESULTS.md).
 */
function translatorFor(lng: string): Promise<I18nLite> {
  let translator = translators.get(lng);
  if (!translator) {
    const instance = new I18nLite({ ...i18nConfig }, async (language, ns) => ((resources as unknown as Record<string, Record<string, LiteBundle>>)[language]?.[ns] ?? {}));
    initReactI18next.init(instance as never);
    translator = instance.init(lng).then(() => instance);
    translators.set(lng, translator);
  }
  return translator;
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const nonce = randomBytes(16).toString("base64");
  const instance = await translatorFor(await remixI18next.getLocale(request));

  const callbackName = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";
  for (const [name, value] of Object.entries(await pageSecurityHeaders(nonce))) responseHeaders.set(name, value);
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "private, no-store");

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    let timer: NodeJS.Timeout | undefined;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <I18nextProvider i18n={instance as never}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </I18nextProvider>
      </NonceProvider>,
      {
        nonce,
        [callbackName]: () => {
          shellRendered = true;
          // Scripts are preloaded at low priority: the first paint never waits for them.
          const body = new LowPriorityScripts();
          // Rendered to the end: the abort timer has nothing left to stop (and would keep the
          // whole render in memory for its 5 s).
          body.once("finish", () => clearTimeout(timer));
          resolve(
            new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    timer = setTimeout(abort, ABORT_DELAY);
  });
}

/**
 * Unexpected errors are logged with the request id; the user sees 'Error occurred' only. A
 * refusal (a thrown 4xx Response or data(), which resource routes hand over as an error
 * response) and a body the server refused while it streamed are answers, not errors: not logged.
 */
export function handleError(error: unknown, { request, context }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (request.signal.aborted) return;
  if (isRefusal(error)) return;
  if ((context as { bodyRefused?: () => boolean } | undefined)?.bodyRefused?.()) return;
  console.error(
    JSON.stringify({
      level: "error",
      requestId: (context as AppLoadContext | undefined)?.requestId ?? randomUUID(),
      method: request.method,
      url: new URL(request.url).pathname,
      error: error instanceof Error ? { message: error.message, stack: error.stack } : describe(error),
    }),
  );
}

function isRefusal(error: unknown): boolean {
  if (error instanceof Response) return error.status < 500;
  if (isRouteErrorResponse(error)) return error.status < 500;
  const init = (error as { type?: string; init?: ResponseInit | null } | null)?.init;
  return (error as { type?: string } | null)?.type === "DataWithResponseInit" && (init?.status ?? 200) < 500;
}

/** Something thrown that is not an Error, readable in the log (never '[object Object]'). */
function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${JSON.stringify(error.data)}`;
  try {
    return typeof error === "object" ? JSON.stringify(error) : String(error);
  } catch {
    return String(error);
  }
}
