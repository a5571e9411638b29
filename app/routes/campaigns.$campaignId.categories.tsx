import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormAlert, SubmitButton } from "~/components/forms";
import { PeriodFields, periodProps } from "~/components/metrics/statistics";
import { CategorySearch } from "~/components/campaigns/category-search";
import { ApplyMinBidAll, OffersChooser, TargetPages, TargetsTable, sectionHref, translate } from "~/components/campaigns/targets-table";
import { CAMPAIGN_PRESETS } from "~/domain/metrics/periods";
import type { TargetKind } from "~/domain/campaigns/targets";
import type { CategoryOption } from "~/domain/campaigns/category-picker";
import {
  AddCategorySchema,
  AutoTargetingSchema,
  addCategoryIntent,
  applyMinBidTargetsIntent,
  autoTargetingIntent,
  removeTargetsIntent,
  updateTargetIntent,
} from "~/forms/campaigns/keywords";
import {
  CATEGORIES_SECTION,
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
import { statusOf, unknownIntent } from "~/http/reply.server";
import { redirectWithToast } from "~/http/toast.server";
import { campaignEditable, campaignViewContext } from "~/services/campaigns/campaigns.server";
import {
  TARGET_FAILURE,
  addCategory,
  refreshAutoTargets,
  setAutoTargeting,
  targetingSummary,
  targetsSection,
} from "~/services/campaigns/keywords.server";
import { searchCampaignCategories } from "~/services/campaigns/category-picker.server";
import { dateTimeFormat } from "~/domain/intl";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "categories");

