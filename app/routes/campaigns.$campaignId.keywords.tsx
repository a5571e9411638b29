import { unstable_parseMultipartFormData as parseMultipartFormData } from "@remix-run/node";
import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormAlert, SubmitButton } from "~/components/forms";
import { PeriodFields, periodProps } from "~/components/metrics/statistics";
import { ApplyMinBidAll, OffersChooser, TargetPages, TargetsTable, sectionHref, translate } from "~/components/campaigns/targets-table";
import { CAMPAIGN_PRESETS } from "~/domain/metrics/periods";
import { withValues } from "~/domain/message";
import {
  AddKeywordsSchema,
  ImportKeywordsSchema,
  KEYWORD_CSV_MAX_BYTES,
  NegativeKeywordsSchema,
  addKeywordsIntent,
  applyMinBidTargetsIntent,
  importKeywordsIntent,
  negativeKeywordsIntent,
  removeTargetsIntent,
  updateTargetIntent,
} from "~/forms/campaigns/keywords";
import {
  KEYWORDS_SECTION,
  applyMinBidAllReply,
  listFailure,
  offersApplyMin,
  refused,
  removeTargetsReply,
  targetsActionContext,
  targetsLoaderContext,
  updateTargetReply,
  type ListFailure,
} from "~/http/campaign-targets.server";
import { limitedUploadHandler } from "~/http/multipart.server";
import { statusOf, unknownIntent } from "~/http/reply.server";
import { redirectWithToast } from "~/http/toast.server";
import { campaignEditable } from "~/services/campaigns/campaigns.server";
import {
  TARGET_FAILURE,
  addKeywords,
  readKeywordFile,
  saveNegativeKeywords,
  targetingSummary,
  targetsDenied,
  targetsSection,
  titleOf,
} from "~/services/campaigns/keywords.server";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "keywords");

