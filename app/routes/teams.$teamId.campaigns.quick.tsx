import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { SearchCombobox } from "~/components/search-combobox";
import { useHydrated } from "~/components/use-hydrated";
import { ErrorList, Field, FormAlert, SubmitButton } from "~/components/forms";
import { splitMessage } from "~/domain/message";
import { formatMoney, parseAmountToMinor } from "~/domain/money";
import { DEFAULT_CAMPAIGN_TYPE, isEnabledType, type CampaignType } from "~/domain/retailer-settings";
import { QUICK_KEYWORDS_MAX, QUICK_STEPS, QuickCampaignSchema, QuickGeneralSchema, createQuickCampaignIntent, type QuickStep } from "~/forms/campaigns/quick";
import { requirePermission, requireUser } from "~/http/auth.server";
import { getRequestLocale } from "~/http/i18n.server";
import { reply, replyInvalid } from "~/http/reply.server";
import { requireVisibleTeam } from "~/http/scope.server";
import { creationDefaults, teamWallets } from "~/services/campaigns/campaigns.server";
import { categoryNames, checkQuickBid, createQuickCampaign, quickBidding, quickProducts, suggestedCategories, suggestedKeywords } from "~/services/campaigns/quick.server";
import { getRetailerSettings } from "~/services/retailer-settings.server";
import { retailerSettings as walletRetailerSettings } from "~/services/wallets.server";
import { useIsPending } from "~/utils/misc";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "quick");
export const handle = { routeName: "campaign-quick" };

/**
 * The quick campaign builder (issue 10 section 3), the canonical page of /campaigns/quick-{id}:
 * five steps, each a plain GET form carrying the whole draft in the URL (nothing is lost on a
 * refusal or on Back), then one POST that creates the draft with its products and targets and
 * opens it in the editor.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  const team = await requireVisibleTeam(user, params.teamId);
  requirePermission(user, "Campaign", "create", { teamId: team.id });
  const settings = await getRetailerSettings();
  const locale = await getRequestLocale(request);
  const search = new URL(request.url).searchParams;
  const asked = search.get("step");
  let step: QuickStep = QUICK_STEPS.includes(asked as QuickStep) ? (asked as QuickStep) : "general";
  const products = [...new Set(search.getAll("products").filter(Boolean))];
  const state = {
    name: search.get("name") ?? "",
    startDay: search.get("startDay") ?? creationDefaults().startDay,
    campaignType: search.get("campaignType") ?? (isEnabledType(settings, DEFAULT_CAMPAIGN_TYPE) ? DEFAULT_CAMPAIGN_TYPE : (settings.enabledTypes[0] ?? DEFAULT_CAMPAIGN_TYPE)),
    wallet: search.get("wallet") ?? "",
    bidStrategy: search.get("bidStrategy") ?? "",
    campaignBid: search.get("campaignBid"),
    bid: search.get("bid") ?? "",
    products,
    /** Set once the products step was sent (the suggestions are no longer ticked for the user). */
    productsSeen: search.has("productsSeen"),
    keywords: search.get("keywords"),
    categories: search.getAll("categories").filter(Boolean),
    productCategories: search.getAll("productCategories").filter(Boolean),
    categoriesSeen: search.has("categoriesSeen"),
    q: search.get("q") ?? "",
  };
  // Past the first step, its fields must hold (the spec's message for a missing name or start).
  let errors: Record<string, string[]> = {};
  if (step !== "general") {
    const general = parseWithZod(search, { schema: QuickGeneralSchema });
    if (general.status !== "success") errors = Object.fromEntries(Object.entries(general.error ?? {}).map(([k, v]) => [k, v ?? []]));
    else if (!isEnabledType(settings, general.value.campaignType)) errors = { campaignType: ["campaigns:form.typeInvalid"] };
    else {
      const refused = await checkQuickBid(team, general.value.campaignType, general.value.bidStrategy, general.value.campaignBid, locale);
      if (refused) errors = { [refused === "campaigns:form.strategyInvalid" ? "bidStrategy" : "campaignBid"]: [refused] };
    }
    if (Object.keys(errors).length) step = "general";
  }
  const typeForBid = isEnabledType(settings, state.campaignType as never) ? (state.campaignType as CampaignType) : (settings.enabledTypes[0] ?? DEFAULT_CAMPAIGN_TYPE);
  const bidding = await quickBidding(team, typeForBid, state.bidStrategy || null, state.campaignBid, locale);
  const wallets = (await teamWallets(team.id)).map((w) => ({ id: w.id, name: w.label }));
  let view: {
    rows?: { id: string; title: string; brand: string; price: number | null }[];
    chosen?: { id: string; title: string; brand: string; price: number | null }[];
    keywords?: string[];
    categories?: { id: string; name: string }[];
    names?: Record<string, string>;
    failed?: string;
  } = {};
  if (step === "products" || step === "review") {
    const found = await quickProducts(user, team, step === "products" ? state.q : "", products);
    if (found.ok) view = { rows: step === "products" ? found.value.rows : [], chosen: found.value.chosen };
    else view = { failed: found.reason };
  } else if (step === "keywords" && state.keywords === null) {
    const found = await suggestedKeywords(user, team, products);
    view = found.ok ? { keywords: found.value } : { failed: found.reason };
  } else if (step === "categories") {
    const found = await suggestedCategories(user, team, products);
    view = found.ok ? { categories: found.value } : { failed: found.reason };
  }
  if (step === "review" || step === "categories") {
    const known = await categoryNames(user, [...state.categories, ...state.productCategories]);
    if (known) {
      state.categories = state.categories.filter((id) => !known.unknown.has(id));
      state.productCategories = state.productCategories.filter((id) => !known.unknown.has(id));
    }
    view.names = Object.fromEntries(known?.names ?? []);
  }
  return { team: { id: team.id, name: team.name }, types: settings.enabledTypes, bidding, wallets, currency: walletRetailerSettings().currency, step, state, errors, view };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  const team = await requireVisibleTeam(user, params.teamId);
  requirePermission(user, "Campaign", "create", { teamId: team.id });
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: QuickCampaignSchema });
  if (submission.status !== "success") return replyInvalid("quick", submission);
  const created = await createQuickCampaign(user, team, submission.value, await getRequestLocale(request));
  return reply(created, {
    form: "quick",
    submission,
    onSuccess: (campaign) => ({ to: `/campaigns/${campaign.id}`, toast: { type: "success", title: "quickBuilder:toast.created", values: { name: campaign.name } } }),
  });
}

