import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { FormAlert, SubmitButton } from "~/components/forms";
import { TeamStatusBadge } from "~/components/team-status-badge";
import { can } from "~/domain/permissions";
import { KNOWN_TEAM_TAGS } from "~/domain/team-form";
import { canChangeTeamStatus, listableTeamStatuses } from "~/domain/teams";
import { ALLOWED_TEAM_ACCOUNT_TYPES, TEAM_STATUSES } from "~/domain/types";
import {
  changeStatusesIntent,
  parseTeamListQuery,
  restoreTeamIntent,
  RestoreTeamSchema,
  reviewStatusesIntent,
  TEAM_LIST_SORTS,
  TeamStatusesSchema,
} from "~/forms/teams";
import { requirePermission, requireUser } from "~/http/auth.server";
import { reply, replyInvalid, statusOf, unknownIntent } from "~/http/reply.server";
import { requireVisibleTeam } from "~/http/scope.server";
import { changeStatuses, changeTeamStatus, listTeams, reviewStatusChange } from "~/services/teams-admin.server";
import { redirectWithToast } from "~/http/toast.server";
import { MoneyByCurrency } from "~/components/money-by-currency";

/** The advertisers list (team managers): search, filters, sort and page all live in the URL. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Team");
  const statuses = listableTeamStatuses(user.claims);
  const query = parseTeamListQuery(new URL(request.url).searchParams, statuses);
  const result = await listTeams(user, query);
  return data(
    {
      query,
      statusOptions: statuses,
      rows: result.ok ? result.value.rows : [],
      next: result.ok ? result.value.next : null,
      /** The failure's title ('Fetch teams'), shown above an empty list. */
      failed: result.ok ? null : result.reason,
      canCreate: can(user, "Team", "create"),
      canUpdate: can(user, "Team", "update"),
      // A status change the user may make from some status: offered in the bulk form.
      bulkStatuses: TEAM_STATUSES.filter((to) => TEAM_STATUSES.some((from) => canChangeTeamStatus(user.claims, from, to))),
      restorable: canChangeTeamStatus(user.claims, "archived", "active"),
    },
    { status: result.ok ? 200 : statusOf(result) },
  );
}

/** The list's own URL (its query kept), to come back to after a change. */
function listUrl(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete("index");
  const search = url.searchParams.toString();
  return `/teams${search ? `?${search}` : ""}`;
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, "Team");
  requirePermission(user, "Team", "update");
  const formData = await request.formData();
  switch (formData.get("intent")) {
    case restoreTeamIntent: {
      const submission = parseWithZod(formData, { schema: RestoreTeamSchema });
      if (submission.status !== "success") return replyInvalid("restore", submission);
      const team = await requireVisibleTeam(user, submission.value.teamId);
      return reply(await changeTeamStatus(user, team, "active", team.version), {
        form: "restore",
        onSuccess: () => ({
          to: listUrl(request),
          toast: { type: "success", title: "toast.changesSaved", description: "teams:toast.status.restore", values: { name: team.name } },
        }),
      });
    }
    case reviewStatusesIntent:
    case changeStatusesIntent: {
      const submission = parseWithZod(formData, { schema: TeamStatusesSchema });
      if (submission.status !== "success") return replyInvalid("statuses", submission);
      const { intent, teamId: teamIds, status, confirmed } = submission.value;
      if (intent === reviewStatusesIntent || confirmed !== "yes") {
        return { form: "statuses" as const, review: await reviewStatusChange(user, teamIds, status) };
      }
      const count = await changeStatuses(user, teamIds, status);
      return redirectWithToast(listUrl(request), {
        type: "success",
        title: "toast.changesSaved",
        description: "teams:toast.statuses",
        values: { count },
      });
    }
    default:
      return unknownIntent();
  }
}

