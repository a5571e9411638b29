/**
 * Statistics on any screen: the period form (a GET form: the period lives in the URL and works
 * without JavaScript), the totals as tiles with their change against the comparison period, the
 * freshness line, and a table of rows with their figures whose headers sort it.
 */
import { Form, Link, useLocation } from "@remix-run/react";
import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { change, METRICS, type Derived, type Metric } from "~/domain/metrics/metrics";
import type { Period, Preset } from "~/domain/metrics/periods";
import { useRootData } from "~/root";
import { formatDateTime, formatMoney } from "~/utils/format";

export interface PeriodFormProps {
  presets: readonly Preset[];
  preset: Preset;
  period: Period;
  custom: { from: string; to: string };
  compare: boolean;
  /** Other URL values the form keeps (e.g. the tab, the sort). */
  keep?: Record<string, string>;
}

/** Formats one figure for reading. */
export function useFigureFormat() {
  const { i18n } = useTranslation();
  const root = useRootData();
  const currency = root?.money.currency ?? "EUR";
  const locale = i18n.language;
  const integer = new Intl.NumberFormat(locale);
  const percent = new Intl.NumberFormat(locale, { style: "percent", minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const ratio = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return (metric: Metric | "cpc" | "quantity", figures: Derived): string => {
    switch (metric) {
      case "ctr":
        return figures.ctr === null ? "—" : percent.format(figures.ctr);
      case "roas":
        return figures.roas === null ? "—" : ratio.format(figures.roas);
      case "cost":
        return formatMoney(figures.cost, currency, locale);
      case "sales":
        return formatMoney(figures.sales, currency, locale);
      case "cpc":
        return figures.cpc === null ? "—" : formatMoney(figures.cpc, currency, locale);
      default:
        return integer.format(figures[metric]);
    }
  };
}

export function PeriodForm({ presets, preset, period, custom, compare, keep = {} }: PeriodFormProps) {
  const { t, i18n } = useTranslation("metrics");
  const days = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeZone: "UTC" });
  const show = (day: string) => days.format(new Date(`${day}T00:00:00Z`));
  return (
    <Form method="get" className="period-form" aria-label={t("period.label")}>
      {Object.entries(keep).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="field">
        <label htmlFor="period-preset">{t("period.preset")}</label>
        <select id="period-preset" name="period" defaultValue={preset}>
          {presets.map((p) => (
            <option key={p} value={p}>
              {t(`presets.${p}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="period-from">{t("period.from")}</label>
        <input id="period-from" type="date" name="from" defaultValue={custom.from} aria-describedby="period-custom-help" />
      </div>
      <div className="field">
        <label htmlFor="period-to">{t("period.to")}</label>
        <input id="period-to" type="date" name="to" defaultValue={custom.to} aria-describedby="period-custom-help" />
      </div>
      <div className="field checkbox">
        <input id="period-compare" type="checkbox" name="compare" value="1" defaultChecked={compare} />
        <label htmlFor="period-compare">{t("period.compare")}</label>
      </div>
      <button type="submit" className="button">
        {t("period.apply")}
      </button>
      <p id="period-custom-help" className="field-help period-shown">
        {t("period.custom")}{" "}
        <strong>{period.from === period.to ? show(period.from) : t("period.range", { from: show(period.from), to: show(period.to) })}</strong>
      </p>
    </Form>
  );
}

export function Freshness({ newestEvent }: { newestEvent: string | null }) {
  const { t, i18n } = useTranslation("metrics");
  const root = useRootData();
  const zone = root?.user?.timezone ?? "Europe/Paris";
  return (
    <p className="muted freshness">
      {newestEvent ? t("freshness.newest", { time: formatDateTime(newestEvent, i18n.language, zone) }) : t("freshness.none")}
    </p>
  );
}

export function KpiTiles({ totals, previous }: { totals: Derived; previous: Derived | null }) {
  const { t, i18n } = useTranslation("metrics");
  const format = useFigureFormat();
  const signed = new Intl.NumberFormat(i18n.language, { style: "percent", signDisplay: "exceptZero", maximumFractionDigits: 1 });
  return (
    <ul className="kpi-tiles" aria-label={t("totals")}>
      {METRICS.map((metric) => {
        const delta = previous ? change(totals[metric], previous[metric]) : null;
        return (
          <li key={metric} className="kpi-tile">
            <span className="kpi-label">{t(`metric.${metric}`)}</span>
            <strong className="kpi-value">{format(metric, totals)}</strong>
            {previous ? (
              <span className={`kpi-change${delta === null ? "" : delta > 0 ? " up" : delta < 0 ? " down" : ""}`}>
                {delta === null ? t("change.none") : t("change.value", { value: signed.format(delta) })}
                <span className="visually-hidden"> {t("change.previous", { value: format(metric, previous) })}</span>
              </span>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

export interface FigureRow {
  id: string;
  name: string;
  href?: string;
  teamName?: string;
  figures: Derived;
}

/** A table of rows with their figures; each header links to the same URL sorted by it. */
export function FiguresTable({
  caption,
  nameLabel,
  rows,
  sort,
  dir,
  showTeam = false,
}: {
  caption: string;
  nameLabel: string;
  rows: FigureRow[];
  sort?: string;
  dir?: "asc" | "desc";
  showTeam?: boolean;
}) {
  const { t } = useTranslation("metrics");
  const format = useFigureFormat();
  const location = useLocation();
  const sortHref = (key: string) => {
    const params = new URLSearchParams(location.search);
    const nextDir = sort === key && dir === "desc" ? "asc" : key === "name" && sort !== key ? "asc" : "desc";
    params.set("sort", key);
    params.set("dir", nextDir);
    return `?${params.toString()}`;
  };
  const header = (key: string, label: string, numeric: boolean) => {
    const current = sort === key;
    return (
      <th scope="col" className={numeric ? "num" : undefined} aria-sort={current ? (dir === "asc" ? "ascending" : "descending") : undefined}>
        {sort !== undefined ? (
          <Link to={sortHref(key)} preventScrollReset>
            {label}
            {current ? <span aria-hidden="true">{dir === "asc" ? " ▲" : " ▼"}</span> : null}
          </Link>
        ) : (
          label
        )}
      </th>
    );
  };
  return (
    <div className="table-wrap">
      <table className="figures-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {header("name", nameLabel, false)}
            {showTeam ? <th scope="col">{t("team")}</th> : null}
            {METRICS.map((metric) => (
              <Fragment key={metric}>{header(metric, t(`metric.${metric}`), true)}</Fragment>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <th scope="row">{row.href ? <Link to={row.href}>{row.name}</Link> : row.name}</th>
              {showTeam ? <td>{row.teamName}</td> : null}
              {METRICS.map((metric) => (
                <td key={metric} className="num">
                  {format(metric, row.figures)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A link downloading a table as CSV, for the period on screen (the URL's period values kept). */
export function ExportLink({ path, extra = {}, label }: { path: string; extra?: Record<string, string>; label?: string }) {
  const { t } = useTranslation("metrics");
  const location = useLocation();
  const params = new URLSearchParams();
  const current = new URLSearchParams(location.search);
  for (const key of ["period", "from", "to"]) {
    const value = current.get(key);
    if (value) params.set(key, value);
  }
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  return (
    <a className="export-link" href={`${path}?${params.toString()}`} download>
      {label ?? t("export")}
    </a>
  );
}
