import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { ErrorList, FormAlert, SubmitButton } from "~/components/forms";
import type { Role } from "~/domain/types";
import { actorTeamRole, grantableRoles, INVITATION_TTL_DAYS } from "~/domain/users";
import {
  changeMemberRoleIntent,
  InvitationActionSchema,
  InviteSchema,
  inviteIntent,
  MemberRoleSchema,
  removeMemberIntent,
  RemoveMemberSchema,
  resendInvitationIntent,
  revokeInvitationIntent,
} from "~/forms/users";
import { requirePermission, requireUser } from "~/http/auth.server";
import { inviteToTeam, listTeamInvitations, resendInvitation, revokeInvitation } from "~/services/invitations.server";
import { reply, replyInvalid, unknownIntent, validOrThrow } from "~/http/reply.server";
import { requireVisibleTeam } from "~/http/scope.server";
import { changeMemberRole, listTeamMembers, removeMember } from "~/services/users-admin.server";
import { formatDateTime } from "~/utils/format";
import { pageTitle } from "~/utils/page-title";

/** Team managers (retailer ADMIN, operator) and the team's ADMINs manage its members. */
async function authorize(request: Request, teamId: string | undefined) {
  const user = await requireUser(request, "TeamPage");
  const team = await requireVisibleTeam(user, teamId);
  requirePermission(user, "TeamPage", "manage-members", { teamId: team.id });
  return { user, team };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, team } = await authorize(request, params.teamId);
  const [members, invitations] = await Promise.all([listTeamMembers(user, team.id), listTeamInvitations(team.id)]);
  return {
    team: { id: team.id, name: team.name },
    members,
    invitations,
    grantable: grantableRoles(actorTeamRole(user, team.id)),
    timezone: user.timezone,
  };
}


export async function action({ request, params }: ActionFunctionArgs) {
  const { user, team } = await authorize(request, params.teamId);
  const here = `/teams/${encodeURIComponent(team.id)}/settings/members`;
  const formData = await request.formData();
  const intent = formData.get("intent");
  switch (intent) {
    case inviteIntent: {
      const submission = parseWithZod(formData, { schema: InviteSchema });
      if (submission.status !== "success") return replyInvalid("invite", submission);
      return reply(await inviteToTeam(user, team, submission.value), {
        form: "invite",
        submission,
        onSuccess: (invitation) => ({ to: here, toast: { type: "success", title: "users:toast.invited", values: { email: invitation.email } } }),
      });
    }
    case resendInvitationIntent:
    case revokeInvitationIntent: {
      const { invitationId } = validOrThrow(parseWithZod(formData, { schema: InvitationActionSchema }));
      const resend = intent === resendInvitationIntent;
      return reply(resend ? await resendInvitation(user, team, invitationId) : await revokeInvitation(user, team, invitationId), {
        form: "invitations",
        onSuccess: (invitation) => ({
          to: here,
          toast: { type: "success", title: resend ? "users:toast.resent" : "users:toast.revoked", values: { email: invitation.email } },
        }),
      });
    }
    case changeMemberRoleIntent: {
      const { userId, role } = validOrThrow(parseWithZod(formData, { schema: MemberRoleSchema }));
      return reply(await changeMemberRole(user, team.id, userId, role), {
        form: "members",
        onSuccess: () => ({ to: here, toast: { type: "success", title: "toast.changesSaved" } }),
      });
    }
    case removeMemberIntent: {
      const { userId } = validOrThrow(parseWithZod(formData, { schema: RemoveMemberSchema }));
      return reply(await removeMember(user, team.id, userId), {
        form: "members",
        onSuccess: (member) => ({
          to: here,
          toast: { type: "success", title: "users:toast.removed", values: { name: member.displayName || member.email, team: team.name } },
        }),
      });
    }
    default:
      return unknownIntent();
  }
}

/** The intent and subject of the form being submitted, for per-row pending states. */
function usePendingSubmission(): { intent: string | null; subject: string | null } {
  const navigation = useNavigation();
  if (navigation.state === "idle" || !navigation.formData) return { intent: null, subject: null };
  const subject = navigation.formData.get("userId") ?? navigation.formData.get("invitationId");
  return { intent: String(navigation.formData.get("intent") ?? ""), subject: subject ? String(subject) : null };
}

