import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { campaignNewPath } from "~/domain/campaigns/urls";
import { DEFAULT_CAMPAIGN_TYPE } from "~/domain/retailer-settings";

/** /teams/{id}/campaigns/new: the default type's creation page. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const search = new URL(request.url).search;
  throw redirect(campaignNewPath(params.teamId ?? "", DEFAULT_CAMPAIGN_TYPE) + search);
}
