import { StatusPage } from "~/components/status-page";

export const handle = { layout: "full" };

export default function ErrorRoute() {
  return <StatusPage titleKey="errors.errorOccurred" messageKey="errors.tryAgain" />;
}
