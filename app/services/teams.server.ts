/** Team access shared by every team page: a team outside the user's scope is not found. */
import { notFound, ok, type Result } from "~/domain/result";
import { canSeeTeam } from "~/domain/teams";
import type { Team, User } from "~/domain/types";
import { getStorage } from "~/services/storage.server";

export async function getVisibleTeam(user: User, teamId: string): Promise<Team | null> {
  const team = await getStorage().teams.getOne(teamId);
  return team && canSeeTeam(user, team) ? team : null;
}

/** The team, or not-found, which does not reveal whether it exists. */
export async function findVisibleTeam(user: User, teamId: string | undefined): Promise<Result<Team>> {
  const team = teamId ? await getVisibleTeam(user, teamId) : null;
  return team ? ok(team) : notFound();
}
