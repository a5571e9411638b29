import { orThrow, reply, replyFailure, replyInvalid, unknownIntent } from "~/http/reply.server";
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ErrorList, Field, FormAlert, SubmitButton } from "~/components/forms";
import { PosterCapture } from "~/components/campaigns/poster-capture";
import { ASPECT_RATIOS } from "~/domain/campaigns/campaign";
import { CREATIVE_ELEMENTS } from "~/domain/campaigns/publication";
import { IMAGE_TYPES, VIDEO_TYPES } from "~/domain/media";
import {
  bannerFields,
  CREATIVE_FILE_FIELDS,
  makeUpdateBannersSchema,
  MAX_BRAND,
  MAX_HEADLINE,
  MAX_TEXT_LINK,
  RemoveBannerSchema,
  removeBannerIntent,
  updateBannersIntent,
  UpdateCreativeSchema,
  updateCreativeIntent,
} from "~/forms/campaigns/creative";
import { requirePermission, requireUser } from "~/http/auth.server";
import { creativeFormFields, creativeView, removeBanner, updateBanners, updateCreative } from "~/services/campaigns/creative.server";
import { requireCampaign, type SaveResult } from "~/services/campaigns/campaigns.server";
import { readCampaignAssetForm } from "~/http/multipart.server";
import { savedReply } from "~/http/campaigns.server";
import { labelDefault, placementLabelKey } from "~/domain/placement-labels";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "creative");

const IMAGE_ACCEPT = IMAGE_TYPES.join(",");
const VIDEO_ACCEPT = VIDEO_TYPES.join(",");
const CREATIVE_FILES = Object.keys(CREATIVE_FILE_FIELDS);

/** Banners per slot and the creative of a campaign. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  const ctx = orThrow(await requireCampaign(user, params.campaignId));
  return creativeView(user, ctx);
}

type FormName = "banners" | "creative" | "remove";
type ActionData = { form: FormName; result: SubmissionResult<string[]> };

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  if (!params.campaignId) return data({ error: "campaigns:errors.noCampaignId" }, { status: 400 });
  const ctx = orThrow(await requireCampaign(user, params.campaignId));
  // Rights first: nothing of the upload is looked at for a user who may not edit.
  requirePermission(user, "Campaign", "update", { teamId: ctx.team.id });
  const { slots, fileFields } = await creativeFormFields(ctx);
  const formData = await readCampaignAssetForm(request, fileFields);
  const done = (form: FormName, outcome: SaveResult) => reply(outcome, { form, onSuccess: () => savedReply(`/campaigns/${ctx.campaign.id}/creative`, []) });
  // Uploaded files are never echoed back (hideFields): the user picks them again.

  switch (formData.get("intent")) {
    case updateBannersIntent: {
      const hideFields = slots.map((slot) => bannerFields(slot).image);
      const submission = parseWithZod(formData, { schema: makeUpdateBannersSchema(slots) });
      if (submission.status !== "success") return replyInvalid("banners", submission, { hideFields });
      const outcome = await updateBanners(user, ctx, submission.value as Record<string, unknown> & { version: number });
      return outcome.ok ? done("banners", outcome) : replyFailure("banners", outcome, submission, { hideFields });
    }
    case removeBannerIntent: {
      const submission = parseWithZod(formData, { schema: RemoveBannerSchema });
      if (submission.status !== "success") return replyInvalid("remove", submission);
      const outcome = await removeBanner(user, ctx, submission.value.slot, submission.value.version);
      return outcome.ok ? done("remove", outcome) : replyFailure("remove", outcome, submission);
    }
    case updateCreativeIntent: {
      const submission = parseWithZod(formData, { schema: UpdateCreativeSchema });
      if (submission.status !== "success") return replyInvalid("creative", submission, { hideFields: CREATIVE_FILES });
      const outcome = await updateCreative(user, ctx, submission.value);
      return outcome.ok ? done("creative", outcome) : replyFailure("creative", outcome, submission, { hideFields: CREATIVE_FILES });
    }
    default:
      return unknownIntent();
  }
}

type View = ReturnType<typeof useLoaderData<typeof loader>>;

function useSectionResult(form: FormName) {
  const actionData = useActionData<typeof action>() as ActionData | { error: string } | undefined;
  return actionData && "form" in actionData && actionData.form === form ? actionData.result : undefined;
}

/** Pending while this form (by its intent) is being sent. */
function useIntentPending(intent: string) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

