/**
 * The HTTP adapter's one way to answer a use case's result: a failure becomes a status code and
 * the form's errors (conform's submission reply, or a plain message), a success a
 * Post/Redirect/Get with a toast. Every route replies through these, so a kind maps to one
 * status everywhere.
 */
import type { Submission, SubmissionResult } from "@conform-to/react";
import { data, redirect } from "@remix-run/node";
import type { Failure, FailureKind, Result } from "~/domain/result";
import { failureFieldErrors, failureFormErrors, failureMessage } from "~/domain/result";
import { redirectWithToast, type ToastInput } from "./toast.server";

export const STATUS_OF_KIND: Record<FailureKind, 400 | 401 | 403 | 404 | 409 | 413 | 429 | 503> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  "not-found": 404,
  conflict: 409,
  "too-large": 413,
  "too-many": 429,
  unavailable: 503,
};

export function statusOf(failure: Pick<Failure, "kind">): number {
  return STATUS_OF_KIND[failure.kind];
}

/** What an action answers when a form's input was refused: which form, conform's reply, the message. */
export interface FormReply<F extends string = string> {
  form: F;
  result?: SubmissionResult<string[]>;
  /** The first message (key plus values), for forms without conform and for alerts above a form. */
  error?: string;
  /** What went wrong, when a use case refused (absent when the form's own schema did). */
  kind?: FailureKind;
}

/**
 * How a reply is built: `hideFields` are not echoed back (passwords, files); `with` adds the
 * route's own data to the reply (e.g. the version a retried save is based on).
 */
export interface ReplyOptions<X extends object = object> {
  hideFields?: string[];
  with?: X;
}

/**
 * A refused submission: conform's reply carrying the failure's field and form errors (the
 * user's input kept), with the kind's status.
 */
export function replyFailure<F extends string, X extends object = object>(
  form: F,
  failure: Failure,
  submission?: Submission<unknown>,
  options: ReplyOptions<X> = {},
) {
  const body: FormReply<F> = { form, error: failureMessage(failure), kind: failure.kind };
  if (submission) {
    body.result = submission.reply({
      hideFields: options.hideFields,
      formErrors: failureFormErrors(failure),
      fieldErrors: failureFieldErrors(failure),
    });
  }
  return data({ ...options.with, ...body } as FormReply<F> & X, { status: statusOf(failure) });
}

/** The first message of conform's reply: the form's own, else the first field's. */
function firstMessage(result: SubmissionResult<string[]>): string | undefined {
  return Object.values(result.error ?? {})
    .flatMap((messages) => messages ?? [])
    .find(Boolean);
}

/** Input that failed the form's own schema (conform's errors as they are), status 400. */
export function replyInvalid<F extends string, X extends object = object>(form: F, submission: Submission<unknown>, options: ReplyOptions<X> = {}) {
  const result = submission.reply({ hideFields: options.hideFields });
  const body: FormReply<F> = { form, result, error: firstMessage(result) };
  return data({ ...options.with, ...body } as FormReply<F> & X, { status: 400 });
}

export type SuccessReply = string | { to: string; toast?: ToastInput; headers?: HeadersInit };

/**
 * The reply to a use case's result: on success, a redirect (with a toast when given); on
 * failure, `replyFailure`.
 */
export async function reply<T, F extends string, X extends object = object>(
  result: Result<T>,
  options: ReplyOptions<X> & {
    form: F;
    submission?: Submission<unknown>;
    onSuccess: (value: T, warnings: string[]) => SuccessReply | Promise<SuccessReply>;
  },
) {
  if (!result.ok) return replyFailure(options.form, result, options.submission, options);
  const success = await options.onSuccess(result.value, result.warnings ?? []);
  if (typeof success === "string") return redirect(success);
  if (success.toast) return redirectWithToast(success.to, success.toast, { headers: success.headers });
  return redirect(success.to, { headers: success.headers });
}

/**
 * For loaders and the start of actions: the value, or the failure thrown as an error response
 * that the route's error boundary shows (404 does not reveal whether the record exists).
 */
export function orThrow<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw data({ error: failureMessage(result) }, { status: statusOf(result) });
}

/** An unknown intent: a 400 that changes nothing. */
export function unknownIntent(): never {
  throw data({ error: "errors.unknownIntent" }, { status: 400 });
}

/**
 * The value of a form that only a forged request gets wrong (hidden fields, fixed choices), else
 * a 400 that changes nothing, like an unknown intent.
 */
export function validOrThrow<S, E, T>(submission: Submission<S, E, T>): T {
  if (submission.status === "success") return submission.value;
  return unknownIntent();
}
