import type { LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/services/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, "Campaign");
  return null;
}

export default function CampaignListRoute() {
  const { t } = useTranslation();
  return (
    <>
      <h1>{t("campaigns.title")}</h1>
      <p className="empty-state">{t("campaigns.empty")}</p>
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
