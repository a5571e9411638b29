/**
 * Invitations to a team: e-mailed, single-use, expiring links. Only the sha256 of the random
 * token is stored; the token itself lives in the e-mail alone. Resending replaces the token, so
 * the earlier link stops working.
 */
import { auditActor, canCreateStaffUser, claimsForInvitedUser, isStaffEmail } from "~/domain/operators";
import { getAccessSettings } from "~/services/access-settings.server";
import { createHash, randomBytes } from "node:crypto";
import { FALLBACK_LOCALE, normaliseLocale } from "~/domain/locale";
import { fail, ok, type Failure, type Result } from "~/domain/result";
import { teamRoleOn } from "~/domain/permissions";
import type { Invitation, Role, Team, User } from "~/domain/types";
import { checkInvite, INVITATION_TTL_DAYS, invitationExpiry, invitationState, type InvitationState } from "~/domain/users";
import { AlreadyExistsError } from "~/storage/port";
import { getEnv } from "~/services/env.server";
import { getFixedT } from "~/services/i18n.server";
import { sendMail } from "~/services/mail.server";
import { notifyNewUser } from "~/services/notifications.server";
import { hashPassword } from "~/services/passwords.server";
import { newUserData } from "~/services/seed.server";
import { getStorage } from "~/services/storage.server";
import { userChangeFailure } from "~/services/users-admin.server";

export function hashInvitationToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function invitationLink(token: string): string {
  return `${getEnv().PUBLIC_URL}/invitation?token=${encodeURIComponent(token)}`;
}

function newToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: hashInvitationToken(token) };
}

/** The invitation, or why not (`reason`: the i18n key). */
export type InvitationOutcome = Result<Invitation>;

async function sendInvitationMail(input: { invitation: Invitation; token: string; team: Team; inviter: User; inviteeLocale: string | null }) {
  // The invitee's language when their account is known, else the inviter's.
  const locale = normaliseLocale(input.inviteeLocale) ?? normaliseLocale(input.inviter.locale) ?? FALLBACK_LOCALE;
  const t = await getFixedT(locale);
  const values = {
    team: input.team.name,
    inviter: input.inviter.displayName || input.inviter.email,
    role: t(`roles.${input.invitation.role}`),
    link: invitationLink(input.token),
    days: INVITATION_TTL_DAYS,
  };
  await sendMail({
    to: input.invitation.email,
    subject: t("users:mail.invite.subject", values),
    text: t("users:mail.invite.text", values),
  });
}

/** Invites an e-mail to a team with a role (never above the inviter's own role there). */
export async function inviteToTeam(actor: User, team: Team, input: { email: string; role: Role }, now = new Date()): Promise<InvitationOutcome> {
  const check = checkInvite(actor, team.id, input.role);
  if (!check.ok) return { ...userChangeFailure(check.reason), field: check.reason === "users:refused.roleAbove" ? "role" : "email" };
  // An address of the retailer's staff domain: only an operator or a retailer ADMIN brings one in
  // (spec section 6); a supplier's invitation never makes retailer staff, so it is refused.
  if (isStaffEmail(input.email, (await getAccessSettings()).staffEmailDomain) && !canCreateStaffUser(actor.claims)) {
    return fail("forbidden", "operators:refused.staffDomainInvite", { field: "email" });
  }
  const storage = getStorage();
  const existing = await storage.users.getByEmail(input.email);
  if (existing && teamRoleOn(existing.roleByTeam, team.id)) return fail("invalid", "users:invite.alreadyMember", { field: "email" });
  // Retailer staff and operators already work on every team.
  if (existing && existing.claims.type !== "supplier") return fail("invalid", "users:invite.seesAllTeams", { field: "email" });
  const { token, tokenHash } = newToken();
  // An earlier pending invitation of the same e-mail to the team is revoked by the repository.
  const invitation = await storage.invitations.create(
    { teamId: team.id, email: input.email, role: input.role, tokenHash, expiresAt: invitationExpiry(now) },
    auditActor(actor),
    now,
  );
  await sendInvitationMail({ invitation, token, team, inviter: actor, inviteeLocale: existing?.locale ?? null });
  return ok(invitation);
}

