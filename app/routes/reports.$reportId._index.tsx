import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "~/components/use-hydrated";
import { ErrorList, Field, FormAlert, SubmitButton } from "~/components/forms";
import { SelectField } from "~/components/select-field";
import { DEFAULT_REPORT_PERIOD, DEFAULT_RUN_TIME, FREQUENCIES, parseRecipients, parseTags, REPORT_FORMATS, REPORT_PERIODS, REPORT_TYPES, TIME_UNITS } from "~/domain/reports";
import type { Preset } from "~/domain/metrics/periods";
import { deleteReportIntent, ReportActionSchema, ReportSchema, runReportNowIntent, saveReportIntent, versionOf } from "~/forms/reports";
import { requireUser } from "~/http/auth.server";
import { getRequestLocale } from "~/http/i18n.server";
import { orThrow, reply, replyInvalid, validOrThrow } from "~/http/reply.server";
import { deleteReport, reportForEdit, runReportNow, saveReport } from "~/services/reports.server";
import { useIsPending } from "~/utils/misc";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "report");

const reportIdOf = (id: string | undefined) => (!id || id === "new" ? null : id);

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Report");
  const locale = await getRequestLocale(request);
  const timeZone = user.timezone || "Europe/Paris";
  const view = orThrow(await reportForEdit(user, reportIdOf(params.reportId), { locale, timeZone }));
  // The run time is the owner's local time: the viewer's own zone for their reports (a save
  // follows it), the owner's for somebody else's.
  const ownerZone = view.report && view.report.ownerId !== user.id ? view.report.timeZone : null;
  return { ...view, timeZone: ownerZone ?? timeZone, ownersZone: ownerZone !== null, isSupplier: user.claims.type === "supplier" };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, "Report");
  const id = reportIdOf(params.reportId);
  const formData = await request.formData();
  if (formData.get("intent") === saveReportIntent) {
    const submission = parseWithZod(formData, { schema: ReportSchema });
    if (submission.status !== "success") return replyInvalid("report", submission);
    const v = submission.value;
    const result = await saveReport(user, id, {
      version: versionOf(v.version),
      name: v.name,
      type: v.type,
      period: v.period as Preset,
      interval: v.period === "custom" ? { from: v.from, to: v.to } : null,
      timeUnit: v.timeUnit,
      walletTags: parseTags(v.walletTags),
      teamId: v.teamId || null,
      recipients: parseRecipients(v.recipients).emails,
      format: v.format,
      frequency: v.frequency,
      runAt: v.frequency === "once" ? DEFAULT_RUN_TIME : v.runAt,
    });
    return reply(result, {
      form: "report",
      submission,
      onSuccess: (report) => ({
        to: `/reports/${encodeURIComponent(report.id)}`,
        toast: { type: "success", title: "toast.changesSaved", description: report.resumed ? "reports:toast.resumed" : report.stillStopped ? "reports:toast.savedStillStopped" : id ? "reports:toast.saved" : "reports:toast.created", values: { name: report.name } },
      }),
    });
  }
  if (!id) return validOrThrow(parseWithZod(formData, { schema: ReportSchema }));
  const form = validOrThrow(parseWithZod(formData, { schema: ReportActionSchema }));
  if (form.intent === runReportNowIntent) {
    return reply(await runReportNow(user, id), {
      form: runReportNowIntent,
      onSuccess: (report) => ({
        to: `/reports/${encodeURIComponent(report.id)}/history`,
        toast: { type: "success", title: "toast.changesSaved", description: "reports:toast.runStarted", values: { name: report.name } },
      }),
    });
  }
  return reply(await deleteReport(user, id), {
    form: deleteReportIntent,
    onSuccess: (report) => ({ to: "/reports", toast: { type: "success", title: "toast.changesSaved", description: "reports:toast.deleted", values: { name: report.name } } }),
  });
}

