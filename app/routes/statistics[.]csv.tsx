import type { LoaderFunctionArgs } from "@remix-run/node";
import { parseDashboardQuery } from "~/domain/metrics/dashboard";
import { OVERVIEW_PRESETS, periodFromSearch } from "~/domain/metrics/periods";
import { requireUser } from "~/http/auth.server";
import { getRequestLocale } from "~/http/i18n.server";
import { orThrow } from "~/http/reply.server";
import { answerRefusals, csvResponse } from "~/http/resource.server";
import { exportDashboardCsv } from "~/services/metrics-export.server";
import { retailerTimeZone } from "~/services/retailer-settings.server";

/** The dashboard's tab of the chosen period and filters as a CSV download (every row, the user's scope). */
export async function loader({ request }: LoaderFunctionArgs) {
  const locale = await getRequestLocale(request);
  return answerRefusals(locale, async () => {
    const user = await requireUser(request, "Home");
    const params = new URL(request.url).searchParams;
    const { tab, filters, dropped } = parseDashboardQuery(params);
    const { period } = periodFromSearch(params, { now: new Date(), timeZone: retailerTimeZone() }, OVERVIEW_PRESETS);
    const file = orThrow(await exportDashboardCsv(user, tab, period, locale, { filters, dropped }));
    return csvResponse(file.fileName, file.body);
  });
}