type State = ReturnType<typeof useLoaderData<typeof loader>>["state"];

/** The first step's fields in the order shown: the first one refused takes the focus. */
const GENERAL_FIELDS = [
  { key: "name", id: "quick-name" },
  { key: "campaignType", id: "quick-type" },
  { key: "startDay", id: "quick-start" },
  { key: "bidStrategy", id: "quick-strategy" },
  { key: "campaignBid", id: "quick-campaign-bid" },
  { key: "bid", id: "quick-bid" },
] as const;

/** The draft's fields as hidden inputs, but those the current step edits. */
function Carried({ state, except }: { state: State; except: QuickStep }) {
  const hidden = (name: string, value: string) => <input key={`${name}=${value}`} type="hidden" name={name} value={value} />;
  return (
    <>
      {except !== "general" ? [hidden("name", state.name), hidden("startDay", state.startDay), hidden("campaignType", state.campaignType), hidden("wallet", state.wallet), hidden("bidStrategy", state.bidStrategy), hidden("campaignBid", state.campaignBid ?? ""), hidden("bid", state.bid)] : null}
      {except !== "products" ? [...state.products.map((id) => hidden("products", id)), state.productsSeen ? hidden("productsSeen", "1") : null] : null}
      {except !== "keywords" && state.keywords !== null ? hidden("keywords", state.keywords) : null}
      {except !== "categories"
        ? [...state.categories.map((id) => hidden("categories", id)), ...state.productCategories.map((id) => hidden("productCategories", id)), state.categoriesSeen ? hidden("categoriesSeen", "1") : null]
        : null}
    </>
  );
}

