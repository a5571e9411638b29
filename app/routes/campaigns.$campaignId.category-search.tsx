/**
 * The category search as you type of the Categories section (GET, JSON for the page's fetcher):
 * the categories (`kind=category`) or product categories (`kind=productCategory`) matching `q`,
 * or the suggestions for an empty `q` (ADR 35). Without JavaScript the Categories page answers
 * the same search itself (its `cq` and `ckind` parameters).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getRequestLocale } from "~/http/i18n.server";
import { requireUser } from "~/http/auth.server";
import { orThrow } from "~/http/reply.server";
import { forbidden } from "~/domain/result";
import { campaignEditable, requireCampaign } from "~/services/campaigns/campaigns.server";
import { searchCampaignCategories } from "~/services/campaigns/category-picker.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  const ctx = orThrow(await requireCampaign(user, params.campaignId));
  // Only those who may add categories search for them here.
  if (!campaignEditable(user, ctx)) orThrow(forbidden());
  const search = new URL(request.url).searchParams;
  const kind = search.get("kind") === "productCategory" ? "productCategory" : "category";
  const result = await searchCampaignCategories(user, ctx, kind, search.get("q") ?? "", await getRequestLocale(request));
  return result.ok ? { ...result.value, kind, failure: null } : { query: "", suggested: false, rows: [], kind, failure: result.reason };
}