async function pendingOfTeam(actor: User, team: Team, invitationId: string): Promise<InvitationOutcome> {
  const invitation = await getStorage().invitations.getOne(invitationId);
  if (!invitation || invitation.teamId !== team.id) return fail("not-found", "users:invitation.notFound");
  if (invitation.status !== "pending") return fail("conflict", "users:invitation.notPending");
  const check = checkInvite(actor, team.id, invitation.role);
  if (!check.ok) return userChangeFailure(check.reason);
  return ok(invitation);
}

/** A fresh link and expiry; the earlier link stops working. */
export async function resendInvitation(actor: User, team: Team, invitationId: string, now = new Date()): Promise<InvitationOutcome> {
  const found = await pendingOfTeam(actor, team, invitationId);
  if (!found.ok) return found;
  const { token, tokenHash } = newToken();
  const storage = getStorage();
  const invitation = await storage.invitations.resend(invitationId, tokenHash, invitationExpiry(now), auditActor(actor), now);
  const existing = await storage.users.getByEmail(invitation.email);
  await sendInvitationMail({ invitation, token, team, inviter: actor, inviteeLocale: existing?.locale ?? null });
  return ok(invitation);
}

export async function revokeInvitation(actor: User, team: Team, invitationId: string, now = new Date()): Promise<InvitationOutcome> {
  const found = await pendingOfTeam(actor, team, invitationId);
  if (!found.ok) return found;
  const invitation = await getStorage().invitations.revoke(invitationId, auditActor(actor), now);
  return ok(invitation);
}

export interface InvitationRow {
  id: string;
  email: string;
  role: Role;
  state: InvitationState;
  invitedBy: string;
  created: string;
  expiresAt: string;
  acceptedAt: string | null;
  sentCount: number;
}

/** The team's invitations, newest first, with expired ones told apart. */
export async function listTeamInvitations(teamId: string, now = new Date()): Promise<InvitationRow[]> {
  const invitations = await getStorage().invitations.listForTeam(teamId);
  return invitations.map((i) => ({
    id: i.id,
    email: i.email,
    role: i.role,
    state: invitationState(i, now),
    invitedBy: i.invitedBy,
    created: i.created,
    expiresAt: i.expiresAt,
    acceptedAt: i.acceptedAt,
    sentCount: i.sentCount,
  }));
}

// ---------------------------------------------------------------------------------------------
// The public side: the link from the e-mail

export type LinkProblem = "invalid" | "expired" | "revoked" | "accepted";

export type InvitationView =
  | { ok: false; problem: LinkProblem }
  | {
      ok: true;
      email: string;
      teamName: string;
      role: Role;
      expiresAt: string;
      /** An account with the invited e-mail exists: sign in (as it) to accept. */
      accountExists: boolean;
      /** E-mail of whoever is signed in on this browser, if anybody. */
      signedInAs: string | null;
      /** The signed-in user is the invited one. */
      signedInAsInvitee: boolean;
      /** An operator is logged as the signed-in user: the invitation is theirs to accept, not the operator's. */
      loggedAs: boolean;
    };

async function findUsable(token: string, now: Date): Promise<{ ok: true; invitation: Invitation; team: Team } | { ok: false; problem: LinkProblem }> {
  if (!token) return { ok: false, problem: "invalid" };
  const storage = getStorage();
  const invitation = await storage.invitations.getByTokenHash(hashInvitationToken(token));
  if (!invitation) return { ok: false, problem: "invalid" };
  const state = invitationState(invitation, now);
  if (state !== "pending") return { ok: false, problem: state };
  const team = await storage.teams.getOne(invitation.teamId);
  if (!team || team.status === "archived") return { ok: false, problem: "invalid" };
  return { ok: true, invitation, team };
}