export default function TeamsListRoute() {
  const { t } = useTranslation("teams");
  const { query, statusOptions, rows, next, failed, canCreate, canUpdate, bulkStatuses, restorable } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const navigation = useNavigation();
  const submittingIntent = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;

  const params = new URLSearchParams(location.search);
  params.delete("index");
  const firstParams = new URLSearchParams(params);
  firstParams.delete("after");
  const nextParams = new URLSearchParams(params);
  if (next) nextParams.set("after", next);
  const filtered = Boolean(query.q || query.status || query.accountType || query.tag);
  const selectable = canUpdate && bulkStatuses.length > 0;
  const review = actionData && "review" in actionData ? actionData.review : null;
  const actionError = actionData && "error" in actionData ? actionData.error : null;
  // The review appears above the table: move the focus there so keyboard and screen-reader users meet it.
  const reviewHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (review) reviewHeading.current?.focus();
  }, [review]);
  const ariaSort = (key: string) => (query.sort === key ? (query.dir === "asc" ? "ascending" : "descending") : undefined);

  return (
    <>
      <div className="page-header">
        <h1>{t("list.title")}</h1>
        {canCreate ? (
          <Link to="/teams/new" className="button primary">
            {t("list.new")}
          </Link>
        ) : null}
      </div>

      <Form method="get" action="/teams" className="campaign-filters list-filters team-filters" role="search" aria-label={t("list.filters")}>
        <div className="campaign-filters-row">
        <div className="field">
          <label htmlFor="teams-q">{t("list.search")}</label>
          <input id="teams-q" type="search" name="q" defaultValue={query.q} />
        </div>
        <div className="field">
          <label htmlFor="teams-status">{t("fields.status")}</label>
          <select id="teams-status" name="status" defaultValue={query.status}>
            <option value="">{t("list.activeAndSuspended")}</option>
            {statusOptions.map((s) => (
              <option key={s} value={s}>
                {t(`status.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="teams-account-type">{t("fields.accountType")}</label>
          <select id="teams-account-type" name="accountType" defaultValue={query.accountType}>
            <option value="">{t("list.allAccountTypes")}</option>
            {ALLOWED_TEAM_ACCOUNT_TYPES.map((a) => (
              <option key={a} value={a}>
                {t(`accountTypes.${a}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="teams-tag">{t("list.tag")}</label>
          <input id="teams-tag" type="text" name="tag" list="teams-known-tags" defaultValue={query.tag} />
          <datalist id="teams-known-tags">
            {KNOWN_TEAM_TAGS.map((tag) => (
              <option key={tag} value={tag} />
            ))}
          </datalist>
        </div>
        <div className="field">
          <label htmlFor="teams-sort">{t("list.sortBy")}</label>
          <select id="teams-sort" name="sort" defaultValue={query.sort}>
            {TEAM_LIST_SORTS.map((s) => (
              <option key={s} value={s}>
                {t(`list.sort.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="teams-dir">{t("list.order")}</label>
          <select id="teams-dir" name="dir" defaultValue={query.dir}>
            <option value="asc">{t("list.asc")}</option>
            <option value="desc">{t("list.desc")}</option>
          </select>
        </div>
        </div>
        <div className="campaign-filters-actions">
          <button type="submit" className="button">
            {t("common:actions.filter")}
          </button>
          {filtered ? <Link to="/teams">{t("list.clear")}</Link> : null}
        </div>
      </Form>

      {failed ? <FormAlert title={t(failed)} message={t("common:errors.errorOccurred")} /> : null}
      {actionError ? <FormAlert title={t("common:errors.conflictTitle")} message={t(actionError)} /> : null}

      {review ? (
        <section className="panel confirm-panel" aria-labelledby="review-title">
          <h2 id="review-title" tabIndex={-1} ref={reviewHeading}>{t(`review.title.${review.status}`)}</h2>
          {review.teams.some((r) => r.applies) ? (
            <>
              <ul>
                {review.teams.map((r) => (
                  <li key={r.id}>
                    {r.name} {r.applies ? null : <span className="muted">({t("review.unchanged", { status: t(`status.${r.status}`) })})</span>}
                  </li>
                ))}
              </ul>
              <Form method="post" className="confirm-actions">
                <input type="hidden" name="intent" value={changeStatusesIntent} />
                <input type="hidden" name="status" value={review.status} />
                <input type="hidden" name="confirmed" value="yes" />
                {review.teams
                  .filter((r) => r.applies)
                  .map((r) => (
                    <input key={r.id} type="hidden" name="teamId" value={r.id} />
                  ))}
                <SubmitButton pending={submittingIntent === changeStatusesIntent}>
                  {t(`review.confirm.${review.status}`, { count: review.teams.filter((r) => r.applies).length })}
                </SubmitButton>
                <Link to={`/teams${params.toString() ? `?${params}` : ""}`}>{t("review.cancel")}</Link>
              </Form>
            </>
          ) : (
            <p>{t("review.nothing")}</p>
          )}
        </section>
      ) : null}

      {rows.length === 0 && !failed ? (
        <p className="empty-state">{t(filtered ? "list.noMatch" : "list.empty")}</p>
      ) : rows.length > 0 ? (
        <div className="table-wrap">
          <table className="teams-table list-table">
            <caption className="visually-hidden">{t("list.title")}</caption>
            <thead>
              <tr>
                {selectable ? (
                  <th scope="col">
                    <span className="visually-hidden">{t("list.select")}</span>
                  </th>
                ) : null}
                <th scope="col" aria-sort={ariaSort("name")}>
                  {t("fields.name")}
                </th>
                <th scope="col">{t("fields.status")}</th>
                <th scope="col">{t("fields.accountType")}</th>
                <th scope="col">{t("fields.tags")}</th>
                <th scope="col">{t("list.role")}</th>
                <th scope="col" className="num">
                  {t("list.liveCampaigns")}
                </th>
                <th scope="col" className="num">
                  {t("list.wallets")}
                </th>
                <th scope="col" className="num" aria-sort={ariaSort("balance")}>
                  {t("list.balance")}
                </th>
                <th scope="col" className="num">
                  {t("list.credit")}
                </th>
                {restorable ? (
                  <th scope="col">
                    <span className="visually-hidden">{t("list.actions")}</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id}>
                  {selectable ? (
                    <td className="list-table-select">
                      <input type="checkbox" name="teamId" value={row.id} form="bulk-status-form" aria-label={t("list.selectTeam", { name: row.name })} />
                    </td>
                  ) : null}
                  <th scope="row">
                    <Link to={`/teams/${row.id}`}>{row.name}</Link>
                  </th>
                  <td data-label={t("fields.status")}>
                    <TeamStatusBadge status={row.status} />
                  </td>
                  <td data-label={t("fields.accountType")}>{t(`accountTypes.${row.account_type}`)}</td>
                  <td data-label={t("fields.tags")}>{row.tags?.length ? <span className="tag-list">{row.tags.map((tag) => <span key={tag} className="tag">{tag}</span>)}</span> : null}</td>
                  <td data-label={t("list.role")}>{row.role ? t(`common:roles.${row.role}`) : "—"}</td>
                  <td className="num" data-label={t("list.liveCampaigns")}>{row.liveCampaigns}</td>
                  <td className="num" data-label={t("list.wallets")}>{row.walletCount}</td>
                  <td className="num" data-label={t("list.balance")}>
                    <MoneyByCurrency amounts={row.totals.map((m) => ({ currency: m.currency, cents: m.balance }))} />
                  </td>
                  <td className="num" data-label={t("list.credit")}>
                    <MoneyByCurrency amounts={row.totals.map((m) => ({ currency: m.currency, cents: m.credit }))} />
                  </td>
                  {restorable ? (
                    <td>
                      {row.status === "archived" ? (
                        <details className="confirm">
                          <summary>{t("statusChange.restore.action")}</summary>
                          <div className="confirm-body">
                            <p>{t("statusChange.restore.question", { name: row.name })}</p>
                            <Form method="post">
                              <input type="hidden" name="intent" value={restoreTeamIntent} />
                              <input type="hidden" name="teamId" value={row.id} />
                              <input type="hidden" name="confirmed" value="yes" />
                              <SubmitButton pending={submittingIntent === restoreTeamIntent && navigation.formData?.get("teamId") === row.id}>
                                {t("statusChange.restore.confirm")}
                              </SubmitButton>
                            </Form>
                          </div>
                        </details>
                      ) : null}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      {selectable && rows.length > 0 ? (
        <Form method="post" id="bulk-status-form" className="filters bulk-form">
          <input type="hidden" name="intent" value={reviewStatusesIntent} />
          <label htmlFor="bulk-status">{t("bulk.label")}</label>
          <select id="bulk-status" name="status" defaultValue={bulkStatuses.includes("suspended") ? "suspended" : bulkStatuses[0]}>
            {bulkStatuses.map((s) => (
              <option key={s} value={s}>
                {t(`bulk.to.${s}`)}
              </option>
            ))}
          </select>
          <SubmitButton pending={submittingIntent === reviewStatusesIntent}>
            {t("bulk.review")}
          </SubmitButton>
        </Form>
      ) : null}

      {query.after || next ? (
        <nav className="pagination" aria-label={t("list.pages")}>
          {query.after ? <Link to={`/teams${firstParams.toString() ? `?${firstParams}` : ""}`}>{t("list.firstPage")}</Link> : null}
          {next ? <Link to={`/teams?${nextParams}`}>{t("common:actions.nextPage")}</Link> : null}
        </nav>
      ) : null}
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
