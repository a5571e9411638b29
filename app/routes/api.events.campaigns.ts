/**
 * GET /api/events/campaigns: what the ad server may serve now (the published copies of the
 * active campaigns), for the holder of the events key: the traffic simulator run against a
 * console (`npm run simulate`) reads it to send events only for campaigns that can serve.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { jsonReply } from "~/http/api.server";
import { checkBearer } from "~/http/service-auth.server";
import { getEnv } from "~/services/env.server";
import { retailerTimeZone } from "~/services/retailer-settings.server";
import { servableCampaigns } from "~/services/simulator.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const auth = checkBearer(request, getEnv().EVENTS_API_KEY);
  if (!auth.ok) return jsonReply({ error: auth.error }, auth.status, auth.status === 401 ? { "WWW-Authenticate": 'Bearer realm="events"' } : {});
  return jsonReply({ timeZone: retailerTimeZone(), campaigns: await servableCampaigns() });
}
