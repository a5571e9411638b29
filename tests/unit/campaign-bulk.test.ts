import { describe, expect, it } from "vitest";
import type { Campaign } from "~/domain/campaigns/campaign";
import { bulkSummary, planBulkEdit, type BulkChange, type BulkContext, type BulkRow } from "~/domain/campaigns/bulk";
import type { Subject } from "~/domain/permissions";
import { makeCampaign, PARIS, settingsWith } from "./campaign-fixture";

const RETAIL_EDITOR: Subject = { claims: { type: "retailer", role: "EDITOR" }, roleByTeam: {} };
const RETAIL_ADMIN: Subject = { claims: { type: "retailer", role: "ADMIN" }, roleByTeam: {} };
const RETAIL_VIEWER: Subject = { claims: { type: "retailer", role: "VIEWER" }, roleByTeam: {} };
const SUPPLIER_TEAM1: Subject = { claims: { type: "supplier", role: "EDITOR" }, roleByTeam: { "team-1": "EDITOR" } };

const ctx = (over: Partial<BulkContext> = {}): BulkContext => ({ settings: settingsWith(), actor: RETAIL_EDITOR, timeZone: PARIS, ...over });
const plan = (c: Campaign, change: BulkChange, over: Partial<BulkContext> = {}): BulkRow => planBulkEdit([c], change, ctx(over))[0]!;
// Start 2026-03-01 in Paris; a CPC sponsored-products campaign bidding 0.50 (limits 0.15 to 20).
const camp = (over: Partial<Campaign> = {}) => makeCampaign(over);

describe("a status action for each campaign", () => {
  it.each<[string, Partial<Campaign>, BulkChange, Partial<BulkContext>, Partial<BulkRow>]>([
    ["pause an active one", { status: "active" }, { kind: "action", action: "pause" }, {}, { ok: true, changed: true, before: "active", after: "paused" }],
    ["pause a draft", { status: "draft" }, { kind: "action", action: "pause" }, {}, { ok: false, reason: "campaigns:actions.notAllowed", after: "draft" }],
    ["enable a draft", {}, { kind: "action", action: "enable" }, {}, { ok: true, after: "active", outcome: { status: "active" } }],
    ["enable an incomplete draft", { bid: 0 }, { kind: "action", action: "enable" }, {}, { ok: false, reason: "campaigns:activation.incompleteCampaign" }],
    [
      "enable with moderation: pending review",
      {},
      { kind: "action", action: "enable" },
      { settings: settingsWith((s) => { s.types["sponsored-products"].moderation = true; }) },
      { ok: true, after: "pending_review", outcome: { status: "pending_review", addToPendingReview: true } },
    ],
    [
      "enable under the LM rules: FIXED without end date",
      { bidStrategy: "FIXED" },
      { kind: "action", action: "enable" },
      { settings: settingsWith((s) => { s.lmRetailer = true; }) },
      { ok: false, reason: "campaigns:activation.incompleteCampaign", problems: ["campaigns:activation.missingEndDate"] },
    ],
    [
      "enable a campaign of a suspended team",
      {},
      { kind: "action", action: "enable" },
      { teamStatuses: { "team-1": "suspended" } },
      { ok: false, reason: "campaigns:activation.incompleteCampaign", problems: ["campaigns:activation.teamInactive"] },
    ],
    ["suspend: retailer admin only", { status: "active" }, { kind: "action", action: "suspend" }, {}, { ok: false, reason: "errors.insufficientPermissions" }],
    ["suspend as retailer admin", { status: "active" }, { kind: "action", action: "suspend" }, { actor: RETAIL_ADMIN }, { ok: true, after: "suspended" }],
    ["delete a paused one", { status: "paused" }, { kind: "action", action: "delete" }, {}, { ok: false, reason: "campaigns:errors.onlyDraftDelete" }],
    ["archive as a viewer", {}, { kind: "action", action: "archive" }, { actor: RETAIL_VIEWER }, { ok: false, reason: "errors.insufficientPermissions" }],
    ["archive another team's campaign as a supplier", { team: "team-2" }, { kind: "action", action: "archive" }, { actor: SUPPLIER_TEAM1 }, { ok: false, reason: "errors.insufficientPermissions" }],
    ["archive own team's campaign as a supplier", {}, { kind: "action", action: "archive" }, { actor: SUPPLIER_TEAM1 }, { ok: true, after: "archived" }],
  ])("%s", (_label, over, change, context, expected) => {
    const r = plan(camp(over), change, context);
    expect(r).toMatchObject({ id: "camp-1", name: "Spring sale", version: 3, field: "status", ...expected });
    if (!r.ok) expect(r.changed).toBe(false);
  });
});

