import { displayableImage } from "~/domain/catalog-view";
import { getProductImageHosts } from "~/services/image-hosts.server";
import { orThrow, statusOf, unknownIntent } from "~/http/reply.server";
import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation, type ShouldRevalidateFunction } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "~/components/use-hydrated";
import { useTranslation } from "react-i18next";
import { ErrorList, FormAlert, SubmitButton } from "~/components/forms";
import type { Party } from "~/domain/availability";
import {
  AddProductsSchema,
  BulkProductsSchema,
  MoveProductSchema,
  RemoveProductSchema,
  SavePositionsSchema,
  ToggleProductSchema,
  addProductsIntent,
  bulkProductsIntent,
  moveProductIntent,
  removeProductIntent,
  savePositionsIntent,
  toggleProductIntent,
} from "~/forms/campaigns/products";
import { MAX_POSITION, neighbourOf, pageOfProduct, PRODUCT_WARNING_THRESHOLD, type ProductsPage } from "~/domain/campaigns/products";
import { requireUser } from "~/http/auth.server";
import {
  FAILURE,
  addProducts,
  bulkProducts,
  moveProduct,
  presentProducts,
  productsToConfirm,
  bulkTargets,
  removeProduct,
  savePositions,
  toggleProduct,
  type ProductRow,
  type ProductsOutcome,
  denied,
} from "~/services/campaigns/products.server";
import { campaignEditable, requireCampaign } from "~/services/campaigns/campaigns.server";
import { campaignCurrency } from "~/services/campaigns/statistics.server";
import { redirectWithToast } from "~/http/toast.server";
import { splitMessage, withValues } from "~/domain/message";
import { cn } from "~/utils/misc";
import { readProductsForm } from "~/http/multipart.server";
import { ProductPicker } from "~/components/campaigns/product-picker";
import { ProductImport, type ImportAnswer } from "~/components/campaigns/product-import";
import { useProductReorder } from "~/components/campaigns/product-reorder";
import { keyboardTarget } from "~/domain/campaigns/product-order";
import { ImportProductsSchema, importProductsIntent } from "~/forms/campaigns/product-import";
import { importProducts, productFigures, searchCampaignProducts, FETCH_PRODUCTS_FAILURE } from "~/services/campaigns/product-picker.server";
import { PeriodForm, periodProps, useFigureFormat } from "~/components/metrics/statistics";
import { CAMPAIGN_PRESETS, campaignPresetContext, periodFromSearch } from "~/domain/metrics/periods";
import type { Derived } from "~/domain/metrics/metrics";
import { retailerTimeZone } from "~/services/retailer-settings.server";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "products");

/** A page of the campaign's products (?page=, ADR 48), in display order (position, then availability). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  const ctx = orThrow(await requireCampaign(user, params.campaignId));
  const search = new URL(request.url).searchParams;
  const direction = search.get("dir");
  const canEdit = campaignEditable(user, ctx);
  // The products' statistics of the period chosen (the products variant of /metrics), and for
  // those who may add products the picker's results (or suggestions): read side by side.
  const choice = periodFromSearch(search, { now: new Date(), timeZone: retailerTimeZone(), ...campaignPresetContext(ctx.campaign) }, CAMPAIGN_PRESETS);
  const view = presentProducts(ctx.campaign, Number(search.get("page")));
  const [figures, picker, imageHosts, currency] = await Promise.all([
    view.products.length ? productFigures(user, ctx, choice.period, view.products.map((p) => p.id)) : Promise.resolve({ ok: true as const, value: {} as Record<string, Derived> }),
    canEdit ? searchCampaignProducts(user, ctx, search.get("q") ?? "") : Promise.resolve(null),
    getProductImageHosts(),
    campaignCurrency(ctx.campaign),
  ]);
  const fetchFailed = !figures.ok || (picker !== null && !picker.ok);
  return {
    campaignId: ctx.campaign.id,
    version: ctx.campaign.version,
    canEdit,
    ...view,
    choice,
    /** The figures of the page's products only. */
    figures: figures.ok ? Object.fromEntries(view.products.filter((p) => figures.value[p.id]).map((p) => [p.id, figures.value[p.id]!])) : null,
    /** The figures' money is in the campaign's wallet's currency. */
    currency,
    picker: picker?.ok ? picker.value : null,
    /** The retailer's product image hosts: pictures the content security policy lets the page load (ADR 34). */
    imageHosts,
    /** Spec section 8: 'Fetch campaign products data' when the statistics or the search failed. */
    fetchFailure: fetchFailed ? FETCH_PRODUCTS_FAILURE : null,
    /** The product just moved (PRG target), whose move button keeps the focus. */
    moved: search.get("moved") ? { id: search.get("moved")!, direction: direction === "down" ? ("down" as const) : ("up" as const) } : null,
  };
}

