import { orThrow, reply, replyInvalid, unknownIntent } from "~/http/reply.server";
import { savedReply } from "~/http/campaigns.server";
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DaypartingGrid } from "~/components/campaigns/dayparting-grid";
import { Heatmap } from "~/components/metrics/heatmap";
import { ExportLink, Freshness, PeriodFields, periodProps } from "~/components/metrics/statistics";
import { isEmptyHeatmap } from "~/domain/metrics/heatmap";
import { CAMPAIGN_PRESETS, campaignPresetContext, endsBeforeToday, periodFromSearch } from "~/domain/metrics/periods";
import { campaignHeatmap } from "~/services/campaigns/statistics.server";
import { retailerTimeZone } from "~/services/retailer-settings.server";
import { ErrorList, Field, FormAlert, SubmitButton } from "~/components/forms";
import { SelectField } from "~/components/select-field";
import { CAPPING_TYPES } from "~/domain/campaigns/campaign";
import { TARGET_DEVICES } from "~/domain/campaigns/pacing";
import { daypartPresetEntries, isDaypartPreset, type DaypartPreset } from "~/domain/campaigns/targeting";
import { daypartField, daypartPresetField, UpdateTargetingSchema, updateTargetingIntent } from "~/forms/campaigns/targeting";
import { requirePermission, requireUser } from "~/http/auth.server";
import { requireCampaign } from "~/services/campaigns/campaigns.server";
import { targetingView, updateTargeting } from "~/services/campaigns/targeting.server";
import { getRequestLocale } from "~/http/i18n.server";
import { useIsPending } from "~/utils/misc";
import { labelDefault, placementLabelKey, slotLabelKey } from "~/domain/placement-labels";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "targeting");

/**
 * Devices, frequency capping, placements and slots, and dayparting of a campaign, with beside the
 * dayparting grid the campaign's heatmap of a period (?period=…, default the last 30 days), so a
 * user schedules from evidence.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  const ctx = orThrow(await requireCampaign(user, params.campaignId));
  const now = new Date();
  const choice = periodFromSearch(
    new URL(request.url).searchParams,
    { now, timeZone: retailerTimeZone(), ...campaignPresetContext(ctx.campaign) },
    CAMPAIGN_PRESETS,
    { defaultPreset: EVIDENCE_PRESET },
  );
  const [view, evidence] = await Promise.all([targetingView(user, ctx, await getRequestLocale(request)), campaignHeatmap(user, ctx, choice.period)]);
  return {
    ...view,
    evidence: {
      choice,
      endsBeforeToday: endsBeforeToday(choice.period, now, retailerTimeZone()),
      heatmap: evidence.ok ? evidence.value.heatmap : null,
      newestEvent: evidence.ok ? evidence.value.newestEvent : null,
      failure: evidence.ok ? null : evidence.reason,
    },
  };
}

/** The heatmap's export: its period named in full (the CSV's own default is today, this heatmap's the last 30 days). */
function heatmapSearch(choice: { preset: string; custom: { from: string; to: string } }): URLSearchParams {
  const search = new URLSearchParams({ period: choice.preset });
  if (choice.custom.from) search.set("from", choice.custom.from);
  if (choice.custom.to) search.set("to", choice.custom.to);
  return search;
}

/** The heatmap beside the dayparting grid covers the last 30 days unless the URL says otherwise. */
const EVIDENCE_PRESET = "last30";
/** The heatmap's GET form: empty, after the targeting form; its fields sit beside the grid (HTML's form attribute). */
const EVIDENCE_FORM_ID = "daypart-evidence-form";

type ActionData = { result: SubmissionResult<string[]>; preset?: DaypartPreset };

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  if (!params.campaignId) return data({ error: "campaigns:errors.noCampaignId" }, { status: 400 });
  const ctx = orThrow(await requireCampaign(user, params.campaignId));
  requirePermission(user, "Campaign", "update", { teamId: ctx.team.id });
  const formData = await request.formData();

  // A quick fill of the grid posted without JS: the form comes back with the grid filled, nothing saved.
  const preset = formData.get(daypartPresetField);
  if (preset !== null) {
    if (!isDaypartPreset(preset)) throw data({ error: "Unknown preset" }, { status: 400 });
    formData.delete(daypartPresetField);
    formData.delete(daypartField);
    for (const entry of daypartPresetEntries(preset)) formData.append(daypartField, entry);
    const submission = parseWithZod(formData, { schema: UpdateTargetingSchema });
    return data<ActionData>({ result: { initialValue: submission.payload as Record<string, unknown> } as SubmissionResult<string[]>, preset });
  }

  if (formData.get("intent") !== updateTargetingIntent) return unknownIntent();
  const submission = parseWithZod(formData, { schema: UpdateTargetingSchema });
  if (submission.status !== "success") return replyInvalid("targeting", submission);
  const outcome = await updateTargeting(user, ctx, submission.value);
  return reply(outcome, { form: "targeting", submission, onSuccess: () => savedReply(`/campaigns/${ctx.campaign.id}/targeting`, []) });
}

