/** Form building blocks: a labelled field with its errors, wired for assistive tech. */
import { useTranslation } from "react-i18next";
import { splitMessage } from "~/domain/message";
import { cn } from "~/utils/misc";

export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  const { t } = useTranslation();
  if (!errors?.length) return null;
  return (
    <ul id={id} className="field-errors">
      {errors.map((e) => {
        const { key, values } = splitMessage(e);
        return <li key={e}>{t(key, values)}</li>;
      })}
    </ul>
  );
}

export function Field({
  label,
  inputProps,
  errors,
  help,
  className,
}: {
  label: string;
  inputProps: React.InputHTMLAttributes<HTMLInputElement> & { id: string; key?: string | null };
  errors?: string[] | null;
  help?: string;
  className?: string;
}) {
  const { key, ...props } = inputProps;
  const errorId = errors?.length ? `${props.id}-error` : undefined;
  const helpId = help ? `${props.id}-help` : undefined;
  return (
    <div className={cn("field", className)}>
      <label htmlFor={props.id} className={props.required ? "required-label" : undefined}>
        {label}
      </label>
      <input
        key={key ?? undefined}
        {...props}
        aria-required={props.required ? true : undefined}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={[errorId, helpId].filter(Boolean).join(" ") || undefined}
      />
      {help ? (
        <p id={helpId} className="field-help">
          {help}
        </p>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

/** A form-level alert (title and message), announced when it appears. */
export function FormAlert({ title, message }: { title: string; message?: string }) {
  return (
    <div className="form-alert" role="alert">
      <strong>{title}</strong>
      {message ? <p>{message}</p> : null}
    </div>
  );
}

export function SubmitButton({ pending, children, className }: { pending: boolean; children: React.ReactNode; className?: string }) {
  const { t } = useTranslation();
  return (
    <button type="submit" className={cn("button primary", className)} aria-disabled={pending || undefined} data-pending={pending || undefined}>
      {pending ? t("actions.working") : children}
    </button>
  );
}
