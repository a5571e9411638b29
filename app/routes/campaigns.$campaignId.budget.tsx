import { orThrow, reply, replyInvalid, unknownIntent } from "~/http/reply.server";
import { savedReply } from "~/http/campaigns.server";
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CapNotices } from "~/components/campaigns/status-badge";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import { PACING_DEVICES, PACING_PLACEMENTS } from "~/domain/campaigns/pacing";
import { UpdateBudgetSchema, updateBudgetIntent } from "~/forms/campaigns/campaigns";
import { requireUser } from "~/http/auth.server";
import { budgetSection, campaignEditable, requireCampaign, updateBudget } from "~/services/campaigns/campaigns.server";
import { getRequestLocale } from "~/http/i18n.server";
import { useIsPending } from "~/utils/misc";
import { TableWrap } from "~/components/table-wrap";
import { labelDefault, placementLabelKey } from "~/domain/placement-labels";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "budget", "campaign");

/** The Budget section: total, daily, per placement and per device budgets, and the pacing view. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  const ctx = orThrow(await requireCampaign(user, params.campaignId));
  const section = await budgetSection(ctx, await getRequestLocale(request));
  return { ...section, campaignId: ctx.campaign.id, canEdit: campaignEditable(user, ctx) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  if (!params.campaignId) return data({ result: undefined, error: "campaigns:errors.noCampaignId" }, { status: 400 });
  const ctx = orThrow(await requireCampaign(user, params.campaignId));
  const formData = await request.formData();
  if (formData.get("intent") !== updateBudgetIntent) return unknownIntent();
  const submission = parseWithZod(formData, { schema: UpdateBudgetSchema });
  if (submission.status !== "success") return replyInvalid("budget", submission);
  const outcome = await updateBudget(user, ctx, submission.value, await getRequestLocale(request));
  return reply(outcome, { form: "budget", submission, onSuccess: (_campaign, warnings) => savedReply(`/campaigns/${ctx.campaign.id}/budget`, warnings) });
}

export default function CampaignBudgetRoute() {
  const { version } = useLoaderData<typeof loader>();
  return (
    <>
      <PacingView />
      <BudgetForm key={version} />
    </>
  );
}

/**
 * Spend to date against the total budget, today's spend against the daily budget, and today's
 * spend per placement and device against their caps; the caps that stop the campaign today.
 */
function PacingView() {
  const { t } = useTranslation(["campaignEditor", "campaigns"]);
  const { pacing, wallet } = useLoaderData<typeof loader>();
  return (
    <section className="panel pacing-view" aria-labelledby="pacing-title">
      <h2 id="pacing-title">{t("budget.pacingTitle")}</h2>
      {pacing.total ? (
        <div className="spent-meter">
          <label htmlFor="pacing-total-meter">{t("budget.totalMeter")}</label>
          <meter id="pacing-total-meter" min={0} max={pacing.totalCents ?? 0} value={Math.min(pacing.spentCents, pacing.totalCents ?? 0)} optimum={0} high={(pacing.totalCents ?? 0) * 0.9}>
            {t("budget.percent", { percent: pacing.percent })}
          </meter>
          <p className="spent-text">
            {t("budget.spentOfTotal", { spent: pacing.spent, total: pacing.total, percent: pacing.percent, remaining: pacing.remaining })}
          </p>
          {pacing.reached ? <p className="readiness-warning">{t("budget.reached")}</p> : null}
        </div>
      ) : (
        <p>{t("budget.spentNoTotal", { spent: pacing.spent })}</p>
      )}
      <p>{pacing.daily ? t("budget.todayOfDaily", { spent: pacing.today, daily: pacing.daily }) : t("budget.todayNoDaily", { spent: pacing.today })}</p>
      {/* The placement and device caps are in the table below; the header names them all. */}
      <CapNotices caps={pacing.caps.filter((cap) => cap.cap === "daily")} />
      {pacing.placements.length || pacing.devices.length ? (
        <TableWrap label={t("budget.todayByDimension")}>
        <table className="figures-table pacing-today">
          <caption>{t("budget.todayByDimension")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("budget.where")}</th>
              <th scope="col" className="num">
                {t("budget.spentToday")}
              </th>
              <th scope="col" className="num">
                {t("budget.cap")}
              </th>
              <th scope="col">{t("budget.capState")}</th>
            </tr>
          </thead>
          <tbody>
            {[
              ...pacing.placements.map((r) => ({ ...r, id: `placement-${r.key}`, label: t(placementLabelKey(r.key), labelDefault(r.key)) })),
              ...pacing.devices.map((r) => ({ ...r, id: `device-${r.key}`, label: t(`budget.devices.${r.key}`) })),
            ].map((r) => (
              <tr key={r.id}>
                <th scope="row">{r.label}</th>
                <td className="num">{r.spent}</td>
                <td className="num">{r.cap ?? t("budget.noCap")}</td>
                <td>{r.reached ? t("budget.capReachedUntilTomorrow") : t("budget.underCap")}</td>
              </tr>
            ))}
          </tbody>
        </table>
        </TableWrap>
      ) : null}
      {wallet ? <p className="field-help">{t("budget.walletBalance", { label: wallet.label, balance: wallet.balance })}</p> : null}
    </section>
  );
}