function StepButtons({ step, pending }: { step: QuickStep; pending: boolean }) {
  const { t } = useTranslation("quickBuilder");
  const index = QUICK_STEPS.indexOf(step);
  const next = QUICK_STEPS[index + 1];
  const previous = QUICK_STEPS[index - 1];
  return (
    <div className="form-actions quick-step-buttons">
      {/* Enter in a field submits the form's first submit button: Next, though Back is shown first. */}
      {next && previous ? <button type="submit" name="step" value={next} hidden tabIndex={-1} /> : null}
      {previous ? (
        <button type="submit" name="step" value={previous} className="button" formNoValidate>
          {t("back")}
        </button>
      ) : null}
      {next ? (
        <button type="submit" name="step" value={next} className="button primary" aria-disabled={pending || undefined}>
          {t("next")}
        </button>
      ) : null}
    </div>
  );
}

export default function QuickCampaignRoute() {
  const { t, i18n } = useTranslation("quickBuilder");
  const { t: tc } = useTranslation("campaigns");
  const { team, types, bidding, wallets, currency, step, state, errors, view } = useLoaderData<typeof loader>();
  const { t: te } = useTranslation("campaignEditor");
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const pending = useIsPending();
  const index = QUICK_STEPS.indexOf(step);
  const money = (cents: number | null) => (cents === null ? "" : formatMoney(cents, currency, i18n.language));
  const productLabel = (row: { id: string; title: string; brand: string; price: number | null }) => [row.title || row.id, row.brand, money(row.price)].filter(Boolean).join(" · ");
  const parsedBid = state.bid ? parseAmountToMinor(state.bid) : null;
  const bidCents = parsedBid?.ok ? parsedBid.value : null;
  const parsedCampaignBid = /^0+(?:[.,]0{1,2})?$/.test(bidding.bid.trim()) ? ({ ok: true, value: 0 } as const) : parseAmountToMinor(bidding.bid);
  const campaignBidCents = parsedCampaignBid.ok ? parsedCampaignBid.value : null;
  const keywordsText = state.keywords ?? (view.keywords ?? []).join("\n");
  const keywordLines = keywordsText.split(/\r\n|\r|\n/).map((k) => k.trim()).filter(Boolean);
  const failure = actionData && "error" in actionData && actionData.error ? splitMessage(actionData.error) : null;
  const firstError = Object.values(errors).flat()[0];
  const stepAction = useStepAction();
  // With JavaScript a step is drawn in place: its title takes the focus, as the top of a new page
  // would (the previous step's button is gone; the next Tab goes on into the step).
  const stepTitle = useRef<HTMLHeadingElement>(null);
  const shownStep = useRef(step);
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    stepTitle.current?.focus();
  }, [step]);
  // A refused first step: its first wrong field takes the focus (autofocus without JavaScript; with
  // it the form stays drawn, so after each answer), not the Next button far below the message.
  const invalid = step === "general" ? GENERAL_FIELDS.find((f) => errors[f.key]?.length) : undefined;
  useEffect(() => {
    if (invalid) document.getElementById(invalid.id)?.focus();
  }, [invalid, location.key]);
  // Without JavaScript the page loads at #quick-step-title, which would take the focus from the
  // wrong field's autofocus: a refused step's title goes by another id.
  const titleId = invalid ? "quick-step-refused" : "quick-step-title";
  return (
    <section className="panel quick-builder" aria-labelledby="quick-title">
      <h2 id="quick-title">{t("title", { team: team.name })}</h2>
      <p>{t("intro")}</p>
      <ol className="quick-steps" aria-label={t("stepsLabel")}>
        {QUICK_STEPS.map((s, i) => (
          <li key={s} aria-current={s === step ? "step" : undefined} className={s === step ? "current" : i < index ? "done" : undefined}>
            {t("stepItem", { n: i + 1, name: t(`steps.${s}`) })}
          </li>
        ))}
      </ol>
      <h3 id={titleId} ref={stepTitle} tabIndex={-1}>{t("stepTitle", { n: index + 1, total: QUICK_STEPS.length, name: t(`steps.${step}`) })}</h3>
      {firstError ? <FormAlert title={tc(splitMessage(firstError).key, splitMessage(firstError).values)} /> : null}
      {view.failed ? <FormAlert title={t(view.failed)} message={tc("common:errors.errorOccurred")} /> : null}

      {step === "general" ? (
        <Form method="get" action={stepAction} id="quick-general" aria-labelledby={titleId} noValidate>
          <Carried state={state} except="general" />
          <Field label={tc("fields.name")} errors={errors.name} inputProps={{ id: "quick-name", name: "name", defaultValue: state.name, autoFocus: !invalid || invalid.key === "name", autoComplete: "off", required: true }} />
          <div className="field">
            <label htmlFor="quick-type">{tc("fields.type")}</label>
            <select id="quick-type" name="campaignType" defaultValue={state.campaignType} aria-invalid={errors.campaignType?.length ? true : undefined} autoFocus={invalid?.key === "campaignType"}>
              {types.map((ty) => (
                <option key={ty} value={ty}>
                  {tc(`types.${ty}`)}
                </option>
              ))}
            </select>
            <ErrorList errors={errors.campaignType} />
          </div>
          <Field label={tc("fields.startDay")} errors={errors.startDay} help={tc("fields.timeZoneHelp")} inputProps={{ id: "quick-start", name: "startDay", type: "date", defaultValue: state.startDay, required: true, autoFocus: invalid?.key === "startDay" }} />
          <div className="field">
            <label htmlFor="quick-wallet">{t("wallet")}</label>
            <select id="quick-wallet" name="wallet" defaultValue={state.wallet}>
              <option value="">{t("noWallet")}</option>
              {wallets.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="quick-strategy">{tc("fields.bidStrategy")}</label>
            <select id="quick-strategy" name="bidStrategy" defaultValue={bidding.strategy} aria-describedby="quick-strategy-help" aria-invalid={errors.bidStrategy?.length ? true : undefined} autoFocus={invalid?.key === "bidStrategy"}>
              {bidding.strategies.map((s) => (
                <option key={s.strategy} value={s.strategy}>
                  {s.strategy === "FIXED" ? tc(`strategies.${s.strategy}`) : `${tc(`strategies.${s.strategy}`)} · ${te("bidding.range", { min: s.min, max: s.max })}`}
                </option>
              ))}
            </select>
            <p id="quick-strategy-help" className="field-help">
              {te("bidding.strategyHelp")}
            </p>
            <ErrorList errors={errors.bidStrategy} />
          </div>
          <Field
            label={t("campaignBid", { currency })}
            errors={errors.campaignBid}
            help={t("campaignBidHelp")}
            inputProps={{ id: "quick-campaign-bid", name: "campaignBid", inputMode: "decimal", defaultValue: bidding.bid, autoComplete: "off", required: true, className: "money-input", autoFocus: invalid?.key === "campaignBid" }}
          />
          <Field label={t("bid", { currency })} errors={errors.bid} help={t("bidHelp")} inputProps={{ id: "quick-bid", name: "bid", inputMode: "decimal", defaultValue: state.bid, autoComplete: "off", autoFocus: invalid?.key === "bid" }} />
          <StepButtons step={step} pending={pending} />
        </Form>
      ) : null}

      {step === "products" ? <ProductsStep teamId={team.id} state={state} rows={view.rows ?? []} chosen={view.chosen ?? []} productLabel={productLabel} pending={pending} /> : null}

      {step === "keywords" ? (
        <Form method="get" action={stepAction} id="quick-keywords" aria-labelledby="quick-step-title">
          <Carried state={state} except="keywords" />
          <div className="field">
            <label htmlFor="quick-keywords-text">{t("keywords")}</label>
            <textarea id="quick-keywords-text" name="keywords" rows={10} maxLength={QUICK_KEYWORDS_MAX} defaultValue={keywordsText} aria-describedby="quick-keywords-help" />
            <p id="quick-keywords-help" className="field-help">
              {t("keywordsHelp")}
            </p>
          </div>
          <StepButtons step={step} pending={pending} />
        </Form>
      ) : null}

      {step === "categories" ? (
        <Form method="get" action={stepAction} id="quick-categories" aria-labelledby="quick-step-title">
          <Carried state={state} except="categories" />
          <input type="hidden" name="categoriesSeen" value="1" />
          {(view.categories ?? []).length ? null : <p className="muted">{t("noCategories")}</p>}
          {(["categories", "productCategories"] as const).map((field) => {
            const chosen = state[field];
            const suggested = view.categories ?? [];
            const extra = chosen.filter((id) => !suggested.some((c) => c.id === id)).map((id) => ({ id, name: view.names?.[id] ?? id }));
            return (
              <fieldset key={field}>
                <legend>{t(`${field}Legend`)}</legend>
                {[...extra, ...suggested].map((c) => (
                  <label key={c.id} className="quick-choice">
                    <input type="checkbox" name={field} value={c.id} defaultChecked={state.categoriesSeen ? chosen.includes(c.id) : field === "categories"} /> {c.name}
                  </label>
                ))}
              </fieldset>
            );
          })}
          <StepButtons step={step} pending={pending} />
        </Form>
      ) : null}

      {step === "review" ? (
        <>
          {failure ? <FormAlert title={t("failure.create")} message={tc(failure.key, failure.values)} /> : null}
          <dl className="quick-review">
            <dt>{tc("fields.name")}</dt>
            <dd>{state.name}</dd>
            <dt>{tc("fields.type")}</dt>
            <dd>{tc(`types.${state.campaignType}`)}</dd>
            <dt>{tc("fields.startDay")}</dt>
            <dd>{new Intl.DateTimeFormat(i18n.language, { dateStyle: "long", timeZone: "UTC" }).format(new Date(`${state.startDay}T00:00:00Z`))}</dd>
            <dt>{t("wallet")}</dt>
            <dd>{wallets.find((w) => w.id === state.wallet)?.name ?? t("noWallet")}</dd>
            <dt>{tc("fields.bidStrategy")}</dt>
            <dd>{tc(`strategies.${bidding.strategy}`)}</dd>
            <dt>{t("campaignBid", { currency })}</dt>
            <dd>{campaignBidCents !== null ? money(campaignBidCents) : t("none")}</dd>
            <dt>{t("bid", { currency })}</dt>
            <dd>{bidCents !== null ? money(bidCents) : t("none")}</dd>
            <dt>{t("steps.products")}</dt>
            <dd>{(view.chosen ?? []).length ? <ul>{(view.chosen ?? []).map((row) => <li key={row.id}>{productLabel(row)}</li>)}</ul> : t("none")}</dd>
            <dt>{t("keywords")}</dt>
            <dd>{keywordLines.length ? t("keywordCount", { count: keywordLines.length, list: keywordLines.slice(0, 10).join(", ") }) : t("none")}</dd>
            <dt>{t("categoriesLegend")}</dt>
            <dd>{state.categories.length ? state.categories.map((id) => view.names?.[id] ?? id).join("; ") : t("none")}</dd>
            <dt>{t("productCategoriesLegend")}</dt>
            <dd>{state.productCategories.length ? state.productCategories.map((id) => view.names?.[id] ?? id).join("; ") : t("none")}</dd>
          </dl>
          <div className="quick-actions">
            <Form method="get" action={stepAction} id="quick-review-back">
              <Carried state={state} except="review" />
              <button type="submit" name="step" value="categories" className="button">
                {t("back")}
              </button>
            </Form>
            <Form method="post" id="quick-create" action={`${location.pathname}${location.search}`}>
              <input type="hidden" name="intent" value={createQuickCampaignIntent} />
              <Carried state={state} except="review" />
              <SubmitButton pending={pending}>{t("create")}</SubmitButton>
            </Form>
          </div>
        </>
      ) : null}
    </section>
  );
}

