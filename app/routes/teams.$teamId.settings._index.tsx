import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormAlert, SubmitButton } from "~/components/forms";
import { TeamFormFields } from "~/components/team-form";
import { TeamStatusBadge } from "~/components/team-status-badge";
import { can } from "~/domain/permissions";
import { statusChangeName, statusChangesFor } from "~/domain/team-form";
import { canSeeTeam } from "~/domain/teams";
import { INTERNAL_BILLING_TAG, type Team, type User } from "~/domain/types";
import { changeStatusIntent, ChangeStatusSchema, freeTagsText, updateTeamIntent, UpdateTeamSchema } from "~/forms/teams";
import { requirePermission, requireUser } from "~/http/auth.server";
import { requireVisibleTeam } from "~/http/scope.server";
import { changeTeamStatus, toTeamView, updateTeam } from "~/services/teams-admin.server";
import { readTeamForm } from "~/http/multipart.server";
import { reply, replyInvalid, unknownIntent } from "~/http/reply.server";
import { formatDateTime } from "~/utils/format";

/** Details of a team: the edit form and status changes for team managers, the facts for others. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "TeamPage");
  const team = await requireVisibleTeam(user, params.teamId);
  const canManage = can(user, "Team", "update");
  return {
    team: toTeamView(team, user),
    canManage,
    statusChanges: canManage ? statusChangesFor(user.claims, team.status) : [],
    timezone: user.timezone,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, "TeamPage");
  const team = await requireVisibleTeam(user, params.teamId);
  requirePermission(user, "Team", "update");
  const formData = await readTeamForm(request);
  switch (formData.get("intent")) {
    case updateTeamIntent:
      return saveDetails(user, team, formData);
    case changeStatusIntent:
      return saveStatus(user, team, formData);
    default:
      return unknownIntent();
  }
}

async function saveDetails(user: User, team: Team, formData: FormData) {
  const submission = parseWithZod(formData, { schema: UpdateTeamSchema });
  const hideFields = ["logo"];
  if (submission.status !== "success") return replyInvalid("details", submission, { hideFields });
  return reply(await updateTeam(user, team, submission.value), {
    form: "details",
    submission,
    hideFields,
    onSuccess: () => ({ to: `/teams/${team.id}/settings`, toast: { type: "success", title: "toast.changesSaved" } }),
  });
}

async function saveStatus(user: User, team: Team, formData: FormData) {
  const submission = parseWithZod(formData, { schema: ChangeStatusSchema });
  if (submission.status !== "success") return replyInvalid("status", submission);
  const { status, version } = submission.value;
  return reply(await changeTeamStatus(user, team, status, version), {
    form: "status",
    submission,
    onSuccess: (saved) => ({
      // A retailer no longer sees an archived team: back to the list.
      to: canSeeTeam(user, saved) ? `/teams/${team.id}/settings` : "/teams",
      toast: {
        type: "success",
        title: "toast.changesSaved",
        description: `teams:toast.status.${statusChangeName(team.status, status)}`,
        values: { name: team.name },
      },
    }),
  });
}

export default function TeamDetailsRoute() {
  const { team, canManage } = useLoaderData<typeof loader>();
  return canManage ? <TeamEditor /> : <TeamFacts team={team} />;
}

function TeamEditor() {
  const { t, i18n } = useTranslation("teams");
  const { team, statusChanges, timezone } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  const [form, fields] = useForm({
    id: "team-form",
    lastResult: actionData?.form === "details" ? actionData.result : undefined,
    constraint: getZodConstraint(UpdateTeamSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: UpdateTeamSchema }),
    defaultValue: {
      name: team.name,
      account_type: team.account_type,
      contact: team.contact,
      address: team.address,
      zip_code: team.zip_code,
      city: team.city,
      state: team.state,
      country: team.country,
      internalBilling: team.tags?.includes(INTERNAL_BILLING_TAG) ? "on" : undefined,
      tags: freeTagsText(team.tags ?? []),
      associated_brands: team.associated_brands.join(", "),
      marketplace_seller_id: team.marketplace_seller_id,
      external_id: team.external_id ?? "",
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const statusErrors = actionData?.form === "status" ? actionData.result?.error?.[""] : null;
  return (
    <>
      <section className="panel" aria-labelledby="team-details-title">
        <h2 id="team-details-title">{t("settings.detailsTitle")}</h2>
        {form.errors?.length ? <FormAlert title={t("common:errors.conflictTitle")} message={t(form.errors[0])} /> : null}
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)}>
          <input type="hidden" name="intent" value={updateTeamIntent} />
          <input type="hidden" name="version" value={team.version} />
          <TeamFormFields fields={fields} logoUrl={team.logoUrl} />
          <SubmitButton pending={submitting === updateTeamIntent}>{t("common:actions.save")}</SubmitButton>
        </Form>
        <p className="muted">{t("settings.lastChange", { at: formatDateTime(team.updated, i18n.language, timezone) })}</p>
      </section>

      <section className="panel" aria-labelledby="team-status-title">
        <h2 id="team-status-title">{t("fields.status")}</h2>
        <p>
          {t("settings.currentStatus")} <TeamStatusBadge status={team.status} />
        </p>
        <p className="muted">{t(`statusHelp.${team.status}`)}</p>
        {statusErrors?.length ? <FormAlert title={t("common:errors.conflictTitle")} message={t(statusErrors[0]!)} /> : null}
        {statusChanges.map(({ to, change }) => (
          <details className="confirm" key={to}>
            <summary>{t(`statusChange.${change}.action`)}</summary>
            <div className="confirm-body">
              <p>{t(`statusChange.${change}.question`, { name: team.name })}</p>
              <Form method="post">
                <input type="hidden" name="intent" value={changeStatusIntent} />
                <input type="hidden" name="version" value={team.version} />
                <input type="hidden" name="status" value={to} />
                <input type="hidden" name="confirmed" value="yes" />
                <SubmitButton pending={submitting === changeStatusIntent && navigation.formData?.get("status") === to}>
                  {t(`statusChange.${change}.confirm`)}
                </SubmitButton>
              </Form>
            </div>
          </details>
        ))}
      </section>
    </>
  );
}

function TeamFacts({ team }: { team: ReturnType<typeof useLoaderData<typeof loader>>["team"] }) {
  const { t } = useTranslation("teams");
  const dash = (v: string) => v || "—";
  const address = [team.address, [team.zip_code, team.city].filter(Boolean).join(" "), team.state, team.country].filter(Boolean).join(", ");
  return (
    <section className="panel" aria-labelledby="team-details-title">
      <h2 id="team-details-title">{t("settings.detailsTitle")}</h2>
      <dl className="facts">
        <dt>{t("fields.name")}</dt>
        <dd>{team.name}</dd>
        <dt>{t("fields.status")}</dt>
        <dd>
          <TeamStatusBadge status={team.status} />
        </dd>
        <dt>{t("fields.accountType")}</dt>
        <dd>{t(`accountTypes.${team.account_type}`)}</dd>
        <dt>{t("fields.contact")}</dt>
        <dd>{dash(team.contact)}</dd>
        <dt>{t("fields.address")}</dt>
        <dd>{dash(address)}</dd>
        <dt>{t("fields.associatedBrands")}</dt>
        <dd>{dash(team.associated_brands.join(", "))}</dd>
        <dt>{t("fields.marketplaceSellerId")}</dt>
        <dd>{dash(team.marketplace_seller_id)}</dd>
        {team.tags !== null ? (
          <>
            <dt>{t("fields.tags")}</dt>
            <dd>{dash(team.tags.join(", "))}</dd>
          </>
        ) : null}
        {team.external_id !== null ? (
          <>
            <dt>{t("fields.externalId")}</dt>
            <dd>{dash(team.external_id)}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
