/**
 * Two-step verification of one's own operator account (ADR 30): set up (a key made on the server,
 * shown as a QR code drawn on the server, as text and as an otpauth link, confirmed by a first
 * code), the recovery codes shown once, new recovery codes, and turning it off where allowed
 * (both confirmed with the password). The only screen of a user who must enrol first.
 */
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import { splitMessage } from "~/domain/message";
import type { User } from "~/domain/types";
import {
  ConfirmEnrolmentSchema,
  confirmEnrolmentIntent,
  DisableSecondFactorSchema,
  disableSecondFactorIntent,
  RegenerateCodesSchema,
  regenerateCodesIntent,
  startEnrolmentIntent,
} from "~/forms/second-factor";
import { requireUser } from "~/http/auth.server";
import { reply, replyInvalid, unknownIntent } from "~/http/reply.server";
import { ENROL_PATH, getEnrolSecret, keepEnrolSecret, keepRecoveryCodes, markEnrolled, takeRecoveryCodes } from "~/http/second-factor.server";
import {
  confirmEnrolment,
  disableSecondFactor,
  enrolmentView,
  newTotpSecret,
  regenerateRecoveryCodes,
  secondFactorStatus,
} from "~/services/second-factor.server";
import { useIsPending } from "~/utils/misc";
import { pageTitle } from "~/utils/page-title";
import { useRootData } from "~/root";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const status = await secondFactorStatus(user);
  if (!status.mayEnrol) throw data({ error: "secondFactor:enrol.notAllowed" }, { status: 403 });
  const secret = status.enrolled ? undefined : await getEnrolSecret(request);
  const { codes, headers } = await takeRecoveryCodes(request);
  const responseHeaders = new Headers(headers ?? undefined);
  // Keys and recovery codes are never kept by a cache.
  responseHeaders.set("Cache-Control", "no-store");
  return data({ status, enrolment: secret ? enrolmentView(user, secret) : null, recoveryCodes: codes }, { headers: responseHeaders });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const formData = await request.formData();
  switch (formData.get("intent")) {
    case startEnrolmentIntent:
      return startEnrolment(request, user);
    case confirmEnrolmentIntent:
      return confirm(request, user, formData);
    case regenerateCodesIntent:
      return regenerate(request, user, formData);
    case disableSecondFactorIntent:
      return disable(user, formData);
    default:
      return unknownIntent();
  }
}

async function startEnrolment(request: Request, user: User) {
  const status = await secondFactorStatus(user);
  if (!status.mayEnrol) throw data({ error: "errors.insufficientPermissions" }, { status: 403 });
  if (status.enrolled) return redirect(ENROL_PATH);
  return redirect(ENROL_PATH, { headers: await keepEnrolSecret(request, newTotpSecret()) });
}

async function confirm(request: Request, user: User, formData: FormData) {
  const submission = parseWithZod(formData, { schema: ConfirmEnrolmentSchema });
  const hideFields = ["code"];
  if (submission.status !== "success") return replyInvalid("confirm", submission, { hideFields });
  return reply(await confirmEnrolment(user, await getEnrolSecret(request), submission.value.code), {
    form: "confirm",
    submission,
    hideFields,
    onSuccess: async ({ recoveryCodes }) => ({
      to: ENROL_PATH,
      toast: { type: "success", title: "secondFactor:enrol.enabled" },
      headers: await markEnrolled(request, recoveryCodes),
    }),
  });
}

async function regenerate(request: Request, user: User, formData: FormData) {
  const submission = parseWithZod(formData, { schema: RegenerateCodesSchema });
  const hideFields = ["password"];
  if (submission.status !== "success") return replyInvalid("regenerate", submission, { hideFields });
  return reply(await regenerateRecoveryCodes(user, submission.value.password), {
    form: "regenerate",
    submission,
    hideFields,
    onSuccess: async ({ recoveryCodes }) => ({
      to: ENROL_PATH,
      toast: { type: "success", title: "secondFactor:enrol.regenerated" },
      headers: await keepRecoveryCodes(request, recoveryCodes),
    }),
  });
}

async function disable(user: User, formData: FormData) {
  const submission = parseWithZod(formData, { schema: DisableSecondFactorSchema });
  const hideFields = ["password"];
  if (submission.status !== "success") return replyInvalid("disable", submission, { hideFields });
  return reply(await disableSecondFactor(user, submission.value.password), {
    form: "disable",
    submission,
    hideFields,
    onSuccess: () => ({ to: "/profile", toast: { type: "success", title: "secondFactor:enrol.disabled" } }),
  });
}

