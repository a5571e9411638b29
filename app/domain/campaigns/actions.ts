/**
 * Campaign actions of spec section 4, made whole (each action's source statuses, target and
 * required right are listed in ACTION_RULES below): the table as data, plus the two pure functions that read
 * it. No I/O, no framework.
 *
 * Reading: "any but archived, deleted" (disable) and "any but deleted" (archive) also leave out
 * the action's own target status, since disabling a disabled campaign or archiving an archived
 * one changes nothing and is not offered.
 */
import { can, isReviewer, isTeamManager, type Subject } from "~/domain/permissions";
import type { CampaignStatus } from "~/domain/campaigns/status";

export const CAMPAIGN_ACTIONS = [
  "enable",
  "pause",
  "test",
  "suspend",
  "disable",
  "redraft",
  "archive",
  "delete",
  "approve",
  "reject",
] as const;
export type CampaignAction = (typeof CAMPAIGN_ACTIONS)[number];

/** Who may act: the campaign update right, retailer ADMIN or operator, or a reviewer. */
export type ActionRight = "update" | "manager" | "reviewer";

export interface ActionRule {
  /** The statuses it applies from, or "any" minus `except`. */
  from: readonly CampaignStatus[] | { anyExcept: readonly CampaignStatus[] };
  /** The status it leads to; enable leads to pending_review when the type needs moderation. */
  to: CampaignStatus;
  right: ActionRight;
  /** A stricter right for some source statuses (re-draft from suspended or disabled). */
  rightFrom?: Partial<Record<CampaignStatus, ActionRight>>;
}

export const ACTION_RULES: Record<CampaignAction, ActionRule> = {
  enable: { from: ["draft", "paused", "test", "approved"], to: "active", right: "update" },
  pause: { from: ["active"], to: "paused", right: "update" },
  test: { from: ["draft", "paused", "active"], to: "test", right: "manager" },
  suspend: { from: ["active", "paused", "test"], to: "suspended", right: "manager" },
  disable: { from: { anyExcept: ["archived", "deleted", "disabled"] }, to: "disabled", right: "manager" },
  redraft: {
    from: ["paused", "test", "rejected", "suspended", "disabled"],
    to: "draft",
    right: "update",
    rightFrom: { suspended: "manager", disabled: "manager" },
  },
  archive: { from: { anyExcept: ["deleted", "archived"] }, to: "archived", right: "update" },
  delete: { from: ["draft"], to: "deleted", right: "update" },
  approve: { from: ["pending_review"], to: "active", right: "reviewer" },
  reject: { from: ["pending_review"], to: "rejected", right: "reviewer" },
};

export interface ActionActor {
  subject: Subject;
  /** The campaign's team: a supplier's right to update is judged on their role in it. */
  teamId: string;
}

export interface ActionContext {
  /** The campaign type needs moderation (pending_review on enable). */
  moderation: boolean;
  /** isComplete(campaign): enable is refused otherwise. */
  complete: boolean;
}

export type ActionRefusal =
  | "errors.insufficientPermissions"
  | "campaigns:actions.notAllowed"
  | "campaigns:errors.onlyDraftDelete"
  | "campaigns:activation.incompleteCampaign"
  | "campaigns:actions.reasonRequired";

export interface ActionOutcome {
  status: CampaignStatus;
  /** Set by approve and reject; the service adds by and date. */
  review?: { approved: boolean; rejectionReason: string | null };
  /** Enable under moderation: add the campaign to the team's pending-review list. */
  addToPendingReview?: boolean;
}

export type ActionResult = { ok: true; value: ActionOutcome } | { ok: false; reason: ActionRefusal };

function appliesFrom(rule: ActionRule, status: CampaignStatus): boolean {
  return Array.isArray(rule.from)
    ? (rule.from as readonly CampaignStatus[]).includes(status)
    : !(rule.from as { anyExcept: readonly CampaignStatus[] }).anyExcept.includes(status);
}

function hasRight(right: ActionRight, actor: ActionActor): boolean {
  switch (right) {
    case "update":
      return can(actor.subject, "Campaign", "lifecycle", { teamId: actor.teamId });
    case "manager":
      return isTeamManager(actor.subject.claims);
    case "reviewer":
      return isReviewer(actor.subject.claims);
  }
}

function mayAct(action: CampaignAction, status: CampaignStatus, actor: ActionActor): boolean {
  const rule = ACTION_RULES[action];
  return hasRight(rule.rightFrom?.[status] ?? rule.right, actor);
}

/** The actions to offer for the status and the user's rights (enable only when complete). */
export function availableActions(status: CampaignStatus, actor: ActionActor, ctx: ActionContext): CampaignAction[] {
  return CAMPAIGN_ACTIONS.filter((action) => applyAction(action, status, actor, ctx, "-").ok);
}

/** The outcome of the action, or the stable reason (an i18n key) it is refused. */
export function applyAction(
  action: CampaignAction,
  status: CampaignStatus,
  actor: ActionActor,
  ctx: ActionContext,
  rejectionReason?: string | null,
): ActionResult {
  const rule = ACTION_RULES[action];
  if (!appliesFrom(rule, status)) {
    return { ok: false, reason: action === "delete" ? "campaigns:errors.onlyDraftDelete" : "campaigns:actions.notAllowed" };
  }
  if (!mayAct(action, status, actor)) return { ok: false, reason: "errors.insufficientPermissions" };
  switch (action) {
    case "enable":
      if (!ctx.complete) return { ok: false, reason: "campaigns:activation.incompleteCampaign" };
      return ctx.moderation
        ? { ok: true, value: { status: "pending_review", addToPendingReview: true } }
        : { ok: true, value: { status: "active" } };
    case "approve":
      return { ok: true, value: { status: rule.to, review: { approved: true, rejectionReason: null } } };
    case "reject": {
      const reason = rejectionReason?.trim() ?? "";
      if (!reason) return { ok: false, reason: "campaigns:actions.reasonRequired" };
      return { ok: true, value: { status: rule.to, review: { approved: false, rejectionReason: reason } } };
    }
    default:
      return { ok: true, value: { status: rule.to } };
  }
}
