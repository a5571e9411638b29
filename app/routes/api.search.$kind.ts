/**
 * POST /api/search/{product,keyword,category}: the console's own search service, the /search
 * contract of spec section 7 (app/domain/search-contract.ts). Called with `Authorization: Bearer
 * <identity token>` like /api/metrics: a supplier's token finds only the products its teams may
 * sponsor, and only an operator's gets the operators' fields. 401 without a valid token, 400 for
 * a body that breaks the contract (the reason says why), 404 for another kind, 405 for other
 * methods.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { isSearchKind, parseSearchRequest } from "~/domain/search-contract";
import { jsonReply as json } from "~/http/api.server";
import { bearerToken } from "~/http/service-auth.server";
import { verifyIdentityToken } from "~/services/identity-token.server";
import { answerSearch } from "~/services/search.server";

export async function loader() {
  return json({ error: "Use POST" }, 405, { Allow: "POST" });
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return json({ error: "Use POST" }, 405, { Allow: "POST" });
  const kind = params.kind;
  if (!isSearchKind(kind)) return json({ error: "Search product, keyword or category" }, 404);
  const claims = await verifyIdentityToken(bearerToken(request));
  if (!claims) return json({ error: "A valid identity token is required" }, 401, { "WWW-Authenticate": 'Bearer realm="search"' });
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return json({ error: "The body must be JSON" }, 400);
  }
  const parsed = parseSearchRequest(kind, body);
  if (!parsed.ok) return json({ error: parsed.reason }, 400);
  try {
    return json(await answerSearch(kind, parsed.value, claims));
  } catch (error) {
    console.error(JSON.stringify({ level: "error", what: "api/search", kind, error: error instanceof Error ? error.message : String(error) }));
    return json({ error: "Search is unavailable" }, 503);
  }
}
