import { orThrow } from "~/http/reply.server";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { exportHistoryCsv } from "~/services/campaigns/history.server";
import { campaignViewContext, requireCampaign } from "~/services/campaigns/campaigns.server";
import { getRequestLocale } from "~/http/i18n.server";
import { answerRefusals, csvResponse } from "~/http/resource.server";

/** The campaign's whole history as a CSV download: the same rights and scope as the page. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return answerRefusals(await getRequestLocale(request), () => exportHistory(request, params));
}

async function exportHistory(request: Request, params: LoaderFunctionArgs["params"]): Promise<Response> {
  const user = await requireUser(request, "Campaign");
  const ctx = orThrow(await requireCampaign(user, params.campaignId));
  const view = campaignViewContext(user, await getRequestLocale(request));
  const { fileName, body } = await exportHistoryCsv(ctx.campaign, { locale: view.locale, timeZone: view.userTimeZone, currency: view.currency }, view.now);
  return csvResponse(fileName, body);
}
