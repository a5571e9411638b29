import { getCollectionProps, getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ErrorList, FormAlert, SubmitButton } from "~/components/forms";
import { METADATA_SOURCES, REFRESH_MINUTES, SSO_ACCOUNT_TYPES } from "~/domain/sso";
import { saveSsoSettingsIntent, SsoSettingsSchema, toSsoFormValue, toSsoSettings } from "~/forms/sso";
import { requirePermission, requireUser } from "~/http/auth.server";
import { reply, replyInvalid, unknownIntent } from "~/http/reply.server";
import { readSsoSettingsForEdit, updateSsoSettings } from "~/services/sso/settings.server";
import { formatDateTime } from "~/utils/format";
import { pageTitle } from "~/utils/page-title";

const PATH = "/settings/retailer/sso";

/** Operators only: a retailer admin, who reads the retailer settings, does not see the identity provider's. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "RetailerSettings");
  const read = await readSsoSettingsForEdit(user);
  if (!read.ok) throw redirect("/not-authorized");
  return { ...read.value, timezone: user.timezone };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, "RetailerSettings");
  requirePermission(user, "RetailerSettings", "update");
  const formData = await request.formData();
  if (formData.get("intent") !== saveSsoSettingsIntent) return unknownIntent();
  const submission = parseWithZod(formData, { schema: SsoSettingsSchema });
  if (submission.status !== "success") return replyInvalid("sso" as const, submission);
  return reply(await updateSsoSettings(user, toSsoSettings(submission.value), submission.value.version), {
    form: "sso" as const,
    submission,
    onSuccess: () => ({ to: PATH, toast: { type: "success" as const, title: "toast.changesSaved", description: "sso:settings.saved" } }),
  });
}

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "sso");

export default function SsoSettingsRoute() {
  const { t } = useTranslation("sso");
  const { sp } = useLoaderData<typeof loader>();
  return (
    <div className="sso-settings">
      <p className="breadcrumb">
        <Link to="/settings/retailer">{t("settings.back")}</Link>
      </p>
      <h1>{t("settings.title")}</h1>
      <p className="muted">{t("settings.intro")}</p>

      <section className="panel" aria-labelledby="sso-sp-title">
        <h2 id="sso-sp-title">{t("settings.sp.title")}</h2>
        <p className="muted">{t("settings.sp.intro")}</p>
        <dl className="facts">
          <dt>{t("settings.sp.entityId")}</dt>
          <dd className="sso-copy">{sp.entityId}</dd>
          <dt>{t("settings.sp.acsUrl")}</dt>
          <dd className="sso-copy">{sp.acsUrl}</dd>
          <dt>{t("settings.sp.metadataUrl")}</dt>
          <dd className="sso-copy">
            <a href={sp.metadataUrl}>{sp.metadataUrl}</a>
          </dd>
        </dl>
      </section>

      <IdpFacts />
      <SsoSettingsForm />
    </div>
  );
}

/** What the metadata in force says: the IdP, where users are sent, its certificates and their expiry. */
function IdpFacts() {
  const { t, i18n } = useTranslation("sso");
  const { idp, timezone } = useLoaderData<typeof loader>();
  return (
    <section className="panel" aria-labelledby="sso-idp-title">
      <h2 id="sso-idp-title">{t("settings.idp.title")}</h2>
      {idp ? (
        <dl className="facts">
          <dt>{t("settings.idp.entityId")}</dt>
          <dd className="sso-copy">{idp.entityId}</dd>
          <dt>{t("settings.idp.ssoUrl")}</dt>
          <dd className="sso-copy">{idp.ssoUrl}</dd>
          <dt>{t("settings.idp.certificates", { count: idp.certificates.length })}</dt>
          <dd>
            <ul className="link-list">
              {idp.validTo.map((until, index) => (
                <li key={`${until}-${index}`}>{t("settings.idp.validUntil", { n: index + 1, date: formatDateTime(until, i18n.language, timezone) })}</li>
              ))}
            </ul>
          </dd>
        </dl>
      ) : (
        <p className="muted">{t("settings.idp.none")}</p>
      )}
    </section>
  );
}

