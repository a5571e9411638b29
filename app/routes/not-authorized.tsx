import { data } from "@remix-run/node";
import { StatusPage } from "~/components/status-page";

export const handle = { layout: "full" };

export async function loader() {
  return data(null, { status: 403 });
}

export default function NotAuthorizedRoute() {
  return <StatusPage titleKey="errors.notAuthorizedTitle" messageKey="errors.notAuthorized" />;
}
