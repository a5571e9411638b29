/**
 * Charts over the statistics tables. The server renders every number as a table; in the browser,
 * after load, this loads recharts (its own chunk, never in the first load) and draws the chosen
 * metrics over time (the toggleable chart), the top rows of a table by one metric (the top chart)
 * and the chosen breakdown. Without JavaScript the tables are the whole story.
 * Defaults (spec section 2): first metric Displays, second Clicks, chart type area; breakdowns by
 * Devices, Slots, Placements, CampaignTypes; the top chart by spend.
 */
import { useEffect, useId, useState, type ComponentType } from "react";
import { useTranslation } from "react-i18next";
import { BREAKDOWNS, METRICS, type Breakdown, type Derived, type Metric } from "~/domain/metrics/metrics";
import { useFigureFormat, type FigureCurrency } from "~/components/metrics/statistics";

export const CHART_TYPES = ["area", "line", "bar"] as const;
export type ChartType = (typeof CHART_TYPES)[number];

export interface ChartPoint {
  label: string;
  figures: Derived;
}

export interface ChartCanvasProps {
  type: ChartType;
  points: ChartPoint[];
  metrics: Metric[];
  names: Record<string, string>;
  format: (metric: Metric, figures: Derived) => string;
}

type Canvas = ComponentType<ChartCanvasProps>;

/** recharts, loaded once on first use. */
let canvasPromise: Promise<{ TimeCanvas: Canvas; BreakdownCanvas: Canvas }> | null = null;
function loadCanvas() {
  canvasPromise ??= import("~/components/metrics/chart-canvas.client");
  return canvasPromise;
}

function useCanvas(which: "TimeCanvas" | "BreakdownCanvas"): Canvas | null {
  const [canvas, setCanvas] = useState<Canvas | null>(null);
  useEffect(() => {
    let live = true;
    loadCanvas()
      .then((module) => live && setCanvas(() => module[which]))
      .catch(() => undefined); // the table below says it all
    return () => {
      live = false;
    };
  }, [which]);
  return canvas;
}

function MetricSelect({ label, value, onChange }: { label: string; value: Metric; onChange: (m: Metric) => void }) {
  const { t } = useTranslation("metrics");
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as Metric)}>
        {METRICS.map((m) => (
          <option key={m} value={m}>
            {t(`metric.${m}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The toggleable chart of figures over time, with two metrics and a chart type. */
export function TimeChart({ points, currency }: { points: ChartPoint[]; currency?: FigureCurrency }) {
  const { t } = useTranslation("metrics");
  const format = useFigureFormat(currency);
  const Canvas = useCanvas("TimeCanvas");
  const [shown, setShown] = useState(true);
  const [first, setFirst] = useState<Metric>("displays");
  const [second, setSecond] = useState<Metric>("clicks");
  const [type, setType] = useState<ChartType>("area");
  const typeId = useId();
  if (!Canvas || points.length === 0) return null;
  const names = Object.fromEntries(METRICS.map((m) => [m, t(`metric.${m}`)]));
  return (
    <div className="chart-block">
      <div className="chart-controls">
        <button type="button" className="button" aria-expanded={shown} onClick={() => setShown(!shown)}>
          {shown ? t("chart.hide") : t("chart.show")}
        </button>
        {shown ? (
          <>
            <MetricSelect label={t("chart.first")} value={first} onChange={setFirst} />
            <MetricSelect label={t("chart.second")} value={second} onChange={setSecond} />
            <div className="field">
              <label htmlFor={typeId}>{t("chart.type")}</label>
              <select id={typeId} value={type} onChange={(e) => setType(e.target.value as ChartType)}>
                {CHART_TYPES.map((c) => (
                  <option key={c} value={c}>
                    {t(`chart.types.${c}`)}
                  </option>
                ))}
              </select>
            </div>
          </>
        ) : null}
      </div>
      {shown ? (
        <figure className="chart" aria-label={t("chart.timeLabel", { first: names[first], second: names[second] })}>
          <Canvas type={type} points={points} metrics={first === second ? [first] : [first, second]} names={names} format={format} />
        </figure>
      ) : null}
    </div>
  );
}

/** The breakdown chart: one metric across the values of one breakdown. */
export function BreakdownChart({
  breakdowns,
  nameOf,
  currency,
}: {
  breakdowns: Record<Breakdown, { key: string; figures: Derived }[]>;
  nameOf: (term: Breakdown, key: string) => string;
  currency?: FigureCurrency;
}) {
  const { t } = useTranslation("metrics");
  const format = useFigureFormat(currency);
  const Canvas = useCanvas("BreakdownCanvas");
  const [term, setTerm] = useState<Breakdown>("device");
  const [metric, setMetric] = useState<Metric>("displays");
  const termId = useId();
  if (!Canvas) return null;
  const names = Object.fromEntries(METRICS.map((m) => [m, t(`metric.${m}`)]));
  const points = breakdowns[term].map((row) => ({ label: nameOf(term, row.key), figures: row.figures }));
  return (
    <div className="chart-block">
      <div className="chart-controls">
        <div className="field">
          <label htmlFor={termId}>{t("chart.breakdown")}</label>
          <select id={termId} value={term} onChange={(e) => setTerm(e.target.value as Breakdown)}>
            {BREAKDOWNS.map((b) => (
              <option key={b} value={b}>
                {t(`breakdown.${b}`)}
              </option>
            ))}
          </select>
        </div>
        <MetricSelect label={t("chart.metric")} value={metric} onChange={setMetric} />
      </div>
      {points.length ? (
        <figure className="chart chart-small" aria-label={t("chart.breakdownLabel", { metric: names[metric], breakdown: t(`breakdown.${term}`) })}>
          <Canvas type="bar" points={points} metrics={[metric]} names={names} format={format} />
        </figure>
      ) : null}
    </div>
  );
}

/** How many rows the top chart draws. */
export const TOP_CHART_ROWS = 10;

/** The top chart: the rows of a table (e.g. a campaign's products) with the most of one metric, the most first. */
export function TopChart({ points, label, currency }: { points: ChartPoint[]; label: (metric: string, count: number) => string; currency?: FigureCurrency }) {
  const { t } = useTranslation("metrics");
  const format = useFigureFormat(currency);
  const Canvas = useCanvas("BreakdownCanvas");
  const [metric, setMetric] = useState<Metric>("cost");
  if (!Canvas || points.length === 0) return null;
  const names = Object.fromEntries(METRICS.map((m) => [m, t(`metric.${m}`)]));
  const amount = (p: ChartPoint) => p.figures[metric] ?? -1;
  const top = [...points].sort((a, b) => amount(b) - amount(a)).slice(0, TOP_CHART_ROWS);
  return (
    <div className="chart-block">
      <div className="chart-controls">
        <MetricSelect label={t("chart.topMetric")} value={metric} onChange={setMetric} />
      </div>
      <figure className="chart chart-small" aria-label={label(names[metric], top.length)}>
        <Canvas type="bar" points={top} metrics={[metric]} names={names} format={format} />
      </figure>
    </div>
  );
}
