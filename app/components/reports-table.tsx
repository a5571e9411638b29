/**
 * The tables of the Reports screens (the list at /reports and a report's history): one scrolling
 * table whose first column is the row's title and whose other cells carry their column's name
 * for the narrow layout, a time or a dash, a run's status badge, and the pages' links.
 */
import { Link } from "@remix-run/react";
import type { HTMLAttributes, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { TableWrap } from "~/components/table-wrap";

export interface ReportColumn<Row> {
  key: string;
  header: string;
  cell: (row: Row) => ReactNode;
  className?: string;
}

export function ReportsTable<Row>({
  labelledBy,
  caption,
  className,
  columns,
  rows,
  rowKey,
  rowProps,
}: {
  /** The id of the table's name: its visually hidden caption when `caption` is given, else a heading. */
  labelledBy: string;
  caption?: string;
  className: string;
  /** The first is the row's title (no label of its own in the narrow layout). */
  columns: ReportColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  rowProps?: (row: Row) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string>;
}) {
  return (
    <TableWrap labelledBy={labelledBy}>
      <table className={`list-table ${className}`}>
        {caption ? (
          <caption id={labelledBy} className="visually-hidden">
            {caption}
          </caption>
        ) : null}
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.key} scope="col">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowProps?.(row)}>
              {columns.map((column, index) =>
                index === 0 ? (
                  <td key={column.key} className="list-table-title">
                    {column.cell(row)}
                  </td>
                ) : (
                  <td key={column.key} data-label={column.header} className={column.className}>
                    {column.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** A date and time as the server wrote it, or what to show without one (a muted dash by default). */
export function ReportTime({ value, none }: { value: { at: string; text: string } | null | undefined; none?: string }) {
  return value ? <time dateTime={value.at}>{value.text}</time> : <span className="muted">{none ?? "–"}</span>;
}

/** A run's status (done, failed, …) as a badge. */
export function ReportStatus({ status }: { status: string }) {
  const { t } = useTranslation("reports");
  return <span className={`badge report-status report-status-${status}`}>{t(`statuses.${status}`)}</span>;
}

/** A stopped report (ADR 49): since when, why, and how it runs again. */
export function ReportStopped({ stopped }: { stopped: { since: { at: string; text: string }; reason: string } }) {
  const { t } = useTranslation("reports");
  return (
    <div className="notice report-stopped" role="status">
      <p>
        <strong>{t("stopped.title")}</strong>
      </p>
      <p>{t("stopped.since", { when: stopped.since.text, reason: t(stopped.reason) })}</p>
      <p>{t("stopped.howToResume")}</p>
    </div>
  );
}

/** A row count (as the server wrote it), or a muted dash. */
export function ReportRows({ rows }: { rows: ReactNode }) {
  return <>{rows ?? <span className="muted">–</span>}</>;
}

/** The links to the first and the next page (cursor pages: `after`). */
export function ReportPages({ after, next, first }: { after: string | null; next: string | null; first: string }) {
  const { t } = useTranslation("reports");
  if (!after && !next) return null;
  return (
    <nav className="pagination" aria-label={t("pages")}>
      {after ? <Link to={first}>{t("firstPage")}</Link> : null}
      {next ? <Link to={`?${new URLSearchParams({ after: next })}`}>{t("nextPage")}</Link> : null}
    </nav>
  );
}
