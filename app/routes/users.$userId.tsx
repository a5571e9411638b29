import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormAlert, SubmitButton } from "~/components/forms";
import type { Role } from "~/domain/types";
import { checkUserEdit, grantableAccountTypes, grantableRoles } from "~/domain/users";
import {
  removeTeamRoleIntent,
  RemoveUserTeamSchema,
  setDisabledIntent,
  setTeamRoleIntent,
  updateClaimsIntent,
  UserClaimsSchema,
  UserDisabledSchema,
  UserTeamRoleSchema,
} from "~/forms/users";
import { logAsIntent, LogAsSchema } from "~/forms/operators";
import { beginLogAsSession, requireUser } from "~/http/auth.server";
import { orThrow, reply, unknownIntent, validOrThrow } from "~/http/reply.server";
import { redirectWithToast } from "~/http/toast.server";
import {
  getUserForAdmin,
  setUserDisabled,
  setUserTeamRole,
  teamChoicesFor,
  updateUserClaims,
  userRowForAdmin,
} from "~/services/users-admin.server";
import { offersLogAs, startLogAs } from "~/services/operators.server";
import { canResetSecondFactor } from "~/domain/second-factor";
import { resetSecondFactorIntent, ResetSecondFactorSchema } from "~/forms/second-factor";
import { resetSecondFactor } from "~/services/second-factor.server";
import { formatDateTime } from "~/utils/format";
import { pageTitle } from "~/utils/page-title";

/** One user (/users/$userId): claims, team roles, disable or enable. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await requireUser(request, "User");
  const target = orThrow(await getUserForAdmin(viewer, params.userId ?? ""));
  const edit = checkUserEdit(viewer, target);
  const row = await userRowForAdmin(viewer, target);
  const candidates = edit.ok ? await teamChoicesFor(viewer, target) : [];
  return {
    user: { ...row, version: target.version, created: target.created, locale: target.locale, timezone: target.timezone },
    editable: edit.ok,
    refusal: edit.ok ? null : edit.reason,
    types: grantableAccountTypes(viewer.claims),
    roles: grantableRoles(viewer.claims.role),
    candidates,
    timezone: viewer.timezone,
    logAs: offersLogAs(viewer, target),
    /** An operator may remove this user's second factor (ADR 30). */
    resetSecondFactor: canResetSecondFactor(viewer, target),
  };
}


