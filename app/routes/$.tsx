import { data } from "@remix-run/node";
import { StatusPage } from "~/components/status-page";

/** Any unknown path answers 404 with the not-found page, at the same URL. */
export async function loader() {
  return data(null, { status: 404 });
}

export default function UnknownPathRoute() {
  return <StatusPage titleKey="errors.notFoundTitle" messageKey="errors.notFound" />;
}
