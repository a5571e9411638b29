import { data, redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { campaignPrefixRedirect } from "~/domain/campaigns/urls";
import { requireUser } from "~/http/auth.server";

/** /campaigns/new-{id}/{type} (route name campaign-new): redirects to the team's creation page. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request, "Campaign");
  const target = campaignPrefixRedirect(params.campaignId ?? "", params.type ?? null);
  if (target) throw redirect(target);
  throw data({ error: "errors.notFound" }, { status: 404 });
}

export const handle = { routeName: "campaign-new" };

export default function CampaignNewRedirect() {
  return null;
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
