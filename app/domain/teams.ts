/** Team rules: who sees which team, status changes. Pure. */
import { hasOperatorRights, rightsAccountType } from "~/domain/permissions";
import type { Claims, TeamStatus } from "~/domain/types";

/** Spec section 6: retailers and operators see active and suspended teams (operators archived ones too, when they ask); others the teams listing them. */
export function canSeeTeam(
  user: { claims: Claims; teamIds: readonly string[] },
  team: { id: string; status: TeamStatus },
): boolean {
  // A stepped-down operator sees what a retailer of the session role sees (ADR 40).
  if (hasOperatorRights(user.claims)) return true;
  if (rightsAccountType(user.claims) === "retailer") return team.status !== "archived";
  return user.teamIds.includes(team.id) && team.status !== "archived";
}

/** The statuses a user may list teams by. */
export function listableTeamStatuses(claims: Claims): TeamStatus[] {
  return hasOperatorRights(claims) ? ["active", "suspended", "archived"] : ["active", "suspended"];
}

/** Status changes a team manager may make: any other status (restore = back to active). */
export function canChangeTeamStatus(claims: Claims, from: TeamStatus, to: TeamStatus): boolean {
  if (from === to) return false;
  // Only operators see archived teams, so only they restore them.
  if (from === "archived") return hasOperatorRights(claims);
  return hasOperatorRights(claims) || (rightsAccountType(claims) === "retailer" && claims.role === "ADMIN");
}

/** At most this many teams change status in one bulk change. */
export const MAX_BULK_TEAMS = 100;
