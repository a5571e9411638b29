import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { requireVisibleTeam } from "~/http/scope.server";

/** /teams/{id} opens the team on its first tab, Campaigns. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "TeamPage");
  const team = await requireVisibleTeam(user, params.teamId);
  return redirect(`/teams/${encodeURIComponent(team.id)}/campaigns`);
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
