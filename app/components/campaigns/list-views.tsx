/**
 * Custom views of the campaign list: a menu of the user's saved views (links to /campaigns with the
 * saved query), each renamed or deleted in place (delete asks for a confirmation first), and a form
 * that saves the current filters, sort and columns under a name. <details> disclosures, so it all
 * works without JavaScript.
 */
import { Form, Link, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ErrorList, SubmitButton } from "~/components/forms";
import { deleteViewIntent, renameViewIntent, saveViewIntent, VIEW_NAME_MAX } from "~/forms/campaigns/list";
import { withValues } from "~/domain/message";

export interface ViewLinkView {
  id: string;
  name: string;
  href: string;
}

export interface ViewFormErrorView {
  form: "save-view" | "rename-view" | "delete-view";
  viewId: string | null;
  message: string;
  values?: Record<string, string | number>;
}

interface Props {
  views: ViewLinkView[];
  max: number;
  /** The current list's query (no cursor): what "Save this view" stores. */
  query: string;
  /** The href of the view matching the current list, if any. */
  currentHref: string;
  error: ViewFormErrorView | null;
  /** On a team's tab: views open on /campaigns, filtered on the team. */
  onTeamTab: boolean;
}

function message(error: ViewFormErrorView | null): string[] | null {
  if (!error) return null;
  return [error.values ? withValues(error.message, error.values) : error.message];
}

export function CustomViewsMenu({ views, max, query, currentHref, error, onTeamTab }: Props) {
  const { t } = useTranslation("campaignList");
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const saveError = error?.form === "save-view" ? message(error) : null;
  const full = views.length >= max;
  return (
    <details className="views-menu" open={error ? true : undefined}>
      <summary className="button">{t("views.menu", { count: views.length, max })}</summary>
      <div className="views-panel">
        <h2 id="views-title" className="views-title">
          {t("views.title")}
        </h2>
        {onTeamTab ? <p className="field-help">{t("views.teamTabHelp")}</p> : null}
        {views.length === 0 ? (
          <p className="muted">{t("views.none")}</p>
        ) : (
          <ul className="views-list" aria-labelledby="views-title">
            {views.map((view) => {
              const renameError = error?.form === "rename-view" && error.viewId === view.id ? message(error) : null;
              return (
                <li key={view.id}>
                  <Link to={view.href} aria-current={view.href === currentHref ? "page" : undefined}>
                    {view.name}
                  </Link>
                  <details className="confirm" open={renameError ? true : undefined}>
                    <summary aria-label={t("views.renameOf", { name: view.name })}>{t("views.rename")}</summary>
                    <div className="confirm-body">
                      <Form method="post">
                        <input type="hidden" name="intent" value={renameViewIntent} />
                        <input type="hidden" name="viewId" value={view.id} />
                        <div className="field">
                          <label htmlFor={`view-name-${view.id}`}>{t("views.newName")}</label>
                          <input
                            id={`view-name-${view.id}`}
                            name="name"
                            type="text"
                            required
                            maxLength={VIEW_NAME_MAX}
                            defaultValue={view.name}
                            aria-invalid={renameError ? true : undefined}
                            aria-describedby={renameError ? `view-name-${view.id}-error` : undefined}
                          />
                          <ErrorList id={`view-name-${view.id}-error`} errors={renameError} />
                        </div>
                        <SubmitButton pending={submitting === renameViewIntent && navigation.formData?.get("viewId") === view.id}>{t("views.saveName")}</SubmitButton>
                      </Form>
                    </div>
                  </details>
                  <details className="confirm">
                    <summary aria-label={t("views.deleteOf", { name: view.name })}>{t("views.delete")}</summary>
                    <div className="confirm-body">
                      <p>{t("views.deleteQuestion", { name: view.name })}</p>
                      <Form method="post">
                        <input type="hidden" name="intent" value={deleteViewIntent} />
                        <input type="hidden" name="viewId" value={view.id} />
                        <input type="hidden" name="confirmed" value="yes" />
                        <SubmitButton className="danger" pending={submitting === deleteViewIntent && navigation.formData?.get("viewId") === view.id}>
                          {t("views.confirmDelete")}
                        </SubmitButton>
                      </Form>
                    </div>
                  </details>
                </li>
              );
            })}
          </ul>
        )}
        <Form method="post" className="views-save">
          <input type="hidden" name="intent" value={saveViewIntent} />
          <input type="hidden" name="query" value={query} />
          <div className="field">
            <label htmlFor="view-name">{t("views.name")}</label>
            <input
              id="view-name"
              name="name"
              type="text"
              required
              maxLength={VIEW_NAME_MAX}
              aria-invalid={saveError ? true : undefined}
              aria-describedby={["view-name-help", saveError ? "view-name-error" : null].filter(Boolean).join(" ")}
            />
            <p id="view-name-help" className="field-help">
              {full ? t("views.full", { max }) : t("views.help", { count: views.length, max })}
            </p>
            <ErrorList id="view-name-error" errors={saveError} />
          </div>
          <SubmitButton pending={submitting === saveViewIntent}>{t("views.save")}</SubmitButton>
        </Form>
      </div>
    </details>
  );
}
