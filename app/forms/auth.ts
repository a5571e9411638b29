/**
 * Sign-in and password forms: one schema each, shared by conform in the browser and the action.
 * Written with zod/mini (see app/forms/zod-v4-browser.ts and docs/decisions/0015): the same checks
 * as zod's full build, a fraction of its weight in the browser.
 */
import * as z from "zod/mini";
import { checkPasswordStrength, PASSWORD_MAX_LENGTH } from "~/domain/passwords";

/** Messages are i18n keys, translated where they are shown. */
const email = z.pipe(
  z.string({ error: "validation.required" }).check(z.trim(), z.maxLength(254, "validation.emailInvalid")),
  z.email("validation.emailInvalid"),
);

export const LoginSchema = z.object({
  email,
  password: z.string({ error: "validation.required" }).check(z.maxLength(PASSWORD_MAX_LENGTH, "password.tooLong")),
  to: z.optional(z.string()),
});

export const ForgotPasswordSchema = z.object({ email });

const newPassword = z.string({ error: "validation.required" }).check(
  z.superRefine((value, ctx) => {
    const problem = checkPasswordStrength(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
);

export const ResetPasswordSchema = z
  .object({
    oobCode: z.string().check(z.minLength(1)),
    password: newPassword,
    confirmPassword: z.string({ error: "validation.required" }),
  })
  .check(z.refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: "password.mismatch" }));

export const ChangePasswordSchema = z
  .object({
    intent: z.literal("change-password"),
    currentPassword: z.string({ error: "validation.required" }),
    password: newPassword,
    confirmPassword: z.string({ error: "validation.required" }),
  })
  .check(z.refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: "password.mismatch" }));