/** The campaign's keywords (a page of them, filtered by ?q=), with the period's figures (?period=…). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, ctx, search, choice, locale, currency } = await targetsLoaderContext(request, params.campaignId);
  const section = await targetsSection(user, ctx, "keyword", { query: search.get("q") ?? "", page: Number(search.get("page")) || 1, period: choice.period }, locale);
  const edit = search.get("edit");
  return {
    currency,
    campaignId: ctx.campaign.id,
    version: ctx.campaign.version,
    canEdit: campaignEditable(user, ctx),
    summary: targetingSummary(ctx.campaign),
    section: section.ok ? section.value : null,
    failure: section.ok ? null : section.reason,
    choice,
    edit: edit && section.ok ? (section.value.rows.find((r) => r.key === edit) ?? null) : null,
    search: search.toString(),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const context = await targetsActionContext(request, params.campaignId, KEYWORDS_SECTION);
  if (context.refusal) return context.refusal;
  const { user, ctx, here, locale } = context;
  const multipart = (request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data");
  if (multipart) {
    // Only the import sends a file: refuse before reading it when the user may not edit.
    const denied = targetsDenied(user, ctx, TARGET_FAILURE.keywordList);
    if (denied) return refused(denied);
  }
  const formData = multipart ? await parseMultipartFormData(request, limitedUploadHandler({ file: KEYWORD_CSV_MAX_BYTES }, 20)) : await request.formData();
  if (!formData.get("version")) return listFailure(TARGET_FAILURE.noFetchedCampaign);
  switch (formData.get("intent")) {
    case addKeywordsIntent: {
      const submission = parseWithZod(formData, { schema: AddKeywordsSchema });
      if (submission.status !== "success") return data({ form: "add" as const, result: submission.reply(), failure: null, applyMin: false, report: null }, { status: 400 });
      const v = submission.value;
      const outcome = await addKeywords(user, ctx, { version: v.version, keywords: v.keywords.keywords, bid: v.bid, offers: v.offers, applyMin: v.applyMin }, locale);
      if (!outcome.ok) {
        const fieldErrors: Record<string, string[]> = outcome.field ? { [outcome.field]: [outcome.message] } : {};
        const result = submission.reply({ formErrors: outcome.field ? [] : [outcome.message], fieldErrors });
        return data({ form: "add" as const, result, failure: outcome.failure, applyMin: offersApplyMin(outcome), report: null }, { status: statusOf(outcome) });
      }
      const parsed = v.keywords;
      if (parsed.bad || parsed.duplicates) {
        return data({ form: "add" as const, result: submission.reply({ resetForm: true }), failure: null, applyMin: false, report: { added: outcome.added ?? 0, updated: outcome.updated ?? 0, bad: parsed.bad, badLines: parsed.badLines, duplicates: parsed.duplicates, rows: null as number | null, column: null as string | null } });
      }
      return redirectWithToast(here, { type: "success", title: "campaignKeywords:toast.added", description: outcome.warnings[0], values: { count: outcome.added ?? 0, updated: outcome.updated ?? 0 } });
    }
    case importKeywordsIntent: {
      const submission = parseWithZod(formData, { schema: ImportKeywordsSchema });
      if (submission.status !== "success") return data({ form: "import" as const, result: submission.reply(), failure: TARGET_FAILURE.keywordList, applyMin: false, report: null }, { status: 400 });
      const v = submission.value;
      const csv = await readKeywordFile(v.file, v.column);
      if (!csv.ok) {
        const message =
          csv.reason === "noColumn"
            ? withValues("campaignKeywords:errors.noColumn", { column: v.column, columns: csv.columns.join(", ") })
            : csv.reason === "notUtf8"
              ? "campaignKeywords:errors.notUtf8"
              : "campaignKeywords:errors.emptyFile";
        return data({ form: "import" as const, result: submission.reply({ fieldErrors: { column: [message] } }), failure: TARGET_FAILURE.keywordList, applyMin: false, report: null }, { status: 400 });
      }
      const outcome = await addKeywords(user, ctx, { version: v.version, keywords: csv.keywords, bid: v.bid, offers: [], applyMin: v.applyMin, replace: v.mode === "replace" }, locale);
      const report = { added: outcome.ok ? (outcome.added ?? 0) : 0, updated: outcome.ok ? (outcome.updated ?? 0) : 0, bad: csv.bad, badLines: csv.badLines, duplicates: csv.duplicates, rows: csv.rows, column: csv.column };
      if (!outcome.ok) {
        const result = submission.reply({ formErrors: [outcome.message] });
        return data({ form: "import" as const, result, failure: outcome.failure, applyMin: offersApplyMin(outcome), report: null }, { status: statusOf(outcome) });
      }
      return data({ form: "import" as const, result: submission.reply({ resetForm: true }), failure: null, applyMin: false, report, warning: outcome.warnings[0] ?? null });
    }
    case updateTargetIntent:
      return updateTargetReply(KEYWORDS_SECTION, { user, ctx, formData, here, locale });
    case removeTargetsIntent:
      return removeTargetsReply(KEYWORDS_SECTION, { user, ctx, formData, here, locale });
    case applyMinBidTargetsIntent:
      return applyMinBidAllReply(KEYWORDS_SECTION, { user, ctx, formData, here, locale });
    case negativeKeywordsIntent: {
      const submission = parseWithZod(formData, { schema: NegativeKeywordsSchema });
      if (submission.status !== "success") return data({ form: "negatives" as const, result: submission.reply(), failure: titleOf("keyword", true) }, { status: 400 });
      const outcome = await saveNegativeKeywords(user, ctx, { version: submission.value.version, keys: submission.value.negatives });
      if (!outcome.ok) return data({ form: "negatives" as const, result: submission.reply({ formErrors: [outcome.message] }), failure: outcome.failure }, { status: statusOf(outcome) });
      return redirectWithToast(`${here}#negatives-title`, { type: "success", title: "campaignKeywords:toast.negativesSaved", values: { count: submission.value.negatives.length } });
    }
    default:
      return unknownIntent();
  }
}

export default function CampaignKeywordsRoute() {
  const { t } = useTranslation(["campaignKeywords", "campaigns"]);
  const { t: tc } = useTranslation();
  const { campaignId, currency, version, canEdit, summary, section, failure, choice, edit, search } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const here = `/campaigns/${encodeURIComponent(campaignId)}/keywords`;
  const listError = actionData && actionData.form === "list" && "failure" in actionData ? (actionData as ListFailure) : null;
  const refusal = actionData && actionData.form === "row" && "refusal" in actionData ? actionData.refusal : null;
  const hrefWith = (changes: Record<string, string | null>) => sectionHref(here, search, changes);
  return (
    <section className="panel" aria-labelledby="keywords-title">
      <h2 id="keywords-title">{t("keywords.title")}</h2>
      <p className="muted">{t("keywords.summary", { count: summary.counts.keywords, negatives: summary.negativeKeywords.length })}</p>
      {summary.tooManyKeywords ? (
        <p className="notice targets-warning" role="note">
          {t("warnings.tooManyNotice", { total: summary.counts.keywords, max: summary.keywordThreshold })}
        </p>
      ) : null}
      {canEdit ? (
        <div className="targets-add-grid">
          <AddKeywordsForm version={version} products={section?.products ?? []} />
          <ImportKeywordsForm version={version} />
        </div>
      ) : (
        <p className="muted">{t("readOnly")}</p>
      )}

      {listError ? <FormAlert title={tc(listError.failure)} message={translate(tc, listError.message)} /> : null}
      {failure ? <FormAlert title={tc(failure)} message={tc("errors.errorOccurred")} /> : null}

      <Form method="get" action={here} className="targets-filter period-form" aria-label={t("filter.label")}>
        <div className="field">
          <label htmlFor="keywords-q">{t("filter.keywords")}</label>
          <input id="keywords-q" name="q" type="search" defaultValue={section?.query ?? ""} />
        </div>
        <PeriodFields presets={CAMPAIGN_PRESETS} {...periodProps(choice)} compare={false} compareOption={false} idPrefix="keywords-period" />
        <button type="submit" className="button">
          {t("filter.apply")}
        </button>
      </Form>
      {section?.notices.length ? <FormAlert title={tc(section.notices[0]!)} message={tc("errors.errorOccurred")} /> : null}
      {section?.statisticsFailed ? <p className="muted">{t("statisticsUnavailable")}</p> : null}

      {section && section.total === 0 ? (
        <p className="empty-state">{section.query ? t("keywords.noMatch") : canEdit ? t("keywords.empty") : t("keywords.emptyReadOnly")}</p>
      ) : null}
      {section && section.rows.length ? (
        <>
          {canEdit && section.belowFloor ? (
            <ApplyMinBidAll here={here} version={version} kind="keyword" count={section.belowFloor} />
          ) : null}
          {edit && canEdit ? <EditOffersForm version={version} here={here} products={section.products} target={edit} cancel={hrefWith({ edit: null })} /> : null}
          <p className="muted">{t("shown", { shown: section.shown, total: section.total })}</p>
          <TargetsTable currency={currency} kind="keyword" rows={section.rows} version={version} canEdit={canEdit} here={here} editHref={(key) => hrefWith({ edit: key })} refusal={refusal} />
          <TargetPages page={section.page} pages={section.pages} hrefOf={(p) => hrefWith({ page: String(p) })} />
        </>
      ) : null}

      <NegativeKeywordsForm version={version} negatives={summary.negativeKeywords} canEdit={canEdit} />
    </section>
  );
}

function AddKeywordsForm({ version, products }: { version: number; products: { id: string; title: string }[] }) {
  const { t } = useTranslation(["campaignKeywords", "campaigns"]);
  const { t: tc } = useTranslation();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const addData = actionData && actionData.form === "add" ? actionData : null;
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === addKeywordsIntent;
  const [form, fields] = useForm({
    id: "add-keywords-form",
    lastResult: addData?.result,
    constraint: getZodConstraint(AddKeywordsSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AddKeywordsSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const report = addData?.report ?? null;
  const bidError = fields.bid.errors?.[0];
  return (
    <Form method="post" {...getFormProps(form)} className="targets-add" aria-labelledby="add-keywords-title">
      <h3 id="add-keywords-title">{t("add.title")}</h3>
      <input type="hidden" name="intent" value={addKeywordsIntent} />
      <input type="hidden" name="version" value={version} />
      {form.errors?.length && addData?.failure ? <FormAlert title={tc(addData.failure)} message={translate(tc, form.errors[0]!)} /> : null}
      {bidError && addData?.failure ? <FormAlert title={tc(addData.failure)} message={translate(tc, bidError)} /> : null}
      {report ? <ImportReport report={report} /> : null}
      <div className="field">
        <label htmlFor={fields.keywords.id}>{t("add.label")}</label>
        <textarea {...getTextareaProps(fields.keywords)} rows={4} spellCheck={false} autoComplete="off" aria-describedby={`${fields.keywords.id}-help`} />
        <p id={`${fields.keywords.id}-help`} className="field-help">
          {t("add.help")}
        </p>
        {fields.keywords.errors?.length ? (
          <p className="field-errors" id={`${fields.keywords.id}-error`}>
            {translate(tc, fields.keywords.errors[0]!)}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={fields.bid.id}>{t("add.bid")}</label>
        <input {...getInputProps(fields.bid, { type: "text" })} inputMode="decimal" className="targets-bid" aria-describedby={`${fields.bid.id}-help`} />
        <p id={`${fields.bid.id}-help`} className="field-help">
          {t("add.bidHelp")}
        </p>
        {bidError ? (
          <p className="field-errors" id={`${fields.bid.id}-error`}>
            {translate(tc, bidError)}
          </p>
        ) : null}
      </div>
      {products.length > 1 ? (
        <details className="targets-offers-details">
          <summary>{t("offers.choose")}</summary>
          <OffersChooser products={products} chosen={null} legend={t("offers.legend")} />
        </details>
      ) : null}
      <div className="form-actions">
        <SubmitButton pending={pending}>{t("add.submit")}</SubmitButton>
        {addData?.applyMin ? (
          <button type="submit" name="applyMin" value="yes" className="button">
            {t("applyMin")}
          </button>
        ) : null}
      </div>
    </Form>
  );
}

type Report = { added: number; updated: number; bad: number; badLines: number[]; duplicates: number; rows: number | null; column: string | null };

function ImportReport({ report }: { report: Report }) {
  const { t } = useTranslation("campaignKeywords");
  return (
    <div className="notice targets-report" role="status">
      {report.rows !== null ? <p>{t("report.rows", { count: report.rows, column: report.column })}</p> : null}
      <p>{t("report.added", { count: report.added })}</p>
      {report.updated ? <p>{t("report.updated", { count: report.updated })}</p> : null}
      {report.bad ? <p>{t("report.bad", { count: report.bad, lines: report.badLines.join(", ") })}</p> : null}
      {report.duplicates ? <p>{t("report.duplicates", { count: report.duplicates })}</p> : null}
    </div>
  );
}

function ImportKeywordsForm({ version }: { version: number }) {
  const { t } = useTranslation(["campaignKeywords", "campaigns"]);
  const { t: tc } = useTranslation();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const importData = actionData && actionData.form === "import" ? actionData : null;
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === importKeywordsIntent;
  const [form, fields] = useForm({
    id: "import-keywords-form",
    lastResult: importData?.result,
    constraint: getZodConstraint(ImportKeywordsSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ImportKeywordsSchema }),
    shouldValidate: "onSubmit",
  });
  const columnError = fields.column.errors?.[0] ?? fields.file.errors?.[0];
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="targets-import" aria-labelledby="import-keywords-title">
      <h3 id="import-keywords-title">{t("import.title")}</h3>
      <input type="hidden" name="intent" value={importKeywordsIntent} />
      <input type="hidden" name="version" value={version} />
      {form.errors?.length && importData?.failure ? <FormAlert title={tc(importData.failure)} message={translate(tc, form.errors[0]!)} /> : null}
      {columnError && importData?.failure ? <FormAlert title={tc(importData.failure)} message={translate(tc, columnError)} /> : null}
      {importData?.report ? <ImportReport report={importData.report} /> : null}
      {importData && "warning" in importData && importData.warning ? <p className="notice">{translate(tc, importData.warning)}</p> : null}
      <div className="field">
        <label htmlFor={fields.file.id}>{t("import.file")}</label>
        <input {...getInputProps(fields.file, { type: "file" })} accept=".csv,text/csv" aria-describedby={`${fields.file.id}-help`} />
        <p id={`${fields.file.id}-help`} className="field-help">
          {t("import.help")}
        </p>
      </div>
      <div className="field">
        <label htmlFor={fields.column.id}>{t("import.column")}</label>
        <input {...getInputProps(fields.column, { type: "text" })} defaultValue={fields.column.initialValue ?? "keyword"} />
      </div>
      <div className="field">
        <label htmlFor={fields.bid.id}>{t("add.bid")}</label>
        <input {...getInputProps(fields.bid, { type: "text" })} inputMode="decimal" className="targets-bid" />
      </div>
      <div className="field">
        <label>
          <input type="checkbox" name="applyMin" value="yes" /> {t("import.applyMin")}
        </label>
      </div>
      <fieldset className="field">
        <legend>{t("import.mode")}</legend>
        <label>
          <input type="radio" name="mode" value="add" defaultChecked /> {t("import.modeAdd")}
        </label>{" "}
        <label>
          <input type="radio" name="mode" value="replace" /> {t("import.modeReplace")}
        </label>
      </fieldset>
      <div className="form-actions">
        <SubmitButton pending={pending}>{t("import.submit")}</SubmitButton>
        {importData?.applyMin ? (
          <p className="field-help">{t("import.applyMinHelp")}</p>
        ) : null}
      </div>
    </Form>
  );
}

function EditOffersForm({ version, here, products, target, cancel }: { version: number; here: string; products: { id: string; title: string }[]; target: { key: string; name: string; on: boolean; bidInput: string; offers: string[] | null }; cancel: string }) {
  const { t } = useTranslation("campaignKeywords");
  return (
    <Form method="post" action={here} className="targets-edit panel" aria-labelledby="targets-edit-title" preventScrollReset>
      <h3 id="targets-edit-title">{t("offers.editTitle", { name: target.name })}</h3>
      <input type="hidden" name="intent" value={updateTargetIntent} />
      <input type="hidden" name="version" value={version} />
      <input type="hidden" name="kind" value="keyword" />
      <input type="hidden" name="key" value={target.key} />
      <input type="hidden" name="editOffers" value="yes" />
      <input type="hidden" name="bid" value={target.bidInput} />
      {target.on ? <input type="hidden" name="on" value="yes" /> : null}
      <OffersChooser products={products} chosen={target.offers} legend={t("offers.legend")} />
      <div className="form-actions">
        <button type="submit" className="button primary">
          {t("offers.save")}
        </button>
        <a href={cancel}>{t("offers.cancel")}</a>
      </div>
    </Form>
  );
}

function NegativeKeywordsForm({ version, negatives, canEdit }: { version: number; negatives: string[]; canEdit: boolean }) {
  const { t } = useTranslation("campaignKeywords");
  const { t: tc } = useTranslation();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const negData = actionData && actionData.form === "negatives" ? actionData : null;
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === negativeKeywordsIntent;
  const [form, fields] = useForm({
    id: "negative-keywords-form",
    lastResult: negData?.result,
    defaultValue: { negatives: negatives.join("\n") },
    constraint: getZodConstraint(NegativeKeywordsSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: NegativeKeywordsSchema }),
    shouldValidate: "onSubmit",
  });
  return (
    <section className="targets-negatives" aria-labelledby="negatives-title">
      <h3 id="negatives-title">{t("negatives.title")}</h3>
      <p className="field-help">{t("negatives.help")}</p>
      {canEdit ? (
        <Form method="post" {...getFormProps(form)}>
          <input type="hidden" name="intent" value={negativeKeywordsIntent} />
          <input type="hidden" name="version" value={version} />
          {form.errors?.length && negData?.failure ? <FormAlert title={tc(negData.failure)} message={translate(tc, form.errors[0]!)} /> : null}
          <div className="field">
            <label htmlFor={fields.negatives.id}>{t("negatives.label")}</label>
            <textarea {...getTextareaProps(fields.negatives)} key={`neg-${version}`} rows={4} spellCheck={false} autoComplete="off" />
            {fields.negatives.errors?.length ? <p className="field-errors" id={fields.negatives.errorId}>{translate(tc, fields.negatives.errors[0]!)}</p> : null}
          </div>
          <SubmitButton pending={pending}>{t("negatives.submit")}</SubmitButton>
        </Form>
      ) : negatives.length ? (
        <ul className="targets-negative-list">
          {negatives.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t("negatives.none")}</p>
      )}
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
