import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/http/auth.server";
import { getRequestLocale } from "~/http/i18n.server";
import { orThrow } from "~/http/reply.server";
import { answerRefusals, csvResponse } from "~/http/resource.server";
import { exportCampaignListCsv } from "~/services/metrics-export.server";

/**
 * A campaign list's statistics columns as CSV: every campaign the list's query selects (the same
 * query as /campaigns: filters, search, sort, period; a team's Campaigns tab sends its team), the
 * user's scope only, with its figures for the period.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const locale = await getRequestLocale(request);
  return answerRefusals(locale, async () => {
    const user = await requireUser(request, "Campaign");
    const file = orThrow(await exportCampaignListCsv(user, new URL(request.url).searchParams, locale));
    return csvResponse(file.fileName, file.body);
  });
}