export default function CampaignCreativeRoute() {
  const { t } = useTranslation(["campaignTargeting", "campaigns"]);
  const view = useLoaderData<typeof loader>();
  return (
    <section className="panel creative" aria-labelledby="creative-title">
      <h2 id="creative-title">{t("campaigns:editor.section.creative")}</h2>
      {view.canEdit ? null : <p className="notice">{t("readOnly")}</p>}
      <BannersPanel key={`banners-${view.version}`} view={view} />
      <CreativeForm key={`creative-${view.version}`} view={view} />
    </section>
  );
}

function FormProblem({ errors }: { errors?: string[] }) {
  const { t } = useTranslation();
  if (!errors?.length) return null;
  return <FormAlert title={t("errors.conflictTitle")} message={t(errors[0]!)} />;
}

// ---------------------------------------------------------------------------------------------
// Banners

function BannersPanel({ view }: { view: View }) {
  const { t } = useTranslation(["campaignTargeting", "campaigns"]);
  return (
    <section className="creative-part" aria-labelledby="banners-title">
      <h3 id="banners-title">{t("banners.title")}</h3>
      {view.takesBanners ? (
        <BannersForm view={view} />
      ) : (
        // Not a banner ads campaign: no banner slots. 'This banner type is no longer supported at
        // the moment' belongs to a stored banner whose slot is no longer offered (below), not here.
        <p className="notice banner-not-offered">{t("banners.onlyBannerAds", { type: t(`campaigns:types.${view.campaignType}`) })}</p>
      )}
      {view.unsupported.length ? <UnsupportedBanners view={view} /> : null}
    </section>
  );
}

function BannersForm({ view }: { view: View }) {
  const { t } = useTranslation(["campaignTargeting", "campaigns"]);
  const lastResult = useSectionResult("banners");
  const pending = useIntentPending(updateBannersIntent);
  const slots = useMemo(() => view.banners.map((b) => b.slot), [view.banners]);
  const schema = useMemo(() => makeUpdateBannersSchema(slots), [slots]);
  const defaultValue = useMemo(() => Object.fromEntries(view.banners.map((b) => [bannerFields(b.slot).link, b.link])), [view.banners]);
  const [form, fields] = useForm<Record<string, unknown>>({
    id: "campaign-banners-form",
    lastResult,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    defaultValue,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const readOnly = !view.canEdit;
  if (!view.banners.length) return <p className="empty-state">{t("banners.noSlots")}</p>;
  return (
    <>
      <p className="banner-count" id="banner-count">
        <strong>{t("banners.counted", { count: view.countedCount, total: view.banners.length })}</strong> {t("banners.countRule")}
      </p>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)}>
        <input type="hidden" name="intent" value={updateBannersIntent} />
        <input type="hidden" name="version" value={view.version} />
        <FormProblem errors={form.errors} />
        <fieldset disabled={readOnly} className="banner-slots">
          {view.banners.map((banner) => {
            const f = bannerFields(banner.slot);
            const imageField = fields[f.image]!;
            const linkField = fields[f.link]!;
            const statusId = `banner-${banner.slot}-status`;
            return (
              <fieldset key={banner.slot} className="banner-slot" aria-describedby={statusId}>
                <legend>{t("banners.slot", { slot: banner.slot, placements: banner.placements.map((p) => t(placementLabelKey(p), labelDefault(p))).join(", ") })}</legend>
                <p id={statusId} className={banner.counted ? "banner-status counted" : "banner-status"}>
                  {banner.counted ? t("banners.status.counted") : t("banners.status.notCounted", { reasons: banner.gaps.map((g) => t(`banners.gap.${g}`)).join(", ") })}
                  {banner.gaps.includes("slotOff") ? (
                    <>
                      {" "}
                      <Link to={`/campaigns/${view.campaignId}/targeting`}>{t("banners.toTargeting")}</Link>
                    </>
                  ) : null}
                </p>
                <div className="banner-row">
                  {banner.imageUrl ? (
                    <img src={banner.imageUrl} alt={t("banners.currentImage", { slot: banner.slot })} className="banner-thumb" />
                  ) : (
                    <p className="banner-thumb banner-thumb-empty">{t("banners.noImage")}</p>
                  )}
                  <div className="banner-fields">
                    <div className="field">
                      <label htmlFor={imageField.id}>{t("banners.image", { size: banner.requiredSize })}</label>
                      <input
                        type="file"
                        id={imageField.id}
                        name={f.image}
                        accept={IMAGE_ACCEPT}
                        aria-invalid={imageField.errors?.length ? true : undefined}
                        aria-describedby={imageField.errors?.length ? `${imageField.id}-error` : `${imageField.id}-help`}
                      />
                      <p className="field-help" id={`${imageField.id}-help`}>
                        {t("banners.imageHelp", { size: banner.requiredSize })}
                      </p>
                      <ErrorList id={`${imageField.id}-error`} errors={imageField.errors} />
                    </div>
                    {banner.imageUrl ? (
                      <div className="field checkbox">
                        <input type="checkbox" id={`banner-${banner.slot}-remove`} name={f.remove} />
                        <label htmlFor={`banner-${banner.slot}-remove`}>{t("banners.removeImage")}</label>
                      </div>
                    ) : null}
                    <Field
                      label={t("banners.link")}
                      inputProps={{ ...getInputProps(linkField, { type: "url" }), placeholder: "https://", autoComplete: "url" }}
                      errors={linkField.errors}
                    />
                  </div>
                </div>
              </fieldset>
            );
          })}
        </fieldset>
        {readOnly ? null : <SubmitButton pending={pending}>{t("banners.save")}</SubmitButton>}
      </Form>
    </>
  );
}

