import { data, redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { StatusPage } from "~/components/status-page";
import { getLiveConfig } from "~/services/config.server";

export const handle = { layout: "full" };

export async function loader(_: LoaderFunctionArgs) {
  const config = await getLiveConfig();
  if (config && !config.maintenance) throw redirect("/");
  return data(null, { status: 503, headers: { "Retry-After": "300" } });
}

export default function UnderMaintenanceRoute() {
  return <StatusPage titleKey="maintenance.title" messageKey="maintenance.message" home={false} />;
}
