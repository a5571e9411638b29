import { describe, expect, it } from "vitest";
import {
  applyAction,
  availableActions,
  type ActionActor,
  type ActionResult,
  type CampaignAction,
} from "~/domain/campaigns/actions";
import type { CampaignStatus } from "~/domain/campaigns/status";
import type { AccountType, Role } from "~/domain/types";

const TEAM = "team-1";
const actor = (type: AccountType, role: Role, teamRole?: Role): ActionActor => ({
  subject: { claims: { type, role }, roleByTeam: teamRole ? { [TEAM]: teamRole } : {} },
  teamId: TEAM,
});
const OPERATOR = actor("operator", "ADMIN");
const RETAIL_ADMIN = actor("retailer", "ADMIN");
const RETAIL_EDITOR = actor("retailer", "EDITOR");
const RETAIL_REVIEWER = actor("retailer", "REVIEWER");
const RETAIL_VIEWER = actor("retailer", "VIEWER");
const SUPPLIER_EDITOR = actor("supplier", "EDITOR", "EDITOR");
const SUPPLIER_OUTSIDE = actor("supplier", "EDITOR");
const OK = { moderation: false, complete: true };

describe("availableActions: NOTES.md's campaign actions table", () => {
  it.each<[string, CampaignStatus, ActionActor, CampaignAction[]]>([
    ["operator, draft", "draft", OPERATOR, ["enable", "test", "disable", "archive", "delete"]],
    ["operator, active", "active", OPERATOR, ["pause", "test", "suspend", "disable", "archive"]],
    ["operator, paused", "paused", OPERATOR, ["enable", "test", "suspend", "disable", "redraft", "archive"]],
    ["operator, test", "test", OPERATOR, ["enable", "suspend", "disable", "redraft", "archive"]],
    ["operator, suspended", "suspended", OPERATOR, ["disable", "redraft", "archive"]],
    ["operator, disabled", "disabled", OPERATOR, ["redraft", "archive"]],
    ["operator, rejected", "rejected", OPERATOR, ["disable", "redraft", "archive"]],
    ["operator, approved", "approved", OPERATOR, ["enable", "disable", "archive"]],
    ["operator, pending_review", "pending_review", OPERATOR, ["disable", "archive", "approve", "reject"]],
    ["operator, archived", "archived", OPERATOR, []],
    ["operator, deleted", "deleted", OPERATOR, []],
    ["retailer admin, active", "active", RETAIL_ADMIN, ["pause", "test", "suspend", "disable", "archive"]],
    ["retailer editor, draft", "draft", RETAIL_EDITOR, ["enable", "archive", "delete"]],
    ["retailer editor, active", "active", RETAIL_EDITOR, ["pause", "archive"]],
    ["retailer editor, suspended: no re-draft", "suspended", RETAIL_EDITOR, ["archive"]],
    ["retailer editor, paused", "paused", RETAIL_EDITOR, ["enable", "redraft", "archive"]],
    ["retailer reviewer, pending_review", "pending_review", RETAIL_REVIEWER, ["approve", "reject"]],
    ["retailer reviewer, draft", "draft", RETAIL_REVIEWER, []],
    ["retailer viewer, draft", "draft", RETAIL_VIEWER, []],
    ["supplier editor in team, draft", "draft", SUPPLIER_EDITOR, ["enable", "archive", "delete"]],
    ["supplier editor in team, disabled", "disabled", SUPPLIER_EDITOR, ["archive"]],
    ["supplier outside the team, draft", "draft", SUPPLIER_OUTSIDE, []],
  ])("%s", (_label, status, who, expected) => {
    expect(availableActions(status, who, OK)).toEqual(expected);
  });

  it("enable is not offered for an incomplete campaign", () => {
    expect(availableActions("draft", RETAIL_EDITOR, { moderation: false, complete: false })).toEqual(["archive", "delete"]);
  });
});

describe("applyAction", () => {
  it.each<[string, CampaignAction, CampaignStatus, ActionActor, { moderation: boolean; complete: boolean }, string | null, ActionResult]>([
    ["enable a draft", "enable", "draft", RETAIL_EDITOR, OK, null, { ok: true, value: { status: "active" } }],
    [
      "enable under moderation",
      "enable",
      "paused",
      RETAIL_EDITOR,
      { moderation: true, complete: true },
      null,
      { ok: true, value: { status: "pending_review", addToPendingReview: true } },
    ],
    ["enable incomplete", "enable", "draft", RETAIL_EDITOR, { moderation: false, complete: false }, null, { ok: false, reason: "campaigns:activation.incompleteCampaign" }],
    ["enable an active one", "enable", "active", OPERATOR, OK, null, { ok: false, reason: "campaigns:actions.notAllowed" }],
    ["delete a draft", "delete", "draft", SUPPLIER_EDITOR, OK, null, { ok: true, value: { status: "deleted" } }],
    ["delete an active one", "delete", "active", OPERATOR, OK, null, { ok: false, reason: "campaigns:errors.onlyDraftDelete" }],
    ["delete as a viewer", "delete", "draft", RETAIL_VIEWER, OK, null, { ok: false, reason: "errors.insufficientPermissions" }],
    ["pause", "pause", "active", RETAIL_EDITOR, OK, null, { ok: true, value: { status: "paused" } }],
    ["suspend as editor", "suspend", "active", RETAIL_EDITOR, OK, null, { ok: false, reason: "errors.insufficientPermissions" }],
    ["suspend as admin", "suspend", "test", RETAIL_ADMIN, OK, null, { ok: true, value: { status: "suspended" } }],
    ["test mode", "test", "draft", OPERATOR, OK, null, { ok: true, value: { status: "test" } }],
    ["disable a draft", "disable", "draft", RETAIL_ADMIN, OK, null, { ok: true, value: { status: "disabled" } }],
    ["disable an archived one", "disable", "archived", OPERATOR, OK, null, { ok: false, reason: "campaigns:actions.notAllowed" }],
    ["re-draft disabled as admin", "redraft", "disabled", RETAIL_ADMIN, OK, null, { ok: true, value: { status: "draft" } }],
    ["re-draft disabled as editor", "redraft", "disabled", RETAIL_EDITOR, OK, null, { ok: false, reason: "errors.insufficientPermissions" }],
    ["re-draft rejected as editor", "redraft", "rejected", RETAIL_EDITOR, OK, null, { ok: true, value: { status: "draft" } }],
    ["archive", "archive", "active", RETAIL_EDITOR, OK, null, { ok: true, value: { status: "archived" } }],
    [
      "approve",
      "approve",
      "pending_review",
      RETAIL_REVIEWER,
      OK,
      null,
      { ok: true, value: { status: "active", review: { approved: true, rejectionReason: null } } },
    ],
    ["approve as editor", "approve", "pending_review", RETAIL_EDITOR, OK, null, { ok: false, reason: "errors.insufficientPermissions" }],
    [
      "reject with a reason",
      "reject",
      "pending_review",
      OPERATOR,
      OK,
      "  Wrong brand ",
      { ok: true, value: { status: "rejected", review: { approved: false, rejectionReason: "Wrong brand" } } },
    ],
    ["reject without a reason", "reject", "pending_review", OPERATOR, OK, "  ", { ok: false, reason: "campaigns:actions.reasonRequired" }],
    ["reject a draft", "reject", "draft", OPERATOR, OK, "x", { ok: false, reason: "campaigns:actions.notAllowed" }],
  ])("%s", (_label, action, status, who, ctx, reason, expected) => {
    expect(applyAction(action, status, who, ctx, reason)).toEqual(expected);
  });
});
