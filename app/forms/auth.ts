/** Sign-in and password forms: one schema each, shared by conform in the browser and the action. */
import * as z from "zod";
import { checkPasswordStrength, PASSWORD_MAX_LENGTH } from "~/domain/passwords";

/** Messages are i18n keys, translated where they are shown. */
const email = z
  .string({ error: "validation.required" })
  .trim()
  .max(254, "validation.emailInvalid")
  .pipe(z.email("validation.emailInvalid"));

export const LoginSchema = z.object({
  email,
  password: z.string({ error: "validation.required" }).max(PASSWORD_MAX_LENGTH, "password.tooLong"),
  to: z.string().optional(),
});

export const ForgotPasswordSchema = z.object({ email });

const newPassword = z
  .string({ error: "validation.required" })
  .superRefine((value, ctx) => {
    const problem = checkPasswordStrength(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

export const ResetPasswordSchema = z
  .object({
    oobCode: z.string().min(1),
    password: newPassword,
    confirmPassword: z.string({ error: "validation.required" }),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: "password.mismatch" });

export const ChangePasswordSchema = z
  .object({
    intent: z.literal("change-password"),
    currentPassword: z.string({ error: "validation.required" }),
    password: newPassword,
    confirmPassword: z.string({ error: "validation.required" }),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: "password.mismatch" });
