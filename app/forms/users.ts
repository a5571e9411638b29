/**
 * Forms of users, team members and invitations: one schema each, shared by conform in the browser
 * and by the actions. Messages are i18n keys.
 */
import * as z from "zod/mini";
import { checkPasswordStrength } from "~/domain/passwords";
import { ACCOUNT_TYPES, ROLES } from "~/domain/types";

export const inviteIntent = "invite";
export const resendInvitationIntent = "resend-invitation";
export const revokeInvitationIntent = "revoke-invitation";
export const changeMemberRoleIntent = "change-member-role";
export const removeMemberIntent = "remove-member";

export const updateClaimsIntent = "update-claims";
export const setTeamRoleIntent = "set-team-role";
export const removeTeamRoleIntent = "remove-team-role";
export const setDisabledIntent = "set-disabled";

export const acceptInvitationIntent = "accept";
export const createAccountIntent = "create-account";

const role = z.enum(ROLES, { error: "validation.required" });
const id = z.string({ error: "validation.required" }).check(z.trim(), z.minLength(1, "validation.required"), z.maxLength(200));

export const InviteEmailSchema = z.pipe(
  z.string({ error: "validation.required" }).check(z.trim(), z.maxLength(254, "users:validation.emailInvalid")),
  z.email("users:validation.emailInvalid"),
);

export const InviteSchema = z.object({
  intent: z.literal(inviteIntent),
  email: InviteEmailSchema,
  role,
});

export const InvitationActionSchema = z.object({
  intent: z.enum([resendInvitationIntent, revokeInvitationIntent]),
  invitationId: id,
});

export const MemberRoleSchema = z.object({
  intent: z.literal(changeMemberRoleIntent),
  userId: id,
  role,
});

export const RemoveMemberSchema = z.object({
  intent: z.literal(removeMemberIntent),
  userId: id,
});

export const UserClaimsSchema = z.object({
  intent: z.literal(updateClaimsIntent),
  version: z.coerce.number().check(z.int(), z.gte(1)),
  type: z.enum(ACCOUNT_TYPES, { error: "validation.required" }),
  role,
});

export const UserTeamRoleSchema = z.object({
  intent: z.literal(setTeamRoleIntent),
  version: z.coerce.number().check(z.int(), z.gte(1)),
  teamId: id,
  role,
});

export const RemoveUserTeamSchema = z.object({
  intent: z.literal(removeTeamRoleIntent),
  version: z.coerce.number().check(z.int(), z.gte(1)),
  teamId: id,
});

export const UserDisabledSchema = z.object({
  intent: z.literal(setDisabledIntent),
  version: z.coerce.number().check(z.int(), z.gte(1)),
  disabled: z.pipe(
    z.enum(["true", "false"]),
    z.transform((v) => v === "true"),
  ),
});

export const UsersFilterSchema = z.object({
  q: z.catch(z.optional(z.string().check(z.trim(), z.maxLength(100))), undefined),
  type: z.catch(z.optional(z.enum(ACCOUNT_TYPES)), undefined),
  status: z.catch(z.optional(z.enum(["pending", "active"])), undefined),
  after: z.catch(z.optional(z.string().check(z.maxLength(2000))), undefined),
});
export type UsersFilter = z.infer<typeof UsersFilterSchema>;

/** Opening an invitation without an account: a name and a password. */
export const CreateAccountSchema = z
  .object({
    intent: z.literal(createAccountIntent),
    token: z.string().check(z.minLength(1)),
    displayName: z.string({ error: "validation.required" }).check(z.trim(), z.minLength(1, "validation.required"), z.maxLength(80, "validation.tooLong")),
    password: z.string({ error: "validation.required" }).check(
      z.superRefine((value, ctx) => {
        const problem = checkPasswordStrength(value);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }),
    ),
    confirmPassword: z.string({ error: "validation.required" }),
  })
  .check(z.refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: "password.mismatch" }));

export const AcceptInvitationSchema = z.object({
  intent: z.literal(acceptInvitationIntent),
  token: z.string().check(z.minLength(1)),
});
