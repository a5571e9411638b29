/**
 * The one result type of every use case (app/services), so a form, a job, an API call, an
 * import or an SSO callback reads an outcome the same way. A failure's `reason` is the i18n key
 * of the message the user reads, with its `values`; `kind` says what went wrong, and only the
 * HTTP adapter (app/http/reply.server.ts) turns a kind into a status code.
 */
import { withValues, type MessageValues } from "./message";

export type FailureKind =
  /** The input breaks a rule: the user can correct it. */
  | "invalid"
  /** Who is asking was not recognised: wrong credentials, or an account that may not sign in. */
  | "unauthenticated"
  /** The user lacks the right ('Insufficient permissions'). */
  | "forbidden"
  /** Missing, or outside the user's scope (its existence is not revealed). */
  | "not-found"
  /** A stale version or a duplicate: someone else changed it first. */
  | "conflict"
  /** Too many attempts for now. */
  | "too-many"
  /** A body or file over its limit. */
  | "too-large"
  /** A dependency failed; nothing was written. */
  | "unavailable";

export interface Failure {
  ok: false;
  kind: FailureKind;
  /** The i18n key of the message ('ns:key', or a common key). */
  reason: string;
  values?: MessageValues;
  /** The form field the reason belongs to; without it the reason is about the whole form. */
  field?: string;
  /** Further messages per field (each a message string, see `withValues`). */
  fieldErrors?: Record<string, string[]>;
  /** Messages detailing the reason (e.g. each gap under 'Incomplete Campaign'), each an i18n key. */
  details?: string[];
}

export interface Success<T> {
  ok: true;
  value: T;
  /** Messages to show beside the success (e.g. a budget warning), each a message string. */
  warnings?: string[];
}

export type Result<T = void> = Success<T> | Failure;

export function ok(): Success<void>;
export function ok<T>(value: T, warnings?: string[]): Success<T>;
export function ok<T>(value?: T, warnings?: string[]): Success<T | undefined> {
  return warnings?.length ? { ok: true, value, warnings } : { ok: true, value };
}

export function fail(
  kind: FailureKind,
  reason: string,
  extra: { values?: MessageValues; field?: string; fieldErrors?: Record<string, string[]>; details?: string[] } = {},
): Failure {
  return { ok: false, kind, reason, ...extra };
}

/** The failure's message as one string (key plus values), the form conform's error lists carry. */
export function failureMessage(failure: Pick<Failure, "reason" | "values">): string {
  return failure.values ? withValues(failure.reason, failure.values) : failure.reason;
}

/** Every field message of a failure, the reason included under its field when it has one. */
export function failureFieldErrors(failure: Failure): Record<string, string[]> {
  const errors: Record<string, string[]> = { ...failure.fieldErrors };
  if (failure.field) errors[failure.field] = [failureMessage(failure), ...(errors[failure.field] ?? [])];
  return errors;
}

/** The messages about the whole form (none when the reason belongs to a field). */
export function failureFormErrors(failure: Failure): string[] {
  return failure.field ? [] : [failureMessage(failure)];
}

export const notFound = (reason = "errors.notFound") => fail("not-found", reason);
export const forbidden = (reason = "errors.insufficientPermissions") => fail("forbidden", reason);
export const conflict = (reason = "errors.conflict") => fail("conflict", reason);
