/**
 * The campaign list (issue 4 section 2): the filters (a GET form, so every view is a link and works
 * without JavaScript), the table with its sortable headers, row selection for the bulk edit and a
 * Duplicate button per row, the pager and the new-campaign picker.
 */
import { Form, Link, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { CapNotices, LiveStatusBadge } from "~/components/campaigns/status-badge";
import { PeriodFields, useFigureFormat } from "~/components/metrics/statistics";
import type { Derived } from "~/domain/metrics/metrics";
import type { Period } from "~/domain/metrics/periods";
import {
  CAMPAIGN_LIST_COLUMNS,
  CAMPAIGN_SORTS,
  isDefaultColumns,
  LIST_PERIODS,
  METRIC_LIST_COLUMNS,
  showsMetrics,
  defaultDirection,
  listQuery,
  type CampaignListColumn,
  type CampaignListState,
  type CampaignSort,
  type SortDirection,
} from "~/domain/campaigns/list";
import { CAMPAIGN_STATUSES, DERIVED_LIVE_STATUSES, type CampaignLiveStatus, type CampaignStatus, type CapNotice } from "~/domain/campaigns/status";
import { duplicateCampaignIntent } from "~/forms/campaigns/campaigns";
import { useByName } from "~/components/by-name";

/** A campaign as the list shows it (presentCampaign on the server). */
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
  /** Statistics of the list's period, when a statistics column is shown. */
  figures: Derived | null;
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

/** True once React runs in the browser: enhancements that need JavaScript render only then. */
function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
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
}

export function CampaignListFilters({ basePath, state, period, teamOptions, moreTeams, walletOptions, types, filtered, pageSize }: FiltersProps) {
  const { t } = useTranslation(["campaignList", "campaigns"]);
  const typeOptions = state.type && !types.includes(state.type) ? [...types, state.type] : types;
  const moreOpen = state.statuses.length > 0 || state.live.length > 0 || !isDefaultColumns(state.columns) || state.period !== "today";
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
      <details className="campaign-filters-more" open={moreOpen || undefined}>
        <summary>{t("filters.more")}</summary>
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
      </details>
      <div className="campaign-filters-actions">
        <button type="submit" className="button primary">
          {t("filters.apply")}
        </button>
        {filtered ? <Link to={basePath}>{t("filters.clear")}</Link> : null}
      </div>
    </Form>
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
  const byName = useByName();
  const { t } = useTranslation(["campaignList", "campaigns"]);
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const selectAll = useRef<HTMLInputElement>(null);
  const format = useFigureFormat();
  const columns = state.columns;

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
            <LiveStatusBadge status={row.liveStatus} />
            <CapNotices caps={row.caps} form="short" />
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
            {row.figures ? format(column, row.figures) : "—"}
          </td>
        );
      case "updated":
        return <td key={column}>{row.updated ?? "—"}</td>;
      case "by":
        return <td key={column}>{byName(row.by)}</td>;
    }
  }

  const anyDuplicate = rows.some((r) => r.canDuplicate);
  return (
    <div className="table-wrap campaign-table-wrap" role="region" aria-label={caption} tabIndex={0}>
      <table className={showsMetrics(columns) ? "campaign-table with-figures" : "campaign-table"}>
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
                <Link to={`/campaigns/${row.id}`} prefetch="intent">
                  {row.name}
                </Link>
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
