import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import { LanguageSwitch } from "~/components/language-switch";
import { safeRedirectPath } from "~/domain/navigation";
import { LoginSchema } from "~/forms/auth";
import { splitMessage } from "~/domain/message";
import { passwordSignIn, requireAnonymous } from "~/http/auth.server";
import { reply, replyInvalid } from "~/http/reply.server";
import { useIsPending } from "~/utils/misc";
import { SsoSignIn } from "~/components/sso-sign-in";
import { ssoOffered } from "~/services/sso/settings.server";
import { pageTitle } from "~/utils/page-title";

export const handle = { layout: "full", name: "auth-login" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  const reset = new URL(request.url).searchParams.get("reset") === "1";
  return { reset, sso: await ssoOffered() };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: LoginSchema });
  const hideFields = ["password"];
  if (submission.status !== "success") return replyInvalid("login", submission, { hideFields });
  // The user's teams load with the sign-in: with one team and no `to`, land on it.
  return reply(await passwordSignIn(request, formData, context?.clientIp ?? "unknown"), {
    form: "login",
    submission,
    hideFields,
    // A second factor still due (its code form, or enrolment) comes first (ADR 30).
    onSuccess: ({ landing, headers, stepDue }) => ({ to: stepDue ? landing : safeRedirectPath(submission.value.to, landing), headers }),
  });
}

export default function LoginRoute() {
  const { t } = useTranslation();
  const { reset, sso } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const pending = useIsPending();
  const [form, fields] = useForm({
    id: "login-form",
    lastResult: actionData?.result,
    constraint: getZodConstraint(LoginSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  // One error at a time: a sign-in refusal belongs to the last submission, and stops showing once
  // a field has an error of its own (with JS, the browser checks the next submission itself).
  const fieldErrors = Boolean(fields.email.errors?.length || fields.password.errors?.length);
  const authError = fieldErrors || !actionData?.kind || !actionData.error ? null : splitMessage(actionData.error);
  return (
    <div className="auth-card">
      <h1>{t("login.title")}</h1>
      <p className="muted">{t("login.intro")}</p>
      {reset ? <p className="notice" role="status">{t("reset.done")}</p> : null}
      {authError ? (
        <FormAlert title={t("errors.authenticationError")} message={t(authError.key, authError.values)} />
      ) : null}
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="to" value={searchParams.get("to") ?? ""} />
        <Field
          label={t("fields.email")}
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "username", autoFocus: true }}
          errors={fields.email.errors}
        />
        <Field
          label={t("fields.password")}
          inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "current-password" }}
          errors={fields.password.errors}
        />
        <SubmitButton pending={pending}>{t("login.submit")}</SubmitButton>
      </Form>
      {sso ? <SsoSignIn to={searchParams.get("to") ?? ""} /> : null}
      <p>
        <Link to="/forgot-password">{t("login.forgot")}</Link>
      </p>
      <LanguageSwitch />
    </div>
  );
}

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "signIn");

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