export default function SecondFactorProfileRoute() {
  const { t } = useTranslation("secondFactor");
  const { status, enrolment, recoveryCodes } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const pending = useIsPending();
  const ns = { ns: ["secondFactor", "common"] };
  const formError = (form: string) => {
    if (actionData?.form !== form || !actionData.kind || !actionData.error) return null;
    const { key, values } = splitMessage(actionData.error);
    return t(key, { ...values, ...ns });
  };
  const [confirmForm, confirmFields] = useForm({
    id: "confirm-second-factor-form",
    lastResult: actionData?.form === "confirm" ? actionData.result : undefined,
    constraint: getZodConstraint(ConfirmEnrolmentSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ConfirmEnrolmentSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const [regenerateForm, regenerateFields] = useForm({
    id: "regenerate-recovery-codes-form",
    lastResult: actionData?.form === "regenerate" ? actionData.result : undefined,
    constraint: getZodConstraint(RegenerateCodesSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RegenerateCodesSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const [disableForm, disableFields] = useForm({
    id: "disable-second-factor-form",
    lastResult: actionData?.form === "disable" ? actionData.result : undefined,
    constraint: getZodConstraint(DisableSecondFactorSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: DisableSecondFactorSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const disableRefusal = formError("disable");
  // A user who must enrol first has no menu and nowhere else to go.
  const mayLeave = (useRootData()?.menu.length ?? 0) > 0;
  return (
    <>
      {mayLeave ? (
        <p>
          <Link to="/profile">{t("enrol.back")}</Link>
        </p>
      ) : null}
      <h1>{t("enrol.title")}</h1>
      {status.required && !status.enrolled ? (
        <p className="notice" role="status">
          {t("enrol.mustEnrol")}
        </p>
      ) : null}

      {recoveryCodes.length ? (
        <section className="panel" aria-labelledby="recovery-codes-title">
          <h2 id="recovery-codes-title">{t("enrol.recoveryTitle")}</h2>
          <p>{t("enrol.recoveryIntro")}</p>
          <ol className="recovery-codes">
            {recoveryCodes.map((code) => (
              <li key={code}>
                <code>{code}</code>
              </li>
            ))}
          </ol>
          <p>
            <Link to="/profile">{t("enrol.recoveryDone")}</Link>
          </p>
        </section>
      ) : null}

      {!status.enrolled ? (
        <section className="panel" aria-labelledby="enrol-title">
          <h2 id="enrol-title">{t("profile.setUp")}</h2>
          <p className="muted">{t("enrol.intro")}</p>
          {enrolment ? (
            <>
              <p>{t("enrol.scan")}</p>
              <div className="totp-enrolment">
                {/* Drawn on the server from our own key (uqr): no script, no third-party markup. */}
                <div className="totp-qr" role="img" aria-label={t("enrol.qrAlt")} dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }} />
                <dl className="totp-key">
                  <dt>{t("enrol.key")}</dt>
                  <dd>
                    <code data-testid="totp-key">{enrolment.secretText}</code>
                  </dd>
                  <dt>{t("enrol.uri")}</dt>
                  <dd>
                    <code className="totp-uri">{enrolment.uri}</code>
                  </dd>
                </dl>
              </div>
              <p>{t("enrol.confirm")}</p>
              <Form method="post" {...getFormProps(confirmForm)}>
                <input type="hidden" name="intent" value={confirmEnrolmentIntent} />
                {formError("confirm") && !confirmFields.code.errors?.length ? <FormAlert title={t("step.refusedTitle")} message={formError("confirm")!} /> : null}
                <Field
                  label={t("enrol.code")}
                  inputProps={{ ...getInputProps(confirmFields.code, { type: "text" }), autoComplete: "one-time-code", inputMode: "numeric" }}
                  errors={confirmFields.code.errors}
                />
                <SubmitButton pending={pending}>{t("enrol.submit")}</SubmitButton>
              </Form>
            </>
          ) : (
            <Form method="post">
              <input type="hidden" name="intent" value={startEnrolmentIntent} />
              <SubmitButton pending={pending}>{t("enrol.start")}</SubmitButton>
            </Form>
          )}
        </section>
      ) : (
        <>
          <section className="panel" aria-labelledby="second-factor-status">
            <h2 id="second-factor-status">{t("profile.title")}</h2>
            <p>{t("profile.summaryOn")}</p>
            <p className="muted">{t("profile.recoveryLeft", { count: status.recoveryCodesLeft })}</p>
          </section>
          <section className="panel" aria-labelledby="regenerate-title">
            <h2 id="regenerate-title">{t("enrol.regenerateTitle")}</h2>
            <p className="muted">{t("enrol.regenerateHelp")}</p>
            <Form method="post" {...getFormProps(regenerateForm)}>
              <input type="hidden" name="intent" value={regenerateCodesIntent} />
              <Field
                label={t("enrol.password")}
                inputProps={{ ...getInputProps(regenerateFields.password, { type: "password" }), autoComplete: "current-password" }}
                errors={regenerateFields.password.errors}
              />
              <SubmitButton pending={pending}>{t("enrol.regenerate")}</SubmitButton>
            </Form>
          </section>
          <section className="panel" aria-labelledby="disable-title">
            <h2 id="disable-title">{t("enrol.disableTitle")}</h2>
            {status.required ? (
              <p className="muted">{t("profile.requiredNote")}</p>
            ) : (
              <>
                <p className="muted">{t("enrol.disableHelp")}</p>
                {disableRefusal && !disableFields.password.errors?.length ? <FormAlert title={t("step.refusedTitle")} message={disableRefusal} /> : null}
                <Form method="post" {...getFormProps(disableForm)}>
                  <input type="hidden" name="intent" value={disableSecondFactorIntent} />
                  <Field
                    label={t("enrol.password")}
                    inputProps={{ ...getInputProps(disableFields.password, { type: "password" }), autoComplete: "current-password" }}
                    errors={disableFields.password.errors}
                  />
                  <SubmitButton pending={pending} className="danger">
                    {t("enrol.disable")}
                  </SubmitButton>
                </Form>
              </>
            )}
          </section>
        </>
      )}
    </>
  );
}

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "secondFactor");

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
