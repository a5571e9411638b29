/**
 * The one rule that decides whether a campaign's sections may be edited (General, Bidding,
 * Budget, Targeting, Banners and creative, Products, and bulk edit): the loader's flag, the forms
 * shown and the action's refusal all ask it.
 *
 * - The user needs the campaign update right on the campaign's team ('Insufficient permissions').
 * - Archived (and deleted) is the end of a campaign's life: it is read, not edited.
 */
import { can, type Subject } from "~/domain/permissions";
import type { CampaignStatus } from "~/domain/campaigns/status";

/** Statuses whose campaigns are read, never edited. */
export const READ_ONLY_STATUSES: readonly CampaignStatus[] = ["archived", "deleted"];

export type EditRefusal = "errors.insufficientPermissions" | "campaigns:campaign.edit.archived";

/** Why the user may not edit the campaign's sections now, or null when they may. */
export function campaignEditRefusal(user: Subject, campaign: { team: string; status: CampaignStatus }): EditRefusal | null {
  if (!can(user, "Campaign", "update", { teamId: campaign.team })) return "errors.insufficientPermissions";
  if (READ_ONLY_STATUSES.includes(campaign.status)) return "campaigns:campaign.edit.archived";
  return null;
}

/** The sections are editable by this user now (the forms are shown). */
export function isCampaignEditable(user: Subject, campaign: { team: string; status: CampaignStatus }): boolean {
  return campaignEditRefusal(user, campaign) === null;
}
