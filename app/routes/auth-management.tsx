import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import { ResetPasswordSchema } from "~/forms/auth";
import { destroySessionHeaders } from "~/http/auth.server";
import { checkResetToken, resetPassword } from "~/services/password-reset.server";
import { reply, replyInvalid } from "~/http/reply.server";
import { useIsPending } from "~/utils/misc";

export const handle = { layout: "full" };

/** The password reset handler: the link from the e-mail lands here. */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const oobCode = url.searchParams.get("oobCode") ?? "";
  if (url.searchParams.get("mode") !== "resetPassword" || !oobCode) return { oobCode: "", problem: "token.invalid" as const };
  const check = await checkResetToken(oobCode);
  return { oobCode, problem: check.ok ? null : check.reason };
}

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: ResetPasswordSchema });
  const hideFields = ["password", "confirmPassword"];
  if (submission.status !== "success") return replyInvalid("reset-password", submission, { hideFields });
  return reply(await resetPassword(submission.value.oobCode, submission.value.password), {
    form: "reset-password",
    submission,
    hideFields,
    // Every session of the user has ended; this browser signs in afresh.
    onSuccess: async () => ({
      to: "/login?reset=1",
      toast: { type: "success", title: "reset.doneTitle", description: "reset.done" },
      headers: await destroySessionHeaders(request),
    }),
  });
}

export default function AuthManagementRoute() {
  const { t } = useTranslation();
  const { oobCode, problem } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const pending = useIsPending();
  const [form, fields] = useForm({
    id: "reset-password-form",
    lastResult: actionData?.result,
    constraint: getZodConstraint(ResetPasswordSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ResetPasswordSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  if (problem) {
    return (
      <div className="auth-card">
        <h1>{t("reset.title")}</h1>
        <FormAlert title={t("errors.authenticationError")} message={t(problem)} />
        <p>
          <Link to="/forgot-password">{t("reset.again")}</Link>
        </p>
      </div>
    );
  }
  return (
    <div className="auth-card">
      <h1>{t("reset.title")}</h1>
      <p className="muted">{t("reset.intro")}</p>
      {form.errors?.length ? <FormAlert title={t("errors.authenticationError")} message={t(form.errors[0])} /> : null}
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="oobCode" value={oobCode} />
        <Field
          label={t("fields.newPassword")}
          inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "new-password" }}
          errors={fields.password.errors}
          help={t("password.rules")}
        />
        <Field
          label={t("fields.confirmPassword")}
          inputProps={{ ...getInputProps(fields.confirmPassword, { type: "password" }), autoComplete: "new-password" }}
          errors={fields.confirmPassword.errors}
        />
        <SubmitButton pending={pending}>{t("reset.submit")}</SubmitButton>
      </Form>
    </div>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
