/**
 * The campaign list (issue 4 section 2): the filters (a GET form, so every view is a link and works
 * without JavaScript), the table with its sortable headers, row selection for the bulk edit and a
 * Duplicate button per row, the pager and the new-campaign picker.
 */
import { Form, Link, PrefetchPageLinks, useNavigate, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode, type RefObject } from "react";
import { useHydrated } from "~/components/use-hydrated";
import { useTranslation } from "react-i18next";
import { capNoticeList, liveStatusBadge } from "~/components/campaigns/status-badge";
import { PeriodFields, useFigureFormat } from "~/components/metrics/statistics";
import type { Derived } from "~/domain/metrics/metrics";
import type { Period } from "~/domain/metrics/periods";
import {
  CAMPAIGN_LIST_COLUMNS,
  CAMPAIGN_SORTS,
  LIST_PERIODS,
  METRIC_LIST_COLUMNS,
  showsMetrics,
  defaultDirection,
  listQuery,
  panelParams,
  viewQuery,
  type CampaignListColumn,
  type CampaignListState,
  type CampaignSort,
  type SortDirection,
} from "~/domain/campaigns/list";
import { CAMPAIGN_STATUSES, DERIVED_LIVE_STATUSES, type CampaignLiveStatus, type CampaignStatus, type CapNotice } from "~/domain/campaigns/status";
import { duplicateCampaignIntent } from "~/forms/campaigns/campaigns";
import { ByText } from "~/components/by-name";
import { dateTimeFormat } from "~/domain/intl";

/** A campaign as the list shows it (CampaignListRow of services/campaigns/list.server.ts). */
export interface CampaignListRowView {
  id: string;
  name: string;
  status: CampaignStatus;
  liveStatus: CampaignLiveStatus;
  /** The caps that stop it today, each until tomorrow. */
  caps: CapNotice[];
  campaignType: string;
  team: { id: string; name: string };
  wallet: { id: string; label: string } | null;
  bidStrategy: string;
  bid: string | null;
  start: string | null;
  end: string | null;
  spend: string | null;
  updated: string | null;
  by: string;
  canDuplicate: boolean;
  /** Statistics of the list's period (those of the columns shown), when a statistics column is shown. */
  figures: Partial<Derived> | null;
  /** The currency of its spend and figures (its wallet's). */
  currency: string;
}

/** The list's URL for a state (the cursor included when set). */
export function listHref(basePath: string, state: CampaignListState): string {
  const query = listQuery(state);
  return query ? `${basePath}?${query}` : basePath;
}

/** The sort a column header sorts by. */
const COLUMN_SORT: Partial<Record<CampaignListColumn, CampaignSort>> = {
  name: "name",
  start: "startDate",
  end: "endDate",
  spend: "spend",
  updated: "updated",
};

const NUMERIC: ReadonlySet<CampaignListColumn> = new Set(["spend", "bid", ...METRIC_LIST_COLUMNS]);

/** Stored statuses offered as filters: deleted campaigns leave the list (they move to deleted_campaign). */
const STATUS_FILTERS = CAMPAIGN_STATUSES.filter((s) => s !== "deleted");

/** How long a pointer rests on a row's link before its page is prefetched (Remix's intent delay). */
const PREFETCH_DELAY_MS = 100;

/**
 * The rows' name links, as `<Link prefetch="intent">` behaves, for the whole table at once: a plain
 * click navigates in the app (no reload), and a link pointed at or focused for a moment has its
 * page prefetched. The server renders plain anchors (one element a row, no hooks: ADR 25), which
 * are also what a browser without JavaScript follows. Returns the path to prefetch.
 */
function useRowLinks(ref: RefObject<HTMLElement>): string | null {
  const navigate = useNavigate();
  const [intent, setIntent] = useState<string | null>(null);
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const linkOf = (event: Event) => (event.target instanceof Element ? event.target.closest<HTMLAnchorElement>("a[data-row-link]") : null);
    const onClick = (event: MouseEvent) => {
      const link = linkOf(event);
      if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      navigate(link.getAttribute("href")!);
    };
    const onIntent = (event: Event) => {
      const link = linkOf(event);
      clearTimeout(timer);
      if (link) timer = setTimeout(() => setIntent(link.getAttribute("href")), PREFETCH_DELAY_MS);
    };
    const onLeave = (event: Event) => {
      if (linkOf(event)) clearTimeout(timer);
    };
    root.addEventListener("click", onClick);
    root.addEventListener("mouseover", onIntent);
    root.addEventListener("focusin", onIntent);
    root.addEventListener("mouseout", onLeave);
    root.addEventListener("focusout", onLeave);
    return () => {
      clearTimeout(timer);
      root.removeEventListener("click", onClick);
      root.removeEventListener("mouseover", onIntent);
      root.removeEventListener("focusin", onIntent);
      root.removeEventListener("mouseout", onLeave);
      root.removeEventListener("focusout", onLeave);
    };
  }, [ref, navigate]);
  return intent;
}

