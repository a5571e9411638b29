/**
 * The product picker's search as you type (GET, JSON for the page's fetcher): the products
 * matching `q` that the user may sponsor for this campaign, or the suggestions for an empty `q`.
 * Without JavaScript the Products page answers the same search itself (its `q` parameter).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { orThrow } from "~/http/reply.server";
import { forbidden } from "~/domain/result";
import { campaignEditable, requireCampaign } from "~/services/campaigns/campaigns.server";
import { searchCampaignProducts } from "~/services/campaigns/product-picker.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  const ctx = orThrow(await requireCampaign(user, params.campaignId));
  // Only those who may add products search for them here.
  if (!campaignEditable(user, ctx)) orThrow(forbidden());
  const result = await searchCampaignProducts(user, ctx, new URL(request.url).searchParams.get("q") ?? "");
  return result.ok ? { ...result.value, failure: null } : { query: "", suggested: false, rows: [], failure: result.reason };
}
