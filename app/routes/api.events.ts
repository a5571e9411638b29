/**
 * POST /api/events: the ad server's batches of events (README, "Events API"; ADR 18). A service
 * credential, not a user session: `Authorization: Bearer <EVENTS_API_KEY>` (401 without it, 503
 * while no key is configured). The body is JSON (415 otherwise, 400 when unreadable; its size is
 * bounded before it is read, 413): `{ batchId, events: [...] }`. The answer counts what was
 * accepted and gives each refused event's index and reason; a batch sent again answers the same
 * with `duplicate: true` and counts nothing again.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { jsonReply, replyApi } from "~/http/api.server";
import { checkBearer } from "~/http/service-auth.server";
import { getEnv } from "~/services/env.server";
import { ingestEventBatch } from "~/services/events.server";

const METHOD_NOT_ALLOWED = () => jsonReply({ error: "methodNotAllowed" }, 405, { Allow: "POST" });

export async function loader() {
  return METHOD_NOT_ALLOWED();
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return METHOD_NOT_ALLOWED();
  const auth = checkBearer(request, getEnv().EVENTS_API_KEY);
  if (!auth.ok) {
    return jsonReply({ error: auth.error }, auth.status, auth.status === 401 ? { "WWW-Authenticate": 'Bearer realm="events"' } : {});
  }
  const mediaType = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (mediaType !== "application/json") return jsonReply({ error: "jsonExpected" }, 415);
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    return jsonReply({ error: "badJson" }, 400);
  }
  return replyApi(await ingestEventBatch(body, new Date()));
}
