/**
 * One campaign list page, as /campaigns and a team's Campaigns tab show it: custom views, filters,
 * the bulk edit's review or result, the table and the pager. The routes load the data
 * (app/services/campaign-list.server.ts) and hand it here.
 */
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormAlert } from "~/components/forms";
import { ExportLink, Freshness } from "~/components/metrics/statistics";
import { CampaignListFilters, CampaignListPager, CampaignTable, NewCampaignLinks, NewCampaignPicker, listHref, type CampaignListRowView } from "~/components/campaigns/list";
import { BULK_FORM_ID, BulkEditForm, BulkResultPanel, BulkReviewPanel, type BulkChangeEchoData, type BulkRowViewData } from "~/components/campaigns/list-bulk";
import { CustomViewsMenu, type ViewFormErrorView, type ViewLinkView } from "~/components/campaigns/list-views";
import type { CampaignListState, CampaignSort, SortDirection } from "~/domain/campaigns/list";

export interface CampaignListScreenData {
  state: CampaignListState;
  /** The days of the statistics columns. */
  period: { from: string; to: string };
  viewQuery: string;
  /** Where a view of the current list opens (/campaigns?<its query>). */
  currentViewHref: string;
  basePath: string;
  fixedTeam: { id: string; name: string } | null;
  list: {
    ok: boolean;
    rows: CampaignListRowView[];
    next: string | null;
    leftOut: number;
    sort: CampaignSort;
    dir: SortDirection;
    chooseTeam: boolean;
    metricsFailed?: boolean;
    newestEvent?: string | null;
    exportRows?: number;
  };
  filtered: boolean;
  teamOptions: { id: string; name: string }[];
  moreTeams: boolean;
  walletOptions: { id: string; label: string }[];
  views: ViewLinkView[];
  maxViews: number;
  bulkChoices: string[];
  createTeams: { id: string; name: string }[];
  types: string[];
  pageSize: number;
}

export type CampaignListActionView =
  | { kind: "view-error"; error: ViewFormErrorView }
  | { kind: "bulk-error"; errors: string[] }
  | { kind: "bulk-review"; review: { rows: BulkRowViewData[]; summary: { changed: number; refused: number; unchanged: number } }; change: BulkChangeEchoData }
  | {
      kind: "bulk-result";
      result: { rows: (BulkRowViewData & { outcome: "saved" | "unchanged" | "failed" })[]; summary: { saved: number; failed: number; unchanged: number } };
      change: BulkChangeEchoData;
    };