/** What the invitation page shows for a token (nothing about the invitation when it is not usable). */
export async function describeInvitation(token: string, signedIn: User | null, now = new Date()): Promise<InvitationView> {
  const found = await findUsable(token, now);
  if (!found.ok) return found;
  const { invitation, team } = found;
  const account = await getStorage().users.getByEmail(invitation.email);
  return {
    ok: true,
    email: invitation.email,
    teamName: team.name,
    role: invitation.role,
    expiresAt: invitation.expiresAt,
    accountExists: account !== null,
    signedInAs: signedIn?.email ?? null,
    signedInAsInvitee: signedIn !== null && signedIn.emailLower === invitation.emailLower,
    loggedAs: Boolean(signedIn?.loggedAsBy),
  };
}

/** The accepted invitation's team and the user, or why not (a message about the whole form). */
export type AcceptOutcome = Result<{ teamId: string; user: User }>;

function problemFailure(problem: LinkProblem): Failure {
  return fail("invalid", `users:invitation.problem.${problem}`);
}

function fromRepoReason(reason: string): Failure {
  if (reason === "invitation.wrongUser") return fail("invalid", "users:invitation.wrongUser");
  const problem = reason.replace("invitation.", "") as LinkProblem;
  return problemFailure(["expired", "revoked", "accepted"].includes(problem) ? problem : "invalid");
}

/**
 * A signed-in user accepts an invitation sent to their e-mail: the team and role are theirs.
 * Never an operator logged as them: accepting is the invitee's own consent.
 */
export async function acceptAsUser(token: string, user: User, now = new Date()): Promise<AcceptOutcome> {
  if (user.loggedAsBy) return fail("forbidden", "operators:refused.invitationLoggedAs");
  const found = await findUsable(token, now);
  if (!found.ok) return problemFailure(found.problem);
  const result = await getStorage().invitations.accept(hashInvitationToken(token), user.id, now);
  if (!result.ok) return fromRepoReason(result.reason);
  return ok({ teamId: found.team.id, user: (await getStorage().users.getOne(user.id)) ?? user });
}

/**
 * Someone without an account accepts: the account is created (status pending, a supplier with the
 * invited role) and the invitation accepted, which gives the role on the team atomically.
 */
export async function acceptWithNewAccount(
  token: string,
  input: { displayName: string; password: string; locale: string },
  now = new Date(),
): Promise<AcceptOutcome> {
  const found = await findUsable(token, now);
  if (!found.ok) return problemFailure(found.problem);
  const { invitation } = found;
  const storage = getStorage();
  if (await storage.users.getByEmail(invitation.email)) return fail("invalid", "users:invitation.accountExists");
  // The inviter's rights when the link is used: a disabled inviter vouches for nobody's staff rights.
  const foundInviter = invitation.invitedBy ? await storage.users.getByEmail(invitation.invitedBy) : null;
  const inviter = foundInviter && !foundInviter.disabled ? foundInviter : null;
  let user: User;
  try {
    user = await storage.users.create(
      {
        ...newUserData({
          email: invitation.email,
          displayName: input.displayName,
          // Retailer staff only when an operator or a retailer ADMIN invited a staff-domain address.
          claims: claimsForInvitedUser(invitation.email, invitation.role, inviter?.claims ?? null, (await getAccessSettings()).staffEmailDomain),
          // The role on the team comes with the acceptance, in the same transaction as it.
          roleByTeam: {},
          passwordHash: await hashPassword(input.password),
          status: "pending",
        }),
        locale: normaliseLocale(input.locale) ?? FALLBACK_LOCALE,
      },
      { by: invitation.email },
    );
  } catch (error) {
    if (error instanceof AlreadyExistsError) return fail("invalid", "users:invitation.accountExists");
    throw error;
  }
  const result = await storage.invitations.accept(hashInvitationToken(token), user.id, now);
  if (!result.ok) return fromRepoReason(result.reason);
  const created = (await storage.users.getOne(user.id)) ?? user;
  await notifyNewUser(created, [invitation.teamId], { now });
  return ok({ teamId: invitation.teamId, user: created });
}