/**
 * With JavaScript, after a form of this page: the page is read again after an addition that added
 * nothing too (Remix skips that after a 4xx answer): 'Already in the campaign' means someone added
 * the product meanwhile, and the list, its count and the picker's marks then show it, as the page
 * rendered without JavaScript does. A confirmation asked for (a bulk removal, or switching every
 * product) changed nothing: the page is not read again for it.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, formAction, formData, currentUrl, actionResult, defaultShouldRevalidate }) => {
  if (formMethod?.toUpperCase() !== "POST" || !formAction || new URL(formAction, currentUrl).pathname !== currentUrl.pathname) return defaultShouldRevalidate;
  const intent = formData?.get("intent");
  if (intent === addProductsIntent || intent === importProductsIntent) return true;
  const answer = (actionResult as { form?: string } | null | undefined)?.form;
  if (answer === "confirm" || answer === "confirmAll") return false;
  return defaultShouldRevalidate;
};

type ListFailure = { form: "list"; failure: string; message: string; subject: string | null };

function listFailure(outcome: Extract<ProductsOutcome, { ok: false }>, subject: string | null = null) {
  return data({ form: "list", failure: outcome.failure, message: outcome.message, subject } satisfies ListFailure, { status: statusOf(outcome) });
}

function badRequest(failure: string) {
  return data({ form: "list", failure, message: "campaignProducts:errors.badRequest", subject: null } satisfies ListFailure, { status: 400 });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  // Spec section 8: a product change without a loaded campaign.
  if (!params.campaignId) return data({ form: "list", failure: FAILURE.noFetchedCampaign, message: "campaigns:errors.noCampaignId", subject: null } satisfies ListFailure, { status: 400 });
  const ctx = orThrow(await requireCampaign(user, params.campaignId));
  const here = `/campaigns/${encodeURIComponent(ctx.campaign.id)}/products`;
  const formData = await readProductsForm(request);
  // Where the page was (its query and period), kept after a change made from the picker or by drag and drop.
  const back = backTo(here, formData.get("back"));
  if (!formData.get("version")) return badRequest(FAILURE.noFetchedCampaign);
  const intent = formData.get("intent");
  switch (intent) {
    case addProductsIntent: {
      const submission = parseWithZod(formData, { schema: AddProductsSchema });
      if (submission.status !== "success") return data({ form: "add" as const, result: submission.reply(), failure: null, report: null }, { status: 400 });
      const outcome = await addProducts(user, ctx, submission.value);
      const plan = outcome.plan ?? { added: [], present: [], unknown: [] };
      const report = { added: outcome.ok ? plan.added.length : 0, present: plan.present, unknown: plan.unknown };
      if (outcome.ok && plan.unknown.length === 0 && plan.present.length === 0) {
        const total = Object.keys(outcome.campaign.offers).length;
        return redirectWithToast(back, {
          type: "success",
          title: "campaignProducts:toast.added",
          description: outcome.warnings.length ? "campaignProducts:warnings.tooManyToast" : undefined,
          values: { count: plan.added.length, total, max: PRODUCT_WARNING_THRESHOLD },
        });
      }
      const fieldErrors: Record<string, string[]> = { ...(outcome.ok ? {} : (outcome.fieldErrors ?? {})) };
      if (plan.unknown.length) (fieldErrors.ids ??= []).push(withValues("campaignProducts:errors.unknownIds", { ids: plan.unknown.join(", ") }));
      const reply = submission.reply({ formErrors: outcome.ok ? [] : [outcome.message], fieldErrors });
      // After a partial addition, the box keeps only the ids to correct.
      const result = outcome.ok ? { ...reply, initialValue: { ...reply.initialValue, ids: plan.unknown.join("\n") } } : reply;
      return data({ form: "add" as const, result, failure: outcome.ok ? null : outcome.failure, report }, { status: outcome.ok ? 200 : statusOf(outcome) });
    }
    case toggleProductIntent: {
      const submission = parseWithZod(formData, { schema: ToggleProductSchema });
      if (submission.status !== "success") return badRequest(FAILURE.upsertProduct);
      const outcome = await toggleProduct(user, ctx, submission.value);
      if (!outcome.ok) return listFailure(outcome, submission.value.productId);
      return redirectWithToast(`${back}#product-${encodeURIComponent(submission.value.productId)}`, { type: "success", title: submission.value.state === "on" ? "campaignProducts:toast.switchedOn" : "campaignProducts:toast.switchedOff", values: { id: submission.value.productId } });
    }
    case removeProductIntent: {
      const submission = parseWithZod(formData, { schema: RemoveProductSchema });
      if (submission.status !== "success") return badRequest(FAILURE.removeProduct);
      const next = neighbourOf(ctx.campaign.offers, submission.value.productId);
      const outcome = await removeProduct(user, ctx, submission.value);
      if (!outcome.ok) return listFailure(outcome, submission.value.productId);
      // The same page (the last one if this was the only product of the last page), at the row
      // that took the removed one's place: without JavaScript the next Tab goes on from there.
      return redirectWithToast(`${back}${next ? `#product-${encodeURIComponent(next)}` : ""}`, { type: "success", title: "campaignProducts:toast.removed", values: { count: 1 } });
    }
    case moveProductIntent: {
      const submission = parseWithZod(formData, { schema: MoveProductSchema });
      if (submission.status !== "success") return badRequest(FAILURE.upsertProduct);
      const outcome = await moveProduct(user, ctx, submission.value);
      if (!outcome.ok) return listFailure(outcome, submission.value.productId);
      // The page the product is on now (moving the first of a page up takes it to the previous one).
      const query = new URLSearchParams(back.slice(here.length));
      const page = pageOfProduct(outcome.campaign.offers, submission.value.productId);
      if (page > 1) query.set("page", String(page));
      else query.delete("page");
      query.set("moved", submission.value.productId);
      query.set("dir", submission.value.direction);
      const target = `${here}?${query}`;
      return redirectWithToast(target, { type: "success", title: "toast.changesSaved" });
    }
    case savePositionsIntent: {
      const submission = parseWithZod(formData, { schema: SavePositionsSchema });
      if (submission.status !== "success") {
        const message = Object.values(submission.error ?? {}).flat()[0] ?? "campaignProducts:errors.badRequest";
        return data({ form: "list", failure: FAILURE.upsertMassProduct, message, subject: null } satisfies ListFailure, { status: 400 });
      }
      const outcome = await savePositions(user, ctx, submission.value);
      if (!outcome.ok) return listFailure(outcome);
      return redirectWithToast(back, { type: "success", title: "toast.changesSaved" });
    }
    case bulkProductsIntent: {
      const submission = parseWithZod(formData, { schema: BulkProductsSchema });
      if (submission.status !== "success") {
        const message = submission.error?.selected?.[0] ?? submission.error?.bulk?.[0] ?? "campaignProducts:errors.badRequest";
        return data({ form: "list", failure: FAILURE.upsertMassProduct, message, subject: null } satisfies ListFailure, { status: 400 });
      }
      const value = submission.value;
      const targets = bulkTargets(ctx, value);
      if (value.scope === "campaign" && !value.confirmed) {
        // Every product of the campaign, on every page: said and confirmed first, with or without JavaScript.
        const refused = denied(user, ctx, FAILURE.upsertMassProduct);
        if (refused) return listFailure(refused);
        return data({ form: "confirmAll" as const, bulk: value.bulk === "on" ? ("on" as const) : ("off" as const), count: targets.length });
      }
      if (value.bulk === "remove" && !value.confirmed) {
        // The confirmation step, with or without JavaScript: what is about to be removed.
        const refused = denied(user, ctx, FAILURE.removeProduct);
        if (refused) return listFailure(refused);
        return data({ form: "confirm" as const, products: productsToConfirm(ctx, value.selected) });
      }
      const outcome = await bulkProducts(user, ctx, value);
      if (!outcome.ok) return listFailure(outcome);
      const title = value.bulk === "remove" ? "campaignProducts:toast.removed" : value.bulk === "on" ? "campaignProducts:toast.bulkOn" : "campaignProducts:toast.bulkOff";
      return redirectWithToast(back, { type: "success", title, values: { count: value.bulk === "remove" ? value.selected.length : targets.length } });
    }
    case importProductsIntent: {
      const submission = parseWithZod(formData, { schema: ImportProductsSchema });
      if (submission.status !== "success") {
        return data({ form: "import", result: submission.reply(), failure: null, message: null, report: null } satisfies ImportAnswer, { status: 400 });
      }
      const outcome = await importProducts(user, ctx, submission.value);
      const report = outcome.report;
      if (outcome.ok && !outcome.report.unknown.length && !outcome.report.bad.length && !outcome.report.present.length) {
        return redirectWithToast(back, {
          type: "success",
          title: "campaignProductPicker:import.toast",
          description: outcome.warnings.length ? "campaignProducts:warnings.tooManyToast" : undefined,
          values: { count: outcome.report.imported, total: outcome.total, max: PRODUCT_WARNING_THRESHOLD },
        });
      }
      const answer: ImportAnswer = {
        form: "import",
        result: submission.reply({ resetForm: outcome.ok }),
        failure: outcome.ok ? null : outcome.failure,
        message: outcome.ok ? null : outcome.message,
        report,
      };
      return data(answer, { status: outcome.ok ? 200 : statusOf(outcome) });
    }
    default:
      return unknownIntent();
  }
}

/** The page's own address with the query kept (only a query string of this page is taken). */
function backTo(here: string, back: FormDataEntryValue | null): string {
  if (typeof back !== "string" || !back.startsWith("?") || back.length > 1000) return here;
  const params = new URLSearchParams(back);
  params.delete("moved");
  params.delete("dir");
  const query = params.toString();
  return query ? `${here}?${query}` : here;
}

