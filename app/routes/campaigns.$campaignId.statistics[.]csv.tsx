import type { LoaderFunctionArgs } from "@remix-run/node";
import { periodFromSearch } from "~/domain/metrics/periods";
import { requireUser } from "~/http/auth.server";
import { getRequestLocale } from "~/http/i18n.server";
import { orThrow } from "~/http/reply.server";
import { answerRefusals, csvResponse } from "~/http/resource.server";
import { requireCampaign } from "~/services/campaigns/campaigns.server";
import { CAMPAIGN_TABLES, exportCampaignCsv, type CampaignTable } from "~/services/metrics-export.server";
import { retailerTimeZone } from "~/services/retailer-settings.server";

/** One table of a campaign's statistics (?table=overTime|device|slot|placement|campaignType|products) as CSV. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const locale = await getRequestLocale(request);
  return answerRefusals(locale, async () => {
    const user = await requireUser(request, "Campaign");
    const ctx = orThrow(await requireCampaign(user, params.campaignId));
    const search = new URL(request.url).searchParams;
    const asked = search.get("table");
    const table: CampaignTable = (CAMPAIGN_TABLES as readonly string[]).includes(asked ?? "") ? (asked as CampaignTable) : "overTime";
    const timeZone = retailerTimeZone();
    const { period } = periodFromSearch(search, {
      now: new Date(),
      timeZone,
      campaign: { startDate: ctx.campaign.startDate, endDate: ctx.campaign.endDate, created: ctx.campaign.created },
    });
    const file = orThrow(await exportCampaignCsv(user, ctx, table, period, locale, timeZone));
    return csvResponse(file.fileName, file.body);
  });
}
