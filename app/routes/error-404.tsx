import { data } from "@remix-run/node";
import { StatusPage } from "~/components/status-page";

export const handle = { layout: "full" };

export async function loader() {
  return data(null, { status: 404 });
}

export default function NotFoundRoute() {
  return <StatusPage titleKey="errors.notFoundTitle" messageKey="errors.notFound" />;
}