/** The intent and product of the form being submitted, for per-row pending states. */
function usePendingSubmission() {
  const navigation = useNavigation();
  if (navigation.state === "idle" || !navigation.formData) return { intent: null, productId: null, value: null };
  const f = navigation.formData;
  return {
    intent: String(f.get("intent") ?? ""),
    productId: f.get("productId") ? String(f.get("productId")) : null,
    value: String(f.get("direction") ?? f.get("state") ?? f.get("bulk") ?? ""),
  };
}

function availabilityKey(availability: string): string {
  return availability.trim().toLowerCase().replace(/[\s_-]+/g, "_");
}

export default function CampaignProductsRoute() {
  const { t } = useTranslation(["campaignProducts", "campaigns", "campaignProductPicker"]);
  const loaderData = useLoaderData<typeof loader>();
  const { campaignId, version, canEdit, products, paging, count, onCount, party, tooMany, threshold, moved, choice, figures, picker, fetchFailure } = loaderData;
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const pending = usePendingSubmission();
  const listError = actionData && actionData.form === "list" ? actionData : null;
  const confirm = actionData && actionData.form === "confirm" ? actionData : null;
  const confirmAll = actionData && actionData.form === "confirmAll" ? actionData : null;
  const importAnswer = actionData && actionData.form === "import" ? (actionData as ImportAnswer) : null;
  const here = `/campaigns/${encodeURIComponent(campaignId)}/products`;
  const hydrated = useHydrated();

  // With JavaScript: drag and drop, and Alt+↑/↓ on a row's handle, saved as positions.
  const reorder = useProductReorder({ ids: products.map((p) => p.id), from: paging.offset, version, action: here, back: location.search });
  // Where each form of the list comes back to: this page, its period and search (ADR 48). The
  // forms post to the page's own address with them, so that an answer rendered without
  // JavaScript (a confirmation, a refusal) is of the same page too.
  const back = location.search;
  const formAction = pageHref(here, location.search, paging.page);
  const byId = new Map(products.map((p) => [p.id, p]));
  const shown = reorder.order.map((id) => byId.get(id)).filter((p): p is ProductRow => !!p);
  const [announce, setAnnounce] = useState("");
  const [dragging, setDragging] = useState<string | null>(null);
  const moveTo = (id: string, to: number, byKeyboard: boolean) => {
    const product = byId.get(id);
    reorder.move(id, to);
    if (product) setAnnounce(t("campaignProductPicker:reorder.moved", { name: product.title || product.id, position: paging.offset + to + 1, total: paging.total }));
    // The moved row keeps its handle focused and in view (a focused element moved in the DOM is
    // not scrolled to by focus(), which does nothing on the element that already has the focus).
    if (byKeyboard)
      requestAnimationFrame(() => {
        const handle = document.getElementById(handleId(id));
        handle?.focus();
        handle?.scrollIntoView({ block: "nearest" });
      });
  };

  // With JavaScript, the moved product's button keeps the focus after the list re-renders.
  useEffect(() => {
    if (!moved) return;
    const button = document.getElementById(moveButtonId(moved.id, moved.direction)) as HTMLButtonElement | null;
    const target = button && !button.disabled ? button : (document.getElementById(moveButtonId(moved.id, moved.direction === "up" ? "down" : "up")) as HTMLButtonElement | null);
    target?.focus();
  }, [moved, location.key]);

  // The confirmation takes the focus when it appears (it follows the bulk bar): with JavaScript
  // here; without, by its `autofocus`, which also brings it into view on the page the answer
  // loads (at the top, far above it, with the picker and the add forms in between).
  const confirmRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (confirm || confirmAll) confirmRef.current?.focus();
  }, [confirm, confirmAll]);

  // Once the confirmation is gone (Cancel, or the change made), the button that asked for it has
  // the focus again, with JavaScript, the page not scrolled. (Without, Cancel loads the page again,
  // from the top: a link to it with that button's #id would only scroll the answer, the same address.)
  const opener = confirm ? BULK_REMOVE_ID : confirmAll ? bulkAllId(confirmAll.bulk) : null;
  const lastOpener = useRef<string | null>(null);
  useEffect(() => {
    const previous = lastOpener.current;
    lastOpener.current = opener;
    if (previous && !opener) document.getElementById(previous)?.focus();
  }, [opener]);

  const partyLabel = (p: Party | null) => (p ? t(`party.${p}`) : "—");
  const availabilityLabel = (a: string) => t(`availability.${availabilityKey(a)}`, { defaultValue: a });

  return (
    <section className="panel" aria-labelledby="products-title">
      <h2 id="products-title">{t("title")}</h2>
      <p className="muted">
        {t("summary", { count, on: onCount })}
        {party ? <> · {t("boundParty", { party: partyLabel(party) })}</> : null}
      </p>
      {tooMany ? (
        <p className="notice products-warning" role="note">
          {t("warnings.tooManyNotice", { total: count, max: threshold })}
        </p>
      ) : null}

      {fetchFailure ? <FormAlert title={t(fetchFailure)} message={t("errors.errorOccurred", { ns: "common" })} /> : null}
      {canEdit ? (
        <>
          <ProductPicker
            campaignId={campaignId}
            version={version}
            picker={picker}
            productIds={products.map((p) => p.id)}
            availabilityLabel={availabilityLabel}
            partyLabel={partyLabel}
            action={formAction}
          />
          <div className="products-add-grid">
            <AddProductsForm version={version} count={count} here={formAction} />
            <ProductImport version={version} answer={importAnswer} here={formAction} />
          </div>
        </>
      ) : (
        <p className="muted">{t("readOnly")}</p>
      )}
      <h3 id="products-list-title">{t("campaignProductPicker:list.title")}</h3>
      {products.length ? (
        <>
          <p className="field-help">{t("campaignProductPicker:list.statsHelp")}</p>
          <PeriodForm
            presets={CAMPAIGN_PRESETS}
            {...periodProps(choice)}
            keep={{ ...(picker && !picker.suggested ? { q: picker.query } : {}), ...(paging.page > 1 ? { page: String(paging.page) } : {}) }}
          />
        </>
      ) : null}

      {listError ? <FormAlert title={t(listError.failure)} message={translateMessage(t, listError.message)} /> : null}

      {products.length === 0 ? (
        <p className="empty-state">{canEdit ? t("empty") : t("emptyReadOnly")}</p>
      ) : (
        <>
          {canEdit ? (
            <>
              <Form method="post" action={formAction} id="products-positions-form" preventScrollReset>
                <input type="hidden" name="intent" value={savePositionsIntent} />
                <input type="hidden" name="version" value={version} />
                <input type="hidden" name="back" value={back} />
              </Form>
              <Form method="post" action={formAction} id="products-bulk-form" className="products-bulk" aria-label={t("bulk.label")} preventScrollReset>
                <input type="hidden" name="intent" value={bulkProductsIntent} />
                <input type="hidden" name="version" value={version} />
                <input type="hidden" name="back" value={back} />
                <span className="muted">{paging.pages > 1 ? t("bulk.helpPage") : t("bulk.help")}</span>
                <button type="submit" name="bulk" value="on" className="button">
                  {t("bulk.on")}
                </button>
                <button type="submit" name="bulk" value="off" className="button">
                  {t("bulk.off")}
                </button>
                <button type="submit" name="bulk" value="remove" className="button" id={BULK_REMOVE_ID}>
                  {t("bulk.remove")}
                </button>
              </Form>
              {paging.pages > 1 ? (
                <Form method="post" action={formAction} className="products-bulk products-bulk-all" aria-label={t("bulkAll.label")} preventScrollReset>
                  <input type="hidden" name="intent" value={bulkProductsIntent} />
                  <input type="hidden" name="version" value={version} />
                  <input type="hidden" name="back" value={back} />
                  <input type="hidden" name="scope" value="campaign" />
                  <span className="muted">{t("bulkAll.help", { count })}</span>
                  <button type="submit" name="bulk" value="on" className="button" id={bulkAllId("on")}>
                    {t("bulkAll.on", { count })}
                  </button>
                  <button type="submit" name="bulk" value="off" className="button" id={bulkAllId("off")}>
                    {t("bulkAll.off", { count })}
                  </button>
                </Form>
              ) : null}
              {confirmAll ? (
                <div className="confirm-body products-confirm" role="region" aria-labelledby="products-confirm-title" ref={confirmRef} tabIndex={-1} autoFocus>
                  <p id="products-confirm-title">
                    <strong>{t(confirmAll.bulk === "on" ? "bulkAll.confirmOn" : "bulkAll.confirmOff", { count: confirmAll.count })}</strong>
                  </p>
                  <div className="confirm-actions">
                    <Form method="post" action={formAction} preventScrollReset>
                      <input type="hidden" name="intent" value={bulkProductsIntent} />
                      <input type="hidden" name="version" value={version} />
                      <input type="hidden" name="scope" value="campaign" />
                      <input type="hidden" name="bulk" value={confirmAll.bulk} />
                      <input type="hidden" name="confirmed" value="yes" />
                      <input type="hidden" name="back" value={back} />
                      <SubmitButton pending={pending.intent === bulkProductsIntent}>
                        {t(confirmAll.bulk === "on" ? "bulkAll.confirmSubmitOn" : "bulkAll.confirmSubmitOff", { count: confirmAll.count })}
                      </SubmitButton>
                    </Form>
                    <Link to={`${here}${back}`} preventScrollReset>
                      {t("bulk.cancel")}
                    </Link>
                  </div>
                </div>
              ) : null}
              {confirm ? (
                <div className="confirm-body products-confirm" role="region" aria-labelledby="products-confirm-title" ref={confirmRef} tabIndex={-1} autoFocus>
                  <p id="products-confirm-title">
                    <strong>{t("bulk.confirmTitle", { count: confirm.products.length })}</strong>
                  </p>
                  <ul id="products-confirm-list">
                    {confirm.products.map((p) => (
                      <li key={p.id}>
                        {p.title} <span className="muted">({p.id})</span>
                      </li>
                    ))}
                  </ul>
                  <div className="confirm-actions">
                    <Form method="post" action={formAction} preventScrollReset>
                      <input type="hidden" name="intent" value={bulkProductsIntent} />
                      <input type="hidden" name="version" value={version} />
                      <input type="hidden" name="bulk" value="remove" />
                      <input type="hidden" name="confirmed" value="yes" />
                      <input type="hidden" name="back" value={back} />
                      {confirm.products.map((p) => (
                        <input key={p.id} type="hidden" name="selected" value={p.id} />
                      ))}
                      <SubmitButton pending={pending.intent === bulkProductsIntent} className="products-danger">
                        {t("bulk.confirmSubmit", { count: confirm.products.length })}
                      </SubmitButton>
                    </Form>
                    <Link to={`${here}${back}`} preventScrollReset>
                      {t("bulk.cancel")}
                    </Link>
                  </div>
                </div>
              ) : null}
            </>
          ) : null}
          {canEdit && hydrated ? (
            <p id="products-reorder-help" className="field-help">
              {t("campaignProductPicker:reorder.help")}
            </p>
          ) : null}
          <p className="visually-hidden" aria-live="polite" role="status" id="products-reorder-status">
            {announce}
          </p>
          <ProductPages paging={paging} hrefOf={(page) => pageHref(here, location.search, page)} />
          <div className="table-wrap">
            <table className="products-table list-table">
              <caption className="visually-hidden">{t("caption")}</caption>
              <thead>
                <tr>
                  {canEdit && hydrated ? (
                    <th scope="col">
                      <span className="visually-hidden">{t("campaignProductPicker:reorder.column")}</span>
                    </th>
                  ) : null}
                  {canEdit ? (
                    <th scope="col">
                      <span className="visually-hidden">{t("columns.select")}</span>
                    </th>
                  ) : null}
                  <th scope="col">{t("columns.position")}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t("columns.image")}</span>
                  </th>
                  <th scope="col">{t("columns.product")}</th>
                  <th scope="col">{t("columns.availability")}</th>
                  <th scope="col">{t("columns.party")}</th>
                  <th scope="col">{t("columns.status")}</th>
                  {canEdit ? <th scope="col">{t("columns.actions")}</th> : null}
                  {STAT_COLUMNS.map((metric) => (
                    <th key={metric} scope="col" className="num">
                      {t(`campaignProductPicker:stats.${metric}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {shown.map((p, index) => (
                  <ProductRowView
                    key={p.id}
                    product={p}
                    index={index}
                    offset={paging.offset}
                    last={p.index === paging.total - 1}
                    figures={figures ? ((figures[p.id] as Derived | undefined) ?? null) : undefined}
                    handle={
                      canEdit && hydrated
                        ? {
                            onKeyDown: (event) => {
                              const to = keyboardTarget(event.key, index, shown.length);
                              if (to === null || event.ctrlKey || event.metaKey || event.shiftKey) return;
                              event.preventDefault();
                              moveTo(p.id, to, true);
                            },
                            onDragStart: (event) => {
                              event.dataTransfer.effectAllowed = "move";
                              event.dataTransfer.setData("text/plain", p.id);
                              setDragging(p.id);
                            },
                            onDragEnd: () => setDragging(null),
                            dragging: dragging === p.id,
                          }
                        : null
                    }
                    onDrop={
                      canEdit && hydrated
                        ? (event) => {
                            event.preventDefault();
                            const id = event.dataTransfer.getData("text/plain") || dragging;
                            setDragging(null);
                            if (id && id !== p.id) moveTo(id, index, false);
                          }
                        : null
                    }
                    version={version}
                    canEdit={canEdit}
                    here={formAction}
                    back={back}
                    failed={listError?.subject === p.id}
                    autoFocusMove={moved?.id === p.id ? moved.direction : null}
                    pending={pending}
                    partyLabel={partyLabel}
                    availabilityLabel={availabilityLabel}
                  />
                ))}
              </tbody>
            </table>
          </div>
          {canEdit ? (
            <p className="products-positions-actions">
              <button
                type="submit"
                form="products-positions-form"
                className="button primary"
                aria-disabled={pending.intent === savePositionsIntent || undefined}
                data-pending={pending.intent === savePositionsIntent || undefined}
              >
                {pending.intent === savePositionsIntent ? t("actions.working", { ns: "common" }) : t("positions.save")}
              </button>
              <span className="field-help">{t("positions.help")}</span>
            </p>
          ) : null}
          <ProductPages paging={paging} hrefOf={(page) => pageHref(here, location.search, page)} bottom />
        </>
      )}
    </section>
  );
}

/** The bulk bar's "Remove…", and the "Switch on/off all N" buttons: what a confirmation's Cancel returns to. */
const BULK_REMOVE_ID = "products-bulk-remove";
function bulkAllId(bulk: "on" | "off") {
  return `products-all-${bulk}`;
}

/** The page's own address with another page of the list (the period and search kept). */
function pageHref(here: string, search: string, page: number): string {
  const params = new URLSearchParams(search);
  params.delete("moved");
  params.delete("dir");
  if (page > 1) params.set("page", String(page));
  else params.delete("page");
  const query = params.toString();
  return query ? `${here}?${query}` : here;
}

/** "51–100 of 2,415" with the previous and next pages (ADR 48); nothing when one page holds all. */
function ProductPages({ paging, hrefOf, bottom = false }: { paging: ProductsPage; hrefOf: (page: number) => string; bottom?: boolean }) {
  const { t } = useTranslation("campaignProducts");
  if (paging.pages <= 1) return null;
  return (
    <nav className={cn("pagination products-pages", bottom && "products-pages-bottom")} aria-label={t(bottom ? "pages.labelBottom" : "pages.label")}>
      {paging.page > 1 ? (
        <Link to={hrefOf(paging.page - 1)} rel="prev">
          {t("pages.previous")}
        </Link>
      ) : null}
      <span>
        {t("pages.range", { first: paging.first, last: paging.last, total: paging.total })}
      </span>
      {paging.page < paging.pages ? (
        <Link to={hrefOf(paging.page + 1)} rel="next">
          {t("pages.next")}
        </Link>
      ) : null}
    </nav>
  );
}

/** The figures of each product shown in the table (the products variant of /metrics). */
const STAT_COLUMNS = ["displays", "clicks", "ctr", "cost", "sales", "roas"] as const;
const ZERO_FIGURES: Derived = { displays: 0, views: 0, clicks: 0, ctr: null, cost: 0, cpc: null, sales: 0, quantity: 0, roas: null };

function handleId(productId: string) {
  return `reorder-${productId}`;
}

function moveButtonId(productId: string, direction: "up" | "down") {
  return `move-${direction}-${productId}`;
}

function translateMessage(t: (key: string, options?: Record<string, unknown>) => string, message: string): string {
  const { key, values } = splitMessage(message);
  return t(key, values);
}

function ProductRowView({
  product: p,
  index,
  offset,
  last,
  version,
  canEdit,
  here,
  back,
  failed,
  autoFocusMove,
  pending,
  partyLabel,
  availabilityLabel,
  figures,
  handle,
  onDrop,
}: {
  product: ProductRow;
  /** Place on the page shown (0-based). */
  index: number;
  /** The list's index of the page's first product. */
  offset: number;
  /** The last product of the whole list. */
  last: boolean;
  /** The period's figures; null: none; undefined: the statistics could not be read. */
  figures: Derived | null | undefined;
  handle: {
    onKeyDown: (event: React.KeyboardEvent<HTMLButtonElement>) => void;
    onDragStart: (event: React.DragEvent<HTMLButtonElement>) => void;
    onDragEnd: () => void;
    dragging: boolean;
  } | null;
  onDrop: ((event: React.DragEvent<HTMLTableRowElement>) => void) | null;
  version: number;
  canEdit: boolean;
  /** Where the row's forms post: the page's own address. */
  here: string;
  /** The page's query (page, period, search), which each form comes back to. */
  back: string;
  failed: boolean;
  autoFocusMove: "up" | "down" | null;
  pending: ReturnType<typeof usePendingSubmission>;
  partyLabel: (p: Party | null) => string;
  availabilityLabel: (a: string) => string;
}) {
  const { t } = useTranslation(["campaignProducts", "campaigns"]);
  const { imageHosts, currency } = useLoaderData<typeof loader>();
  const busy = (intent: string, value?: string) => pending.intent === intent && pending.productId === p.id && (value === undefined || pending.value === value);
  const name = p.title || p.id;
  const first = offset + index === 0;
  // Without JavaScript the moved product's button takes the focus on load (autofocus).
  const focusDirection = autoFocusMove === "up" && first ? "down" : autoFocusMove === "down" && last ? "up" : autoFocusMove;
  const format = useFigureFormat(currency);
  const [over, setOver] = useState(false);
  return (
    <tr
      id={`product-${p.id}`}
      className={cn(!p.on && "products-off", failed && "products-failed", handle?.dragging && "products-dragging", over && "products-drop-target")}
      onDragOver={
        onDrop
          ? (event) => {
              event.preventDefault();
              event.dataTransfer.dropEffect = "move";
              if (!over) setOver(true);
            }
          : undefined
      }
      onDragLeave={onDrop ? () => setOver(false) : undefined}
      onDrop={
        onDrop
          ? (event) => {
              setOver(false);
              onDrop(event);
            }
          : undefined
      }
    >
      {handle ? (
        <td className="list-table-select">
          <button
            type="button"
            id={handleId(p.id)}
            className="products-handle"
            draggable
            onKeyDown={handle.onKeyDown}
            onDragStart={handle.onDragStart}
            onDragEnd={handle.onDragEnd}
            aria-label={t("campaignProductPicker:reorder.handle", { name, position: offset + index + 1 })}
            aria-describedby="products-reorder-help"
          >
            <span aria-hidden="true">⠿</span>
          </button>
        </td>
      ) : null}
      {canEdit ? (
        <td className="list-table-select">
          <input type="checkbox" name="selected" value={p.id} form="products-bulk-form" aria-label={t("select", { name })} key={`sel-${version}`} />
        </td>
      ) : null}
      <td data-label={t("columns.position")}>
        {canEdit ? (
          <>
            <input type="hidden" name={`positions[${index}].id`} value={p.id} form="products-positions-form" />
            <input
              type="number"
              className="products-pos"
              name={`positions[${index}].pos`}
              form="products-positions-form"
              min={1}
              max={MAX_POSITION}
              step={1}
              inputMode="numeric"
              defaultValue={p.pos ?? ""}
              key={`pos-${version}`}
              aria-label={t("positions.of", { name })}
              placeholder="—"
            />
          </>
        ) : (
          (p.pos ?? "—")
        )}
      </td>
      <td className="products-image-cell">
        {displayableImage(p.image_link, imageHosts) ? (
          <img src={p.image_link} alt="" width={48} height={48} loading="lazy" className="products-image" />
        ) : (
          <span className="products-image products-image-none" aria-hidden="true" />
        )}
      </td>
      <td className="products-name list-table-title">
        <strong>{p.title}</strong>
        <br />
        <span className="muted products-id">{p.id}</span>
      </td>
      <td data-label={t("columns.availability")}>{availabilityLabel(p.availability)}</td>
      <td data-label={t("columns.party")}>{partyLabel(p.party)}</td>
      <td data-label={t("columns.status")}>
        <span className={cn("badge", p.on ? "products-on" : "products-off-badge")}>{p.on ? t("status.on") : t("status.off")}</span>
      </td>
      {canEdit ? (
        <td data-label={t("columns.actions")}>
          <div className="products-actions">
            <Form method="post" action={here} className="products-move" preventScrollReset>
              <input type="hidden" name="intent" value={moveProductIntent} />
              <input type="hidden" name="version" value={version} />
              <input type="hidden" name="productId" value={p.id} />
              <input type="hidden" name="back" value={back} />
              <button
                type="submit"
                name="direction"
                value="up"
                id={moveButtonId(p.id, "up")}
                className="button products-small"
                disabled={first}
                autoFocus={focusDirection === "up"}
                title={t("move.up")}
                data-pending={busy(moveProductIntent, "up") || undefined}
              >
                <span aria-hidden="true">↑</span>
                <span className="visually-hidden">
                  {t("move.up")} {name}
                </span>
              </button>
              <button
                type="submit"
                name="direction"
                value="down"
                id={moveButtonId(p.id, "down")}
                className="button products-small"
                disabled={last}
                autoFocus={focusDirection === "down"}
                title={t("move.down")}
                data-pending={busy(moveProductIntent, "down") || undefined}
              >
                <span aria-hidden="true">↓</span>
                <span className="visually-hidden">
                  {t("move.down")} {name}
                </span>
              </button>
            </Form>
            <Form method="post" action={here} preventScrollReset>
              <input type="hidden" name="intent" value={toggleProductIntent} />
              <input type="hidden" name="version" value={version} />
              <input type="hidden" name="productId" value={p.id} />
              <input type="hidden" name="state" value={p.on ? "off" : "on"} />
              <input type="hidden" name="back" value={back} />
              <button type="submit" className="button products-small" data-pending={busy(toggleProductIntent) || undefined}>
                {p.on ? t("toggle.off") : t("toggle.on")}
                <span className="visually-hidden"> {name}</span>
              </button>
            </Form>
            <Form method="post" action={here} preventScrollReset>
              <input type="hidden" name="intent" value={removeProductIntent} />
              <input type="hidden" name="version" value={version} />
              <input type="hidden" name="productId" value={p.id} />
              <input type="hidden" name="back" value={back} />
              <button type="submit" className="button products-small" data-pending={busy(removeProductIntent) || undefined}>
                {t("remove")}
                <span className="visually-hidden"> {name}</span>
              </button>
            </Form>
          </div>
        </td>
      ) : null}
      {STAT_COLUMNS.map((metric) => (
        <td key={metric} className="num" data-label={t(`campaignProductPicker:stats.${metric}`)}>
          {figures ? format(metric, figures) : figures === null ? (metric === "ctr" || metric === "roas" ? "—" : format(metric, ZERO_FIGURES)) : "—"}
        </td>
      ))}
    </tr>
  );
}

/**
 * Ids typed or pasted; unknown ones and those already in the campaign are reported. It posts to
 * `here`, the page's own address (ADR 48), so an answer rendered without JavaScript is of that page.
 */
function AddProductsForm({ version, count, here }: { version: number; count: number; here: string }) {
  const { t } = useTranslation(["campaignProducts", "campaigns"]);
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const location = useLocation();
  const addData = actionData && actionData.form === "add" ? actionData : null;
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === addProductsIntent;
  const [form, fields] = useForm({
    id: "add-products-form",
    lastResult: addData?.result,
    constraint: getZodConstraint(AddProductsSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AddProductsSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  // After a partial addition the box keeps only the ids to correct: the server's initial value
  // without JavaScript; with it, a fresh textarea per answer (conform keeps what was typed).
  const keep = addData && addData.report && addData.report.added > 0 ? addData.result.initialValue?.ids : undefined;
  const answer = useRef<{ data: unknown; n: number; value: string }>({ data: null, n: 0, value: "" });
  if (addData && addData !== answer.current.data) {
    answer.current = typeof keep === "string" ? { data: addData, n: answer.current.n + 1, value: keep } : { ...answer.current, data: addData };
  }
  // Products added without anything to report (a redirect): the box is emptied for the next ones.
  const seen = useRef(count);
  useEffect(() => {
    if (count === seen.current) return;
    seen.current = count;
    if (addData) return;
    answer.current = { data: null, n: 0, value: "" };
    form.reset();
  }, [count, addData, form]);
  const textareaProps = getTextareaProps(fields.ids);
  const report = addData?.report ?? null;
  const errorId = fields.ids.errors?.length ? `${fields.ids.id}-error` : undefined;
  const helpId = `${fields.ids.id}-help`;
  return (
    <Form method="post" action={here} {...getFormProps(form)} className="products-add">
      <input type="hidden" name="intent" value={addProductsIntent} />
      <input type="hidden" name="version" value={version} />
      <input type="hidden" name="back" value={location.search} />
      {form.errors?.length && addData?.failure ? <FormAlert title={t(addData.failure)} message={translateMessage(t, form.errors[0]!)} /> : null}
      {report && report.added > 0 ? (
        <div className="notice products-report" role="status">
          <p>{t("report.added", { count: report.added })}</p>
        </div>
      ) : null}
      {report && report.present.length ? (
        <p className="notice products-report" role="status">
          {t("report.present", { count: report.present.length, ids: report.present.join(", ") })}
        </p>
      ) : null}
      <div className="field">
        <label htmlFor={fields.ids.id}>{t("add.label")}</label>
        <textarea
          {...textareaProps}
          key={`${fields.ids.key}-${answer.current.n}`}
          defaultValue={answer.current.n ? answer.current.value : textareaProps.defaultValue}
          rows={3}
          spellCheck={false}
          autoComplete="off"
          aria-invalid={errorId ? true : undefined}
          aria-describedby={[errorId, helpId].filter(Boolean).join(" ")}
        />
        <p id={helpId} className="field-help">
          {t("add.help")}
        </p>
        <ErrorList id={errorId} errors={fields.ids.errors} />
      </div>
      <SubmitButton pending={pending}>{t("add.submit")}</SubmitButton>
    </Form>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