export function CampaignListScreen({ page, actionData }: { page: CampaignListScreenData; actionData: CampaignListActionView | null | undefined }) {
  const { t } = useTranslation(["campaignList", "campaigns"]);
  const { state, basePath, fixedTeam, list } = page;
  const here = listHref(basePath, state);
  const bulkFormId = page.bulkChoices.length > 0 && list.rows.length > 0 ? BULK_FORM_ID : null;
  const ranged = !!(state.startFrom || state.startTo);
  const caption = fixedTeam ? t("table.captionTeam", { team: fixedTeam.name }) : t("table.caption");
  const TitleTag = fixedTeam ? "h2" : "h1";
  return (
    <div className="campaign-list">
      <div className="page-header">
        <TitleTag>{t("title")}</TitleTag>
        <div className="page-header-actions">
          <CustomViewsMenu
            views={page.views}
            max={page.maxViews}
            query={page.viewQuery}
            currentHref={page.currentViewHref}
            error={actionData?.kind === "view-error" ? actionData.error : null}
            onTeamTab={!!fixedTeam}
          />
          {fixedTeam ? (
            page.createTeams.length ? <NewCampaignLinks teamId={fixedTeam.id} types={page.types} /> : null
          ) : (
            <NewCampaignPicker teams={page.createTeams} types={page.types} />
          )}
        </div>
      </div>

      <CampaignListFilters
        basePath={basePath}
        state={state}
        period={page.period}
        teamOptions={fixedTeam ? null : page.teamOptions}
        moreTeams={page.moreTeams}
        walletOptions={page.walletOptions}
        types={page.types}
        filtered={page.filtered}
        pageSize={page.pageSize}
        panel="onDemand"
      />
      {ranged ? <p className="field-help campaign-list-note">{t("filters.rangeSort")}</p> : null}

      {!list.ok ? <FormAlert title={t("campaigns:errors.fetchCampaign")} message={t("common:errors.errorOccurred")} /> : null}
      {list.metricsFailed ? <FormAlert title={t("metrics:errors.fetchOverall")} message={t("common:errors.errorOccurred")} /> : null}

      {actionData?.kind === "bulk-review" ? (
        <BulkReviewPanel rows={actionData.review.rows} summary={actionData.review.summary} change={actionData.change} cancelHref={here} />
      ) : null}
      {actionData?.kind === "bulk-result" ? (
        <BulkResultPanel rows={actionData.result.rows} summary={actionData.result.summary} change={actionData.change} backHref={here} />
      ) : null}

      {list.chooseTeam ? (
        <p className="empty-state">{t("table.chooseTeam")}</p>
      ) : list.rows.length === 0 && list.ok ? (
        <div className="empty-state">
          <p>{t(page.filtered ? "table.noMatch" : "table.empty")}</p>
          {list.next ? <p>{t("table.emptyPageMore")}</p> : null}
        </div>
      ) : list.rows.length > 0 ? (
        <CampaignTable basePath={basePath} state={state} sort={list.sort} dir={list.dir} rows={list.rows} bulkFormId={bulkFormId} caption={caption} />
      ) : null}

      {list.newestEvent !== undefined && list.rows.length > 0 ? <ListStatistics page={page} /> : null}

      <CampaignListPager basePath={basePath} state={state} next={list.next} leftOut={list.leftOut} pageSize={page.pageSize} />

      {bulkFormId ? <BulkEditForm choices={page.bulkChoices} errors={actionData?.kind === "bulk-error" ? actionData.errors : null} /> : null}
    </div>
  );
}

/** Under a list showing statistics columns: how fresh they are, and their export (every campaign of the list). */
function ListStatistics({ page }: { page: CampaignListScreenData }) {
  const { t } = useTranslation("metrics");
  const search = new URLSearchParams(page.viewQuery);
  if (page.fixedTeam) search.set("team", page.fixedTeam.id);
  return (
    <div className="campaign-list-statistics">
      <Freshness newestEvent={page.list.newestEvent ?? null} />
      <ExportLink
        path="/campaigns/statistics.csv"
        search={search}
        rows={page.list.exportRows}
        label={t("exportTable", { table: t("dashboard.campaigns") })}
      />
    </div>
  );
}

export interface CampaignFiltersScreenData {
  state: CampaignListState;
  period: { from: string; to: string };
  basePath: string;
  listHref: string;
  fixedTeam: { id: string; name: string } | null;
  filtered: boolean;
  teamOptions: { id: string; name: string }[];
  moreTeams: boolean;
  walletOptions: { id: string; label: string }[];
  types: string[];
  pageSize: number;
}

/**
 * The list's filters on a page of their own, "Statuses and columns" open: what the list page
 * links to without JavaScript (with it, that panel opens in place). Applying opens the list.
 */
export function CampaignFiltersScreen({ page }: { page: CampaignFiltersScreenData }) {
  const { t } = useTranslation("campaignList");
  const TitleTag = page.fixedTeam ? "h2" : "h1";
  return (
    <div className="campaign-list">
      <div className="page-header">
        <TitleTag>{t("filters.more")}</TitleTag>
        <div className="page-header-actions">
          <Link to={page.listHref}>{t("filters.back")}</Link>
        </div>
      </div>
      <CampaignListFilters
        basePath={page.basePath}
        state={page.state}
        period={page.period}
        teamOptions={page.fixedTeam ? null : page.teamOptions}
        moreTeams={page.moreTeams}
        walletOptions={page.walletOptions}
        types={page.types}
        filtered={page.filtered}
        pageSize={page.pageSize}
        panel="inline"
      />
    </div>
  );
}