function asArray(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return typeof value === "string" ? [value] : [];
}

export default function CampaignTargetingRoute() {
  const view = useLoaderData<typeof loader>();
  // A new version (a save) starts the form again from the saved values.
  return <TargetingForm key={view.version} />;
}

function TargetingForm() {
  const { t } = useTranslation(["campaignTargeting", "campaigns"]);
  const { t: tc } = useTranslation();
  const view = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | { error: string } | undefined;
  const lastResult = actionData && "result" in actionData ? actionData.result : undefined;
  const preset = actionData && "preset" in actionData ? actionData.preset : undefined;
  const pending = useIsPending();
  const [form, fields] = useForm({
    id: "campaign-targeting-form",
    lastResult,
    constraint: getZodConstraint(UpdateTargetingSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: UpdateTargetingSchema }),
    defaultValue: view.defaults,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  // What the form shows: what was posted (kept on a refusal, or a quick fill), else the saved values.
  const initial = (lastResult?.initialValue as Record<string, unknown> | undefined) ?? (view.defaults as Record<string, unknown>);
  const devices = new Set(asArray(initial.devices));
  const placements = new Set(asArray(initial.placements));
  const slots = new Set(asArray(initial.slots));
  const daypart = new Set(asArray(initial.daypart));
  const cappingEnabled = initial.cappingEnabled === true || initial.cappingEnabled === "on";
  const readOnly = !view.canEdit;
  const errorId = (name: string) => `targeting-${name}-error`;
  const placementName = (p: string) => t(placementLabelKey(p), labelDefault(p));

  return (
    <section className="panel targeting" aria-labelledby="targeting-title">
      <h2 id="targeting-title">{t("campaigns:editor.section.targeting")}</h2>
      {readOnly ? <p className="notice">{t("readOnly")}</p> : null}
      <Form method="post" {...getFormProps(form)}>
        {/* The default button: Enter in a text field saves (not a quick fill of the grid). */}
        <button type="submit" className="visually-hidden" tabIndex={-1} aria-hidden="true" disabled={readOnly}>
          {t("save")}
        </button>
        <input type="hidden" name="intent" value={updateTargetingIntent} />
        <input type="hidden" name="version" value={view.version} />
        {form.errors?.length ? <FormAlert title={tc("errors.conflictTitle")} message={tc(form.errors[0]!)} /> : null}
        <fieldset disabled={readOnly} className="targeting-fieldsets">
          <fieldset className="targeting-group" aria-describedby={fields.devices.errors?.length ? errorId("devices") : "targeting-devices-help"}>
            <legend>{t("devices.legend")}</legend>
            <p id="targeting-devices-help" className="field-help">
              {t("devices.help")}
            </p>
            <div className="check-row">
              {TARGET_DEVICES.map((d) => (
                <div className="field checkbox" key={d}>
                  <input type="checkbox" id={`targeting-device-${d}`} name="devices" value={d} defaultChecked={devices.has(d)} />
                  <label htmlFor={`targeting-device-${d}`}>{t(`devices.${d}`)}</label>
                </div>
              ))}
            </div>
            <ErrorList id={errorId("devices")} errors={fields.devices.errors} />
          </fieldset>

          <fieldset className="targeting-group">
            <legend>{t("capping.legend")}</legend>
            <div className="field checkbox">
              <input type="checkbox" id="targeting-capping-enabled" name="cappingEnabled" defaultChecked={cappingEnabled} />
              <label htmlFor="targeting-capping-enabled">{t("capping.enabled")}</label>
            </div>
            <div className="field-row">
              <SelectField field={fields.cappingType} label={t("capping.type")}>
                {CAPPING_TYPES.map((ty) => (
                  <option key={ty} value={ty}>
                    {t(`capping.types.${ty}`)}
                  </option>
                ))}
              </SelectField>
              <Field
                label={t("capping.max")}
                inputProps={{ ...getInputProps(fields.cappingMax, { type: "number" }), inputMode: "numeric", step: 1 }}
                errors={fields.cappingMax.errors}
                help={t("capping.help")}
              />
            </div>
          </fieldset>

          <fieldset className="targeting-group" aria-describedby={fields.placements.errors?.length ? errorId("placements") : undefined}>
            <legend>{t("placementsLegend")}</legend>
            <div className="check-row">
              {view.placements.map((p) => (
                <div className="field checkbox" key={p}>
                  <input type="checkbox" id={`targeting-placement-${p}`} name="placements" value={p} defaultChecked={placements.has(p)} />
                  <label htmlFor={`targeting-placement-${p}`}>{placementName(p)}</label>
                </div>
              ))}
            </div>
            <ErrorList id={errorId("placements")} errors={fields.placements.errors} />
          </fieldset>

          <fieldset className="targeting-group" aria-describedby={fields.slots.errors?.length ? errorId("slots") : "targeting-slots-help"}>
            <legend>{t("slotsLegend")}</legend>
            <p id="targeting-slots-help" className="field-help">
              {t("slotsHelp")}
            </p>
            {view.slots.map(({ slot, placements: served }) => (
              <div className="field checkbox" key={slot}>
                <input type="checkbox" id={`targeting-slot-${slot}`} name="slots" value={slot} defaultChecked={slots.has(slot)} />
                <label htmlFor={`targeting-slot-${slot}`}>
                  {t("slotLabel", { slot: t(slotLabelKey(slot), labelDefault(slot)), placements: served.map(placementName).join(", ") })}
                </label>
              </div>
            ))}
            {view.unknownSlots.length ? <p className="field-help">{t("unknownSlots", { slots: view.unknownSlots.join(", ") })}</p> : null}
            <ErrorList id={errorId("slots")} errors={fields.slots.errors} />
          </fieldset>

          <fieldset className="targeting-group" aria-describedby={fields.daypart.errors?.length ? errorId("daypart") : undefined}>
            <legend>{t("dayparting.legend")}</legend>
            <p className="field-help" id="targeting-daypart-help">
              {t("dayparting.timeZone", { timeZone: view.timeZone, now: view.localNow })} {t("dayparting.dst")}
            </p>
            <p className="field-help">{view.saved.dayparting ? t("dayparting.savedHours", { count: view.saved.dayparting.totalHours }) : t("dayparting.savedAll")}</p>
            {preset ? (
              <p className="notice" role="status">
                {t(`dayparting.filledNotSaved.${preset}`)}
              </p>
            ) : null}
            <ErrorList id={errorId("daypart")} errors={fields.daypart.errors} />
            <DaypartingGrid
              idPrefix="daypart"
              name={daypartField}
              presetName={daypartPresetField}
              checked={daypart}
              disabled={readOnly}
              timeZone={view.timeZone}
              now={{ day: view.localDay, hour: view.localHour }}
              describedBy="targeting-daypart-help"
            />
          </fieldset>
        </fieldset>
        <DaypartEvidence />
        {readOnly ? null : <SubmitButton pending={pending}>{t("save")}</SubmitButton>}
      </Form>
      <Form id={EVIDENCE_FORM_ID} method="get" preventScrollReset />
    </section>
  );
}

/** When the campaign's ads performed, by weekday and hour, for a period: the evidence to schedule from. */
function DaypartEvidence() {
  const { t } = useTranslation("metrics");
  const { t: tc } = useTranslation();
  const { evidence, timeZone } = useLoaderData<typeof loader>();
  const { campaignId = "" } = useParams();
  const { choice } = evidence;
  return (
    <section className="daypart-evidence" aria-labelledby="daypart-evidence-title">
      <h3 id="daypart-evidence-title">{t("campaign.heatmap")}</h3>
      <p className="field-help">{t("campaign.heatmapTargetingHelp", { zone: timeZone })}</p>
      <div className="period-form" role="group" aria-label={t("period.label")}>
        <PeriodFields
          presets={CAMPAIGN_PRESETS}
          {...periodProps(choice)}
          compare={false}
          compareOption={false}
          idPrefix="evidence"
          form={EVIDENCE_FORM_ID}
        >
          <button type="submit" className="button" form={EVIDENCE_FORM_ID}>
            {t("period.apply")}
          </button>
        </PeriodFields>
      </div>
      {evidence.failure ? <FormAlert title={t(evidence.failure)} message={tc("errors.errorOccurred")} /> : null}
      {evidence.heatmap ? (
        <>
          <Heatmap
            id="daypart-heatmap"
            displays={evidence.heatmap.displays}
            clicks={evidence.heatmap.clicks}
            period={choice.period}
            endsBeforeToday={evidence.endsBeforeToday}
          />
          {isEmptyHeatmap(evidence.heatmap) ? null : (
            <p>
              <ExportLink
                path={`/campaigns/${encodeURIComponent(campaignId)}/statistics.csv`}
                search={heatmapSearch(choice)}
                extra={{ table: "heatmap" }}
                label={t("exportTable", { table: t("campaign.heatmapTable") })}
              />
            </p>
          )}
          <Freshness newestEvent={evidence.newestEvent} />
        </>
      ) : null}
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
