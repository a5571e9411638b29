/**
 * The CSV import of a campaign's SKUs (issue 10 section 2): a multipart POST form (works without
 * JavaScript) and the report of the last import: imported, already present, unknown identifiers
 * and the lines without a value.
 */
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { SubmissionResult } from "@conform-to/react";
import { Form, useLocation, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ErrorList, FormAlert, SubmitButton } from "~/components/forms";
import { SKU_COLUMNS, SKU_CSV_MAX_BYTES } from "~/domain/campaigns/product-csv";
import { splitMessage } from "~/domain/message";
import { ImportProductsSchema, importProductsIntent } from "~/forms/campaigns/product-import";
import { numberFormat } from "~/domain/intl";

export interface ImportAnswer {
  form: "import";
  result: SubmissionResult<string[]>;
  failure: string | null;
  message: string | null;
  report: { column: string; imported: number; present: string[]; unknown: string[]; bad: number[] } | null;
}

/** Lists at most this many identifiers or line numbers, then "and N more". */
const SHOWN = 50;

export function ProductImport({ version, answer, here }: { version: number; answer: ImportAnswer | null; here: string }) {
  // The page comes back to the list's page, period and search it was on.
  const location = useLocation();
  const { t, i18n } = useTranslation(["campaignProductPicker", "campaignProducts"]);
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formData?.get("intent") === importProductsIntent;
  const [form, fields] = useForm({
    id: "import-products-form",
    lastResult: answer?.result,
    constraint: getZodConstraint(ImportProductsSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ImportProductsSchema }),
    shouldValidate: "onSubmit",
  });
  const report = answer?.report ?? null;
  const errorId = fields.file.errors?.length ? `${fields.file.id}-error` : undefined;
  const helpId = `${fields.file.id}-help`;
  const kb = numberFormat(i18n.language).format(Math.round(SKU_CSV_MAX_BYTES / 1024));
  const list = (items: readonly (string | number)[]) =>
    items.length > SHOWN ? t("import.more", { list: items.slice(0, SHOWN).join(", "), count: items.length - SHOWN }) : items.join(", ");
  const message = answer?.message ? splitMessage(answer.message) : null;
  return (
    <Form method="post" action={here} encType="multipart/form-data" {...getFormProps(form)} className="products-import" preventScrollReset>
      <h3>{t("import.title")}</h3>
      <input type="hidden" name="intent" value={importProductsIntent} />
      <input type="hidden" name="version" value={version} />
      <input type="hidden" name="back" value={location.search} />
      {answer?.failure && message ? <FormAlert title={t(answer.failure)} message={t(message.key, message.values)} /> : null}
      {report ? (
        <div className="notice products-import-report" role="status" id="import-report">
          <p>
            <strong>{t("import.reportTitle", { column: report.column })}</strong>
          </p>
          <ul>
            <li>{t("import.imported", { count: report.imported })}</li>
            {report.present.length ? <li>{t("import.present", { count: report.present.length, ids: list(report.present) })}</li> : null}
            {report.unknown.length ? <li>{t("import.unknown", { count: report.unknown.length, ids: list(report.unknown) })}</li> : null}
            {report.bad.length ? <li>{t("import.bad", { count: report.bad.length, lines: list(report.bad) })}</li> : null}
          </ul>
        </div>
      ) : null}
      <div className="field">
        <label htmlFor={fields.file.id}>{t("import.label")}</label>
        <input
          {...getInputProps(fields.file, { type: "file" })}
          accept=".csv,text/csv,text/plain"
          aria-invalid={errorId ? true : undefined}
          aria-describedby={[errorId, helpId].filter(Boolean).join(" ")}
        />
        <p id={helpId} className="field-help">
          {t("import.help", { columns: SKU_COLUMNS.join(", "), size: kb })}
        </p>
        <ErrorList id={errorId} errors={fields.file.errors} />
      </div>
      <SubmitButton pending={pending}>{t("import.submit")}</SubmitButton>
    </Form>
  );
}
