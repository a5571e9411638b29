import { getCollectionProps, getFormProps, getInputProps, getTextareaProps, useForm, type FieldMetadata, type Submission } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { ErrorList, FormAlert, SubmitButton } from "~/components/forms";
import { currencyForLocale, formatMoney } from "~/domain/money";
import { splitMessage } from "~/domain/message";
import { can } from "~/domain/permissions";
import {
  BID_STRATEGIES,
  CAMPAIGN_TYPES,
  PLACEMENTS,
  type BidStrategy,
  type CampaignType,
  type CampaignTypeSettings,
  type Placement,
  type RetailerSettings,
} from "~/domain/retailer-settings";
import {
  placementOptions,
  resetRetailerSettingsIntent,
  ResetRetailerSettingsSchema,
  RetailerSettingsFieldsSchema,
  RetailerSettingsSchema,
  saveRetailerSettingsIntent,
  strategyOptions,
  toFormValue,
} from "~/forms/retailer-settings";
import { FloorPricesFieldsSchema, FloorPricesSchema, saveFloorPricesIntent, toFloorFormValue } from "~/forms/floor-prices";
import { requirePermission, requireUser } from "~/http/auth.server";
import { reply, replyInvalid, unknownIntent } from "~/http/reply.server";
import { getEnv } from "~/services/env.server";
import {
  readRetailerSettingsForEdit,
  resetRetailerSettings,
  updateRetailerSettings,
  type RetailerSettingsOutcome,
} from "~/services/retailer-settings.server";
import { readFloorPricesForEdit, updateFloorPrices } from "~/services/floor-prices.server";
import { formatDateTime } from "~/utils/format";
import { AccessSettingsSchema, saveAccessSettingsIntent } from "~/forms/operators";
import { readAccessSettingsForEdit, updateAccessSettings } from "~/services/access-settings.server";
import { labelDefault, placementLabelKey, slotLabelKey } from "~/domain/placement-labels";
import { SsoSettingsLink } from "~/components/sso-settings-link";
import { ImageHostsSchema, saveImageHostsIntent } from "~/forms/image-hosts";
import { readImageHostsForEdit, updateImageHosts } from "~/services/image-hosts.server";
import { pageTitle } from "~/utils/page-title";

const PATH = "/settings/retailer";

/** Operators edit; a retailer ADMIN reads (operators hold every right; retailer admins read the settings); everyone else is turned away. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "RetailerSettings");
  const [current, floorPrices] = await Promise.all([readRetailerSettingsForEdit(), readFloorPricesForEdit()]);
  return {
    ...current,
    access: await readAccessSettingsForEdit(),
    imageHosts: await readImageHostsForEdit(),
    floorPrices: floorPrices.floors,
    /** The catalog's category paths, offered while typing a category (at most 1,000). */
    categoryChoices: floorPrices.categories.slice(0, 1_000),
    canEdit: can(user, "RetailerSettings", "update"),
    currency: currencyForLocale(getEnv().RETAILER_CURRENCY_LOCALE),
    timezone: user.timezone,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, "RetailerSettings");
  // Refused before the form is read (the use cases check the right again for other callers).
  requirePermission(user, "RetailerSettings", "update");
  const formData = await request.formData();
  switch (formData.get("intent")) {
    case saveRetailerSettingsIntent: {
      const submission = parseWithZod(formData, { schema: RetailerSettingsSchema });
      if (submission.status !== "success") return replyInvalid("save" as const, submission, { with: { version: null } });
      const { version, settings } = submission.value;
      return replySettings("save", submission, await updateRetailerSettings(user, settings, version), "retailer:toast.saved");
    }
    case saveAccessSettingsIntent: {
      const submission = parseWithZod(formData, { schema: AccessSettingsSchema });
      if (submission.status !== "success") return replyInvalid("access" as const, submission, { with: { version: null } });
      const { version, staffEmailDomain, operatorTotpRequired } = submission.value;
      const outcome = await updateAccessSettings(user, { version, staffEmailDomain: staffEmailDomain ?? "", operatorTotpRequired: operatorTotpRequired === "on" });
      return reply(outcome, { form: "access" as const, submission, with: { version: null }, onSuccess: () => ({ to: PATH, toast: { type: "success" as const, title: "toast.changesSaved" } }) });
    }
    case saveFloorPricesIntent: {
      const submission = parseWithZod(formData, { schema: FloorPricesSchema });
      if (submission.status !== "success") return replyInvalid("floors" as const, submission, { with: { version: null } });
      return replySettings("floors", submission, await updateFloorPrices(user, submission.value), "retailer:toast.floorsSaved");
    }
    case saveImageHostsIntent: {
      const submission = parseWithZod(formData, { schema: ImageHostsSchema });
      if (submission.status !== "success") return replyInvalid("imageHosts" as const, submission, { with: { version: null } });
      const outcome = await updateImageHosts(user, submission.value);
      return reply(outcome, { form: "imageHosts" as const, submission, with: { version: null }, onSuccess: () => ({ to: PATH, toast: { type: "success" as const, title: "toast.changesSaved", description: "imageHosts:saved" } }) });
    }
    case resetRetailerSettingsIntent: {
      const submission = parseWithZod(formData, { schema: ResetRetailerSettingsSchema });
      if (submission.status !== "success") return replyInvalid("reset" as const, submission, { with: { version: null } });
      return replySettings("reset", submission, await resetRetailerSettings(user, submission.value.version), "retailer:toast.reset");
    }
    default:
      return unknownIntent();
  }
}

