import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { CAMPAIGN_PRESETS, campaignPresetContext, periodFromSearch } from "~/domain/metrics/periods";
import { requireUser } from "~/http/auth.server";
import { getRequestLocale } from "~/http/i18n.server";
import { orThrow } from "~/http/reply.server";
import { answerRefusals, csvResponse } from "~/http/resource.server";
import { requireCampaign } from "~/services/campaigns/campaigns.server";
import { CAMPAIGN_TABLES, exportCampaignCsv, type CampaignTable } from "~/services/metrics-export.server";
import { retailerTimeZone } from "~/services/retailer-settings.server";

/**
 * One table of a campaign's statistics (?table=overTime|device|slot|placement|campaignType|products)
 * as CSV. Without a campaign id (/campaigns/%20/statistics.csv) it answers the spec's 'No campaign ID'.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const locale = await getRequestLocale(request);
  return answerRefusals(locale, async () => {
    const user = await requireUser(request, "Campaign");
    if (!params.campaignId?.trim()) throw data({ error: "metrics:errors.noCampaignId" }, { status: 400 });
    const ctx = orThrow(await requireCampaign(user, params.campaignId));
    const search = new URL(request.url).searchParams;
    const asked = search.get("table");
    const table: CampaignTable = (CAMPAIGN_TABLES as readonly string[]).includes(asked ?? "") ? (asked as CampaignTable) : "overTime";
    const timeZone = retailerTimeZone();
    const { period } = periodFromSearch(search, { now: new Date(), timeZone, ...campaignPresetContext(ctx.campaign) }, CAMPAIGN_PRESETS);
    const file = orThrow(await exportCampaignCsv(user, ctx, table, period, locale, timeZone));
    return csvResponse(file.fileName, file.body);
  });
}
