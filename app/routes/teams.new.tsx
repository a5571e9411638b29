import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormAlert, SubmitButton } from "~/components/forms";
import { TeamFormFields } from "~/components/team-form";
import { CreateTeamSchema, createTeamIntent } from "~/forms/teams";
import { requirePermission, requireUser } from "~/http/auth.server";
import { createTeam } from "~/services/teams-admin.server";
import { readTeamForm } from "~/http/multipart.server";
import { reply, replyInvalid } from "~/http/reply.server";
import { useIsPending } from "~/utils/misc";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Team");
  requirePermission(user, "Team", "create");
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, "Team");
  requirePermission(user, "Team", "create");
  const formData = await readTeamForm(request);
  const submission = parseWithZod(formData, { schema: CreateTeamSchema });
  const hideFields = ["logo"];
  if (submission.status !== "success") return replyInvalid("team", submission, { hideFields });
  return reply(await createTeam(user, submission.value), {
    form: "team",
    submission,
    hideFields,
    onSuccess: (team) => ({
      to: `/teams/${team.id}/settings`,
      toast: { type: "success", title: "toast.changesSaved", description: "teams:toast.created", values: { name: team.name } },
    }),
  });
}

export default function TeamNewRoute() {
  const { t } = useTranslation("teams");
  const actionData = useActionData<typeof action>();
  const pending = useIsPending();
  const [form, fields] = useForm({
    id: "team-form",
    lastResult: actionData?.result,
    constraint: getZodConstraint(CreateTeamSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CreateTeamSchema }),
    defaultValue: { account_type: "brand" },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <>
      <p>
        <Link to="/teams">{t("backToList")}</Link>
      </p>
      <h1>{t("new.title")}</h1>
      <section className="panel" aria-labelledby="team-form-title">
        <h2 id="team-form-title" className="visually-hidden">
          {t("new.title")}
        </h2>
        {form.errors?.length ? <FormAlert title={t("common:errors.conflictTitle")} message={t(form.errors[0])} /> : null}
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)}>
          <input type="hidden" name="intent" value={createTeamIntent} />
          <TeamFormFields fields={fields} />
          <SubmitButton pending={pending}>{t("new.submit")}</SubmitButton>
        </Form>
      </section>
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
