import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { redirect, unstable_parseMultipartFormData as parseMultipartFormData, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import { FEED_COLUMNS, FEED_MAX_BYTES, FEED_MAX_ROWS, REQUIRED_FEED_COLUMNS } from "~/domain/catalog-feed";
import { splitMessage } from "~/domain/message";
import { can } from "~/domain/permissions";
import { CatalogImportSchema, importCatalogIntent } from "~/forms/catalog-import";
import { requirePermission, requireUser } from "~/http/auth.server";
import { limitedUploadHandler } from "~/http/multipart.server";
import { orThrow, reply, replyInvalid } from "~/http/reply.server";
import { importCatalogFeed, recentCatalogImports } from "~/services/catalog-import.server";
import { formatDateTime } from "~/utils/format";
import { useIsPending } from "~/utils/misc";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "catalogImport");

/** The catalog import (operators: the right to update the catalog); others are not authorized. The latest imports are listed. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Catalog");
  if (!can(user, "Catalog", "update")) throw redirect("/not-authorized");
  const imports = orThrow(await recentCatalogImports(user));
  return {
    maxMb: FEED_MAX_BYTES / (1024 * 1024),
    maxRows: FEED_MAX_ROWS,
    timezone: user.timezone,
    imports: imports.map((i) => ({ id: i.id, fileName: i.fileName, by: i.byName, created: i.created, status: i.status, imported: i.imported, updated: i.updated, badCount: i.badCount })),
  };
}

/** One feed file, stored and handed to a job (ADR 34); the user is sent to the import's page to follow it. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, "Catalog");
  requirePermission(user, "Catalog", "update");
  const type = request.headers.get("Content-Type") ?? "";
  const formData = type.startsWith("multipart/form-data") ? await parseMultipartFormData(request, limitedUploadHandler({ feed: FEED_MAX_BYTES }, 10)) : await request.formData();
  const submission = parseWithZod(formData, { schema: CatalogImportSchema });
  const hideFields = ["feed"];
  if (submission.status !== "success") return replyInvalid("import" as const, submission, { hideFields });
  const file = submission.value.feed;
  const started = await importCatalogFeed(user, { fileName: file.name, content: new Uint8Array(await file.arrayBuffer()) });
  return reply(started, {
    form: "import" as const,
    submission,
    hideFields,
    onSuccess: ({ id }) => ({ to: `/catalog/import/${id}`, toast: { type: "success", title: "catalogImport:toast.queued", values: { file: file.name } } }),
  });
}

export default function CatalogImportRoute() {
  const { t, i18n } = useTranslation("catalog");
  const { maxMb, maxRows, imports, timezone } = useLoaderData<typeof loader>();
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
          {form.errors?.length ? <FormAlert title={message(form.errors[0]!)} /> : null}
          <SubmitButton pending={pending}>{t("import.submit")}</SubmitButton>
        </Form>
      </section>

      <RecentImports imports={imports} timezone={timezone} />

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

type ImportRow = ReturnType<typeof useLoaderData<typeof loader>>["imports"][number];

/** The latest imports: file (a link to its page), who started it, when, its state and result. */
function RecentImports({ imports, timezone }: { imports: ImportRow[]; timezone: string }) {
  const { t, i18n } = useTranslation("catalogImport");
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <section className="panel" aria-labelledby="recent-imports-title">
      <h2 id="recent-imports-title">{t("recent.title")}</h2>
      {imports.length === 0 ? (
        <p className="empty-state">{t("recent.empty")}</p>
      ) : (
        <div className="table-wrap">
          <table className="list-table recent-imports">
            <caption className="visually-hidden">{t("recent.title")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("recent.file")}</th>
                <th scope="col">{t("recent.at")}</th>
                <th scope="col">{t("recent.by")}</th>
                <th scope="col">{t("recent.state")}</th>
                <th scope="col">{t("recent.result")}</th>
              </tr>
            </thead>
            <tbody>
              {imports.map((i) => (
                <tr key={i.id}>
                  <th scope="row">
                    <Link to={`/catalog/import/${i.id}`}>{i.fileName}</Link>
                  </th>
                  <td data-label={t("recent.at")}>
                    <time dateTime={i.created}>{formatDateTime(i.created, i18n.language, timezone)}</time>
                  </td>
                  <td data-label={t("recent.by")}>{i.by ?? t("status.system")}</td>
                  <td data-label={t("recent.state")}>
                    <span className="badge" data-state={i.status}>
                      {t(`status.states.${i.status}`)}
                    </span>
                  </td>
                  <td data-label={t("recent.result")}>
                    {i.status === "queued" ? "—" : t("recent.summary", { imported: number.format(i.imported), updated: number.format(i.updated), bad: number.format(i.badCount) })}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
