import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CampaignFiltersScreen } from "~/components/campaigns/list-screen";
import { parseListState } from "~/domain/campaigns/list";
import { requireUser } from "~/http/auth.server";
import { requireVisibleTeam } from "~/http/scope.server";
import { campaignFiltersPage } from "~/services/campaigns/list.server";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "columns", "campaigns");

/** A team's Campaigns tab's filter form with statuses, columns and period (see campaigns.filters.tsx). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  const team = await requireVisibleTeam(user, params.teamId);
  return campaignFiltersPage(user, parseListState(new URL(request.url).searchParams), team);
}

export default function TeamCampaignFiltersRoute() {
  return <CampaignFiltersScreen page={useLoaderData<typeof loader>()} />;
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
