import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field, SubmitButton } from "~/components/forms";
import { LanguageSwitch } from "~/components/language-switch";
import { ForgotPasswordSchema } from "~/forms/auth";
import { requireAnonymous } from "~/http/auth.server";
import { getRequestLocale } from "~/http/i18n.server";
import { requestPasswordReset } from "~/services/password-reset.server";
import { useIsPending } from "~/utils/misc";

export const handle = { layout: "full" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const submission = parseWithZod(await request.formData(), { schema: ForgotPasswordSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), sent: false }, { status: 400 });
  await requestPasswordReset(submission.value.email, await getRequestLocale(request), new Date(), context?.clientIp ?? "unknown");
  // The same answer whatever the e-mail: the form reveals no account.
  return { result: submission.reply({ resetForm: true }), sent: true };
}

export default function ForgotPasswordRoute() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const pending = useIsPending();
  const [form, fields] = useForm({
    id: "forgot-password-form",
    lastResult: actionData?.result,
    constraint: getZodConstraint(ForgotPasswordSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ForgotPasswordSchema }),
    shouldValidate: "onSubmit",
  });
  return (
    <div className="auth-card">
      <h1>{t("forgot.title")}</h1>
      {actionData?.sent ? (
        <p className="notice" role="status">
          {t("forgot.sent")}
        </p>
      ) : (
        <p className="muted">{t("forgot.intro")}</p>
      )}
      <Form method="post" {...getFormProps(form)}>
        <Field
          label={t("fields.email")}
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", autoFocus: true }}
          errors={fields.email.errors}
        />
        <SubmitButton pending={pending}>{t("forgot.submit")}</SubmitButton>
      </Form>
      <p>
        <Link to="/login">{t("forgot.back")}</Link>
      </p>
      <LanguageSwitch />
    </div>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
