/** A conform-wired select; apart from forms.tsx so pages without selects skip conform. */
import { getSelectProps, type FieldMetadata } from "@conform-to/react";
import { ErrorList } from "~/components/forms";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyField = FieldMetadata<any, any, string[]>;

/** A select with its label and errors, wired like Field. */
export function SelectField({ field, label, children, autoFocus }: { field: AnyField; label: string; children: React.ReactNode; autoFocus?: boolean }) {
  const errorId = field.errors?.length ? `${field.id}-error` : undefined;
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <select {...getSelectProps(field)} key={field.key} aria-invalid={errorId ? true : undefined} aria-describedby={errorId} autoFocus={autoFocus}>
        {children}
      </select>
      <ErrorList id={errorId} errors={field.errors} />
    </div>
  );
}

