import { orThrow, reply, replyInvalid, unknownIntent } from "~/http/reply.server";
import { savedReply } from "~/http/campaigns.server";
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ErrorList, Field, FormAlert, SubmitButton } from "~/components/forms";
import { ApplyMinBidSchema, UpdateBiddingSchema, applyMinBidIntent, updateBiddingIntent } from "~/forms/campaigns/campaigns";
import { requireUser } from "~/http/auth.server";
import { applyMinimumBid, biddingSection, campaignEditable, requireCampaign, updateBidding } from "~/services/campaigns/campaigns.server";
import { getRequestLocale } from "~/http/i18n.server";
import { splitMessage } from "~/domain/message";
import { useIsPending } from "~/utils/misc";
import { labelDefault, placementLabelKey } from "~/domain/placement-labels";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "bidding", "campaign");

const MIN_BID_KEY = "campaigns:bidding.minBid";
/** The name of the Bidding form's 'Apply min bid' button (present in the form data when it was pressed). */
const APPLY_MIN_BID_BUTTON = "applyMinBid";

/** The Bidding section: strategy (allowed ones only), bid within the limits, placement bids. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  const ctx = orThrow(await requireCampaign(user, params.campaignId));
  const section = await biddingSection(ctx, await getRequestLocale(request));
  return { ...section, campaignId: ctx.campaign.id, canEdit: campaignEditable(user, ctx) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  if (!params.campaignId) return data({ form: "none" as const, error: "campaigns:errors.noCampaignId" }, { status: 400 });
  const ctx = orThrow(await requireCampaign(user, params.campaignId));
  const formData = await request.formData();
  const here = `/campaigns/${ctx.campaign.id}/bidding`;
  switch (formData.get("intent")) {
    case updateBiddingIntent: {
      const submission = parseWithZod(formData, { schema: UpdateBiddingSchema });
      if (submission.status !== "success") return replyInvalid("bidding", submission);
      // 'Apply min bid' pressed on the form itself: the typed bids below the minimum are raised.
      const raiseToMinimum = formData.get(APPLY_MIN_BID_BUTTON) !== null;
      const outcome = await updateBidding(user, ctx, submission.value, await getRequestLocale(request), { raiseToMinimum });
      return reply(outcome, {
        form: "bidding",
        submission,
        onSuccess: () =>
          raiseToMinimum
            ? { to: here, toast: { type: "success", title: "toast.changesSaved", description: "campaignEditor:bidding.minApplied" } }
            : savedReply(here, []),
      });
    }
    case applyMinBidIntent: {
      const submission = parseWithZod(formData, { schema: ApplyMinBidSchema });
      if (submission.status !== "success") return data({ form: "apply" as const, error: "campaigns:actions.unknown" }, { status: 400 });
      const outcome = await applyMinimumBid(user, ctx, submission.value.version, submission.value.bidStrategy);
      return reply(outcome, {
        form: "apply",
        onSuccess: () => ({ to: here, toast: { type: "success", title: "toast.changesSaved", description: "campaignEditor:bidding.minApplied" } }),
      });
    }
    default:
      return unknownIntent();
  }
}

export default function CampaignBiddingRoute() {
  const { version } = useLoaderData<typeof loader>();
  return <BiddingForm key={version} />;
}

function BiddingForm() {
  const { t } = useTranslation(["campaignEditor", "campaigns"]);
  // Message keys name their namespace ("campaigns:…") or are common's: the default t reads both.
  const { t: tc } = useTranslation();
  const view = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const pending = useIsPending();
  const [form, fields] = useForm({
    id: "campaign-bidding-form",
    lastResult: actionData?.form === "bidding" ? actionData.result : undefined,
    constraint: getZodConstraint(UpdateBiddingSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: UpdateBiddingSchema }),
    defaultValue: view.values,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const readOnly = !view.canEdit;
  const chosen = (typeof fields.bidStrategy.value === "string" && fields.bidStrategy.value) || view.strategy;
  const chosenLimits = view.strategies.find((s) => s.strategy === chosen) ?? view.limits;
  const placementFields = view.placements.map((p) => ({ placement: p, field: fields[`bid_${p}` as keyof typeof fields] }));
  const tooLow = [fields.bid, ...placementFields.map((p) => p.field)].some((f) => f.errors?.some((e) => splitMessage(e).key === MIN_BID_KEY));
  const applyError = actionData?.form === "apply" ? actionData.error : null;
  const conflict = form.errors?.includes("errors.conflict") || applyError === "errors.conflict";
  const applyButton = (
    <button type="submit" form="apply-min-bid-form" className="button">
      {t("campaigns:bidding.applyMinBid")}
    </button>
  );
  // After a typed bid was refused, 'Apply min bid' submits the Bidding form itself: the typed bids
  // below the minimum are raised to it and the rest of the input is kept.
  const applyTypedButton = (
    <button type="submit" name={APPLY_MIN_BID_BUTTON} value="1" className="button">
      {t("campaigns:bidding.applyMinBid")}
    </button>
  );
  return (
    <section className="panel" aria-labelledby="bidding-title">
      <h2 id="bidding-title">{t("campaigns:editor.section.bidding")}</h2>
      {readOnly ? <p className="notice">{t("readOnly")}</p> : null}
      {form.errors?.length || applyError ? (
        <FormAlert
          title={conflict ? tc("errors.conflictTitle") : tc("errors.errorOccurred")}
          message={[...(form.errors ?? []), ...(applyError ? [applyError] : [])].map((k) => tc(k)).join(" ")}
        />
      ) : null}
      {!readOnly ? (
        // 'Apply min bid' is its own small form, so it works without JavaScript; its buttons may sit elsewhere (form="…").
        <Form method="post" id="apply-min-bid-form" className="inline-form">
          <input type="hidden" name="intent" value={applyMinBidIntent} />
          <input type="hidden" name="version" value={view.version} />
          <input type="hidden" name="bidStrategy" value={tooLow ? chosen : view.strategy} />
        </Form>
      ) : null}
      {view.belowMinimum && !tooLow ? (
        <div className="notice bid-below-min" role="note">
          <p>{t("bidding.belowMinimum", { min: view.limits.min })}</p>
          {readOnly ? null : applyButton}
        </div>
      ) : null}
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value={updateBiddingIntent} />
        <input {...getInputProps(fields.version, { type: "hidden" })} />
        <fieldset className="plain-fieldset" disabled={readOnly}>
          <fieldset className="strategy-choice" aria-describedby={fields.bidStrategy.errors?.length ? "bid-strategy-error" : "bid-strategy-help"}>
            <legend>{t("campaigns:fields.bidStrategy")}</legend>
            {view.strategies.map((s) => (
              <div className="field checkbox" key={s.strategy}>
                <input
                  {...getInputProps(fields.bidStrategy, { type: "radio", value: s.strategy })}
                  id={`bid-strategy-${s.strategy}`}
                />
                <label htmlFor={`bid-strategy-${s.strategy}`}>
                  {t(`campaigns:strategies.${s.strategy}`)}
                  {s.strategy === "FIXED" ? null : <span className="muted"> · {t("bidding.range", { min: s.min, max: s.max })}</span>}
                </label>
              </div>
            ))}
            <p id="bid-strategy-help" className="field-help">
              {view.sellerOnlyCpc ? t("bidding.sellerCpcOnly") : t("bidding.strategyHelp")}
            </p>
            <ErrorList id="bid-strategy-error" errors={fields.bidStrategy.errors} />
          </fieldset>
          <Field
            label={t("bidding.bidLabel")}
            inputProps={{ ...getInputProps(fields.bid, { type: "text" }), inputMode: "decimal", autoComplete: "off", className: "money-input" }}
            errors={fields.bid.errors}
            help={chosen === "FIXED" ? t("bidding.fixedHelp") : t("bidding.limits", { min: chosenLimits.min, max: chosenLimits.max })}
          />
          <fieldset className="placement-bids">
            <legend>{t("bidding.placementBids")}</legend>
            <p className="field-help">{t("bidding.placementHelp")}</p>
            <div className="field-row">
              {placementFields.map(({ placement, field }) => (
                <Field
                  key={placement}
                  label={t(placementLabelKey(placement), labelDefault(placement))}
                  inputProps={{ ...getInputProps(field, { type: "text" }), inputMode: "decimal", autoComplete: "off", className: "money-input" }}
                  errors={field.errors}
                />
              ))}
            </div>
          </fieldset>
        </fieldset>
        {readOnly ? null : <SubmitButton pending={pending}>{t("save")}</SubmitButton>}
        {/* After Save in the form's order, so that Enter in a field still saves. */}
        {tooLow && !readOnly ? <div className="apply-min-bid">{applyTypedButton}</div> : null}
      </Form>
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
