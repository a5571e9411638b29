/**
 * POST /api/metrics: the console's own statistics service, the /metrics contract of spec
 * section 7 (app/domain/metrics/contract.ts). Called with `Authorization: Bearer <identity
 * token>`; a token reads only the teams its user may see. 401 without a valid token, 400 for a
 * body that breaks the contract, 405 for other methods.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { parseMetricsRequest, responseToWire, scopeRequest } from "~/domain/metrics/contract";
import { jsonReply as json } from "~/http/api.server";
import { bearerToken } from "~/http/service-auth.server";
import { verifyIdentityToken } from "~/services/identity-token.server";
import { answerMetrics, tokenScope } from "~/services/metrics.server";

export async function loader() {
  return json({ error: "Use POST" }, 405, { Allow: "POST" });
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return json({ error: "Use POST" }, 405, { Allow: "POST" });
  const claims = await verifyIdentityToken(bearerToken(request));
  if (!claims) return json({ error: "A valid identity token is required" }, 401, { "WWW-Authenticate": 'Bearer realm="metrics"' });
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return json({ error: "The body must be JSON" }, 400);
  }
  const parsed = parseMetricsRequest(body);
  if (!parsed.ok) return json({ error: parsed.reason }, 400);
  try {
    // A token reads its user's teams, less the archived ones (read now: not the user's to see).
    // The exclusion is the scope's, never the body's (parseMetricsRequest reads known fields only).
    const scope = await tokenScope(claims);
    return json(responseToWire(await answerMetrics(scopeRequest(parsed.value, scope.teams), { excludeTeams: scope.excludeTeams })));
  } catch (error) {
    console.error(JSON.stringify({ level: "error", what: "api/metrics", error: error instanceof Error ? error.message : String(error) }));
    return json({ error: "Statistics are unavailable" }, 503);
  }
}