/** The form's fields in the order shown. */
const REPORT_FIELD_ORDER = ["name", "type", "teamId", "period", "timeUnit", "from", "to", "walletTags", "recipients", "format", "frequency", "runAt"] as const;

export default function ReportEditRoute() {
  const { t } = useTranslation("reports");
  const { report, editable, ownerBack, movable, next, teams, walletTags, timeZone, ownersZone, isSupplier } = useLoaderData<typeof loader>();
  const stopped = !!report?.stopped;
  const actionData = useActionData<typeof action>();
  const pending = useIsPending();
  const [form, fields] = useForm({
    id: "report-form",
    lastResult: actionData && "result" in actionData && actionData.form === "report" ? actionData.result : undefined,
    constraint: getZodConstraint(ReportSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ReportSchema }),
    defaultValue: report
      ? {
          name: report.name,
          type: report.type,
          period: report.period,
          from: report.interval?.from ?? "",
          to: report.interval?.to ?? "",
          timeUnit: report.timeUnit,
          walletTags: report.walletTags.join(", "),
          teamId: report.teamId ?? "",
          recipients: report.recipients.join("\n"),
          format: report.format,
          frequency: report.frequency,
          runAt: report.runAt,
        }
      : { type: "teams", period: DEFAULT_REPORT_PERIOD, timeUnit: "cumulative", format: "csv", frequency: "once", runAt: DEFAULT_RUN_TIME, teamId: isSupplier ? (teams[0]?.id ?? "") : "" },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  // The form's own message, or one about its hidden version (only a forged request gets it wrong).
  const formError = form.errors?.[0] ?? fields.version.errors?.[0] ?? null;
  const otherError = actionData && "form" in actionData && actionData.form !== "report" && "error" in actionData ? actionData.error : null;
  // A refused form drawn by the server (without JavaScript) focuses its first wrong field, not the
  // top of the page; with JavaScript conform does so itself.
  const firstInvalid = REPORT_FIELD_ORDER.find((name) => fields[name].errors?.length);
  // Only as drawn by the server: once hydrated, an autofocus would pull focus back to the field at each check on blur.
  const hydrated = useHydrated();
  const focus = (name: (typeof REPORT_FIELD_ORDER)[number]) => (!hydrated && firstInvalid === name ? true : undefined);
  return (
    <>
      {next ? <p className="muted">{t("nextRunText", { when: next.text })}</p> : null}
      {!editable ? <p className="muted">{t("readOnly")}</p> : null}
      {stopped && editable ? <p className="muted">{t(ownerBack ? "stopped.ownerBack" : movable ? "stopped.ownerStillMovable" : "stopped.ownerStill")}</p> : null}
      {otherError ? <FormAlert title={t("common:errors.conflictTitle")} message={t(otherError, { ns: ["reports", "common"] })} /> : null}
      <section className="panel" aria-labelledby="report-form-title">
        <h2 id="report-form-title" className="visually-hidden">
          {report ? t("tabs.edit") : t("newTitle")}
        </h2>
        {formError ? <FormAlert title={t("common:errors.conflictTitle")} message={t(formError, { ns: ["reports", "common"] })} /> : null}
        <Form method="post" {...getFormProps(form)}>
          <input type="hidden" name="intent" value={saveReportIntent} />
          {report ? <input type="hidden" name="version" value={report.version} /> : null}
          <fieldset disabled={!editable} className="plain-fieldset">
            <Field label={t("fields.name")} inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoFocus: focus("name") }} errors={fields.name.errors} />
            <div className="field-row">
              <SelectField field={fields.type} label={t("fields.type")} autoFocus={focus("type")}>
                {REPORT_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {t(`types.${type}`)}
                  </option>
                ))}
              </SelectField>
              <SelectField field={fields.teamId} label={t("fields.team")} autoFocus={focus("teamId")}>
                {isSupplier ? null : <option value="">{t("fields.allTeams")}</option>}
                {teams.map((team) => (
                  <option key={team.id} value={team.id}>
                    {team.name}
                  </option>
                ))}
              </SelectField>
            </div>
            <div className="field-row">
              <SelectField field={fields.period} label={t("fields.period")} autoFocus={focus("period")}>
                {REPORT_PERIODS.map((p) => (
                  <option key={p} value={p}>
                    {t(`metrics:presets.${p}`)}
                  </option>
                ))}
              </SelectField>
              <SelectField field={fields.timeUnit} label={t("fields.timeUnit")} autoFocus={focus("timeUnit")}>
                {TIME_UNITS.map((u) => (
                  <option key={u} value={u}>
                    {t(`timeUnits.${u}`)}
                  </option>
                ))}
              </SelectField>
            </div>
            <fieldset className="report-interval">
              <legend>{t("fields.interval")}</legend>
              <div className="field-row">
                <Field label={t("fields.from")} inputProps={{ ...getInputProps(fields.from, { type: "date" }), autoFocus: focus("from") }} errors={fields.from.errors} />
                <Field label={t("fields.to")} inputProps={{ ...getInputProps(fields.to, { type: "date" }), autoFocus: focus("to") }} errors={fields.to.errors} />
              </div>
            </fieldset>
            {walletTags ? (
              <Field label={t("fields.walletTags")} inputProps={{ ...getInputProps(fields.walletTags, { type: "text" }), autoFocus: focus("walletTags") }} errors={fields.walletTags.errors} help={t("fields.walletTagsHelp")} />
            ) : null}
            <div className="field">
              <label htmlFor={fields.recipients.id} className="required-label">
                {t("fields.recipients")}
              </label>
              <textarea
                {...getTextareaProps(fields.recipients)}
                key={fields.recipients.key}
                rows={3}
                autoFocus={focus("recipients")}
                aria-invalid={fields.recipients.errors?.length ? true : undefined}
                aria-describedby={[fields.recipients.errors?.length ? `${fields.recipients.id}-error` : null, `${fields.recipients.id}-help`].filter(Boolean).join(" ")}
              />
              <p id={`${fields.recipients.id}-help`} className="field-help">
                {t("fields.recipientsHelp")}
              </p>
              <ErrorList id={`${fields.recipients.id}-error`} errors={fields.recipients.errors} />
            </div>
            <div className="field-row">
              <SelectField field={fields.format} label={t("fields.format")} autoFocus={focus("format")}>
                {REPORT_FORMATS.map((f) => (
                  <option key={f} value={f}>
                    {t(`formats.${f}`)}
                  </option>
                ))}
              </SelectField>
              <SelectField field={fields.frequency} label={t("fields.frequency")} autoFocus={focus("frequency")}>
                {FREQUENCIES.map((f) => (
                  <option key={f} value={f}>
                    {t(`frequencies.${f}`)}
                  </option>
                ))}
              </SelectField>
              <Field label={t("fields.runAt")} inputProps={{ ...getInputProps(fields.runAt, { type: "time" }), autoFocus: focus("runAt") }} errors={fields.runAt.errors} help={t(ownersZone ? "fields.runAtHelpOwner" : "fields.runAtHelp", { zone: timeZone })} />
            </div>
            {editable ? <SubmitButton pending={pending}>{stopped && ownerBack ? t("stopped.saveAndResume") : report ? t("save") : t("create")}</SubmitButton> : null}
          </fieldset>
        </Form>
      </section>
      {report && editable ? (
        <div className="report-actions">
          {stopped ? null : (
            <Form method="post">
              <input type="hidden" name="intent" value={runReportNowIntent} />
              <button type="submit" className="button" disabled={pending}>
                {t("runNow")}
              </button>
            </Form>
          )}
          <Form method="post">
            <input type="hidden" name="intent" value={deleteReportIntent} />
            <button type="submit" className="button danger" disabled={pending}>
              {t("delete")}
            </button>
          </Form>
        </div>
      ) : null}
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
