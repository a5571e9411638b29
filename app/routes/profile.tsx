import { reply, replyInvalid, unknownIntent } from "~/http/reply.server";
import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import { SUPPORTED_LOCALES } from "~/domain/locale";
import { ChangePasswordSchema } from "~/forms/auth";
import { ProfileSchema, timeZoneChoices } from "~/forms/profile";
import { createUserSession, requireUser } from "~/http/auth.server";
import { changePassword } from "~/services/password-reset.server";
import { localeCookie } from "~/http/session.server";
import { updateProfile as saveProfile } from "~/services/users.server";
import { secondFactorStatus } from "~/services/second-factor.server";
import { ENROL_PATH } from "~/domain/second-factor";
import { DirectionChoice, PreferenceForm, ThemeChoice } from "~/components/layout/user-menu";
import { toggleMenuIntent } from "~/forms/preferences-intents";
import { PhotoSchema, removePhotoIntent, updatePhotoIntent } from "~/forms/profile-photo";
import { readPhotoForm } from "~/http/multipart.server";
import { setProfilePhoto } from "~/services/profile-photo.server";
import { useRootData } from "~/root";
import { LOGO_MAX_BYTES, LOGO_TYPES } from "~/domain/team-form";

const NOTIFICATION_KEYS = ["campaignStarts", "campaignArchived", "reportGenerated", "walletsDepleting"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return {
    profile: {
      version: user.version,
      email: user.email,
      displayName: user.displayName,
      firstname: user.firstname,
      lastname: user.lastname,
      locale: user.locale,
      timezone: user.timezone,
      notificationPrefs: user.notificationPrefs,
      photoURL: user.photoURL,
    },
    timezones: timeZoneChoices(user.timezone),
    secondFactor: await secondFactorStatus(user),
    /** An operator logged as this user: the password is the user's alone, not offered. */
    loggedAs: Boolean(user.loggedAsBy),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const formData = await readPhotoForm(request);
  switch (formData.get("intent")) {
    case updatePhotoIntent:
    case removePhotoIntent:
      return updatePhoto(user, formData);
    case "update-profile":
      return updateProfile(request, user, formData);
    case "change-password":
      return updatePassword(request, user, formData);
    default:
      return unknownIntent();
  }
}

async function updateProfile(request: Request, user: Awaited<ReturnType<typeof requireUser>>, formData: FormData) {
  const submission = parseWithZod(formData, { schema: ProfileSchema });
  if (submission.status !== "success") return replyInvalid("profile", submission);
  const v = submission.value;
  const headers = { "Set-Cookie": await localeCookie.serialize(v.locale) };
  return reply(
    await saveProfile(user, {
      version: v.version,
      displayName: v.displayName,
      firstname: v.firstname,
      lastname: v.lastname,
      locale: v.locale,
      timezone: v.timezone,
      notificationPrefs: {
        campaignStarts: v.campaignStarts,
        campaignArchived: v.campaignArchived,
        reportGenerated: v.reportGenerated,
        walletsDepleting: v.walletsDepleting,
      },
    }),
    { form: "profile", submission, onSuccess: () => ({ to: "/profile", toast: { type: "success", title: "toast.changesSaved" }, headers }) },
  );
}

async function updatePhoto(user: Awaited<ReturnType<typeof requireUser>>, formData: FormData) {
  const submission = parseWithZod(formData, { schema: PhotoSchema });
  const hideFields = ["photo"];
  if (submission.status !== "success") return replyInvalid("photo", submission, { hideFields });
  const file = submission.value.intent === updatePhotoIntent ? submission.value.photo : null;
  return reply(await setProfilePhoto(user, file), {
    form: "photo",
    submission,
    hideFields,
    onSuccess: () => ({ to: "/profile", toast: { type: "success", title: "toast.changesSaved", description: file ? "profile:photo.saved" : "profile:photo.removed" } }),
  });
}

async function updatePassword(request: Request, user: Awaited<ReturnType<typeof requireUser>>, formData: FormData) {
  const submission = parseWithZod(formData, { schema: ChangePasswordSchema });
  const hideFields = ["currentPassword", "password", "confirmPassword"];
  if (submission.status !== "success") return replyInvalid("password", submission, { hideFields });
  return reply(await changePassword(user, submission.value.currentPassword, submission.value.password), {
    form: "password",
    submission,
    hideFields,
    // Other sessions end with the new epoch; this one is renewed.
    onSuccess: async (changed) => ({
      to: "/profile",
      toast: { type: "success", title: "toast.changesSaved", description: "profile.passwordChanged" },
      headers: await createUserSession(request, changed),
    }),
  });
}

export default function ProfileRoute() {
  const { t } = useTranslation();
  const { profile, timezones, secondFactor, loggedAs } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // Each form shows its own pending state: sending the photo never shows the password as sent.
  const navigation = useNavigation();
  const sendingIntent = navigation.state !== "idle" && navigation.formData ? String(navigation.formData.get("intent") ?? "") : null;
  const photoPending = sendingIntent === updatePhotoIntent || sendingIntent === removePhotoIntent;
  const [form, fields] = useForm({
    id: "profile-form",
    lastResult: actionData?.form === "profile" ? actionData.result : undefined,
    constraint: getZodConstraint(ProfileSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ProfileSchema }),
    defaultValue: {
      ...profile,
      version: String(profile.version),
      ...Object.fromEntries(NOTIFICATION_KEYS.map((k) => [k, profile.notificationPrefs[k] ? "on" : undefined])),
    },
    shouldValidate: "onBlur",
  });
  const [photoForm, photoFields] = useForm({
    id: "photo-form",
    lastResult: actionData?.form === "photo" ? actionData.result : undefined,
    constraint: getZodConstraint(PhotoSchema),
    shouldValidate: "onSubmit",
  });
  const root = useRootData()!;
  const here = "/profile";
  const [pwForm, pwFields] = useForm({
    id: "password-form",
    lastResult: actionData?.form === "password" ? actionData.result : undefined,
    constraint: getZodConstraint(ChangePasswordSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ChangePasswordSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <>
      <h1>{t("profile.title")}</h1>
      <p className="muted">{profile.email}</p>
      <section className="panel" aria-labelledby="profile-photo">
        <h2 id="profile-photo">{t("profile:photo.title")}</h2>
        {profile.photoURL ? <img src={profile.photoURL} alt={t("profile:photo.current")} width={96} height={96} className="profile-photo" /> : <p className="muted">{t("profile:photo.none")}</p>}
        <Form method="post" encType="multipart/form-data" {...getFormProps(photoForm)}>
          <input type="hidden" name="intent" value={updatePhotoIntent} />
          <Field
            label={t("profile:photo.field")}
            inputProps={{ ...getInputProps(photoFields.photo, { type: "file" }), accept: LOGO_TYPES.join(","), "data-max-bytes": LOGO_MAX_BYTES } as never}
            errors={photoFields.photo.errors}
            help={t("profile:photo.help")}
          />
          <SubmitButton pending={photoPending}>{t("profile:photo.upload")}</SubmitButton>
        </Form>
        {profile.photoURL ? (
          // Removing deletes the stored picture: asked for once more, as other removals are.
          <details className="users-confirm">
            <summary className="button button-secondary">{t("profile:photo.remove")}</summary>
            <div className="users-confirm-panel">
              <p>{t("profile:photo.removeConfirm")}</p>
              <Form method="post">
                <input type="hidden" name="intent" value={removePhotoIntent} />
                <SubmitButton pending={photoPending} className="users-danger">
                  {t("profile:photo.removeSubmit")}
                </SubmitButton>
              </Form>
            </div>
          </details>
        ) : null}
      </section>
      <section className="panel" aria-labelledby="profile-details">
        <h2 id="profile-details">{t("profile.details")}</h2>
        {form.errors?.length ? <FormAlert title={t("errors.conflictTitle")} message={t(form.errors[0])} /> : null}
        <Form method="post" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="update-profile" />
          <input type="hidden" name="version" value={profile.version} />
          <Field label={t("fields.displayName")} inputProps={getInputProps(fields.displayName, { type: "text" })} errors={fields.displayName.errors} />
          <div className="field-row">
            <Field label={t("fields.firstname")} inputProps={getInputProps(fields.firstname, { type: "text" })} errors={fields.firstname.errors} />
            <Field label={t("fields.lastname")} inputProps={getInputProps(fields.lastname, { type: "text" })} errors={fields.lastname.errors} />
          </div>
          <div className="field-row">
            <div className="field">
              <label htmlFor={fields.locale.id}>{t("fields.locale")}</label>
              <select {...getSelectProps(fields.locale)} key={fields.locale.key}>
                {SUPPORTED_LOCALES.map((l) => (
                  <option key={l} value={l}>
                    {t(`languages.${l}`)}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={fields.timezone.id}>{t("fields.timezone")}</label>
              <select {...getSelectProps(fields.timezone)} key={fields.timezone.key}>
                {timezones.map((z) => (
                  <option key={z} value={z}>
                    {z}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <fieldset>
            <legend>{t("profile.notifications")}</legend>
            {NOTIFICATION_KEYS.map((k) => (
              <div className="field checkbox" key={k}>
                <input {...getInputProps(fields[k], { type: "checkbox" })} key={fields[k].key} />
                <label htmlFor={fields[k].id}>{t(`profile.notify.${k}`)}</label>
              </div>
            ))}
          </fieldset>
          <SubmitButton pending={sendingIntent === "update-profile"}>{t("actions.save")}</SubmitButton>
        </Form>
      </section>
      <section className="panel" aria-labelledby="profile-password">
        <h2 id="profile-password">{t("profile.password")}</h2>
        {loggedAs ? (
          <p className="muted">{t("operators:refused.passwordLoggedAs")}</p>
        ) : (
          <>
            <p className="muted">{t("profile.passwordHelp")}</p>
            <Form method="post" {...getFormProps(pwForm)}>
              <input type="hidden" name="intent" value="change-password" />
              <Field
                label={t("fields.currentPassword")}
                inputProps={{ ...getInputProps(pwFields.currentPassword, { type: "password" }), autoComplete: "current-password" }}
                errors={pwFields.currentPassword.errors}
              />
              <Field
                label={t("fields.newPassword")}
                inputProps={{ ...getInputProps(pwFields.password, { type: "password" }), autoComplete: "new-password" }}
                errors={pwFields.password.errors}
                help={t("password.rules")}
              />
              <Field
                label={t("fields.confirmPassword")}
                inputProps={{ ...getInputProps(pwFields.confirmPassword, { type: "password" }), autoComplete: "new-password" }}
                errors={pwFields.confirmPassword.errors}
              />
              <SubmitButton pending={sendingIntent === "change-password"}>{t("profile.changePassword")}</SubmitButton>
            </Form>
          </>
        )}
      </section>
      <section className="panel" aria-labelledby="profile-display">
        <h2 id="profile-display">{t("profile:display.title")}</h2>
        <p className="muted">{t("profile:display.help")}</p>
        <div className="profile-display">
          <ThemeChoice here={here} legend={t("profile:display.theme")} />
          <PreferenceForm here={here} intent={toggleMenuIntent} legend={t("profile:display.menu")}>
            <button name="collapsed" value="false" aria-pressed={!root.display.menuCollapsed}>
              {t("profile:display.expanded")}
            </button>
            <button name="collapsed" value="true" aria-pressed={root.display.menuCollapsed}>
              {t("profile:display.collapsed")}
            </button>
          </PreferenceForm>
          <DirectionChoice here={here} legend={t("profile:display.direction")} />
        </div>
      </section>
      {secondFactor.mayEnrol ? <SecondFactorSection {...secondFactor} /> : null}
    </>
  );
}

/** Two-step verification (ADR 30): where it stands, and the way to its screen. */
function SecondFactorSection({ enrolled, required, recoveryCodesLeft }: { enrolled: boolean; required: boolean; recoveryCodesLeft: number }) {
  const { t } = useTranslation("secondFactor");
  return (
    <section className="panel" aria-labelledby="profile-second-factor">
      <h2 id="profile-second-factor">{t("profile.title")}</h2>
      <p>{enrolled ? t("profile.summaryOn") : t("profile.summaryOff")}</p>
      {enrolled ? <p className="muted">{t("profile.recoveryLeft", { count: recoveryCodesLeft })}</p> : null}
      {required ? <p className="muted">{t("profile.requiredNote")}</p> : null}
      <p>
        <Link to={ENROL_PATH}>{enrolled ? t("profile.manage") : t("profile.setUp")}</Link>
      </p>
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