/**
 * The changes of one user: each refusal is shown above the page (titled by its form), a user
 * outside the viewer's reach is the error page's 404; a stale or failed status change is the
 * spec's 'User status update' toast, and the page then shows the current state.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const actor = await requireUser(request, "User");
  const target = orThrow(await getUserForAdmin(actor, params.userId ?? ""));
  const here = `/users/${encodeURIComponent(target.id)}`;
  const saved = () => ({ to: here, toast: { type: "success" as const, title: "toast.changesSaved" } });
  const formData = await request.formData();
  switch (formData.get("intent")) {
    case logAsIntent: {
      validOrThrow(parseWithZod(formData, { schema: LogAsSchema }));
      const outcome = await startLogAs(actor, target.id);
      if (!outcome.ok) return reply(outcome, { form: "logAs", onSuccess: () => "/" });
      const headers = await beginLogAsSession(request, outcome.value);
      return redirectWithToast("/", { type: "success", title: "operators:logAs.started" }, { headers });
    }
    case resetSecondFactorIntent: {
      validOrThrow(parseWithZod(formData, { schema: ResetSecondFactorSchema }));
      return reply(await resetSecondFactor(actor, target), {
        form: "change",
        onSuccess: () => ({ to: here, toast: { type: "success", title: "secondFactor:reset.done" } }),
      });
    }
    case updateClaimsIntent: {
      const value = validOrThrow(parseWithZod(formData, { schema: UserClaimsSchema }));
      return reply(await updateUserClaims(actor, target, value), { form: "change", onSuccess: saved });
    }
    case setTeamRoleIntent: {
      const value = validOrThrow(parseWithZod(formData, { schema: UserTeamRoleSchema }));
      return reply(await setUserTeamRole(actor, target, value), { form: "change", onSuccess: saved });
    }
    case removeTeamRoleIntent: {
      const value = validOrThrow(parseWithZod(formData, { schema: RemoveUserTeamSchema }));
      return reply(await setUserTeamRole(actor, target, { ...value, role: null }), { form: "change", onSuccess: saved });
    }
    case setDisabledIntent: {
      const value = validOrThrow(parseWithZod(formData, { schema: UserDisabledSchema }));
      const failed = { type: "error" as const, title: statusTitle, description: "errors.errorOccurred" };
      try {
        const outcome = await setUserDisabled(actor, target, value);
        if (!outcome.ok && outcome.kind === "conflict") return redirectWithToast(here, failed);
        return reply(outcome, { form: "status", onSuccess: saved });
      } catch (error) {
        console.error("User status update", error);
        return redirectWithToast(here, failed);
      }
    }
    default:
      return unknownIntent();
  }
}

const statusTitle = "users:errors.statusUpdate";

function usePendingIntent(): { intent: string | null; teamId: string | null } {
  const navigation = useNavigation();
  if (navigation.state === "idle" || !navigation.formData) return { intent: null, teamId: null };
  const teamId = navigation.formData.get("teamId");
  return { intent: String(navigation.formData.get("intent") ?? ""), teamId: teamId ? String(teamId) : null };
}

export default function UserRoute() {
  const { t, i18n } = useTranslation("users");
  const { user, editable, refusal, types, roles, candidates, timezone, logAs, resetSecondFactor } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const pending = usePendingIntent();
  const roleLabel = (role: Role) => t(`roles.${role}`, { ns: "common" });
  const name = user.displayName || user.email;
  // The current values stay choosable even when above the viewer's (the save is then refused).
  const roleChoices = roles.includes(user.claims.role) ? roles : [...roles, user.claims.role];
  const typeChoices = types.includes(user.claims.type) ? types : [...types, user.claims.type];

  return (
    <>
      <p>
        <Link to="/users">{t("detail.back")}</Link>
      </p>
      <h1>{name}</h1>
      {actionData?.error ? (
        <FormAlert
          title={t(actionData.form === "status" ? statusTitle : actionData.form === "logAs" ? "operators:logAs.refusedTitle" : "errors.changeRefused")}
          message={t(actionData.error)}
        />
      ) : null}
      {refusal ? (
        <p className="notice" role="status">
          {t(refusal)}
        </p>
      ) : null}

      <section className="panel" aria-labelledby="user-facts">
        <h2 id="user-facts">{t("detail.facts")}</h2>
        <dl className="facts">
          <dt>{t("columns.email")}</dt>
          <dd>{user.email}</dd>
          <dt>{t("columns.status")}</dt>
          <dd>
            <span className={`users-badge users-badge-${user.status}`}>{t(`statuses.${user.status}`)}</span>
          </dd>
          <dt>{t("columns.disabled")}</dt>
          <dd>{user.disabled ? t("disabled.yes") : t("disabled.no")}</dd>
          <dt>{t("columns.lastSignIn")}</dt>
          <dd>{user.lastSignIn ? formatDateTime(user.lastSignIn, i18n.language, timezone) : t("list.never")}</dd>
          <dt>{t("columns.claims")}</dt>
          <dd>
            {t(`accountTypes.${user.claims.type}`, { ns: "common" })} · {roleLabel(user.claims.role)}
          </dd>
          <dt>{t("detail.created")}</dt>
          <dd>{formatDateTime(user.created, i18n.language, timezone)}</dd>
        </dl>
      </section>

      {editable ? (
        <section className="panel" aria-labelledby="user-claims">
          <h2 id="user-claims">{t("detail.claims")}</h2>
          <p className="muted">{t("detail.claimsHelp")}</p>
          <Form method="post">
            <input type="hidden" name="intent" value={updateClaimsIntent} />
            <input type="hidden" name="version" value={user.version} />
            <div className="field-row">
              <div className="field">
                <label htmlFor="claims-type">{t("columns.type")}</label>
                <select id="claims-type" name="type" defaultValue={user.claims.type} key={`type-${user.version}`}>
                  {typeChoices.map((type) => (
                    <option key={type} value={type}>
                      {t(`accountTypes.${type}`, { ns: "common" })}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor="claims-role">{t("columns.role")}</label>
                <select id="claims-role" name="role" defaultValue={user.claims.role} key={`role-${user.version}`}>
                  {roleChoices.map((role) => (
                    <option key={role} value={role}>
                      {roleLabel(role)}
                    </option>
                  ))}
                </select>
              </div>
            </div>
            <SubmitButton pending={pending.intent === updateClaimsIntent}>{t("detail.saveClaims")}</SubmitButton>
          </Form>
        </section>
      ) : null}

      <section className="panel" aria-labelledby="user-teams">
        <h2 id="user-teams">{t("detail.teams")}</h2>
        {user.teams.length === 0 ? (
          <p className="muted">{t("detail.noTeams")}</p>
        ) : (
          <div className="table-wrap">
            <table className="list-table">
              <caption className="visually-hidden">{t("detail.teamsOf", { name })}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("columns.team")}</th>
                  <th scope="col">{t("columns.teamRole")}</th>
                  {editable ? <th scope="col">{t("columns.actions")}</th> : null}
                </tr>
              </thead>
              <tbody>
                {user.teams.map((team) => (
                  <tr key={team.id}>
                    <td className="list-table-title">
                      <Link to={`/teams/${encodeURIComponent(team.id)}`}>{team.name}</Link>
                    </td>
                    <td data-label={t("columns.teamRole")}>
                      {editable ? (
                        <Form method="post" className="users-inline">
                          <input type="hidden" name="intent" value={setTeamRoleIntent} />
                          <input type="hidden" name="version" value={user.version} />
                          <input type="hidden" name="teamId" value={team.id} />
                          <label className="visually-hidden" htmlFor={`team-role-${team.id}`}>
                            {t("detail.roleOn", { team: team.name })}
                          </label>
                          <select id={`team-role-${team.id}`} name="role" defaultValue={team.role} key={`${team.id}-${user.version}`}>
                            {(roles.includes(team.role) ? roles : [...roles, team.role]).map((role) => (
                              <option key={role} value={role}>
                                {roleLabel(role)}
                              </option>
                            ))}
                          </select>
                          <SubmitButton pending={pending.intent === setTeamRoleIntent && pending.teamId === team.id} className="users-small">
                            {t("members.saveRole")}
                            <span className="visually-hidden"> {team.name}</span>
                          </SubmitButton>
                        </Form>
                      ) : (
                        roleLabel(team.role)
                      )}
                    </td>
                    {editable ? (
                      <td data-label={t("columns.actions")}>
                        <details className="users-confirm">
                          <summary className="button">
                            {t("members.remove")}
                            <span className="visually-hidden"> {team.name}</span>
                          </summary>
                          <div className="users-confirm-panel">
                            <p>{t("members.removeConfirm", { name, team: team.name })}</p>
                            <Form method="post">
                              <input type="hidden" name="intent" value={removeTeamRoleIntent} />
                              <input type="hidden" name="version" value={user.version} />
                              <input type="hidden" name="teamId" value={team.id} />
                              <SubmitButton pending={pending.intent === removeTeamRoleIntent && pending.teamId === team.id} className="users-danger">
                                {t("members.removeSubmit")}
                              </SubmitButton>
                            </Form>
                          </div>
                        </details>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {editable && candidates.length ? (
          <Form method="post" className="users-add-team">
            <input type="hidden" name="intent" value={setTeamRoleIntent} />
            <input type="hidden" name="version" value={user.version} />
            <h3>{t("detail.addTeam")}</h3>
            <div className="field-row">
              <div className="field">
                <label htmlFor="add-team">{t("columns.team")}</label>
                <select id="add-team" name="teamId" required defaultValue="">
                  <option value="" disabled>
                    {t("detail.chooseTeam")}
                  </option>
                  {candidates.map((team) => (
                    <option key={team.id} value={team.id}>
                      {team.name}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor="add-team-role">{t("columns.teamRole")}</label>
                <select id="add-team-role" name="role" defaultValue="VIEWER">
                  {roles.map((role) => (
                    <option key={role} value={role}>
                      {roleLabel(role)}
                    </option>
                  ))}
                </select>
              </div>
            </div>
            <SubmitButton pending={pending.intent === setTeamRoleIntent && !user.teams.some((team) => team.id === pending.teamId)}>
              {t("detail.addTeamSubmit")}
            </SubmitButton>
          </Form>
        ) : null}
      </section>

      {logAs ? (
        <section className="panel" aria-labelledby="user-log-as">
          <h2 id="user-log-as">{t("operators:logAs.title")}</h2>
          <p className="muted">{t("operators:logAs.help", { name })}</p>
          <details className="users-confirm">
            <summary className="button">{t("operators:logAs.open", { name })}</summary>
            <div className="users-confirm-panel">
              <p>{t("operators:logAs.confirm", { name })}</p>
              <Form method="post">
                <input type="hidden" name="intent" value={logAsIntent} />
                <SubmitButton pending={pending.intent === logAsIntent}>{t("operators:logAs.submit", { name })}</SubmitButton>
              </Form>
            </div>
          </details>
        </section>
      ) : null}

      {resetSecondFactor ? (
        <section className="panel" aria-labelledby="user-second-factor">
          <h2 id="user-second-factor">{t("secondFactor:reset.title")}</h2>
          <p className="muted">{t("secondFactor:reset.help", { name })}</p>
          <details className="users-confirm">
            <summary className="button">{t("secondFactor:reset.open")}</summary>
            <div className="users-confirm-panel">
              <p>{t("secondFactor:reset.confirm", { name })}</p>
              <Form method="post">
                <input type="hidden" name="intent" value={resetSecondFactorIntent} />
                <SubmitButton pending={pending.intent === resetSecondFactorIntent}>{t("secondFactor:reset.submit")}</SubmitButton>
              </Form>
            </div>
          </details>
        </section>
      ) : null}

      {editable ? (
        <section className="panel" aria-labelledby="user-access">
          <h2 id="user-access">{t("detail.access")}</h2>
          {user.disabled ? (
            <>
              <p>{t("detail.disabledText")}</p>
              <Form method="post">
                <input type="hidden" name="intent" value={setDisabledIntent} />
                <input type="hidden" name="version" value={user.version} />
                <input type="hidden" name="disabled" value="false" />
                <SubmitButton pending={pending.intent === setDisabledIntent}>{t("detail.enable")}</SubmitButton>
              </Form>
            </>
          ) : (
            <>
              <p>{t("detail.enabledText")}</p>
              <details className="users-confirm">
                <summary className="button">{t("detail.disable")}</summary>
                <div className="users-confirm-panel">
                  <p>{t("detail.disableConfirm", { name })}</p>
                  <Form method="post">
                    <input type="hidden" name="intent" value={setDisabledIntent} />
                    <input type="hidden" name="version" value={user.version} />
                    <input type="hidden" name="disabled" value="true" />
                    <SubmitButton pending={pending.intent === setDisabledIntent} className="users-danger">
                      {t("detail.disableSubmit")}
                    </SubmitButton>
                  </Form>
                </div>
              </details>
            </>
          )}
        </section>
      ) : null}
    </>
  );
}

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "user");

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
