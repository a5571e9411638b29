/**
 * The recharts drawings, loaded by chart.tsx in the browser only (a `.client` module: never in the
 * server bundle, and a dynamic import: never in a page's first load). Money is drawn in currency
 * units; tooltips use the tables' formatting.
 */
import { Area, AreaChart, Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Derived, Metric } from "~/domain/metrics/metrics";
import type { ChartCanvasProps } from "~/components/metrics/chart";
import { numberFormat } from "~/domain/intl";
import { niceTicks } from "~/domain/metrics/ticks";

const COLOURS = ["#2f6fd0", "#c76a00"];

/** The number drawn for a metric (money in currency units, ratios as they are). */
function value(metric: Metric, figures: Derived): number {
  const v = figures[metric];
  if (v === null || v === undefined) return 0;
  return metric === "cost" || metric === "sales" ? v / 100 : v;
}

/** An axis's numbers in the page's language, short (1.2k, 0,35). */
function tick(value: unknown): string {
  const lang = typeof document === "undefined" ? undefined : document.documentElement.lang || undefined;
  return typeof value === "number" ? numberFormat(lang, { notation: "compact", maximumFractionDigits: 2 }).format(value) : String(value);
}

/**
 * A metric's axis: round ticks from zero (niceTicks) and, for money and ratios, the tables'
 * formatting (the retailer's currency, percentages); counts stay short (1.2k).
 */
function axisOf(props: ChartCanvasProps, metric: Metric | undefined, data: Record<string, number | string>[]) {
  if (!metric) return {};
  const isMoney = metric === "cost" || metric === "sales";
  const max = Math.max(0, ...data.map((row) => Number(row[metric]) || 0));
  const ticks = niceTicks(max, 5, isMoney ? 0.01 : metric === "ctr" || metric === "roas" ? 0 : 1);
  const formatter =
    isMoney || metric === "ctr" || metric === "roas"
      ? (v: unknown) => (typeof v === "number" ? props.format(metric, { [metric]: isMoney ? Math.round(v * 100) : v } as unknown as Derived) : String(v))
      : tick;
  return { ticks, domain: [0, ticks[ticks.length - 1]!] as [number, number], tickFormatter: formatter, interval: 0 as const };
}

function rows(props: ChartCanvasProps) {
  return props.points.map((p) => {
    const row: Record<string, number | string> = { label: p.label };
    for (const m of props.metrics) row[m] = value(m, p.figures);
    return row;
  });
}

function tooltipFormatter(props: ChartCanvasProps) {
  const byLabel = new Map(props.points.map((p) => [p.label, p.figures]));
  return (_value: unknown, name: unknown, item: { payload?: { label?: string } }) => {
    const figures = byLabel.get(String(item.payload?.label ?? ""));
    const metric = props.metrics.find((m) => props.names[m] === name) ?? (name as Metric);
    return figures ? props.format(metric, figures) : String(_value);
  };
}

export function TimeCanvas(props: ChartCanvasProps) {
  const data = rows(props);
  const second = props.metrics[1];
  const common = { data, margin: { top: 8, right: 8, bottom: 8, left: 8 } };
  const axes = (
    <>
      <CartesianGrid strokeDasharray="3 3" />
      <XAxis dataKey="label" minTickGap={16} />
      <YAxis yAxisId="first" width={80} {...axisOf(props, props.metrics[0], data)} />
      {second ? <YAxis yAxisId="second" orientation="right" width={80} {...axisOf(props, second, data)} /> : null}
      {/* Both list the first metric first, as the form chose them (recharts sorts them by name). */}
      <Tooltip formatter={tooltipFormatter(props) as never} itemSorter={null as never} />
      <Legend itemSorter={null} />
    </>
  );
  const series = props.metrics.map((m, i) => {
    const shared = { key: m, dataKey: m, name: props.names[m], yAxisId: i === 0 ? "first" : "second", stroke: COLOURS[i], fill: COLOURS[i], isAnimationActive: false };
    if (props.type === "bar") return <Bar {...shared} />;
    if (props.type === "line") return <Line {...shared} type="monotone" dot={false} />;
    // Light fills and 2 px lines: where the two areas overlap, the lines still say which is which.
    return <Area {...shared} type="monotone" fillOpacity={0.1} strokeWidth={2} />;
  });
  return (
    <ResponsiveContainer width="100%" height={280}>
      {props.type === "bar" ? (
        <BarChart {...common}>
          {axes}
          {series}
        </BarChart>
      ) : props.type === "line" ? (
        <LineChart {...common}>
          {axes}
          {series}
        </LineChart>
      ) : (
        <AreaChart {...common}>
          {axes}
          {series}
        </AreaChart>
      )}
    </ResponsiveContainer>
  );
}

/**
 * A bar's name as its axis shows it: a long name (a product's) is cut at its end, on one line; the
 * tooltip and the table below the chart have it whole.
 */
function shortLabel(label: string): string {
  return label.length > 20 ? `${label.slice(0, 19).trimEnd()}…` : label;
}

export function BreakdownCanvas(props: ChartCanvasProps) {
  const data = rows(props);
  const [metric] = props.metrics;
  return (
    <ResponsiveContainer width="100%" height={Math.max(220, 48 + data.length * 32)}>
      {/* Room on the right for the last tick's label ("200k", "€1,500.00"), centred on the axis' end. */}
      <BarChart data={data} layout="vertical" margin={{ top: 8, right: 40, bottom: 8, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" />
        {/* On a phone the value axis is narrow: labels that would overlap ("€0.€0.€0…") are skipped, the first and last kept. */}
        <XAxis type="number" {...axisOf(props, metric, data)} interval="preserveStartEnd" minTickGap={12} />
        <YAxis type="category" dataKey="label" width={150} interval={0} tickFormatter={shortLabel} />
        <Tooltip formatter={tooltipFormatter(props) as never} />
        <Bar dataKey={metric} name={props.names[metric]} fill={COLOURS[0]} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