describe("an end day for each campaign", () => {
  it.each<[string, Partial<Campaign>, string, Partial<BulkRow>]>([
    ["after the start", {}, "2026-04-30", { ok: true, changed: true, before: null, after: "2026-04-30", patch: { endDate: "2026-04-30T21:59:59.999Z" } }],
    ["on the start day", {}, "2026-03-01", { ok: true, patch: { endDate: "2026-03-01T22:59:59.999Z" } }],
    ["before the start", {}, "2026-02-28", { ok: false, reason: "campaigns:form.endBeforeStart" }],
    ["not a day", {}, "2026-02-30", { ok: false, reason: "campaigns:form.dayInvalid" }],
    ["the same day again", { endDate: "2026-04-30T21:59:59.999Z" }, "2026-04-30", { ok: true, changed: false, before: "2026-04-30" }],
    ["an archived campaign", { status: "archived" }, "2026-04-30", { ok: false, reason: "campaigns:campaign.edit.archived" }],
  ])("%s", (_label, over, day, expected) => {
    expect(plan(camp(over), { kind: "endDay", day })).toMatchObject({ field: "endDate", ...expected });
  });
});

describe("a bid for each campaign", () => {
  it.each<[string, Partial<Campaign>, number, Partial<BulkContext>, Partial<BulkRow>]>([
    ["within CPC limits", {}, 200, {}, { ok: true, changed: true, before: 50, after: 200, patch: { bid: 200 } }],
    ["the minimum itself", {}, 15, {}, { ok: true, patch: { bid: 15 } }],
    ["below the CPC minimum", {}, 14, {}, { ok: false, reason: "campaigns:bidding.minBid", values: { limit: 15 } }],
    ["above the CPC maximum", {}, 2_001, {}, { ok: false, reason: "campaigns:bidding.maxBid", values: { limit: 2_000 } }],
    ["CPM limits are 1 to 100", { bidStrategy: "CPM" }, 50, {}, { ok: false, reason: "campaigns:bidding.minBid", values: { limit: 100 } }],
    ["banner-ads CPM allows 300", { bidStrategy: "CPM", campaignType: "banner-ads" }, 30_000, {}, { ok: true }],
    ["not whole cents", {}, 12.5, {}, { ok: false, reason: "campaigns:form.bidNotPositive" }],
    ["zero", {}, 0, {}, { ok: false, reason: "campaigns:form.bidNotPositive" }],
    ["same bid", {}, 50, {}, { ok: true, changed: false }],
    [
      "a strategy the type no longer allows is coerced, with its limits",
      { bidStrategy: "FIXED" },
      50,
      {},
      { ok: false, reason: "campaigns:bidding.minBid", values: { limit: 100 } },
    ],
    [
      "a marketplace seller's strategy is CPC",
      { bidStrategy: "CPM" },
      50,
      { teamAccountTypes: { "team-1": "marketplace_seller" } },
      { ok: true, changed: true, patch: { bid: 50, bidStrategy: "CPC" } },
    ],
    [
      "FIXED allowed: no limit check",
      { bidStrategy: "FIXED" },
      5,
      { settings: settingsWith((s) => { s.types["sponsored-products"].strategies.push("FIXED"); }) },
      { ok: true, patch: { bid: 5 } },
    ],
    ["as a viewer", {}, 200, { actor: RETAIL_VIEWER }, { ok: false, reason: "errors.insufficientPermissions" }],
    ["an archived campaign", { status: "archived" }, 200, {}, { ok: false, reason: "campaigns:campaign.edit.archived" }],
  ])("%s", (_label, over, cents, context, expected) => {
    expect(plan(camp(over), { kind: "bid", cents }, context)).toMatchObject({ field: "bid", ...expected });
  });
});

describe("a daily budget for each campaign", () => {
  it.each<[string, Partial<Campaign>, number | null, Partial<BulkRow>]>([
    ["no total", {}, 5_000, { ok: true, changed: true, before: null, after: 5_000, patch: { pacingDaily: 5_000 } }],
    ["below the total", { pacingTotal: 10_000 }, 9_999, { ok: true, patch: { pacingDaily: 9_999 } }],
    ["equal to the total", { pacingTotal: 10_000 }, 10_000, { ok: false, reason: "campaigns:budget.dailyNotBelowTotal" }],
    ["not above a placement cap", { pacingSearch: 3_000 }, 3_000, { ok: false, reason: "campaigns:budget.placementNotBelowDaily" }],
    ["above a placement cap", { pacingSearch: 3_000 }, 3_001, { ok: true }],
    ["0 removes it", { pacingDaily: 2_000 }, 0, { ok: true, changed: true, before: 2_000, after: null, patch: { pacingDaily: null } }],
    ["empty removes it", { pacingDaily: 2_000 }, null, { ok: true, patch: { pacingDaily: null } }],
    ["removing none changes nothing", {}, null, { ok: true, changed: false }],
  ])("%s", (_label, over, cents, expected) => {
    expect(plan(camp(over), { kind: "daily", cents })).toMatchObject({ field: "pacingDaily", ...expected });
  });
});

it("plans each campaign on its own: one failing row does not stop the others", () => {
  const rows = planBulkEdit(
    [camp({ id: "a", status: "active" }), camp({ id: "b", status: "draft" }), camp({ id: "c", status: "active", version: 9 })],
    { kind: "action", action: "pause" },
    ctx(),
  );
  expect(rows.map((r) => [r.id, r.ok, r.version])).toEqual([
    ["a", true, 3],
    ["b", false, 3],
    ["c", true, 9],
  ]);
  expect(bulkSummary(rows)).toEqual({ changed: 2, refused: 1, unchanged: 0 });
});
