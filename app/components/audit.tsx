/**
 * A recorded change, field by field (label, before, after), as Activity and a campaign's History
 * show it: the values come formatted from app/domain/audit-view.ts; long ones are shortened with
 * the whole text one click away, and nothing makes the page scroll sideways.
 */
import { useTranslation } from "react-i18next";
import type { AuditChangeView, AuditValueView } from "~/domain/audit-view";

export interface AuditChangesLabels {
  caption: string;
  field: string;
  before: string;
  after: string;
  none: string;
  showAll: string;
}

export function AuditChanges({
  changes,
  emptyText,
  labels,
}: {
  changes: AuditChangeView[];
  emptyText: string;
  labels?: AuditChangesLabels;
}) {
  const { t } = useTranslation();
  const l = labels ?? {
    caption: t("activity.changes"),
    field: t("activity.what"),
    before: t("activity.before"),
    after: t("activity.after"),
    none: t("activity.none"),
    showAll: t("activity.showAll"),
  };
  if (changes.length === 0) return <p className="muted">{emptyText}</p>;
  return (
    <table className="audit-changes">
      <caption className="visually-hidden">{l.caption}</caption>
      <thead>
        <tr>
          <th scope="col">{l.field}</th>
          <th scope="col">{l.before}</th>
          <th scope="col">{l.after}</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((change) => {
          // Under a field's label: which products a change added, removed, switched or moved.
          const lines = change.lines;
          return (
            <tr key={change.field}>
              <th scope="row">
                {change.label}
                {lines.length ? (
                  <ul className="history-summary">
                    {lines.map((line) => (
                      <li key={line}>{line}</li>
                    ))}
                  </ul>
                ) : null}
              </th>
              <td>
                <AuditValue value={change.before} none={l.none} showAll={l.showAll} />
              </td>
              <td>
                <AuditValue value={change.after} none={l.none} showAll={l.showAll} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function AuditValue({ value, none, showAll }: { value: AuditValueView; none: string; showAll: string }) {
  if (!value.text) return <span className="muted">{none}</span>;
  if (!value.short) return <span className="audit-value">{value.text}</span>;
  return (
    <details className="history-long">
      <summary>
        <span className="audit-value">{value.short}</span> <span className="muted">{showAll}</span>
      </summary>
      <span className="audit-value">{value.text}</span>
    </details>
  );
}
