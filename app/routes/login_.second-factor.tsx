/**
 * The sign-in's second step (ADR 30): a pending session (the password, or an identity provider,
 * already said who it is) gives a code of the user's authenticator app or a recovery code. The
 * only screen a pending session reaches; it expires after a few minutes.
 */
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import { LanguageSwitch } from "~/components/language-switch";
import { splitMessage } from "~/domain/message";
import { SecondFactorCodeSchema, secondFactorCodeIntent } from "~/forms/second-factor";
import { completePendingSignIn, getCurrentUser } from "~/http/auth.server";
import { reply, replyInvalid } from "~/http/reply.server";
import { readPending } from "~/http/second-factor.server";
import { getSession } from "~/http/session.server";
import { getStorage } from "~/services/storage.server";
import { useIsPending } from "~/utils/misc";
import { pageTitle } from "~/utils/page-title";

export const handle = { layout: "full", name: "auth-second-factor" };

export async function loader({ request }: LoaderFunctionArgs) {
  const found = readPending(await getSession(request));
  if (found.state === "expired") return { expired: true, email: null };
  if (found.state === "none") throw redirect((await getCurrentUser(request)).user ? "/" : "/login");
  const user = await getStorage().users.getOne(found.pending.userId);
  return { expired: false, email: user?.email ?? null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: SecondFactorCodeSchema });
  const hideFields = ["code"];
  if (submission.status !== "success") return replyInvalid("second-factor", submission, { hideFields });
  return reply(await completePendingSignIn(request, submission.value.code, context?.clientIp ?? "unknown"), {
    form: "second-factor",
    submission,
    hideFields,
    onSuccess: ({ to, headers }) => ({ to, headers }),
  });
}

export default function SecondFactorRoute() {
  const { t } = useTranslation("secondFactor");
  const { expired, email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const pending = useIsPending();
  const [form, fields] = useForm({
    id: "second-factor-form",
    lastResult: actionData?.result,
    constraint: getZodConstraint(SecondFactorCodeSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SecondFactorCodeSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  // A refusal of the whole form (too many attempts) above it; a wrong code under the field.
  const refusal = actionData?.kind && actionData.error && !fields.code.errors?.length ? splitMessage(actionData.error) : null;
  const timedOut = expired || actionData?.kind === "unauthenticated";
  if (timedOut) {
    return (
      <div className="auth-card">
        <h1>{t("step.expiredTitle")}</h1>
        <p>{t("step.expired")}</p>
        <p>
          <Link to="/login">{t("step.signInAgain")}</Link>
        </p>
      </div>
    );
  }
  return (
    <div className="auth-card">
      <h1>{t("step.title")}</h1>
      <p className="muted">{email ? t("step.intro", { email }) : t("step.introNoEmail")}</p>
      {refusal ? <FormAlert title={t("step.refusedTitle")} message={t(refusal.key, { ...refusal.values, ns: ["common", "secondFactor"] })} /> : null}
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value={secondFactorCodeIntent} />
        <Field
          label={t("step.code")}
          inputProps={{
            ...getInputProps(fields.code, { type: "text" }),
            autoComplete: "one-time-code",
            autoCapitalize: "none",
            spellCheck: false,
            autoFocus: true,
          }}
          errors={fields.code.errors}
          help={t("step.codeHelp")}
        />
        <SubmitButton pending={pending}>{t("step.submit")}</SubmitButton>
      </Form>
      <Form method="post" action="/logout">
        <button type="submit" className="link-button">
          {t("step.cancel")}
        </button>
      </Form>
      <LanguageSwitch />
    </div>
  );
}

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "secondFactor");

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
