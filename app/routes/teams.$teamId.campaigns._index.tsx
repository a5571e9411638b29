import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { CampaignListScreen, type CampaignListActionView } from "~/components/campaigns/list-screen";
import { requireUser } from "~/http/auth.server";
import { campaignListAction, campaignListLoader } from "~/http/campaign-list.server";
import { requireVisibleTeam } from "~/http/scope.server";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "campaigns");

/** A team's Campaigns tab (the spec's /campaigns/team-{id} leads here): the list, on this team only. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  const team = await requireVisibleTeam(user, params.teamId);
  return campaignListLoader(request, user, team);
}

/** Custom views and the bulk edit, limited to this team's campaigns. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  const team = await requireVisibleTeam(user, params.teamId);
  return campaignListAction(request, user, team);
}

export default function TeamCampaignsRoute() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as CampaignListActionView | undefined;
  return <CampaignListScreen page={page} actionData={actionData} />;
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