export default function TeamMembersRoute() {
  const { t, i18n } = useTranslation("users");
  const { team, members, invitations, grantable, timezone } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const pending = usePendingSubmission();
  const isPending = (intent: string, subject?: string) => pending.intent === intent && (subject === undefined || pending.subject === subject);
  const [form, fields] = useForm({
    id: "invite-form",
    lastResult: actionData?.form === "invite" ? actionData.result : undefined,
    constraint: getZodConstraint(InviteSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: InviteSchema }),
    defaultValue: { role: "VIEWER" },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  // A sent invitation adds a row: the form is emptied for the next one.
  const invitationCount = invitations.length;
  const seenCount = useRef(invitationCount);
  useEffect(() => {
    if (invitationCount === seenCount.current) return;
    seenCount.current = invitationCount;
    form.reset();
  }, [invitationCount, form]);
  const rowError = actionData && actionData.form !== "invite" && actionData.error ? actionData : null;
  const roleLabel = (role: Role) => t(`roles.${role}`, { ns: "common" });

  return (
    <>
      <section className="panel" aria-labelledby="members-title">
        <h2 id="members-title">{t("members.title")}</h2>
        <p className="muted">{t("members.intro", { team: team.name })}</p>
        {rowError?.form === "members" ? <FormAlert title={t("errors.changeRefused")} message={t(rowError.error!)} /> : null}
        {members.length === 0 ? (
          <p className="empty-state">{t("members.empty")}</p>
        ) : (
          <div className="table-wrap">
            <table className="list-table">
              <caption className="visually-hidden">{t("members.caption", { team: team.name })}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("columns.name")}</th>
                  <th scope="col">{t("columns.status")}</th>
                  <th scope="col">{t("columns.teamRole")}</th>
                  <th scope="col">{t("columns.actions")}</th>
                </tr>
              </thead>
              <tbody>
                {members.map((m) => (
                  <tr key={m.id}>
                    <td className="list-table-title">
                      <div>
                        <strong>{m.displayName || m.email}</strong>
                        {m.self ? <span className="users-badge">{t("members.you")}</span> : null}
                        <br />
                        <span className="muted">{m.email}</span>
                      </div>
                    </td>
                    <td data-label={t("columns.status")}>
                      <div>
                        <span className={`users-badge users-badge-${m.status}`}>{t(`statuses.${m.status}`)}</span>
                        {m.disabled ? <span className="users-badge users-badge-disabled">{t("disabled.yes")}</span> : null}
                      </div>
                    </td>
                    <td data-label={t("columns.teamRole")}>
                      <div>
                        {m.editable ? (
                          <Form method="post" className="users-inline">
                            <input type="hidden" name="intent" value={changeMemberRoleIntent} />
                            <input type="hidden" name="userId" value={m.id} />
                            <label className="visually-hidden" htmlFor={`role-${m.id}`}>
                              {t("members.roleOf", { name: m.displayName || m.email })}
                            </label>
                            <select id={`role-${m.id}`} name="role" defaultValue={m.teamRole} key={`${m.id}-${m.teamRole}`}>
                              {m.grantable.map((r) => (
                                <option key={r} value={r}>
                                  {roleLabel(r)}
                                </option>
                              ))}
                            </select>
                            <SubmitButton pending={isPending(changeMemberRoleIntent, m.id)} className="users-small">
                              {t("members.saveRole")}
                              <span className="visually-hidden"> {m.displayName || m.email}</span>
                            </SubmitButton>
                          </Form>
                        ) : (
                          roleLabel(m.teamRole)
                        )}
                        {m.effectiveRole && m.effectiveRole !== m.teamRole ? (
                          <p className="field-help">{t("members.cappedBy", { role: roleLabel(m.effectiveRole) })}</p>
                        ) : null}
                      </div>
                    </td>
                    <td data-label={t("columns.actions")}>
                      {m.editable ? (
                        <details className="users-confirm">
                          <summary className="button">
                            {t("members.remove")}
                            <span className="visually-hidden"> {m.displayName || m.email}</span>
                          </summary>
                          <div className="users-confirm-panel">
                            <p>{t("members.removeConfirm", { name: m.displayName || m.email, team: team.name })}</p>
                            <Form method="post">
                              <input type="hidden" name="intent" value={removeMemberIntent} />
                              <input type="hidden" name="userId" value={m.id} />
                              <SubmitButton pending={isPending(removeMemberIntent, m.id)} className="users-danger">
                                {t("members.removeSubmit")}
                              </SubmitButton>
                            </Form>
                          </div>
                        </details>
                      ) : (
                        <span className="muted">{m.self ? t("members.notSelf") : t("members.notYours")}</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="panel" aria-labelledby="invite-title">
        <h2 id="invite-title">{t("invite.title")}</h2>
        <p className="muted">{t("invite.intro", { days: INVITATION_TTL_DAYS })}</p>
        <Form method="post" {...getFormProps(form)}>
          <input type="hidden" name="intent" value={inviteIntent} />
          <div className="field-row">
            <div className="field">
              <label htmlFor={fields.email.id}>{t("fields.email", { ns: "common" })}</label>
              <input
                {...getInputProps(fields.email, { type: "email" })}
                key={fields.email.key}
                autoComplete="off"
                aria-invalid={fields.email.errors?.length ? true : undefined}
                aria-describedby={fields.email.errors?.length ? `${fields.email.id}-error` : undefined}
              />
              <ErrorList id={`${fields.email.id}-error`} errors={fields.email.errors} />
            </div>
            <div className="field">
              <label htmlFor={fields.role.id}>{t("invite.role")}</label>
              <select
                {...getSelectProps(fields.role)}
                key={fields.role.key}
                aria-invalid={fields.role.errors?.length ? true : undefined}
                aria-describedby={fields.role.errors?.length ? `${fields.role.id}-error` : undefined}
              >
                {grantable.map((r) => (
                  <option key={r} value={r}>
                    {roleLabel(r)}
                  </option>
                ))}
              </select>
              <ErrorList id={`${fields.role.id}-error`} errors={fields.role.errors} />
            </div>
          </div>
          <SubmitButton pending={isPending(inviteIntent)}>{t("invite.submit")}</SubmitButton>
        </Form>
      </section>

      <section className="panel" aria-labelledby="invitations-title">
        <h2 id="invitations-title">{t("invitations.title")}</h2>
        {rowError?.form === "invitations" ? <FormAlert title={t("errors.changeRefused")} message={t(rowError.error!)} /> : null}
        {invitations.length === 0 ? (
          <p className="empty-state">{t("invitations.empty")}</p>
        ) : (
          <div className="table-wrap">
            <table className="list-table">
              <caption className="visually-hidden">{t("invitations.caption", { team: team.name })}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("columns.email")}</th>
                  <th scope="col">{t("columns.teamRole")}</th>
                  <th scope="col">{t("columns.status")}</th>
                  <th scope="col">{t("columns.sent")}</th>
                  <th scope="col">{t("columns.actions")}</th>
                </tr>
              </thead>
              <tbody>
                {invitations.map((inv) => (
                  <tr key={inv.id}>
                    <td className="list-table-title">{inv.email}</td>
                    <td data-label={t("columns.teamRole")}>{roleLabel(inv.role)}</td>
                    <td data-label={t("columns.status")}>
                      <div>
                        <span className={`users-badge users-badge-${inv.state}`}>{t(`invitations.states.${inv.state}`)}</span>
                        {inv.state === "accepted" && inv.acceptedAt ? (
                          <p className="field-help">{formatDateTime(inv.acceptedAt, i18n.language, timezone)}</p>
                        ) : null}
                        {inv.state === "pending" ? (
                          <p className="field-help">{t("invitations.expires", { at: formatDateTime(inv.expiresAt, i18n.language, timezone) })}</p>
                        ) : null}
                      </div>
                    </td>
                    <td data-label={t("columns.sent")}>
                      <div>
                        {formatDateTime(inv.created, i18n.language, timezone)}
                        <p className="field-help">{t("invitations.by", { by: inv.invitedBy, count: inv.sentCount })}</p>
                      </div>
                    </td>
                    <td data-label={t("columns.actions")}>
                      {inv.state === "pending" || inv.state === "expired" ? (
                        <div className="users-actions">
                          <Form method="post">
                            <input type="hidden" name="intent" value={resendInvitationIntent} />
                            <input type="hidden" name="invitationId" value={inv.id} />
                            <SubmitButton pending={isPending(resendInvitationIntent, inv.id)} className="users-secondary">
                              {t("invitations.resend")}
                              <span className="visually-hidden"> {inv.email}</span>
                            </SubmitButton>
                          </Form>
                          <details className="users-confirm">
                            <summary className="button">
                              {t("invitations.revoke")}
                              <span className="visually-hidden"> {inv.email}</span>
                            </summary>
                            <div className="users-confirm-panel">
                              <p>{t("invitations.revokeConfirm", { email: inv.email })}</p>
                              <Form method="post">
                                <input type="hidden" name="intent" value={revokeInvitationIntent} />
                                <input type="hidden" name="invitationId" value={inv.id} />
                                <SubmitButton pending={isPending(revokeInvitationIntent, inv.id)} className="users-danger">
                                  {t("invitations.revokeSubmit")}
                                </SubmitButton>
                              </Form>
                            </div>
                          </details>
                        </div>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "members");

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