/**
 * The campaign's categories (product-list pages and hubs) and product categories (product pages),
 * chosen from the category search (?cq=…&ckind=…, a GET form), with the period's figures.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, ctx, search, now, choice, locale, currency } = await targetsLoaderContext(request, params.campaignId);
  const canEdit = campaignEditable(user, ctx);
  const period = choice.period;
  const [categories, productCategories] = await Promise.all([
    targetsSection(user, ctx, "category", { query: "", page: Number(search.get("page")) || 1, period }, locale),
    targetsSection(user, ctx, "productCategory", { query: "", page: Number(search.get("ppage")) || 1, period }, locale),
  ]);
  const askKind: "category" | "productCategory" = search.get("ckind") === "productCategory" ? "productCategory" : "category";
  const query = search.get("cq") ?? "";
  // The category search (ADR 35): its hits, or with nothing typed the suggestions.
  const hits = canEdit ? await searchCampaignCategories(user, ctx, askKind, query, locale) : null;
  const view = campaignViewContext(user, locale, now);
  const when = (iso: string | null) => (iso ? dateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: view.userTimeZone }).format(new Date(iso)) : null);
  const summary = targetingSummary(ctx.campaign);
  const edit = search.get("edit");
  const editKind = search.get("ekind") === "productCategory" ? "productCategory" : "category";
  const editSection = editKind === "category" ? categories : productCategories;
  return {
    currency,
    campaignId: ctx.campaign.id,
    version: ctx.campaign.version,
    canEdit,
    summary: { ...summary, auto: { created: when(summary.auto?.created ?? null), updated: when(summary.auto?.updated ?? null), refreshed: when(summary.auto?.refreshed ?? null) } },
    categories: categories.ok ? categories.value : null,
    productCategories: productCategories.ok ? productCategories.value : null,
    failures: [categories, productCategories].filter((r) => !r.ok).map((r) => (r.ok ? "" : r.reason)),
    choice,
    add: { kind: askKind, query, suggested: !query, hits: hits && hits.ok ? hits.value.rows : [], failure: hits && !hits.ok ? hits.reason : null },
    edit: edit && editSection.ok ? { kind: editKind as TargetKind, row: editSection.value.rows.find((r) => r.key === edit) ?? null } : null,
    search: search.toString(),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const context = await targetsActionContext(request, params.campaignId, CATEGORIES_SECTION);
  if (context.refusal) return context.refusal;
  const { user, ctx, here, locale } = context;
  const formData = await request.formData();
  if (!formData.get("version")) return listFailure(TARGET_FAILURE.noFetchedCampaign);
  switch (formData.get("intent")) {
    case addCategoryIntent: {
      const submission = parseWithZod(formData, { schema: AddCategorySchema });
      if (submission.status !== "success") return listFailure(TARGET_FAILURE.category);
      const v = submission.value;
      const outcome = await addCategory(user, ctx, { version: v.version, kind: v.kind, categoryId: v.categoryId, placement: v.placement, bid: v.bid, offers: v.offers, applyMin: v.applyMin }, locale);
      if (!outcome.ok) {
        return data(
          {
            form: "addCategory" as const,
            categoryId: v.categoryId,
            failure: outcome.failure,
            message: outcome.message,
            applyMin: offersApplyMin(outcome),
            values: { bid: String(formData.get("bid") ?? ""), placement: v.placement ?? "plp" },
          },
          { status: statusOf(outcome) },
        );
      }
      return redirectWithToast(here, { type: "success", title: v.kind === "category" ? "campaignKeywords:toast.categoryAdded" : "campaignKeywords:toast.productCategoryAdded" });
    }
    case updateTargetIntent:
      return updateTargetReply(CATEGORIES_SECTION, { user, ctx, formData, here, locale });
    case removeTargetsIntent:
      return removeTargetsReply(CATEGORIES_SECTION, { user, ctx, formData, here, locale });
    case applyMinBidTargetsIntent:
      return applyMinBidAllReply(CATEGORIES_SECTION, { user, ctx, formData, here, locale });
    case autoTargetingIntent: {
      const submission = parseWithZod(formData, { schema: AutoTargetingSchema });
      if (submission.status !== "success") return listFailure(TARGET_FAILURE.productCategory);
      const { version, state } = submission.value;
      const outcome = state === "refresh" ? await refreshAutoTargets(user, ctx, version) : await setAutoTargeting(user, ctx, { version, on: state === "on" });
      if (!outcome.ok) return refused(outcome);
      return redirectWithToast(here, { type: "success", title: `campaignKeywords:toast.auto.${state}` });
    }
    default:
      return unknownIntent();
  }
}

export default function CampaignCategoriesRoute() {
  const { t } = useTranslation(["campaignKeywords", "campaigns"]);
  const { t: tc } = useTranslation();
  const { campaignId, currency, version, canEdit, summary, categories, productCategories, failures, choice, add, edit, search } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const here = `/campaigns/${encodeURIComponent(campaignId)}/categories`;
  const listError = actionData && actionData.form === "list" ? (actionData as ListFailure) : null;
  const refusal = actionData && actionData.form === "row" ? actionData.refusal : null;
  const hrefWith = (changes: Record<string, string | null>) => sectionHref(here, search, changes);
  const products = categories?.products ?? [];
  const belowFloor = (categories?.belowFloor ?? 0) + (productCategories?.belowFloor ?? 0);
  return (
    <section className="panel" aria-labelledby="categories-title">
      <h2 id="categories-title">{t("categories.title")}</h2>
      <p className="muted">{t("categories.summary", { categories: summary.counts.categories, hubs: summary.counts.hubs, productCategories: summary.counts.productCategories })}</p>
      {listError ? <FormAlert title={tc(listError.failure)} message={translate(tc, listError.message)} /> : null}
      {failures.map((f) => (
        <FormAlert key={f} title={tc(f)} message={tc("errors.errorOccurred")} />
      ))}
      {canEdit ? <AddCategory campaignId={campaignId} version={version} add={add} products={products} here={here} /> : <p className="muted">{t("readOnly")}</p>}

      <Form method="get" action={here} className="targets-filter period-form" aria-label={t("filter.label")}>
        <PeriodFields presets={CAMPAIGN_PRESETS} {...periodProps(choice)} compare={false} compareOption={false} idPrefix="categories-period" />
        <button type="submit" className="button">
          {t("filter.apply")}
        </button>
      </Form>

      {canEdit && belowFloor ? (
        <ApplyMinBidAll here={here} version={version} kind="category" count={belowFloor} />
      ) : null}
      {edit?.row && canEdit ? <EditCategoryForm version={version} here={here} products={products} kind={edit.kind} target={edit.row} cancel={hrefWith({ edit: null, ekind: null })} /> : null}

      <h3 id="categories-list-title">{t("categories.listTitle")}</h3>
      {categories && categories.rows.length ? (
        <>
          <TargetsTable currency={currency} kind="category" rows={categories.rows} version={version} canEdit={canEdit} here={here} editHref={(key) => hrefWith({ edit: key, ekind: "category" })} refusal={refusal} />
          <TargetPages page={categories.page} pages={categories.pages} hrefOf={(p) => hrefWith({ page: String(p) })} />
        </>
      ) : (
        <p className="empty-state">{canEdit ? t("categories.empty") : t("categories.emptyReadOnly")}</p>
      )}

      <h3 id="product-categories-title">{t("productCategories.title")}</h3>
      <p className="field-help">{t("productCategories.help")}</p>
      <AutoTargeting version={version} canEdit={canEdit} summary={summary} here={here} />
      {productCategories && productCategories.rows.length ? (
        <>
          <TargetsTable currency={currency} kind="productCategory" rows={productCategories.rows} version={version} canEdit={canEdit} here={here} editHref={(key) => hrefWith({ edit: key, ekind: "productCategory" })} refusal={refusal} />
          <TargetPages page={productCategories.page} pages={productCategories.pages} hrefOf={(p) => hrefWith({ ppage: String(p) })} />
        </>
      ) : (
        <p className="empty-state">{t("productCategories.empty")}</p>
      )}
    </section>
  );
}

type AddState = { kind: "category" | "productCategory"; query: string; suggested: boolean; hits: CategoryOption[]; failure: string | null };

function AddCategory({ campaignId, version, add, products, here }: { campaignId: string; version: number; add: AddState; products: { id: string; title: string }[]; here: string }) {
  // Posted to the search's own URL, so a refusal answers with the hits still listed (without JavaScript too).
  const postTo = `${here}?${new URLSearchParams({ cq: add.query, ckind: add.kind })}`;
  const { t } = useTranslation("campaignKeywords");
  const { t: tc } = useTranslation();
  const { t: tp } = useTranslation("pickers");
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const failed = actionData && actionData.form === "addCategory" ? actionData : null;
  const pendingId = navigation.state !== "idle" && navigation.formData?.get("intent") === addCategoryIntent ? String(navigation.formData.get("categoryId")) : null;
  return (
    <section className="targets-add" aria-labelledby="add-category-title">
      <h3 id="add-category-title">{t("categories.addTitle")}</h3>
      <CategorySearch campaignId={campaignId} version={version} query={add.query} kind={add.kind} here={here} />
      {add.failure ? <FormAlert title={tc(add.failure)} message={tc("errors.errorOccurred")} /> : null}
      {add.query && !add.hits.length && !add.failure ? <p className="muted">{t("categories.noHits")}</p> : null}
      {add.suggested && add.hits.length ? <h4 className="picker-results-title">{tp("categories.suggestions")}</h4> : null}
      {add.hits.length ? (
        <ul className="targets-hits">
          {add.hits.map((h) => {
            const refused = failed && failed.categoryId === h.id ? failed : null;
            const formId = `add-category-${h.id}`;
            return (
              <li key={h.id} className="targets-hit">
                <Form method="post" action={postTo} id={formId} preventScrollReset aria-label={t("categories.addOne", { name: h.name })}>
                  <input type="hidden" name="intent" value={addCategoryIntent} />
                  <input type="hidden" name="version" value={version} />
                  <input type="hidden" name="kind" value={add.kind} />
                  <input type="hidden" name="categoryId" value={h.id} />
                  <p>
                    <strong>{h.name}</strong> {h.inCampaign ? <span className="badge">{tp("inCampaign")}</span> : null}{" "}
                    <span className="muted">
                      {t("categories.floor", { floor: h.floor ?? "—" })}
                      {h.suggested ? ` · ${t("categories.suggested", { bid: h.suggested })}` : ""}
                    </span>
                  </p>
                  {refused ? <FormAlert title={tc(refused.failure)} message={translate(tc, refused.message)} /> : null}
                  <div className="targets-hit-fields">
                    {add.kind === "category" ? (
                      <div className="field">
                        <label htmlFor={`${formId}-placement`}>{t("categories.placement")}</label>
                        <select id={`${formId}-placement`} name="placement" defaultValue={refused?.values.placement ?? "plp"}>
                          <option value="plp">{t("placement.plp")}</option>
                          <option value="hub">{t("placement.hub")}</option>
                        </select>
                      </div>
                    ) : null}
                    <div className="field">
                      <label htmlFor={`${formId}-bid`}>{t("add.bid")}</label>
                      <input id={`${formId}-bid`} name="bid" type="text" inputMode="decimal" className="targets-bid" defaultValue={refused?.values.bid ?? ""} aria-invalid={refused ? true : undefined} />
                    </div>
                    <SubmitButton pending={pendingId === h.id}>{t("categories.addSubmit")}</SubmitButton>
                    {refused?.applyMin ? (
                      <button type="submit" name="applyMin" value="yes" className="button">
                        {t("applyMin")}
                      </button>
                    ) : null}
                  </div>
                  {products.length > 1 ? (
                    <details className="targets-offers-details">
                      <summary>{t("offers.choose")}</summary>
                      <OffersChooser products={products} chosen={null} legend={t("offers.legend")} />
                    </details>
                  ) : null}
                </Form>
              </li>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}

function AutoTargeting({ version, canEdit, summary, here }: { version: number; canEdit: boolean; summary: { autoTargeting: boolean; auto: { created: string | null; updated: string | null; refreshed: string | null } }; here: string }) {
  const { t } = useTranslation("campaignKeywords");
  return (
    <div className="targets-auto-panel">
      <p>
        <strong>{summary.autoTargeting ? t("auto.on") : t("auto.off")}</strong>
        {summary.auto.created ? <span className="muted"> · {t("auto.created", { when: summary.auto.created })}</span> : null}
        {summary.auto.updated ? <span className="muted"> · {t("auto.updated", { when: summary.auto.updated })}</span> : null}
        {summary.auto.refreshed ? <span className="muted"> · {t("auto.refreshed", { when: summary.auto.refreshed })}</span> : null}
      </p>
      <p className="field-help">{t("auto.help")}</p>
      {canEdit ? (
        <Form method="post" action={here} className="inline-form" preventScrollReset>
          <input type="hidden" name="intent" value={autoTargetingIntent} />
          <input type="hidden" name="version" value={version} />
          {summary.autoTargeting ? (
            <>
              <button type="submit" name="state" value="refresh" className="button">
                {t("auto.refresh")}
              </button>{" "}
              <button type="submit" name="state" value="off" className="button">
                {t("auto.switchOff")}
              </button>
            </>
          ) : (
            <button type="submit" name="state" value="on" className="button">
              {t("auto.switchOn")}
            </button>
          )}
        </Form>
      ) : null}
    </div>
  );
}

function EditCategoryForm({ version, here, products, kind, target, cancel }: { version: number; here: string; products: { id: string; title: string }[]; kind: TargetKind; target: { key: string; name: string; on: boolean; bidInput: string; offers: string[] | null; placement: string }; cancel: string }) {
  const { t } = useTranslation("campaignKeywords");
  return (
    <Form method="post" action={here} className="targets-edit panel" aria-labelledby="targets-edit-title" preventScrollReset>
      <h3 id="targets-edit-title">{t("offers.editTitle", { name: target.name })}</h3>
      <input type="hidden" name="intent" value={updateTargetIntent} />
      <input type="hidden" name="version" value={version} />
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="key" value={target.key} />
      <input type="hidden" name="editOffers" value="yes" />
      <input type="hidden" name="bid" value={target.bidInput} />
      {target.on ? <input type="hidden" name="on" value="yes" /> : null}
      {kind === "category" ? (
        <div className="field">
          <label htmlFor="edit-placement">{t("categories.placement")}</label>
          <select id="edit-placement" name="placement" defaultValue={target.placement}>
            <option value="plp">{t("placement.plp")}</option>
            <option value="hub">{t("placement.hub")}</option>
          </select>
        </div>
      ) : null}
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

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
