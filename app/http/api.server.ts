/**
 * Replies of the JSON APIs called by machines (bearer tokens, no session): JSON bodies, never
 * cached, a failure's kind mapped to its status as everywhere (reply.server.ts), its reason a
 * stable code the caller can act on.
 */
import type { Failure, Result } from "~/domain/result";
import { statusOf } from "~/http/reply.server";

export function jsonReply(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}

/** `{ error }` with the failure's status. */
export function replyApiFailure(failure: Pick<Failure, "kind" | "reason">): Response {
  return jsonReply({ error: failure.reason }, statusOf(failure));
}

/** A use case's result: its value as JSON (200), or its failure. */
export function replyApi<T>(result: Result<T>): Response {
  return result.ok ? jsonReply(result.value) : replyApiFailure(result);
}
