/**
 * The second factor's forms (ADR 30): the sign-in's code step and the enrolment screen. One
 * schema each, shared by conform in the browser and the actions.
 */
import * as z from "zod/mini";
import { PASSWORD_MAX_LENGTH } from "~/domain/passwords";

/** A six-digit code or a recovery code, as typed; the use case tells which and checks it. */
const code = z.string({ error: "validation.required" }).check(z.trim(), z.minLength(1, "validation.required"), z.maxLength(32, "secondFactor:errors.invalidCode"));
const password = z.string({ error: "validation.required" }).check(z.minLength(1, "validation.required"), z.maxLength(PASSWORD_MAX_LENGTH, "password.tooLong"));

export const secondFactorCodeIntent = "second-factor-code";
export const startEnrolmentIntent = "start-second-factor";
export const confirmEnrolmentIntent = "confirm-second-factor";
export const regenerateCodesIntent = "regenerate-recovery-codes";
export const disableSecondFactorIntent = "disable-second-factor";
export const resetSecondFactorIntent = "reset-second-factor";

export const SecondFactorCodeSchema = z.object({ intent: z.literal(secondFactorCodeIntent), code });
export const ConfirmEnrolmentSchema = z.object({ intent: z.literal(confirmEnrolmentIntent), code });
export const RegenerateCodesSchema = z.object({ intent: z.literal(regenerateCodesIntent), password });
export const ResetSecondFactorSchema = z.object({ intent: z.literal(resetSecondFactorIntent) });
export const DisableSecondFactorSchema = z.object({ intent: z.literal(disableSecondFactorIntent), password });
