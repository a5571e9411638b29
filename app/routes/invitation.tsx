import { replyFailure, replyInvalid, unknownIntent, validOrThrow } from "~/http/reply.server";
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import { LanguageSwitch } from "~/components/language-switch";
import { acceptInvitationIntent, AcceptInvitationSchema, createAccountIntent, CreateAccountSchema } from "~/forms/users";
import { destroySessionHeaders, getCurrentUser, refuseDuringMaintenance } from "~/http/auth.server";
import { getRequestLocale } from "~/http/i18n.server";
import { acceptAsUser, acceptWithNewAccount, describeInvitation } from "~/services/invitations.server";
import { redirectWithToast } from "~/http/toast.server";
import { useIsPending } from "~/utils/misc";
import { pageTitle } from "~/utils/page-title";

/** Public: the link of the invitation e-mail lands here (/invitation?token=…). */
export const handle = { layout: "full" };

const signOutIntent = "sign-out";

function selfPath(token: string) {
  return `/invitation?token=${encodeURIComponent(token)}`;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const { user } = await getCurrentUser(request);
  await refuseDuringMaintenance(user);
  const view = await describeInvitation(token, user);
  return { view, token: view.ok ? token : "", loginLink: `/login?to=${encodeURIComponent(selfPath(token))}` };
}

export async function action({ request }: ActionFunctionArgs) {
  await refuseDuringMaintenance((await getCurrentUser(request)).user);
  const formData = await request.formData();
  const token = String(formData.get("token") ?? "");
  switch (formData.get("intent")) {
    case acceptInvitationIntent: {
      const submission = parseWithZod(formData, { schema: AcceptInvitationSchema });
      validOrThrow(submission);
      const { user } = await getCurrentUser(request);
      if (!user) throw redirect(`/login?to=${encodeURIComponent(selfPath(token))}`);
      const outcome = await acceptAsUser(token, user);
      if (!outcome.ok) return replyFailure(acceptInvitationIntent, outcome, submission);
      return redirectWithToast(`/teams/${encodeURIComponent(outcome.value.teamId)}`, { type: "success", title: "users:toast.accepted" });
    }
    case createAccountIntent: {
      const submission = parseWithZod(formData, { schema: CreateAccountSchema });
      const hide = { hideFields: ["password", "confirmPassword"] };
      if (submission.status !== "success") return replyInvalid(createAccountIntent, submission, hide);
      const outcome = await acceptWithNewAccount(token, {
        displayName: submission.value.displayName,
        password: submission.value.password,
        locale: await getRequestLocale(request),
      });
      if (!outcome.ok) return replyFailure(createAccountIntent, outcome, submission, hide);
      // Whoever was signed in on this browser is signed out: the new account signs in next.
      return redirectWithToast(
        "/login",
        { type: "success", title: "users:toast.accepted", description: "users:toast.signInNow" },
        { headers: await destroySessionHeaders(request) },
      );
    }
    case signOutIntent:
      return redirect(selfPath(token), { headers: await destroySessionHeaders(request) });
    default:
      return unknownIntent();
  }
}

export default function InvitationRoute() {
  const { t } = useTranslation("users");
  const { view, token, loginLink } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const pending = useIsPending();
  const [form, fields] = useForm({
    id: "accept-invitation-form",
    lastResult: actionData?.result,
    constraint: getZodConstraint(CreateAccountSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CreateAccountSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  if (!view.ok) {
    return (
      <div className="auth-card">
        <h1>{t("invitation.title")}</h1>
        <FormAlert title={t("invitation.unusable")} message={t(`invitation.problem.${view.problem}`)} />
        <p>
          <Link to="/login">{t("invitation.toSignIn")}</Link>
        </p>
        <LanguageSwitch />
      </div>
    );
  }

  const role = t(`roles.${view.role}`, { ns: "common" });
  const formError = form.errors?.[0];
  return (
    <div className="auth-card">
      <h1>{t("invitation.title")}</h1>
      <p>{t("invitation.intro", { team: view.teamName, role })}</p>
      <p className="muted">{t("invitation.for", { email: view.email })}</p>
      {formError ? <FormAlert title={t("invitation.unusable")} message={t(formError)} /> : null}
      {view.loggedAs ? (
        <p role="status" className="notice">
          {t("operators:refused.invitationLoggedAs")}
        </p>
      ) : view.signedInAsInvitee ? (
        <Form method="post">
          <input type="hidden" name="intent" value={acceptInvitationIntent} />
          <input type="hidden" name="token" value={token} />
          <SubmitButton pending={pending}>{t("invitation.accept")}</SubmitButton>
        </Form>
      ) : view.signedInAs ? (
        <>
          <p role="status" className="notice">
            {t("invitation.otherAccount", { signedIn: view.signedInAs, email: view.email })}
          </p>
          <Form method="post">
            <input type="hidden" name="intent" value={signOutIntent} />
            <input type="hidden" name="token" value={token} />
            <SubmitButton pending={pending}>{t("invitation.signOut")}</SubmitButton>
          </Form>
        </>
      ) : view.accountExists ? (
        <>
          <p>{t("invitation.hasAccount")}</p>
          <p>
            <Link className="button primary" to={loginLink}>
              {t("invitation.signInToAccept")}
            </Link>
          </p>
        </>
      ) : (
        <Form method="post" {...getFormProps(form)}>
          <input type="hidden" name="intent" value={createAccountIntent} />
          <input type="hidden" name="token" value={token} />
          <p>{t("invitation.newAccount")}</p>
          <input type="email" name="username" value={view.email} autoComplete="username" readOnly hidden />
          <Field
            label={t("fields.displayName", { ns: "common" })}
            inputProps={{ ...getInputProps(fields.displayName, { type: "text" }), autoComplete: "name" }}
            errors={fields.displayName.errors}
          />
          <Field
            label={t("fields.password", { ns: "common" })}
            inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "new-password" }}
            errors={fields.password.errors}
            help={t("password.rules", { ns: "common" })}
          />
          <Field
            label={t("fields.confirmPassword", { ns: "common" })}
            inputProps={{ ...getInputProps(fields.confirmPassword, { type: "password" }), autoComplete: "new-password" }}
            errors={fields.confirmPassword.errors}
          />
          <SubmitButton pending={pending}>{t("invitation.createAccount")}</SubmitButton>
        </Form>
      )}
      <LanguageSwitch />
    </div>
  );
}

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "invitation");

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
