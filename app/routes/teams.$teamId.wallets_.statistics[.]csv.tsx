import type { LoaderFunctionArgs } from "@remix-run/node";
import { OVERVIEW_PRESETS, periodFromSearch } from "~/domain/metrics/periods";
import { requireUser } from "~/http/auth.server";
import { getRequestLocale } from "~/http/i18n.server";
import { orThrow } from "~/http/reply.server";
import { answerRefusals, csvResponse } from "~/http/resource.server";
import { requireVisibleTeam } from "~/http/scope.server";
import { exportTeamWalletsCsv } from "~/services/metrics-export.server";
import { retailerTimeZone } from "~/services/retailer-settings.server";

/** A team's Wallets tab statistics of the chosen period as CSV (a team outside the user's scope: 404). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const locale = await getRequestLocale(request);
  return answerRefusals(locale, async () => {
    const user = await requireUser(request, "Wallet");
    const team = await requireVisibleTeam(user, params.teamId);
    const { period } = periodFromSearch(new URL(request.url).searchParams, { now: new Date(), timeZone: retailerTimeZone() }, OVERVIEW_PRESETS);
    const file = orThrow(await exportTeamWalletsCsv(user, team, period, locale));
    return csvResponse(file.fileName, file.body);
  });
}