function BudgetForm() {
  const { t } = useTranslation(["campaignEditor", "campaigns"]);
  // Message keys name their namespace ("campaigns:…") or are common's: the default t reads both.
  const { t: tc } = useTranslation();
  const view = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const pending = useIsPending();
  const [form, fields] = useForm({
    id: "campaign-budget-form",
    lastResult: actionData?.result,
    constraint: getZodConstraint(UpdateBudgetSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: UpdateBudgetSchema }),
    defaultValue: view.values,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const readOnly = !view.canEdit;
  const conflict = form.errors?.includes("errors.conflict");
  const money = (name: keyof typeof fields) => ({
    ...getInputProps(fields[name], { type: "text" }),
    inputMode: "decimal" as const,
    autoComplete: "off",
    className: "money-input",
  });
  return (
    <section className="panel" aria-labelledby="budget-title">
      <h2 id="budget-title">{t("campaigns:editor.section.budget")}</h2>
      {readOnly ? <p className="notice">{t("readOnly")}</p> : null}
      {view.warnings.map((w) => (
        <p key={w.key} className="notice readiness-warning" role="note">
          {t(w.key, w.values)}
        </p>
      ))}
      {form.errors?.length ? (
        <FormAlert title={conflict ? tc("errors.conflictTitle") : tc("errors.errorOccurred")} message={form.errors.map((k) => tc(k)).join(" ")} />
      ) : null}
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value={updateBudgetIntent} />
        <input {...getInputProps(fields.version, { type: "hidden" })} />
        <p className="field-help">{t("budget.rules")}</p>
        <fieldset className="plain-fieldset" disabled={readOnly}>
          <div className="field-row">
            <Field label={t("budget.total")} inputProps={money("pacingTotal")} errors={fields.pacingTotal.errors} />
            <Field label={t("budget.daily")} inputProps={money("pacingDaily")} errors={fields.pacingDaily.errors} help={t("budget.dailyHelp")} />
          </div>
          <fieldset>
            <legend>{t("budget.perPlacement")}</legend>
            <p className="field-help">{t("budget.perPlacementHelp")}</p>
            <div className="field-row">
              {PACING_PLACEMENTS.map((p) => (
                <Field key={p} label={t(placementLabelKey(p), labelDefault(p))} inputProps={money(`pacing_${p}`)} errors={fields[`pacing_${p}`].errors} />
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend>{t("budget.perDevice")}</legend>
            <div className="field-row">
              {PACING_DEVICES.map((d) => (
                <Field key={d} label={t(`budget.devices.${d}`)} inputProps={money(`device_${d}`)} errors={fields[`device_${d}`].errors} />
              ))}
            </div>
          </fieldset>
        </fieldset>
        {readOnly ? null : <SubmitButton pending={pending}>{t("save")}</SubmitButton>}
      </Form>
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