function SsoSettingsForm() {
  const { t } = useTranslation("sso");
  const { settings, version, sp } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === saveSsoSettingsIntent;
  const [form, fields] = useForm({
    id: "sso-settings-form",
    lastResult: actionData?.result,
    constraint: getZodConstraint(SsoSettingsSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SsoSettingsSchema }),
    defaultValue: toSsoFormValue(settings),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const conflict = actionData && "kind" in actionData && actionData.kind === "conflict";
  const ns = { ns: ["sso", "common", "retailer"] };
  return (
    <Form method="post" {...getFormProps(form)} className="panel">
      <h2>{t("settings.form.title")}</h2>
      <input type="hidden" name="intent" value={saveSsoSettingsIntent} />
      <input type="hidden" name="version" value={version} />
      {form.errors?.length ? <FormAlert title={t(conflict ? "common:errors.conflictTitle" : "common:errors.errorOccurred")} message={t(form.errors[0]!, ns)} /> : null}

      <div className="field checkbox">
        <input {...getInputProps(fields.enabled, { type: "checkbox" })} key={fields.enabled.key} />
        <label htmlFor={fields.enabled.id}>{t("settings.form.enabled")}</label>
      </div>

      <fieldset className="retailer-choices">
        <legend>{t("settings.form.metadataSource")}</legend>
        {getCollectionProps(fields.metadataSource, { type: "radio", options: [...METADATA_SOURCES] }).map(({ key, ...props }) => (
          <div className="field checkbox" key={key}>
            <input {...props} />
            <label htmlFor={props.id}>{t(`settings.form.source.${props.value}`)}</label>
          </div>
        ))}
        <ErrorList id={fields.metadataSource.errorId} errors={fields.metadataSource.errors} />
      </fieldset>

      <div className="field">
        <label htmlFor={fields.metadataXml.id}>{t("settings.form.metadataXml")}</label>
        <textarea
          {...getTextareaProps(fields.metadataXml)}
          key={fields.metadataXml.key}
          rows={8}
          spellCheck={false}
          aria-describedby={[fields.metadataXml.errors?.length ? fields.metadataXml.errorId : null, "sso-xml-help"].filter(Boolean).join(" ")}
        />
        <p id="sso-xml-help" className="field-help">
          {t("settings.form.metadataXmlHelp")}
        </p>
        <ErrorList id={fields.metadataXml.errorId} errors={fields.metadataXml.errors} />
      </div>

      <TextField field={fields.metadataUrl} label={t("settings.form.metadataUrl")} help={t("settings.form.metadataUrlHelp")} type="url" />
      <TextField
        field={fields.metadataRefreshMinutes}
        label={t("settings.form.refreshMinutes")}
        help={t("settings.form.refreshMinutesHelp", { min: REFRESH_MINUTES.min, max: REFRESH_MINUTES.max })}
        type="number"
      />
      <TextField field={fields.idpEntityId} label={t("settings.form.idpEntityId")} help={t("settings.form.idpEntityIdHelp")} />
      <TextField field={fields.spEntityId} label={t("settings.form.spEntityId")} help={t("settings.form.spEntityIdHelp", { url: sp.metadataUrl })} />
      <TextField field={fields.matchAttribute} label={t("settings.form.matchAttribute")} help={t("settings.form.matchAttributeHelp")} />

      <fieldset className="retailer-choices" aria-describedby="sso-types-help">
        <legend>{t("settings.form.accountTypes")}</legend>
        {getCollectionProps(fields.accountTypes, { type: "checkbox", options: [...SSO_ACCOUNT_TYPES] }).map(({ key, ...props }) => (
          <div className="field checkbox" key={key}>
            <input {...props} />
            <label htmlFor={props.id}>{t(`settings.form.type.${props.value}`)}</label>
          </div>
        ))}
        <p id="sso-types-help" className="field-help">
          {t("settings.form.accountTypesHelp")}
        </p>
        <ErrorList id={fields.accountTypes.errorId} errors={fields.accountTypes.errors} />
      </fieldset>

      <div className="field checkbox">
        <input {...getInputProps(fields.allowUnsolicited, { type: "checkbox" })} key={fields.allowUnsolicited.key} aria-describedby="sso-unsolicited-help" />
        <label htmlFor={fields.allowUnsolicited.id}>{t("settings.form.allowUnsolicited")}</label>
      </div>
      <p id="sso-unsolicited-help" className="field-help">
        {t("settings.form.allowUnsolicitedHelp")}
      </p>

      <SubmitButton pending={pending}>{t("settings.form.save")}</SubmitButton>
    </Form>
  );
}

function TextField({
  field,
  label,
  help,
  type = "text",
}: {
  field: Parameters<typeof getInputProps>[0];
  label: string;
  help: string;
  type?: "text" | "url" | "number";
}) {
  const helpId = `${field.id}-help`;
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <input
        {...getInputProps(field, { type })}
        key={field.key}
        inputMode={type === "number" ? "numeric" : undefined}
        aria-invalid={field.errors?.length ? true : undefined}
        aria-describedby={[field.errors?.length ? field.errorId : null, helpId].filter(Boolean).join(" ")}
      />
      <p id={helpId} className="field-help">
        {help}
      </p>
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
