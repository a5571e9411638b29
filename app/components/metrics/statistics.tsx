/**
 * Statistics on any screen: the period form (a GET form: the period lives in the URL and works
 * without JavaScript), the totals as tiles with their change against the comparison period, the
 * freshness line, and a table of rows with their figures whose headers sort it.
 */
import { Form, Link, useLocation } from "@remix-run/react";
import { Fragment, useId, type CSSProperties, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import {
  tileChange,
  METRICS,
  type Derived,
  type Metric,
} from "~/domain/metrics/metrics";
import {
  MAX_PERIOD_DAYS,
  periodParamNames,
  type Period,
  type PeriodChoice,
  type Preset,
} from "~/domain/metrics/periods";
import { EXPORT_WARNING_ROWS } from "~/domain/metrics/csv";
import { useRootData } from "~/root";
import { formatDateTime } from "~/utils/format";
import { dateTimeFormat, numberFormat } from "~/domain/intl";
import { TableWrap } from "~/components/table-wrap";

export interface PeriodFieldsProps {
  presets: readonly Preset[];
  preset: Preset;
  period: Period;
  custom: { from: string; to: string };
  compare: boolean;
  /** The period asked for was cut to its last MAX_PERIOD_DAYS days (said under the fields). */
  shortened?: boolean;
  /** Offer the comparison with the previous period (default true). */
  compareOption?: boolean;
  /** URL names with a prefix (see periodParamNames), for a page whose own from/to mean something else. */
  prefix?: string;
  /** Prefix of the fields' ids (several period fields on one page). */
  idPrefix?: string;
  /** The id of the form the fields belong to, when they sit outside it (HTML's form attribute). */
  form?: string;
  /** Shown after the fields, before the line saying which days are shown (e.g. the submit button). */
  children?: ReactNode;
}

/** The fields' values for a period chosen from the URL (periodFromSearch). */
export function periodProps(
  choice: PeriodChoice
): Pick<PeriodFieldsProps, "preset" | "period" | "custom" | "compare" | "shortened"> {
  return {
    preset: choice.preset,
    period: choice.period,
    custom: choice.custom,
    compare: choice.previous !== null,
    shortened: choice.shortened,
  };
}

export interface PeriodFormProps extends Omit<PeriodFieldsProps, "form"> {
  /** Other URL values the form keeps (e.g. the tab, the sort). */
  keep?: Record<string, string>;
}

/**
 * A figure's currency: a code (a wallet's, NOTES: each wallet has one), undefined for the
 * retailer's, or null for figures that add up money of several currencies, which are never shown
 * as one amount (money and ROAS read "—").
 */
export type FigureCurrency = string | null | undefined;

/** The metrics that are money, or a ratio of money (ROAS), so depend on one currency. */
const MONEY_METRICS = new Set(["cost", "sales", "cpc", "roas"]);

/** Formats one figure for reading; money in `currency` (see FigureCurrency), or a row's own. */
export function useFigureFormat(currency?: FigureCurrency) {
  const { i18n } = useTranslation();
  const root = useRootData();
  const retailerCurrency = root?.money.currency ?? "EUR";
  const locale = i18n.language;
  // The formatters are made once per render of the table, not once per cell.
  const integer = numberFormat(locale);
  const percent = numberFormat(locale, { style: "percent", minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const ratio = numberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const moneyIn = (code: string) => numberFormat(locale, { style: "currency", currency: code });
  /** A figure of a row; a row may carry only the figures its table shows (the campaign list's). */
  return (metric: Metric | "cpc" | "quantity", figures: Partial<Derived>, rowCurrency?: FigureCurrency): string => {
    const value = figures[metric];
    if (value === null || value === undefined) return "—";
    const code = rowCurrency !== undefined ? rowCurrency : currency !== undefined ? currency : retailerCurrency;
    if (code === null && MONEY_METRICS.has(metric)) return "—";
    const money = moneyIn(code ?? retailerCurrency);
    switch (metric) {
      case "ctr":
        return percent.format(value);
      case "roas":
        return ratio.format(value);
      case "cost":
      case "sales":
      case "cpc":
        return money.format(value / 100);
      default:
        return integer.format(value);
    }
  };
}

/**
 * The period's fields: the preset, the custom bounds, the comparison and a line saying which days
 * are shown. Inside any GET form (the campaign list's filters) or PeriodForm.
 */
export function PeriodFields({
  presets,
  preset,
  period,
  custom,
  compare,
  shortened = false,
  compareOption = true,
  prefix,
  idPrefix = "period",
  form,
  children,
}: PeriodFieldsProps) {
  const { t, i18n } = useTranslation("metrics");
  const names = periodParamNames(prefix);
  const days = dateTimeFormat(i18n.language, {
    dateStyle: "medium",
    timeZone: "UTC",
  });
  const show = (day: string) => days.format(new Date(`${day}T00:00:00Z`));
  const id = (name: string) => `${idPrefix}-${name}`;
  // With JavaScript, typing a date chooses the custom period (without it, the help says so).
  const chooseCustom = () => {
    const select = document.getElementById(
      id("preset")
    ) as HTMLSelectElement | null;
    if (select && presets.includes("custom")) select.value = "custom";
  };
  return (
    <>
      <div className="field">
        <label htmlFor={id("preset")}>{t("period.preset")}</label>
        <select
          id={id("preset")}
          name={names.period}
          defaultValue={preset}
          form={form}
        >
          {presets.map((p) => (
            <option key={p} value={p}>
              {t(`presets.${p}`)}
            </option>
          ))}
        </select>
      </div>
      {(["from", "to"] as const).map((end) => (
        <div className="field" key={end}>
          <label htmlFor={id(end)}>{t(`period.${end}`)}</label>
          <input
            id={id(end)}
            type="date"
            name={names[end]}
            defaultValue={custom[end]}
            aria-describedby={id("custom-help")}
            form={form}
            onInput={chooseCustom}
          />
        </div>
      ))}
      {compareOption ? (
        <div className="field checkbox">
          <input
            id={id("compare")}
            type="checkbox"
            name={names.compare}
            value="1"
            defaultChecked={compare}
            form={form}
          />
          <label htmlFor={id("compare")}>{t("period.compare")}</label>
          <p className="field-help">{t("period.compareHelp")}</p>
        </div>
      ) : null}
      {children}
      <p id={id("custom-help")} className="field-help period-shown">
        {t("period.custom")}{" "}
        <strong>
          {period.from === period.to
            ? show(period.from)
            : t("period.range", {
                from: show(period.from),
                to: show(period.to),
              })}
        </strong>
        {presets.includes("custom") ? `. ${t("period.datesHelp")}` : null}
        {shortened ? ` ${t("period.shortened", { days: numberFormat(i18n.language).format(MAX_PERIOD_DAYS) })}` : null}
      </p>
    </>
  );
}

export function PeriodForm({ keep = {}, ...fields }: PeriodFormProps) {
  const { t } = useTranslation("metrics");
  return (
    <Form method="get" className="period-form" aria-label={t("period.label")}>
      {Object.entries(keep).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <PeriodFields {...fields}>
        <button type="submit" className="button">
          {t("period.apply")}
        </button>
      </PeriodFields>
    </Form>
  );
}

export function Freshness({ newestEvent }: { newestEvent: string | null }) {
  const { t, i18n } = useTranslation("metrics");
  const root = useRootData();
  const zone = root?.user?.timezone ?? "Europe/Paris";
  return (
    <p className="muted freshness">
      {newestEvent
        ? t("freshness.newest", {
            time: formatDateTime(newestEvent, i18n.language, zone),
          })
        : t("freshness.none")}
    </p>
  );
}

/**
 * The totals, each with its change on the previous period when compared; `currency` null when they
 * add up several currencies (money left out, with a note); `previousCurrency`, the comparison's
 * (null: several), when it may differ: money then has no change. `comparedUntil` (ISO): the period is
 * still under way and is compared with the previous one up to that instant only, which a line
 * under the tiles says.
 */
export function KpiTiles({
  totals,
  previous,
  currency,
  previousCurrency,
  comparedUntil = null,
}: {
  totals: Derived;
  previous: Derived | null;
  currency?: FigureCurrency;
  previousCurrency?: FigureCurrency;
  comparedUntil?: string | null;
}) {
  const { t, i18n } = useTranslation("metrics");
  const format = useFigureFormat(currency);
  const root = useRootData();
  const zone = root?.user?.timezone ?? "Europe/Paris";
  const signed = numberFormat(i18n.language, { style: "percent", signDisplay: "exceptZero", maximumFractionDigits: 1 });
  return (
    <>
      <ul className="kpi-tiles" aria-label={t("totals")}>
        {METRICS.map((metric) => {
          // Money over several currencies (currency null), or compared with another currency's,
          // has no change.
          const delta = tileChange(metric, totals, previous, currency, previousCurrency);
          return (
            <li key={metric} className="kpi-tile">
              <span className="kpi-label">{t(`metric.${metric}`)}</span>
              <strong className="kpi-value" style={{ "--chars": format(metric, totals).length } as CSSProperties}>
                {format(metric, totals)}
              </strong>
              {previous ? (
                <span
                  className={`kpi-change${
                    delta === null
                      ? ""
                      : delta > 0
                      ? " up"
                      : delta < 0
                      ? " down"
                      : ""
                  }`}
                >
                  {delta === null
                    ? t("change.none")
                    : t("change.value", { value: signed.format(delta) })}
                  <span className="visually-hidden">
                    {" "}
                    {t("change.previous", { value: format(metric, previous, previousCurrency) })}
                  </span>
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
      {previous && comparedUntil ? (
        <p className="muted compared-until">
          {t("change.partial", {
            until: formatDateTime(comparedUntil, i18n.language, zone),
          })}
        </p>
      ) : null}
    </>
  );
}

/** The note beside totals that leave money out, as they would add up several currencies. */
export function MixedCurrenciesNote() {
  const { t } = useTranslation("metrics");
  return (
    <p className="notice" role="note">
      {t("mixedCurrencies")}
    </p>
  );
}

export interface FigureRow {
  id: string;
  name: string;
  href?: string;
  teamId?: string;
  teamName?: string;
  figures: Derived;
  /** The row's currency (a wallet's or a campaign's wallet's); null: the row adds up several. */
  currency?: FigureCurrency;
}

/** A link of each row narrowing the page to it (the dashboard's drill-down), in a column after the name. */
export interface RowDrill {
  column: string;
  link: (
    row: FigureRow
  ) => { href: string; text: string; label: string } | null;
}

/** A table of rows with their figures; each header links to the same URL sorted by it. */
export function FiguresTable({
  caption,
  nameLabel,
  rows,
  sort,
  dir,
  showTeam = false,
  drill,
}: {
  caption: string;
  nameLabel: string;
  rows: FigureRow[];
  sort?: string;
  dir?: "asc" | "desc";
  showTeam?: boolean;
  drill?: RowDrill;
}) {
  const { t } = useTranslation("metrics");
  const format = useFigureFormat();
  const location = useLocation();
  const sortHref = (key: string) => {
    const params = new URLSearchParams(location.search);
    const nextDir =
      sort === key && dir === "desc"
        ? "asc"
        : key === "name" && sort !== key
        ? "asc"
        : "desc";
    params.set("sort", key);
    params.set("dir", nextDir);
    return `?${params.toString()}`;
  };
  const header = (key: string, label: string, numeric: boolean) => {
    const current = sort === key;
    return (
      <th
        scope="col"
        className={numeric ? "num" : undefined}
        aria-sort={
          current ? (dir === "asc" ? "ascending" : "descending") : undefined
        }
      >
        {sort !== undefined ? (
          <Link to={sortHref(key)} preventScrollReset>
            {label}
            {current ? (
              <span aria-hidden="true">{dir === "asc" ? " ▲" : " ▼"}</span>
            ) : null}
          </Link>
        ) : (
          label
        )}
      </th>
    );
  };
  return (
    <TableWrap label={t("figuresOf", { table: caption })}>
      <table className="figures-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {header("name", nameLabel, false)}
            {drill ? <th scope="col">{drill.column}</th> : null}
            {showTeam ? <th scope="col">{t("team")}</th> : null}
            {METRICS.map((metric) => (
              <Fragment key={metric}>
                {header(metric, t(`metric.${metric}`), true)}
              </Fragment>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const link = drill?.link(row);
            return (
              <tr key={row.id}>
                <th scope="row">
                  {row.href ? <Link to={row.href}>{row.name}</Link> : row.name}
                </th>
                {drill ? (
                  <td className="drill">
                    {link ? (
                      <Link to={link.href} aria-label={link.label}>
                        {link.text}
                      </Link>
                    ) : null}
                  </td>
                ) : null}
                {showTeam ? <td>{row.teamName}</td> : null}
                {METRICS.map((metric) => (
                  <td key={metric} className="num">
                    {format(metric, row.figures, row.currency)}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableWrap>
  );
}

/**
 * A link downloading a table as CSV, for the period on screen (the URL's period values kept, or
 * the given query), and beside it the spec's warning when the table is large: `rows` is what the
 * loader counted (it may stop counting just past the warning's threshold).
 */
export function ExportLink({
  path,
  extra = {},
  label,
  rows,
  search,
}: {
  path: string;
  extra?: Record<string, string>;
  label?: string;
  rows?: number;
  search?: URLSearchParams;
}) {
  const { t, i18n } = useTranslation("metrics");
  const location = useLocation();
  const warningId = useId();
  let params: URLSearchParams;
  if (search) {
    params = new URLSearchParams(search);
  } else {
    params = new URLSearchParams();
    const current = new URLSearchParams(location.search);
    for (const key of ["period", "from", "to"]) {
      const value = current.get(key);
      if (value) params.set(key, value);
    }
  }
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const large = rows !== undefined && rows > EXPORT_WARNING_ROWS;
  return (
    <span className="export">
      <a
        className="export-link"
        href={`${path}?${params.toString()}`}
        download
        aria-describedby={large ? warningId : undefined}
      >
        {label ?? t("export")}
      </a>
      {large ? (
        <span id={warningId} className="export-warning" role="note">
          {t("exportLarge", {
            limit: numberFormat(i18n.language).format(EXPORT_WARNING_ROWS),
          })}
        </span>
      ) : null}
    </span>
  );
}
