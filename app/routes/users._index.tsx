import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Toasts } from "~/components/toasts";
import { visibleAccountTypes } from "~/domain/users";
import { UsersFilterSchema } from "~/forms/users";
import { requireUser } from "~/http/auth.server";
import { listUsersForAdmin } from "~/services/users-admin.server";
import { formatDateTime } from "~/utils/format";
import { pageTitle } from "~/utils/page-title";

const FETCH_FAILED = { type: "error" as const, title: "users:errors.fetchFailed", description: "errors.errorOccurred" };

/** /users (User read right: operators and retailer admins); search, filters and cursor in the URL. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "User");
  const filter = UsersFilterSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const page = await listUsersForAdmin(user, filter);
  return {
    users: page.users,
    next: page.next,
    fetchFailed: !page.ok,
    filter: { q: filter.q ?? "", type: filter.type ?? "", status: filter.status ?? "", paged: Boolean(filter.after) },
    types: visibleAccountTypes(user.claims),
    timezone: user.timezone,
  };
}

export default function UsersRoute() {
  const { t, i18n } = useTranslation("users");
  const { users, next, fetchFailed, filter, types, timezone } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const nextParams = new URLSearchParams(params);
  if (next) nextParams.set("after", next);
  const firstParams = new URLSearchParams(params);
  firstParams.delete("after");
  const filtered = Boolean(filter.q || filter.type || filter.status);

  return (
    <>
      <h1>{t("list.title")}</h1>
      <Form method="get" className="campaign-filters list-filters users-filters" role="search" aria-label={t("list.filters")}>
        <div className="campaign-filters-row">
          <div className="field">
            <label htmlFor="users-q">{t("list.search")}</label>
            <input id="users-q" type="search" name="q" defaultValue={filter.q} key={`q-${filter.q}`} placeholder={t("list.searchPlaceholder")} />
          </div>
          <div className="field">
            <label htmlFor="users-type">{t("columns.type")}</label>
            <select id="users-type" name="type" defaultValue={filter.type} key={`type-${filter.type}`}>
              <option value="">{t("list.allTypes")}</option>
              {types.map((type) => (
                <option key={type} value={type}>
                  {t(`accountTypes.${type}`, { ns: "common" })}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="users-status">{t("columns.status")}</label>
            <select id="users-status" name="status" defaultValue={filter.status} key={`status-${filter.status}`}>
              <option value="">{t("list.allStatuses")}</option>
              <option value="pending">{t("statuses.pending")}</option>
              <option value="active">{t("statuses.active")}</option>
            </select>
          </div>
        </div>
        <div className="campaign-filters-actions">
          <button type="submit" className="button">
            {t("actions.filter", { ns: "common" })}
          </button>
          {filtered ? <Link to="/users">{t("list.clear")}</Link> : null}
        </div>
      </Form>
      {fetchFailed ? <Toasts toast={FETCH_FAILED} /> : null}
      {users.length === 0 ? (
        <p className="empty-state">{fetchFailed ? t("list.failed") : filtered ? t("list.noMatch") : t("list.empty")}</p>
      ) : (
        <div className="table-wrap">
          <table className="users-table list-table">
            <caption className="visually-hidden">{t("list.title")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("columns.name")}</th>
                <th scope="col">{t("columns.email")}</th>
                <th scope="col">{t("columns.status")}</th>
                <th scope="col">{t("columns.disabled")}</th>
                <th scope="col">{t("columns.lastSignIn")}</th>
                <th scope="col">{t("columns.claims")}</th>
                <th scope="col">{t("columns.teams")}</th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id}>
                  <td className="list-table-title">
                    <Link to={`/users/${encodeURIComponent(u.id)}`}>{u.displayName || u.email}</Link>
                  </td>
                  <td data-label={t("columns.email")}>{u.email}</td>
                  <td data-label={t("columns.status")}>
                    <span className={`users-badge users-badge-${u.status}`}>{t(`statuses.${u.status}`)}</span>
                  </td>
                  <td data-label={t("columns.disabled")}>{u.disabled ? <span className="users-badge users-badge-disabled">{t("disabled.yes")}</span> : t("disabled.no")}</td>
                  <td data-label={t("columns.lastSignIn")}>{u.lastSignIn ? formatDateTime(u.lastSignIn, i18n.language, timezone) : t("list.never")}</td>
                  <td data-label={t("columns.claims")}>
                    {t(`accountTypes.${u.claims.type}`, { ns: "common" })} · {t(`roles.${u.claims.role}`, { ns: "common" })}
                  </td>
                  <td data-label={t("columns.teams")}>{u.teams.length ? u.teams.map((team) => team.name).join(", ") : <span className="muted">{t("list.noTeams")}</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {filter.paged || next ? (
        <nav className="users-pager" aria-label={t("list.pages")}>
          {filter.paged ? <Link to={`?${firstParams.toString()}`}>{t("list.firstPage")}</Link> : null}
          {next ? <Link to={`?${nextParams.toString()}`}>{t("actions.nextPage", { ns: "common" })}</Link> : null}
        </nav>
      ) : null}
    </>
  );
}

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "users");

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