function UnsupportedBanners({ view }: { view: View }) {
  const { t } = useTranslation(["campaignTargeting", "campaigns"]);
  const lastResult = useSectionResult("remove");
  return (
    <div className="unsupported-banners">
      <h4>{t("banners.storedUnsupported")}</h4>
      {lastResult?.error?.[""]?.length ? <FormProblem errors={lastResult.error[""] ?? undefined} /> : null}
      <ul>
        {view.unsupported.map((banner) => (
          <li key={banner.slot} className="unsupported-banner">
            {banner.imageUrl ? <img src={banner.imageUrl} alt={t("banners.currentImage", { slot: banner.slot })} className="banner-thumb" /> : null}
            <div>
              <p>
                <strong>{banner.slot}</strong>: {t("banners.unsupported")}
              </p>
              {banner.link ? <p className="muted">{banner.link}</p> : null}
              {view.canEdit ? (
                <details className="confirm">
                  <summary>{t("banners.remove", { slot: banner.slot })}</summary>
                  <div className="confirm-body">
                    <p>{t("banners.removeConfirm", { slot: banner.slot })}</p>
                    <Form method="post" encType="multipart/form-data" className="confirm-actions">
                      <input type="hidden" name="intent" value={removeBannerIntent} />
                      <input type="hidden" name="version" value={view.version} />
                      <input type="hidden" name="slot" value={banner.slot} />
                      <button type="submit" className="button primary">
                        {t("banners.removeSubmit")}
                      </button>
                    </Form>
                  </div>
                </details>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// The creative

function CurrentMedia({ url, alt, removeName, removeLabel, video, poster }: { url: string | null; alt: string; removeName: string; removeLabel: string; video?: boolean; poster?: string | null }) {
  const { t } = useTranslation("campaignTargeting");
  if (!url) return <p className="field-help">{t("creative.none")}</p>;
  return (
    <div className="current-media">
      {video ? (
        <video src={url} poster={poster ?? undefined} controls muted playsInline preload="metadata" aria-label={alt} className="creative-video" />
      ) : (
        <img src={url} alt={alt} className="creative-thumb" />
      )}
      <div className="field checkbox">
        <input type="checkbox" id={`creative-${removeName}`} name={removeName} />
        <label htmlFor={`creative-${removeName}`}>{removeLabel}</label>
      </div>
    </div>
  );
}

function FileField({ id, name, label, help, accept, errors }: { id: string; name: string; label: string; help: string; accept: string; errors?: string[] }) {
  const errorId = errors?.length ? `${id}-error` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input type="file" id={id} name={name} accept={accept} aria-invalid={errorId ? true : undefined} aria-describedby={errorId ?? `${id}-help`} />
      <p className="field-help" id={`${id}-help`}>
        {help}
      </p>
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

function CreativeForm({ view }: { view: View }) {
  const { t } = useTranslation(["campaignTargeting", "campaigns"]);
  const lastResult = useSectionResult("creative");
  const pending = useIntentPending(updateCreativeIntent);
  const c = view.creative;
  const [form, fields] = useForm({
    id: "campaign-creative-form",
    lastResult,
    constraint: getZodConstraint(UpdateCreativeSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: UpdateCreativeSchema }),
    defaultValue: {
      elements: c.elements,
      brand: c.brand,
      videoInLoop: c.videoInLoop,
      autoSlide: c.autoSlide,
      aspectRatio: c.aspectRatio,
      headline: c.headline,
      textLink: c.textLink,
      hrefLink: c.hrefLink,
    },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const initial = (lastResult?.initialValue as Record<string, unknown> | undefined) ?? null;
  const fromInitial = (name: string, saved: boolean) => (initial ? initial[name] === "on" || initial[name] === true : saved);
  const elements = new Set(initial ? ([] as string[]).concat((initial.elements as string[] | string | undefined) ?? []) : c.elements);
  const ratio = initial ? String(initial.aspectRatio ?? c.aspectRatio) : c.aspectRatio;
  const readOnly = !view.canEdit;
  const fileHelp = t("creative.imageHelp");

  return (
    <section className="creative-part" aria-labelledby="creative-form-title">
      <h3 id="creative-form-title">{t("creative.title")}</h3>
      {view.creativeMissing.length ? (
        <div className="notice creative-missing" role="note">
          <strong>{t("campaigns:activation.adFormat")}</strong>
          <p>{t("creative.missing", { parts: view.creativeMissing.map((p) => t(`creative.part.${p}`)).join(", ") })}</p>
        </div>
      ) : null}
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)}>
        <input type="hidden" name="intent" value={updateCreativeIntent} />
        <input type="hidden" name="version" value={view.version} />
        <FormProblem errors={form.errors} />
        <fieldset disabled={readOnly} className="creative-fieldsets">
          <fieldset className="targeting-group" aria-describedby="creative-elements-help">
            <legend>{t("creative.elements")}</legend>
            <p className="field-help" id="creative-elements-help">
              {t("creative.elementsHelp")}
            </p>
            <div className="check-row">
              {CREATIVE_ELEMENTS.map((e) => (
                <div className="field checkbox" key={e}>
                  <input type="checkbox" id={`creative-element-${e}`} name="elements" value={e} defaultChecked={elements.has(e)} />
                  <label htmlFor={`creative-element-${e}`}>{t(`creative.show.${e}`)}</label>
                </div>
              ))}
            </div>
            <ErrorList errors={fields.elements.errors} />
          </fieldset>

          <fieldset className="targeting-group">
            <legend>{t("creative.element.brand")}</legend>
            <Field label={t("creative.brand")} inputProps={{ ...getInputProps(fields.brand, { type: "text" }), maxLength: MAX_BRAND }} errors={fields.brand.errors} />
            <CurrentMedia url={c.brandImageUrl} alt={t("creative.currentBrandImage")} removeName="removeBrandImage" removeLabel={t("creative.removeBrandImage")} />
            <FileField id={fields.brandImage.id} name="brandImage" label={t("creative.brandImage")} help={fileHelp} accept={IMAGE_ACCEPT} errors={fields.brandImage.errors} />
          </fieldset>

          <fieldset className="targeting-group">
            <legend>{t("creative.element.background")}</legend>
            <CurrentMedia url={c.backgroundImageUrl} alt={t("creative.currentBackgroundImage")} removeName="removeBackgroundImage" removeLabel={t("creative.removeBackgroundImage")} />
            <FileField id={fields.backgroundImage.id} name="backgroundImage" label={t("creative.backgroundImage")} help={fileHelp} accept={IMAGE_ACCEPT} errors={fields.backgroundImage.errors} />
          </fieldset>

          <fieldset className="targeting-group">
            <legend>{t("creative.element.video")}</legend>
            <fieldset className="segmented-radios" aria-describedby={fields.aspectRatio.errors?.length ? `${fields.aspectRatio.id}-error` : undefined}>
              <legend>{t("creative.aspectRatio")}</legend>
              {ASPECT_RATIOS.map((r) => (
                <div className="field checkbox" key={r}>
                  <input type="radio" id={`creative-ratio-${r.replace(":", "x")}`} name="aspectRatio" value={r} defaultChecked={ratio === r} />
                  <label htmlFor={`creative-ratio-${r.replace(":", "x")}`}>{t(`creative.ratio.${r === "16:9" ? "landscape" : "portrait"}`)}</label>
                </div>
              ))}
              <ErrorList id={`${fields.aspectRatio.id}-error`} errors={fields.aspectRatio.errors} />
            </fieldset>
            <CurrentMedia url={c.videoUrl} alt={t("creative.currentVideo")} removeName="removeVideo" removeLabel={t("creative.removeVideo")} video poster={c.posterUrl} />
            <FileField id="creative-video" name="video" label={t("creative.video")} help={t("creative.videoHelp")} accept={VIDEO_ACCEPT} errors={fields.video.errors} />
            <CurrentMedia url={c.posterUrl} alt={t("creative.currentPoster")} removeName="removePoster" removeLabel={t("creative.removePoster")} />
            {c.videoUrl && !c.posterUrl ? (
              <p className="muted poster-pending" role="status">
                {t("creative.posterTranscoding")}
              </p>
            ) : null}
            <FileField id="creative-poster" name="poster" label={t("creative.poster")} help={t("creative.posterHelp")} accept={IMAGE_ACCEPT} errors={fields.poster.errors} />
            <PosterCapture videoInputId="creative-video" posterInputId="creative-poster" storedVideoUrl={c.videoUrl} />
            <div className="field checkbox">
              <input type="checkbox" id="creative-loop" name="videoInLoop" defaultChecked={fromInitial("videoInLoop", c.videoInLoop)} />
              <label htmlFor="creative-loop">{t("creative.videoInLoop")}</label>
            </div>
          </fieldset>

          <fieldset className="targeting-group">
            <legend>{t("creative.texts")}</legend>
            <Field label={t("creative.headline")} inputProps={{ ...getInputProps(fields.headline, { type: "text" }), maxLength: MAX_HEADLINE }} errors={fields.headline.errors} />
            <Field label={t("creative.textLink")} inputProps={{ ...getInputProps(fields.textLink, { type: "text" }), maxLength: MAX_TEXT_LINK }} errors={fields.textLink.errors} help={t("creative.textLinkHelp")} />
            <Field label={t("creative.hrefLink")} inputProps={{ ...getInputProps(fields.hrefLink, { type: "url" }), placeholder: "https://", autoComplete: "url" }} errors={fields.hrefLink.errors} help={t("creative.hrefLinkHelp")} />
            <div className="field checkbox">
              <input type="checkbox" id="creative-auto-slide" name="autoSlide" defaultChecked={fromInitial("autoSlide", c.autoSlide)} />
              <label htmlFor="creative-auto-slide">{t("creative.autoSlide")}</label>
            </div>
          </fieldset>
        </fieldset>
        {readOnly ? null : <SubmitButton pending={pending}>{t("creative.save")}</SubmitButton>}
      </Form>
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