/**
 * A save or reset keeps the user's input when refused; after a conflict, the form carries the
 * version read now, so the next try is based on it (the page's own data is not reloaded).
 */
async function replySettings<F extends "save" | "reset" | "floors">(
  form: F,
  submission: Submission<unknown>,
  outcome: RetailerSettingsOutcome,
  description: string,
) {
  const version = !outcome.ok && outcome.kind === "conflict" ? (await readRetailerSettingsForEdit()).version : null;
  return reply(outcome, {
    form,
    submission,
    with: { version },
    onSuccess: () => ({ to: PATH, toast: { type: "success", title: "toast.changesSaved", description } }),
  });
}

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "retailer");

export default function RetailerSettingsRoute() {
  const { t, i18n } = useTranslation("retailer");
  const { canEdit, isDefault, updated, updatedBy, timezone, version, settings, currency } = useLoaderData<typeof loader>();
  return (
    <>
      <p className="breadcrumb">
        <Link to="/settings">{t("backToSettings")}</Link>
      </p>
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      <p className="muted">
        {isDefault ? t("defaultsInForce") : t("lastChange", { by: updatedBy, at: formatDateTime(updated, i18n.language, timezone) })}
      </p>
      {canEdit ? (
        <>
          {/* A new version (after a save or a reset) starts the form again from the saved values. */}
          <SettingsForm key={version} />
          <FloorPricesForm key={`floors-${version}`} />
          <ResetPanel />
        </>
      ) : (
        <>
          <SettingsFacts settings={settings} currency={currency} />
          <FloorPricesFacts />
        </>
      )}
      <AccessPanel canEdit={canEdit} />
      <ImageHostsPanel key={`image-hosts-${version}`} canEdit={canEdit} />
      {canEdit ? <SsoSettingsLink /> : null}
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// The operators' form

type Fields = ReturnType<typeof useSettingsForm>[1];

function useSettingsForm() {
  const { i18n } = useTranslation();
  const { settings } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return useForm({
    id: "retailer-settings-form",
    lastResult: actionData?.form === "save" ? actionData.result : undefined,
    constraint: getZodConstraint(RetailerSettingsFieldsSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RetailerSettingsSchema }),
    defaultValue: toFormValue(settings, i18n.language),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
}

function SettingsForm() {
  const { t } = useTranslation("retailer");
  const { settings, version, currency } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === saveRetailerSettingsIntent;
  const [form, fields] = useSettingsForm();
  const conflict = actionData?.form === "save" && "kind" in actionData && actionData.kind === "conflict";
  const types = fields.types.getFieldset();
  return (
    <Form method="post" {...getFormProps(form)}>
      <input type="hidden" name="intent" value={saveRetailerSettingsIntent} />
      <input type="hidden" name="version" value={(actionData?.form === "save" ? actionData.version : null) ?? version} />
      {form.errors?.length ? (
        <FormAlert title={t(conflict ? "common:errors.conflictTitle" : "common:errors.errorOccurred")} message={t(form.errors[0]!)} />
      ) : Object.values(form.allErrors).some((errors) => errors.length) ? (
        // Field errors can be far down this long form: say so at the top, where the page opens.
        <FormAlert title={t("common:errors.conflictTitle")} message={t("errors.invalid")} />
      ) : null}

      <section className="panel" aria-labelledby="retailer-types-title">
        <h2 id="retailer-types-title">{t("types.title")}</h2>
        <fieldset className="retailer-choices" aria-describedby={describedBy(fields.enabledTypes, "retailer-enabled-help")}>
          <legend>{t("types.enabled")}</legend>
          {getCollectionProps(fields.enabledTypes, { type: "checkbox", options: [...CAMPAIGN_TYPES] }).map(({ key, ...props }) => (
            <div className="field checkbox" key={key}>
              <input {...props} />
              <label htmlFor={props.id}>{t(`campaignTypes.${props.value}`)}</label>
            </div>
          ))}
          <div className="field checkbox">
            <input type="checkbox" id="retailer-sponsored-display" disabled />
            <label htmlFor="retailer-sponsored-display">{t("types.unavailable", { type: t("campaignTypes.sponsored-display") })}</label>
          </div>
          <p id="retailer-enabled-help" className="field-help">
            {t("types.enabledHelp")}
          </p>
          <ErrorList id={fields.enabledTypes.errorId} errors={fields.enabledTypes.errors} />
        </fieldset>
      </section>

      {CAMPAIGN_TYPES.map((type) => (
        <TypeSection key={type} type={type} fields={types[type].getFieldset()} typeSettings={settings.types[type]} currency={currency} />
      ))}

      <BannerSection fields={fields} bannerPlacements={settings.types["banner-ads"].placements} />

      <section className="panel" aria-labelledby="retailer-options-title">
        <h2 id="retailer-options-title">{t("options.title")}</h2>
        {(["preview", "lmRetailer", "floorPrices", "suggestedBids", "fixedCpc"] as const).map((flag) => (
          <div className="field checkbox" key={flag}>
            <input {...getInputProps(fields[flag], { type: "checkbox" })} key={fields[flag].key} />
            <label htmlFor={fields[flag].id}>{t(`options.${flag}`)}</label>
          </div>
        ))}
        <TextField field={fields.globalMinBid} label={t("options.globalMinBid", { currency })} help={t("options.globalMinBidHelp")} inputMode="decimal" />
      </section>

      <SubmitButton pending={pending}>{t("save")}</SubmitButton>
    </Form>
  );
}

function describedBy(field: { errors?: string[]; errorId: string }, helpId?: string): string | undefined {
  return [field.errors?.length ? field.errorId : null, helpId].filter(Boolean).join(" ") || undefined;
}

function invalid(field: { errors?: string[] }): true | undefined {
  return field.errors?.length ? true : undefined;
}

function TextField({
  field,
  label,
  help,
  inputMode,
}: {
  field: FieldMetadata<string | undefined>;
  label: string;
  help?: string;
  inputMode?: "decimal" | "text";
}) {
  const helpId = help ? `${field.id}-help` : undefined;
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <input
        {...getInputProps(field, { type: "text" })}
        key={field.key}
        inputMode={inputMode}
        aria-invalid={invalid(field)}
        aria-describedby={describedBy(field, helpId)}
      />
      {help ? (
        <p id={helpId} className="field-help">
          {help}
        </p>
      ) : null}
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

/** A group of checkboxes (strategies, placements) with its legend, help and errors. */
function CheckboxGroup<T extends string>({
  field,
  legend,
  help,
  options,
  label,
}: {
  field: FieldMetadata<T[] | undefined>;
  legend: string;
  help?: string;
  options: readonly T[];
  label: (value: T) => string;
}) {
  const helpId = help ? `${field.id}-help` : undefined;
  return (
    <fieldset className="retailer-choices" aria-describedby={describedBy(field, helpId)}>
      <legend>{legend}</legend>
      <div className="retailer-choice-list">
        {getCollectionProps(field, { type: "checkbox", options: [...options] }).map(({ key, ...props }) => (
          <div className="field checkbox" key={key}>
            <input {...props} aria-invalid={undefined} aria-describedby={undefined} />
            <label htmlFor={props.id}>{label(props.value as T)}</label>
          </div>
        ))}
      </div>
      {help ? (
        <p id={helpId} className="field-help">
          {help}
        </p>
      ) : null}
      <ErrorList id={field.errorId} errors={field.errors} />
    </fieldset>
  );
}

type TypeFields = ReturnType<Fields["types"]["getFieldset"]>[CampaignType] extends infer F
  ? F extends { getFieldset: () => infer S }
    ? S
    : never
  : never;

function TypeSection({
  type,
  fields,
  typeSettings,
  currency,
}: {
  type: CampaignType;
  fields: TypeFields;
  typeSettings: CampaignTypeSettings;
  currency: string;
}) {
  const { t } = useTranslation("retailer");
  const strategies = strategyOptions(typeSettings);
  const placements = placementOptions(typeSettings.placements);
  const limits = fields.limits.getFieldset();
  const titleId = `retailer-${type}-title`;
  return (
    <section className="panel" aria-labelledby={titleId}>
      <h2 id={titleId}>{t(`campaignTypes.${type}`)}</h2>
      <div className="retailer-columns">
        <CheckboxGroup
          field={fields.strategies}
          legend={t("types.strategies")}
          help={t("types.strategiesHelp")}
          options={strategies}
          label={(s) => t(`campaigns:strategies.${s}`)}
        />
        <CheckboxGroup
          field={fields.sellerStrategies}
          legend={t("types.sellerStrategies")}
          help={t("types.sellerStrategiesHelp")}
          options={strategies}
          label={(s) => t(`campaigns:strategies.${s}`)}
        />
      </div>

      <div className="table-wrap retailer-table">
        <table>
          <caption>{t("types.limits", { currency })}</caption>
          <thead>
            <tr>
              <th scope="col">{t("types.strategy")}</th>
              <th scope="col">{t("types.min")}</th>
              <th scope="col">{t("types.max")}</th>
            </tr>
          </thead>
          <tbody>
            {BID_STRATEGIES.map((strategy) => {
              const ends = limits[strategy].getFieldset();
              return (
                <tr key={strategy}>
                  <th scope="row">{t(`strategyShort.${strategy}`)}</th>
                  <td>
                    <CellInput field={ends.min} label={t("types.minFor", { strategy: t(`strategyShort.${strategy}`) })} inputMode="decimal" />
                  </td>
                  <td>
                    <CellInput field={ends.max} label={t("types.maxFor", { strategy: t(`strategyShort.${strategy}`) })} inputMode="decimal" />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p className="field-help retailer-after-table">{t("types.limitsHelp")}</p>

      <CheckboxGroup field={fields.placements} legend={t("types.placements")} options={placements} label={(p) => t(placementLabelKey(p), labelDefault(p))} />

      <RowsTable
        rows={fields.slots}
        caption={t("types.slots")}
        help={t("types.slotsHelp")}
        nameHeader={t("types.slotName")}
        placements={placements}
        texts={{
          name: (n) => t("types.slotNameFor", { n }),
          serves: (n, placement) => t("types.serves", { n, placement: t(placementLabelKey(placement), labelDefault(placement)) }),
          remove: (n) => t("types.removeSlot", { n }),
        }}
        idPrefix={`retailer-${type}-slots`}
      />

      <fieldset className="retailer-choices">
        <legend>{t("types.moderation")}</legend>
        <div className="field checkbox">
          <input {...getInputProps(fields.moderation, { type: "checkbox" })} key={fields.moderation.key} />
          <label htmlFor={fields.moderation.id}>{t("types.moderationLabel")}</label>
        </div>
      </fieldset>
    </section>
  );
}

/** A table row's "remove" checkbox, offered once the row holds something. */
function RemoveCell({ field, label, shown }: { field: FieldMetadata<string | undefined>; label: string; shown: boolean }) {
  return (
    <td className="retailer-check-cell">
      {shown ? (
        <>
          <input {...getInputProps(field, { type: "checkbox" })} key={field.key} />
          <label className="visually-hidden" htmlFor={field.id}>
            {label}
          </label>
        </>
      ) : null}
    </td>
  );
}

function CellInput({ field, label, inputMode }: { field: FieldMetadata<string | undefined>; label: string; inputMode?: "decimal" }) {
  return (
    <div className="retailer-cell">
      <label className="visually-hidden" htmlFor={field.id}>
        {label}
      </label>
      <input
        {...getInputProps(field, { type: "text" })}
        key={field.key}
        inputMode={inputMode}
        size={10}
        aria-invalid={invalid(field)}
        aria-describedby={describedBy(field)}
      />
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

type RowFields = FieldMetadata<{ name?: string; placements: Placement[]; remove?: string }[] | undefined>;

/** Named rows (slots, banner sizes) with a checkbox per placement, and blank rows to add more. */
function RowsTable({
  rows,
  caption,
  help,
  nameHeader,
  placements,
  texts,
  idPrefix,
}: {
  rows: RowFields;
  caption: string;
  help: string;
  nameHeader: string;
  placements: readonly Placement[];
  texts: { name: (n: number) => string; serves: (n: number, placement: Placement) => string; remove: (n: number) => string };
  idPrefix: string;
}) {
  const { t } = useTranslation("retailer");
  const helpId = `${idPrefix}-help`;
  const list = rows.getFieldList();
  return (
    <>
      <div className="table-wrap retailer-table">
        <table aria-describedby={helpId}>
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">{nameHeader}</th>
              {placements.map((p) => (
                <th scope="col" key={p}>
                  {t(placementLabelKey(p), labelDefault(p))}
                </th>
              ))}
              <th scope="col">{t("types.remove")}</th>
            </tr>
          </thead>
          <tbody>
            {list.map((row, index) => {
              const cells = row.getFieldset();
              const n = index + 1;
              const chosen = cells.placements.initialValue;
              const isChosen = (p: Placement) => (Array.isArray(chosen) ? chosen.includes(p) : chosen === p);
              const rowErrors = [...(cells.name.errors ?? []), ...(cells.placements.errors ?? [])];
              const errorId = `${idPrefix}-${index}-errors`;
              return (
                <tr key={row.key}>
                  <td>
                    <label className="visually-hidden" htmlFor={cells.name.id}>
                      {texts.name(n)}
                    </label>
                    <input
                      {...getInputProps(cells.name, { type: "text" })}
                      key={cells.name.key}
                      size={12}
                      aria-invalid={invalid(cells.name)}
                      aria-describedby={rowErrors.length ? errorId : undefined}
                    />
                    <ErrorList id={errorId} errors={rowErrors} />
                  </td>
                  {placements.map((p) => {
                    const id = `${cells.placements.id}-${p}`;
                    return (
                      <td key={p} className="retailer-check-cell">
                        <input type="checkbox" id={id} name={cells.placements.name} value={p} defaultChecked={isChosen(p)} key={`${cells.placements.key ?? ""}${p}`} />
                        <label className="visually-hidden" htmlFor={id}>
                          {texts.serves(n, p)}
                        </label>
                      </td>
                    );
                  })}
                  <RemoveCell field={cells.remove} label={texts.remove(n)} shown={!!cells.name.initialValue} />
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p id={helpId} className="field-help retailer-after-table">
        {help}
      </p>
    </>
  );
}

function BannerSection({ fields, bannerPlacements }: { fields: Fields; bannerPlacements: readonly Placement[] }) {
  const { t } = useTranslation("retailer");
  const placements = placementOptions(bannerPlacements);
  return (
    <section className="panel" aria-labelledby="retailer-banners-title">
      <h2 id="retailer-banners-title">{t("banners.title")}</h2>
      <RowsTable
        rows={fields.bannerSizes}
        caption={t("banners.sizes")}
        help={t("banners.sizesHelp")}
        nameHeader={t("banners.size")}
        placements={placements}
        texts={{
          name: (n) => t("banners.sizeFor", { n }),
          serves: (n, placement) => t("banners.serves", { n, placement: t(placementLabelKey(placement), labelDefault(placement)) }),
          remove: (n) => t("banners.removeSize", { n }),
        }}
        idPrefix="retailer-banner-sizes"
      />
      <TextField field={fields.storedBannerSizes} label={t("banners.stored")} help={t("banners.storedHelp")} />
    </section>
  );
}

// ---------------------------------------------------------------------------------------------
// Floor prices per keyword and category (their own form: saved apart from the settings above)

type FloorRowFields = FieldMetadata<{ keyword?: string; category?: string; price?: string; remove?: string }[] | undefined>;

function FloorPricesForm() {
  const { t, i18n } = useTranslation("retailer");
  const { floorPrices, categoryChoices, version, currency, settings } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === saveFloorPricesIntent;
  const [form, fields] = useForm({
    id: "floor-prices-form",
    lastResult: actionData?.form === "floors" ? actionData.result : undefined,
    constraint: getZodConstraint(FloorPricesFieldsSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: FloorPricesSchema }),
    defaultValue: toFloorFormValue(floorPrices, i18n.language),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const conflict = actionData?.form === "floors" && "kind" in actionData && actionData.kind === "conflict";
  const hasFieldErrors = Object.entries(form.allErrors).some(([name, errors]) => name !== "" && errors.length);
  return (
    <section className="panel" aria-labelledby="retailer-floors-title">
      <h2 id="retailer-floors-title">{t("floors.title")}</h2>
      <p className="muted">{t("floors.intro")}</p>
      {settings.floorPrices ? null : <p className="notice">{t("floors.off")}</p>}
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value={saveFloorPricesIntent} />
        <input type="hidden" name="version" value={(actionData?.form === "floors" ? actionData.version : null) ?? version} />
        {form.errors?.length ? (
          <FormAlert title={t(conflict ? "common:errors.conflictTitle" : "common:errors.errorOccurred")} message={t(form.errors[0]!)} />
        ) : hasFieldErrors ? (
          <FormAlert title={t("common:errors.conflictTitle")} message={t("errors.invalid")} />
        ) : null}
        <FloorRows
          rows={fields.keywords as FloorRowFields}
          name="keyword"
          caption={t("floors.keywords", { currency })}
          header={t("floors.keyword")}
          help={t("floors.keywordsHelp")}
          idPrefix="retailer-floor-keywords"
          texts={{ name: (n) => t("floors.keywordFor", { n }), price: (n) => t("floors.priceForKeyword", { n }), remove: (n) => t("floors.removeKeyword", { n }) }}
        />
        <FloorRows
          rows={fields.categories as FloorRowFields}
          name="category"
          caption={t("floors.categories", { currency })}
          header={t("floors.category")}
          help={t("floors.categoriesHelp")}
          idPrefix="retailer-floor-categories"
          list="retailer-category-choices"
          texts={{ name: (n) => t("floors.categoryFor", { n }), price: (n) => t("floors.priceForCategory", { n }), remove: (n) => t("floors.removeCategory", { n }) }}
        />
        <datalist id="retailer-category-choices">
          {categoryChoices.map((path) => (
            <option key={path} value={path} />
          ))}
        </datalist>
        <SubmitButton pending={pending}>{t("floors.save")}</SubmitButton>
      </Form>
    </section>
  );
}

/** Rows of a text (keyword or category), a floor price and a 'remove' tick, with blank rows to add more. */
function FloorRows({
  rows,
  name,
  caption,
  header,
  help,
  idPrefix,
  list,
  texts,
}: {
  rows: FloorRowFields;
  name: "keyword" | "category";
  caption: string;
  header: string;
  help: string;
  idPrefix: string;
  list?: string;
  texts: { name: (n: number) => string; price: (n: number) => string; remove: (n: number) => string };
}) {
  const { t } = useTranslation("retailer");
  const helpId = `${idPrefix}-help`;
  return (
    <>
      <div className="table-wrap retailer-table">
        <table aria-describedby={helpId}>
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">{header}</th>
              <th scope="col">{t("floors.price")}</th>
              <th scope="col">{t("types.remove")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.getFieldList().map((row, index) => {
              const cells = row.getFieldset();
              const text = cells[name];
              const n = index + 1;
              return (
                <tr key={row.key}>
                  <td>
                    <label className="visually-hidden" htmlFor={text.id}>
                      {texts.name(n)}
                    </label>
                    <input
                      {...getInputProps(text, { type: "text" })}
                      key={text.key}
                      list={list}
                      className="retailer-floor-target"
                      size={name === "category" ? 36 : 20}
                      aria-invalid={invalid(text)}
                      aria-describedby={describedBy(text)}
                    />
                    <ErrorList id={text.errorId} errors={text.errors} />
                  </td>
                  <td>
                    <CellInput field={cells.price} label={texts.price(n)} inputMode="decimal" />
                  </td>
                  <RemoveCell field={cells.remove} label={texts.remove(n)} shown={!!text.initialValue} />
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p id={helpId} className="field-help retailer-after-table">
        {help}
      </p>
    </>
  );
}

/** The floor prices, read only (retailer ADMIN). */
function FloorPricesFacts() {
  const { t, i18n } = useTranslation("retailer");
  const { floorPrices, currency } = useLoaderData<typeof loader>();
  const money = (cents: number) => formatMoney(cents, currency, i18n.language);
  const empty = !floorPrices.keywords.length && !floorPrices.categories.length;
  return (
    <section className="panel" aria-labelledby="retailer-floors-title">
      <h2 id="retailer-floors-title">{t("floors.title")}</h2>
      <p className="muted">{t("floors.intro")}</p>
      {empty ? (
        <p>{t("floors.none")}</p>
      ) : (
        <div className="table-wrap retailer-table">
          <table>
            <caption>{t("floors.title")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("floors.target")}</th>
                <th scope="col">{t("floors.price")}</th>
              </tr>
            </thead>
            <tbody>
              {floorPrices.keywords.map((f) => (
                <tr key={`k-${f.keyword}`}>
                  <th scope="row">{t("floors.keywordNamed", { keyword: f.label || f.keyword })}</th>
                  <td>{money(f.cents)}</td>
                </tr>
              ))}
              {floorPrices.categories.map((f) => (
                <tr key={`c-${f.id}`}>
                  <th scope="row">{t("floors.categoryNamed", { category: f.path })}</th>
                  <td>{money(f.cents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

// ---------------------------------------------------------------------------------------------
// Reset to defaults: a confirm step inside a disclosure (works without JS)

function ResetPanel() {
  const { t } = useTranslation("retailer");
  const { version } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === resetRetailerSettingsIntent;
  const errors = actionData?.form === "reset" ? actionData.result?.error?.[""] : null;
  return (
    <section className="panel" aria-labelledby="retailer-reset-title">
      <h2 id="retailer-reset-title">{t("reset.title")}</h2>
      <p className="muted">{t("reset.help")}</p>
      {errors?.length ? <FormAlert title={t("common:errors.conflictTitle")} message={t(errors[0]!)} /> : null}
      <details className="confirm" open={errors?.length ? true : undefined}>
        <summary>{t("reset.action")}</summary>
        <div className="confirm-body">
          <p>{t("reset.question")}</p>
          <Form method="post">
            <input type="hidden" name="intent" value={resetRetailerSettingsIntent} />
            <input type="hidden" name="version" value={(actionData?.form === "reset" ? actionData.version : null) ?? version} />
            <SubmitButton pending={pending}>{t("reset.confirm")}</SubmitButton>
          </Form>
        </div>
      </details>
    </section>
  );
}

// ---------------------------------------------------------------------------------------------
// Read-only (retailer ADMIN)

function SettingsFacts({ settings, currency }: { settings: RetailerSettings; currency: string }) {
  const { t, i18n } = useTranslation("retailer");
  const money = (cents: number) => formatMoney(cents, currency, i18n.language);
  const onOff = (value: boolean) => t(value ? "values.on" : "values.off");
  const labelKey = { strategies: (v: string) => `campaigns:strategies.${v}`, placements: placementLabelKey, campaignTypes: (v: string) => `campaignTypes.${v}` };
  const list = (values: readonly string[], ns: keyof typeof labelKey) =>
    values.length ? values.map((v) => t(labelKey[ns](v), labelDefault(v))).join(", ") : t("values.none");
  return (
    <>
      <p className="notice">{t("readOnly")}</p>
      <section className="panel" aria-labelledby="retailer-types-title">
        <h2 id="retailer-types-title">{t("types.title")}</h2>
        <dl className="facts">
          <dt>{t("types.enabled")}</dt>
          <dd>{list(settings.enabledTypes, "campaignTypes")}</dd>
        </dl>
      </section>
      {CAMPAIGN_TYPES.map((type) => {
        const s = settings.types[type];
        const limited = BID_STRATEGIES.filter((k) => s.strategies.includes(k) || s.bidLimits[k]);
        return (
          <section className="panel" key={type} aria-labelledby={`retailer-${type}-title`}>
            <h2 id={`retailer-${type}-title`}>{t(`campaignTypes.${type}`)}</h2>
            <dl className="facts">
              <dt>{t("types.strategies")}</dt>
              <dd>{list(s.strategies, "strategies")}</dd>
              <dt>{t("types.sellerStrategies")}</dt>
              <dd>{s.strategiesByAccountType.marketplace_seller ? list(s.strategiesByAccountType.marketplace_seller, "strategies") : t("types.sameAsAll")}</dd>
              <dt>{t("types.placements")}</dt>
              <dd>{list(s.placements, "placements")}</dd>
              <dt>{t("types.moderation")}</dt>
              <dd>{onOff(s.moderation)}</dd>
            </dl>
            <div className="table-wrap retailer-table">
              <table>
                <caption>{t("types.limits", { currency })}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("types.strategy")}</th>
                    <th scope="col">{t("types.min")}</th>
                    <th scope="col">{t("types.max")}</th>
                  </tr>
                </thead>
                <tbody>
                  {limited.map((strategy: BidStrategy) => {
                    const limit = s.bidLimits[strategy];
                    return (
                      <tr key={strategy}>
                        <th scope="row">{t(`strategyShort.${strategy}`)}</th>
                        <td>{limit ? money(limit.minCents) : t("types.noLimit")}</td>
                        <td>{limit ? money(limit.maxCents) : t("types.noLimit")}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            <RowsFacts caption={t("types.slots")} nameHeader={t("types.slotName")} rows={s.slots} nameOf={(slot) => t(slotLabelKey(slot), labelDefault(slot))} />
          </section>
        );
      })}
      <section className="panel" aria-labelledby="retailer-banners-title">
        <h2 id="retailer-banners-title">{t("banners.title")}</h2>
        <RowsFacts caption={t("banners.sizes")} nameHeader={t("banners.size")} rows={settings.bannerSizes} />
        <dl className="facts retailer-after-table">
          <dt>{t("banners.stored")}</dt>
          <dd>{settings.storedBannerSizes.join(", ") || t("values.none")}</dd>
        </dl>
      </section>
      <section className="panel" aria-labelledby="retailer-options-title">
        <h2 id="retailer-options-title">{t("options.title")}</h2>
        <dl className="facts">
          {(["preview", "lmRetailer", "floorPrices", "suggestedBids", "fixedCpc"] as const).map((flag) => (
            <Fragment key={flag}>
              <dt>{t(`options.${flag}`)}</dt>
              <dd>{onOff(settings[flag])}</dd>
            </Fragment>
          ))}
          <dt>{t("options.globalMinBid", { currency })}</dt>
          <dd>{settings.globalMinBidCents === null ? t("options.none") : money(settings.globalMinBidCents)}</dd>
        </dl>
      </section>
    </>
  );
}

function RowsFacts({ caption, nameHeader, rows, nameOf = (name) => name }: { caption: string; nameHeader: string; rows: Record<string, Placement[]>; nameOf?: (name: string) => string }) {
  const { t } = useTranslation("retailer");
  return (
    <div className="table-wrap retailer-table">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{nameHeader}</th>
            <th scope="col">{t("types.placements")}</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(rows).map(([name, placements]) => (
            <tr key={name}>
              <th scope="row">{nameOf(name)}</th>
              <td>{placements.filter((p) => (PLACEMENTS as readonly string[]).includes(p)).map((p) => t(placementLabelKey(p), labelDefault(p))).join(", ")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";

/** Access (issue 12): the retailer staff e-mail domain and the operators' second factor; operators edit. */
function AccessPanel({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation("operators");
  const { access } = useLoaderData<typeof loader>();
  const actionData = useActionData<{ form?: string; error?: string }>();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === saveAccessSettingsIntent;
  const error = actionData?.form === "access" ? actionData.error : undefined;
  return (
    <section className="panel" aria-labelledby="access-settings">
      <h2 id="access-settings">{t("access.title")}</h2>
      {canEdit ? (
        <Form method="post" key={access.version}>
          <input type="hidden" name="intent" value={saveAccessSettingsIntent} />
          <input type="hidden" name="version" value={access.version} />
          {error ? <p className="field-error" role="alert">{t(error, { ns: ["operators", "common", "retailer"] })}</p> : null}
          <div className="field">
            <label htmlFor="staff-domain">{t("access.staffDomain")}</label>
            <input id="staff-domain" name="staffEmailDomain" defaultValue={access.staffEmailDomain} aria-describedby="staff-domain-help" />
            <p id="staff-domain-help" className="field-help">{t("access.staffDomainHelp")}</p>
          </div>
          <div className="field checkbox-field">
            <input id="operator-totp" type="checkbox" name="operatorTotpRequired" defaultChecked={access.operatorTotpRequired} />
            <label htmlFor="operator-totp">{t("access.totpRequired")}</label>
          </div>
          <SubmitButton pending={pending}>{t("access.save")}</SubmitButton>
        </Form>
      ) : (
        <dl className="facts">
          <dt>{t("access.staffDomain")}</dt>
          <dd>{access.staffEmailDomain || t("access.none")}</dd>
          <dt>{t("access.totpRequired")}</dt>
          <dd>{access.operatorTotpRequired ? t("access.yes") : t("access.no")}</dd>
        </dl>
      )}
    </section>
  );
}

/** The product image hosts (ADR 34): https origins the pages load product pictures from; operators edit. */
function ImageHostsPanel({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation("imageHosts");
  const { imageHosts } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === saveImageHostsIntent;
  const [form, fields] = useForm({
    id: "image-hosts-form",
    lastResult: actionData?.form === "imageHosts" ? actionData.result : undefined,
    constraint: getZodConstraint(ImageHostsSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ImageHostsSchema }),
    defaultValue: { hosts: imageHosts.hosts.join("\n") },
    shouldValidate: "onSubmit",
  });
  const message = (m: string) => {
    const { key, values } = splitMessage(m);
    return t(key, { ...values, ns: ["imageHosts", "retailer", "common"] });
  };
  const conflict = actionData?.form === "imageHosts" && "kind" in actionData && actionData.kind === "conflict";
  return (
    <section className="panel" aria-labelledby="image-hosts-title">
      <h2 id="image-hosts-title">{t("title")}</h2>
      <p className="muted">{t("intro")}</p>
      {canEdit ? (
        <Form method="post" {...getFormProps(form)}>
          <input type="hidden" name="intent" value={saveImageHostsIntent} />
          <input type="hidden" name="version" value={(actionData?.form === "imageHosts" ? actionData.version : null) ?? imageHosts.version} />
          {form.errors?.length ? <FormAlert title={t(conflict ? "common:errors.conflictTitle" : "common:errors.errorOccurred")} message={message(form.errors[0]!)} /> : null}
          <div className="field">
            <label htmlFor={fields.hosts.id}>{t("label")}</label>
            <textarea
              {...getTextareaProps(fields.hosts)}
              rows={4}
              // Without JavaScript the refused form comes back at the top of this long page: the field takes the focus.
              autoFocus={!!fields.hosts.errors?.length}
              spellCheck={false}
              autoCapitalize="off"
              aria-describedby={fields.hosts.errors?.length ? `${fields.hosts.descriptionId} ${fields.hosts.errorId}` : fields.hosts.descriptionId}
            />
            <p id={fields.hosts.descriptionId} className="field-help">
              {t("help")}
            </p>
            <ErrorList id={fields.hosts.errorId} errors={fields.hosts.errors} />
          </div>
          <SubmitButton pending={pending}>{t("save")}</SubmitButton>
        </Form>
      ) : imageHosts.hosts.length ? (
        <ul>
          {imageHosts.hosts.map((host) => (
            <li key={host}>
              <code>{host}</code>
            </li>
          ))}
        </ul>
      ) : (
        <p>{t("none")}</p>
      )}
    </section>
  );
}
