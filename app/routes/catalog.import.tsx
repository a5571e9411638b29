import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, unstable_parseMultipartFormData as parseMultipartFormData, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import { FEED_COLUMNS, FEED_MAX_BYTES, FEED_MAX_ROWS, MAX_REPORTED_BAD_ROWS, REQUIRED_FEED_COLUMNS } from "~/domain/catalog-feed";
import { splitMessage } from "~/domain/message";
import { can } from "~/domain/permissions";
import { CatalogImportSchema, importCatalogIntent } from "~/forms/catalog-import";
import { requirePermission, requireUser } from "~/http/auth.server";
import { limitedUploadHandler } from "~/http/multipart.server";
import { replyFailure, replyInvalid } from "~/http/reply.server";
import { importCatalogFeed } from "~/services/catalog-import.server";
import { useIsPending } from "~/utils/misc";

export const meta: MetaFunction = () => [{ title: "Catalog import · Ads console" }];

/** The catalog import (operators: the right to update the catalog); others are not authorized. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Catalog");
  if (!can(user, "Catalog", "update")) throw redirect("/not-authorized");
  return { maxMb: FEED_MAX_BYTES / (1024 * 1024), maxRows: FEED_MAX_ROWS };
}

/** One feed file, imported by the use case; the answer is its report (or why nothing was imported). */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, "Catalog");
  requirePermission(user, "Catalog", "update");
  const type = request.headers.get("Content-Type") ?? "";
  const formData = type.startsWith("multipart/form-data") ? await parseMultipartFormData(request, limitedUploadHandler({ feed: FEED_MAX_BYTES }, 10)) : await request.formData();
  const submission = parseWithZod(formData, { schema: CatalogImportSchema });
  const hideFields = ["feed"];
  if (submission.status !== "success") return replyInvalid("import" as const, submission, { hideFields, with: { report: null } });
  const file = submission.value.feed;
  const result = await importCatalogFeed(user, { fileName: file.name, content: await file.text() });
  if (!result.ok) return replyFailure("import" as const, result, submission, { hideFields, with: { report: null } });
  return data({ form: "import" as const, report: result.value, result: submission.reply({ resetForm: true }), error: undefined, kind: undefined });
}

export default function CatalogImportRoute() {
  const { t, i18n } = useTranslation("catalog");
  const { maxMb, maxRows } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const pending = useIsPending();
  const number = new Intl.NumberFormat(i18n.language);
  const [form, fields] = useForm({
    id: "catalog-import-form",
    lastResult: actionData?.result,
    constraint: getZodConstraint(CatalogImportSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CatalogImportSchema }),
    shouldValidate: "onSubmit",
  });
  const report = actionData?.report ?? null;
  // The use case's refusal (a feed it could not process): 'Catalog processing failed' and why.
  const failure = actionData && !report && actionData.kind ? actionData.error : null;
  const outcome = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (report || failure) outcome.current?.focus();
  }, [report, failure]);
  const message = (m: string) => {
    const { key, values } = splitMessage(m);
    return t(key, values);
  };
  const { key: feedKey, ...feedProps } = getInputProps(fields.feed, { type: "file" });

  return (
    <>
      <p>
        <Link to="/catalog">{t("import.back")}</Link>
      </p>
      <h1>{t("import.title")}</h1>
      <p>{t("import.intro", { mb: maxMb, rows: number.format(maxRows) })}</p>

      {failure ? (
        <section aria-labelledby="import-outcome">
          <h2 id="import-outcome" tabIndex={-1} ref={outcome} className="visually-hidden">
            {t("import.failedTitle")}
          </h2>
          <FormAlert title={t("import.failedTitle")} message={message(failure)} />
        </section>
      ) : null}

      {report ? (
        <section className="panel" aria-labelledby="import-outcome">
          <h2 id="import-outcome" tabIndex={-1} ref={outcome}>
            {t("import.report.title", { file: report.fileName })}
          </h2>
          <p role="status">{t("import.report.summary", { rows: number.format(report.rows), imported: number.format(report.imported), bad: number.format(report.badCount), count: report.rows })}</p>
          {report.ignoredColumns.length ? <p className="muted">{t("import.report.ignored", { columns: report.ignoredColumns.join(", ") })}</p> : null}
          {report.badCount > 0 ? (
            <div className="table-wrap">
              <table className="list-table import-bad-rows">
                <caption>{t("import.report.badCaption", { count: report.badCount })}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t(report.format === "json" ? "import.report.item" : "import.report.line")}</th>
                    <th scope="col">{t("import.report.id")}</th>
                    <th scope="col">{t("import.report.reasons")}</th>
                  </tr>
                </thead>
                <tbody>
                  {report.bad.map((row) => (
                    <tr key={row.line}>
                      <th scope="row">
                        <span className="import-line-label">{t(report.format === "json" ? "import.report.item" : "import.report.line")} </span>
                        {number.format(row.line)}
                      </th>
                      <td data-label={t("import.report.id")}>{row.id ?? "—"}</td>
                      <td data-label={t("import.report.reasons")}>{row.reasons.map((r) => t(r)).join(" ")}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {report.badCount > report.bad.length ? <p className="muted">{t("import.report.moreBad", { count: report.badCount - report.bad.length, shown: MAX_REPORTED_BAD_ROWS })}</p> : null}
            </div>
          ) : null}
          <p>
            <Link to="/catalog">{t("import.report.toCatalog")}</Link>
          </p>
        </section>
      ) : null}

      <section className="panel" aria-labelledby="import-form-title">
        <h2 id="import-form-title">{t("import.formTitle")}</h2>
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)}>
          <input type="hidden" name="intent" value={importCatalogIntent} />
          <Field
            label={t("import.file")}
            inputProps={{ ...feedProps, key: feedKey, accept: ".csv,.json,.txt,text/csv,application/json" }}
            errors={fields.feed.errors}
            help={t("import.fileHelp", { mb: maxMb })}
          />
          {form.errors?.length && !failure ? <FormAlert title={message(form.errors[0]!)} /> : null}
          <SubmitButton pending={pending}>{t("import.submit")}</SubmitButton>
        </Form>
      </section>

      <section className="panel" aria-labelledby="import-columns-title">
        <h2 id="import-columns-title">{t("import.columns.title")}</h2>
        <p>{t("import.columns.intro")}</p>
        <div className="table-wrap">
          <table className="list-table import-columns">
            <caption className="visually-hidden">{t("import.columns.title")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("import.columns.column")}</th>
                <th scope="col">{t("import.columns.required")}</th>
                <th scope="col">{t("import.columns.value")}</th>
              </tr>
            </thead>
            <tbody>
              {FEED_COLUMNS.map((column) => (
                <tr key={column}>
                  <th scope="row">
                    <code>{column}</code>
                  </th>
                  <td data-label={t("import.columns.required")}>{t(REQUIRED_FEED_COLUMNS.includes(column) ? "common:common.yes" : "common:common.no")}</td>
                  <td data-label={t("import.columns.value")}>{t(`import.columns.values.${column}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p>{t("import.columns.example")}</p>
        <pre className="import-example">
          <code>{"id,title,availability,party,brand,price,stroke_price,categories\nSKU-1001,Organic Ground Coffee 500 g,in stock,1P,Acme,6.49,7.99,Grocery > Coffee & tea > Coffee"}</code>
        </pre>
        <p>{t("import.columns.json")}</p>
      </section>
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
