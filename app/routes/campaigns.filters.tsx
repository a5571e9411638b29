import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CampaignFiltersScreen } from "~/components/campaigns/list-screen";
import { parseListState } from "~/domain/campaigns/list";
import { requireUser } from "~/http/auth.server";
import { campaignFiltersPage } from "~/services/campaigns/list.server";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "columns", "campaigns");

/**
 * The campaign list's filter form with its statuses, columns and period (ADR 25): the list page
 * links here without JavaScript instead of rendering that panel with every page. A GET form back
 * to /campaigns; nothing is read or written here but the filter's choices.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  return campaignFiltersPage(user, parseListState(new URL(request.url).searchParams), null);
}

export default function CampaignFiltersRoute() {
  return <CampaignFiltersScreen page={useLoaderData<typeof loader>()} />;
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
