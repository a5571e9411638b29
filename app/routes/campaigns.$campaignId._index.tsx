import { orThrow, reply, replyInvalid, unknownIntent } from "~/http/reply.server";
import { savedReply } from "~/http/campaigns.server";
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import { SelectField } from "~/components/select-field";
import { UpdateGeneralSchema, updateGeneralIntent } from "~/forms/campaigns/campaigns";
import { requireUser } from "~/http/auth.server";
import { campaignEditable, generalSection, requireCampaign, updateGeneral } from "~/services/campaigns/campaigns.server";
import { getRequestLocale } from "~/http/i18n.server";
import { useIsPending } from "~/utils/misc";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "general", "campaign");

/** The General section: name, dates, wallet, type; what is still missing before activation. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  const ctx = orThrow(await requireCampaign(user, params.campaignId));
  const section = await generalSection(user, ctx, await getRequestLocale(request));
  return { ...section, campaignId: ctx.campaign.id, canEdit: campaignEditable(user, ctx) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  if (!params.campaignId) return data({ result: undefined, error: "campaigns:errors.noCampaignId" }, { status: 400 });
  const ctx = orThrow(await requireCampaign(user, params.campaignId));
  const formData = await request.formData();
  if (formData.get("intent") !== updateGeneralIntent) return unknownIntent();
  const submission = parseWithZod(formData, { schema: UpdateGeneralSchema });
  if (submission.status !== "success") return replyInvalid("general", submission);
  const outcome = await updateGeneral(user, ctx, submission.value, await getRequestLocale(request));
  return reply(outcome, { form: "general", submission, onSuccess: (_campaign, warnings) => savedReply(`/campaigns/${ctx.campaign.id}`, warnings) });
}

export default function CampaignGeneralRoute() {
  const { version } = useLoaderData<typeof loader>();
  // A saved version starts the form again from the saved values; a refused save keeps the input.
  return <GeneralForm key={version} />;
}

function GeneralForm() {
  const { t } = useTranslation(["campaignEditor", "campaigns"]);
  // Message keys name their namespace ("campaigns:…") or are common's: the default t reads both.
  const { t: tc } = useTranslation();
  const view = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const pending = useIsPending();
  const [form, fields] = useForm({
    id: "campaign-general-form",
    lastResult: actionData?.result,
    constraint: getZodConstraint(UpdateGeneralSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: UpdateGeneralSchema }),
    defaultValue: view.values,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const readOnly = !view.canEdit;
  const conflict = form.errors?.includes("errors.conflict");
  return (
    <>
      <Readiness />
      <section className="panel" aria-labelledby="general-title">
        <h2 id="general-title">{t("campaigns:editor.section.general")}</h2>
        {readOnly ? <p className="notice">{t("readOnly")}</p> : null}
        {form.errors?.length ? (
          <FormAlert title={conflict ? tc("errors.conflictTitle") : tc("errors.errorOccurred")} message={form.errors.map((k) => tc(k)).join(" ")} />
        ) : null}
        <Form method="post" {...getFormProps(form)}>
          <input type="hidden" name="intent" value={updateGeneralIntent} />
          <input {...getInputProps(fields.version, { type: "hidden" })} />
          <fieldset className="plain-fieldset" disabled={readOnly}>
            <Field
              label={t("campaigns:fields.name")}
              inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "off" }}
              errors={fields.name.errors}
            />
            <div className="field-row">
              <Field
                label={t("campaigns:fields.startDay")}
                inputProps={getInputProps(fields.startDay, { type: "date" })}
                errors={fields.startDay.errors}
                help={t("general.timeZone", { timeZone: view.timeZone })}
              />
              <Field
                label={t("campaigns:fields.endDay")}
                inputProps={getInputProps(fields.endDay, { type: "date" })}
                errors={fields.endDay.errors}
                help={t("general.endHelp")}
              />
            </div>
            <SelectField field={fields.wallet} label={t("campaigns:fields.wallet")}>
              <option value="">{t("general.noWallet")}</option>
              {view.wallets.map((w) => (
                <option key={w.id} value={w.id}>
                  {t("general.walletOption", {
                    label: w.label,
                    balance: w.balance,
                    credit: w.credit,
                    status: t(`general.walletStatus.${w.status}`),
                  })}
                </option>
              ))}
            </SelectField>
            {view.wallets.length === 0 ? <p className="field-help">{t("general.noWallets")}</p> : null}
          </fieldset>
          {view.wallets.length ? <WalletTable /> : null}
          <dl className="facts general-type">
            <dt>{t("campaigns:fields.type")}</dt>
            <dd>{t(`campaigns:types.${view.campaignType}`)}</dd>
          </dl>
          {readOnly ? null : <SubmitButton pending={pending}>{t("save")}</SubmitButton>}
        </Form>
      </section>
    </>
  );
}

/** The team's wallets with their label, credit, balance and status (the select shows them too). */
function WalletTable() {
  const { t } = useTranslation(["campaignEditor", "campaigns"]);
  const view = useLoaderData<typeof loader>();
  return (
    <div className="table-wrap campaign-wallets">
      <table>
        <caption>{t("general.walletsCaption")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("general.walletLabel")}</th>
            <th scope="col" className="num">
              {t("general.walletCredit")}
            </th>
            <th scope="col" className="num">
              {t("general.walletBalance")}
            </th>
            <th scope="col">{t("general.walletStatusHeader")}</th>
          </tr>
        </thead>
        <tbody>
          {view.wallets.map((w) => (
            <tr key={w.id}>
              <th scope="row">{w.label}</th>
              <td className="num">{w.credit}</td>
              <td className="num">{w.balance}</td>
              <td>
                {t(`general.walletStatus.${w.status}`)}
                {w.unusable ? <span className="muted"> · {t("general.walletUnusableShort")}</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Complete or not, what is missing, and the wallet and budget warnings. */
function Readiness() {
  const { t } = useTranslation(["campaignEditor", "campaigns"]);
  const { readiness, campaignId, offersActivation } = useLoaderData<typeof loader>();
  const ready = readiness.complete && readiness.problems.length === 0;
  // Where Activate is not offered (running, rejected, archived…, or not the user's right), the
  // question does not arise: only the wallet and budget warnings are shown.
  if (!offersActivation) {
    return readiness.warnings.length ? (
      <ul className="notice readiness-warnings" role="note">
        {readiness.warnings.map((w) => (
          <li key={w.key}>{t(w.key, w.values)}</li>
        ))}
      </ul>
    ) : null;
  }
  return (
    <section className={ready ? "panel readiness readiness-ok" : "panel readiness readiness-todo"} aria-labelledby="readiness-title">
      <h2 id="readiness-title">{t("readiness.title")}</h2>
      <p className="readiness-state">
        <strong>{ready ? t("readiness.complete") : t("readiness.incomplete")}</strong>
      </p>
      {!ready ? (
        <ul className="readiness-list">
          {readiness.gaps.map((g) => (
            <li key={g}>
              {g === "bid" ? <Link to={`/campaigns/${campaignId}/bidding`}>{t("readiness.gap.bid")}</Link> : t(`readiness.gap.${g}`)}
            </li>
          ))}
          {readiness.problems.map((p) => (
            <li key={p}>{t(p)}</li>
          ))}
        </ul>
      ) : null}
      {readiness.warnings.length ? (
        <ul className="readiness-warnings">
          {readiness.warnings.map((w) => (
            <li key={w.key}>{t(w.key, w.values)}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
