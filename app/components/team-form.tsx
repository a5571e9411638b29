/** The team form's fields, shared by the create and edit pages. */
import { getInputProps } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { LOGO_MAX_BYTES } from "~/domain/team-form";
import { ALLOWED_TEAM_ACCOUNT_TYPES, INTERNAL_BILLING_TAG } from "~/domain/types";
import { ErrorList, Field } from "~/components/forms";
import { SelectField, type AnyField } from "~/components/select-field";

type TeamFieldName =
  | "name"
  | "account_type"
  | "contact"
  | "address"
  | "zip_code"
  | "city"
  | "state"
  | "country"
  | "internalBilling"
  | "tags"
  | "associated_brands"
  | "marketplace_seller_id"
  | "external_id"
  | "logo";


/**
 * The fields of the team form (create and edit). The form itself (method, encType, intent,
 * version) belongs to the page.
 */
export function TeamFormFields({
  fields,
  logoUrl,
}: {
  fields: Record<TeamFieldName, AnyField> & { removeLogo?: AnyField };
  /** The current logo, on edit. */
  logoUrl?: string | null;
}) {
  const { t } = useTranslation("teams");
  const logoHelpId = `${fields.logo.id}-help`;
  const logoErrorId = fields.logo.errors?.length ? `${fields.logo.id}-error` : undefined;
  const { key: logoKey, ...logoProps } = getInputProps(fields.logo, { type: "file" });
  return (
    <>
      <div className="field-row">
        <Field label={t("fields.name")} inputProps={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "organization" }} errors={fields.name.errors} />
        <SelectField field={fields.account_type} label={t("fields.accountType")}>
          {ALLOWED_TEAM_ACCOUNT_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`accountTypes.${type}`)}
            </option>
          ))}
        </SelectField>
      </div>

      <fieldset>
        <legend>{t("form.contactDetails")}</legend>
        <Field label={t("fields.contact")} inputProps={getInputProps(fields.contact, { type: "text" })} errors={fields.contact.errors} />
        <Field label={t("fields.address")} inputProps={{ ...getInputProps(fields.address, { type: "text" }), autoComplete: "street-address" }} errors={fields.address.errors} />
        <div className="field-row">
          <Field label={t("fields.zipCode")} inputProps={{ ...getInputProps(fields.zip_code, { type: "text" }), autoComplete: "postal-code" }} errors={fields.zip_code.errors} />
          <Field label={t("fields.city")} inputProps={{ ...getInputProps(fields.city, { type: "text" }), autoComplete: "address-level2" }} errors={fields.city.errors} />
        </div>
        <div className="field-row">
          <Field label={t("fields.state")} inputProps={{ ...getInputProps(fields.state, { type: "text" }), autoComplete: "address-level1" }} errors={fields.state.errors} />
          <Field label={t("fields.country")} inputProps={{ ...getInputProps(fields.country, { type: "text" }), autoComplete: "country-name" }} errors={fields.country.errors} />
        </div>
      </fieldset>

      <fieldset>
        <legend>{t("form.logo")}</legend>
        {logoUrl ? (
          <div className="team-logo-current">
            <img src={logoUrl} alt={t("form.currentLogo")} width={64} height={64} className="team-logo" />
            {fields.removeLogo ? (
              <div className="field checkbox">
                <input {...getInputProps(fields.removeLogo, { type: "checkbox" })} key={fields.removeLogo.key} />
                <label htmlFor={fields.removeLogo.id}>{t("form.removeLogo")}</label>
              </div>
            ) : null}
          </div>
        ) : null}
        <div className="field">
          <label htmlFor={fields.logo.id}>{t(logoUrl ? "fields.newLogo" : "fields.logo")}</label>
          <input
            key={logoKey ?? undefined}
            {...logoProps}
            accept="image/png,image/jpeg,image/webp"
            aria-invalid={logoErrorId ? true : undefined}
            aria-describedby={[logoErrorId, logoHelpId].filter(Boolean).join(" ")}
          />
          <p id={logoHelpId} className="field-help">
            {t("form.logoHelp", { size: Math.round(LOGO_MAX_BYTES / (1024 * 1024)) })}
          </p>
          <ErrorList id={logoErrorId} errors={fields.logo.errors} />
        </div>
      </fieldset>

      <fieldset>
        <legend>{t("form.tagsAndIds")}</legend>
        <div className="field checkbox">
          <input {...getInputProps(fields.internalBilling, { type: "checkbox" })} key={fields.internalBilling.key} />
          <label htmlFor={fields.internalBilling.id}>{t("form.internalBilling", { tag: INTERNAL_BILLING_TAG })}</label>
        </div>
        <Field label={t("fields.otherTags")} inputProps={getInputProps(fields.tags, { type: "text" })} errors={fields.tags.errors} help={t("form.commaSeparated")} />
        <Field
          label={t("fields.associatedBrands")}
          inputProps={getInputProps(fields.associated_brands, { type: "text" })}
          errors={fields.associated_brands.errors}
          help={t("form.commaSeparated")}
        />
        <div className="field-row">
          <Field label={t("fields.marketplaceSellerId")} inputProps={getInputProps(fields.marketplace_seller_id, { type: "text" })} errors={fields.marketplace_seller_id.errors} />
          <Field label={t("fields.externalId")} inputProps={getInputProps(fields.external_id, { type: "text" })} errors={fields.external_id.errors} />
        </div>
      </fieldset>
    </>
  );
}
