import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { CampaignListScreen, type CampaignListActionView } from "~/components/campaigns/list-screen";
import { requireUser } from "~/http/auth.server";
import { campaignListAction, campaignListLoader } from "~/http/campaign-list.server";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "campaigns");

/**
 * Every campaign the user may see (suppliers: their teams'): filters, search, sort, columns and
 * page all in the URL; custom views, bulk edit and duplicate. ?newTeam= opens a team's creation page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  return campaignListLoader(request, user, null);
}

/** Custom views (save, rename, delete) and the bulk edit (review, then apply). */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  return campaignListAction(request, user, null);
}

export default function CampaignListRoute() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as CampaignListActionView | undefined;
  return <CampaignListScreen page={page} actionData={actionData} />;
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
