/**
 * Resource routes (downloads such as the CSV exports) have no page to show an error on: a refusal
 * thrown as `data()` (404 out of scope, 403 no right, 400 a bad period) would reach the server as
 * an unknown error ('Unexpected Server Error', logged as '[object Object]'). This answers it as
 * what it is: its status, with the message in the reader's language as plain text. Redirects
 * (sign-in) pass through.
 */
import { splitMessage } from "~/domain/message";
import { getFixedT } from "~/services/i18n.server";

function isDataWithInit(value: unknown): value is { type: "DataWithResponseInit"; data: unknown; init: ResponseInit | null } {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit";
}

export async function answerRefusals(locale: string, run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Response) return error;
    if (!isDataWithInit(error)) throw error;
    const status = error.init?.status ?? 500;
    const message = (error.data as { error?: unknown } | null)?.error;
    const t = await getFixedT(locale);
    const { key, values } = splitMessage(typeof message === "string" ? message : "errors.errorOccurred");
    return new Response(`${t(key, values)}\n`, {
      status,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff" },
    });
  }
}

/** A CSV file as a download, never cached or sniffed. */
export function csvResponse(fileName: string, body: string): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