type ProductRow = { id: string; title: string; brand: string; price: number | null };

/**
 * Where a step's GET form goes: this page at the step's title. Without JavaScript the next step
 * loads scrolled to its title and the next Tab goes on from there, not from the top of the page.
 */
function useStepAction() {
  return `${useLocation().pathname}#quick-step-title`;
}

/**
 * The products step: a GET search (`q`) listing the suggestions or the hits as checkboxes; with
 * JavaScript its field is the shared combobox (ADR 35): Enter on an option ticks that product
 * (added to the list when it is not shown), without leaving the step.
 */
function ProductsStep({ teamId, state, rows, chosen, productLabel, pending }: { teamId: string; state: State; rows: ProductRow[]; chosen: ProductRow[]; productLabel: (row: ProductRow) => string; pending: boolean }) {
  const { t } = useTranslation("quickBuilder");
  const { t: tp } = useTranslation("pickers");
  const hydrated = useHydrated();
  const stepAction = useStepAction();
  const [picked, setPicked] = useState<ProductRow[]>([]);
  const [announce, setAnnounce] = useState("");
  const form = useRef<HTMLFormElement>(null);
  // The ticked products as the form holds them (read again on each change and pick).
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const boxes = () => [...(form.current?.querySelectorAll<HTMLInputElement>('input[type="checkbox"][name="products"]') ?? [])];
  const readTicked = () => setTicked(new Set(boxes().filter((b) => b.checked).map((b) => b.value)));
  const listed = [...chosen, ...picked, ...rows].map((r) => r.id).join(" ");
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(readTicked, [listed]);
  const shown = rows.filter((row) => !state.products.includes(row.id));
  const pick = (row: ProductRow) => {
    const box = boxes().find((b) => b.value === row.id);
    if (box) {
      box.checked = true;
      readTicked();
    } else setPicked((list) => [...list, row]);
    setAnnounce(tp("quick.chosen", { title: row.title || row.id }));
  };
  return (
    <Form method="get" action={stepAction} id="quick-products" aria-labelledby="quick-step-title" ref={form} onChange={readTicked}>
      <Carried state={state} except="products" />
      <input type="hidden" name="productsSeen" value="1" />
      <div className="field">
        <label htmlFor="quick-q">{t("searchProducts")}</label>
        <SearchCombobox<ProductRow>
          inputId="quick-q"
          name="q"
          defaultValue={state.q}
          className="quick-search"
          describedBy={hydrated ? "quick-q-help" : undefined}
          searchUrl={(q) => `/teams/${encodeURIComponent(teamId)}/campaigns/quick/product-search?${new URLSearchParams({ q })}`}
          listLabel={tp("quick.listLabel")}
          optionKey={(row) => row.id}
          renderOption={(row) => <span className="picker-option-title">{productLabel(row)}</span>}
          unavailable={(row) => (ticked.has(row.id) ? tp("quick.alreadyChosen") : null)}
          onPick={pick}
          messages={{
            found: (count) => tp("quick.foundCount", { count }),
            suggested: (count) => tp("quick.suggestedCount", { count }),
            none: (query) => tp("quick.noneFound", { query }),
            failure: (title) => t(title),
          }}
          announce={announce}
          onTyping={() => setAnnounce("")}
        >
          <button type="submit" name="step" value="products" className="button">
            {t("search")}
          </button>
        </SearchCombobox>
        {hydrated ? (
          <p id="quick-q-help" className="field-help">
            {tp("quick.helpJs")}
          </p>
        ) : null}
      </div>
      <fieldset>
        <legend>{state.q ? t("found", { query: state.q }) : t("suggested")}</legend>
        {[...chosen, ...picked].map((row) => (
          <label key={row.id} className="quick-choice">
            <input type="checkbox" name="products" value={row.id} defaultChecked /> {productLabel(row)}
          </label>
        ))}
        {shown
          .filter((row) => !picked.some((p) => p.id === row.id))
          .map((row) => (
            <label key={row.id} className="quick-choice">
              <input type="checkbox" name="products" value={row.id} defaultChecked={!state.productsSeen && !state.q} /> {productLabel(row)}
            </label>
          ))}
        {!rows.length && !chosen.length && !picked.length ? <p className="muted">{t("noProducts")}</p> : null}
      </fieldset>
      <StepButtons step="products" pending={pending} />
    </Form>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
