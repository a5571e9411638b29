import { orThrow, statusOf, unknownIntent } from "~/http/reply.server";
import { fail, failureMessage, type Failure } from "~/domain/result";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, NavLink, Outlet, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CampaignActionBar } from "~/components/campaigns/actions";
import { CapNotices, LiveStatusBadge } from "~/components/campaigns/status-badge";
import { FormAlert } from "~/components/forms";
import { campaignPrefixRedirect } from "~/domain/campaigns/urls";
import { safeRedirectPath } from "~/domain/navigation";
import { CampaignActionSchema, campaignActionIntent, duplicateCampaignIntent } from "~/forms/campaigns/campaigns";
import { requireUser } from "~/http/auth.server";
import { campaignFrame, duplicateCampaign, requireCampaign, runCampaignAction } from "~/services/campaigns/campaigns.server";
import { getRequestLocale } from "~/http/i18n.server";
import { getFixedT } from "~/services/i18n.server";
import { redirectWithToast } from "~/http/toast.server";
import { useByName } from "~/components/by-name";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data ? { name: data.campaign.name } : "campaign");

/** The editor's frame: the campaign (404 outside the user's scope), its header, actions and sections. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  const rest = new URL(request.url).pathname.split("/")[3];
  const prefixed = campaignPrefixRedirect(params.campaignId ?? "", rest ? decodeURIComponent(rest) : null);
  if (prefixed) throw redirect(prefixed);
  const ctx = orThrow(await requireCampaign(user, params.campaignId));
  return campaignFrame(user, ctx, await getRequestLocale(request));
}

export type CampaignLayoutLoader = typeof loader;

/** A refused lifecycle action: its message and what it lists (e.g. each gap of an incomplete campaign). */
function actionRefused(failure: Failure) {
  return data({ actionError: { message: failureMessage(failure), problems: failure.details ?? [] } }, { status: statusOf(failure) });
}

/** Lifecycle actions and duplication, posted from any section of the editor. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (!params.campaignId) return actionRefused(fail("invalid", "campaigns:errors.noCampaignId"));
  const ctx = orThrow(await requireCampaign(user, params.campaignId));
  const returnTo = safeRedirectPath(formData.get("returnTo"), `/campaigns/${ctx.campaign.id}`);
  if (intent === duplicateCampaignIntent) {
    const t = await getFixedT(await getRequestLocale(request));
    const duplicated = await duplicateCampaign(user, ctx, t("campaigns:duplicate.copyName", { name: ctx.campaign.name }));
    // Spec section 8: duplication returns the new id silently (no toast).
    if (!duplicated.ok) return actionRefused(duplicated);
    return redirect(`/campaigns/${duplicated.value}`);
  }
  if (intent !== campaignActionIntent) return unknownIntent();
  const submission = parseWithZod(formData, { schema: CampaignActionSchema });
  if (submission.status !== "success") return actionRefused(fail("invalid", "campaigns:actions.unknown"));
  const { action: act, version, reason } = submission.value;
  const outcome = await runCampaignAction(user, ctx, act, version, reason);
  if (!outcome.ok) return actionRefused(outcome);
  if (outcome.value.deleted) {
    return redirectWithToast(`/teams/${encodeURIComponent(ctx.team.id)}/campaigns`, { type: "success", title: "campaigns:toast.deleted" });
  }
  return redirectWithToast(returnTo, { type: "success", title: outcome.value.message, values: { name: ctx.campaign.name } });
}

export const SECTIONS = ["general", "statistics", "bidding", "budget", "targeting", "creative", "products", "keywords", "categories", "history"] as const;

export default function CampaignLayoutRoute() {
  const byName = useByName();
  const { t } = useTranslation(["campaigns", "campaignEditor"]);
  // Message keys name their namespace ("campaigns:…") or are common's: the default t reads both.
  const { t: tc } = useTranslation();
  const { t: tp } = useTranslation("campaignPreview");
  const { campaign, team, actions, canDuplicate, canPreview } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const base = `/campaigns/${campaign.id}`;
  const actionError = actionData && "actionError" in actionData ? actionData.actionError : null;
  return (
    <>
      <p className="breadcrumb">
        <Link to={`/teams/${team.id}/campaigns`}>{t("editor.backToTeam", { team: team.name })}</Link>
      </p>
      <header className="campaign-header">
        <h1>{campaign.name}</h1>
        <p className="campaign-meta">
          <LiveStatusBadge status={campaign.liveStatus} />
          <span>{t(`types.${campaign.campaignType}`)}</span>
          <span>{t("editor.period", { start: campaign.start ?? "—", end: campaign.end ?? t("editor.noEnd") })}</span>
          <span>{t("editor.updatedBy", { when: campaign.updated, by: byName(campaign.by) })}</span>
        </p>
        <CapNotices caps={campaign.caps} />
        {campaign.review && campaign.status === "rejected" && !campaign.review.approved ? (
          <p className="notice campaign-review" role="note">
            {t("campaignEditor:review.rejected", { by: campaign.review.by, reason: campaign.review.rejectionReason ?? "" })}
          </p>
        ) : null}
        {campaign.status === "pending_review" ? (
          <p className="notice campaign-review" role="note">
            {t("campaignEditor:review.pending")}
          </p>
        ) : null}
        {team.status !== "active" ? (
          <p className="notice campaign-withdrawn" role="note">
            {t("campaignEditor:withdrawn")}
          </p>
        ) : null}
      </header>
      {actionError ? (
        actionError.message === "errors.conflict" ? (
          <FormAlert title={tc("errors.conflictTitle")} message={tc("errors.conflict")} />
        ) : (
          <FormAlert title={tc(actionError.message)} message={actionError.problems.map((k) => tc(k)).join(" · ") || undefined} />
        )
      ) : null}
      <div className="campaign-toolbar">
        <CampaignActionBar
          campaignId={campaign.id}
          version={campaign.version}
          actions={actions}
          returnTo={location.pathname}
          name={campaign.name}
        />
        {canDuplicate ? (
          <Form method="post" action={base} className="inline-form">
            <input type="hidden" name="intent" value={duplicateCampaignIntent} />
            <button type="submit" className="button">
              {t("duplicate.submit")}
            </button>
          </Form>
        ) : null}
        {canPreview ? (
          <Link to={`${base}/preview`} className="button">
            {tp("link")}
          </Link>
        ) : null}
      </div>
      <nav aria-label={t("editor.sections")} className="tabs campaign-tabs">
        <NavLink to={base} end prefetch="intent">
          {t("editor.section.general")}
        </NavLink>
        {SECTIONS.slice(1).map((s) => (
          <NavLink key={s} to={`${base}/${s}`} prefetch="intent">
            {s === "statistics" ? t("metrics:title") : s === "keywords" || s === "categories" ? t(`campaignKeywords:section.${s}`) : t(`editor.section.${s}`)}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
