/**
 * The campaign lists' HTTP side, shared by /campaigns and a team's Campaigns tab: the loader's
 * reading of the request (the new-campaign picker's redirect, the locale) and the action that
 * reads the list's forms (custom views, bulk edit) and replies to the use cases' results.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "@remix-run/node";
import { forbidden, type Failure } from "~/domain/result";
import type { Team, User } from "~/domain/types";
import {
  BulkEditSchema,
  DeleteViewSchema,
  RenameViewSchema,
  SaveViewSchema,
  bulkApplyIntent,
  bulkEditInput,
  bulkReviewIntent,
  deleteViewIntent,
  renameViewIntent,
  saveViewIntent,
} from "~/forms/campaigns/list";
import { applyBulkEdit, bulkChoices, reviewBulkEdit, type BulkResult, type BulkReview } from "~/services/campaigns/bulk.server";
import { campaignListPage, deleteView, newCampaignTarget, renameView, saveView } from "~/services/campaigns/list.server";
import { parseListState } from "~/domain/campaigns/list";
import { can } from "~/domain/permissions";
import { getRequestLocale } from "./i18n.server";
import { orThrow, statusOf, unknownIntent } from "./reply.server";
import { redirectWithToast } from "./toast.server";

/** The list page's data; the new-campaign picker (a GET form) redirects to the creation page. */
export async function campaignListLoader(request: Request, user: User, fixedTeam: Team | null) {
  const params = new URL(request.url).searchParams;
  if (!fixedTeam) {
    const toCreate = orThrow(await newCampaignTarget(user, { teamId: params.get("newTeam"), type: params.get("newType") }));
    if (toCreate) throw redirect(toCreate);
  }
  return campaignListPage(user, parseListState(params), fixedTeam, await getRequestLocale(request));
}

export type ViewFormError = { form: "save-view" | "rename-view" | "delete-view"; viewId: string | null; message: string; values?: Record<string, string | number> };

export type CampaignListActionData =
  | { kind: "view-error"; error: ViewFormError }
  | { kind: "bulk-error"; errors: string[] }
  | { kind: "bulk-review"; review: BulkReview; change: BulkChangeEcho }
  | { kind: "bulk-result"; result: BulkResult; change: BulkChangeEcho };

/** The change as the form sent it, for the confirm form's hidden fields and the page's titles. */
export interface BulkChangeEcho {
  change: string;
  endDay: string;
  bid: string;
  daily: string;
}

/** The list's own URL (its query kept, ?index dropped), to come back to after a change. */
export function listUrl(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete("index");
  const search = url.searchParams.toString();
  return `${url.pathname}${search ? `?${search}` : ""}`;
}

function viewError(error: ViewFormError, status: number) {
  return data<CampaignListActionData>({ kind: "view-error", error }, { status });
}

/** A view form's refusal: not-found is the error page's (it reveals nothing); others stay on the form. */
function viewRefused(form: ViewFormError["form"], viewId: string | null, failure: Failure) {
  if (failure.kind === "not-found") orThrow(failure);
  return viewError({ form, viewId, message: failure.reason, values: failure.values as Record<string, string | number> | undefined }, statusOf(failure));
}

/** Handles the list's forms; fixedTeam is the team of a team's Campaigns tab. */
export async function campaignListAction(request: Request, user: User, fixedTeam: Team | null) {
  const formData = await request.formData();
  const intent = formData.get("intent");
  const fixedTeamId = fixedTeam?.id ?? null;
  switch (intent) {
    case saveViewIntent: {
      const submission = parseWithZod(formData, { schema: SaveViewSchema });
      if (submission.status !== "success") {
        return viewError({ form: "save-view", viewId: null, message: submission.error?.name?.[0] ?? "campaignList:views.nameRequired" }, 400);
      }
      const saved = await saveView(user, submission.value.name, submission.value.query, fixedTeamId);
      if (!saved.ok) return viewRefused("save-view", null, saved);
      return redirectWithToast(listUrl(request), { type: "success", title: "campaignList:toast.viewSaved", values: { name: saved.value.name } });
    }
    case renameViewIntent: {
      const submission = parseWithZod(formData, { schema: RenameViewSchema });
      const viewId = String(formData.get("viewId") ?? "");
      if (submission.status !== "success") {
        return viewError({ form: "rename-view", viewId, message: submission.error?.name?.[0] ?? "campaignList:views.nameRequired" }, 400);
      }
      const renamed = await renameView(user, submission.value.viewId, submission.value.name);
      if (!renamed.ok) return viewRefused("rename-view", viewId, renamed);
      return redirectWithToast(listUrl(request), { type: "success", title: "campaignList:toast.viewRenamed", values: { name: renamed.value.name } });
    }
    case deleteViewIntent: {
      const submission = parseWithZod(formData, { schema: DeleteViewSchema });
      const viewId = String(formData.get("viewId") ?? "");
      if (submission.status !== "success") return viewError({ form: "delete-view", viewId, message: "campaignList:views.confirmDelete" }, 400);
      const deleted = await deleteView(user, submission.value.viewId);
      if (!deleted.ok) return viewRefused("delete-view", viewId, deleted);
      return redirectWithToast(listUrl(request), { type: "success", title: "campaignList:toast.viewDeleted", values: { name: deleted.value.name } });
    }
    case bulkReviewIntent:
    case bulkApplyIntent: {
      if (!bulkChoices(user).length) orThrow(forbidden());
      const submission = BulkEditSchema.safeParse(bulkEditInput(formData));
      if (!submission.success) {
        const errors = [...new Set(submission.error.issues.map((i) => (i.message.includes(":") || i.message.startsWith("validation.") ? i.message : "campaignList:bulk.chooseChange")))];
        return data<CampaignListActionData>({ kind: "bulk-error", errors }, { status: 400 });
      }
      const value = submission.data;
      if (value.change.kind === "action" && !bulkChoices(user).includes(`action:${value.change.action}` as never)) {
        orThrow(forbidden());
      }
      if (value.change.kind !== "action" && !can(user, "Campaign", "update")) orThrow(forbidden());
      const locale = await getRequestLocale(request);
      const echo: BulkChangeEcho = {
        change: String(formData.get("change") ?? ""),
        endDay: String(formData.get("endDay") ?? ""),
        bid: String(formData.get("bid") ?? ""),
        daily: String(formData.get("daily") ?? ""),
      };
      if (value.intent === bulkReviewIntent) {
        const review = orThrow(await reviewBulkEdit(user, value, fixedTeamId, locale));
        return data<CampaignListActionData>({ kind: "bulk-review", review, change: echo });
      }
      const result = orThrow(await applyBulkEdit(user, value, fixedTeamId, locale));
      return data<CampaignListActionData>({ kind: "bulk-result", result, change: echo });
    }
    default:
      return unknownIntent();
  }
}

