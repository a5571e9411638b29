import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import { can } from "~/domain/permissions";
import { PlatformSettingsSchema } from "~/forms/settings";
import { requirePermission, requireUser } from "~/http/auth.server";
import { getPlatformSettings, updatePlatformSettings } from "~/services/config.server";
import { reply } from "~/http/reply.server";
import { useIsPending } from "~/utils/misc";
import { formatDateTime } from "~/utils/format";
import { useByName } from "~/components/by-name";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "RetailerSettings");
  const config = await getPlatformSettings();
  return {
    config: { version: config.version, maintenance: config.maintenance, appVersion: config.appVersion, updated: config.updated, updatedBy: config.updatedBy },
    canEdit: can(user, "RetailerSettings", "update"),
    hub: { teams: can(user, "Team", "read"), users: can(user, "User", "read") },
    retailerSettingsLink: can(user, "RetailerSettings", "read"),
    timezone: user.timezone,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, "RetailerSettings");
  requirePermission(user, "RetailerSettings", "update");
  const submission = parseWithZod(await request.formData(), { schema: PlatformSettingsSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  return reply(await updatePlatformSettings(user, submission.value), {
    form: "platform",
    submission,
    onSuccess: () => ({ to: "/settings", toast: { type: "success", title: "toast.changesSaved" } }),
  });
}

export default function SettingsRoute() {
  const { t, i18n } = useTranslation();
  const byName = useByName();
  const { config, canEdit, hub, retailerSettingsLink, timezone } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const pending = useIsPending();
  const [form, fields] = useForm({
    id: "platform-settings-form",
    lastResult: actionData?.result,
    constraint: getZodConstraint(PlatformSettingsSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PlatformSettingsSchema }),
    defaultValue: { maintenance: config.maintenance ? "on" : undefined, appVersion: String(config.appVersion), version: String(config.version) },
    shouldValidate: "onBlur",
  });
  return (
    <>
      <h1>{t("settings.title")}</h1>
      {hub.teams || hub.users || retailerSettingsLink ? (
        <nav className="panel settings-hub" aria-label={t("teams:settingsHub.label")}>
          <ul className="link-list">
            {hub.teams ? (
              <li>
                <Link to="/teams">{t("teams:settingsHub.teams")}</Link> — <span className="muted">{t("teams:settingsHub.teamsHelp")}</span>
              </li>
            ) : null}
            {hub.users ? (
              <li>
                <Link to="/users">{t("teams:settingsHub.users")}</Link> — <span className="muted">{t("teams:settingsHub.usersHelp")}</span>
              </li>
            ) : null}
            {retailerSettingsLink ? (
              <li>
                <Link to="/settings/retailer">{t("retailer:hub.link")}</Link> — <span className="muted">{t("retailer:hub.help")}</span>
              </li>
            ) : null}
          </ul>
        </nav>
      ) : null}
      <section className="panel" aria-labelledby="platform-title">
        <h2 id="platform-title">{t("settings.platform")}</h2>
        {form.errors?.length ? <FormAlert title={t("errors.conflictTitle")} message={t(form.errors[0])} /> : null}
        {canEdit ? (
          <Form method="post" {...getFormProps(form)}>
            <input type="hidden" name="intent" value="save-platform" />
            <input type="hidden" name="version" value={config.version} />
            <div className="field checkbox">
              <input {...getInputProps(fields.maintenance, { type: "checkbox" })} key={fields.maintenance.key} />
              <label htmlFor={fields.maintenance.id}>{t("settings.maintenance")}</label>
            </div>
            <p className="field-help">{t("settings.maintenanceHelp")}</p>
            <Field
              label={t("settings.appVersion")}
              inputProps={{ ...getInputProps(fields.appVersion, { type: "number" }), inputMode: "numeric" }}
              errors={fields.appVersion.errors}
              help={t("settings.appVersionHelp")}
            />
            <SubmitButton pending={pending}>{t("actions.save")}</SubmitButton>
          </Form>
        ) : (
          <dl className="facts">
            <dt>{t("settings.maintenance")}</dt>
            <dd>{t(config.maintenance ? "common.yes" : "common.no")}</dd>
            <dt>{t("settings.appVersion")}</dt>
            <dd>{config.appVersion}</dd>
          </dl>
        )}
        <p className="muted">{t("settings.lastChange", { by: byName(config.updatedBy), at: formatDateTime(config.updated, i18n.language, timezone) })}</p>
      </section>
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