// ---------------------------------------------------------------------------------------------
// Filters

interface FiltersProps {
  basePath: string;
  state: CampaignListState;
  /** The days of the statistics columns. */
  period: Period;
  /** Team filter options (not on a team's tab). */
  teamOptions: { id: string; name: string }[] | null;
  moreTeams: boolean;
  walletOptions: { id: string; label: string }[];
  types: readonly string[];
  filtered: boolean;
  pageSize: number;
  /**
   * The "Statuses and columns" panel: open in the form (the filters page), or rendered on demand
   * (the list page: a link to the filters page without JavaScript, a disclosure that renders the
   * panel when opened with it; ADR 25).
   */
  panel: "inline" | "onDemand";
}

export function CampaignListFilters({ basePath, state, period, teamOptions, moreTeams, walletOptions, types, filtered, pageSize, panel }: FiltersProps) {
  const { t } = useTranslation(["campaignList", "campaigns"]);
  const typeOptions = state.type && !types.includes(state.type) ? [...types, state.type] : types;
  return (
    <Form method="get" action={basePath} className="campaign-filters" role="search" aria-label={t("filters.label")}>
      <div className="campaign-filters-row">
        <div className="field">
          <label htmlFor="campaigns-q">{t("filters.search")}</label>
          <input id="campaigns-q" type="search" name="q" defaultValue={state.q} maxLength={100} />
        </div>
        <div className="field">
          <label htmlFor="campaigns-type">{t("campaigns:fields.type")}</label>
          <select id="campaigns-type" name="type" defaultValue={state.type ?? ""}>
            <option value="">{t("filters.allTypes")}</option>
            {typeOptions.map((ty) => (
              <option key={ty} value={ty}>
                {t(`campaigns:types.${ty}`)}
              </option>
            ))}
          </select>
        </div>
        {teamOptions ? (
          <div className="field">
            <label htmlFor="campaigns-team">{t("campaigns:fields.team")}</label>
            <select id="campaigns-team" name="team" defaultValue={state.team ?? ""} aria-describedby={moreTeams ? "campaigns-team-help" : undefined}>
              <option value="">{t("filters.allTeams")}</option>
              {teamOptions.map((team) => (
                <option key={team.id} value={team.id}>
                  {team.name}
                </option>
              ))}
            </select>
            {moreTeams ? (
              <p id="campaigns-team-help" className="field-help">
                {t("filters.moreTeams")}
              </p>
            ) : null}
          </div>
        ) : null}
        {walletOptions.length > 0 ? (
          <div className="field">
            <label htmlFor="campaigns-wallet">{t("campaigns:fields.wallet")}</label>
            <select id="campaigns-wallet" name="wallet" defaultValue={state.wallet ?? ""}>
              <option value="">{t("filters.allWallets")}</option>
              {walletOptions.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.label}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <div className="field">
          <label htmlFor="campaigns-start-from">{t("filters.startFrom")}</label>
          <input id="campaigns-start-from" type="date" name="startFrom" defaultValue={state.startFrom ?? ""} />
        </div>
        <div className="field">
          <label htmlFor="campaigns-start-to">{t("filters.startTo")}</label>
          <input id="campaigns-start-to" type="date" name="startTo" defaultValue={state.startTo ?? ""} />
        </div>
        <div className="field">
          <label htmlFor="campaigns-sort">{t("filters.sortBy")}</label>
          <select id="campaigns-sort" name="sort" defaultValue={state.sort}>
            {CAMPAIGN_SORTS.map((s) => (
              <option key={s} value={s}>
                {t(`sort.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="campaigns-dir">{t("filters.order")}</label>
          <select id="campaigns-dir" name="dir" defaultValue={state.dir}>
            <option value="asc">{t("filters.asc")}</option>
            <option value="desc">{t("filters.desc")}</option>
          </select>
        </div>
      </div>
      {panel === "inline" ? (
        <details className="campaign-filters-more" open>
          <summary>{t("filters.more")}</summary>
          <FiltersPanel state={state} period={period} pageSize={pageSize} />
        </details>
      ) : (
        <FiltersPanelOnDemand basePath={basePath} state={state} period={period} pageSize={pageSize} />
      )}
      <div className="campaign-filters-actions">
        <button type="submit" className="button primary">
          {t("filters.apply")}
        </button>
        {filtered ? <Link to={basePath}>{t("filters.clear")}</Link> : null}
      </div>
    </Form>
  );
}

/**
 * The list page's "Statuses and columns": not rendered with the page. Without JavaScript, a link
 * to the filters page (the whole form, this panel open); with it, a disclosure whose panel renders
 * when first opened (its data is the page's own). Until the panel renders, the form keeps the
 * list's statuses, columns and period as hidden fields, so that applying the other filters keeps
 * them; a line says which days the statistics columns cover.
 */
function FiltersPanelOnDemand({ basePath, state, period, pageSize }: { basePath: string; state: CampaignListState; period: Period; pageSize: number }) {
  const { t, i18n } = useTranslation(["campaignList", "metrics"]);
  const hydrated = useHydrated();
  const [rendered, setRendered] = useState(false);
  const query = viewQuery(state);
  const hidden = rendered
    ? null
    : panelParams(state).map(([name, value]) => <input key={`${name}=${value}`} type="hidden" name={name} value={value} />);
  let shown: ReactNode = null;
  if (!rendered && showsMetrics(state.columns)) {
    const days = dateTimeFormat(i18n.language, { dateStyle: "medium", timeZone: "UTC" });
    const show = (day: string) => days.format(new Date(`${day}T00:00:00Z`));
    shown = (
      <p className="field-help period-shown">
        {t("metrics:period.custom")} <strong>{period.from === period.to ? show(period.from) : t("metrics:period.range", { from: show(period.from), to: show(period.to) })}</strong>
      </p>
    );
  }
  if (!hydrated) {
    return (
      <div className="campaign-filters-more">
        {hidden}
        <a href={`${basePath}/filters${query ? `?${query}` : ""}`} className="campaign-filters-more-link">
          {t("filters.more")}
        </a>
        {shown}
      </div>
    );
  }
  return (
    <>
      <details className="campaign-filters-more" onToggle={(event) => event.currentTarget.open && setRendered(true)}>
        <summary>{t("filters.more")}</summary>
        {hidden}
        {rendered ? <FiltersPanel state={state} period={period} pageSize={pageSize} /> : null}
      </details>
      {shown}
    </>
  );
}

/** Statuses, live statuses, columns and the statistics period. */
function FiltersPanel({ state, period, pageSize }: { state: CampaignListState; period: Period; pageSize: number }) {
  const { t } = useTranslation(["campaignList", "campaigns"]);
  return (
    <div className="campaign-filters-sets">
      <fieldset className="checkbox-set">
        <legend>{t("filters.statuses")}</legend>
        {STATUS_FILTERS.map((s) => (
          <label key={s} className="checkbox-label">
            <input type="checkbox" name="status" value={s} defaultChecked={state.statuses.includes(s)} /> {t(`campaigns:liveStatus.${s}`)}
          </label>
        ))}
      </fieldset>
      <fieldset className="checkbox-set" aria-describedby="campaigns-live-help">
        <legend>{t("filters.liveStatuses")}</legend>
        {DERIVED_LIVE_STATUSES.map((s) => (
          <label key={s} className="checkbox-label">
            <input type="checkbox" name="live" value={s} defaultChecked={state.live.includes(s)} /> {t(`campaigns:liveStatus.${s}`)}
          </label>
        ))}
        <p id="campaigns-live-help" className="field-help">
          {t("filters.liveHelp", { size: pageSize })}
        </p>
      </fieldset>
      <fieldset className="checkbox-set">
        <legend>{t("filters.columns")}</legend>
        {CAMPAIGN_LIST_COLUMNS.map((c) => (
          <label key={c} className="checkbox-label">
            {c === "name" ? (
              <>
                <input type="checkbox" checked disabled aria-describedby="campaigns-name-column-help" /> {t(`columns.${c}`)}
              </>
            ) : (
              <>
                <input type="checkbox" name="columns" value={c} defaultChecked={state.columns.includes(c)} /> {t(`columns.${c}`)}
              </>
            )}
          </label>
        ))}
        <p id="campaigns-name-column-help" className="field-help">
          {t("filters.nameAlways")}
        </p>
      </fieldset>
      <fieldset className="checkbox-set period-fields" aria-describedby="campaigns-period-help">
        <legend>{t("filters.period")}</legend>
        <PeriodFields presets={LIST_PERIODS} preset={state.period} period={period} custom={state.custom} compare={false} compareOption={false} idPrefix="campaigns-period" />
        <p id="campaigns-period-help" className="field-help">
          {t("filters.periodHelp")}
        </p>
      </fieldset>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Table

interface TableProps {
  basePath: string;
  state: CampaignListState;
  /** The order actually used (a start-date range orders by start date). */
  sort: CampaignSort;
  dir: SortDirection;
  rows: CampaignListRowView[];
  /** The bulk form's id when rows can be selected. */
  bulkFormId: string | null;
  caption: string;
}

function ariaSort(column: CampaignListColumn, sort: CampaignSort, dir: SortDirection) {
  return COLUMN_SORT[column] === sort ? (dir === "asc" ? "ascending" : "descending") : undefined;
}

export function CampaignTable({ basePath, state, sort, dir, rows, bulkFormId, caption }: TableProps) {
  const { t } = useTranslation(["campaignList", "campaigns"]);
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const selectAll = useRef<HTMLInputElement>(null);
  const format = useFigureFormat();
  const columns = state.columns;
  const campaignsT = (key: string) => t(`campaigns:${key}`);
  const tableRef = useRef<HTMLTableElement>(null);
  const prefetch = useRowLinks(tableRef);

  function headerLink(column: CampaignListColumn) {
    const target = COLUMN_SORT[column];
    const label = t(`columns.${column}`);
    if (!target) return label;
    const nextDir: SortDirection = target === sort ? (dir === "asc" ? "desc" : "asc") : defaultDirection(target);
    const href = listHref(basePath, { ...state, sort: target, dir: nextDir, after: null });
    return (
      <Link to={href} className="sort-link" aria-label={t("table.sortBy", { column: label, dir: t(`filters.${nextDir}`) })}>
        {label}
        {target === sort ? <span aria-hidden="true">{dir === "asc" ? " ▲" : " ▼"}</span> : null}
      </Link>
    );
  }

  function toggleAll(checked: boolean) {
    if (!bulkFormId) return;
    document.querySelectorAll<HTMLInputElement>(`input[type="checkbox"][name="campaignId"][form="${bulkFormId}"]`).forEach((box) => {
      box.checked = checked;
    });
  }

  function cell(row: CampaignListRowView, column: CampaignListColumn) {
    switch (column) {
      case "name":
        return null;
      case "team":
        return <td key={column}>{row.team.name}</td>;
      case "type":
        return <td key={column}>{t(`campaigns:types.${row.campaignType}`)}</td>;
      case "liveStatus":
        return (
          <td key={column}>
            {liveStatusBadge(row.liveStatus, campaignsT)}
            {capNoticeList(row.caps, "short", campaignsT)}
          </td>
        );
      case "wallet":
        return <td key={column}>{row.wallet ? row.wallet.label || "—" : <span className="muted">{t("table.noWallet")}</span>}</td>;
      case "bid":
        return (
          <td key={column} className="num">
            <span className="campaign-bid">{row.bid ?? "—"}</span> <span className="muted">{t(`strategy.${row.bidStrategy}`, { defaultValue: row.bidStrategy })}</span>
          </td>
        );
      case "start":
        return <td key={column}>{row.start ?? "—"}</td>;
      case "end":
        return <td key={column}>{row.end ?? <span className="muted">{t("table.noEnd")}</span>}</td>;
      case "spend":
        return (
          <td key={column} className="num">
            {row.spend ?? "—"}
          </td>
        );
      case "displays":
      case "views":
      case "clicks":
      case "ctr":
      case "cost":
      case "sales":
      case "roas":
        return (
          <td key={column} className="num">
            {row.figures ? format(column, row.figures, row.currency) : "—"}
          </td>
        );
      case "updated":
        return <td key={column}>{row.updated ?? "—"}</td>;
      case "by":
        return <td key={column} className="by-col">
            <ByText by={row.by} />
          </td>;
    }
  }

  const anyDuplicate = rows.some((r) => r.canDuplicate);
  return (
    <div className="table-wrap campaign-table-wrap" role="region" aria-label={caption} tabIndex={0}>
      <table ref={tableRef} className={showsMetrics(columns) ? "campaign-table with-figures" : "campaign-table"}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {bulkFormId ? (
              <th scope="col" className="select-col">
                {hydrated ? (
                  <input ref={selectAll} type="checkbox" aria-label={t("table.selectAll")} onChange={(e) => toggleAll(e.currentTarget.checked)} />
                ) : (
                  <span className="visually-hidden">{t("table.select")}</span>
                )}
              </th>
            ) : null}
            {columns.map((c) => (
              <th key={c} scope="col" aria-sort={ariaSort(c, sort, dir)} className={NUMERIC.has(c) ? "num" : undefined}>
                {headerLink(c)}
              </th>
            ))}
            {anyDuplicate ? (
              <th scope="col">
                <span className="visually-hidden">{t("table.actions")}</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              {bulkFormId ? (
                <td className="select-col">
                  <input type="checkbox" name="campaignId" value={row.id} form={bulkFormId} aria-label={t("table.selectCampaign", { name: row.name })} />
                </td>
              ) : null}
              <th scope="row">
                {/* A plain link: the table navigates and prefetches for every row at once (useRowLinks). */}
                <a href={`/campaigns/${row.id}`} data-discover="true" data-row-link="">
                  {row.name}
                </a>
              </th>
              {columns.map((c) => cell(row, c))}
              {anyDuplicate ? (
                <td>
                  {row.canDuplicate ? (
                    <button
                      type="submit"
                      form={DUPLICATE_FORM_ID}
                      formAction={`/campaigns/${row.id}`}
                      className="button small"
                      aria-label={t("table.duplicate", { name: row.name })}
                      aria-disabled={(navigation.state !== "idle" && navigation.formAction === `/campaigns/${row.id}`) || undefined}
                    >
                      {t("campaigns:duplicate.submit")}
                    </button>
                  ) : null}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      {prefetch ? <PrefetchPageLinks page={prefetch} /> : null}
      {anyDuplicate ? (
        // One form for every row's Duplicate button (each names its campaign's action): a row
        // renders no form of its own.
        <Form method="post" id={DUPLICATE_FORM_ID} hidden>
          <input type="hidden" name="intent" value={duplicateCampaignIntent} />
        </Form>
      ) : null}
    </div>
  );
}

const DUPLICATE_FORM_ID = "campaign-duplicate-form";

// ---------------------------------------------------------------------------------------------
// Pager and notes

export function CampaignListPager({ basePath, state, next, leftOut, pageSize }: { basePath: string; state: CampaignListState; next: string | null; leftOut: number; pageSize: number }) {
  const { t } = useTranslation("campaignList");
  return (
    <>
      {leftOut > 0 ? <p className="muted campaign-short-page">{t("table.shortPage", { count: leftOut, size: pageSize })}</p> : null}
      {state.after || next ? (
        <nav className="pagination" aria-label={t("table.pages")}>
          {state.after ? <Link to={listHref(basePath, { ...state, after: null })}>{t("table.firstPage")}</Link> : null}
          {next ? <Link to={listHref(basePath, { ...state, after: next })}>{t("table.nextPage")}</Link> : null}
        </nav>
      ) : null}
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// New campaign

/** /campaigns: a team picker (GET to /campaigns, which redirects to that team's creation page). */
export function NewCampaignPicker({ teams, types }: { teams: { id: string; name: string }[]; types: readonly string[] }) {
  const { t } = useTranslation(["campaignList", "campaigns"]);
  if (teams.length === 0) return null;
  return (
    <details className="new-campaign-picker">
      <summary className="button primary">{t("new.title")}</summary>
      <Form method="get" action="/campaigns" className="new-campaign-form">
        <div className="field">
          <label htmlFor="new-campaign-team">{t("new.team")}</label>
          <select id="new-campaign-team" name="newTeam" required defaultValue={teams.length === 1 ? teams[0]!.id : ""}>
            {teams.length > 1 ? <option value="">{t("new.chooseTeam")}</option> : null}
            {teams.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="new-campaign-type">{t("campaigns:fields.type")}</label>
          <select id="new-campaign-type" name="newType" defaultValue={types[0]}>
            {types.map((ty) => (
              <option key={ty} value={ty}>
                {t(`campaigns:types.${ty}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button primary">
          {t("new.continue")}
        </button>
      </Form>
    </details>
  );
}

/** A team's tab: one link per enabled type to the team's creation page. */
export function NewCampaignLinks({ teamId, types }: { teamId: string; types: readonly string[] }) {
  const { t } = useTranslation(["campaignList", "campaigns"]);
  return (
    <div className="new-campaign-links">
      {types.map((ty, i) => (
        <Link key={ty} to={`/teams/${encodeURIComponent(teamId)}/campaigns/new/${ty}`} className={i === 0 ? "button primary" : "button"}>
          {i === 0 ? t("new.title") : t("new.ofType", { type: t(`campaigns:types.${ty}`) })}
        </Link>
      ))}
    </div>
  );
}
