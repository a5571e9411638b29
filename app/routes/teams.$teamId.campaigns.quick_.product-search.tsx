/**
 * The quick builder's product search as you type (GET, JSON for the products step's fetcher,
 * ADR 35): the team's products matching `q`, or the suggestions (best sellers of its brands) for
 * an empty `q`; the same reading as the step's own GET form, with the same rights (Campaign
 * create on the team).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requirePermission, requireUser } from "~/http/auth.server";
import { requireVisibleTeam } from "~/http/scope.server";
import { quickProducts } from "~/services/campaigns/quick.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  const team = await requireVisibleTeam(user, params.teamId);
  requirePermission(user, "Campaign", "create", { teamId: team.id });
  const query = (new URL(request.url).searchParams.get("q") ?? "").trim();
  const found = await quickProducts(user, team, query, []);
  return found.ok ? { query, suggested: !query, rows: found.value.rows, failure: null } : { query, suggested: !query, rows: [], failure: found.reason };
}
