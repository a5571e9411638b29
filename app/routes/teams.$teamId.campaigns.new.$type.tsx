import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import { SelectField } from "~/components/select-field";
import { campaignNewPath } from "~/domain/campaigns/urls";
import { DEFAULT_CAMPAIGN_TYPE, isEnabledType } from "~/domain/retailer-settings";
import { CreateCampaignSchema, createCampaignIntent } from "~/forms/campaigns/campaigns";
import { requirePermission, requireUser } from "~/http/auth.server";
import { createCampaign, creationDefaults } from "~/services/campaigns/campaigns.server";
import { getRetailerSettings } from "~/services/retailer-settings.server";
import { requireVisibleTeam } from "~/http/scope.server";
import { reply, replyInvalid } from "~/http/reply.server";
import { useIsPending } from "~/utils/misc";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "newCampaign");
export const handle = { routeName: "campaign-new" };

/** Creating a campaign for a team (route name campaign-new): a draft, then the editor. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  const team = await requireVisibleTeam(user, params.teamId);
  requirePermission(user, "Campaign", "create", { teamId: team.id });
  const settings = await getRetailerSettings();
  const type = params.type ?? DEFAULT_CAMPAIGN_TYPE;
  if (!isEnabledType(settings, type)) throw redirect(campaignNewPath(team.id, settings.enabledTypes[0] ?? DEFAULT_CAMPAIGN_TYPE));
  return {
    team: { id: team.id, name: team.name, status: team.status },
    type,
    types: settings.enabledTypes,
    defaults: creationDefaults(),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  const team = await requireVisibleTeam(user, params.teamId);
  requirePermission(user, "Campaign", "create", { teamId: team.id });
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: CreateCampaignSchema });
  if (submission.status !== "success") return replyInvalid("create", submission);
  const created = await createCampaign(user, team, submission.value);
  return reply(created, {
    form: "create",
    submission,
    onSuccess: (campaign) => ({ to: `/campaigns/${campaign.id}`, toast: { type: "success", title: "campaigns:toast.created", values: { name: campaign.name } } }),
  });
}

export default function CampaignNewRoute() {
  const { t } = useTranslation("campaigns");
  const { t: tq } = useTranslation("quickBuilder");
  const { team, type, types, defaults } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const pending = useIsPending();
  const [form, fields] = useForm({
    id: "campaign-new-form",
    lastResult: actionData?.result,
    constraint: getZodConstraint(CreateCampaignSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CreateCampaignSchema }),
    defaultValue: { campaignType: type, startDay: defaults.startDay },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <section className="panel" aria-labelledby="campaign-new-title">
      <h2 id="campaign-new-title">{t("new.title", { team: team.name })}</h2>
      {team.status !== "active" ? <p className="muted">{t("new.teamWithdrawn")}</p> : null}
      <p>{t("new.draftNote")}</p>
      <p>
        <Link to={`/teams/${encodeURIComponent(team.id)}/campaigns/quick`}>{tq("link")}</Link>
      </p>
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value={createCampaignIntent} />
        {form.errors?.length ? <FormAlert title={t(form.errors[0]!)} /> : null}
        <Field label={t("fields.name")} inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoFocus: true, autoComplete: "off" }} errors={fields.name.errors} />
        <SelectField field={fields.campaignType} label={t("fields.type")}>
          {types.map((ty) => (
            <option key={ty} value={ty}>
              {t(`types.${ty}`)}
            </option>
          ))}
        </SelectField>
        <div className="field-row">
          <Field label={t("fields.startDay")} inputProps={getInputProps(fields.startDay, { type: "date" })} errors={fields.startDay.errors} help={t("fields.timeZoneHelp")} />
          <Field label={t("fields.endDay")} inputProps={getInputProps(fields.endDay, { type: "date" })} errors={fields.endDay.errors} />
        </div>
        <SubmitButton pending={pending}>{t("new.submit")}</SubmitButton>
      </Form>
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
